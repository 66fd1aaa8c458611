"""Resampling whole units from their per-unit counts: bootstrap intervals and paired randomization tests.

A family's scores are sums over units (documents, sentences, samples,
conversations) passed through a formula: micro F1 is 2 tp / (pred + gold) of
summed counts, a per-sample mean is sum(value) / sum(1), Cohen's kappa comes
from a summed confusion table. A *table* holds those counts, one row per unit
of the board; a *statistic* maps column sums (any leading shape) to the score.
Resampling units is then resampling rows, and a resample's score is the
statistic of its row sums, never a re-run of the metric.

Rows that are equal need not be told apart: drawing n units with replacement
from n is drawing, for each group of equal rows, how many of the n draws fall
in it (a multinomial with the group sizes as weights), which is the same
distribution. Tables usually have few distinct rows (counts are small
integers), so a resample costs one binomial draw per group, whatever n. Groups
of fewer than ``SMALL_GROUP`` units are cheaper drawn unit by unit: each
resample first draws how many of its n draws land in those small groups (a
binomial), then that many units among them; the large groups share the rest
(a multinomial). That split is exact too, and depends on the table alone, so
the same table gives the same numbers.

Real-valued rows (a squared error per unit) are mostly distinct: each
resample then draws every unit, resamples x units draws (10^9 for a million
units and 1000 resamples). Above ``DRAW_BUDGET`` draws, and with at least
``MIN_BULK`` units beyond the tail, the units are split once: the
``TAIL_GROUPS`` groups farthest from the mean (the largest of max_j |x_j -
mean_j| / sd_j) stay exact, and the rest, the bulk, is summed by the central
limit theorem. Each resample still draws how many of its n units fall in the
bulk (a binomial) and draws the tail exactly; the c draws in the bulk sum to
c mean_B + sqrt(c) L z, with mean_B and L L^T = Cov_B the mean and the
covariance of the bulk's rows and z standard normal. Only that sum is
approximate, with an error in its skewness of order 1/sqrt(c) (c is at least
MIN_BULK, about n), and the units that would make it skewed (outliers) are the
exact tail. A resample then costs about TAIL_GROUPS draws whatever n.

>>> table = np.array([[1.0, 1.0]] * 70 + [[0.0, 1.0]] * 30)   # 70 of 100 units right: accuracy 0.7
>>> accuracy = lambda sums: sums[..., 0] / sums[..., 1]
>>> low, high = interval(table, accuracy, resamples=1000, level=0.95, seed=1)
>>> 0.59 < low < 0.63 and 0.77 < high < 0.81
True
"""
import zlib
from dataclasses import dataclass

import numpy as np

from .bytelevel.grouping import group_keys

DEFAULT_RESAMPLES = 1000
DEFAULT_LEVEL = 0.95
DEFAULT_SEED = 20240101
SMALL_GROUP = 8   # groups of fewer units are drawn unit by unit (a binomial draw costs about 8 uniform ones)
# rough costs per value drawn (ns), to choose how the paired test swaps units
_PER_GROUP_DRAW = 120.0
_PER_UNIT_DRAW = 15.0
_CHUNK_VALUES = 1 << 22   # values drawn per chunk of resamples (bounds the memory of one step)
DRAW_BUDGET = 1 << 24     # draws per interval above which the bulk of distinct rows is summed by the CLT
TAIL_GROUPS = 2048        # groups farthest from the mean, drawn exactly even then
MIN_BULK = 10000          # units the bulk needs (the CLT's sum is over about that many draws at the least)
_ROW_BLOCK = 1 << 16      # rows keyed and compared per pass
_MIX = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class Groups:
    """The distinct rows of a table, how many units hold each, and the group of every unit."""

    rows: np.ndarray      # (m, k) float
    counts: np.ndarray    # (m,) int64
    inverse: np.ndarray   # (n,) int64: the group of each unit


def distinct_rows(table):
    """Groups of equal rows, numbered in order of first appearance (NaN equals NaN, -0.0 equals 0.0).

    One 64-bit key per row, grouped by ``grouping.group_keys``; every row is then compared with its group's first row, and on a
    key collision the rows are grouped by their values.

    >>> g = distinct_rows(np.array([[1, 0], [0, 1], [1, 0]]))
    >>> g.rows.tolist(), g.counts.tolist(), g.inverse.tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [2, 1], [0, 1, 0])
    """
    table = np.asarray(table, dtype=float)
    if table.ndim != 2:
        raise ValueError("a table is two-dimensional: units x counts")
    inverse, first = group_keys(row_keys(table), ordered=True)
    if not _rows_equal_first(table, inverse, first):
        inverse, first = _group_values(table)
    rows = table if len(first) == len(table) else table[first]   # every row its own group: the table itself
    return Groups(rows, np.bincount(inverse, minlength=len(first)).astype(np.int64), inverse)


