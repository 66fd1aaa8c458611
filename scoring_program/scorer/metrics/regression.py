"""Regression kernels: errors per unit, correlations from centred sums, ranks and Kendall's tau-b.

Every function takes float arrays (gold ``y``, prediction ``p``) or sums of them and is vectorised: no loop
over units. Where a formula divides by zero the value is defined here, never NaN:

- a correlation whose column is constant is 0.0, where scipy.stats returns NaN. The family puts each column
  on its own scale first, a constant one exactly to 0 (``tasks.regression.standard_scale``); from sums, a
  spread below what rounding can tell from zero also counts as none (a resample that drew equal values
  only);
- R² with a constant gold is 1.0 for a perfect prediction and 0.0 otherwise (scikit-learn's ``r2_score``,
  ``force_finite=True``), also for a single unit (where scikit-learn returns NaN).

References: scikit-learn ``sklearn.metrics`` (``mean_squared_error``, ``r2_score``,
``mean_absolute_percentage_error``, ...); scipy.stats ``pearsonr``, ``spearmanr``, ``kendalltau`` (tau-b);
W. R. Knight, "A computer method for calculating Kendall's tau with ungrouped data", JASA 61 (1966).

>>> y, p = np.array([3.0, -0.5, 2.0, 7.0]), np.array([2.5, 0.0, 2.0, 8.0])
>>> round(float(np.mean(percentage_errors(y, p))), 4)          # scikit-learn's MAPE example
0.3274
>>> round(kendall_of(Ranking(np.array([1.0, 2, 3, 4])), Ranking(np.array([1.0, 3, 2, 4]))), 6)   # C 5, D 1
0.666667
"""
import numpy as np

from .ties import run_starts

EPSILON = np.finfo(np.float64).eps   # MAPE's floor under |gold| (scikit-learn's)
# a centred sum of squares at most this share of its raw sum of squares is rounding, not spread: the column is
# constant (the rounding of the two sums is about log2(n) * eps of them; 1e-13 is some 450 eps). A column on its
# own scale (mean 0, values in [-1, 1]) keeps its whole spread, so this decides only for sums of a sample of units
# that drew one value, which its own scale did not centre
CONSTANT_SHARE = 1e-13
BLOCK = 16          # Kendall: inversions inside blocks of this many are counted by direct comparison


def percentage_errors(y, p):
    """|p - y| / max(|y|, eps): each unit's term of MAPE (scikit-learn's floor, so a zero gold gives a huge term).

    >>> percentage_errors(np.array([2.0, 0.0]), np.array([3.0, 0.0])).tolist()
    [0.5, 0.0]
    """
    return np.abs(p - y) / np.maximum(np.abs(y), EPSILON)


def symmetric_errors(y, p):
    """(2|p - y| / (|y| + |p|), whether defined): each unit's term of sMAPE, 0.0 where gold and prediction
    are both 0 (0/0; the caller decides whether such a unit counts).

    >>> terms, defined = symmetric_errors(np.array([1.0, 0.0, 0.0]), np.array([3.0, 0.0, 2.0]))
    >>> terms.tolist(), defined.tolist()
    ([1.0, 0.0, 2.0], [True, False, True])
    """
    scale = np.abs(y) + np.abs(p)
    defined = scale > 0
    terms = np.divide(2.0 * np.abs(p - y), scale, out=np.zeros(len(y)), where=defined)
    return terms, defined


def log_errors(y, p):
    """(log(1 + p) - log(1 + y))²: each unit's term of MSLE (values >= 0: the caller refuses negative ones).

    >>> log_errors(np.array([0.0]), np.array([np.e - 1])).round(12).tolist()
    [1.0]
    """
    d = np.log1p(p) - np.log1p(y)
    return d * d


def centred_spread(n, s, ss):
    """n times the variance of a column from its count, sum and sum of squares (the column shifted so that its
    mean is near 0, so the subtraction loses nothing); 0.0 where the rest is rounding (a constant column).

    >>> float(centred_spread(3.0, 0.0, 2.0)), float(centred_spread(2.0, 2.0, 2.0))
    (2.0, 0.0)
    """
    n, s, ss = (np.asarray(v, dtype=float) for v in (n, s, ss))
    spread = ss - np.divide(s * s, n, out=np.zeros(np.broadcast(s, n).shape), where=n > 0)
    return np.where(spread > CONSTANT_SHARE * ss, spread, 0.0)


