"""Set-based multi-label metrics from sums of counts (any leading shape: a board, or a stack of resamples).

Counts first, then one division rule (``prf.safe_div``: x/0 is 0). Three averages,
each under a name that says which one it is:

- micro: pooled counts over every (sample, class) cell, sum(tp)/sum(pred) and
  sum(tp)/sum(gold) (what ML-GCN calls OP, OR, OF1; scikit-learn ``average='micro'``): ``prf``
  of the summed counts;
- class-averaged: C-P = mean over classes of tp_c/pred_c, C-R = mean of tp_c/gold_c,
  C-F1 = 2*CP*CR/(CP+CR) (the ML-GCN convention), and macro-F1 = mean over classes
  of the per-class F1 (scikit-learn ``average='macro'``);
- sample-averaged: mean over samples of tp_s/pred_s, tp_s/gold_s and of the
  per-sample F (the document's O-P / O-R; scikit-learn ``average='samples'``), from the sums of those
  per-sample values.

Which classes a class average covers (``averages.class_mask``) and what a sample with
an empty gold set and an empty prediction scores (``sample_mean``) are the
caller's documented choices.

>>> pred = np.array([[1, 1, 0], [0, 0, 1]], bool)
>>> gold = np.array([[1, 0, 0], [0, 1, 1]], bool)
>>> tp, n_pred, n_gold = (pred & gold).sum(axis=1), pred.sum(axis=1), gold.sum(axis=1)
>>> [round(float(v), 4) for v in prf(tp.sum(), n_pred.sum(), n_gold.sum())]   # micro: tp 2, predicted 3, gold 3
[0.6667, 0.6667, 0.6667]
>>> s = per_sample(tp, n_pred, n_gold)              # sample 1: P 1/2, R 1; sample 2: P 1, R 1/2
>>> s.precision.tolist(), s.recall.tolist()
([0.5, 1.0], [1.0, 0.5])
"""
from dataclasses import dataclass

import numpy as np

from .averages import class_mean
from .prf import f_beta, prf, safe_div

BOTH_EMPTY_RULES = ("zero", "one", "skip")


@dataclass
class PerSample:
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    fbeta: np.ndarray
    both_empty: np.ndarray  # gold and prediction both empty


def per_sample(tp, n_pred, n_gold, beta=1.0):
    """Per-sample precision, recall, F1, F-beta (x/0 = 0) from per-sample counts, and which samples are empty
    on both sides."""
    p, r, f1 = prf(tp, n_pred, n_gold)
    both_empty = (np.asarray(n_pred) == 0) & (np.asarray(n_gold) == 0)
    return PerSample(np.atleast_1d(p), np.atleast_1d(r), np.atleast_1d(f1), np.atleast_1d(f_beta(p, r, beta)),
                     np.atleast_1d(both_empty))


def class_averaged(tp, n_pred, n_gold, mask, beta=1.0):
    """(C-P, C-R, C-F1, macro F1, macro F-beta) over the classes of ``mask``, from the summed counts per class
    (..., classes): the means of the per-class values, C-F1 the harmonic mean of C-P and C-R. With no class in
    the mask every value is 0.0.

    >>> [round(float(v), 4) for v in class_averaged(np.array([1, 0]), np.array([2, 1]), np.array([1, 1]),
    ...                                               np.array([True, True]))]
    [0.25, 0.5, 0.3333, 0.3333, 0.3333]
    """
    p, r, f1 = prf(tp, n_pred, n_gold)
    cp, cr = class_mean(p, mask), class_mean(r, mask)
    return cp, cr, f_beta(cp, cr), class_mean(f1, mask), class_mean(f_beta(p, r, beta), mask)


def sample_mean(total, n, both_empty, rule):
    """Mean over ``n`` samples whose values sum to ``total`` (those empty on both sides count 0 in it), with
    the rule for the ``both_empty`` samples whose gold and prediction are empty:

    - ``zero``: such a sample scores 0, as every x/0 does (scikit-learn ``zero_division=0``);
    - ``one``: it scores 1 (nothing to find, nothing predicted: a right answer);
    - ``skip``: it is left out of the mean.

    The mean of no sample is 0.0.

    >>> [float(sample_mean(0.5, 2, 1, r)) for r in BOTH_EMPTY_RULES]
    [0.25, 0.75, 0.5]
    """
    if rule == "one":
        return safe_div(np.add(total, both_empty), n)
    if rule == "skip":
        return safe_div(total, np.subtract(n, both_empty))
    if rule == "zero":
        return safe_div(total, n)
    raise ValueError("unknown rule %r" % rule)
