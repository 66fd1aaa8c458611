"""Cohen's kappa from summed confusion counts (a 3x3 table of gold rows and predicted columns, or a stack).

kappa = (Po - Pe) / (1 - Pe), Po = the agreement share (trace / N), Pe = sum_i gold_i * pred_i / N^2
(the CCF BDCI 2021 formula, and scikit-learn's ``cohen_kappa_score``).

Degenerate cases, where the formula divides by zero, are defined here, never NaN:
- N = 0 (nothing to score): 0.0.
- Pe = 1: both raters put every item in one and the same class, which means
  the prediction equals the gold everywhere; kappa is 1.0 (perfect agreement).
"""
import numpy as np


def kappa_from_confusions(matrices):
    """Cohen's kappa of a square confusion matrix (c, c), or of every matrix of a stack (..., c, c).

    >>> float(kappa_from_confusions(np.array([[2, 0, 0], [0, 1, 1], [0, 0, 0]])))   # Po 3/4, Pe 6/16: 0.6
    0.6
    >>> kappa_from_confusions(np.array([[[0, 0], [0, 0]], [[0, 0], [0, 3]], [[0, 1], [1, 0]]])).tolist()
    [0.0, 1.0, -1.0]
    """
    matrices = np.asarray(matrices, dtype=float)
    n = matrices.sum(axis=(-2, -1))
    po = np.divide(np.trace(matrices, axis1=-2, axis2=-1), n, out=np.zeros_like(n), where=n > 0)
    expected = (matrices.sum(axis=-1) * matrices.sum(axis=-2)).sum(axis=-1)
    pe = np.divide(expected, n * n, out=np.zeros_like(n), where=n > 0)
    kappa = np.divide(po - pe, 1.0 - pe, out=np.ones_like(n), where=pe < 1.0)
    return np.where(n > 0, kappa, 0.0)
