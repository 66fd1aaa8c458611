"""The regression report against independent computations: the residual table by gold decile (groups made
here with scipy's ranks, means with pandas), the scatter of prediction against gold (one dot per unit on a
small board; on a large one a grid whose counts equal numpy's 2-D histogram), and the page's SVG."""
import re
import types

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from scorer import report
from scorer.bytelevel.cells import Cells
from scorer.tables import UnitIds
from scorer.tasks.base import Contract
from scorer.tasks.regression import FAMILY, GRID, POINTS_MAX, RegressionReference

from helpers import make_input, run_score

CFG = types.SimpleNamespace(options={"rmsle": False, "smape_zero": "zero", "value_range": None}, language="en")


def sections(y, p):
    units = UnitIds(Cells.from_strings(["u%d" % i for i in range(len(y))]).compact())
    ref = RegressionReference(Contract(units), strata=None, values=np.asarray(y, dtype=float))
    result = FAMILY.score(ref, np.asarray(p, dtype=float), np.ones(len(y), dtype=bool), CFG)
    return result.report_sections()


def blocks(y, p, kind):
    return [b for s in sections(y, p) for b in s.blocks if isinstance(b, kind)]


def decile_table(y, p):
    """The documented rule: units sorted by gold, group = floor((rank - 1) * 10 / n) with the lowest rank of a
    tie (equal values in one group); per group the gold range, count, means, MAE and RMSE."""
    n = len(y)
    group = ((stats.rankdata(y, method="min") - 1) * 10 // n).astype(int)
    frame = pd.DataFrame({"g": group, "y": y, "p": p, "e": p - y})
    frame["ae"], frame["se"] = frame["e"].abs(), frame["e"] ** 2
    out = frame.groupby("g").agg(low=("y", "min"), high=("y", "max"), n=("y", "size"), gold=("y", "mean"),
                                 pred=("p", "mean"), err=("e", "mean"), mae=("ae", "mean"), mse=("se", "mean"))
    out["rmse"] = np.sqrt(out["mse"])
    return out


@pytest.mark.parametrize("seed, n, ties", [(1, 37, False), (2, 1000, False), (3, 250, True), (4, 9, True),
                                           (5, 3, False)])
def test_the_decile_table_is_the_documented_grouping(seed, n, ties):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 6, n).astype(float) if ties else rng.normal(50, 20, n)
    p = y + rng.normal(0, 5, n)
    [section] = [s for s in sections(y, p) if any(isinstance(b, report.Table) and len(b.headers) == 8
                                                  for b in s.blocks)]
    [table] = [b for b in section.blocks if isinstance(b, report.Table)]
    expected = decile_table(y, p)
    assert len(table.rows) == len(expected)
    # the groups shown are numbered 1, 2, ... as listed, and the caption says how many there are and why
    assert [row[0] for row in table.rows] == ["%d" % (k + 1) for k in range(len(expected))]
    caption = table.caption.text("en")
    if len(expected) == 10:
        assert "cut into 10 groups of about equal size" in caption, caption
    else:
        assert ("the %d units share %d distinct gold values, so the tenths make %d groups"
                % (n, len(set(y.tolist())), len(expected))) in caption, caption
    for row, (g, want) in zip(table.rows, expected.iterrows()):
        assert row[1] == "%s / %s" % ("%.6g" % want["low"], "%.6g" % want["high"])
        assert row[2] == want["n"]
        for got, key in zip(row[3:], ("gold", "pred", "err", "mae", "rmse")):
            assert got == pytest.approx(want[key], rel=1e-12, abs=1e-12), (g, key)


