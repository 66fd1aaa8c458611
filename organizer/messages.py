"""python3 -m organizer messages [--language zh] [--out FILE]: the catalogue of every message participants read.

One line per message, ``key<TAB>text``, sorted by key, in the language asked for: the place to review a
translation in one read. The engine's messages and those of the pages the organizer publishes (the re-scored
leaderboard, organizer/rescore_page.py). Messages under ``reference.`` reach the organizer only and are English; every other
message has its text in each language (tests/test_languages.py keeps it so).
"""
import importlib
import sys

from scorer.public import LANGUAGES, every_message
from .inputs import Parser


# organizer modules that declare messages: what they write is published to participants (the re-scored board)
PUBLISHED = ("organizer.rescore_page",)


def load_all():
    """Import every engine module and the organizer's published pages, so that every Message is declared (each
    registers itself in the engine's catalogue)."""
    messages = every_message()
    for name in PUBLISHED:
        importlib.import_module(name)
    return messages


def catalogue(lang="en"):
    """``[(key, text)]`` of every participant message in ``lang`` (its template, fields in braces)."""
    return [(key, message.texts[lang]) for key, message in sorted(load_all().items())
            if not key.startswith("reference.")]


def main(argv=None):
    parser = Parser(prog="python3 -m organizer messages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    parser.add_argument("--out", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    text = "".join("%s\t%s\n" % (key, " ".join(value.split())) for key, value in catalogue(args.language))
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
