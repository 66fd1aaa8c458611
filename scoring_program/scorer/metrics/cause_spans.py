"""Matching emotion-cause pairs whose cause is a token span: strict, fuzzy and proportional.

A pair is six integers: conversation, emotion utterance, cause utterance, span
start and end (whitespace-token indices, end exclusive) and an emotion code.
Pairs live in a ``Pairs`` of parallel arrays, in file order, without duplicates
(``first_occurrences`` removes them). The three matchings follow SemEval-2024
Task 3 (ECAC):

- strict: all six fields equal. With both sides free of duplicates this is a
  set intersection, so the order of pairs does not matter;
- fuzzy: same conversation, utterances and emotion, spans touching
  (``pred.end > gold.start and pred.start < gold.end``, the official test: for
  well-formed spans a common token; an empty span strictly inside a gold span
  touches it too). Each gold pair is taken at most once, greedily: predictions
  in file order, each taking the first gold pair (in gold order) still free;
- proportional: each prediction goes to the gold span of the same conversation,
  utterances and emotion with the largest overlap / gold length (overlap > 0),
  then the largest overlap, then the first in gold order. With ``once=False`` (the
  official rule) several predictions may go to one gold span and each counts
  it; with ``once=True`` only the one with the largest overlap (then the first)
  is credited.

>>> gold = Pairs.of([(0, 3, 2, 0, 4, 4)])
>>> pred = Pairs.of([(0, 3, 2, 0, 4, 4), (0, 3, 2, 2, 6, 4), (0, 3, 1, 0, 4, 4)])
>>> strict_hits(gold, pred)[1].tolist()
[True, False, False]
>>> m = proportional(gold, pred)
>>> m.gold_of.tolist(), m.overlap.tolist(), m.gold_count.tolist()
([0, 0, -1], [4, 2, 0], [2])
>>> m = proportional(gold, pred, once=True)
>>> m.overlap.tolist(), m.gold_count.tolist()
([4, 0, 0], [1])
"""
from dataclasses import dataclass

import numpy as np

from .ties import run_starts

FIELDS = ("conv", "emo_utt", "cause_utt", "start", "end", "emotion")
_LIMIT = 1 << 62


@dataclass(frozen=True)
class Pairs:
    """Parallel int64 arrays, one entry per pair."""

    conv: np.ndarray
    emo_utt: np.ndarray
    cause_utt: np.ndarray
    start: np.ndarray
    end: np.ndarray
    emotion: np.ndarray

    @classmethod
    def of(cls, rows):
        """From an iterable of 6-tuples (for tests and examples)."""
        table = np.asarray(list(rows), dtype=np.int64).reshape(-1, len(FIELDS))
        return cls(*(table[:, k].copy() for k in range(len(FIELDS))))

    @classmethod
    def empty(cls):
        return cls.of([])

    def __len__(self):
        return len(self.conv)

    def take(self, index):
        """The pairs selected by an index array or a boolean mask, in that order."""
        return Pairs(*(getattr(self, f)[index] for f in FIELDS))

    @property
    def length(self):
        return self.end - self.start


def row_codes(*columns):
    """One int64 code per row of the given integer columns; equal rows, equal codes.

    Mixed radix over each column's range (so negative values are fine), re-numbered
    densely whenever the next column would overflow.

    >>> row_codes(np.array([1, 1, 2]), np.array([5, 5, 0])).tolist()
    [5, 5, 6]
    >>> row_codes(np.array([-1, 0, -1]), np.array([2, -3, 2])).tolist()
    [5, 6, 5]
    """
    n = len(columns[0])
    code = np.zeros(n, dtype=np.int64)
    for col in columns:
        col = np.asarray(col, dtype=np.int64)
        if n:
            col = col - col.min()
        radix = int(col.max()) + 1 if n else 1
        top = int(code.max()) if n else 0
        if (top + 1) * radix >= _LIMIT:
            code = np.unique(code, return_inverse=True)[1].astype(np.int64).reshape(-1)
            top = int(code.max())
        code = code * radix + col
    return code


def _joint(gold, pred, fields):
    """Codes of ``fields`` for gold and pred on one scale."""
    cols = [np.concatenate([getattr(gold, f), getattr(pred, f)]) for f in fields]
    code = row_codes(*cols)
    return code[:len(gold)], code[len(gold):]


def first_occurrences(pairs):
    """Indices (ascending) of the first occurrence of every distinct pair.

    >>> first_occurrences(Pairs.of([(0, 1, 1, 0, 2, 1), (0, 1, 1, 0, 2, 1), (0, 1, 1, 0, 2, 2)])).tolist()
    [0, 2]
    """
    if not len(pairs):
        return np.zeros(0, dtype=np.int64)
    code = row_codes(*(getattr(pairs, f) for f in FIELDS))
    return np.sort(np.unique(code, return_index=True)[1])


