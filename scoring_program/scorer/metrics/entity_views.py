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

P = C / actual, R = C / possible (``prf.prf``) with actual = correct + incorrect + partial +
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

from .prf import prf
from .spans import Spans
from .ties import run_starts

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
        """(precision, recall, F1) of the credit over actual and possible (``prf.prf``)."""
        credit = self.correct + (0.5 * self.partial if self.half_partial else 0.0)
        return prf(credit, self.actual, self.possible)


def _candidates(gold, pred):
    """(pred index, gold index) of every candidate pair, sorted by pred then gold; per pred its group rank; and
    the pairs' bounds (pred start, pred end, gold start, gold end), read once for the views."""
    lo = np.searchsorted(gold.end, pred.start, side="right")   # first gold ending after the pred starts
    hi = _starting_before(gold.start, lo, pred.end)            # golds starting before the pred ends
    count = np.maximum(hi - lo, 0)
    pi = np.repeat(np.arange(len(pred), dtype=np.int64), count)
    gi = np.repeat(lo, count) + (np.arange(len(pi)) - np.repeat(np.cumsum(count) - count, count))
    ps, pe, gs, ge = pred.start[pi], pred.end[pi], gold.start[gi], gold.end[gi]
    shared = np.minimum(pe, ge) - np.maximum(ps, gs)
    glen = (ge - gs).astype(float)
    keep = (shared / glen) * 100.0 >= MIN_OVERLAP_PERCENT
    # predictions i and i + 1 are linked when they overlap one gold entity (the last of i, the first of i + 1)
    linked = np.zeros(len(pred), dtype=bool)
    if len(pred) > 1:
        linked[1:] = (count[1:] > 0) & (count[:-1] > 0) & (hi[:-1] - 1 == lo[1:])
    group_start = np.maximum.accumulate(np.where(linked, 0, np.arange(len(pred))))
    rank = np.arange(len(pred)) - group_start
    if keep.all():
        return pi, gi.astype(np.int64, copy=False), rank, (ps, pe, gs, ge)
    return pi[keep], gi[keep].astype(np.int64), rank, (ps[keep], pe[keep], gs[keep], ge[keep])


def _starting_before(starts, lo, ends, rounds=8):
    """``np.searchsorted(starts, ends, side="left")`` where each answer is at least ``lo``: the entities before
    ``lo`` end before the span starts, so they start before it ends. Counted on from ``lo`` a step at a time
    (a span overlaps few entities); the spans still counting after ``rounds`` steps are searched.

    >>> _starting_before(np.array([0, 4, 6, 9]), np.array([0, 1, 3]), np.array([5, 9, 12])).tolist()
    [2, 3, 4]
    """
    hi = lo.copy()
    live = np.arange(len(hi))
    for _ in range(rounds):
        at = hi[live]
        live = live[at < len(starts)]
        if not len(live):
            return hi
        more = starts[hi[live]] < ends[live]
        live = live[more]
        hi[live] += 1
    if len(live):
        hi[live] = np.searchsorted(starts, ends[live], side="left")
    return hi


def _closest(pi, distance):
    """Positions of each pred's pair with the smallest distance, the first gold entity on a tie.

    The pairs are in (pred, gold) order, so each pred's pairs are one run: the first of them at the run's
    smallest distance is the one (no sort).
    """
    if not len(pi):
        return np.zeros(0, dtype=np.int64)
    new = run_starts(pi)
    run = np.cumsum(new) - 1
    smallest = np.minimum.reduceat(distance, np.flatnonzero(new))
    at = np.flatnonzero(distance == smallest[run])
    return at[_first_of_runs(run[at])]


def _first_of_runs(values):
    """Positions where a run of equal (sorted) values starts."""
    return np.flatnonzero(run_starts(values))


def _rounds(pair_rank):
    """The pairs of each round, in pair order: round r holds the pairs whose pred is r-th in its group."""
    first = pair_rank == 0
    rounds = [np.flatnonzero(first)]
    later = np.flatnonzero(~first)
    if len(later):  # usually few: most predictions overlap no other prediction's gold entity
        order = later[np.argsort(pair_rank[later], kind="stable")]
        rounds += np.split(order, _first_of_runs(pair_rank[order])[1:])
    return rounds


CHUNK = 1 << 18  # predictions compared at once: temporaries stay small on million-document streams


def views(gold, pred):
    """{view: ViewCounts} for the four views (see the module doc).

    Long streams are cut where no entity, gold or predicted, is crossed: the two sides of a cut share no
    candidate and no group, so the counts of the pieces add up.
    """
    pieces = _pieces(gold, pred)
    if len(pieces) == 1:
        return _views(gold, pred)
    total = None
    for (g0, g1), (p0, p1) in pieces:
        part = _views(Spans(gold.start[g0:g1], gold.end[g0:g1], gold.type[g0:g1]),
                      Spans(pred.start[p0:p1], pred.end[p0:p1], pred.type[p0:p1]))
        total = part if total is None else {v: _add(total[v], part[v]) for v in VIEWS}
    return total


