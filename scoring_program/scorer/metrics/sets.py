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

from ..bytelevel.cells import Cells, concatenate_freeing, find_all
from ..bytelevel.grouping import Index, factorize
from ..bytelevel.lazy import pandas as pd
from ..bytelevel.vocabulary import Vocabulary
from .ties import run_starts

NORMALISATIONS = ("strip", "nfkc", "casefold")
CELL_BLOCK = 1 << 16   # cells split and coded per pass: the items of one block are the only temporaries


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


def code_items(cells, sep, steps=()):
    """(row, code) of every non-empty item of ``cells`` split on ``sep`` and normalised by ``steps``, and the
    distinct items (Cells, ``items[code]``) in order of first appearance: ``split_cells`` and ``normalise``,
    a block of cells at a time, one int32 pair per item kept.

    >>> rows, codes, items = code_items(Cells.from_strings(["a_b", "", " B _a"]), "_", ["strip", "casefold"])
    >>> rows.tolist(), codes.tolist(), items.tolist()
    ([0, 0, 2, 2], [0, 1, 1, 0], ['a', 'b'])
    """
    cells = _as_cells(cells)
    small = _index_type(len(cells))
    vocabulary = Vocabulary()
    rows, codes = [], []
    for a in range(0, len(cells), CELL_BLOCK):
        block_rows, items = split_cells(cells[a:a + CELL_BLOCK], sep)
        block_rows += a
        rows.append(block_rows.astype(small))
        codes.append(vocabulary.add(items))
    rows = concatenate_freeing(rows, small)
    codes, items = _normalised(concatenate_freeing(codes, _index_type(len(vocabulary))), vocabulary.cells(), steps)
    keep = items.lengths()[codes] > 0  # items that normalise to nothing are no items
    if not keep.all():
        codes, items = _without_empty(codes[keep], items)
        rows = rows[keep]
    return rows, codes, items


def code_cells(cells, steps=()):
    """(code of each cell, the distinct cells in order of first appearance), cells normalised by ``steps``;
    coded a block of cells at a time (``vocabulary.Vocabulary``).

    >>> codes, distinct = code_cells(Cells.from_strings(["b", " a", "b", "a"]), ["strip"])
    >>> codes.tolist(), distinct.tolist()
    ([0, 1, 0, 1], ['b', 'a'])
    """
    cells = _as_cells(cells)
    vocabulary = Vocabulary()
    codes = [vocabulary.add(cells[a:a + CELL_BLOCK]) for a in range(0, len(cells), CELL_BLOCK)]
    return _normalised(concatenate_freeing(codes, _index_type(len(vocabulary))), vocabulary.cells(), steps)


def _normalised(codes, items, steps):
    """Codes and distinct items after normalising each distinct item once (items that became equal merge)."""
    if not steps or not len(items):
        return codes, items
    normalised = normalise(items, steps)
    merged, first = factorize(normalised, ordered=True)
    return merged.astype(_index_type(len(first)))[codes], normalised[first]


def _without_empty(codes, items):
    """The codes renumbered without the codes of empty items (none of ``codes`` is one)."""
    kept = items.lengths() > 0
    renumber = (np.cumsum(kept) - 1).astype(codes.dtype)
    return renumber[codes], items[np.flatnonzero(kept)]


def _index_type(n):
    return np.int32 if n < 2 ** 31 else np.int64


def coded_overlap_counts(gold_rows, gold_codes, gold_items, pred_rows, pred_codes, pred_items, n_rows):
    """Per row: (|G & P|, |G|, |P|) of the item sets, items given as codes into their distinct items
    (``code_items``).

    >>> g, p = code_items(["x_y", "z"], "_"), code_items(["y", "z_w"], "_")
    >>> [a.tolist() for a in coded_overlap_counts(*g, *p, 3)]
    [[1, 1, 0], [2, 1, 0], [1, 2, 0]]
    """
    known = Index(gold_items).get_indexer(pred_items)   # each distinct predicted item as a gold code, or new
    unknown = known < 0
    known[unknown] = len(gold_items) + np.arange(int(unknown.sum()))
    n_items = len(gold_items) + int(unknown.sum())
    gold = pair_codes(gold_rows, gold_codes, n_items)
    pred = pair_codes(pred_rows, pred_codes, n_items, recode=known)
    return (rows_of_pairs(sorted_intersection(gold, pred), n_items, n_rows), rows_of_pairs(gold, n_items, n_rows),
            rows_of_pairs(pred, n_items, n_rows))


def sorted_intersection(a, b):
    """The values in both ``a`` and ``b``, sorted unique int arrays (``np.intersect1d`` without its sort).

    A block of ``a`` and the part of ``b`` within its range are merged (a stable sort of two sorted runs
    is one linear merge); a value in both sits twice, side by side.

    >>> sorted_intersection(np.array([1, 3, 5]), np.array([0, 3, 5, 9])).tolist()
    [3, 5]
    """
    if not len(a) or not len(b):
        return a[:0]
    found = []
    for k in range(0, len(a), CELL_BLOCK):
        part = a[k:k + CELL_BLOCK]
        lo, hi = np.searchsorted(b, [part[0], part[-1]], side="left")[0], np.searchsorted(b, part[-1], side="right")
        merged = np.concatenate([part, b[lo:hi]])
        merged.sort(kind="stable")
        twice = merged[1:] == merged[:-1]
        found.append(merged[1:][twice])
    return np.concatenate(found)


def rows_of_pairs(pairs, n_items, n_rows):
    """Pairs per row, from sorted pair codes (``pair_codes``).

    >>> rows_of_pairs(np.array([0, 4, 5]), 3, 3).tolist()  # rows 0, 1, 1
    [1, 2, 0]
    """
    counts = np.zeros(n_rows, dtype=np.int64)
    width = max(n_items, 1)
    for k in range(0, len(pairs), CELL_BLOCK):  # sorted: a block's rows are one range of rows
        rows = pairs[k:k + CELL_BLOCK] // width
        first = int(rows[0])
        counts[first:int(rows[-1]) + 1] += np.bincount(rows - first)
    return counts


def pair_codes(rows, item_codes, n_items, recode=None):
    """Sorted unique int64 codes of (row, item) pairs; duplicates within a row count once.

    ``recode``: item code k stands for ``recode[k]``. Built a block at a time and sorted in place: the only
    array as long as the items is the result.

    >>> pair_codes(np.array([1, 0, 1]), np.array([2, 0, 2]), 3).tolist()
    [0, 5]
    """
    rows, item_codes = np.asarray(rows), np.asarray(item_codes)
    width = max(n_items, 1)
    pairs = np.empty(len(rows), dtype=np.int64)
    for a in range(0, len(pairs), CELL_BLOCK):
        part = pairs[a:a + CELL_BLOCK]
        part[:] = rows[a:a + CELL_BLOCK]
        part *= width
        codes = item_codes[a:a + CELL_BLOCK]
        part += codes if recode is None else recode[codes]
    pairs.sort(kind="stable")  # rows come in order: runs that timsort merges
    if len(pairs) < 2:
        return pairs
    new = run_starts(pairs)
    return pairs if new.all() else pairs[new]


def _as_cells(items):
    return items if isinstance(items, Cells) else Cells.from_strings([str(v) for v in items])
