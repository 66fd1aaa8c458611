"""Reveal a sealed board: the reference zip of its phase with ``report: full``.

    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip

While a board's phase runs with ``report: sealed``, participants see only
placeholder scores. After the phase ends, replace the phase's reference data
with OUT.zip and re-run every submission of the phase on the platform (or
score the downloaded submissions with ``python3 -m organizer rescore --reveal``); the
scores are then the board's real ones. docs/organizers.md gives the steps for
each platform.
"""
import argparse
import sys
from pathlib import Path

from .bundle import reference_zip
from .layout import load_board_config


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m organizer reveal", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (holds reference_data/)")
    parser.add_argument("board", help="the sealed board, e.g. B")
    parser.add_argument("out", help="the reference zip to write, e.g. out/reference_data_B_reveal.zip")
    args = parser.parse_args(argv)
    config = load_board_config(Path(args.competition) / "reference_data", args.board)
    if (config or {}).get("report", "full") != "sealed":
        print("board %s is not sealed (its config has no report: sealed); its phase already shows the scores."
              % args.board, file=sys.stderr)
        return 1
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(reference_zip(args.competition, args.board, reveal=True))
    print("wrote %s: board %s with report: full. Replace the phase's reference data with it and re-run the "
          "phase's submissions (docs/organizers.md, 'Reveal a sealed board')." % (out, args.board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
