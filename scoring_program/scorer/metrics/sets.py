r"""Set-valued predictions: split delimited cells into items, normalise them, count overlaps.

Everything works on flat arrays: a cell of ``n`` items becomes ``n`` rows
(row index, item), items (``cells.Cells``: bytes of the file) become integer
codes shared by gold and prediction, and a (row, item) pair is one int64
``row * n_items + item``, so intersections are ``np.intersect1d`` of sorted
unique integers, never a Python loop per row.

>>> rows, items = split_cells(["a_b", "", "b_b_c"], "_")
>>> rows.tolist(), items.tolist()
([0, 0, 2, 2, 2], ['a', 'b', 'b', 'b', 'c'])
>>> [a.tolist() for a in split_cells(["a__b_", "", "c"], "__")]  # a separator that overlaps itself: by Python
[[0, 0, 2], ['a', 'b_', 'c']]
"""
import numpy as np

from ..cells import Cells, Index, factorize, find_all
from ..lazy import pandas as pd

NORMALISATIONS = ("strip", "nfkc", "casefold")


def split_cells(cells, sep):
    """(row index, item) for every non-empty item of every cell split on ``sep`` (a literal string), as
    ``[p for p in cell.split(sep) if p]`` does; ``cells`` is Cells or a sequence of str, items are Cells.

    The separator's occurrences are found in the bytes of the whole column at
    once; a cell of k occurrences makes k + 1 pieces, so no work is done per row.
    """
    cells = cells if isinstance(cells, Cells) else Cells.from_strings([str(c) for c in cells])
    raw = sep.encode("utf-8")
    if not len(cells):
        return np.zeros(0, dtype=np.int64), cells
    if _overlaps_itself(raw) or (cells.start[1:] < cells.end[:-1]).any():
        return _split_strings(cells.tolist(), sep)
    found = find_all(cells.buf, raw, int(cells.start.min()), int(cells.end.max()))
    cell = np.searchsorted(cells.start, found, side="right") - 1
    inside = (cell >= 0) & (found + len(raw) <= cells.end[np.maximum(cell, 0)])
    found, cell = found[inside], cell[inside]
    n = len(cells)
    before = np.zeros(n + 1, dtype=np.int64)   # occurrences in the cells before each cell
    np.cumsum(np.bincount(cell, minlength=n), out=before[1:])
    first_piece = np.arange(n) + before[:-1]
    start = np.empty(n + len(found), dtype=np.int64)
    end = np.empty_like(start)
    start[first_piece] = cells.start
    end[first_piece + (before[1:] - before[:-1])] = cells.end
    at = cell + np.arange(len(found))           # the piece that ends at each occurrence
    end[at] = found
    start[at + 1] = found + len(raw)
    rows = np.repeat(np.arange(n, dtype=np.int64), before[1:] - before[:-1] + 1)
    keep = end > start  # "a__b" and a trailing separator leave empty pieces, which are no items
    return rows[keep], Cells(cells.buf, start[keep], end[keep])


def _overlaps_itself(raw):
    """True when a proper prefix of ``raw`` is also its suffix: occurrences could overlap."""
    return any(raw[:k] == raw[-k:] for k in range(1, len(raw)))


def _split_strings(strings, sep):
    rows, items = [], []
    for row, cell in enumerate(strings):  # only for a separator that overlaps itself
        pieces = [p for p in cell.split(sep) if p]
        rows.extend([row] * len(pieces))
        items.extend(pieces)
    return np.asarray(rows, dtype=np.int64), Cells.from_strings(items)


def normalise(items, steps):
    """Apply the normalisation ``steps`` (any of strip, nfkc, casefold, in that order) to items (Cells or str).

    >>> normalise(np.array(["  ＡＢｃ ", "x"], dtype=object), ["strip", "nfkc", "casefold"]).tolist()
    ['abc', 'x']
    """
    if isinstance(items, Cells):
        if not steps or not len(items):
            return items
        return Cells.from_strings(normalise(items.to_objects(), steps))
    if not steps or not len(items):
        return np.asarray(items, dtype=object)
    series = pd.Series(items, dtype=object)
    if "strip" in steps:
        series = series.str.strip()
    if "nfkc" in steps:
        series = series.str.normalize("NFKC")
    if "casefold" in steps:
        series = series.str.casefold()
    if "strip" in steps and "nfkc" in steps:
        series = series.str.strip()  # NFKC turns the ideographic space into a plain one
    return series.to_numpy(dtype=object)


def pair_codes(rows, item_codes, n_items):
    """Sorted unique int64 codes of (row, item) pairs; duplicates within a row count once.

    >>> pair_codes(np.array([1, 0, 1]), np.array([2, 0, 2]), 3).tolist()
    [0, 5]
    """
    return np.unique(np.asarray(rows, dtype=np.int64) * np.int64(max(n_items, 1)) + np.asarray(item_codes, np.int64))


def overlap_counts(gold_rows, gold_items, pred_rows, pred_items, n_rows):
    """Per row: (|G & P|, |G|, |P|) of the item sets, items given as Cells or strings.

    >>> c, g, p = overlap_counts([0, 0, 1], ["x", "y", "z"], [0, 1, 1], ["y", "z", "w"], 3)
    >>> c.tolist(), g.tolist(), p.tolist()
    ([1, 1, 0], [2, 1, 0], [1, 2, 0])
    """
    gold_codes, pred_codes, n_items = item_codes(_as_cells(gold_items), _as_cells(pred_items))
    gold = pair_codes(gold_rows, gold_codes, n_items)
    pred = pair_codes(pred_rows, pred_codes, n_items)
    common = np.intersect1d(gold, pred, assume_unique=True)
    width = np.int64(max(n_items, 1))
    count = lambda pairs: np.bincount(pairs // width, minlength=n_rows)[:n_rows]  # noqa: E731
    return count(common), count(gold), count(pred)


def item_codes(gold, pred):
    """(gold codes, predicted codes, number of codes): equal items share a code, exactly.

    The distinct gold items are an index; predicted items not in it get codes of their own.
    """
    gold_codes, first = factorize(gold)
    known = Index(gold[first]).get_indexer(pred)
    unknown = np.flatnonzero(known < 0)
    other_codes, other_first = factorize(pred[unknown])
    known[unknown] = other_codes + len(first)
    return gold_codes, known, len(first) + len(other_first)


def _as_cells(items):
    return items if isinstance(items, Cells) else Cells.from_strings([str(v) for v in items])
