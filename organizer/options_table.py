"""The options table of each family's page in docs/, written from the family's own Option declarations.

    python3 -m organizer options           rewrite the table in docs/<family>.md for every family
    python3 -m organizer options --check   exit 1 (naming the pages) if a page's table is not the code's

The code is the one source: an option's default, what is allowed and what it means are its ``Option``
(``scorer.config``) in the family's module; the page holds the table between two markers, and the test
suite runs ``--check``.

>>> print(row("mode", Option("all", ("all", "legacy"), "which samples count")))
| `mode` | `all` | `all`, `legacy` | which samples count |
"""
import argparse
import sys

from scorer.config import Check, Option  # noqa: F401  (Option: the doctest above)
from scorer.tasks import families

from .inputs import Parser
from . import ROOT

BEGIN = "<!-- options: written by `python3 -m organizer options` from the family's Option docs; edit those -->"
END = "<!-- end of options -->"
HEADER = "| option | default | allowed | meaning |\n|---|---|---|---|"


def yaml_value(value):
    """How a value is written in config.yaml (flow style)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    return str(value)


def allowed_text(allowed):
    if isinstance(allowed, Check):
        return allowed.description
    return ", ".join("`%s`" % yaml_value(a) for a in allowed)


def row(name, option):
    cells = ["`%s`" % name, "`%s`" % yaml_value(option.default), allowed_text(option.allowed), option.doc]
    return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def table(family):
    """The marked block of ``family``'s options, in declaration order."""
    rows = [row(name, option) for name, option in family.options.items()]
    return "\n".join([BEGIN, HEADER] + rows + [END])


def page(family):
    return ROOT / "docs" / ("%s.md" % family.name)


def with_table(text, family):
    """``text`` (a docs page) with its marked block replaced by the code's table; ValueError without markers."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError("no options block (the two marker lines) in %s" % page(family).name)
    return text[:start] + table(family) + text[end + len(END):]


def stale_pages():
    """Pages whose table differs from the code (or that have no block), as (path, reason)."""
    found = []
    for family in families().values():
        path = page(family)
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        try:
            if with_table(text, family) != text:
                found.append((path, "its options table is not the code's"))
        except ValueError as exc:
            found.append((path, str(exc)))
    return found


def main(argv=None):
    parser = Parser(prog="python3 -m organizer options", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page is stale")
    args = parser.parse_args(argv)
    stale = stale_pages()
    if args.check:
        for path, reason in stale:
            print("%s: %s; run python3 -m organizer options" % (path.relative_to(ROOT), reason), file=sys.stderr)
        return 1 if stale else 0
    for path, reason in stale:
        family = next(f for f in families().values() if page(f) == path)
        path.write_text(with_table(path.read_text(encoding="utf-8"), family), encoding="utf-8")
        print("wrote the options table of %s" % path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
