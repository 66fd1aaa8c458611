"""A 64-bit digest of each unit's answer, so that two submissions can be compared unit by unit.

An answer is a set of elements (a keyword, a (view, opinion) pair, a tag at
a position): each element is hashed from its columns (pandas' stable hashing,
the same on every machine), and the elements of a unit are combined with XOR,
so their order does not matter. Elements must be distinct within a unit (XOR
cancels a repeated one): a sequence includes the position in its columns, a
multiset is made a set first.

>>> a = per_unit(np.array([0, 0, 1]), 3, np.array(["x", "y", "z"], dtype=object))
>>> b = per_unit(np.array([1, 0, 0]), 3, np.array(["z", "y", "x"], dtype=object))
>>> (a == b).tolist(), int(a[2])
([True, True, True], 0)
"""
import hashlib

import numpy as np
from .bytelevel.cells import word
from .bytelevel.lazy import pandas as pd
from .tables import unit_cells

ORDER_WORDS = 8   # ids up to 64 bytes are ordered by numpy, a word of 8 bytes at a time; longer ones by Python

_MIX = np.uint64(0x100000001B3)


def element_hashes(*columns):
    """One uint64 per element, from its parallel columns (numbers or strings)."""
    out = None
    for column in columns:
        h = pd.util.hash_array(np.asarray(column))
        out = h if out is None else (out * _MIX) ^ h
    return out


def per_unit(unit, n_units, *columns):
    """XOR of the element hashes of each unit (0 for a unit without elements)."""
    unit = np.asarray(unit, dtype=np.int64)
    digest = np.zeros(n_units, dtype=np.uint64)
    if not len(unit):
        return digest
    h = element_hashes(unit, *columns)
    order = np.argsort(unit, kind="stable")
    unit, h = unit[order], h[order]
    starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]])
    digest[unit[starts]] = np.bitwise_xor.reduceat(h, starts)
    return digest


def rows(matrix):
    """One uint64 per row of a 2-D array (every column counts, in order)."""
    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.shape[1] == 0:
        return np.zeros(len(matrix), dtype=np.uint64)
    return pd.util.hash_pandas_object(pd.DataFrame(matrix), index=False).to_numpy(dtype=np.uint64)


def combine(*digests):
    """One digest per unit from several digests per unit (order matters)."""
    return element_hashes(*digests)


def whole(digests):
    """The SHA-256 (hex) of every unit's digest: equal for submissions with the same answers everywhere."""
    return hashlib.sha256(np.ascontiguousarray(digests, dtype="<u8").tobytes()).hexdigest()


def id_set(units):
    """(count, SHA-256 hex) of a set of unit ids, whatever their order: the SHA-256 of the ids' UTF-8 bytes sorted
    bytewise (as Python sorts their str), each followed by a NUL byte, which no id holds.

    A phase's reference data carries those of its board's units (``board_units`` in config.yaml), so that a gold
    that lost or gained units is noticed when it loads, while a gold whose rows were reordered is not refused.

    >>> id_set(["b", "a"]) == id_set(["a", "b"]) == (2, hashlib.sha256(b"a\\0b\\0").hexdigest())
    True
    """
    cells = unit_cells(units)
    n = len(cells)
    lengths = cells.lengths()
    longest = int(lengths.max()) if n else 0
    if longest > 8 * ORDER_WORDS:
        data = b"".join(v + b"\0" for v in sorted(t.encode("utf-8", "surrogatepass") for t in cells.tolist()))
        return n, hashlib.sha256(data).hexdigest()
    width = (longest + 7) // 8
    rows = np.arange(n)
    # word w: bytes 8w..8w+7 of each id (zeros past its end), the first byte counting most, so that the order of the
    # numbers is that of the bytes (an id holds no NUL: a shorter id that begins another comes first)
    keys = [word(cells, rows, w).byteswap() for w in range(width)]
    if width == 1:
        ordered = np.sort(keys[0])[:, None]   # distinct ids of up to 8 bytes: distinct numbers
    else:
        ordered = np.stack(keys, axis=1)[np.lexsort(keys[::-1])] if width else np.zeros((n, 0), np.uint64)
    table = np.zeros((n, 8 * width + 1), dtype=np.uint8)   # each id's bytes, then at least one NUL
    table[:, :8 * width] = ordered.astype(">u8").view(np.uint8).reshape(n, 8 * width)
    if n and lengths.min() == longest:   # ids of one length (000123, ...): each row's first bytes and one NUL
        return n, hashlib.sha256(table[:, :longest + 1].tobytes()).hexdigest()
    kept = np.arange(8 * width + 1) <= np.count_nonzero(table, axis=1)[:, None]   # the bytes and one NUL
    return n, hashlib.sha256(table[kept].tobytes()).hexdigest()
