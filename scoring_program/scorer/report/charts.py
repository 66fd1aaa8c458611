"""Charts of the page as inline SVG: no script, no external asset, readable in print and without colour.

Two kinds, both drawn in black, white and greys only:

- ``bars``: horizontal bars, one row per label, one bar per series; each
  series has its own fill pattern (solid, hatched, dotted) named in a legend,
  and every bar carries its value as text, so neither colour nor the eye's
  reading of a length is needed;
- ``heatmap``: a matrix of counts (gold rows, predicted columns), each cell
  shaded by its share of the row and carrying the count itself;
- ``scatter``: one value against another on a shared square scale with the
  line y = x: a dot per point, or (many points) a grid of counts, each cell
  shaded by the logarithm of its count, so the page stays small.

Axes carry round ticks (``nice_ticks``: steps of 1, 2 or 5 times a power of
ten, the axis stretched to whole steps), never values such as 5.13933.

Every string passes ``text`` (the caller's escaping: the page, report/__init__.py, gives its own),
numbers are formatted here. The SVG has a viewBox and scales down to a narrow
screen, but never so far that its text is drawn below ``MIN_FONT`` px (its
``min-width``; the page puts it in a box that scrolls). A bar chart is at most
``BARS_WIDTH`` wide, so it fits a 400 px screen without scrolling; a heat map
with many classes may need the box.

>>> svg = bars(["a", "b<"], [("F1", [0.5, 1.0])], lambda s: s.replace("<", "&lt;"), "F1 per class")
>>> svg.count("<rect") >= 2 and "b&lt;" in svg and "0.5000" in svg and "<script" not in svg
True
"""
import math

MAX_WIDTH = 560
FONT = 12
MIN_FONT = 10          # the smallest text size a chart is shown at, in CSS px
# 400 px less the page's margins (32) leaves 368: a chart at most this wide keeps MIN_FONT there
BARS_WIDTH = 440
_CHAR = 7.4            # average width of a Latin character at FONT px (capitals and digits 10% more)
_LABEL_MAX = 26        # characters of a label shown; longer ones are cut with an ellipsis
_BAR_AREA = 250
_SWATCH = ("fill:#3a3a3a", "fill:url(#hatch%s)", "fill:url(#dots%s)")
# the fill patterns; ids carry the chart's number, so that every id of the page is unique
_DEFS = ('<defs><pattern id="hatch%s" width="6" height="6" patternUnits="userSpaceOnUse" '
         'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
         '<line x1="0" y1="0" x2="0" y2="6" stroke="#000" stroke-width="2.2"/></pattern>'
         '<pattern id="dots%s" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" '
         'fill="#fff"/><circle cx="2.5" cy="2.5" r="1.3" fill="#000"/></pattern></defs>')


def nice_ticks(low, high, most=4):
    """(ticks, decimals): round tick values covering [low, high] in at most ``most`` steps of 1, 2 or 5 times a
    power of ten, the first at or below ``low``, the last at or above ``high``; ``decimals``, the step's decimal
    place (-3 for a step of 2000), writes them (``tick_label``).

    >>> nice_ticks(0, 5.13933)
    ([0.0, 2.0, 4.0, 6.0], 0)
    >>> nice_ticks(0, 1.0), nice_ticks(213.5, 5138.2)
    (([0.0, 0.5, 1.0], 1), ([0.0, 2000.0, 4000.0, 6000.0], -3))
    >>> nice_ticks(-0.013, 0.0421)
    ([-0.02, 0.0, 0.02, 0.04, 0.06], 2)
    """
    low, high = float(low), float(high)
    if not high > low:
        high = low + (abs(low) or 1.0)
    step = None
    for exponent in range(int(math.floor(math.log10((high - low) / most))) - 1, 400):
        for mantissa in (1, 2, 5):
            candidate = mantissa * 10.0 ** exponent
            if math.ceil(high / candidate - 1e-9) - math.floor(low / candidate + 1e-9) <= most:
                step = candidate
                break
        if step is not None:
            break
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    decimals = -int(math.floor(math.log10(step) + 1e-9))   # negative for steps of 10 and more
    return [round(k * step, max(decimals, 0)) + 0.0 for k in range(first, last + 1)], decimals


def tick_label(value, decimals):
    """A tick written as people write it: as many decimals as its step has (huge or tiny ones in short form).

    >>> tick_label(4000.0, -3), tick_label(0.5, 1), tick_label(-0.0, 2), tick_label(2e12, -12), tick_label(2e-07, 7)
    ('4000', '0.5', '0', '2e+12', '2e-07')
    >>> tick_label(0.001225, 6), tick_label(12340000.0, -4)
    ('0.001225', '1.234e+07')
    """
    if decimals > 5 or abs(value) >= 1e7:   # the significant digits that tell the ticks apart, in short form
        digits = 1 if value == 0 else max(1, int(math.floor(math.log10(abs(value)))) + decimals + 1)
        text = "%.*g" % (digits, value)
    else:
        text = "%.*f" % (max(decimals, 0), value)
    return "0" if float(text) == 0 else text


