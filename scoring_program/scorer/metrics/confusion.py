"""Single-label classification scores from the margins and the diagonal of a confusion matrix.

Every score of a single-label prediction that scikit-learn derives from the
confusion matrix C (gold rows, predicted columns) needs only, per class c:
``gold[c]`` (row sums), ``pred[c]`` (column sums) and ``right[c]`` (the
diagonal), plus, for the quadratic-weighted kappa, the sum over items of the
squared distance between the gold and the predicted class on the ordinal
scale. These are sums over items, so a sample of items (a bootstrap resample)
gives its scores from its own sums. Inputs may have any leading shape (a
stack of resamples); the classes are the last axis.

With n = sum(gold), tp = right:

- accuracy = sum(tp) / n;
- per class: P = tp / pred, R = tp / gold, F1 = 2 tp / (pred + gold) (F from
  the counts, as scikit-learn computes it); a zero denominator gives 0
  (scikit-learn ``zero_division=0``);
- macro: the mean over the classes that occur in the gold or in the
  prediction (scikit-learn's default label set, the union of both);
  weighted: the mean weighted by gold counts; micro: the pooled counts
  (micro P = R = F1 = accuracy, since each item has one gold and one
  predicted class);
- balanced accuracy = the mean recall over the classes with a gold item;
- Cohen's kappa = 1 - (n - sum tp) / (n - sum gold*pred / n);
- quadratic-weighted kappa = 1 - sum_items (o(g) - o(p))^2 / E, where o is
  the position on the ordinal scale and E = sum_ij (o_i - o_j)^2 gold_i
  pred_j / n, written with centred positions (a sum of non-negative terms,
  exact where the gold and the prediction sit on one class);
- Matthews correlation = (n sum tp - gold.pred) / sqrt((n^2 - pred.pred)
  (n^2 - gold.gold)), 0 where a factor under the root is 0 (as
  scikit-learn).

Where a kappa divides by zero, every item has one and the same gold and
predicted class: the agreement is perfect and kappa is 1.0 (scikit-learn
returns NaN there). With no item at all, every score is 0.0.

References: J. Cohen, Educational and Psychological Measurement 20 (1960);
B. W. Matthews, Biochim. Biophys. Acta 405 (1975); scikit-learn's
``metrics/_classification.py``.

>>> # gold classes 0, 0, 1, 2 predicted as 0, 1, 2, 0
>>> gold = np.array([2., 1., 1.]); pred = np.array([2., 1., 1.]); right = np.array([1., 0., 0.])
>>> float(accuracy(right, gold)), round(float(cohen_kappa(right, gold, pred)), 4)   # 1 - 3 / (4 - 6/4)
(0.25, -0.2)
>>> [round(float(v), 4) for v in averaged(right, pred, gold, "macro")]   # P, R, F1 of class 0: 1/2; others 0
[0.1667, 0.1667, 0.1667]
"""
import numpy as np

from .prf import safe_div

AVERAGES = ("macro", "micro", "weighted", "binary")


def per_class(right, pred, gold):
    """(P, R, F1) of every class (the last axis) from its counts; x/0 is 0.

    >>> [v.tolist() for v in per_class(np.array([1., 0.]), np.array([2., 0.]), np.array([1., 1.]))]
    [[0.5, 0.0], [1.0, 0.0], [0.6666666666666666, 0.0]]
    """
    return safe_div(right, pred), safe_div(right, gold), safe_div(2.0 * np.asarray(right), np.add(pred, gold))


def averaged(right, pred, gold, average, positive=None):
    """(P, R, F1) averaged the scikit-learn way: ``macro`` over the classes in the gold or the prediction,
    ``weighted`` by gold counts, ``micro`` from pooled counts, ``binary`` the class ``positive``.

    >>> [float(v) for v in averaged(np.array([1., 0.]), np.array([2., 0.]), np.array([1., 1.]), "weighted")]
    [0.25, 0.5, 0.3333333333333333]
    """
    right, pred, gold = (np.asarray(a, dtype=float) for a in (right, pred, gold))
    if average == "micro":
        tp, n_pred, n_gold = right.sum(axis=-1), pred.sum(axis=-1), gold.sum(axis=-1)
        return safe_div(tp, n_pred), safe_div(tp, n_gold), safe_div(2.0 * tp, n_pred + n_gold)
    values = per_class(right, pred, gold)
    if average == "binary":
        return tuple(v[..., positive] for v in values)
    if average == "weighted":
        return tuple(safe_div((v * gold).sum(axis=-1), gold.sum(axis=-1)) for v in values)
    if average == "macro":
        seen = (gold > 0) | (pred > 0)
        return tuple(safe_div(np.where(seen, v, 0.0).sum(axis=-1), seen.sum(axis=-1)) for v in values)
    raise ValueError("unknown average %r" % average)


