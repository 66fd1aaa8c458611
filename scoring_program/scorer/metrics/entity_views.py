"""Partial-match views of entity predictions, as the nervaluate package defines them (its version 1.2).

Four views of the same two entity sets (``spans.Spans``: start, end exclusive,
type; disjoint on each side, never crossing a document). Each prediction is
either correct, incorrect, partial or spurious; each gold entity left over is
missed. A gold entity is a *candidate* for a prediction when they share tokens
and the shared tokens are at least 1 % of the gold entity's length
(nervaluate's ``min_overlap_percentage`` = 1). Predictions are taken in order;
each takes at most one gold entity not taken before:

- ``strict``: correct = a gold entity with the same boundaries and type;
  otherwise the first candidate still free is *incorrect*; otherwise spurious;
- ``exact``: the same with boundaries only (type ignored);
- ``partial``: the matching of ``exact``, its incorrect ones called *partial*;
- ``type``: among the free candidates of the same type, the one with the
  closest boundaries (sum of the two offsets; the first on a tie) is correct;
  otherwise the first free candidate of another type is incorrect.

P = C / actual, R = C / possible with actual = correct + incorrect + partial +
spurious and possible = correct + incorrect + partial + missed; C = correct for
strict and exact, correct + partial / 2 for partial and type. ``strict`` has
the precision and recall of exact entity matching.

A prediction can only compete with its neighbours for a gold entity, so the
matching runs in rounds: round r takes, at once, the r-th prediction of every
group of predictions linked by overlapping a common gold entity.

>>> from .spans import Spans
>>> gold = Spans(np.array([0, 5]), np.array([3, 8]), np.array([0, 1]))
>>> pred = Spans(np.array([0, 5]), np.array([2, 8]), np.array([0, 0]))
>>> {v: (c.correct, c.incorrect, c.partial, c.missed, c.spurious) for v, c in views(gold, pred).items()}
{'strict': (0, 2, 0, 0, 0), 'exact': (1, 1, 0, 0, 0), 'partial': (1, 0, 1, 0, 0), 'type': (1, 1, 0, 0, 0)}
"""
from dataclasses import dataclass

import numpy as np

VIEWS = ("strict", "exact", "partial", "type")
MIN_OVERLAP_PERCENT = 1.0


@dataclass(frozen=True)
class ViewCounts:
    correct: int
    incorrect: int
    partial: int
    missed: int
    spurious: int
    half_partial: bool   # partial and type credit partial matches by half

    @property
    def actual(self):
        return self.correct + self.incorrect + self.partial + self.spurious

    @property
    def possible(self):
        return self.correct + self.incorrect + self.partial + self.missed

    def prf(self):
        """(precision, recall, F1); 0 where a denominator is 0."""
        credit = self.correct + (0.5 * self.partial if self.half_partial else 0.0)
        p = credit / self.actual if self.actual else 0.0
        r = credit / self.possible if self.possible else 0.0
        return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def _candidates(gold, pred):
    """(pred index, gold index) of every candidate pair, sorted by pred then gold; and per pred its group rank."""
    lo = np.searchsorted(gold.end, pred.start, side="right")   # first gold ending after the pred starts
    hi = np.searchsorted(gold.start, pred.end, side="left")    # golds starting before the pred ends
    count = np.maximum(hi - lo, 0)
    pi = np.repeat(np.arange(len(pred), dtype=np.int64), count)
    gi = np.repeat(lo, count) + (np.arange(len(pi)) - np.repeat(np.cumsum(count) - count, count))
    shared = np.minimum(pred.end[pi], gold.end[gi]) - np.maximum(pred.start[pi], gold.start[gi])
    glen = (gold.end[gi] - gold.start[gi]).astype(float)
    keep = (shared / glen) * 100.0 >= MIN_OVERLAP_PERCENT
    # predictions i and i + 1 are linked when they overlap one gold entity (the last of i, the first of i + 1)
    linked = np.zeros(len(pred), dtype=bool)
    if len(pred) > 1:
        linked[1:] = (count[1:] > 0) & (count[:-1] > 0) & (hi[:-1] - 1 == lo[1:])
    group_start = np.maximum.accumulate(np.where(linked, 0, np.arange(len(pred))))
    rank = np.arange(len(pred)) - group_start
    return pi[keep], gi[keep].astype(np.int64), rank


def _closest(pi, gi, distance):
    """Positions of each pred's pair with the smallest distance, the first gold entity on a tie."""
    if not len(pi):
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((gi, distance, pi))
    return order[np.unique(pi[order], return_index=True)[1]]


def views(gold, pred):
    """{view: ViewCounts} for the four views (see the module doc)."""
    pi, gi, rank = _candidates(gold, pred)
    same_bounds = (gold.start[gi] == pred.start[pi]) & (gold.end[gi] == pred.end[pi])
    same_type = gold.type[gi] == pred.type[pi]
    distance = np.abs(gold.start[gi] - pred.start[pi]) + np.abs(gold.end[gi] - pred.end[pi])
    outcome = {v: np.zeros(len(pred), dtype=np.int8) for v in ("strict", "exact", "type")}  # 0 spurious
    taken = {v: np.zeros(len(gold), dtype=bool) for v in outcome}
    CORRECT, INCORRECT = 1, 2
    pair_rank = rank[pi]
    order = np.argsort(pair_rank, kind="stable")
    bounds = np.r_[0, np.flatnonzero(np.diff(pair_rank[order])) + 1, len(order)]
    for a, b in zip(bounds[:-1], bounds[1:]):  # one round per rank of a prediction in its group
        at = order[a:b]
        for view in outcome:
            free = at[~taken[view][gi[at]]]
            if not len(free):
                continue
            if view == "type":
                match = free[same_type[free]]
                best = match[_closest(pi[match], gi[match], distance[match])]
                other = free[~np.isin(pi[free], pi[best])]  # left: candidates of other types only
            else:
                twin = same_bounds & (same_type if view == "strict" else True)
                best = free[twin[free]]
                other = free[~np.isin(pi[free], pi[best])]
            first = other[np.unique(pi[other], return_index=True)[1]] if len(other) else other
            outcome[view][pi[best]] = CORRECT
            outcome[view][pi[first]] = INCORRECT
            taken[view][gi[best]] = True
            taken[view][gi[first]] = True
    out = {}
    for view in VIEWS:
        source = "exact" if view == "partial" else view
        o, t = outcome[source], taken[source]
        correct, wrong = int((o == CORRECT).sum()), int((o == INCORRECT).sum())
        out[view] = ViewCounts(correct=correct, incorrect=0 if view == "partial" else wrong,
                               partial=wrong if view == "partial" else 0, missed=int((~t).sum()),
                               spurious=int((o == 0).sum()), half_partial=view in ("partial", "type"))
    return out
