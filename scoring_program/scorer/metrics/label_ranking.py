"""Label-ranking measures on a score matrix, as scikit-learn defines them, computed from the listed labels only.

A submission lists some labels per sample, most confident first, optionally
with scores. Its score matrix (samples x classes) holds those scores; a label
that is not listed sits below every listed label of every sample, tied with the
other unlisted ones (as if scored minus infinity). Without scores the score of
the label at position p (from 0) is ``-p``. Tied scores stay tied, as in
scikit-learn. Only the listed entries are touched (the unlisted ones are
counted, never stored), so the cost is that of the lists.

Per sample i, with relevant set Y (grade > 0), C classes and n_ge(j) the number
of labels scored >= label j:

- label ranking average precision (``label_ranking_average_precision_score``):
  mean over j in Y of |{k in Y: s_k >= s_j}| / n_ge(j); 1 when Y is empty or
  holds every class;
- coverage error (``coverage_error``): n_ge of the lowest-scored relevant label,
  0 when Y is empty (lower is better);
- ranking loss (``label_ranking_loss``): the share of (relevant, irrelevant)
  pairs with s_irrelevant >= s_relevant, 0 when Y is empty or full (lower is
  better).

Per class c, over samples (``average_precision_score``): AP = sum over the
distinct scores t, from the highest, of (R_t - R_{t-1}) P_t, with precision and
recall of "score >= t"; 0 when the class has no positive sample.

>>> listed = Listed.of([[2, 0], [1]], [[0.9, 0.5], [0.3]])   # sample 0 lists c2, c0; sample 1 lists c1
>>> relevant = np.array([[True, False, False], [True, False, True]])
>>> lrap, coverage, loss = per_sample(listed, relevant)
>>> lrap.tolist(), coverage.tolist(), loss.tolist()  # sample 1: c1 (irrelevant) first, c0 and c2 tied below
([0.5, 0.6666666666666666], [2.0, 3.0], [0.5, 1.0])
>>> per_class_ap(listed, relevant).tolist()  # c0: sample 0 at 0.5, sample 1 unlisted: (1/2) 1 + (1/2) 1
[1.0, 0.0, 0.5]
"""
from dataclasses import dataclass

import numpy as np

from . import ties


