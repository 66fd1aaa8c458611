"""Every regression key against scikit-learn and scipy.stats, computed here from the same numbers.

Oracles: ``sklearn.metrics`` (mean_squared_error, root_mean_squared_error, mean_absolute_error,
root_mean_squared_log_error, median_absolute_error, mean_absolute_percentage_error, r2_score) and
``scipy.stats`` (pearsonr, spearmanr, kendalltau, tau-b); sMAPE, which neither has, from its formula in plain
Python (``math.fsum`` of the terms, one unit at a time). The family is called as the engine calls it
(``score`` on a board mask, its keys from the sums of its per-unit tables), on 320 seeded cases: random sizes
and scales, ties, constant predictions, constant gold, one and two units, huge and tiny magnitudes, zeros.
Agreement: |ours - oracle| <= 1e-9 * max(1, |oracle|).

Where the oracle returns NaN (a constant column for a correlation; R² of one unit) the documented value is
checked instead (docs/regression.md): 0 for a correlation; R² 1 for an exact prediction, else 0.
"""
import math
import types
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics

from scorer.tables import UnitIds
from scorer.bytelevel.cells import Cells
from scorer.tasks.base import Contract
from scorer.tasks.regression import FAMILY, RegressionReference

N_CASES = 320
TOLERANCE = 1e-9
KEYS = ("rmse", "mae", "mse", "rmsle", "median_ae", "mape", "smape", "r2", "pearson", "spearman", "kendall")


def config(**options):
    base = {"rmsle": True, "smape_zero": "zero", "value_range": None}
    base.update(options)
    return types.SimpleNamespace(options=base)


def ours(y, p, cfg, mask=None):
    """The family's scores of prediction ``p`` against gold ``y`` on ``mask`` (every unit by default)."""
    units = UnitIds(Cells.from_strings(["u%d" % i for i in range(len(y))]).compact())
    ref = RegressionReference(Contract(units), strata=None, values=np.asarray(y, dtype=float))
    mask = np.ones(len(y), dtype=bool) if mask is None else mask
    return FAMILY.score(ref, np.asarray(p, dtype=float), mask, cfg).scores


def smape_by_formula(y, p, zero):
    terms = []
    for a, b in zip(y.tolist(), p.tolist()):
        scale = abs(a) + abs(b)
        if scale == 0:
            if zero == "zero":
                terms.append(0.0)
            continue
        terms.append(2 * abs(b - a) / scale)
    return math.fsum(terms) / len(terms) if terms else 0.0


