"""Bootstrap intervals and paired randomization tests over units (scorer.resampling).

- Coverage by simulation: on synthetic tasks whose true score is known (a rate, and a micro F1 whose
  population value follows from the generating rates), the 95% interval covers the truth in 93-97% of
  400 seeded draws.
- The two ways of drawing (per group of equal rows, per unit) and a plain bootstrap written here (a loop
  over resamples drawing unit indices) give the same intervals up to Monte Carlo error.
- The paired test agrees with ranx's Fisher randomization test (an independent implementation, test-only)
  on the same per-unit scores.
"""
import numpy as np
import pytest

from scorer import resampling
from scorer.tasks.bank_comments import FAMILY as BANK

DRAWS = 400


def accuracy(sums):
    return sums[..., 0] / sums[..., 1]


def test_the_95_percent_interval_of_a_rate_covers_it_in_93_to_97_percent_of_draws():
    rng = np.random.default_rng(2024)
    rate, n = 0.7, 400
    covered = 0
    for draw in range(DRAWS):
        right = (rng.random(n) < rate).astype(float)
        low, high = resampling.interval(np.column_stack([right, np.ones(n)]), accuracy, 1000, 0.95, seed=draw)
        covered += low <= rate <= high
    assert 0.93 <= covered / DRAWS <= 0.97, covered


def test_the_95_percent_interval_of_a_micro_f1_covers_it_in_93_to_97_percent_of_draws():
    """Bank comments' entity F1 through the family's own formula, on comments generated with known rates.

    Each comment has 1 or 2 gold entities (half each), finds each with probability p and adds a spurious one
    with probability q: E[tp] = 1.5 p, E[pred] = 1.5 p + q, E[gold] = 1.5, so the F1 of the population
    is 2 E[tp] / (E[pred] + E[gold]) = 3p / (1.5p + q + 1.5) = 6p / (3p + 2q + 3).
    """
    import types

    cfg = types.SimpleNamespace(options={"ner_weight": 0.5})
    p, q, n = 0.7, 0.3, 500
    truth = 6 * p / (3 * p + 2 * q + 3)   # 0.7368...
    rng = np.random.default_rng(11)
    covered = 0
    for draw in range(DRAWS):
        gold = 1 + (rng.random(n) < 0.5)
        tp = rng.binomial(gold, p)
        pred = tp + (rng.random(n) < q)
        table = np.zeros((n, 12))
        table[:, 0], table[:, 1], table[:, 2], table[:, 3] = tp, pred, gold, 1
        f1 = lambda sums: BANK.unit_scores("comments", sums, cfg)["ner_f1"]  # noqa: E731
        low, high = resampling.interval(table, f1, 1000, 0.95, seed=draw)
        covered += low <= truth <= high
    assert 0.93 <= covered / DRAWS <= 0.97, covered


def plain_bootstrap(table, statistic, resamples, level, seed):
    """The textbook percentile bootstrap: draw n unit indices with replacement, resample by resample."""
    rng = np.random.default_rng(seed)
    n = len(table)
    values = [statistic(table[rng.integers(0, n, n)].sum(axis=0)) for _ in range(resamples)]
    return tuple(np.percentile(values, [50 * (1 - level), 50 * (1 + level)]))


@pytest.mark.parametrize("distinct", ["few", "many"])
def test_both_ways_of_drawing_agree_with_a_plain_bootstrap(monkeypatch, distinct):
    rng = np.random.default_rng(5)
    n = 3000
    if distinct == "few":   # small counts: few distinct rows, large groups, drawn per group
        table = np.column_stack([rng.integers(0, 3, n), rng.integers(1, 4, n)]).astype(float)
    else:                   # real-valued per-unit scores: every row distinct, drawn per unit
        table = np.column_stack([rng.random(n), np.ones(n)])
    groups = resampling.distinct_rows(table)
    assert (len(groups.counts) < 20) == (distinct == "few")
    reference = plain_bootstrap(table, accuracy, 4000, 0.9, 1)
    ours = resampling.interval(table, accuracy, 4000, 0.9, seed=1)
    # force the other way of drawing (every group unit by unit, or every group by a multinomial): the same
    # distribution, other random numbers
    monkeypatch.setattr(resampling, "SMALL_GROUP", 10 ** 9 if distinct == "few" else 0)
    other = resampling.interval(table, accuracy, 4000, 0.9, seed=1)
    width = reference[1] - reference[0]
    for got in (ours, other):
        assert abs(got[0] - reference[0]) < 0.05 * width and abs(got[1] - reference[1]) < 0.05 * width, (got,
                                                                                                           reference)


