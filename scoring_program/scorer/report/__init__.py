"""The detailed results page: one self-contained HTML file, the same bytes for the same inputs.

Families describe what to show with plain blocks (Table, Text, Bars, Heatmap, Scatter)
inside Sections; the runner adds the Scores and the footer. This module alone
turns them into HTML, escaping every string (``_text``: control, bidi and
zero-width characters as escapes, then HTML escaping), so no family writes
markup and no participant string reaches the page raw. Charts are inline SVG
drawn by ``charts`` with the same escaping.

Every text of a block may be a plain string or a ``problems.Message`` /
``Problem``, written in the page's language (``render(..., lang=)``).

The page forbids every script and remote resource through its
Content-Security-Policy and prints in black and white. Its layout rules
(docs/report.md, measured by tests/test_browser.py): on a screen of 400 px, a
table or chart wider than the page scrolls inside its own box, and a chart's
text is never drawn below ``charts.MIN_FONT`` px; captions stand outside those
boxes; a label or key breaks only between words or after an underscore (a
table's column grows instead), and printed on Letter or A4 every table and
chart fits the page. A page of several sections opens with links to them.
"""
import html
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import charts
from ..errors import printable
from ..outputs import format_number
from ..problems import LANGUAGES, Message, Problem

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
_CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:16px;color:#222;max-width:1100px;
overflow-wrap:break-word}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
nav ul{list-style:none;margin:0;padding:0}nav li{display:inline-block;margin:0 18px 4px 0}
.wide{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:8px 0 16px}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}td{white-space:nowrap}
td.t{white-space:normal;text-align:left;min-width:5em}td.ci{white-space:normal}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.primary{font-weight:bold;background:#eef6ff}.note{color:#555}.error{color:#a00;font-weight:bold}
code{background:#f6f6f6;padding:1px 4px}small code{font-size:11px;color:#555}.key{display:block}
figure{margin:8px 0 16px}figcaption{color:#555;font-size:14px;padding:4px 0}figure table{margin:4px 0}
svg{display:block}
footer{margin-top:32px;border-top:1px solid #ddd;padding-top:6px;color:#666;font-size:12px}
@media print{body{margin:0;max-width:none;color:#000}.wide{overflow:visible}th{background:none}
.primary{background:none}h2{break-after:avoid}table,figure{break-inside:avoid}
table{font-size:12px}th,td{padding:2px 5px}svg{min-width:0!important}}
"""

SCORES_TITLE = Message("report.scores", "Scores", "成绩")
SCORE_HEADERS = (Message("report.scores.column", "score", "指标"), Message("report.scores.value", "value", "值"))
INTERVAL_HEADER = Message("report.scores.interval", "{level}% interval", "{level}% 区间")
INTERVAL_NOTE = Message(
    "report.scores.interval_note",
    "The interval of {key} is a {level}% percentile bootstrap interval: the board's {units} resampled with "
    "replacement {resamples} times (seed {seed}), the score recomputed from the resampled counts. It shows how "
    "much the score could move on another test set of the same size and kind; it is not a range of ranks.",
    "{key} 的区间为 {level}% 百分位自助法（bootstrap）区间：对本榜单的{units}有放回地重抽样 {resamples} 次（种子 "
    "{seed}），由重抽样后的计数重新计算成绩。它表示在同样大小、同类测试集上成绩可能的变动幅度，并非名次范围。")
INTERVAL_SUMMED = Message(
    "report.scores.interval_summed",
    "On a board this large, each resample sums its draws among the {summed} {units} nearest the mean by the normal "
    "approximation (the central limit theorem); the {tail} groups of equal {units} farthest from the mean are "
    "still drawn one by one.",
    "本榜单规模较大：每次重抽样中，落在最接近均值的 {summed} 个{units}上的抽样之和按正态近似（中心极限定理）计算；"
    "离均值最远的 {tail} 组相同的{units}仍逐一抽取。")
NO_INTERVAL = Message("report.scores.no_interval",
                      "No interval for {key}: it is not a sum of counts over the {units} (for example a measure "
                      "that ranks them all at once, or a subtask that was not submitted).",
                      "{key} 没有区间：它不是各{units}计数之和（例如同时对全部{units}排序的指标，或未提交的子任务）。")
CONTENTS = Message("report.contents", "On this page", "本页内容")
FOOTER = Message("report.footer", "Scored by program {program} with config {config} (SHA-256 prefixes; the "
                 "organizers can tell which version scored a submission).",
                 "评分程序 {program}，配置 {config}（SHA-256 前缀；组织者据此可知是哪一版本为提交评分）。")
SEALED_TITLE = Message("report.sealed.title", "Board {board} is sealed", "榜单 {board} 已封存")
SEALED_RECEIVED = Message(
    "report.sealed.received",
    "Submission received and valid (checked against all {n} test items). Board {board} is sealed: its scores and "
    "report are shown when the organizers reveal it.",
    "提交已收到且格式有效（已对照全部 {n} 个测试样本检查）。榜单 {board} 已封存：组织者公布后才显示成绩和报告。")
SEALED_NOTE = Message(
    "report.sealed.note",
    "While this phase runs, every score of this board is written as {placeholder} (a placeholder, not a result) "
    "and this page shows no detail. The organizers reveal the board after the phase ends; your scores then "
    "replace the placeholders.",
    "本阶段进行期间，该榜单的每项成绩都写为 {placeholder}（占位值，不是结果），本页也不显示任何细节。阶段结束后组织者"
    "公布榜单，届时你的成绩将替换占位值。")
BOARD_TITLE = Message("report.board", "{title}: board {board}", "{title}：榜单 {board}")
SERIES_F1 = Message("report.series.f1", "F1", "F1")
SERIES_PRECISION = Message("report.series.precision", "precision", "精确率")
SERIES_RECALL = Message("report.series.recall", "recall", "召回率")
MATRIX_CORNER = Message("report.matrix_corner", "gold \\ predicted", "标准答案 \\ 预测")
CHART_AXES = (Message("report.chart.gold", "gold", "标准答案"), Message("report.chart.predicted", "predicted", "预测"))
# Column headers every family's tables share.
GOLD, PREDICTED = CHART_AXES
CORRECT = Message("report.column.correct", "correct", "正确")
COUNT = Message("report.column.count", "count", "数量")
VALUE = Message("report.column.value", "value", "值")
WHAT = Message("report.column.what", "what", "情况")
PRF_HEADERS = (SERIES_PRECISION, SERIES_RECALL, SERIES_F1)
MATRIX_NOTE = Message(
    "report.matrix_note",
    "Rows: the gold class; columns: the predicted class (the same orientation on every page). Classes are "
    "sorted by their gold count; a cell's shade is its share of the row.",
    "行：标准答案类别；列：预测类别（所有页面方向相同）。类别按标准答案中的数量排序；单元格灰度表示其在该行中的占比。")


@dataclass
class Text:
    text: Any
    css: str = ""


@dataclass
class Table:
    headers: Sequence[Any]
    rows: Sequence[Sequence[Any]]
    caption: Any = ""
    digits: int = 4


@dataclass
class Bars:
    """A bar chart: one row per label, one bar per series ([(name, values)]), values on a 0..top scale."""

    title: Any
    labels: Sequence[Any]
    series: Sequence[Tuple[Any, Sequence[float]]]
    top: float = 1.0
    digits: int = 4
    caption: Any = ""


@dataclass
class Heatmap:
    """A confusion matrix: gold rows, predicted columns, counts in the cells."""

    title: Any
    rows: Sequence[Any]
    columns: Sequence[Any]
    matrix: Sequence[Sequence[float]]
    caption: Any = MATRIX_NOTE


@dataclass
class Scatter:
    """One value against another (gold across, prediction up) on the square [low, high]: ``points`` [(x, y)]
    drawn one by one, or ``grid`` (rows of counts, the first row at the bottom) for many points."""

    title: Any
    low: float
    high: float
    x_axis: Any
    y_axis: Any
    points: Sequence[Tuple[float, float]] = ()
    grid: Optional[Sequence[Sequence[int]]] = None
    caption: Any = ""


@dataclass
class Scores:
    """The leaderboard scores: the organizer's label with the key in small type, the primary one highlighted."""

    scores: Dict[str, float]
    primary: str
    labels: Dict[str, str] = field(default_factory=dict)
    interval: Optional[Tuple[float, float]] = None     # of the primary score
    level: float = 0.95
    digits: int = 4     # the page is read by people; the scores files keep every digit


@dataclass
class Section:
    title: Any
    blocks: List[Any] = field(default_factory=list)
    per_class: bool = False   # shows counts per class (left out where the config hides them)


def by_support(support):
    """Class indices by decreasing support, ties in the classes' own order: the order of per-class tables.

    >>> by_support(np.array([3, 9, 3, 0])).tolist()
    [1, 0, 2, 3]
    """
    support = np.asarray(support)
    return np.lexsort((np.arange(len(support)), -support))


def words(value, lang="en"):
    """A block's text in ``lang``: a string as it is, a Message or Problem in that language."""
    if isinstance(value, Message):
        return value().text(lang)
    if isinstance(value, Problem):
        return value.text(lang)
    return "" if value is None else str(value)


def _text(value, lang="en"):
    """Any text as safe page text: invisible and reordering characters shown as escapes, then HTML-escaped."""
    return html.escape(printable(words(value, lang)))


# Where a line may break besides spaces: after an underscore (score keys, class names such as late_delivery),
# and every _RUN characters of a longer run without a break (no word is that long: an id, a path, a value
# repeated), so that such a run cannot widen a column past the page. Ideographs break anywhere already.
_RUN = 30
_AFTER_UNDERSCORE = re.compile(r"(?<=_)(?=[^\s_])")
_LONG_RUN = re.compile(r"[^\s_\u2e80-\U0010ffff]{%d,}" % (_RUN + 1))
_BREAK = "\0"   # never in printable() text, whose control characters are escapes


def _flow(value, lang="en"):
    """Page text as element content: ``_text`` with the line breaks above allowed (``<wbr>``, which is not
    copied with the text)."""
    text = _AFTER_UNDERSCORE.sub(_BREAK, printable(words(value, lang)))
    text = _LONG_RUN.sub(lambda m: _BREAK.join(m.group()[i:i + _RUN] for i in range(0, len(m.group()), _RUN)), text)
    return "<wbr>".join(html.escape(part) for part in text.split(_BREAK))


def _cell(value, digits, lang):
    """A table cell: numbers right-aligned on one line, text left-aligned and wrapped."""
    if isinstance(value, float):
        return "<td>%s</td>" % format_number(value, digits)
    if isinstance(value, int) and not isinstance(value, bool):
        return "<td>%d</td>" % value
    return '<td class="t">%s</td>' % _flow(value, lang)


class _Page:
    """What one rendering needs: the language and a counter that keeps chart ids unique."""

    def __init__(self, lang):
        self.lang = lang if lang in LANGUAGES else "en"
        self.charts = 0

    def text(self, value):
        """Text for an attribute or a chart (no markup)."""
        return _text(value, self.lang)

    def flow(self, value):
        """Text for an element's content."""
        return _flow(value, self.lang)

    def block(self, block):
        if isinstance(block, Text):
            cls = ' class="%s"' % block.css if block.css else ""
            return "<p%s>%s</p>" % (cls, self.flow(block.text))
        if isinstance(block, Scores):
            return self.scores(block)
        if isinstance(block, Table):
            head = "".join("<th>%s</th>" % self.flow(h) for h in block.headers)
            body = "".join("<tr>%s</tr>" % "".join(_cell(v, block.digits, self.lang) for v in row)
                           for row in block.rows)
            table = '<div class="wide"><table><tr>%s</tr>%s</table></div>' % (head, body)
            # the caption stands outside the scroll box: inside, it would be as wide as the table and cut off
            return ("<figure><figcaption>%s</figcaption>%s</figure>" % (self.flow(block.caption), table)
                    if block.caption else table)
        if isinstance(block, Bars):
            self.charts += 1
            svg = charts.bars([words(l, self.lang) for l in block.labels],
                              [(words(name, self.lang), values) for name, values in block.series], self.text,
                              words(block.title, self.lang), block.digits, block.top, self.charts)
            return self.figure(svg, block.title, block.caption)
        if isinstance(block, Heatmap):
            self.charts += 1
            svg = charts.heatmap([words(l, self.lang) for l in block.rows], [words(c, self.lang) for c in block.columns],
                                 block.matrix, self.text, words(block.title, self.lang),
                                 words(CHART_AXES[0], self.lang), words(CHART_AXES[1], self.lang), self.charts)
            return self.figure(svg, block.title, block.caption)
        if isinstance(block, Scatter):
            self.charts += 1
            svg = charts.scatter(block.low, block.high, self.text, words(block.title, self.lang),
                                 words(block.x_axis, self.lang), words(block.y_axis, self.lang), block.points,
                                 block.grid, self.charts)
            return self.figure(svg, block.title, block.caption)
        raise TypeError("unknown report block %r" % type(block).__name__)

    def figure(self, svg, title, caption):
        stop, space = ("。", "") if self.lang == "zh" else (".", " ")
        note = space + self.flow(caption) if caption else ""
        # a chart keeps a readable size (charts.MIN_FONT) and scrolls in its box where the screen is narrower
        return '<figure><div class="wide">%s</div><figcaption>%s%s%s</figcaption></figure>' % (
            svg, self.flow(title), stop, note)

    def scores(self, block):
        with_interval = block.interval is not None
        level = "%g" % (100 * block.level)
        head = "".join("<th>%s</th>" % self.flow(h) for h in SCORE_HEADERS)
        if with_interval:
            head += "<th>%s</th>" % self.flow(INTERVAL_HEADER(level=level))
        rows = []
        for key, value in block.scores.items():
            cls = ' class="primary"' if key == block.primary else ""
            label = block.labels.get(key)
            name = ('%s<small class="key"><code>%s</code></small>' % (self.flow(label), self.flow(key)) if label
                    else "<code>%s</code>" % self.flow(key))
            cells = '<td class="t">%s</td><td>%s</td>' % (name, format_number(value, block.digits))
            if with_interval:
                span = ("[%s, %s]" % (format_number(block.interval[0], 4), format_number(block.interval[1], 4))
                        if key == block.primary else "")
                cells += '<td class="ci">%s</td>' % span   # ci: the interval, which must stay on screen
            rows.append("<tr%s>%s</tr>" % (cls, cells))
        return '<div class="wide"><table class="scores"><tr>%s</tr>%s</table></div>' % (head, "".join(rows))


# a page of this many sections or more opens with links to them
CONTENTS_FROM = 3


def render(title, sections: Sequence[Section], subtitle=None, lang="en", footer=None):
    """The whole page; ``footer`` (text or Message) closes it."""
    page = _Page(lang)
    parts = ["<!DOCTYPE html>", '<html lang="%s"><head><meta charset="utf-8">' % ("zh-CN" if page.lang == "zh" else "en"),
             '<meta http-equiv="Content-Security-Policy" content="%s">' % _CSP,
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>%s</title><style>%s</style></head><body>" % (page.text(title), _CSS.strip()),
             "<h1>%s</h1>" % page.flow(title)]
    if subtitle:
        parts.append('<p class="note">%s</p>' % page.flow(subtitle))
    titles = [page.flow(section.title) for section in sections]
    if len(sections) >= CONTENTS_FROM:
        parts.append('<nav aria-label="%s"><ul>%s</ul></nav>' % (page.text(CONTENTS), "".join(
            '<li><a href="#s%d">%s</a></li>' % (i, name) for i, name in enumerate(titles, 1))))
    for i, (section, name) in enumerate(zip(sections, titles), 1):
        parts.append('<h2 id="s%d">%s</h2>' % (i, name))
        parts.extend(page.block(b) for b in section.blocks)
    if footer:
        parts.append("<footer>%s</footer>" % page.flow(footer))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def error_page(title, kind, message, lang="en"):
    return render(title, [Section(kind, [Text(message, "error")])], lang=lang)


def sealed_page(title, board, placeholder, n_items, lang="en", footer=None, more=()):
    """The page of a sealed board: what was received, and why no score is shown (nothing from the gold);
    ``more``: sections about the file itself (the kit's warnings), which need no answer."""
    return render(title, [Section(SEALED_TITLE(board=board), [
        Text(SEALED_RECEIVED(n=n_items, board=board)),
        Text(SEALED_NOTE(placeholder=format_number(placeholder, 0)), "note"),
    ])] + list(more), lang=lang, footer=footer)
