"""python3 -m organizer <subcommand> [...]: every organizer tool behind one command.

    python3 -m organizer new      make a competition folder from a gold file
    python3 -m organizer boards   make (once) the board split of a competition
    python3 -m organizer score    score one submission on one board, as a platform does
    python3 -m organizer reveal   the reference zip that reveals a sealed board
    python3 -m organizer bundle   the uploadable bundle zip (CodaLab v1 or Codabench v2)
    python3 -m organizer check    lint a competition folder or a bundle zip
    python3 -m organizer rescore  re-score every downloaded submission of a board, ranked, with significance tiers
    python3 -m organizer ladder   a Ladder public board from every team's downloaded submissions, state kept here
    python3 -m organizer evalai   the EvalAI evaluation script and challenge configuration
    python3 -m organizer kaggle   the Kaggle-style metric file with its engine
    python3 -m organizer demo     regenerate a demo competition's data from its seed
    python3 -m organizer options  write each family's options table in docs/ from its code
    python3 -m organizer messages the catalogue of every message participants read, in one language

``python3 -m organizer <subcommand> -h`` tells the arguments of each.
"""
import importlib
import sys

SUBCOMMANDS = {
    "new": "new", "boards": "boards", "score": "score", "reveal": "reveal", "bundle": "write_bundle",
    "check": "check", "rescore": "rescore", "ladder": "ladder", "evalai": "evalai", "kaggle": "kaggle", "demo": "demo_data.run",
    "options": "options_table", "messages": "messages",
}


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in SUBCOMMANDS:
        print(__doc__.strip())
        if argv and argv[0] not in ("-h", "--help"):
            print("\nunknown subcommand %r" % argv[0], file=sys.stderr)
            return 2
        return 0
    module = importlib.import_module("organizer." + SUBCOMMANDS[argv[0]])
    return module.main(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