def test_intervals_are_seeded_and_depend_only_on_the_table():
    table = np.column_stack([np.arange(50) % 3, np.ones(50)]).astype(float)
    a = resampling.interval(table, accuracy, 500, 0.95, seed=9)
    shuffled = table[np.random.default_rng(0).permutation(50)]
    assert resampling.interval(table, accuracy, 500, 0.95, seed=9) == a
    assert resampling.interval(shuffled, accuracy, 500, 0.95, seed=9) == a   # equal rows are grouped
    assert resampling.interval(table, accuracy, 500, 0.95, seed=10) != a
    assert resampling.interval(table[:0], accuracy, 500, 0.95) is None


def test_a_table_and_its_groups_draw_the_same_numbers():
    table = np.column_stack([np.arange(60) % 4, np.ones(60)]).astype(float)
    groups = resampling.Groups(np.array([[0.0, 1], [1, 1], [2, 1], [3, 1]]), np.array([15, 15, 15, 15]),
                               np.arange(60) % 4)
    assert resampling.interval(groups, accuracy, 300, 0.9, seed=3) == resampling.interval(table, accuracy, 300, 0.9,
                                                                                          seed=3)
    assert resampling.interval(resampling.Groups(np.zeros((0, 2)), np.zeros(0, int), np.zeros(0, int)), accuracy,
                               300) is None


def test_distinct_rows_by_hand():
    g = resampling.distinct_rows(np.array([[0.5, 1], [0.5, 1], [0.25, 1], [0.5, 2]]))
    assert g.rows.tolist() == [[0.5, 1], [0.25, 1], [0.5, 2]] and g.counts.tolist() == [2, 1, 1]
    assert g.inverse.tolist() == [0, 0, 1, 2]


def test_paired_randomization_agrees_with_ranx_fisher_test():
    from ranx.statistical_tests import fisher_randomization_test

    rng = np.random.default_rng(13)
    n = 600
    cases = []
    for shift in (0.0, 0.03, 0.06, 0.1):        # per-unit scores in [0, 1], B a little better than A
        a = rng.random(n)
        b = np.clip(a + rng.normal(shift, 0.35, n), 0, 1)
        cases.append((a, b))
    for rate_a, rate_b in ((0.70, 0.72), (0.70, 0.75)):   # right/wrong per unit: few distinct differences
        cases.append(((rng.random(n) < rate_a).astype(float), (rng.random(n) < rate_b).astype(float)))
    for a, b in cases:
        theirs, _ = fisher_randomization_test(a, b, 20000, 0.05, 42)
        ours = resampling.paired_randomization(np.column_stack([a, np.ones(n)]), np.column_stack([b, np.ones(n)]),
                                               accuracy, 20000, seed=42)
        assert ours.difference == pytest.approx(a.mean() - b.mean(), abs=1e-12)
        # both are Monte Carlo estimates of one p-value (ranx's draws differ from run to run even with its
        # seed): allow five standard errors of the difference of two independent 20000-draw estimates
        p = (ours.p_value + theirs) / 2
        assert abs(ours.p_value - theirs) < 5 * np.sqrt(2 * p * (1 - p) / 20000) + 1e-3, (ours.p_value, theirs)


def test_paired_randomization_of_identical_tables_is_not_significant():
    table = np.column_stack([np.arange(10) % 2, np.ones(10)]).astype(float)
    test = resampling.paired_randomization(table, table, accuracy, 1000)
    assert test.p_value == 1.0 and test.differing_units == 0 and test.difference == 0.0


