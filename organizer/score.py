"""Score a submission on one board of a competition folder, exactly as a platform would.

    python3 -m organizer score COMPETITION_DIR BOARD SUBMISSION OUTPUT_DIR [--reveal]

Builds OUTPUT_DIR/input (ref/ from the competition's reference_data for BOARD,
res/ holding SUBMISSION), then runs scoring_program/score.py in a fresh process
with the run folder as working directory, as CodaLab v1 does. Scores land in
OUTPUT_DIR/output. A sealed board (``report: sealed``) gives what participants
see while its phase runs; ``--reveal`` scores it as it will be once revealed.
As an organizer's run, the details quoting the gold are shown (and the real
scores of a sealed board are in OUTPUT_DIR/output/private/). Exits with
score.py's exit code.
"""
import os
import subprocess
import sys
from pathlib import Path

from .inputs import Parser
from .layout import load_board_config
from . import SCORE
from .phase_data import assemble_input
from scorer.public import ORGANIZER_ENV

TOKEN_ENV = "ORGANIZER_TOKEN"   # where the reveal reads the platform token (organizer/reveal.py)


def organizer_env():
    """The environment of an organizer's local run: full reference-data messages and notes."""
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}   # the platform token stays with the client
    env[ORGANIZER_ENV] = "1"
    return env


def score_board(competition, board, submission, out_dir, quiet=False, reveal=False):
    out_dir = Path(out_dir).resolve()
    input_dir = assemble_input(Path(competition) / "reference_data", board, submission, out_dir / "input", reveal)
    output_dir = out_dir / "output"
    proc = subprocess.run([sys.executable, str(SCORE), str(input_dir), str(output_dir)],
                          cwd=str(out_dir), capture_output=True, text=True, env=organizer_env())
    if not quiet:
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        notes = output_dir / "private" / "reference_notes.txt"
        if notes.exists():
            print("Notes for the organizer on the reference data (%s):\n%s" % (notes, notes.read_text(encoding="utf-8")))
    return proc, output_dir


def main(argv=None):
    parser = Parser(prog="python3 -m organizer score", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (holds reference_data/)")
    parser.add_argument("board", help="A, B or any board_<X>.yaml name")
    parser.add_argument("submission", help="submission file, folder or zip")
    parser.add_argument("output", help="folder for input/ and output/ of this run")
    parser.add_argument("--reveal", action="store_true", help="score a sealed board as it will be once revealed")
    args = parser.parse_args(argv)
    load_board_config(Path(args.competition) / "reference_data", args.board)
    proc, _ = score_board(args.competition, args.board, args.submission, args.output, reveal=args.reveal)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
