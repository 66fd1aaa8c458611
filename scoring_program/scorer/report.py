"""The detailed results page: one self-contained HTML file, the same bytes for the same inputs.

Families describe what to show with three plain blocks (Table, Text, Scores)
inside Sections; this module alone turns them into HTML, escaping every string
(``_text``: control, bidi and zero-width characters as escapes, then HTML
escaping), so no family writes markup and no participant string reaches the
page raw. The page also forbids every script and remote resource through its
Content-Security-Policy, and fits a narrow screen: wide tables scroll inside
their own box.
"""
import html
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

from .errors import printable
from .outputs import format_number

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
_CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:16px;color:#222;max-width:1100px;
overflow-wrap:anywhere}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
.wide{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}caption{text-align:left;color:#555;padding:4px 0}
.primary{font-weight:bold;background:#eef6ff}.note{color:#555}.error{color:#a00;font-weight:bold}
code{background:#f6f6f6;padding:1px 4px}
"""


@dataclass
class Text:
    text: str
    css: str = ""


@dataclass
class Table:
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    caption: str = ""
    digits: int = 4


@dataclass
class Scores:
    """The leaderboard scores with the primary one highlighted."""

    scores: dict
    primary: str


@dataclass
class Section:
    title: str
    blocks: List[Any] = field(default_factory=list)


def _text(value):
    """Any string as safe page text: invisible and reordering characters shown as escapes, then HTML-escaped."""
    return html.escape(printable(value))


def _cell(value, digits):
    if isinstance(value, float):
        return format_number(value, digits)
    return _text(value)


def _render_block(block):
    if isinstance(block, Text):
        cls = ' class="%s"' % block.css if block.css else ""
        return "<p%s>%s</p>" % (cls, _text(block.text))
    if isinstance(block, Scores):
        rows = []
        for key, value in block.scores.items():
            cls = ' class="primary"' if key == block.primary else ""
            rows.append("<tr%s><td><code>%s</code></td><td>%s</td></tr>"
                        % (cls, _text(key), format_number(value, 10)))
        return '<div class="wide"><table><tr><th>key</th><th>value</th></tr>%s</table></div>' % "".join(rows)
    if isinstance(block, Table):
        head = "".join("<th>%s</th>" % _text(h) for h in block.headers)
        body = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % _cell(v, block.digits) for v in row)
                       for row in block.rows)
        caption = "<caption>%s</caption>" % _text(block.caption) if block.caption else ""
        return '<div class="wide"><table>%s<tr>%s</tr>%s</table></div>' % (caption, head, body)
    raise TypeError("unknown report block %r" % type(block).__name__)


def render(title, sections: Sequence[Section], subtitle: Optional[str] = None):
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta http-equiv="Content-Security-Policy" content="%s">' % _CSP,
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>%s</title><style>%s</style></head><body>" % (_text(title), _CSS.strip()),
             "<h1>%s</h1>" % _text(title)]
    if subtitle:
        parts.append('<p class="note">%s</p>' % _text(subtitle))
    for section in sections:
        parts.append("<h2>%s</h2>" % _text(section.title))
        parts.extend(_render_block(b) for b in section.blocks)
    parts.append("</body></html>\n")
    return "\n".join(parts)


def error_page(title, kind, message):
    return render(title, [Section(kind, [Text(message, "error")])])


def sealed_page(title, board, placeholder, summary):
    """The page of a sealed board: what was received, and why no score is shown (nothing from the gold)."""
    return render(title, [Section("Board %s is sealed" % board, [
        Text(summary),
        Text("While this phase runs, every score of this board is written as %s (a placeholder, not a result) and "
             "this page shows no detail. The organizers reveal the board after the phase ends; your scores then "
             "replace the placeholders." % format_number(placeholder, 0), "note"),
    ])])
