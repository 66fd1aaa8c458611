"""Per-emotion precision, recall and F1, their gold-weighted average and the micro average.

Inputs are sums per emotion code (0 neutral, 1..6 the six emotions); neutral is
left out of every average. For emotion j:

    P_j = num_j / (pred_j + eps)     R_j = num_j / (gold_j + eps)
    F_j = 2 P_j R_j / (P_j + R_j + eps)      (``prf.prf`` with its ``epsilon``)
    weighted X = sum_j w_j X_j,  w_j = n_j / sum_k n_k   (n_j: gold pairs of emotion j)
    micro P = sum num / (sum pred + eps), micro R likewise, micro F as F_j.

``eps = 1e-8`` is the SemEval-2024 Task 3 official scorer's rule (a perfect run
scores 1 - 1e-8); ``eps = 0`` divides exactly, a zero denominator giving 0.
When the board has no gold pair at all the weights are 0 (the official scorer
would divide 0 by 0).

>>> s = emotion_scores([0, 2, 0, 0, 0, 0, 1], [0, 4, 0, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0, 2], [0, 2, 0, 0, 0, 0, 2], 0)
>>> round(s["micro_p"], 6), round(s["micro_r"], 6), round(s["weighted_f1"], 6)
(0.6, 0.75, 0.666667)
"""
import numpy as np

from .prf import prf, safe_div

OFFICIAL_EPSILON = 1e-8


def emotion_scores(num, pred_den, gold_den, gold_pairs, epsilon):
    """Dict: per-emotion arrays ``p``, ``r``, ``f`` (emotions 1..6) and the weighted/micro scalars.

    Inputs may be stacks (..., 7): every value then has the leading shape (one set of scores per row).
    """
    num, pred_den, gold_den, n = (np.asarray(a, dtype=float)[..., 1:] for a in (num, pred_den, gold_den, gold_pairs))
    p, r, f = prf(num, pred_den, gold_den, epsilon=epsilon)
    w = safe_div(n, n.sum(axis=-1, keepdims=True))
    micro_p, micro_r, micro_f = prf(num.sum(axis=-1), pred_den.sum(axis=-1), gold_den.sum(axis=-1), epsilon=epsilon)
    weighted = lambda v: _plain(np.sum(v * w, axis=-1))  # noqa: E731
    return {"p": p, "r": r, "f": f, "weights": w,
            "weighted_p": weighted(p), "weighted_r": weighted(r), "weighted_f1": weighted(f),
            "micro_p": micro_p, "micro_r": micro_r, "micro_f1": micro_f}


def _plain(value):
    """A Python float for one set of scores, the array for a stack."""
    return float(value) if np.ndim(value) == 0 else value