def pearson_from_sums(n, su, suu, sv, svv, suv):
    """Pearson's r of two columns u, v from their count and sums (shifted columns: see ``centred_spread``):
    r = Suv / sqrt(Suu Svv) with S the centred sums; 0.0 where a column is constant; within [-1, 1].

    >>> u, v = np.array([-1.0, 0, 1]), np.array([-2.0, 0, 1])
    >>> round(float(pearson_from_sums(3, u.sum(), u @ u, v.sum(), v @ v, u @ v)), 9)   # scipy: 0.981980506
    0.981980506
    """
    n, su, sv, suv = (np.asarray(v, dtype=float) for v in (n, su, sv, suv))
    sxx, syy = centred_spread(n, su, suu), centred_spread(n, sv, svv)
    sxy = suv - np.divide(su * sv, n, out=np.zeros(np.broadcast(su, n).shape), where=n > 0)
    scale = np.sqrt(sxx) * np.sqrt(syy)
    r = np.divide(sxy, scale, out=np.zeros(np.broadcast(sxy, scale).shape), where=scale > 0)
    return np.clip(r, -1.0, 1.0)


def r2_from_sums(n, su, suu, see):
    """R² = 1 - Σe² / Σ(y - ȳ)² from the count, the sums of the shifted gold u and u², and Σe²; a constant gold
    gives 1.0 when Σe² = 0 and 0.0 otherwise (scikit-learn's ``force_finite``). Errors so large beside the
    gold's spread that the ratio overflows (errors 1e140 against a spread of 1e-160) give the most negative
    double, -1.8e308, not -inf (a score file holds numbers only).

    >>> float(r2_from_sums(3, 0.0, 2.0, 1.0)), float(r2_from_sums(2, 2.0, 2.0, 0.0)), float(r2_from_sums(2, 2.0, 2.0, 1.0))
    (0.5, 1.0, 0.0)
    >>> float(r2_from_sums(3, 0.0, 2e-320, 1e280)) == -np.finfo(float).max
    True
    """
    spread = centred_spread(n, su, suu)
    see = np.asarray(see, dtype=float)
    with np.errstate(over="ignore"):
        r2 = 1.0 - np.divide(see, spread, out=np.ones(np.broadcast(see, spread).shape), where=spread > 0)
    r2 = np.maximum(r2, -np.finfo(float).max)
    return np.where(see == 0, 1.0, np.where(spread > 0, r2, 0.0))


class Ranking:
    """One column's stable sort, made once and read by every rank statistic, the tie counts and the decile table.

    >>> r = Ranking(np.array([10.0, 20, 10, 5]))
    >>> r.average().tolist(), r.dense().tolist(), r.tied_pairs(), r.tied_units()
    ([2.5, 4.0, 2.5, 1.0], [1, 2, 1, 0], 1, 2)
    """

    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)
        n = len(self.values)
        self.order = np.argsort(self.values, kind="stable")
        ordered = self.values[self.order]
        self.new = run_starts(ordered)           # where each run of equal values starts, in sorted order
        starts = np.flatnonzero(self.new)
        self.starts = starts.astype(np.int32) if n < 2 ** 31 else starts   # kept while the column is: half the bytes

    def sizes(self):
        return np.diff(np.append(self.starts, len(self.values)))

    def average(self):
        """Ranks 1..n, ties given the mean of their ranks (scipy's ``rankdata(method="average")``)."""
        ends = np.append(self.starts[1:], len(self.values))
        mean_rank = (self.starts + ends + 1) / 2.0     # the ranks of a tie group run from start + 1 to end
        ranks = np.empty(len(self.values))
        ranks[self.order] = np.repeat(mean_rank, ends - self.starts)
        return ranks

    def dense(self):
        """0 for the smallest value, 1 for the next distinct one, ... (32-bit below 2**31 values)."""
        dtype = np.int32 if len(self.values) < 2 ** 31 else np.int64
        ranks = np.empty(len(self.values), dtype=dtype)
        ranks[self.order] = np.cumsum(self.new, dtype=dtype) - 1
        return ranks

    def first(self):
        """Each unit's rank (0-based) of the first unit of its tie group in sorted order."""
        first = np.empty(len(self.values), dtype=np.int64)
        first[self.order] = np.repeat(self.starts, self.sizes())
        return first

    def tied_pairs(self):
        return _tied_pairs(self.new)

    def tied_units(self):
        """Units whose value another unit also has."""
        sizes = self.sizes()
        return int(sizes[sizes > 1].sum())


def spearman_of(ry, rp):
    """Spearman's rho of two columns' Rankings: Pearson's r of the average ranks (scipy's ``spearmanr``); 0.0
    for a constant column.

    >>> round(spearman_of(Ranking(np.array([1.0, 2, 3, 4])), Ranking(np.array([10.0, 30, 20, 40]))), 12)
    0.8
    """
    n = len(ry.values)
    mid = (n + 1) / 2.0                       # the exact mean of average ranks
    u, v = ry.average() - mid, rp.average() - mid
    return float(pearson_from_sums(n, u.sum(), u @ u, v.sum(), v @ v, u @ v))