def _width(label):
    """Approximate drawn width of a label at FONT px: CJK characters, capitals and digits, the rest."""
    return sum(FONT if ord(c) > 0x2E7F else _CHAR * 1.1 if c.isupper() or c.isdigit() else _CHAR * 0.9
               for c in label)


def _cut(label, limit=_LABEL_MAX):
    label = str(label)
    return label if len(label) <= limit else label[:limit - 1] + "\u2026"


def _svg(width, height, title, body, text, uid):
    least = -(-width * MIN_FONT // FONT)   # the width at which its FONT px text is drawn at MIN_FONT px
    return ('<svg role="img" viewBox="0 0 %d %d" width="%d" '
            'style="max-width:100%%;min-width:%dpx;height:auto" font-size="%d" font-family="sans-serif" '
            'aria-label="%s"><title>%s</title>%s%s</svg>' % (width, height, width, least, FONT, text(title),
                                                            text(title), _DEFS % (uid, uid), body))


def _swatch(k, uid):
    style = _SWATCH[k % len(_SWATCH)]
    return style % uid if "%s" in style else style


def bars(labels, series, text, title, digits=4, top=1.0, uid=0):
    """Horizontal bars: ``series`` is [(name, values)], one value per label, drawn on a 0..``top`` scale."""
    labels = [_cut(l) for l in labels]
    label_w = int(min(max([_width(l) for l in labels] + [40]), _LABEL_MAX * _CHAR)) + 10
    per_row = 14 * len(series) + 8
    legend_h = 22
    height = legend_h + per_row * len(labels) + 20
    width = min(BARS_WIDTH, label_w + _BAR_AREA + 70)
    area = width - label_w - 70
    parts = []
    x = label_w
    for k, (name, _) in enumerate(series):  # legend: a swatch and the series' name
        parts.append('<rect x="%d" y="4" width="14" height="12" style="%s" stroke="#000" stroke-width="0.6"/>'
                     '<text x="%d" y="14">%s</text>' % (x, _swatch(k, uid), x + 18, text(_cut(name, 30))))
        x += 26 + int(_width(_cut(name, 30)))
    ticks, decimals = nice_ticks(0.0, float(top) if top else 1.0)
    top = ticks[-1]
    for i, label in enumerate(labels):
        y0 = legend_h + i * per_row
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (label_w - 6, y0 + per_row / 2 + 1, text(label)))
        for k, (_, values) in enumerate(series):
            value = float(values[i])
            w = max(0.0, min(value / top, 1.0)) * area
            y = y0 + 4 + 14 * k
            parts.append('<rect x="%d" y="%d" width="%.1f" height="11" style="%s" stroke="#000" stroke-width="0.6"/>'
                         '<text x="%.1f" y="%d">%s</text>' % (label_w, y, w, _swatch(k, uid),
                                                             label_w + w + 4, y + 10, "%.*f" % (digits, value)))
    axis_y = legend_h + per_row * len(labels)
    parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>' % (label_w, legend_h, label_w, axis_y))
    parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>' % (label_w, axis_y, label_w + area, axis_y))
    for tick in ticks:
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                     % (label_w + tick / top * area, axis_y + 14, tick_label(tick, decimals)))
    return _svg(width, height, title, "".join(parts), text, uid)