def row_keys(table):
    """A 64-bit key per row of a float table from the bits of its values; equal rows have equal keys."""
    key = np.empty(len(table), dtype=np.uint64)
    for a in range(0, len(table), _ROW_BLOCK):
        bits = _canonical_bits(table[a:a + _ROW_BLOCK])
        h = np.full(len(bits), table.shape[1], dtype=np.uint64)
        for column in bits.T:  # small counts differ in their high bits only: each step folds them down
            h ^= column
            h ^= h >> np.uint64(32)
            h *= _MIX
        h ^= h >> np.uint64(29)
        key[a:a + _ROW_BLOCK] = h
    return key


def _canonical_bits(values):
    """The bits of ``values`` with every NaN one NaN and -0.0 made 0.0, so that equal values have equal bits."""
    values = values + 0.0
    values[np.isnan(values)] = np.nan
    return values.view(np.uint64)


def _rows_equal_first(table, inverse, first):
    for a in range(0, len(table), _ROW_BLOCK):
        block = _canonical_bits(table[a:a + _ROW_BLOCK])
        if not (block == _canonical_bits(table[first[inverse[a:a + _ROW_BLOCK]]])).all():
            return False
    return True


def _group_values(table):
    """``distinct_rows``' groups from the values themselves (after a key collision): a sort of whole rows."""
    _, first, inverse = np.unique(_canonical_bits(table), axis=0, return_index=True, return_inverse=True)
    by_first = np.argsort(first)
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    return rank[np.ravel(inverse)], first[by_first]


def _seeded(seed, salt):
    """A generator of its own for (seed, salt): the same numbers on every platform and Python."""
    salt = zlib.crc32(salt.encode("utf-8")) if isinstance(salt, str) else int(salt)
    return np.random.default_rng(np.random.SeedSequence([int(seed), salt]))