@dataclass(frozen=True)
class Listed:
    """Listed labels as parallel arrays in row-major rank order (scores non-increasing within a row)."""

    row: np.ndarray
    code: np.ndarray
    score: np.ndarray
    n_rows: int

    @classmethod
    def of(cls, codes, scores=None):
        """From lists per row (for tests and examples); without scores, position p scores -p."""
        row = np.repeat(np.arange(len(codes)), [len(c) for c in codes]).astype(np.int64)
        code = np.array([c for r in codes for c in r], dtype=np.int64)
        if scores is None:
            score = -np.concatenate([np.arange(len(c)) for c in codes] + [np.zeros(0)]).astype(float)
        else:
            score = np.array([s for r in scores for s in r], dtype=float)
        return cls(row, code, score, len(codes))

    @classmethod
    def from_ranked(cls, ranked, ranked_scores=None):
        """From the (n, depth) class codes by rank (-1 past the end) and their scores (None: by position)."""
        ranked = np.asarray(ranked)
        n, depth = ranked.shape
        small = np.int32 if n * max(depth, 1) < 2 ** 31 else np.int64
        if (ranked >= 0).all():  # every list full: the matrices themselves, row by row (no copy)
            row = np.repeat(np.arange(n, dtype=small), depth)
            position = np.tile(np.arange(depth, dtype=small), n) if ranked_scores is None else None
            code = ranked.ravel()
            score = (-position.astype(float) if ranked_scores is None
                     else np.asarray(ranked_scores, dtype=float).ravel())
            return cls(row, code, score, n)
        at = np.flatnonzero(ranked.ravel() >= 0)           # row-major: rows in order, ranks in order
        row = (at // max(depth, 1)).astype(small)
        if ranked_scores is None:
            score = -(at % depth).astype(float)
        else:
            score = np.asarray(ranked_scores, dtype=float).ravel()[at]
        return cls(row, ranked.ravel()[at], score, n)


FEW_CLASSES = 64  # up to this many classes, each class's entries may be found by a comparison (no sort)
SORTED_ENTRIES = 1 << 22  # up to this many entries, they are sorted by class all the same (a 32 MB index)
ROWS = 1 << 16  # samples measured at once: the temporaries of a million samples stay small


def per_sample(listed, relevant):
    """(label ranking average precision, coverage error, ranking loss) of every sample, as float arrays.

    Samples are independent: they are measured ROWS at a time.
    """
    relevant = np.asarray(relevant, dtype=bool)
    n = relevant.shape[0]
    if n <= ROWS:
        return _per_sample(listed, relevant)
    out = [np.empty(n) for _ in range(3)]
    marks = np.minimum(np.arange(0, n + ROWS, ROWS), n).astype(listed.row.dtype)  # row's type: no copy of row
    bounds = np.searchsorted(listed.row, marks)
    for k, r0 in enumerate(range(0, n, ROWS)):
        a, b = bounds[k], bounds[k + 1]
        part = Listed(listed.row[a:b] - r0, listed.code[a:b], listed.score[a:b], min(ROWS, n - r0))
        for o, values in zip(out, _per_sample(part, relevant[r0:r0 + ROWS])):
            o[r0:r0 + ROWS] = values
    return tuple(out)


def _per_sample(listed, relevant):
    n, n_classes = relevant.shape
    n_relevant = relevant.sum(axis=1).astype(np.int64)
    row, score = listed.row, listed.score
    rel = relevant[row, listed.code] if len(row) else np.zeros(0, dtype=bool)
    # tie groups inside each row: entries are in rank order, equal scores adjacent
    new = ties.run_starts(row) | ties.run_starts(score)
    group = np.cumsum(new) - 1
    row_start = np.searchsorted(row, np.arange(n))
    last_of_group = np.flatnonzero(np.r_[new[1:], True])  # index of each group's last entry
    end = last_of_group[group]                            # index of the last entry tied with each entry
    n_ge = end - row_start[row] + 1             # labels scored >= this one (all listed: unlisted are below)
    rel_cum = np.cumsum(rel)
    rel_before_row = np.concatenate([[0], rel_cum])[row_start[row]]
    rel_ge = rel_cum[end] - rel_before_row if len(row) else np.zeros(0, dtype=np.int64)

    listed_rel = np.bincount(row[rel], minlength=n)
    unlisted_rel = n_relevant - listed_rel
    trivial = (n_relevant == 0) | (n_relevant == n_classes)

    ratio = np.bincount(row[rel], weights=rel_ge[rel] / n_ge[rel], minlength=n).astype(float)
    # an unlisted relevant label ties with every unlisted label: n_ge = C, and every relevant label is >= it
    ratio += unlisted_rel * (n_relevant / n_classes)
    lrap = np.where(trivial, 1.0, ratio / np.maximum(n_relevant, 1))

    worst = np.zeros(n, dtype=np.int64)
    at = np.flatnonzero(rel)
    last = at[np.r_[row[at][1:] != row[at][:-1], True]] if len(at) else at  # lowest-scored relevant label
    worst[row[last]] = n_ge[last]
    coverage = np.where(n_relevant == 0, 0, np.where(unlisted_rel > 0, n_classes, worst)).astype(float)

    wrong = np.bincount(row[rel], weights=(n_ge[rel] - rel_ge[rel]).astype(float), minlength=n).astype(float)
    wrong += unlisted_rel * (n_classes - n_relevant)  # below or tied with every irrelevant label
    pairs = n_relevant * (n_classes - n_relevant)
    loss = np.where(trivial, 0.0, wrong / np.maximum(pairs, 1))
    return lrap, coverage, loss


def per_class_ap(listed, relevant):
    """Average precision of every class over the samples (0 for a class with no positive sample): the tie
    groups of its listed scores from the highest down (``ties``), then one group of the samples that do not
    list it, tied at the bottom.

    The entries are put in class order once (a stable radix sort of the codes), then each class's entries
    are grouped by score on their own.
    """
    relevant = np.asarray(relevant, dtype=bool)
    n, n_classes = relevant.shape
    positives = relevant.sum(axis=0).astype(float)
    rel_listed = _relevant_listed(listed, relevant)
    listed_count = _count(listed.code, n_classes)
    if n_classes > FEW_CLASSES or len(listed.code) <= SORTED_ENTRIES:  # the entries of each class, by one sort
        small = np.int16 if n_classes < 2 ** 15 else np.int64
        by_code = np.argsort(listed.code.astype(small), kind="stable")  # a radix sort of 16-bit codes
        bounds = np.concatenate(([0], np.cumsum(listed_count).astype(np.int64)))
        entries = lambda c: by_code[bounds[c]:bounds[c + 1]]  # noqa: E731
    else:  # or by one comparison each: nothing as large as the entries is kept
        entries = lambda c: np.flatnonzero(listed.code == c)  # noqa: E731
    # a class no sample lists: one group, every sample in it
    out = ties.average_precision(positives[:, None], positives, np.full((n_classes, 1), float(n)))
    for c in np.flatnonzero(listed_count).tolist():  # one pass per class that has listed entries
        at = entries(c)
        sizes, hits = ties.tie_groups(np.negative(listed.score[at]), rel_listed[at])
        if listed_count[c] < n:   # the samples that do not list the class: one last group
            sizes, hits = np.append(sizes, n - listed_count[c]), np.append(hits, positives[c] - hits.sum())
        out[c] = ties.average_precision(hits, positives[c], sizes)
    return out


def _count(codes, n, step=1 << 20):
    """np.bincount(codes, minlength=n) as floats, a million at a time (bincount makes its input 64-bit)."""
    total = np.zeros(n, dtype=np.int64)
    for a in range(0, len(codes), step):
        total += np.bincount(codes[a:a + step], minlength=n)[:n]
    return total.astype(float)


def _relevant_listed(listed, relevant, step=1 << 20):
    """relevant[row, code] of every listed entry, a million at a time (the index arrays become 64-bit)."""
    out = np.empty(len(listed.row), dtype=bool)
    for a in range(0, len(out), step):
        out[a:a + step] = relevant[listed.row[a:a + step], listed.code[a:a + step]]
    return out

