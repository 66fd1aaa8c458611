"""Ranked-list metrics at a cutoff k, one value per sample, from dense matrices.

Inputs are ``ranked`` (n_samples, depth): the class code at each rank, most
confident first, -1 past the end of the list; and ``grades`` (n_samples,
n_classes): the gold relevance grade of every class, 0 = not relevant. A class
is relevant when its grade is > 0. Ties never reach this module: the ranking
is the list order, decided by the caller.

- AP@k = sum_{r<=k} P(r) rel(r) / D (``ties.average_precision``, one item a
  rank), with D = |relevant| (trec_eval
  ``map_cut``, and the source document: relevant at ranks 1, 2, 5 with 10
  relevant in all gives (1/1 + 2/2 + 3/5)/10 = 0.26) or D = min(k, |relevant|)
  (Kaggle ``apk``);
- nDCG@k = DCG@k / ideal DCG@k, DCG = sum_{r<=k} gain(g_r) / log2(r + 1),
  gain linear (g, trec_eval and scikit-learn) or exponential (2^g - 1);
- ERR@k = sum_{r<=k} (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^g_max
  (Chapelle et al., CIKM 2009; unnormalised).

A sample with no relevant class scores 0 on every metric here.

>>> ranked = np.array([[0, 2, 1]])          # class 0 first, then 2, then 1
>>> grades = np.array([[1, 1, 0]])          # classes 0 and 1 relevant
>>> at = grades_at_ranks(ranked, grades, 3)
>>> at.tolist()
[[1.0, 0.0, 1.0]]
>>> average_precision(at, grades, 3).tolist()  # (1/1 + 2/3) / 2
[0.8333333333333333]
"""
import numpy as np

from . import ties
from .prf import safe_div

MAP_DENOMINATORS = ("relevant", "min_k_relevant")
GAINS = ("exponential", "linear")


def grades_at_ranks(ranked, grades, k):
    """(n_samples, k) gold grade of the class at each of the first k ranks; 0 past the list end.

    >>> grades_at_ranks(np.array([[1, -1, -1]]), np.array([[0, 2]]), 2).tolist()   # class 1, then nothing
    [[2.0, 0.0]]
    """
    ranked = np.asarray(ranked)
    n = ranked.shape[0]
    top = np.full((n, k), -1, dtype=np.int64)
    depth = min(k, ranked.shape[1])
    top[:, :depth] = ranked[:, :depth]
    listed = top >= 0
    at = np.take_along_axis(np.asarray(grades), np.where(listed, top, 0), axis=1).astype(float)
    return np.where(listed, at, 0.0)


def average_precision(grades_at, grades, k, denominator="relevant"):
    """AP@k per sample; ``denominator`` is ``relevant`` (|R|) or ``min_k_relevant`` (min(k, |R|)).

    >>> at = np.array([[1, 1, 0, 0, 1, 0, 0, 0, 0, 0]], float)
    >>> average_precision(at, np.ones((1, 10)), 10).tolist()   # the document's example
    [0.26]
    """
    n_relevant = (np.asarray(grades) > 0).sum(axis=1)
    if denominator == "min_k_relevant":
        n_relevant = np.minimum(n_relevant, k)
    elif denominator != "relevant":
        raise ValueError("unknown denominator %r" % denominator)
    return np.atleast_1d(ties.average_precision(np.asarray(grades_at) > 0, n_relevant))


def _gain(g, gain):
    g = np.asarray(g, dtype=float)
    if gain == "linear":
        return g
    if gain == "exponential":
        return np.exp2(g) - 1.0
    raise ValueError("unknown gain %r" % gain)


def dcg(grades_at, gain="exponential"):
    """DCG of each row of ``grades_at``: sum over ranks r of gain(g_r) / log2(r + 1).

    >>> dcg(np.array([[3., 0., 1.]]), "linear").tolist()   # 3 / 1 + 0 + 1 / 2
    [3.5]
    """
    grades_at = np.asarray(grades_at, dtype=float)
    discount = 1.0 / np.log2(np.arange(2, grades_at.shape[1] + 2))
    return (_gain(grades_at, gain) * discount).sum(axis=1)


def ndcg(grades_at, grades, k, gain="exponential"):
    """nDCG@k per sample; the ideal list is every gold grade sorted in decreasing order.

    >>> at = np.array([[3, 1, 2, 0, 3]], float)          # linear gain, ideal [3, 3, 2, 1, 0]
    >>> round(float(ndcg(at, at, 5, "linear")[0]), 5)
    0.91587
    """
    grades = np.asarray(grades)
    # the k largest grades of each row, largest first (sorted in their own small type, then made floats)
    ideal = np.sort(grades, axis=1)[:, ::-1][:, :k].astype(float)
    return np.atleast_1d(safe_div(dcg(grades_at, gain), dcg(ideal, gain)))


def err(grades_at, max_grade):
    """ERR@k per sample (k = the width of ``grades_at``) with R = (2^g - 1) / 2^max_grade.

    >>> round(float(err(np.array([[3, 1, 2]]), 4)[0]), 5)   # the grades [3, 1, 2, 0, 3] at k = 3
    0.48804
    """
    r = (np.exp2(np.asarray(grades_at, dtype=float)) - 1.0) / np.exp2(float(max_grade))
    not_stopped = np.cumprod(1.0 - r, axis=1)
    before = np.concatenate([np.ones((r.shape[0], 1)), not_stopped[:, :-1]], axis=1)
    return (r * before / np.arange(1, r.shape[1] + 1)).sum(axis=1)
