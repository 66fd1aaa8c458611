"""Charts of the page as inline SVG: no script, no external asset, readable in print and without colour.

Two kinds, both drawn in black, white and greys only:

- ``bars``: horizontal bars, one row per label, one bar per series; each
  series has its own fill pattern (solid, hatched, dotted) named in a legend,
  and every bar carries its value as text, so neither colour nor the eye's
  reading of a length is needed;
- ``heatmap``: a matrix of counts (gold rows, predicted columns), each cell
  shaded by its share of the row and carrying the count itself.

Every string passes ``text`` (the caller's escaping: report.py gives its own),
numbers are formatted here. The SVG has a viewBox and scales down to a narrow
screen, but never so far that its text is drawn below ``MIN_FONT`` px (its
``min-width``; the page puts it in a box that scrolls). A bar chart is at most
``BARS_WIDTH`` wide, so it fits a 400 px screen without scrolling; a heat map
with many classes may need the box.

>>> svg = bars(["a", "b<"], [("F1", [0.5, 1.0])], lambda s: s.replace("<", "&lt;"), "F1 per class")
>>> svg.count("<rect") >= 2 and "b&lt;" in svg and "0.5000" in svg and "<script" not in svg
True
"""
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
    top = float(top) if top else 1.0
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
    for frac in (0.0, 0.5, 1.0):
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                     % (label_w + frac * area, axis_y + 14, "%g" % (frac * top)))
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