def test_paired_randomization_by_enumeration():
    """Three units differ; every one of the 2^3 swap patterns is equally likely: p is exact up to MC error."""
    a = np.array([[1, 1], [1, 1], [1, 1], [0, 1], [0, 1]], float)
    b = np.array([[0, 1], [0, 1], [1, 1], [1, 1], [0, 1]], float)
    # differences b - a on units 0, 1, 3: -1, -1, +1; observed |mean diff| = 1/5. Swaps give a - b sums of
    # 1 (no swap), all eight patterns: |d| in {1, 1, 1, 3, 1, 1, 1, 3}/5 -> every pattern reaches 1/5: p = 1
    assert resampling.paired_randomization(a, b, accuracy, 4000).p_value == 1.0
    c = np.array([[1, 1]] * 5, float)
    d = np.array([[0, 1]] * 5, float)
    # five units differ by the same amount: |d| reaches 5/5 only when all five swap or none: p = 2/32
    p = resampling.paired_randomization(c, d, accuracy, 20000).p_value
    assert abs(p - 2 / 32) < 0.006, p


def test_a_p_value_counts_the_observed_labelling_among_the_permutations():
    """p = (r + 1) / (R + 1) (Noreen 1989; Riezler and Maxwell 2005): the observed labelling is one of the
    R + 1, so p is never 0. Thirty units differ, each by one right answer: a permutation reaches the observed
    difference only when all thirty swap or none (probability 2^-29), so no permutation reaches it, r = 0."""
    a = np.array([[1, 1]] * 30, float)
    b = np.array([[0, 1]] * 30, float)
    for permutations in (1, 10, 999):
        test = resampling.paired_randomization(a, b, accuracy, permutations, seed=5)
        assert test.p_value == 1.0 / (permutations + 1), permutations
        assert test.permutations == permutations and test.differing_units == 30


def test_paired_standard_error_of_a_mean_is_std_over_root_n():
    rng = np.random.default_rng(1)
    n = 2000
    a, b = rng.random(n), rng.random(n)
    se = resampling.paired_se(np.column_stack([a, np.ones(n)]), np.column_stack([b, np.ones(n)]), accuracy, 2000)
    assert se == pytest.approx(np.std(a - b) / np.sqrt(n), rel=0.08)


def test_small_and_large_groups_together(monkeypatch):
    """A table with both kinds of group: the split draw agrees with drawing everything one way."""
    rng = np.random.default_rng(8)
    n = 4000
    table = np.column_stack([np.where(rng.random(n) < 0.5, rng.integers(0, 2, n), rng.random(n)),
                             np.ones(n)])
    groups = resampling.distinct_rows(table)
    small = groups.counts < resampling.SMALL_GROUP
    assert small.any() and (~small).any()
    reference = plain_bootstrap(table, accuracy, 4000, 0.9, 2)
    mixed = resampling.interval(table, accuracy, 4000, 0.9, seed=2)
    monkeypatch.setattr(resampling, "SMALL_GROUP", 0)
    grouped = resampling.interval(table, accuracy, 4000, 0.9, seed=2)
    width = reference[1] - reference[0]
    for got in (mixed, grouped):
        assert abs(got[0] - reference[0]) < 0.05 * width and abs(got[1] - reference[1]) < 0.05 * width
    sums = resampling.bootstrap_sums(table, 50, np.random.default_rng(0))
    assert (sums[:, 1] == n).all()   # every resample draws exactly n units


def rmse(sums):
    return np.sqrt(sums[..., 1] / sums[..., 0])


def exact_interval(monkeypatch, table, statistic, resamples, level, seed):
    with monkeypatch.context() as patch:
        patch.setattr(resampling, "DRAW_BUDGET", float("inf"))
        return resampling.interval(table, statistic, resamples, level, seed=seed)


def test_distinct_real_rows_beyond_the_budget_give_the_exact_bootstraps_interval(monkeypatch):
    """Heavy-tailed squared errors, every row distinct: the bulk summed by the CLT and the farthest groups drawn
    exactly give the interval of drawing every unit (and of the textbook loop), up to Monte Carlo error."""
    rng = np.random.default_rng(11)
    n = 40000
    table = np.column_stack([np.ones(n), rng.lognormal(0.0, 1.0, n) ** 2])
    assert 2000 * n > resampling.DRAW_BUDGET and resampling._split(resampling.distinct_rows(table), 2000)[1]
    reference = plain_bootstrap(table, rmse, 2000, 0.95, 4)
    exact = exact_interval(monkeypatch, table, rmse, 2000, 0.95, 4)
    ours = resampling.interval(table, rmse, 2000, 0.95, seed=4)
    width = reference[1] - reference[0]
    for got in (exact, ours):
        assert abs(got[0] - reference[0]) < 0.08 * width and abs(got[1] - reference[1]) < 0.08 * width, (
            got, reference)


