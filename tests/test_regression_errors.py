"""Regression files through score.py: numbers read as pandas reads them; every participant mistake is exit 1 and
one line (what, where, how to fix) quoting no gold value; organizer mistakes exit 2."""
import io
import json

import numpy as np
import pandas as pd
import pytest

from helpers import as_platform, assert_participant_error, make_input, read_scores, run_score

GOLD = "id,value\na,1.5\nb,0\nc,22.25\nd,3\n"
CONFIG = "task: regression\nboard: all\n"
RMSLE = CONFIG + "options: {rmsle: true}\n"   # the organizer asks for RMSLE (off by default)
GOOD = ["a,1", "b,0.5", "c,20", "d,3"]
GOLD_VALUES = ("1.5", "22.25")


def submit(tmp_path, content, config=CONFIG, gold=GOLD, name="prediction.csv"):
    inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold}, {name: content})
    return run_score(inp, tmp_path / "output")


def csv_of(rows, header="id,value"):
    return "\n".join([header] + rows) + "\n"


def test_good_files_score_the_same_in_every_shape(tmp_path):
    # errors -0.5, 0.5, -2.25, 0: MSE = (0.25 + 0.25 + 5.0625 + 0) / 4 = 1.390625; MAE = 3.25 / 4
    variants = [csv_of(GOOD), csv_of([r.replace(",", "\t") for r in GOOD], "id\tvalue"),
                csv_of(GOOD).encode("utf-16"), csv_of(["d, 3e0 ", "c,2E1", "b,+.5", "a,1."]), csv_of(GOOD, "value,id")
                .replace("value,id", "id,value"), "\r\n".join(["ID,Value"] + GOOD) + "\r\n"]
    for i, content in enumerate(variants):
        proc = submit(tmp_path / str(i), content)
        assert proc.returncode == 0, (i, proc.stderr)
        scores = read_scores(tmp_path / str(i) / "output")
        assert scores["mse"] == pytest.approx(1.390625, abs=1e-10) and scores["mae"] == pytest.approx(0.8125)


def test_a_header_in_the_other_order_is_read_by_name(tmp_path):
    proc = submit(tmp_path, csv_of([r.split(",")[1] + "," + r.split(",")[0] for r in GOOD], "value,id"))
    assert proc.returncode == 0, proc.stderr
    assert read_scores(tmp_path / "output")["mse"] == pytest.approx(1.390625, abs=1e-10)


CASES = [
    ("empty value", csv_of(["a,", "b,0.5", "c,20", "d,3"]), ["line 2 (id a), column value", "is empty", "one number"]),
    ("nan", csv_of(["a,1", "b,nan", "c,20", "d,3"]), ["line 3 (id b)", "'nan' is not a finite number"]),
    ("NaN upper", csv_of(["a,1", "b,0.5", "c,NaN", "d,3"]), ["line 4", "'NaN' is not a finite number"]),
    ("inf", csv_of(["a,-inf", "b,0.5", "c,20", "d,3"]), ["line 2", "'-inf' is not a finite number"]),
    ("text", csv_of(["a,1", "b,low", "c,20", "d,3"]), ["line 3", "'low' is not a number", "3.25"]),
    ("decimal comma", csv_of(["a\t1", "b\t0,5", "c\t20", "d\t3"], "id\tvalue"), ["'0,5' is not a number",
                                                                              "a dot as the decimal mark"]),
    ("two numbers", csv_of(["a,1 2", "b,0.5", "c,20", "d,3"]), ["line 2", "holds 2 numbers", "exactly one number"]),
    ("negative for rmsle", csv_of(["a,1", "b,-0.5", "c,20", "d,3"]), ["line 3", "-0.5 is negative", "RMSLE",
                                                                       "clip the predictions at 0"]),
    ("too large", csv_of(["a,1", "b,1e200", "c,20", "d,3"]), ["line 3", "too large", "1e150"]),
    ("missing id", csv_of(GOOD[:3]), ["1 id(s) of the test set have no row (d)"]),
    ("unknown id", csv_of(GOOD + ["e,1"]), ["line 6", "'e' is not in the test set"]),
    ("duplicated id", csv_of(GOOD + ["a,2"]), ["id a appears twice (lines 2 and 6)"]),
    ("swapped columns", csv_of(["1,a", "0.5,b", "20,c", "3,d"]), ["line 2", "look swapped", "header id,value"]),
    ("extra column", csv_of([r + ",x" for r in GOOD], "id,value,note"), ["must be exactly id,value"]),
    ("semicolons", csv_of([r.replace(",", ";") for r in GOOD], "id;value"), ["separated by ';'"]),
    ("header only", "id,value\n", ["no rows"]),
]


@pytest.mark.parametrize("label,content,fragments", CASES, ids=[c[0] for c in CASES])
def test_participant_errors(tmp_path, label, content, fragments):
    line = assert_participant_error(submit(tmp_path, content, RMSLE if "rmsle" in label else CONFIG), *fragments)
    for value in GOLD_VALUES:
        assert value not in line


@pytest.mark.parametrize("config", [CONFIG, CONFIG + "options: {rmsle: false}\n"], ids=["default", "rmsle false"])
def test_negative_predictions_are_scored_without_rmsle(tmp_path, config):
    """RMSLE is scored only when the organizer asks: by default a negative prediction is a prediction."""
    proc = submit(tmp_path, csv_of(["a,1", "b,-0.5", "c,20", "d,3"]), config)
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "output")
    assert "rmsle" not in scores and scores["mae"] == pytest.approx((0.5 + 0.5 + 2.25) / 4)


