"""Cohen's kappa from two label-code arrays.

kappa = (Po - Pe) / (1 - Pe), Po = agreement share, Pe = sum_i gold_i * pred_i / N^2
(the CCF BDCI 2021 formula, and scikit-learn's ``cohen_kappa_score``).

Degenerate cases, where the formula divides by zero, are defined here, never NaN:
- N = 0 (nothing to score): 0.0.
- Pe = 1: both raters put every item in one and the same class, which means
  the prediction equals the gold everywhere; kappa is 1.0 (perfect agreement).
"""
import numpy as np


def confusion(gold, pred, n_classes):
    """n_classes x n_classes counts, rows = gold, columns = prediction."""
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    return np.bincount(gold * n_classes + pred, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


def kappa_from_confusion(matrix):
    """Cohen's kappa of a square confusion matrix.

    >>> kappa_from_confusion(np.array([[2, 0, 0], [0, 1, 1], [0, 0, 0]]))
    0.6
    """
    matrix = np.asarray(matrix, dtype=float)
    n = matrix.sum()
    if n == 0:
        return 0.0
    po = np.trace(matrix) / n
    pe = float(matrix.sum(axis=1) @ matrix.sum(axis=0)) / (n * n)
    if pe >= 1.0:
        return 1.0
    return float((po - pe) / (1.0 - pe))


def kappa_from_confusions(matrices):
    """Cohen's kappa of every square matrix of a stack (..., c, c), with the rules of ``kappa_from_confusion``.

    >>> kappa_from_confusions(np.array([[[2, 0, 0], [0, 1, 1], [0, 0, 0]], [[1, 0, 0], [0, 0, 0], [0, 0, 0]]])).tolist()
    [0.6, 1.0]
    """
    matrices = np.asarray(matrices, dtype=float)
    n = matrices.sum(axis=(-2, -1))
    po = np.divide(np.trace(matrices, axis1=-2, axis2=-1), n, out=np.zeros_like(n), where=n > 0)
    expected = (matrices.sum(axis=-1) * matrices.sum(axis=-2)).sum(axis=-1)
    pe = np.divide(expected, n * n, out=np.zeros_like(n), where=n > 0)
    kappa = np.divide(po - pe, 1.0 - pe, out=np.ones_like(n), where=pe < 1.0)
    return np.where(n > 0, kappa, 0.0)


def cohen_kappa(gold, pred, n_classes):
    return kappa_from_confusion(confusion(gold, pred, n_classes))