def test_an_outlier_is_drawn_exactly_beyond_the_budget(monkeypatch):
    """One unit of 3000 among 30,000 values in [0, 1): the resamples that miss it (about 37%) set the interval's
    low end near the others' mean, 0.5; a normal sum of every unit would put it near 0.4."""
    rng = np.random.default_rng(12)
    n = 30000
    values = rng.random(n)
    values[777] = 3000.0
    table = np.column_stack([values, np.ones(n)])
    exact = exact_interval(monkeypatch, table, accuracy, 2000, 0.95, 5)
    ours = resampling.interval(table, accuracy, 2000, 0.95, seed=5)
    width = exact[1] - exact[0]
    assert 0.49 < exact[0] < 0.51 and 0.78 < exact[1] < 0.82   # the outlier's count is about Poisson(1)
    assert abs(ours[0] - exact[0]) < 0.05 * width and abs(ours[1] - exact[1]) < 0.05 * width, (ours, exact)


def test_the_bulk_covariance_keeps_the_columns_correlation(monkeypatch):
    """Pearson's r from six sums, every row distinct: its interval needs the columns' covariance."""
    from scorer.metrics.regression import pearson_from_sums
    rng = np.random.default_rng(13)
    n = 30000
    u = rng.normal(size=n)
    v = 0.6 * u + 0.8 * rng.normal(size=n)
    table = np.column_stack([np.ones(n), u, u * u, v, v * v, u * v])
    statistic = lambda s: pearson_from_sums(s[..., 0], s[..., 1], s[..., 2], s[..., 3], s[..., 4], s[..., 5])  # noqa
    exact = exact_interval(monkeypatch, table, statistic, 2000, 0.95, 6)
    ours = resampling.interval(table, statistic, 2000, 0.95, seed=6)
    width = exact[1] - exact[0]
    assert abs(ours[0] - exact[0]) < 0.06 * width and abs(ours[1] - exact[1]) < 0.06 * width, (ours, exact)
    sums = resampling.bootstrap_sums(table, 50, np.random.default_rng(0))
    assert (sums[:, 0] == n).all()   # the bulk's count column is its draws exactly


def test_the_farthest_groups_are_chosen_by_value_then_by_position():
    assert resampling._farthest(np.array([1.0, 5, 3, 5, 0, 3]), 3).tolist() == [1, 2, 3]
    assert resampling._farthest(np.array([1.0, 3, 3, 3]), 2).tolist() == [1, 2]


def test_the_covariance_root_squares_to_the_covariance_whatever_signs_lapack_gives(monkeypatch):
    rng = np.random.default_rng(14)
    rows = np.column_stack([np.ones(500), rng.normal(size=500), rng.lognormal(size=500) * 1e6])
    weights = rng.integers(1, 4, 500).astype(float)
    weights /= weights.sum()
    centre = weights @ rows
    root = resampling._covariance_root(rows, weights, centre)
    deviations = rows - centre
    np.testing.assert_allclose(root.T @ root, (deviations * weights[:, None]).T @ deviations, rtol=1e-9, atol=1e-6)
    eigh = np.linalg.eigh
    monkeypatch.setattr(np.linalg, "eigh", lambda m: (eigh(m)[0], -eigh(m)[1]))   # every eigenvector turned
    np.testing.assert_array_equal(resampling._covariance_root(rows, weights, centre), root)


THREADS_SCRIPT = """
import sys
import numpy as np
from scorer import resampling
rng = np.random.default_rng(11)
x = rng.normal(size=200000) * 3.7 + 1e3
table = np.c_[x, x * x, np.ones(len(x))]
drawn = resampling.interval_of(table, lambda s: s[..., 1] / s[..., 2] - (s[..., 0] / s[..., 2]) ** 2, 1000, 0.95, 3)
assert drawn.summed > 0
print(drawn.low.hex(), drawn.high.hex())
"""


def test_the_bulk_gives_the_same_bits_with_any_number_of_blas_threads():
    """A variance from large sums (the statistic cancels them): BLAS would order the bulk's sums by its thread
    count and move the interval's last digits from one worker to another."""
    import os
    import subprocess
    import sys

    from helpers import PROGRAM

    outputs = set()
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads, OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads,
                   PYTHONPATH=str(PROGRAM))
        proc = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True, env=env,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1, outputs