def kendall_of(ry, rp):
    """Kendall's tau-b of two columns' Rankings (scipy's ``kendalltau``, variant b): (C - D) / sqrt((T - Ty)(T -
    Tp)) with C and D the concordant and discordant pairs, T = n(n-1)/2 and Ty, Tp the pairs tied in y, in p;
    0.0 when every pair is tied in one of them (a constant column, or fewer than two units). O(n log n): the
    discordant pairs are the inversions of p's ranks once the units are sorted by (y, p) (Knight's method).

    >>> round(kendall_of(Ranking(np.array([1.0, 1, 2, 3])), Ranking(np.array([1.0, 2, 2, 3]))), 12)   # 4 / sqrt(5 * 5)
    0.8
    """
    n = len(ry.values)
    total = n * (n - 1) // 2
    y_tied, p_tied = ry.tied_pairs(), rp.tied_pairs()
    if y_tied == total or p_tied == total:
        return 0.0
    p_rank = rp.dense()
    if len(ry.starts) == n:      # no tie in y: its order is the (y, p) order
        ranks = p_rank[ry.order]
        both_tied = 0
    else:                        # y's order, each run of equal y put in p's order (it is sorted but for those runs)
        key = ry.dense().astype(np.int64)
        key *= int(p_rank.max()) + 1
        key += p_rank
        key = key[ry.order]
        refine = np.argsort(key, kind="stable")
        key = key[refine]
        both_tied = _tied_pairs(run_starts(key))
        del key
        ranks = p_rank[ry.order[refine]]
        del refine
    del p_rank
    discordant = inversions(ranks)
    difference = total - y_tied - p_tied + both_tied - 2 * discordant   # C - D
    tau = difference / np.sqrt(total - y_tied) / np.sqrt(total - p_tied)
    return float(min(1.0, max(-1.0, tau)))


def _tied_pairs(new):
    """Pairs within runs of equal values, given where each run starts (``new``, sorted order)."""
    if not len(new):
        return 0
    sizes = np.diff(np.append(np.flatnonzero(new), len(new))).astype(np.int64)
    return int((sizes * (sizes - 1) // 2).sum())


def inversions(a):
    """Pairs i < j with a[i] > a[j] (non-negative integers), by merging sorted runs of doubling width.

    Blocks of ``BLOCK`` values are compared directly; then at each width w, every block of 2w holds two sorted
    halves (the last block may be short): one stable sort of (block, value) keys merges them all (numpy's
    stable sort merges sorted runs in linear time), and a right-half value passes the left-half values not yet
    placed before it. Values and positions are 32-bit where they fit: a level holds about 30 bytes a value.

    >>> inversions(np.array([3, 1, 2, 2, 0]))
    7
    """
    a = np.asarray(a)
    n = len(a)
    if n < 2:
        return 0
    if a.dtype.kind not in "iu" or int(a.min()) < 0 or int(a.max()) >= 2 ** 62:  # they are packed into keys
        raise ValueError("inversions counts non-negative integers below 2**62 (ranks), not %s" % a.dtype)
    size = -(-n // BLOCK) * BLOCK
    top = int(a.max()) + 1
    small = np.int32 if max(top, size) < 2 ** 31 else np.int64
    seq = np.full(size, top, dtype=small)   # padding above every value, after them all: no inversion
    seq[:n] = a
    blocks = seq.reshape(-1, BLOCK)
    count = 0
    for d in range(1, BLOCK):
        count += int(np.count_nonzero(blocks[:, :-d] > blocks[:, d:]))
    seq = np.sort(blocks, axis=1).reshape(-1)
    del blocks
    shift = np.int64(top.bit_length())
    position = np.arange(size, dtype=small)
    key = np.empty(size, dtype=np.int64)                 # one buffer for every level's keys, then its temporaries
    width = BLOCK
    while width < size:
        bits = width.bit_length()                        # block = position >> bits = position // (2 * width)
        np.right_shift(position, bits, out=key)
        key <<= shift
        key |= seq
        order = np.argsort(key, kind="stable")
        np.bitwise_and(order, width, out=key)
        right = key != 0                                 # from the right half of its block
        placed = np.cumsum(~right, dtype=small)           # left values placed so far, counted from the start
        # a right value passes the left values of its block not placed before it (its left half is full)
        count += int((width - placed[right]).sum(dtype=np.int64)
                     + ((position[right] >> bits).astype(np.int64) * width).sum())
        del placed, right
        seq = seq[order]
        del order
        width *= 2
    return count


