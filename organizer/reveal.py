"""Reveal a sealed board: its phase's reference data with the answers, and the real scores on the leaderboard.

    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --codabench URL --token TOKEN --competition ID
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --evalai URL --token TOKEN --challenge ID

While a board's phase runs with ``report: sealed``, its reference data holds no
answer and every submission gets the placeholder -1. After the phase ends,
OUT.zip is that phase's reference data with the board's answers and
``report: full``. Then:

- Codabench: ``--codabench`` does the whole reveal through Codabench's API with
  the organizer's token (organizer/reveal_codabench.py): the new reference
  data, a re-run of each team's leaderboard submission, each re-run checked
  against the same scoring here and put on the leaderboard;
- EvalAI: ``--evalai`` scores each submission of the phase here and stores the
  scores through EvalAI's host API, then makes the phase's split public
  (organizer/reveal_evalai.py);
- CodaLab v1: the steps are the organizer's, on the site's pages
  (docs/organizers.md, "Reveal a sealed board"): replace the phase's reference
  data with OUT.zip, re-run each submission on the phase's leaderboard while
  the phase is still blind, then switch the phase to the default mode.

With ``--answers-in-image`` (a competition bundled with ``--answers-image``: its
answers are in the private scoring image), OUT.zip holds no answer either: the
config says ``report: full`` and names the board's folder in the image, which
already holds the answers; the scores here are made with the answers themselves.

``python3 -m organizer rescore COMPETITION_DIR BOARD DOWNLOADS OUT`` ranks the
downloaded submissions offline with the same scores, on any platform.
Exit codes: 0 done, 2 the competition or a platform call says no (one line).
"""
import sys
import tempfile
from pathlib import Path

from .answers_image import answers_folder
from .layout import load_board_config
from .phase_data import PhaseDataError, phase_entries, write_entries
from .bundle import zip_bytes
from .http_api import RevealError
from .inputs import Parser

STEPS = """Next, after the phase has ended:
  Codabench:   python3 -m organizer reveal {competition} {board} {out} --codabench URL --token TOKEN --competition ID
  EvalAI:      python3 -m organizer reveal {competition} {board} {out} --evalai URL --token TOKEN --challenge ID
  CodaLab v1:  replace the phase's reference data with {out}, re-run each submission on the phase's leaderboard
               (the organizer's submissions page, "Re-run submission") while the phase is still blind, then switch
               its leaderboard to the default mode (docs/organizers.md, "Reveal a sealed board")."""


def main(argv=None):
    parser = Parser(prog="python3 -m organizer reveal", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (holds reference_data/)")
    parser.add_argument("board", help="the sealed board, e.g. B")
    parser.add_argument("out", help="the reference zip to write, e.g. out/reference_data_B_reveal.zip")
    platform = parser.add_mutually_exclusive_group()
    platform.add_argument("--codabench", metavar="URL", help="reveal on this Codabench (its address)")
    platform.add_argument("--evalai", metavar="URL", help="reveal on this EvalAI (its API's address)")
    parser.add_argument("--token", help="the organizer's API token on that platform")
    parser.add_argument("--competition-id", "--competition", dest="competition_id", type=int,
                        help="Codabench: the competition's id (in its address)")
    parser.add_argument("--challenge", type=int, help="EvalAI: the challenge's id")
    parser.add_argument("--batch", type=int, default=10, help="submissions re-run at a time (default 10)")
    parser.add_argument("--wait", type=int, default=3600, help="seconds to wait for the re-runs (default 3600)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
    parser.add_argument("--answers-in-image", action="store_true", help="the answers are in the competition's private "
                        "scoring image (bundle --answers-image): OUT.zip holds none, its config names their folder")
    parser.add_argument("--early", action="store_true", help="reveal although the phase has not ended (its answers "
                        "then reach anyone while participants can still submit)")
    args = parser.parse_args(argv)
    try:
        return _reveal(args)
    except (PhaseDataError, RevealError) as exc:
        print("reveal: %s" % exc, file=sys.stderr)
        return 2


def _reveal(args):
    from .reveal_codabench import reveal as reveal_codabench
    from .reveal_evalai import reveal as reveal_evalai

    config = load_board_config(Path(args.competition) / "reference_data", args.board)
    if (config or {}).get("report", "full") != "sealed":
        raise RevealError("board %s is not sealed (its config has no report: sealed); its phase already shows the "
                           "scores" % args.board)
    if (args.codabench or args.evalai) and not args.token:
        raise RevealError("--token is needed: the organizer's API token on the platform")
    entries = phase_entries(args.competition, args.board, reveal=True)   # what the scores here are made with
    uploaded = entries
    if args.answers_in_image:
        uploaded = phase_entries(args.competition, args.board, reveal=True, answers_dir=answers_folder(args.board))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(zip_bytes(uploaded))
    print("wrote %s: board %s's reference data with %s and report: full." % (
        out, args.board, "no answer (they are in %s of the scoring image)" % answers_folder(args.board)
        if args.answers_in_image else "its answers"))
    if not (args.codabench or args.evalai):
        print(STEPS.format(competition=args.competition, board=args.board, out=out))
        return 0
    if args.codabench and args.competition_id is None:
        raise RevealError("--competition is needed: the Codabench competition's id")
    if args.evalai and args.challenge is None:
        raise RevealError("--challenge is needed: the EvalAI challenge's id")
    with tempfile.TemporaryDirectory(prefix="reveal-ref-") as tmp:
        ref_dir = write_entries(entries, tmp)
        if args.codabench:
            reveal_codabench(args.competition, args.board, out, ref_dir, args.codabench, args.token,
                             args.competition_id, batch=args.batch, wait=args.wait, dry_run=args.dry_run,
                             early=args.early)
        else:
            reveal_evalai(args.competition, args.board, ref_dir, args.evalai, args.token, args.challenge,
                          dry_run=args.dry_run, early=args.early)
    return 0


if __name__ == "__main__":
    sys.exit(main())