def oracle(y, p, smape_zero="zero", rmsle=True):
    """(values, nan_keys): every key from the oracles; the keys the oracle leaves undefined (NaN) listed apart."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "mse": metrics.mean_squared_error(y, p),
            "rmse": metrics.root_mean_squared_error(y, p),
            "mae": metrics.mean_absolute_error(y, p),
            "median_ae": metrics.median_absolute_error(y, p),
            "mape": metrics.mean_absolute_percentage_error(y, p),
            "smape": smape_by_formula(y, p, smape_zero),
            "r2": metrics.r2_score(y, p),
            "pearson": stats.pearsonr(y, p).statistic if len(y) >= 2 else float("nan"),
            "spearman": stats.spearmanr(y, p).statistic,
            "kendall": stats.kendalltau(y, p).statistic,
        }
        if rmsle:
            out["rmsle"] = metrics.root_mean_squared_log_error(y, p)
    undefined = {k for k, v in out.items() if isinstance(v, float) and math.isnan(v) or np.isnan(v)}
    return out, undefined


def documented(key, y, p):
    """Our value where the oracle gives NaN."""
    if key == "r2":
        return 1.0 if np.array_equal(y, p) else 0.0
    return 0.0   # a correlation with a constant column, or of fewer than two units


def agree(mine, theirs, y, p, label):
    values, undefined = theirs
    for key, value in values.items():
        expected = documented(key, y, p) if key in undefined else float(value)
        assert abs(mine[key] - expected) <= TOLERANCE * max(1.0, abs(expected)), (label, key, mine[key], expected)


# -- the cases -------------------------------------------------------------------------------------------
def case(k):
    """(label, gold, prediction) of seeded case ``k``: the kind cycles through the edge cases."""
    rng = np.random.default_rng(1000 + k)
    kind = k % 16
    n = int(rng.integers(3, 400))
    if kind == 0:      # continuous, a wide range of scales
        scale = 10.0 ** rng.uniform(-3, 6)
        y = rng.gamma(2.0, scale, n)
        p = np.abs(y + rng.normal(0, scale, n))
    elif kind == 1:    # integer ratings: many ties on both sides
        y = rng.integers(1, 6, n).astype(float)
        p = np.clip(y + rng.integers(-1, 2, n), 1, 5).astype(float)
    elif kind == 2:    # a constant prediction
        y = rng.exponential(3.0, n)
        p = np.full(n, float(rng.uniform(0, 5)))
    elif kind == 3:    # a constant gold
        y = np.full(n, 2.5)
        p = np.abs(rng.normal(2.5, 1.0, n))
    elif kind == 4:    # one unit
        y, p = rng.uniform(0, 10, 1), rng.uniform(0, 10, 1)
    elif kind == 5:    # two units
        y, p = rng.uniform(0, 10, 2), rng.uniform(0, 10, 2)
    elif kind == 6:    # huge magnitudes, a small spread: centred sums must not lose it
        y = 1e12 + rng.normal(0, 1e3, n)
        p = y + rng.normal(0, 5e2, n)
    elif kind == 7:    # tiny magnitudes
        y = np.abs(rng.normal(1e-9, 3e-10, n))
        p = np.abs(y + rng.normal(0, 1e-10, n))
    elif kind == 8:    # zeros in the gold (MAPE divides by eps) and units where both are 0 (sMAPE's 0/0)
        y = np.where(rng.random(n) < 0.2, 0.0, rng.uniform(0, 4, n))
        p = np.where((y == 0) & (rng.random(n) < 0.5), 0.0, np.abs(y + rng.normal(0, 1, n)))
    elif kind == 9:    # a perfect prediction
        y = rng.uniform(0, 100, n)
        p = y.copy()
    elif kind == 10:   # anti-correlated
        y = rng.uniform(0, 1, n)
        p = 1.0 - y + rng.normal(0, 0.05, n).clip(-0.05, 0.05) + 0.1
    elif kind == 11:   # values rounded to a coarse grid: ties in both, unequal tie groups
        y = np.round(rng.lognormal(0, 1, n), 1)
        p = np.round(np.abs(y + rng.normal(0, 0.5, n)), 0)
    elif kind == 12:   # a large board
        n = int(rng.integers(2000, 6000))
        y = rng.normal(50, 10, n).clip(0)
        p = (y + rng.normal(0, 4, n)).clip(0)
    elif kind == 13:   # huge values on the whole (1e150 is the bound)
        y = rng.uniform(1e100, 1e101, n)
        p = rng.uniform(1e100, 1e101, n)
    elif kind == 14:   # predictions on another scale (x 1000)
        y = rng.uniform(1, 3, n)
        p = y * 1000.0
    else:              # everything tied in the prediction but one unit
        y = rng.uniform(0, 9, n)
        p = np.full(n, 4.0)
        p[int(rng.integers(0, n))] = 5.0
    return "case%d-kind%d-n%d" % (k, kind, len(y)), y.astype(float), p.astype(float)


CASES = [case(k) for k in range(N_CASES)]


@pytest.mark.parametrize("k", range(0, N_CASES, 20), ids=lambda k: "block%d" % (k // 20))
def test_every_key_equals_the_oracles(k):
    for label, y, p in CASES[k:k + 20]:
        agree(ours(y, p, config()), oracle(y, p), y, p, label)


def test_the_cases_cover_the_edge_cases():
    """Not an oracle: that the seeded cases hold each edge case the module docstring names."""
    kinds = {int(label.split("kind")[1].split("-")[0]) for label, _, _ in CASES}
    assert kinds == set(range(16)) and len(CASES) >= 200
    assert any(len(y) == 1 for _, y, _ in CASES) and any(len(y) == 2 for _, y, _ in CASES)
    assert any(np.ptp(p) == 0 and len(p) > 2 for _, _, p in CASES) and any(np.ptp(y) == 0 for _, y, _ in CASES)


@pytest.mark.parametrize("k", range(0, N_CASES, 40))
def test_options_against_the_oracles(k):
    """sMAPE's 0/0 units left out; RMSLE off (negative values allowed then)."""
    for label, y, p in CASES[k:k + 40]:
        agree(ours(y, p, config(smape_zero="skip")), oracle(y, p, smape_zero="skip"), y, p, label)
        shifted_y, shifted_p = y - np.median(y), p - np.median(y)   # negative values
        mine = ours(shifted_y, shifted_p, config(rmsle=False))
        assert "rmsle" not in mine
        agree(mine, oracle(shifted_y, shifted_p, rmsle=False), shifted_y, shifted_p, label + "-negative")


