"""Precision, recall and F-beta from counts: the one F of every family, with one division rule.

    P = tp / (n_pred + eps)      R = tp / (n_gold + eps)
    F_beta = (1 + b^2) P R / (b^2 P + R + eps)

which, for eps = 0, equals (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp), F1 = 2 tp / (n_pred + n_gold)
(van Rijsbergen's F, 1979; scikit-learn's ``precision_recall_fscore_support``, seqeval). F is the weighted
harmonic mean of P and R, so the same function gives F of averaged P and R (the class-averaged F1 of ML-GCN,
``f1_of_macro_pr``).

Degenerate cases, never NaN: a ratio whose denominator is zero is 0.0 (scikit-learn and seqeval with
``zero_division=0``), so F is 0 when there is nothing to find and nothing predicted, and 0 when P = R = 0.
``eps`` is 0 but for the SemEval-2024 Task 3 official scorer, which adds 1e-8 to every denominator.
Inputs may be numbers or arrays of any shape (a stack of resamples); a single value comes back as a float.

>>> [round(v, 6) for v in prf(2, 4, 3)]  # P = 2/4, R = 2/3, F1 = 4/7
[0.5, 0.666667, 0.571429]
>>> prf(0, 0, 0), round(prf(3, 3, 3, epsilon=1e-8)[2], 9)   # nothing at all; all right, with the official eps
((0.0, 0.0, 0.0), 0.999999992)
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


def prf(tp, n_pred, n_gold, beta=1.0, epsilon=0.0):
    """(precision, recall, F-beta) from true positives, predicted and gold counts (see the module doc).

    >>> [round(float(v), 4) for v in prf(1, 2, 4, beta=2.0)]   # F2 = 5 (1/2)(1/4) / (4 (1/2) + 1/4)
    [0.5, 0.25, 0.2778]
    """
    p = safe_div(tp, np.add(n_pred, epsilon))
    r = safe_div(tp, np.add(n_gold, epsilon))
    return p, r, f_beta(p, r, beta, epsilon)


def f_beta(p, r, beta=1.0, epsilon=0.0):
    """F-beta of precision ``p`` and recall ``r``: (1 + b^2) P R / (b^2 P + R + eps), 0 where that is 0 / 0.

    >>> f_beta(0.5, 0.25), f_beta(0.0, 0.0)
    (0.3333333333333333, 0.0)
    """
    b2 = beta * beta
    p, r = np.asarray(p), np.asarray(r)
    return safe_div((1.0 + b2) * p * r, b2 * p + r + epsilon)
