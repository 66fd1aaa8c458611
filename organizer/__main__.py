"""python3 -m organizer <subcommand> [...]: every organizer tool behind one command.

    python3 -m organizer new      make a competition folder from a gold file
    python3 -m organizer boards   make (once) the board split of a competition
    python3 -m organizer score    score one submission on one board, as a platform does
    python3 -m organizer reveal   the reference zip that reveals a sealed board
    python3 -m organizer bundle   the uploadable bundle zip (CodaLab v1 or Codabench v2)
    python3 -m organizer image    the build context of a private scoring image holding every board's answers
    python3 -m organizer check    lint a competition folder or a bundle zip
    python3 -m organizer rescore  re-score every downloaded submission of a board, ranked, with significance tiers
    python3 -m organizer ladder   a Ladder public board from every team's downloaded submissions, state kept here
    python3 -m organizer evalai   the EvalAI evaluation script and challenge configuration
    python3 -m organizer kaggle   the Kaggle metric with its engine; from a competition, its solution and sample
    python3 -m organizer demo     regenerate a demo competition's data from its seed
    python3 -m organizer options  write the tables of docs/ from the code (options, lint rules)
    python3 -m organizer messages the catalogue of every message participants read, in one language

``python3 -m organizer <subcommand> -h`` tells the arguments of each. The long ones (new, bundle, check, rescore,
ladder) say what they are doing on stderr, on a terminal or with ``--progress``.

Exit codes: 0 done; 1 the linter found errors (check, bundle, new); 2 an input of the organizer's is wrong (one
line: what, where, how to fix); 3 a bug of ours (one line naming the file that keeps the traceback).
"""
import importlib
import os
import sys
import tempfile
import traceback

from .inputs import INPUT_ERROR, OrganizerError
from .redact import redact
from scorer.public import ScoringError

BUG = 3
# the packages every command imports (module -> what pip calls it)
NEEDED = {"numpy": "numpy", "pandas": "pandas", "yaml": "PyYAML"}

SUBCOMMANDS = {
    "new": "new", "boards": "boards", "score": "score", "reveal": "reveal", "bundle": "write_bundle", "image": "image",
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
    return run(argv[0], argv[1:])


def run(name, argv):
    """Run subcommand ``name``: its exit code, every failure said in one line on stderr."""
    prog = "organizer %s" % name
    try:
        module = importlib.import_module("organizer." + SUBCOMMANDS[name])
        return module.main(argv) or 0
    except OrganizerError as exc:
        return _say("%s: %s" % (prog, exc), INPUT_ERROR)
    except ScoringError as exc:   # the engine refuses a config or a reference file the command was given
        return _say("%s: %s: %s" % (prog, exc.who, exc.text("en")), INPUT_ERROR)
    except SystemExit as exc:
        if isinstance(exc.code, str):   # a command's own one-line refusal
            return _say("%s: %s" % (prog, exc.code), INPUT_ERROR)
        raise
    except KeyboardInterrupt:
        return _say("%s: interrupted" % prog, 130)
    except BrokenPipeError:   # the reader went away (... | head): the rest is dropped quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug of ours: one line, the traceback kept for the report
        if isinstance(exc, ModuleNotFoundError) and exc.name in NEEDED:   # not ours: this Python lacks a package
            return _say("%s: this Python has no %s; the organizer tools need %s: run them with .venv/bin/python "
                        "(made by bash tools/demo.sh) or install them: python3 -m pip install -r requirements.txt"
                        % (prog, exc.name, ", ".join(NEEDED.values())), INPUT_ERROR)
        text = redact(traceback.format_exc())   # an API token an exception quotes is never written
        with tempfile.NamedTemporaryFile("w", prefix="organizer-%s-" % name, suffix=".txt", delete=False) as fh:
            fh.write(text)
        return _say("%s: internal error (%s: %s); the traceback is in %s, please report it"
                    % (prog, type(exc).__name__, " ".join(redact(str(exc)).split())[:200], fh.name), BUG)


def _say(line, code):
    print(line, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
