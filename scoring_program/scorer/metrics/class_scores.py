"""Scores of a probability (or score) matrix against single gold classes: log loss, top-k hits, ROC AUC, AP.

``proba`` is (items, classes), columns in the declared class order; ``gold``
the gold class code of each item.

- log loss of an item = -ln(clip(p_gold / s, eps, 1 - eps)) with s the sum of
  its row (the columns added in the declared order; the natural logarithm):
  Kaggle's multi-class log loss, which divides each row by its sum before
  clipping; scikit-learn >= 1.5 does not divide (it warns), which is the same
  for a row that sums to 1;
- top-k hit: the gold class is among the k highest scores of its row; among
  equal scores the class declared first ranks higher (the rule that makes
  the label of a probability row its first highest column);
- ROC AUC of one class against the rest (Mann-Whitney): the share of
  (positive, negative) pairs where the positive scores higher, a tie counting
  one half, which equals the area under the ROC curve scikit-learn computes;
- average precision of one class (scikit-learn's step integral over the
  distinct thresholds): AP = sum over thresholds t, highest first, of
  (R(t) - R(t_prev)) P(t), where P and R count every item scoring >= t
  (``ties.average_precision`` over the tie groups of the scores).

Both ranking scores need a sort of the class's column (O(n log n)) and are
undefined without positives (AP, AUC) or without negatives (AUC): they are
then NaN here, and the caller decides what an average makes of them.

References: Hanley & McNeil, Radiology 143 (1982) for AUC as the
Mann-Whitney statistic; scikit-learn's ``metrics/_ranking.py``.

>>> y = np.array([True, False, True, False]); s = np.array([0.9, 0.8, 0.8, 0.1])
>>> auc, ap = auc_and_ap(y, s)   # AUC: pairs 2 wins, 1 tie, 1 win: 3.5 / 4; AP: (1/1 + 2/3) / 2
>>> auc, round(ap, 6)
(0.875, 0.833333)
"""
import numpy as np

from . import ties

ROW_BLOCK = 1 << 16   # rows compared at once in top_k_hits: the (rows, classes) temporaries stay small


def log_loss(proba, gold, eps):
    """Each item's -ln p of its gold class, p its row's value divided by the row's sum, clipped to [eps, 1 - eps].

    >>> log_loss(np.array([[0.25, 0.75], [1.0, 0.0], [2.0, 6.0]]), np.array([1, 1, 1]), 1e-15).round(6).tolist()
    [0.287682, 34.538776, 0.287682]
    """
    total = proba[:, 0].copy()
    for k in range(1, proba.shape[1]):   # a column at a time: a column-major matrix is not copied row by row
        total += proba[:, k]
    p = proba[np.arange(len(gold)), gold] / total
    return -np.log(np.clip(p, eps, 1.0 - eps))


def top_k_hits(proba, gold, k):
    """Whether each item's gold class is among the ``k`` highest scores of its row (ties: declared order).

    >>> top_k_hits(np.array([[0.4, 0.4, 0.2], [0.4, 0.4, 0.2]]), np.array([0, 1]), 1).tolist()
    [True, False]
    """
    n, width = proba.shape
    hits = np.empty(n, dtype=bool)
    if k >= width:
        hits[:] = True
        return hits
    columns = np.arange(width)
    for a in range(0, n, ROW_BLOCK):
        block, g = proba[a:a + ROW_BLOCK], gold[a:a + ROW_BLOCK]
        own = block[np.arange(len(g)), g][:, None]
        ahead = (block > own).sum(axis=1) + ((block == own) & (columns < g[:, None])).sum(axis=1)
        hits[a:a + ROW_BLOCK] = ahead < k
    return hits


def auc_and_ap(positive, scores):
    """(ROC AUC, average precision) of ``scores`` for the items where ``positive`` is True, from the tie groups
    of the scores (``ties``); NaN where undefined (no positive; for AUC also no negative)."""
    positive = np.asarray(positive, dtype=bool)
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if n_pos == 0:
        return np.nan, np.nan
    sizes, pos = ties.tie_groups(scores, positive)   # scores ascending
    neg = sizes - pos
    # AUC: each positive beats the negatives of lower groups and ties half of its own group's
    below = np.cumsum(neg) - neg
    auc_value = float(np.dot(pos, below + 0.5 * neg)) / (n_pos * n_neg) if n_neg else np.nan
    # AP: thresholds from the highest group down; P and R count every item at or above the threshold
    return auc_value, float(ties.average_precision(pos[::-1], n_pos, sizes[::-1]))