def test_a_small_board_draws_each_unit_and_a_large_one_counts_them_in_a_grid():
    rng = np.random.default_rng(7)
    y = rng.uniform(0, 100, POINTS_MAX)
    p = y + rng.normal(0, 10, POINTS_MAX)
    [small] = blocks(y, p, report.Scatter)
    assert small.grid is None and len(small.points) == POINTS_MAX
    # the square spans the gold values (0.2 to 99.9 here) stretched to round ticks: by hand, steps of 50
    assert 0 < y.min() < 1 and 99 < y.max() < 100
    low, high = 0.0, 100.0
    assert small.low == low and small.high == high
    assert [x for x, _ in small.points] == pytest.approx(y.tolist())
    assert [v for _, v in small.points] == pytest.approx(np.clip(p, low, high).tolist())   # the edge holds the rest
    n = POINTS_MAX + 1
    y = rng.uniform(0, 100, n)
    p = y + rng.normal(0, 10, n)
    [large] = blocks(y, p, report.Scatter)
    assert large.points in ((), []) and len(large.grid) == GRID and (large.low, large.high) == (0.0, 100.0)
    edges = np.linspace(0.0, 100.0, GRID + 1)
    counts, _, _ = np.histogram2d(np.clip(p, 0.0, 100.0), y, bins=[edges, edges])
    assert np.array_equal(np.array(large.grid), counts.astype(int))   # row i: prediction bin i, from the bottom
    outside = int(((p < 0.0) | (p > 100.0)).sum())
    assert outside and ("%d prediction(s)" % outside) in str(large.caption.text("en"))


def test_a_constant_gold_gets_a_window_around_its_value():
    [block] = blocks(np.full(4, 5.0), np.array([4.0, 5.0, 6.0, 5.5]), report.Scatter)
    assert block.low < 4.0 and block.high > 6.0


def test_the_page_holds_the_scatter_as_inline_svg(tmp_path):
    gold = "id,value\n" + "".join("u%d,%d\n" % (i, i % 50) for i in range(2000))
    sub = "id,value\n" + "".join("u%d,%d\n" % (i, (i % 50) + 1) for i in range(2000))
    inp = make_input(tmp_path, {"config.yaml": "task: regression\nboard: all\n", "gold.csv": gold},
                     {"prediction.csv": sub})
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "output" / "detailed_results.html").read_text(encoding="utf-8")
    start = page.index("Prediction (up) against gold (across)")
    svg = page[page.rindex("<svg", 0, start):page.index("</svg>", start)]
    drawn = re.sub(r"<defs>.*?</defs>", "", svg)          # the fill patterns every chart defines
    assert "<circle" not in drawn and 1 < drawn.count("<rect") <= GRID * GRID + 1   # cells, not 2,000 dots
    assert "2000 units counted in a 24 x 24 grid" in page


@pytest.mark.parametrize("class_counts", [True, False])
def test_the_breakdowns_by_gold_value_follow_feedback_class_counts(tmp_path, class_counts):
    """They tell the gold's distribution: hidden on board A with ``feedback: {class_counts: false}``."""
    gold = "id,value\n" + "".join("u%d,%d\n" % (i, i % 7) for i in range(40))
    boards = "id,board\n" + "".join("u%d,%s\n" % (i, "A" if i % 2 else "B") for i in range(40))
    sub = "id,value\n" + "".join("u%d,%d\n" % (i, (i % 7) + 1) for i in range(40))
    config = ("task: regression\nboard: A\nboards: {file: boards.csv}\nfeedback: {class_counts: %s}\n"
              % ("true" if class_counts else "false"))
    inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold, "boards.csv": boards},
                     {"prediction.csv": sub})
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "output" / "detailed_results.html").read_text(encoding="utf-8")
    for title in ("Errors by gold value", "Prediction against gold"):
        assert (title in page) == class_counts, title
    assert "Correlations" in page


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_page_says_when_the_interval_sums_the_bulk_by_the_normal_approximation(tmp_path, language):
    """20,000 distinct squared errors and 1000 resamples pass the draw budget: the page says how many units were
    summed by the normal approximation; with 200 resamples every unit is drawn, and the page says nothing."""
    rng = np.random.default_rng(7)
    n = 20000
    y = rng.normal(50, 10, n)
    gold = "id,value\n" + "".join("u%d,%r\n" % (i, v) for i, v in enumerate(y))
    pred = "id,value\n" + "".join("u%d,%r\n" % (i, v) for i, v in enumerate(y + rng.normal(0, 3, n)))
    pages = {}
    for resamples in (1000, 200):
        config = ("task: regression\nboard: all\nlanguage: %s\noptions: {rmsle: false}\nintervals: {resamples: %d}\n"
                  % (language, resamples))
        base = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold}, {"prediction.csv": pred},
                          name="in%d" % resamples)
        assert run_score(base, tmp_path / ("out%d" % resamples)).returncode == 0
        pages[resamples] = (tmp_path / ("out%d" % resamples) / "detailed_results.html").read_text(encoding="utf-8")
    note = report.INTERVAL_SUMMED.texts[language].split("{")[0]
    assert note in pages[1000] and note not in pages[200]
    summed = re.search(r"(\d+) ?(?:units|个)", pages[1000].split(note)[1])
    assert summed and n - 7 * 2048 <= int(summed.group(1)) <= n - 2048


