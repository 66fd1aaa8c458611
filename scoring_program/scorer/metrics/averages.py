"""Averages over classes: which classes an average covers, and the macro mean over them.

A macro average is the plain mean of a per-class value over the classes it covers (scikit-learn's
``average='macro'``); which classes those are is a rule, given by the summed counts per class:

- ``gold_or_predicted``: classes with a gold or a predicted item (scikit-learn's default label set, the
  union of ``y_true`` and ``y_pred``; a class predicted but absent from the gold has P = R = F = 0);
- ``all``: every declared class (an absent, unpredicted class counts 0);
- ``gold``: classes with a gold item only (balanced accuracy: the mean recall over them).

Degenerate case: an average over no class is 0.0. Inputs may have any leading shape (a stack of
resamples); the classes are the last axis.

>>> n_pred, n_gold = np.array([1, 0, 0]), np.array([0, 1, 0])
>>> [class_mask(n_pred, n_gold, rule).tolist() for rule in CLASS_RULES]
[[True, True, False], [True, True, True], [False, True, False]]
>>> float(class_mean(np.array([0.5, 1.0, 7.0]), class_mask(n_pred, n_gold, "gold_or_predicted")))
0.75
"""
import numpy as np

from .prf import safe_div

CLASS_RULES = ("gold_or_predicted", "all", "gold")


def class_mask(n_pred, n_gold, rule):
    """Which classes an average covers under ``rule`` (see the module doc), from the counts per class."""
    n_pred, n_gold = np.asarray(n_pred), np.asarray(n_gold)
    if rule == "all":
        return np.ones(n_gold.shape, dtype=bool)
    if rule == "gold":
        return n_gold > 0
    if rule == "gold_or_predicted":
        return (n_gold > 0) | (n_pred > 0)
    raise ValueError("unknown class rule %r" % rule)


def class_mean(values, mask):
    """The mean of ``values`` over the classes where ``mask`` is True (last axis); 0.0 with none.

    >>> class_mean(np.array([[0.5, 1.0], [0.2, 0.4]]), np.array([[True, False], [False, False]])).tolist()
    [0.5, 0.0]
    """
    return safe_div(np.where(mask, values, 0.0).sum(axis=-1), np.sum(mask, axis=-1))