def heatmap(row_labels, col_labels, matrix, text, title, row_axis, col_axis, uid=0):
    """Counts with gold rows and predicted columns; a cell's shade is its share of the row, its text the count."""
    rows = [_cut(l, 14) for l in row_labels]
    cols = [_cut(l, 12) for l in col_labels]
    cell_w = max(46, int(max(_width(c) for c in cols)) + 10) if cols else 46
    cell_h = 24
    label_w = int(max([_width(r) for r in rows] + [_width(_cut(row_axis, 20))])) + 12
    n_rows, n_cols = len(rows), len(cols)
    width = label_w + n_cols * cell_w + 4
    if width > MAX_WIDTH:  # many classes: narrower cells, the counts still fit
        cell_w = max(30, (MAX_WIDTH - label_w - 4) // max(n_cols, 1))
        width = label_w + n_cols * cell_w + 4
    top = 40
    height = top + n_rows * cell_h + 8
    parts = ['<text x="%d" y="14" font-weight="bold">%s \u2192</text>' % (label_w, text(_cut(col_axis, 40))),
             '<text x="4" y="%d" font-weight="bold">%s \u2193</text>' % (top - 4, text(_cut(row_axis, 20)))]
    for j, label in enumerate(cols):
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                     % (label_w + (j + 0.5) * cell_w, top - 4, text(label)))
    for i, label in enumerate(rows):
        y = top + i * cell_h
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (label_w - 6, y + 16, text(label)))
        total = sum(float(v) for v in matrix[i])
        for j in range(n_cols):
            value = matrix[i][j]
            share = float(value) / total if total else 0.0
            grey = int(round(247 - share * 200))  # 247 (empty) .. 47 (the whole row)
            ink = "#fff" if grey < 128 else "#000"
            x = label_w + j * cell_w
            parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="rgb(%d,%d,%d)" stroke="#777" '
                         'stroke-width="0.5"/><text x="%.1f" y="%d" text-anchor="middle" fill="%s">%s</text>'
                         % (x, y, cell_w, cell_h, grey, grey, grey, x + cell_w / 2.0, y + 16, ink,
                            text(_count(value))))
    return _svg(width, height, title, "".join(parts), text, uid)


def _count(value):
    value = float(value)
    return "%d" % value if value.is_integer() else "%.2f" % value


_PLOT = 300            # side of a scatter's square plot area
_MARGIN = (70, 26, 14, 40)   # left, top, right, bottom


def scatter(low, high, text, title, x_axis, y_axis, points=(), grid=None, uid=0):
    """``points`` [(x, y)] as dots, or ``grid`` (rows of counts, the first row at the bottom: y bin i, x bin j)
    as shaded cells, on the square [low, high] x [low, high] with the line y = x; a tick at every value of
    ``nice_ticks(low, high)`` that lies in the square (the caller gives it round bounds: ``nice_ticks``)."""
    left, top, right, bottom = _MARGIN
    width, height = left + _PLOT + right, top + _PLOT + bottom
    span = float(high - low) or 1.0
    x_of = lambda v: left + (float(v) - low) / span * _PLOT             # noqa: E731
    y_of = lambda v: top + _PLOT - (float(v) - low) / span * _PLOT      # noqa: E731
    parts = ['<rect x="%d" y="%d" width="%d" height="%d" fill="#fff" stroke="#000" stroke-width="0.8"/>'
             % (left, top, _PLOT, _PLOT)]
    if grid is not None:
        g = len(grid)
        side = _PLOT / float(g)
        most = max((max(row) for row in grid), default=0)
        for i, row in enumerate(grid):
            for j, count in enumerate(row):
                if not count:
                    continue
                share = math.log1p(count) / math.log1p(most)
                grey = int(round(230 - share * 200))   # 230 (one unit) .. 30 (the fullest cell)
                parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="rgb(%d,%d,%d)"/>'
                             % (left + j * side, top + _PLOT - (i + 1) * side, side, side, grey, grey, grey))
    for x, y in points:
        parts.append('<circle cx="%.1f" cy="%.1f" r="2.2" fill="#000" fill-opacity="0.45"/>' % (x_of(x), y_of(y)))
    parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="1" stroke-dasharray="4 3"/>'
                 % (left, top + _PLOT, left + _PLOT, top))
    ticks, decimals = nice_ticks(low, high)
    shown = [t for t in ticks if low - 1e-9 * span <= t <= high + 1e-9 * span]
    for k, value in enumerate(shown):
        # the end ticks stay inside the picture
        anchor = "start" if k == 0 and value == shown[0] and abs(value - low) < 1e-9 * span else \
            "end" if abs(value - high) < 1e-9 * span else "middle"
        label = text(tick_label(value, decimals))
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#000" stroke-width="0.8"/>'
                     % (x_of(value), top + _PLOT, x_of(value), top + _PLOT + 4))
        parts.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#000" stroke-width="0.8"/>'
                     % (left - 4, y_of(value), left, y_of(value)))
        parts.append('<text x="%.1f" y="%d" text-anchor="%s">%s</text>' % (x_of(value), top + _PLOT + 15, anchor,
                                                                          label))
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (left - 6, y_of(value) + 4, label))
    parts.append('<text x="%d" y="%d" text-anchor="end" font-weight="bold">%s \u2192</text>'
                 % (left + _PLOT, top + _PLOT + 33, text(_cut(x_axis, 30))))
    parts.append('<text x="4" y="%d" font-weight="bold">%s \u2191</text>' % (top - 10, text(_cut(y_axis, 20))))
    return _svg(width, height, title, "".join(parts), text, uid)