def _add(a, b):
    return ViewCounts(a.correct + b.correct, a.incorrect + b.incorrect, a.partial + b.partial, a.missed + b.missed,
                      a.spurious + b.spurious, a.half_partial)


def _pieces(gold, pred):
    """((gold from, to), (pred from, to)) of stretches about CHUNK predictions long, cut at a predicted
    entity's start that lies inside no gold entity."""
    n = len(pred)
    cuts = []
    for target in range(CHUNK, n, CHUNK):
        near = pred.start[target:target + 64]
        k = np.searchsorted(gold.end, near, side="right")   # the first gold entity ending after the mark
        inside = (k < len(gold)) & (gold.start[np.minimum(k, len(gold) - 1)] < near)
        free = np.flatnonzero(~inside)
        if len(free):
            cuts.append(int(near[free[0]]))
    edges = [None] + cuts + [None]
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        g = (0 if a is None else int(np.searchsorted(gold.start, a)), len(gold) if b is None
             else int(np.searchsorted(gold.start, b)))
        p = (0 if a is None else int(np.searchsorted(pred.start, a)), n if b is None
             else int(np.searchsorted(pred.start, b)))
        out.append((g, p))
    return out


CORRECT, INCORRECT = 1, 2


def _views(gold, pred):
    pi, gi, rank, (ps, pe, gs, ge) = _candidates(gold, pred)
    same_bounds = (gs == ps) & (ge == pe)
    same_type = gold.type[gi] == pred.type[pi]
    outcome = {v: np.zeros(len(pred), dtype=np.int8) for v in ("strict", "exact", "type")}  # 0 spurious
    taken = {v: np.zeros(len(gold), dtype=bool) for v in outcome}
    # A pair alone (its prediction has no other candidate, its gold entity no other prediction) meets no
    # contest: whatever its round, the gold entity is free and the only one, so each view decides at once;
    # those pairs are only counted. Both index columns are sorted (spans are disjoint and in order on each
    # side), so a value met once differs from both its neighbours.
    alone = _once(pi) & _once(gi)
    n_alone = int(alone.sum())
    decided = {view: (int(right[alone].sum()), n_alone) for view, right in
               (("strict", same_bounds & same_type), ("exact", same_bounds), ("type", same_type))}
    if n_alone == len(pi):
        return _counts(outcome, taken, decided, len(pred), len(gold))
    # the other pairs share a prediction or a gold entity only among themselves: matched round by round
    rest = ~alone
    pi, gi, ps, pe, gs, ge = pi[rest], gi[rest], ps[rest], pe[rest], gs[rest], ge[rest]
    same_bounds, same_type = same_bounds[rest], same_type[rest]
    distance = np.abs(gs - ps) + np.abs(ge - pe)
    twins = {"strict": same_bounds & same_type, "exact": same_bounds}
    has_best = np.zeros(len(pred), dtype=bool)
    for r, at in enumerate(_rounds(rank[pi])):  # one round per rank of a prediction in its group
        for view in outcome:
            free = at if r == 0 else at[~taken[view][gi[at]]]  # nothing is taken before the first round
            if not len(free):
                continue
            if view == "type":
                match = free[same_type[free]]
                best = match[_closest(pi[match], distance[match])]
            else:
                best = free[twins[view][free]]
            has_best[pi[best]] = True
            other = free[~has_best[pi[free]]]  # left: candidates of preds without a best one
            has_best[pi[best]] = False
            first = other[_first_of_runs(pi[other])]
            outcome[view][pi[best]] = CORRECT
            outcome[view][pi[first]] = INCORRECT
            taken[view][gi[best]] = True
            taken[view][gi[first]] = True
    return _counts(outcome, taken, decided, len(pred), len(gold))


def _once(sorted_values):
    """True where a value of a sorted array occurs once."""
    once = np.ones(len(sorted_values), dtype=bool)
    if len(sorted_values) > 1:
        differs = sorted_values[1:] != sorted_values[:-1]
        once[1:] &= differs
        once[:-1] &= differs
    return once


def _counts(outcome, taken, decided, n_pred, n_gold):
    """The ViewCounts of each view: the pairs decided alone (correct, decided) per view, then the outcome of
    every other prediction and the gold entities the others took."""
    out = {}
    for view in VIEWS:
        source = "exact" if view == "partial" else view
        o, t = outcome[source], taken[source]
        right, alone = decided[source]
        correct = right + int((o == CORRECT).sum())
        wrong = alone - right + int((o == INCORRECT).sum())
        out[view] = ViewCounts(correct=correct, incorrect=0 if view == "partial" else wrong,
                               partial=wrong if view == "partial" else 0, missed=n_gold - alone - int(t.sum()),
                               spurious=n_pred - correct - wrong, half_partial=view in ("partial", "type"))
    return out