def strict_hits(gold, pred):
    """(gold_hit, pred_hit): which pairs have an identical pair on the other side."""
    g, p = _joint(gold, pred, FIELDS)
    return np.isin(g, p), np.isin(p, g)


def _candidates(gold, pred):
    """Every (pred, gold) with the same conversation, utterances and emotion whose spans touch.

    Spans touch when ``pred.end > gold.start and pred.start < gold.end``, the
    official scorer's overlap test; for well-formed spans (start < end) it means
    at least one common token, but an empty predicted span inside a gold span
    touches it too, with overlap 0. Returned sorted by pred index, then gold
    index, with the overlap of each (``min(end) - max(start)``, which may be 0 or
    negative), plus the group code of each pred.
    """
    g, p = _joint(gold, pred, ("conv", "emo_utt", "cause_utt", "emotion"))
    order = np.argsort(g, kind="stable")
    gs = g[order]
    lo = np.searchsorted(gs, p, side="left")
    hi = np.searchsorted(gs, p, side="right")
    counts = hi - lo
    pi = np.repeat(np.arange(len(pred), dtype=np.int64), counts)
    # position inside each pred's run of equal gold codes
    within = np.arange(len(pi), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    gi = order[np.repeat(lo, counts) + within].astype(np.int64)
    overlap = np.minimum(pred.end[pi], gold.end[gi]) - np.maximum(pred.start[pi], gold.start[gi])
    keep = (pred.end[pi] > gold.start[gi]) & (pred.start[pi] < gold.end[gi])
    return pi[keep], gi[keep], overlap[keep], p


def fuzzy_hits(gold, pred):
    """(gold_hit, pred_hit) of the greedy one-to-one overlap matching (see the module doc)."""
    gold_hit = np.zeros(len(gold), dtype=bool)
    pred_hit = np.zeros(len(pred), dtype=bool)
    pi, gi, _, group = _candidates(gold, pred)
    if not len(pi):
        return gold_hit, pred_hit
    # rank of each prediction among the earlier predictions of its group: preds of
    # equal rank never compete for a gold pair, so each rank is one vectorised round
    order = np.argsort(group, kind="stable")
    rank = np.empty(len(pred), dtype=np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(group[order])) + 1]
    sizes = np.diff(np.r_[starts, len(pred)])
    rank[order] = np.arange(len(pred)) - np.repeat(starts, sizes)
    cand_rank = rank[pi]
    by_round = np.lexsort((gi, pi, cand_rank))
    pi, gi, cand_rank = pi[by_round], gi[by_round], cand_rank[by_round]
    bounds = np.r_[0, np.flatnonzero(np.diff(cand_rank)) + 1, len(pi)]
    for a, b in zip(bounds[:-1], bounds[1:]):  # one iteration per rank
        p_r, g_r = pi[a:b], gi[a:b]
        free = ~gold_hit[g_r]
        p_r, g_r = p_r[free], g_r[free]
        if not len(p_r):
            continue
        first = np.unique(p_r, return_index=True)[1]  # sorted by pred then gold: first free gold
        gold_hit[g_r[first]] = True
        pred_hit[p_r[first]] = True
    return gold_hit, pred_hit


@dataclass(frozen=True)
class Proportional:
    """Result of proportional matching.

    gold_of: gold index each prediction is matched to, or -1;
    overlap: tokens credited to each prediction (0 if none);
    gold_count: how many times each gold span's length enters the recall denominator.
    """

    gold_of: np.ndarray
    overlap: np.ndarray
    gold_count: np.ndarray


def proportional(gold, pred, once=False):
    """Proportional matching (see the module doc)."""
    gold_of = np.full(len(pred), -1, dtype=np.int64)
    credited = np.zeros(len(pred), dtype=np.int64)
    pi, gi, overlap, _ = _candidates(gold, pred)
    credit = overlap > 0  # a touching span without a common token is never the best match (ratio 0)
    pi, gi, overlap = pi[credit], gi[credit], overlap[credit]
    if len(pi):
        glen = gold.length[gi]
        score = overlap / glen.astype(float)  # the same float division for every candidate, so ties are exact
        best = np.lexsort((gi, -overlap, -score, pi))
        first = best[run_starts(pi[best])]
        gold_of[pi[first]] = gi[first]
        credited[pi[first]] = overlap[first]
    if once:
        matched = np.flatnonzero(gold_of >= 0)
        if len(matched):
            by_gold = np.lexsort((matched, -credited[matched], gold_of[matched]))
            ranked = matched[by_gold]
            loser = ranked[np.r_[False, gold_of[ranked][1:] == gold_of[ranked][:-1]]]
            credited[loser] = 0
            gold_of[loser] = -1
        gold_count = np.ones(len(gold), dtype=np.int64)
    else:
        per_gold = np.bincount(gold_of[gold_of >= 0], minlength=len(gold))
        gold_count = np.maximum(per_gold, 1)
    return Proportional(gold_of, credited, gold_count)
