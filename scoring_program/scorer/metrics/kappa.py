"""Cohen's kappa, unweighted and linear- or quadratic-weighted, from the margins and the diagonal of confusion counts.

With n items, gold[c] and pred[c] the items of class c on each side (the confusion matrix's row and column
sums) and a weight w(i, j) >= 0 of disagreeing as i for j (0 on the diagonal):

    kappa = 1 - O / E,   O = sum_items w(gold, pred),   E = sum_ij w(i, j) gold_i pred_j / n

- unweighted (Cohen 1960), w = 1 - I: O = n - sum right, E = n - sum_c gold_c pred_c / n, which is
  (Po - Pe) / (1 - Pe) with Po = sum right / n and Pe = sum_c gold_c pred_c / n^2 (the CCF BDCI 2021
  formula of bank comments);
- weighted (Cohen 1968), w = |o_i - o_j|^power with o_c the place of class c on an ordinal scale: O is the
  summed weighted distance of the items (a per-item count), E comes from the margins alone (no classes x
  classes matrix), as a sum of non-negative terms, exact where both sides sit on one class:
  - linear, power 1: E = sum_k (o_(k+1) - o_k) (G_k (n - P_k) + P_k (n - G_k)) / n over the gaps between
    consecutive places, G_k and P_k the gold and predicted items at or below the k-th place (a distance
    |o_i - o_j| is the sum of the gaps between the two places);
  - quadratic, power 2: E = spread(gold) + spread(pred) + n (mean_gold - mean_pred)^2, written with centred
    places.

Degenerate cases, where the formula divides by zero, are defined, never NaN:
- n = 0 (nothing to score): 0.0;
- E = 0: every item has one and the same gold and predicted class, the agreement is perfect: 1.0
  (scikit-learn's ``cohen_kappa_score`` returns NaN there).

Inputs may have any leading shape (a stack of resamples); the classes are the last axis.

References: J. Cohen, Educational and Psychological Measurement 20 (1960) and Psychological Bulletin 70
(1968); scikit-learn's ``metrics/_classification.py`` (``cohen_kappa_score``, the 1 - O/E form; its
``weights="linear"`` and ``"quadratic"`` are powers 1 and 2 here, with ``labels`` the classes in scale order).

>>> # gold classes 0, 0, 1, 2 predicted as 0, 1, 2, 0: right 1 of 4
>>> gold = np.array([2., 1., 1.]); pred = np.array([2., 1., 1.]); right = np.array([1., 0., 0.])
>>> round(float(cohen_kappa(right, gold, pred)), 4)   # 1 - 3 / (4 - 6/4)
-0.2
>>> # the CCF's (Po - Pe) / (1 - Pe) on gold 0, 0, 1, 1 predicted 0, 0, 1, 2: Po 3/4, Pe 6/16
>>> float(cohen_kappa(np.array([2., 1., 0.]), np.array([2., 2., 0.]), np.array([2., 1., 1.])))
0.6
"""
import numpy as np

from .prf import safe_div


def kappa(observed, expected, n):
    """1 - observed / expected disagreement; 1.0 where expected is 0 (one class on both sides), 0.0 where n is 0.

    >>> kappa(np.array([1.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0]), np.array([4.0, 3.0, 0.0])).tolist()
    [0.5, 1.0, 0.0]
    """
    value = 1.0 - safe_div(observed, expected)
    return np.where(n > 0, np.where(expected > 0, value, 1.0), 0.0)


def cohen_kappa(right, gold, pred):
    """Unweighted kappa from the agreed items per class (``right``, the diagonal) and the margins.

    >>> float(cohen_kappa(np.array([0., 3.]), np.array([0., 3.]), np.array([0., 3.])))   # one class: perfect
    1.0
    """
    n = np.sum(gold, axis=-1)
    observed = n - np.sum(right, axis=-1)                                              # sum of w C, w = 1 - I
    expected = n - safe_div((np.asarray(gold) * np.asarray(pred)).sum(axis=-1), n)   # sum of w E
    return kappa(observed, expected, n)


def weighted_kappa(distance, gold, pred, position, power):
    """Weighted kappa, w = |o_i - o_j|^power (1: linear, 2: quadratic), from the items' summed weighted distances
    (``distance``: sum of |o(gold) - o(pred)|^power) and the margins; ``position[c]`` is class c's place o_c.

    >>> g = np.array([1., 1., 1.]); p = np.array([0., 1., 2.])   # gold 0, 1, 2; predicted 1, 2, 2
    >>> float(weighted_kappa(2.0, g, p, np.arange(3), 2))   # 1 - (1 + 1 + 0) / (sum_ij (i - j)^2 g_i p_j / 3 = 4)
    0.5
    >>> float(weighted_kappa(2.0, g, p, np.arange(3), 1))   # 1 - (1 + 1 + 0) / (sum_ij |i - j| g_i p_j / 3 = 8/3)
    0.25
    """
    gold, pred = np.asarray(gold, dtype=float), np.asarray(pred, dtype=float)
    position = np.asarray(position, dtype=float)
    n = gold.sum(axis=-1)
    if power == 1:
        order = np.argsort(position, kind="stable")
        below_gold = np.cumsum(gold[..., order], axis=-1)[..., :-1]   # G_k, P_k: items at or below place k
        below_pred = np.cumsum(pred[..., order], axis=-1)[..., :-1]
        gaps = np.diff(position[order])
        across = below_gold * (n[..., None] - below_pred) + below_pred * (n[..., None] - below_gold)
        expected = safe_div((gaps * across).sum(axis=-1), n)
    elif power == 2:
        mean_gold = np.asarray(safe_div((gold * position).sum(axis=-1), n))
        mean_pred = np.asarray(safe_div((pred * position).sum(axis=-1), n))
        # sum_ij (o_i - o_j)^2 gold_i pred_j / n = spread(gold) + spread(pred) + n (mean_gold - mean_pred)^2
        expected = ((gold * (position - mean_gold[..., None]) ** 2).sum(axis=-1)
                    + (pred * (position - mean_pred[..., None]) ** 2).sum(axis=-1)
                    + n * (mean_gold - mean_pred) ** 2)
    else:
        raise ValueError("weights of power %r: 1 (linear) or 2 (quadratic)" % (power,))
    return kappa(np.asarray(distance, dtype=float), np.asarray(expected, dtype=float), n)