def test_a_board_scores_its_own_units_only():
    """Scoring a mask is scoring those units alone (the oracle sees only them)."""
    for label, y, p in CASES[:60]:
        if len(y) < 4:
            continue
        mask = np.random.default_rng(len(y)).random(len(y)) < 0.4
        if not mask.any():
            continue
        agree(ours(y, p, config(), mask), oracle(y[mask], p[mask]), y[mask], p[mask], label + "-masked")


def test_the_undefined_cases_are_the_documented_ones():
    """The oracle is NaN exactly where docs/regression.md says we write a value of our own."""
    y, p = np.array([1.0, 2.0, 3.0]), np.full(3, 2.0)
    values, undefined = oracle(y, p)
    assert undefined == {"pearson", "spearman", "kendall"}
    mine = ours(y, p, config())
    assert mine["pearson"] == mine["spearman"] == mine["kendall"] == 0.0
    assert mine["r2"] == pytest.approx(values["r2"]) and values["r2"] == pytest.approx(-0.0)
    one = ours(np.array([3.0]), np.array([3.0]), config())
    assert one["r2"] == 1.0 and ours(np.array([3.0]), np.array([4.0]), config())["r2"] == 0.0
    assert math.isnan(oracle(np.array([3.0]), np.array([4.0]))[0]["r2"])


def test_kendall_is_tau_b_on_ties_worked_by_hand():
    # y = 1 1 2 3, p = 1 2 2 3: pairs (6): concordant 4 (1-3, 1-4, 2-4, 3-4 by index... counted below), none
    # discordant, tied in y: 1 (units 1, 2), tied in p: 1 (units 2, 3); tau-b = 4 / sqrt(5 * 5) = 0.8
    y, p = np.array([1.0, 1, 2, 3]), np.array([1.0, 2, 2, 3])
    assert ours(y, p, config())["kendall"] == pytest.approx(0.8, abs=1e-12)
    assert stats.kendalltau(y, p).statistic == pytest.approx(0.8, abs=1e-12)


def test_inversions_against_counting_every_pair():
    from scorer.metrics.regression import inversions

    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 15, 16, 17, 33, 100, 257, 1000, 4097):
        for high in (1, 3, n + 1):
            a = rng.integers(0, high, n)
            expected = sum(int((a[i] > a[i + 1:]).sum()) for i in range(n))
            assert inversions(a) == expected, (n, high)


@pytest.mark.parametrize("values", [[3, -1, 2], [2 ** 62, 0, 1], [1.5, 0.5, 1.2]])
def test_inversions_refuses_what_it_cannot_pack(values):
    """Ranks only: a negative, a huge or a fractional value would be folded into the merge's keys."""
    from scorer.metrics.regression import inversions

    with pytest.raises(ValueError):
        inversions(np.array(values))


