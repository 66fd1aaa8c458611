"""Set-based multi-label metrics from dense (samples x classes) indicator matrices.

Counts first, then one division rule (``prf.safe_div``: x/0 is 0). Three averages,
each under a name that says which one it is:

- micro: pooled counts over every (sample, class) cell, sum(tp)/sum(pred) and
  sum(tp)/sum(gold) (what ML-GCN calls OP, OR, OF1; scikit-learn ``average='micro'``);
- class-averaged: C-P = mean over classes of tp_c/pred_c, C-R = mean of tp_c/gold_c,
  C-F1 = 2*CP*CR/(CP+CR) (the ML-GCN convention), and macro-F1 = mean over classes
  of the per-class F1 (scikit-learn ``average='macro'``);
- sample-averaged: mean over samples of tp_s/pred_s, tp_s/gold_s and of the
  per-sample F (the document's O-P / O-R; scikit-learn ``average='samples'``).

Which classes a class average covers (``class_mask``) and what a sample with
an empty gold set and an empty prediction scores (``sample_mean``) are the
caller's documented choices.

>>> pred = np.array([[1, 1, 0], [0, 0, 1]], bool)
>>> gold = np.array([[1, 0, 0], [0, 1, 1]], bool)
>>> c = count_sets(pred, gold)
>>> [round(v, 4) for v in micro(c)]        # tp 2, predicted 3, gold 3
[0.6667, 0.6667, 0.6667]
>>> s = per_sample(c)                       # sample 1: P 1/2, R 1; sample 2: P 1, R 1/2
>>> s.precision.tolist(), s.recall.tolist()
([0.5, 1.0], [1.0, 0.5])
"""
from dataclasses import dataclass

import numpy as np

from .prf import f_beta, prf

CLASS_RULES = ("gold_or_predicted", "all", "gold")
BOTH_EMPTY_RULES = ("zero", "one", "skip")


@dataclass
class SetCounts:
    """Sufficient statistics: true positives, predicted and gold labels per class and per sample."""

    tp_class: np.ndarray
    pred_class: np.ndarray
    gold_class: np.ndarray
    tp_sample: np.ndarray
    pred_sample: np.ndarray
    gold_sample: np.ndarray


@dataclass
class PerSample:
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    fbeta: np.ndarray
    both_empty: np.ndarray  # gold and prediction both empty


def count_sets(pred, gold):
    """SetCounts of two boolean (n_samples, n_classes) matrices."""
    pred = np.asarray(pred, dtype=bool)
    gold = np.asarray(gold, dtype=bool)
    hit = pred & gold
    return SetCounts(hit.sum(axis=0, dtype=np.int64), pred.sum(axis=0, dtype=np.int64),
                     gold.sum(axis=0, dtype=np.int64), hit.sum(axis=1, dtype=np.int64),
                     pred.sum(axis=1, dtype=np.int64), gold.sum(axis=1, dtype=np.int64))


def micro(counts, beta=1.0):
    """(precision, recall, F-beta) of the pooled counts."""
    return prf(counts.tp_class.sum(), counts.pred_class.sum(), counts.gold_class.sum(), beta)


def class_mask(counts, rule):
    """Which classes the class averages cover.

    - ``gold_or_predicted``: classes with a gold or a predicted label among the
      scored samples (a class predicted but absent from the gold has P = R = F = 0);
    - ``all``: every class of the label list (an absent, unpredicted class scores 0);
    - ``gold``: classes with at least one gold label only.

    >>> c = count_sets(np.array([[1, 0, 0]], bool), np.array([[0, 1, 0]], bool))
    >>> [class_mask(c, r).tolist() for r in CLASS_RULES]
    [[True, True, False], [True, True, True], [False, True, False]]
    """
    if rule == "all":
        return np.ones(len(counts.gold_class), dtype=bool)
    if rule == "gold":
        return counts.gold_class > 0
    if rule == "gold_or_predicted":
        return (counts.gold_class > 0) | (counts.pred_class > 0)
    raise ValueError("unknown class rule %r" % rule)


def per_class(counts, beta=1.0):
    """(precision, recall, F1, F-beta) arrays, one value per class."""
    p, r, f1 = prf(counts.tp_class, counts.pred_class, counts.gold_class)
    return p, r, f1, f_beta(p, r, beta)


def class_averaged(counts, mask, beta=1.0):
    """C-P, C-R, C-F1 (harmonic mean of C-P and C-R), macro F1 and macro F-beta over ``mask``.

    With no class in the mask every value is 0.0.

    >>> c = count_sets(np.array([[1, 1], [1, 0]], bool), np.array([[1, 0], [0, 1]], bool))
    >>> [round(v, 4) for v in class_averaged(c, np.array([True, True]))]
    [0.25, 0.5, 0.3333, 0.3333, 0.3333]
    """
    p, r, f1, fb = per_class(counts, beta)
    if not mask.any():
        return 0.0, 0.0, 0.0, 0.0, 0.0
    cp, cr = float(p[mask].mean()), float(r[mask].mean())
    return cp, cr, float(f_beta(cp, cr, 1.0)), float(f1[mask].mean()), float(fb[mask].mean())


def per_sample(counts, beta=1.0):
    """Per-sample precision, recall, F1, F-beta (x/0 = 0) and which samples are empty on both sides."""
    p, r, f1 = prf(counts.tp_sample, counts.pred_sample, counts.gold_sample)
    both_empty = (counts.pred_sample == 0) & (counts.gold_sample == 0)
    return PerSample(np.atleast_1d(p), np.atleast_1d(r), np.atleast_1d(f1),
                     np.atleast_1d(f_beta(p, r, beta)), both_empty)


def sample_mean(values, both_empty, rule):
    """Mean over samples of ``values`` with the rule for samples whose gold and prediction are empty.

    - ``zero``: such a sample scores 0, as every x/0 does (scikit-learn ``zero_division=0``);
    - ``one``: it scores 1 (nothing to find, nothing predicted: a right answer);
    - ``skip``: it is left out of the mean.

    The mean of no sample is 0.0.

    >>> v, e = np.array([0.5, 0.0]), np.array([False, True])
    >>> [sample_mean(v, e, r) for r in BOTH_EMPTY_RULES]
    [0.25, 0.75, 0.5]
    """
    values = np.asarray(values, dtype=float)
    if rule == "one":
        values = np.where(both_empty, 1.0, values)
    elif rule == "skip":
        values = values[~both_empty]
    elif rule != "zero":
        raise ValueError("unknown rule %r" % rule)
    return float(values.mean()) if len(values) else 0.0
