"""Precision, recall and F-beta from counts, with one division rule everywhere.

A ratio whose denominator is zero is 0.0 (as scikit-learn and seqeval do with
``zero_division=0``); F is computed from the counts, so it is 0 when there is
nothing to find and nothing predicted, never NaN.
"""
import numpy as np


def safe_div(num, den):
    """``num / den`` with 0.0 where ``den == 0`` (scalars or arrays).

    >>> safe_div(1, 0), safe_div(1, 4)
    (0.0, 0.25)
    """
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)
    return float(out) if out.ndim == 0 else out


def prf(tp, n_pred, n_gold, beta=1.0):
    """(precision, recall, F-beta) from true positives, predicted and gold counts.

    F-beta = (1+b^2) P R / (b^2 P + R), which equals
    (1+b^2) tp / ((1+b^2) tp + b^2 fn + fp).

    >>> [round(v, 6) for v in prf(2, 4, 3)]  # P = 2/4, R = 2/3, F1 = 4/7
    [0.5, 0.666667, 0.571429]
    """
    p = safe_div(tp, n_pred)
    r = safe_div(tp, n_gold)
    f = f_beta(p, r, beta)
    return p, r, f


def f_beta(p, r, beta=1.0):
    """Weighted harmonic mean of precision and recall; 0 where both are 0."""
    b2 = beta * beta
    return safe_div((1.0 + b2) * np.asarray(p) * np.asarray(r), b2 * np.asarray(p) + np.asarray(r))
