"""The tables of docs/ that the code declares: each family's options, the linter's rules and the fields it checks.

    python3 -m organizer options           rewrite every such table that differs from the code
    python3 -m organizer options --check   exit 1 (naming the pages) if a page's table is not the code's

The code is the one source: an option's default, what is allowed and what it means are its ``Option``
(``scorer.config``) in the family's module; a rule of ``python3 -m organizer check`` is its ``Rule`` in
organizer/lint_rules.py. A page holds each table between two markers, and the test suite runs ``--check``.

>>> print(row("mode", Option("all", ("all", "legacy"), "which samples count")))
| `mode` | `all` | `all`, `legacy` | which samples count |
"""
import sys

from scorer.public import Check, Option, families  # noqa: F401  (Option: the doctest above)

from . import lint_rules
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


def blocks():
    """(page, begin marker, end marker, marked block) of every table the code writes into docs/."""
    found = [(page(f), BEGIN, END, table(f)) for f in families().values()]
    found.append((ROOT / "docs" / "organizers.md", lint_rules.BEGIN, lint_rules.END, lint_rules.table()))
    found.append((ROOT / "docs" / "organizers.md", lint_rules.FIELDS_BEGIN, lint_rules.FIELDS_END,
                  lint_rules.fields_table()))
    return found


def with_block(text, begin, end, block, name):
    """``text`` (a docs page) with its marked block replaced by ``block``; ValueError without markers."""
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError("no table block (the two marker lines) in %s" % name)
    return text[:start] + block + text[stop + len(end):]


def stale_pages():
    """Pages whose tables differ from the code (or that lack a block), as (path, reason)."""
    found = []
    for path, begin, end, block in blocks():
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        try:
            if with_block(text, begin, end, block, path.name) != text:
                found.append((path, "a table is not the code's"))
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
    stale_paths = {path for path, _ in stale}
    for path, begin, end, block in blocks():
        if path in stale_paths:
            path.write_text(with_block(path.read_text(encoding="utf-8"), begin, end, block, path.name), encoding="utf-8")
    for path in sorted(stale_paths):
        print("wrote the tables of %s" % path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
