"""Distinct cells coded in order of first appearance, grown a block of cells at a time.

``grouping.factorize`` codes a whole column at once: its sort and its temporaries
are as long as the column. A column of four million keywords drawn from fifty
thousand terms needs neither: ``Vocabulary.add`` codes one block of cells
against the distinct cells seen so far (a few sorted runs of their 64-bit keys,
and their bytes, copied once into the vocabulary's own buffer), so memory follows
the number of distinct cells, and the caller keeps one small integer per cell.
Every code is exact: equal keys are confirmed byte for byte, and on a key
collision the vocabulary goes on with a dictionary of Python strings.

>>> v = Vocabulary()
>>> v.add(Cells.from_strings(["b", "a", "b"])).tolist(), v.add(Cells.from_strings(["c", "a"])).tolist()
([0, 1, 0], [2, 1])
>>> v.cells().tolist()
['b', 'a', 'c']
"""
import numpy as np

from .cells import Cells, joined
from .grouping import factorize, keys, same


class Vocabulary:
    """The distinct cells added so far; ``add`` gives each added cell the code of its first appearance."""

    def __init__(self):
        self._buf = np.zeros(1 << 12, dtype=np.uint8)  # the distinct cells' bytes, one after the other
        self._used = 0
        self._start = np.zeros(1 << 8, dtype=np.int64)
        self._end = np.zeros(1 << 8, dtype=np.int64)
        self._n = 0
        self._runs = []         # (sorted keys, their codes), each run at most half the one before it
        self._by_string = None  # after a key collision: {str: code}

    def __len__(self):
        return self._n

    def cells(self):
        """The distinct cells, by code (views of the vocabulary's arrays)."""
        return Cells(self._buf[:self._used], self._start[:self._n], self._end[:self._n])

    def add(self, cells):
        """The code of each of ``cells``: an earlier code for a cell seen before, the next new code otherwise."""
        if self._by_string is not None:
            return self._add_strings(cells.tolist())
        codes, first = factorize(cells, ordered=True)
        distinct = cells[first]
        key = keys(distinct)
        code = np.full(len(first), -1, dtype=np.int64)
        for run_keys, run_codes in self._runs:
            slot = np.minimum(np.searchsorted(run_keys, key), len(run_keys) - 1)
            known = np.flatnonzero((run_keys[slot] == key) & (code < 0))
            code[known] = run_codes[slot[known]]
        known = np.flatnonzero(code >= 0)
        if not same(distinct, known, self.cells(), code[known], equal_keys=True).all():  # a key collision
            self._by_string = {s: k for k, s in enumerate(self.cells().tolist())}
            return self._add_strings(cells.tolist())
        new = np.flatnonzero(code < 0)   # in order of first appearance
        code[new] = self._n + np.arange(len(new))
        self._append(distinct[new])
        self._index(key[new], code[new])
        return code[codes]

    def _append(self, cells):
        """Copy ``cells`` (new distinct cells) to the end of the vocabulary."""
        lengths = cells.lengths()
        end = self._used + np.cumsum(lengths)
        need = int(end[-1]) if len(end) else self._used
        self._buf = _room(self._buf, self._used, need)
        self._start = _room(self._start, self._n, self._n + len(cells))
        self._end = _room(self._end, self._n, self._n + len(cells))
        if need > self._used:
            self._buf[self._used:need] = np.frombuffer(joined(cells, b""), dtype=np.uint8)
        self._start[self._n:self._n + len(cells)] = end - lengths
        self._end[self._n:self._n + len(cells)] = end
        self._used = need
        self._n += len(cells)

    def _index(self, key, code):
        """Add the keys of new codes to the sorted runs; runs of similar size merge, so there are few."""
        if not len(key):
            return
        order = np.argsort(key, kind="stable")
        self._runs.append((key[order], code[order]))
        while len(self._runs) > 1 and 2 * len(self._runs[-1][0]) >= len(self._runs[-2][0]):
            (k1, c1), (k2, c2) = self._runs.pop(), self._runs.pop()
            merged_keys = np.concatenate([k2, k1])
            order = np.argsort(merged_keys, kind="stable")  # two sorted runs: a linear merge
            self._runs.append((merged_keys[order], np.concatenate([c2, c1])[order]))

    def _add_strings(self, strings):
        seen = self._by_string
        before = len(seen)
        codes = np.fromiter((seen.setdefault(s, len(seen)) for s in strings), dtype=np.int64, count=len(strings))
        if len(seen) > before:
            self._append(Cells.from_strings(list(seen)[before:]))
        return codes


def _room(array, used, need):
    """``array``, or a copy twice as long holding its first ``used`` items, so that ``need`` items fit."""
    if need <= len(array):
        return array
    grown = np.zeros(max(need, 2 * len(array)), dtype=array.dtype)
    grown[:used] = array[:used]
    return grown