# -- Pearson whatever the scale ---------------------------------------------------------------------------------
def _scaled_case(rng):
    """(gold, prediction): each with its own magnitude (an offset of 0 or 1e-300 to 1e140) and spread (1e-6 to 1
    of the offset, or any size at offset 0), correlated or not."""
    n = int(rng.integers(3, 300))
    z = rng.normal(size=n)
    columns = []
    for _ in range(2):
        offset = 0.0 if rng.random() < 0.25 else float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-300, 140))
        spread = abs(offset) * 10.0 ** rng.uniform(-6, 0) if offset else 10.0 ** rng.uniform(-300, 140)
        mix = rng.uniform(-1, 1)
        columns.append(offset + spread * (mix * z + (1 - abs(mix)) * rng.normal(size=n)))
    return columns


def test_pearson_is_scipys_whatever_the_scale_and_magnitude():
    """Gold around 5e7 with predictions around 1 (15 of 1,420 random cases were 0 where scipy gives a value),
    values near 1e-300 (whose squares underflow), and 600 seeded pairs of independent scales."""
    rng = np.random.default_rng(77)
    cases = [(5e7 + rng.normal(0, 0.5, 200), None) for _ in range(3)]
    cases = [(y, 1.0 + 1e-3 * (y - 5e7) + rng.normal(0, 1e-3, len(y))) for y, _ in cases]
    tiny = np.abs(rng.normal(1e-300, 3e-301, 50))
    cases += [(tiny, tiny + rng.normal(0, 1e-301, 50)), (np.array([1.0, 2, 3, 4]) * 1e-300,
                                                         np.array([1.0, 3, 2, 4]) * 1e-300)]
    cases += [tuple(_scaled_case(rng)) for _ in range(600)]
    checked = 0
    for y, p in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # scipy's own value is trusted where it does not warn (near-constant)
            try:
                expected = stats.pearsonr(y, p).statistic
            except (RuntimeWarning, stats.NearConstantInputWarning, stats.ConstantInputWarning):
                continue
        got = ours(y, p, config(rmsle=False))["pearson"]
        assert abs(got - expected) <= TOLERANCE, (got, expected, y[:3], p[:3])
        checked += 1
    assert checked >= 550


def test_the_hand_worked_values_near_1e_minus_300():
    # gold 1, 2, 3, 4 and prediction 1, 3, 2, 4 (x 1e-300): centred -1.5 -0.5 0.5 1.5 and -1.5 0.5 -0.5 1.5,
    # products sum to 2.25 - 0.25 - 0.25 + 2.25 = 4, squares to 5 each: r = 4 / 5
    y, p = np.array([1.0, 2, 3, 4]) * 1e-300, np.array([1.0, 3, 2, 4]) * 1e-300
    assert ours(y, p, config(rmsle=False))["pearson"] == pytest.approx(0.8, abs=1e-12)


def test_the_constant_column_rule_at_its_boundary():
    """docs/regression.md: a column is constant when every value on the board is equal, exactly; then 0. One value
    one ulp away is no constant column: r is then the correlation of the gold with that unit's indicator,
    (y_k - mean) / sqrt((1 - 1/n) * sum (y - mean)^2), worked here with math.fsum."""
    rng = np.random.default_rng(3)
    for c in (1.0, 5e7, 1e-300, -3.25, 1e140):
        y = rng.normal(10, 3, 40)
        p = np.full(40, c)
        assert ours(y, p, config(rmsle=False))["pearson"] == 0.0
        assert ours(p, y, config(rmsle=False))["pearson"] == 0.0   # a constant gold alike
        k = 17
        p[k] = np.nextafter(c, np.inf)
        mean = math.fsum(y) / len(y)
        expected = (y[k] - mean) / math.sqrt((1 - 1 / len(y)) * math.fsum((v - mean) ** 2 for v in y))
        got = ours(y, p, config(rmsle=False))["pearson"]
        assert got != 0.0 and abs(got - expected) <= TOLERANCE, (c, got, expected)