def _chunks(total, per_resample):
    """Sizes of the chunks of ``total`` resamples, each drawing about _CHUNK_VALUES values."""
    size = max(1, _CHUNK_VALUES // max(per_resample, 1))
    return [min(size, total - start) for start in range(0, total, size)]


def as_groups(table):
    """``table``'s groups of equal rows (``distinct_rows``), or ``table`` itself when it is already a Groups."""
    return table if isinstance(table, Groups) else distinct_rows(table)


def bootstrap_sums(table, resamples, rng):
    """(resamples, k) column sums of ``resamples`` bootstrap samples of the rows of ``table`` (or of the units of a
    Groups)."""
    return _bootstrap(as_groups(table), resamples, rng)[0]


def _bootstrap(groups, resamples, rng):
    """(bootstrap_sums, how many units were summed by the central limit theorem: 0 when all were drawn)."""
    n = len(groups.inverse)
    if n == 0:
        return np.zeros((resamples, groups.rows.shape[1])), 0
    exact, bulk = _split(groups, resamples)
    out = []
    for size in _chunks(resamples, len(exact.counts) if bulk is None else TAIL_GROUPS):
        if bulk is None:
            out.append(_exact_sums(exact, np.full(size, n, dtype=np.int64), rng))
            continue
        in_bulk = rng.binomial(n, bulk.units / n, size=size)
        sums = _exact_sums(exact, n - in_bulk, rng)
        sums += _bulk_sums(bulk, in_bulk, rng)
        out.append(sums)
    return np.concatenate(out, axis=0), 0 if bulk is None else bulk.units


def _exact_sums(groups, totals, rng):
    """(len(totals), k) column sums of ``totals[r]`` units drawn with replacement from ``groups``, for each r."""
    size, n = len(totals), int(groups.counts.sum())
    sums = np.zeros((size, groups.rows.shape[1]))
    if n == 0:
        return sums
    small = groups.counts < SMALL_GROUP
    big_rows, big_counts = groups.rows[~small], groups.counts[~small]
    small_rows = groups.rows[small]
    # every unit of a small group, as the index of its group among the small ones
    small_units = np.repeat(np.arange(int(small.sum())), groups.counts[small])
    n_small = len(small_units)
    in_small = rng.binomial(totals, n_small / n) if n_small < n else totals
    if len(big_counts):
        sums += rng.multinomial(totals - in_small, big_counts / big_counts.sum()) @ big_rows
    if n_small:
        drawn = small_units[rng.integers(0, n_small, size=int(in_small.sum()))]
        drawn += np.repeat(np.arange(size, dtype=np.int64) * len(small_rows), in_small)
        sums += np.bincount(drawn, minlength=size * len(small_rows)).reshape(size, -1) @ small_rows
    return sums


@dataclass(frozen=True)
class Bulk:
    """The units summed by the central limit theorem: how many, their rows' mean and a square root of their
    covariance (``z @ root`` has that covariance for a standard normal row z)."""

    units: int
    mean: np.ndarray   # (k,)
    root: np.ndarray   # (k, k)


def _split(groups, resamples):
    """(the groups drawn exactly, the Bulk or None): None while the exact draws fit within DRAW_BUDGET.

    Every pass over the rows goes a block of _ROW_BLOCK rows at a time: no temporary as large as the table.
    """
    small = groups.counts < SMALL_GROUP
    n_small = int(groups.counts[small].sum())
    cost = n_small + int((~small).sum()) * _PER_GROUP_DRAW / _PER_UNIT_DRAW   # in unit draws per resample
    n = int(groups.counts.sum())
    if resamples * cost <= DRAW_BUDGET or len(groups.counts) <= TAIL_GROUPS:
        return groups, None
    rows, weights = groups.rows, groups.counts.astype(float)
    mean = _weighted_sum(rows, weights) / n
    spread = np.sqrt(_weighted_squares(rows, weights, mean) / n)
    spread[spread == 0] = np.inf                       # a constant column sets no group apart
    distance = np.empty(len(rows))
    for a in range(0, len(rows), _ROW_BLOCK):
        distance[a:a + _ROW_BLOCK] = np.max(np.abs(rows[a:a + _ROW_BLOCK] - mean) / spread, axis=1)
    tail = _farthest(distance, TAIL_GROUPS)
    del distance
    units = n - int(groups.counts[tail].sum())
    if units < MIN_BULK:
        return groups, None
    exact = Groups(rows[tail], groups.counts[tail], np.zeros(0, dtype=np.int64))
    weights[tail] = 0.0                                # the bulk: every other group, with its weight
    bulk_mean = _weighted_sum(rows, weights) / units
    return exact, Bulk(units, bulk_mean, _covariance_root(rows, weights / units, bulk_mean))


def _weighted_sum(rows, weights):
    """Σ_i weights_i rows_i, a block of rows at a time.

    The bulk's sums are numpy's own loops (``einsum`` without ``optimize``), not BLAS: a BLAS product orders its
    additions by its thread count, and the bulk's mean and covariance would then differ in their last bits from
    one worker to another."""
    total = np.zeros(rows.shape[1])
    for a in range(0, len(rows), _ROW_BLOCK):
        total += np.einsum("i,ij->j", weights[a:a + _ROW_BLOCK], rows[a:a + _ROW_BLOCK], optimize=False)
    return total


def _weighted_squares(rows, weights, centre):
    """Σ_i weights_i (rows_i - centre)² per column, a block of rows at a time (no BLAS: ``_weighted_sum``)."""
    total = np.zeros(rows.shape[1])
    for a in range(0, len(rows), _ROW_BLOCK):
        total += np.einsum("i,ij->j", weights[a:a + _ROW_BLOCK], np.square(rows[a:a + _ROW_BLOCK] - centre),
                           optimize=False)
    return total


def _farthest(distance, count):
    """Indices (increasing) of the ``count`` largest distances; among equal ones at the cut, the first."""
    cut = np.partition(distance, len(distance) - count)[len(distance) - count]
    above = np.flatnonzero(distance > cut)
    at = np.flatnonzero(distance == cut)[:count - len(above)]
    return np.sort(np.concatenate((above, at)))


def _covariance_root(rows, weights, centre):
    """A (k, k) root R of the weighted covariance C = Σ_i weights_i (rows_i - centre)^T (rows_i - centre), so
    that R^T R = C; from the deviations scaled to at most 1 (no square of a large value overflows), a block of
    rows at a time, without BLAS (``_weighted_sum``). Rows of weight 0 count for nothing, also in the scale."""
    kept = weights > 0
    scale = np.zeros(rows.shape[1])
    for a in range(0, len(rows), _ROW_BLOCK):
        block = np.abs(rows[a:a + _ROW_BLOCK][kept[a:a + _ROW_BLOCK]] - centre)
        if len(block):
            scale = np.maximum(scale, block.max(axis=0))
    scale[scale == 0] = 1.0
    product = np.zeros((rows.shape[1], rows.shape[1]))
    for a in range(0, len(rows), _ROW_BLOCK):
        scaled = (rows[a:a + _ROW_BLOCK] - centre) / scale
        product += np.einsum("ij,ik->jk", scaled * weights[a:a + _ROW_BLOCK, None], scaled, optimize=False)
    values, vectors = np.linalg.eigh(product)
    # an eigenvector's sign is the LAPACK build's choice: each is turned so that its largest entry (the first of
    # equal ones) is positive, so that the same table gives the same draws with any numpy
    largest = np.argmax(np.abs(vectors), axis=0)
    vectors *= np.where(vectors[largest, np.arange(len(largest))] < 0, -1.0, 1.0)
    return (np.sqrt(np.maximum(values, 0.0))[:, None] * vectors.T) * scale


def _bulk_sums(bulk, draws, rng):
    """(len(draws), k) sums of ``draws[r]`` units of the bulk, by the central limit theorem."""
    z = rng.standard_normal((len(draws), len(bulk.mean)))
    spread = np.einsum("rj,jk->rk", z, bulk.root, optimize=False)   # no BLAS (``_weighted_sum``)
    return draws[:, None] * bulk.mean + np.sqrt(draws)[:, None] * spread


def percentile_interval(values, level):
    """The central ``level`` share of ``values``: (low, high) percentiles (linear interpolation).

    >>> [round(v, 9) for v in percentile_interval(np.arange(101.0), 0.9)]
    [5.0, 95.0]
    """
    values = np.asarray(values, dtype=float)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    summed: int   # units summed by the central limit theorem (DRAW_BUDGET); 0 when every unit was drawn


def interval(table, statistic, resamples=DEFAULT_RESAMPLES, level=DEFAULT_LEVEL, seed=DEFAULT_SEED, salt=""):
    """The percentile bootstrap interval (low, high) of ``statistic`` over the units of ``table`` (or of a
    Groups), or None without units."""
    drawn = interval_of(table, statistic, resamples, level, seed, salt)
    return None if drawn is None else (drawn.low, drawn.high)


def interval_of(table, statistic, resamples=DEFAULT_RESAMPLES, level=DEFAULT_LEVEL, seed=DEFAULT_SEED, salt=""):
    """``interval`` with how it was drawn: an Interval, or None without units."""
    if (len(table.inverse) if isinstance(table, Groups) else len(table)) == 0 or resamples <= 0:
        return None
    sums, summed = _bootstrap(as_groups(table), resamples, _seeded(seed, salt))
    return Interval(*percentile_interval(statistic(sums), level), summed)


def paired_se(table_a, table_b, statistic, resamples=200, seed=DEFAULT_SEED, salt=""):
    """Bootstrap standard error of statistic(A) - statistic(B), units resampled together on both sides.

    For a mean over units it is close to std(a - b) / sqrt(n).
    """
    a, b = np.asarray(table_a, dtype=float), np.asarray(table_b, dtype=float)
    if len(a) < 2:
        return 0.0
    sums = bootstrap_sums(np.concatenate([a, b], axis=1), resamples, _seeded(seed, salt))
    k = a.shape[1]
    return float(np.std(statistic(sums[:, :k]) - statistic(sums[:, k:]), ddof=1))


@dataclass(frozen=True)
class PairedTest:
    difference: float     # statistic(A) - statistic(B) on the units as given
    p_value: float        # two-sided, (r + 1) / (R + 1)
    permutations: int
    differing_units: int  # units whose counts differ between A and B


def paired_randomization(table_a, table_b, statistic, permutations=2000, seed=DEFAULT_SEED, salt=""):
    """Approximate randomization test of H0: A and B score alike, swapping the two sides unit by unit.

    Each permutation swaps the counts of A and B on every unit with probability
    1/2; the p-value is the share of permutations whose |statistic(A') -
    statistic(B')| reaches the observed one (ties count as reaching it), with
    the usual +1 on both sides so that it is never 0. Units where A and B have
    the same counts change nothing and are skipped; equal differences are
    swapped per group (a binomial count per group).
    """
    a, b = np.asarray(table_a, dtype=float), np.asarray(table_b, dtype=float)
    sum_a, sum_b = a.sum(axis=0), b.sum(axis=0)
    observed = float(statistic(sum_a) - statistic(sum_b))
    delta = b - a
    delta = delta[(delta != 0).any(axis=1)]
    if not len(delta) or permutations <= 0:
        return PairedTest(observed, 1.0, max(permutations, 0), len(delta))
    rng = _seeded(seed, salt)
    groups = distinct_rows(delta)
    n, m = len(delta), len(groups.counts)
    reached = 0
    tolerance = 1e-12 * max(1.0, abs(observed))
    per_group = m * _PER_GROUP_DRAW <= n * (4.0 + delta.shape[1])
    for size in _chunks(permutations, m if per_group else n):
        if per_group:
            shift = rng.binomial(groups.counts, 0.5, size=(size, m)) @ groups.rows
        else:
            bits = rng.integers(0, 256, size=(size, (n + 7) // 8), dtype=np.uint8)
            shift = np.unpackbits(bits, axis=1, count=n) @ delta
        diff = statistic(sum_a + shift) - statistic(sum_b - shift)
        reached += int((np.abs(diff) >= abs(observed) - tolerance).sum())
    return PairedTest(observed, (reached + 1.0) / (permutations + 1.0), permutations, n)
