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
from .lazy import pandas as pd

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
