"""Single-label classification scores from the margins and the diagonal of a confusion matrix.

Every score of a single-label prediction that scikit-learn derives from the
confusion matrix C (gold rows, predicted columns) needs only, per class c:
``gold[c]`` (row sums), ``pred[c]`` (column sums) and ``right[c]`` (the
diagonal) (``margins``), plus, for the quadratic-weighted kappa, the sum over items of the
squared distance between the gold and the predicted class on the ordinal
scale. These are sums over items, so a sample of items (a bootstrap resample)
gives its scores from its own sums. Inputs may have any leading shape (a
stack of resamples); the classes are the last axis.

With n = sum(gold), tp = right:

- accuracy = sum(tp) / n;
- per class: P = tp / pred, R = tp / gold, F1 of P and R (``prf.prf``); a zero
  denominator gives 0 (scikit-learn ``zero_division=0``);
- macro: the mean over the classes that occur in the gold or in the
  prediction (``averages``: scikit-learn's default label set, the union of both);
  weighted: the mean weighted by gold counts; micro: the pooled counts
  (micro P = R = F1 = accuracy, since each item has one gold and one
  predicted class);
- balanced accuracy = the mean recall over the classes with a gold item;
- Matthews correlation = (n sum tp - gold.pred) / sqrt((n^2 - pred.pred)
  (n^2 - gold.gold)), 0 where a factor under the root is 0 (as
  scikit-learn).

Cohen's kappas, unweighted and quadratic-weighted, are ``kappa``'s. With no item at all, every score is 0.0.

References: B. W. Matthews, Biochim. Biophys. Acta 405 (1975); J. Gorodkin, Computational Biology and
Chemistry 28 (2004); scikit-learn's ``metrics/_classification.py``.

>>> # gold classes 0, 0, 1, 2 predicted as 0, 1, 2, 0
>>> right, gold, pred = margins(np.array([[1, 1, 0], [0, 0, 1], [1, 0, 0]]))
>>> gold.tolist(), pred.tolist(), right.tolist(), float(accuracy(right, gold))
([2, 1, 1], [2, 1, 1], [1, 0, 0], 0.25)
>>> [round(float(v), 4) for v in averaged(right, pred, gold, "macro")]   # P, R, F1 of class 0: 1/2; others 0
[0.1667, 0.1667, 0.1667]
"""
import numpy as np

from .averages import class_mask, class_mean
from .prf import prf, safe_div

AVERAGES = ("macro", "micro", "weighted", "binary")


def margins(matrices):
    """(right, gold, pred) per class of a confusion matrix (gold rows, predicted columns) or of each of a stack:
    its diagonal, row sums and column sums.

    >>> [v.tolist() for v in margins(np.array([[2, 1], [0, 3]]))]
    [[2, 3], [3, 3], [2, 4]]
    """
    matrices = np.asarray(matrices)
    return np.diagonal(matrices, axis1=-2, axis2=-1), matrices.sum(axis=-1), matrices.sum(axis=-2)


def per_class(right, pred, gold):
    """(P, R, F1) of every class (the last axis) from its counts; x/0 is 0.

    >>> [v.tolist() for v in per_class(np.array([1., 0.]), np.array([2., 0.]), np.array([1., 1.]))]
    [[0.5, 0.0], [1.0, 0.0], [0.6666666666666666, 0.0]]
    """
    return prf(right, pred, gold)


def averaged(right, pred, gold, average, positive=None):
    """(P, R, F1) averaged the scikit-learn way: ``macro`` over the classes in the gold or the prediction,
    ``weighted`` by gold counts, ``micro`` from pooled counts, ``binary`` the class ``positive``.

    >>> [float(v) for v in averaged(np.array([1., 0.]), np.array([2., 0.]), np.array([1., 1.]), "weighted")]
    [0.25, 0.5, 0.3333333333333333]
    """
    right, pred, gold = (np.asarray(a, dtype=float) for a in (right, pred, gold))
    if average == "micro":
        return prf(right.sum(axis=-1), pred.sum(axis=-1), gold.sum(axis=-1))
    values = per_class(right, pred, gold)
    if average == "binary":
        return tuple(v[..., positive] for v in values)
    if average == "weighted":
        return tuple(safe_div((v * gold).sum(axis=-1), gold.sum(axis=-1)) for v in values)
    if average == "macro":
        seen = class_mask(pred, gold, "gold_or_predicted")
        return tuple(class_mean(v, seen) for v in values)
    raise ValueError("unknown average %r" % average)


def accuracy(right, gold):
    """Share of items whose predicted class is their gold class: sum(right) / sum(gold); 0.0 with no item.

    >>> float(accuracy(np.array([1., 2.]), np.array([2., 2.]))), float(accuracy(np.zeros(2), np.zeros(2)))
    (0.75, 0.0)
    """
    return safe_div(np.sum(right, axis=-1), np.sum(gold, axis=-1))


def balanced_accuracy(right, gold):
    """Mean recall over the classes that have a gold item (scikit-learn drops the others, whose recall is 0/0).

    >>> float(balanced_accuracy(np.array([2., 0., 0.]), np.array([2., 2., 0.])))   # recalls 1 and 0
    0.5
    """
    return class_mean(safe_div(right, gold), np.asarray(gold) > 0)


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
