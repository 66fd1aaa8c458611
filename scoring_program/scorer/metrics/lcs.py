"""Longest common subsequences and substrings of many pairs of code sequences at once.

Pairs are sorted by their lengths and taken in batches of similar shapes, padded to the batch's longest
(pads never match). The dynamic programme runs row by row over a whole batch: for the longest common
subsequence, row i of the table is the running maximum of ``T[i-1][j-1] + 1`` where the codes match and
``T[i-1][j]`` elsewhere (the usual recurrence, since a row never decreases); for the longest common substring,
``S[i][j] = S[i-1][j-1] + 1`` where they match and 0 elsewhere. One numpy operation per row of a batch.

A sequence is ``codes[start:start + length]``; ``a`` and ``b`` of pair p are given by their starts and lengths.

>>> codes = np.array([1, 2, 3, 4, 1, 3, 4, 2])          # "1 2 3 4" and "1 3 4 2"
>>> subsequence_lengths(codes, np.array([0]), np.array([4]), np.array([4]), np.array([4])).tolist()
[3]
>>> substring_lengths(codes, np.array([0]), np.array([4]), np.array([4]), np.array([4])).tolist()
[2]
"""
import numpy as np

BATCH_CELLS = 1 << 22   # table cells per batch (pairs x the longest a x the longest b)


def _batches(a_len, b_len):
    """Batches of pair positions, sorted by lengths, each within BATCH_CELLS."""
    order = np.lexsort((a_len, b_len))
    at = 0
    n = len(order)
    while at < n:
        size = 1
        while at + size < n:
            grow = min(size * 2, n - at)
            la = int(a_len[order[at:at + grow]].max()) + 1
            lb = int(b_len[order[at:at + grow]].max()) + 1
            if grow * la * lb > BATCH_CELLS and size >= 1:
                break
            size = grow
        yield order[at:at + size]
        at += size


def _padded(codes, start, length, width, pad):
    out = np.full((len(start), width), pad, dtype=_code_type(codes))
    if width:
        col = np.arange(width)
        inside = col[None, :] < length[:, None]
        out[inside] = codes[(start[:, None] + col[None, :])[inside]]
    return out


def _code_type(codes):
    """The narrowest of int32 and int64 that holds the codes and the pads (-1, -2): comparisons of narrower rows
    are faster."""
    return np.int32 if not len(codes) or int(codes.max()) < 2 ** 31 else np.int64


def _count_type(longest):
    """The narrowest integer type of a table's cells (at most ``longest``)."""
    return np.int16 if longest < 2 ** 15 - 1 else np.int32 if longest < 2 ** 31 - 1 else np.int64


def subsequence_lengths(codes, a_start, a_len, b_start, b_len):
    """The length of the longest common subsequence of each pair."""
    out = np.zeros(len(a_start), dtype=np.int64)
    for batch in _batches(a_len, b_len):
        la, lb = int(a_len[batch].max()), int(b_len[batch].max())
        if not la or not lb:
            continue
        a = _padded(codes, a_start[batch], a_len[batch], la, -1).T.copy()
        b = _padded(codes, b_start[batch], b_len[batch], lb, -2).T.copy()
        row = np.zeros((lb + 1, len(batch)), dtype=_count_type(min(la, lb)))
        for i in range(la):
            _next_row(a[i], b, row, row)
        out[batch] = row[lb]
    return out


def _next_row(a_i, b, row, out):
    """Row i + 1 of the tables of a batch from row i (``row``, (lb + 1, pairs)) into ``out``: the running maximum
    down the rows of ``where(a_i == b_j, T[i][j-1] + 1, T[i][j])``. The pairs are the last axis, so the running
    maximum is one vectorized step per j over the whole batch."""
    taken = np.where(a_i[None, :] == b, row[:-1] + 1, row[1:])
    np.maximum.accumulate(taken, axis=0, out=out[1:])


def subsequence_tables(codes, a_start, a_len, b_start, b_len):
    """Per batch: (pair positions, the full tables (la + 1, lb + 1, pairs), a padded (la, pairs), b padded
    (lb, pairs))."""
    for batch in _batches(a_len, b_len):
        la, lb = int(a_len[batch].max()), int(b_len[batch].max())
        a = _padded(codes, a_start[batch], a_len[batch], la, -1).T.copy()
        b = _padded(codes, b_start[batch], b_len[batch], lb, -2).T.copy()
        table = np.zeros((la + 1, lb + 1, len(batch)), dtype=_count_type(min(la, lb)))
        for i in range(la):
            _next_row(a[i], b, table[i], table[i + 1])
        yield batch, table, a, b


def backtrack_positions(codes, a_start, a_len, b_start, b_len):
    """(pair, position in a) of the common subsequence rouge-score reads out of each pair's table (``lcs_ind``:
    from the end, a match is taken where the codes agree; else the step goes left when ``T[i][j-1] > T[i-1][j]``,
    else up), all pairs at once; and the length of each pair's longest common subsequence."""
    pairs, positions = [], []
    common = np.zeros(len(a_start), dtype=np.int64)
    for batch, table, a, b in subsequence_tables(codes, a_start, a_len, b_start, b_len):
        i, j = a_len[batch].copy(), b_len[batch].copy()
        common[batch] = table[i, j, np.arange(len(batch))]
        while True:
            live = np.flatnonzero((i > 0) & (j > 0))
            if not len(live):
                break
            ii, jj = i[live], j[live]
            same = a[ii - 1, live] == b[jj - 1, live]
            pairs.append(batch[live[same]])
            positions.append(ii[same] - 1)
            left = ~same & (table[ii, jj - 1, live] > table[ii - 1, jj, live])
            i[live] = ii - (~left)
            j[live] = jj - (same | left)
    if not pairs:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), common
    return np.concatenate(pairs), np.concatenate(positions), common


def substring_lengths(codes, a_start, a_len, b_start, b_len):
    """The length of the longest common substring (contiguous) of each pair.

    Per row i of a batch: ``S[i][j] = (S[i-1][j-1] + 1) * (a_i == b_j)`` into the other of two rows, and the
    cells' running maximum kept elementwise (one reduction per batch, not per row), in the narrowest counts.
    """
    out = np.zeros(len(a_start), dtype=np.int64)
    for batch in _batches(a_len, b_len):
        la, lb = int(a_len[batch].max()), int(b_len[batch].max())
        if not la or not lb:
            continue
        a = _padded(codes, a_start[batch], a_len[batch], la, -1)
        b = _padded(codes, b_start[batch], b_len[batch], lb, -2)
        kind = _count_type(min(la, lb))
        row = np.zeros((len(batch), lb + 1), dtype=kind)   # column 0 stays 0: nothing before b's start
        new = np.zeros_like(row)
        best = np.zeros((len(batch), lb), dtype=kind)
        same = np.empty((len(batch), lb), dtype=bool)
        for i in range(la):
            np.equal(a[:, i:i + 1], b, out=same)
            np.add(row[:, :-1], 1, out=new[:, 1:])
            new[:, 1:] *= same
            np.maximum(best, new[:, 1:], out=best)
            row, new = new, row
        out[batch] = best.max(axis=1)
    return out
