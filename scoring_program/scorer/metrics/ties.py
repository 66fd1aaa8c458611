"""Sorted scores: the runs of equal values (ties), and the one average precision over groups of tied items.

Ties. In sorted values a run of equal values starts wherever a value differs from the one before it
(``run_starts``); items with equal scores form one group (``tie_groups``). Equal means equal as floats
(-0.0 is 0.0); a NaN equals nothing, so each NaN is a group of its own, after every number.

Average precision. Items ranked best first, in groups of tied items (a group of one item per rank for a
ranked list without ties), with ``hits[g]`` relevant items among the ``sizes[g]`` items of group g:

    AP = sum_g hits[g] P(g) / D,    P(g) = (hits[0] + ... + hits[g]) / (sizes[0] + ... + sizes[g])

the precision of "every item ranked at or above group g", counted once per relevant item of the group
(scikit-learn's step integral sum (R_g - R_{g-1}) P_g over the distinct thresholds when D is the number of
relevant items; trec_eval's ``map_cut`` and Kaggle's ``apk`` at a cutoff k, with D = |relevant| or
min(k, |relevant|)). D = 0 (nothing relevant) gives 0.0; a caller for whom that AP is undefined says so
itself.

References: scikit-learn's ``metrics/_ranking.py`` (``average_precision_score``); trec_eval's
``m_map_cut.c``; C. Manning, P. Raghavan, H. Schütze, Introduction to Information Retrieval (2008), 8.4.

>>> sizes, hits = tie_groups(-np.array([0.9, 0.8, 0.8, 0.1]), np.array([True, False, True, False]))
>>> sizes.tolist(), hits.tolist()                 # scores 0.9, then 0.8 twice, then 0.1: best first
([1, 2, 1], [1, 1, 0])
>>> round(float(average_precision(hits, 2, sizes)), 6)   # (1 * 1/1 + 1 * 2/3) / 2
0.833333
>>> float(average_precision(np.array([1, 1, 0, 0, 1, 0, 0, 0, 0, 0]), 10))   # ranks 1, 2, 5 of 10 relevant
0.26
"""
import numpy as np

from .prf import safe_div


def run_starts(values):
    """True where a run of equal values of the sorted array ``values`` starts (at 0 always, if any).

    >>> run_starts(np.array([1.0, 1.0, 2.0, np.nan, np.nan])).tolist()
    [True, False, True, True, True]
    """
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    return new


def tie_groups(keys, positive):
    """(items, positives) of each group of equal ``keys``, keys ascending, as int64 arrays: pass the negated
    scores for the groups from the highest score down.

    The keys are sorted alone (the order inside a tie does not matter), as integers in the order of the
    values (``ordered_bits``: sorted faster than floats); each positive item's group is found among the
    distinct keys. With a NaN, each NaN is its own group, in the order a sort leaves them.
    """
    keys, positive = np.asarray(keys, dtype=float), np.asarray(positive, dtype=bool)
    if np.isnan(keys).any():
        order = np.argsort(keys)
        group = np.cumsum(run_starts(keys[order])) - 1
        return np.bincount(group), np.bincount(group, weights=positive[order]).astype(np.int64)
    bits = ordered_bits(keys)
    hits = np.sort(bits[positive])
    bits.sort()
    new = run_starts(bits)
    sizes = np.diff(np.append(np.flatnonzero(new), len(bits)))
    return sizes, np.bincount(np.searchsorted(bits[new], hits), minlength=len(sizes))


def ordered_bits(values):
    """int64 keys in the order of ``values`` (floats without NaN), equal exactly where the values are equal.

    >>> ordered_bits(np.array([-2.0, -0.0, 0.0, 1.5, np.inf])).argsort().tolist()[:1], len(set(
    ...     ordered_bits(np.array([-0.0, 0.0])).tolist()))
    ([0], 1)
    """
    bits = (values + 0.0).view(np.int64)   # + 0.0 makes -0.0 into 0.0, so equal values have equal bits
    negative = bits < 0
    bits[negative] ^= np.int64(0x7FFFFFFFFFFFFFFF)   # negative floats order backwards as integers
    return bits


def average_precision(hits, denominator, sizes=None):
    """AP of groups ranked best first along the last axis (see the module doc): ``hits`` relevant items of
    ``sizes`` items per group (None: one item per group, a ranked list), over ``denominator``; 0.0 where the
    denominator is 0. Any leading shape (a row per sample).

    >>> average_precision(np.array([[1, 0, 1], [0, 0, 0]]), np.array([2, 0])).tolist()   # (1/1 + 2/3) / 2
    [0.8333333333333333, 0.0]
    """
    hits = np.asarray(hits)
    if sizes is None:
        seen = np.arange(1, hits.shape[-1] + 1)
    else:
        seen = np.cumsum(sizes, axis=-1)
    precision = safe_div(np.cumsum(hits, axis=-1), seen)   # 0 before the first item (an empty group)
    return safe_div((precision * hits).sum(axis=-1), denominator)