def test_rmsle_is_scored_when_the_organizer_asks(tmp_path):
    # log(1 + p) - log(1 + y) of a, b, c, d: ln(2/2.5), ln(1.5/1), ln(21/23.25), 0, by math.log1p in the test
    import math

    proc = submit(tmp_path, csv_of(GOOD), RMSLE)
    assert proc.returncode == 0, proc.stderr
    d = [math.log1p(1) - math.log1p(1.5), math.log1p(0.5) - math.log1p(0), math.log1p(20) - math.log1p(22.25), 0.0]
    assert read_scores(tmp_path / "output")["rmsle"] == pytest.approx(math.sqrt(sum(x * x for x in d) / 4), abs=1e-9)


@pytest.mark.parametrize("gold,config,fragments", [
    ("id,value\na,1\nb,-2\n", RMSLE, ["gold.csv line 3 (id b)", "-2 is negative", "options.rmsle: false"]),
    ("id,value\na,1\nb,\n", CONFIG, ["gold.csv line 3 (id b)", "not a finite number"]),
    ("id,value\na,1\nb,nan\n", CONFIG, ["gold.csv line 3 (id b)", "'nan' is not a finite number"]),
    ("id,value\na,1\nb,1 2\n", CONFIG, ["holds 2 numbers"]),
    ("id,value\na,1\nb,1e300\n", CONFIG, ["beyond 1e150"]),
    ("id,value\na,1\na,2\n", CONFIG, ["repeats id a"]),
    ("id,value\na,1\nb,7\n", CONFIG + "options: {value_range: [0, 5]}\n", ["7 is outside options.value_range [0, 5]"]),
])
def test_organizer_errors_in_the_gold(tmp_path, gold, config, fragments):
    inp = as_platform(make_input(tmp_path, {"config.yaml": config, "gold.csv": gold},
                                 {"p.csv": "id,value\na,1\nb,2\n"}), "codalab_v1")
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 2 and "details" in proc.stderr, proc.stderr
    text = (tmp_path / "output" / "private" / "organizer_error.txt").read_text(encoding="utf-8")
    for fragment in fragments:
        assert fragment in text and fragment not in proc.stderr, (fragment, text)


@pytest.mark.parametrize("options,fragment", [({"rmsle": "yes"}, "options.rmsle is"),
                                              ({"smape_zero": "one"}, "options.smape_zero is"),
                                              ({"value_range": [5, 1]}, "options.value_range is"),
                                              ({"value_range": [0, float("inf")]}, "options.value_range is")])
def test_options_are_checked_at_load(tmp_path, options, fragment):
    config = CONFIG + "options: %s\n" % json.dumps(options).replace("Infinity", ".inf")
    proc = submit(tmp_path, csv_of(GOOD), config)
    assert proc.returncode == 2 and fragment in proc.stderr, proc.stderr


def test_numbers_are_read_as_pandas_c_parser_reads_them(tmp_path):
    """Every way of writing a number that pandas' C parser reads: our MSE against one computed from pandas'
    reading of the very same files (scikit-learn)."""
    from sklearn.metrics import mean_squared_error

    rng = np.random.default_rng(11)
    n = 400
    ids = ["u%03d" % i for i in range(n)]
    gold_values = rng.normal(0, 10, n) ** 3
    forms = [lambda v: repr(float(v)), lambda v: "%.17g" % v, lambda v: "%.3e" % v, lambda v: "%.20f" % v,
             lambda v: "%.0f." % v, lambda v: "%+.5E" % v, lambda v: "%.25g" % v, lambda v: " %.9f " % v]
    gold = "id,value\n" + "".join("%s,%s\n" % (i, forms[k % len(forms)](v)) for k, (i, v) in
                                  enumerate(zip(ids, gold_values)))
    pred = "id,value\n" + "".join("%s,%s\n" % (i, forms[(k * 3 + 1) % len(forms)](v * 1.1 + 0.3)) for k, (i, v)
                                  in enumerate(zip(ids, gold_values)))
    config = CONFIG + "options: {rmsle: false}\n"
    proc = submit(tmp_path, pred, config, gold)
    assert proc.returncode == 0, proc.stderr
    read = lambda text: pd.read_csv(io.StringIO(text), dtype={"id": str})  # noqa: E731  (C parser, float64)
    g, p = read(gold), read(pred)
    expected = mean_squared_error(g["value"].to_numpy(), p["value"].to_numpy())
    got = json.loads((tmp_path / "output" / "scores.json").read_text(encoding="utf-8"))["mse"]
    assert got == pytest.approx(expected, rel=1e-9)


def test_the_report_shows_the_breakdowns_and_no_nan(tmp_path):
    proc = submit(tmp_path, csv_of(GOOD))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "output" / "detailed_results.html").read_text(encoding="utf-8")
    assert "Errors by gold value" in page and "<svg" in page and "Kendall" in page and "nan" not in page.lower()


def test_an_r2_beyond_doubles_is_the_most_negative_double_not_a_crash(tmp_path):
    """Errors of 1e140 against gold values 1e-160 apart: Σe² / Σ(y - ȳ)² is about 1e600, beyond doubles. The
    score is written as -1.7976931348623157e308 (docs/regression.md), exit 0, not an overflow (exit 3)."""
    gold = "id,value\na,1e-160\nb,2e-160\nc,3e-160\n"
    proc = submit(tmp_path, "id,value\na,1e140\nb,0\nc,0\n", CONFIG, gold)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "output" / "scores.json").read_text(encoding="utf-8"))["r2"] == \
        -1.7976931348623157e308
