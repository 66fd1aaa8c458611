r"""Set-valued predictions: split delimited cells into items, normalise them, count overlaps.

Everything works on flat arrays: a cell of ``n`` items becomes ``n`` rows
(row index, item), items become integer codes shared by gold and prediction,
and a (row, item) pair is one int64 ``row * n_items + item``, so intersections
are ``np.intersect1d`` of sorted unique integers, never a Python loop per row.

>>> rows, items = split_cells(["a_b", "", "b_b_c"], "_")
>>> rows.tolist(), items.tolist()
([0, 0, 2, 2, 2], ['a', 'b', 'b', 'b', 'c'])
>>> [a.tolist() for a in split_cells(["a\x1e_b", "", "c"], "_")]  # the slow path gives the same
[[0, 0, 2], ['a\x1e', 'b', 'c']]
"""
import re

import numpy as np
import pandas as pd

NORMALISATIONS = ("strip", "nfkc", "casefold")


def split_cells(cells, sep):
    """(row index, item) for every non-empty item of every cell split on ``sep`` (a literal string).

    The whole column is joined with a row marker between cells and split once:
    the markers' running count is the row of each item, so no work is done per row.
    """
    cells = pd.Series(cells, dtype=object).astype(str).tolist()
    if not cells:
        return np.zeros(0, dtype=np.int64), np.array([], dtype=object)
    marker = "\x1e"  # ASCII record separator (numpy would drop a trailing NUL when comparing)
    joined = (sep + marker + sep).join(cells)
    if joined.count(marker) != len(cells) - 1:  # a cell holds the marker itself: count per row instead
        return _split_counting(pd.Series(cells, dtype=object), sep)
    items = np.array(joined.split(sep), dtype=object)
    is_marker = items == marker
    rows = np.cumsum(is_marker)
    keep = ~is_marker & (items != "")  # "a__b" and a trailing separator leave empty pieces, which are no items
    return rows[keep].astype(np.int64), items[keep]


def _split_counting(cells, sep):
    filled = np.flatnonzero((cells != "").to_numpy())
    chosen = cells.iloc[filled]
    counts = chosen.str.count(re.escape(sep)).to_numpy(dtype=np.int64) + 1
    items = np.array(sep.join(chosen.tolist()).split(sep), dtype=object)
    rows = np.repeat(filled.astype(np.int64), counts)
    keep = items != ""
    return rows[keep], items[keep]


def normalise(items, steps):
    """Apply the normalisation ``steps`` (any of strip, nfkc, casefold, in that order) to an array of strings.

    >>> normalise(np.array(["  ＡＢｃ ", "x"], dtype=object), ["strip", "nfkc", "casefold"]).tolist()
    ['abc', 'x']
    """
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
    """Per row: (|G & P|, |G|, |P|) of the item sets, items given as strings or codes.

    >>> c, g, p = overlap_counts([0, 0, 1], ["x", "y", "z"], [0, 1, 1], ["y", "z", "w"], 3)
    >>> c.tolist(), g.tolist(), p.tolist()
    ([1, 1, 0], [2, 1, 0], [1, 2, 0])
    """
    gold_items = np.asarray(gold_items, dtype=object)
    pred_items = np.asarray(pred_items, dtype=object)
    codes, uniques = pd.factorize(np.concatenate([gold_items, pred_items]))
    n_items = len(uniques)
    gold = pair_codes(gold_rows, codes[:len(gold_items)], n_items)
    pred = pair_codes(pred_rows, codes[len(gold_items):], n_items)
    common = np.intersect1d(gold, pred, assume_unique=True)
    width = np.int64(max(n_items, 1))
    count = lambda pairs: np.bincount(pairs // width, minlength=n_rows)[:n_rows]  # noqa: E731
    return count(common), count(gold), count(pred)