def test_chart_ticks_are_round_steps_covering_the_values():
    """Against a brute-force search written here: the smallest step of 1, 2 or 5 times a power of ten that covers
    [low, high] in at most 4 steps from a multiple of it; the ticks are its multiples from below low to above high.
    And by hand: 0 to 5.13933 (an RMSE) gives 0, 2, 4, 6; a gold range 213.5 to 5138.2 gives 0 to 6000 by 2000."""
    from decimal import Decimal

    from scorer.report.charts import nice_ticks, tick_label

    assert nice_ticks(0, 5.13933) == ([0.0, 2.0, 4.0, 6.0], 0)
    ticks, decimals = nice_ticks(213.5, 5138.2)
    assert [tick_label(t, decimals) for t in ticks] == ["0", "2000", "4000", "6000"]
    rng = np.random.default_rng(8)
    for _ in range(2000):
        scale = 10.0 ** rng.uniform(-8, 9)
        low = rng.uniform(-3, 3) * scale
        high = low + rng.uniform(1e-3, 5) * scale
        ticks, decimals = nice_ticks(low, high)
        steps = sorted(m * Decimal(10) ** e for e in range(-12, 12) for m in (1, 2, 5))
        best = next(st for st in steps
                    if (Decimal(high) / st).to_integral_value("ROUND_CEILING")
                    - (Decimal(low) / st).to_integral_value("ROUND_FLOOR") <= 4)
        step = ticks[1] - ticks[0]
        assert abs(step - float(best)) <= 1e-9 * float(best), (low, high, ticks, best)
        assert ticks[0] <= low + 1e-9 * step and ticks[-1] >= high - 1e-9 * step and len(ticks) <= 5
        labels = [tick_label(t, decimals) for t in ticks]
        assert len(set(labels)) == len(labels) and all(len(l) <= 11 for l in labels), labels


def test_the_page_shows_no_long_tick_value(tmp_path):
    """The issue's page showed 5.13933 under a chart and ticks at min/mid/max: every number drawn on an axis is
    now a round one (at most 2 significant digits here)."""
    gold = "id,value\n" + "".join("u%d,%r\n" % (i, 213.5 + i * 1.7) for i in range(2000))
    sub = "id,value\n" + "".join("u%d,%r\n" % (i, 213.5 + i * 1.7 + (i % 13) * 0.91) for i in range(2000))
    inp = make_input(tmp_path, {"config.yaml": "task: regression\nboard: all\n", "gold.csv": gold},
                     {"prediction.csv": sub})
    assert run_score(inp, tmp_path / "output").returncode == 0
    page = (tmp_path / "output" / "detailed_results.html").read_text(encoding="utf-8")
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        for text in re.findall(r'<text x="[^"]*" y="[^"]*" text-anchor="(?:middle|start|end)">([-0-9.e+]+)</text>', svg):
            if "." in text and not text.startswith("0."):
                continue   # a bar's value label (4 decimals), not an axis tick
            digits = text.lstrip("-").replace(".", "").lstrip("0").rstrip("0")
            assert len(digits) <= 2, (text, svg[:80])