def accuracy(right, gold):
    """Share of items whose predicted class is their gold class."""
    return safe_div(np.sum(right, axis=-1), np.sum(gold, axis=-1))


def balanced_accuracy(right, gold):
    """Mean recall over the classes that have a gold item (scikit-learn drops the others, whose recall is 0/0).

    >>> float(balanced_accuracy(np.array([2., 0., 0.]), np.array([2., 2., 0.])))   # recalls 1 and 0
    0.5
    """
    gold = np.asarray(gold, dtype=float)
    recall = safe_div(right, gold)
    return safe_div(np.where(gold > 0, recall, 0.0).sum(axis=-1), (gold > 0).sum(axis=-1))


def cohen_kappa(right, gold, pred):
    """Cohen's kappa, 1 - (n - agreed) / (n - expected agreement); 1.0 where both sides hold one and the same
    class, 0.0 with no item.

    >>> float(cohen_kappa(np.array([0., 3.]), np.array([0., 3.]), np.array([0., 3.])))
    1.0
    """
    n = np.sum(gold, axis=-1)
    observed = n - np.sum(right, axis=-1)                                # sum of w C with w = 1 - I
    expected = n - safe_div((np.asarray(gold) * np.asarray(pred)).sum(axis=-1), n)   # sum of w E
    return _kappa(observed, expected, n)


def quadratic_kappa(squared, gold, pred, position):
    """Quadratic-weighted kappa from the summed squared ordinal distances of the items (``squared``) and the
    margins; ``position[c]`` is class c's place on the ordinal scale.

    >>> g = np.array([1., 1., 1.]); p = np.array([0., 1., 2.])   # gold 0, 1, 2; predicted 1, 2, 2
    >>> float(quadratic_kappa(2.0, g, p, np.arange(3)))   # 1 - 2 / (sum_ij (i - j)^2 g_i p_j / 3 = 4)
    0.5
    """
    gold, pred = np.asarray(gold, dtype=float), np.asarray(pred, dtype=float)
    position = np.asarray(position, dtype=float)
    n = gold.sum(axis=-1)
    mean_gold = np.asarray(safe_div((gold * position).sum(axis=-1), n))
    mean_pred = np.asarray(safe_div((pred * position).sum(axis=-1), n))
    # sum_ij (o_i - o_j)^2 gold_i pred_j / n = spread(gold) + spread(pred) + n (mean_gold - mean_pred)^2
    expected = ((gold * (position - mean_gold[..., None]) ** 2).sum(axis=-1)
                + (pred * (position - mean_pred[..., None]) ** 2).sum(axis=-1)
                + n * (mean_gold - mean_pred) ** 2)
    return _kappa(np.asarray(squared, dtype=float), expected, n)


def _kappa(observed, expected, n):
    """1 - observed / expected, 1.0 where expected is 0 (one class on both sides), 0.0 where n is 0."""
    kappa = 1.0 - safe_div(observed, expected)
    return np.where(n > 0, np.where(expected > 0, kappa, 1.0), 0.0)


def matthews(right, gold, pred):
    """Matthews correlation coefficient for any number of classes (Gorodkin's R_K, scikit-learn's formula).

    >>> float(matthews(np.array([1., 1.]), np.array([2., 1.]), np.array([1., 2.])))   # binary: tp 1, tn 1, fp 0, fn 1
    0.5
    """
    gold, pred = np.asarray(gold, dtype=float), np.asarray(pred, dtype=float)
    n = gold.sum(axis=-1)
    covariance = np.sum(right, axis=-1) * n - (gold * pred).sum(axis=-1)
    spread = (n * n - (pred * pred).sum(axis=-1)) * (n * n - (gold * gold).sum(axis=-1))
    return safe_div(covariance, np.sqrt(spread))
