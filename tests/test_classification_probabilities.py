"""A probabilities competition scores probabilities: no file that is not what the task asks for scores better than
an honest one, and the keys hold no repeat.

- ``probability_rows: sum_to_1`` (the default): a value outside [0, 1] or a row whose sum is more than 0.01 from 1
  is the participant's error (exit 1, one line: file, line, id, what and how to fix, no gold). The gaming files of
  the newcomer trial (the same model written as percentages, every cell 1.0, rows summing to 5) are refused; a row
  within the tolerance gains nothing either, since log loss reads each row divided by its sum.
- ``probability_rows: rescale`` (the organizer opts in): each row is divided by its sum before scoring, as Kaggle's
  multi-class log loss does; the gaming files then score exactly as the honest file they stand for. Kaggle's own
  worked example (its wiki's "Multi Class Log Loss" page: 1.881797068998267 on the six Public rows) is checked.
- The keys: no two written keys are one quantity by definition (each pair differs on some seeded case); the
  options that would write one (``average: micro``, an order of two classes, ``top_k`` at or above the number of
  classes) or that no key reads (probability options of a labels competition) are the organizer's error (exit 2).
"""
import html
import math

import numpy as np
import pytest
import yaml

from helpers import ROOT, assert_participant_error, make_input, read_scores, run_score
from test_kit_warnings import validate

DEMO = ROOT / "examples" / "classification"
CLASSES = (DEMO / "starting_kit" / "labels.txt").read_text(encoding="utf-8").split()
GOLD = (DEMO / "reference_data" / "gold.csv").read_text(encoding="utf-8")
IDS = [line.split(",")[0] for line in GOLD.splitlines()[1:]]
LABELS = (DEMO / "reference_data" / "labels.txt").read_bytes()


def config(**options):
    raw = {"task": "classification", "board": "all", "files": {"gold": "gold.csv", "labels": "labels.txt",
                                                               "submission": "*.csv"},
           "options": dict({"submission": "probabilities"}, **options)}
    return yaml.safe_dump(raw)


def model(seed=0):
    """An honest model: rows of probabilities summing to 1, leaning towards... nothing known: seeded noise."""
    raw = np.random.default_rng(seed).random((len(IDS), len(CLASSES))) ** 3 + 0.01
    return raw / raw.sum(axis=1, keepdims=True)


def text(proba, header=None, fmt=repr):
    rows = ["%s,%s" % (i, ",".join(fmt(float(v)) for v in row)) for i, row in zip(IDS, proba)]
    return "\n".join(["id," + ",".join(header or CLASSES)] + rows) + "\n"


def submit(tmp_path, content, cfg, name="run"):
    inp = make_input(tmp_path / name, {"config.yaml": cfg, "gold.csv": GOLD, "labels.txt": LABELS},
                     {"submission.csv": content})
    return run_score(inp, tmp_path / name / "out")


def scores(tmp_path, content, cfg, name):
    proc = submit(tmp_path, content, cfg, name)
    assert proc.returncode == 0, proc.stderr
    return read_scores(tmp_path / name / "out")


GAMING = {"percentages": lambda p: p * 100, "rows summing to 5": lambda p: p * 5,
          "every cell 1.0": lambda p: np.ones_like(p)}


@pytest.mark.parametrize("kind", sorted(GAMING))
def test_the_gaming_files_are_refused_where_rows_must_sum_to_1(tmp_path, kind):
    proc = submit(tmp_path, text(GAMING[kind](model())), config())
    line = assert_participant_error(proc, "submission.csv line 2 (id %s)" % IDS[0])
    if kind == "every cell 1.0":   # each value is a probability, the row is not
        assert "the row's probabilities sum to 5, not 1" in line and "within 0.01" in line and \
            "divide each row by its sum" in line, line
    else:                          # a value above 1 comes first
        assert "column %s:" % CLASSES[0] in line and "is not a probability (outside [0, 1])" in line and \
            "percentages divided by 100" in line, line
    assert not (tmp_path / "run" / "out" / "scores.txt").exists()


@pytest.mark.parametrize("kind", sorted(GAMING))
def test_the_gaming_files_score_as_the_honest_file_they_stand_for_where_rows_are_rescaled(tmp_path, kind):
    """Every key equal to the honest file's: the model itself, or (every cell 1.0) the uniform probabilities."""
    proba = model()
    honest = np.full_like(proba, 1.0 / len(CLASSES)) if kind == "every cell 1.0" else proba
    cfg = config(probability_rows="rescale", top_k=2)
    gamed = scores(tmp_path, text(GAMING[kind](proba)), cfg, "gamed")
    fair = scores(tmp_path, text(honest), cfg, "honest")
    assert gamed.keys() == fair.keys() and len(gamed) == 13
    for key in fair:
        assert gamed[key] == pytest.approx(fair[key], abs=1e-9), key


def test_a_labels_competition_reads_only_the_label_of_each_row(tmp_path):
    """With submission: labels any scores may stand in the columns: the label keys of each row's highest one."""
    proba = model(3)
    cfg = config(submission="labels")
    fair = scores(tmp_path, text(proba), cfg, "honest")
    for kind, gamed in GAMING.items():
        if kind != "every cell 1.0":
            assert scores(tmp_path, text(gamed(proba)), cfg, kind.replace(" ", "_")) == fair, kind
    assert scores(tmp_path, text(np.log(proba)), cfg, "logits") == fair   # negative scores too


def test_the_tolerance_of_a_row_sum_at_its_boundary(tmp_path):
    """0.01 from 1 is accepted (written to 3 decimals a row may be off by half a unit per column); beyond, refused.
    Within it the row gains nothing: log loss reads it divided by its sum."""
    proba = model(5)
    cfg = config()
    honest = scores(tmp_path, text(proba), cfg, "honest")
    for factor in (1.0099, 0.9901):
        inflated = scores(tmp_path, text(proba * factor), cfg, "f%g" % factor)
        assert inflated["log_loss"] == pytest.approx(honest["log_loss"], abs=1e-9)   # no gain from summing to 1.0099
    # rows as written: 0.99 and 1.01 pass (whatever the rounding of their float sums), 0.989 does not
    for k, (last, ok) in enumerate((("0.19", True), ("0.21", True), ("0.189", False), ("0.211", False))):
        rows = text(proba).splitlines()
        rows[1] = IDS[0] + ",0.2,0.2,0.2,0.2," + last
        proc = submit(tmp_path, "\n".join(rows) + "\n", cfg, "w%d" % k)
        assert (proc.returncode == 0) == ok, (last, proc.stderr)
    for factor in (1.0101, 0.9899):
        line = assert_participant_error(submit(tmp_path, text(proba * factor), cfg, "g%g" % factor),
                                        "line 2 (id %s)" % IDS[0], "not 1")
        assert "%g" % round(factor, 6) in line or "sum to" in line


def test_log_loss_divides_each_row_by_its_sum_as_kaggle_documents(tmp_path):
    """Kaggle's wiki, "Multi Class Log Loss" (kaggle.com/wiki/MultiClassLogLoss, updated 2014-12-17): "The submitted
    probabilities need not sum to 1, because they will be rescaled (each is divided by the sum) so that they do
    before evaluation", then replaced with max(min(p, 1 - 1e-15), 1e-15); its worked example, a solution with an
    Indicator column (six Public rows, one Private) and its submission, asserts publicScore = 1.881797068998267.
    Here the Indicator is the gold's Usage column (board A = Public), the rows rescaled, eps 1e-15."""
    gold = "id,label,Usage\n1,col1,Public\n2,col1,Public\n3,col1,Public\n4,col2,Public\n5,col2,Public\n" \
           "6,col2,Public\n7,col1,Private\n"
    submission = "id,col1,col2\n1,0.5,0.5\n2,0.1,0.9\n3,0.01,0.99\n4,0.9,0.1\n5,0.75,0.25\n6,0.001,0.999\n7,1,0\n"
    raw = yaml.safe_load(config(probability_rows="rescale", log_loss_eps=1e-15))
    raw.update(board="A", boards={"usage_column": "Usage"})
    for name, content in (("as written", submission), ("as percentages", submission.replace(
            ",0.5,0.5", ",50,50").replace(",0.1,0.9", ",10,90").replace(",0.01,0.99", ",1,99").replace(
            ",0.9,0.1", ",90,10").replace(",0.75,0.25", ",75,25").replace(",0.001,0.999", ",0.1,99.9"))):
        inp = make_input(tmp_path / name, {"config.yaml": yaml.safe_dump(raw), "gold.csv": gold,
                                           "labels.txt": "col1\ncol2\n"}, {"s.csv": content})
        proc = run_score(inp, tmp_path / name / "out")
        assert proc.returncode == 0, proc.stderr
        assert read_scores(tmp_path / name / "out")["log_loss"] == pytest.approx(1.881797068998267, abs=1e-9), name
    # and by hand: -(ln .5 + ln .1 + ln .01 + ln .1 + ln .25 + ln .999) / 6
    assert -sum(map(math.log, (0.5, 0.1, 0.01, 0.1, 0.25, 0.999))) / 6 == pytest.approx(1.881797068998267, abs=1e-12)


def test_rescaled_rows_must_be_scores_that_can_be_divided(tmp_path):
    proba = model(7)
    cfg = config(probability_rows="rescale")
    negative = proba.copy()
    negative[4, 2] = -0.25
    assert_participant_error(submit(tmp_path, text(negative), cfg, "neg"), "line 6 (id %s), column %s" % (
        IDS[4], CLASSES[2]), "-0.25 is negative", "divides each row by its sum", "0 or more")
    zero = proba.copy()
    zero[6] = 0.0
    assert_participant_error(submit(tmp_path, text(zero), cfg, "zero"), "line 8 (id %s)" % IDS[6],
                             "every value of the row is 0", "at least one class a value above 0")


def test_the_kit_lists_every_row_that_is_no_probabilities(tmp_path):
    proba = model(9)
    proba[[3, 30, 300]] *= 100          # percentages on three rows
    proba[[10, 11, 12, 13]] *= 0.5      # four rows summing to 0.5
    path = tmp_path / "mixed.csv"
    path.write_text(text(proba, fmt=lambda v: "%.4f" % v), encoding="utf-8")
    raw = yaml.safe_load(config())
    raw.pop("board")
    lines, code = validate("classification", path, dict(raw, board="A", language="en"))
    assert code == 1 and lines[0] == "mixed.csv: 7 problem(s) found:", lines
    body = "\n".join(lines)
    for row in (3, 30, 300):
        assert "line %d (id %s), column %s" % (row + 2, IDS[row], CLASSES[0]) in body, body
    assert "line 12 (also lines 13, 14, 15): the row's probabilities sum to 0.5" in body, body


@pytest.mark.parametrize("options,fragment", [
    ({"average": "micro"}, "micro precision, recall and F1 of one class per item all equal accuracy"),
    ({"top_k": 5}, "every gold class is among the 5 highest of its row"),
    ({"top_k": 1}, "options.top_k is 1"),
    ({"submission": "labels", "top_k": 3}, "null (the default) unless submission is probabilities"),
    ({"submission": "labels", "probability_rows": "rescale"}, "sum_to_1 (the default) unless submission"),
    ({"submission": "labels", "log_loss_eps": 1e-15}, "null (the default) unless submission is probabilities"),
    ({"ordinal_weights": "linear"}, "quadratic (the default) unless ordinal_order is set"),
    ({"ordinal_weights": "cubic", "ordinal_order": CLASSES}, "options.ordinal_weights"),
])
def test_options_that_would_write_a_repeat_or_nothing_are_the_organizers_error(tmp_path, options, fragment):
    proc = submit(tmp_path, text(model()), config(**options))
    assert proc.returncode == 2 and fragment in proc.stderr, proc.stderr


def test_an_order_of_two_classes_is_the_organizers_error(tmp_path):
    cfg = yaml.safe_dump({"task": "classification", "board": "all",
                          "options": {"ordinal_order": ["no", "yes"]}})
    inp = make_input(tmp_path, {"config.yaml": cfg, "gold.csv": "id,label\n1,no\n2,yes\n", "labels.txt": "no\nyes\n"},
                     {"s.csv": "id,label\n1,no\n2,no\n"})
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 2 and "quadratic-weighted kappa is Cohen's kappa" in proc.stderr, proc.stderr


def _label_scores(counts, options):
    """The written label keys of a confusion matrix (gold rows, predicted columns), through the family's formula."""
    import types

    from scorer.tasks.classification import FAMILY

    width = len(counts)
    power = 1 if options.get("ordinal_weights") == "linear" else 2
    sums = np.concatenate([counts.sum(axis=1), counts.sum(axis=0), np.diag(counts),
                           [sum(counts[g, p] * abs(g - p) ** power for g in range(width) for p in range(width))]])
    cfg = types.SimpleNamespace(options=dict({k: o.default for k, o in FAMILY.options.items()}, **options))
    every = FAMILY.unit_scores("labels", sums.astype(float), cfg)
    return {k: float(every[k]) for k in FAMILY.leaderboard_keys(cfg.options) if k in every}


def test_no_two_written_keys_are_one_quantity():
    """For every option set, each pair of written keys differs on some seeded case: a key that always equals
    another (micro F1 and accuracy, F1 and macro F1, weighted recall and accuracy, ...) is not written. Label keys
    from 3,000 random confusion matrices (classes absent from the gold or the prediction among them), the
    probability keys from the oracle test's seeded files. (That test checks each written key against
    scikit-learn.)"""
    from test_classification_oracles import random_case, write_case, ours

    import tempfile
    from pathlib import Path

    rng = np.random.default_rng(99)
    seen = {}
    for _ in range(3000):
        width = int(rng.choice([2, 3, 5]))
        counts = rng.integers(0, 6, size=(width, width)) * (rng.random((width, width)) < 0.7)
        if rng.random() < 0.2:
            counts[int(rng.integers(width))] = 0          # a class with no gold item
        if counts.sum() < 2:
            continue
        for average in ("macro", "weighted") + (("binary",) if width == 2 else ()):
            options = {"average": average}
            if width > 2:
                options["ordinal_order"] = ["c%d" % c for c in range(width)]
                linear = dict(options, ordinal_weights="linear")
                seen.setdefault((average, "linear"), []).append(_label_scores(counts, linear))
            seen.setdefault((average, width == 2), []).append(_label_scores(counts, options))
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(120):
            case = random_case(np.random.default_rng([99, k]))
            classes, gold, submission, options = case
            if options["submission"] != "probabilities" or len(gold) < 5:
                continue
            write_case(Path(tmp) / str(k), *case, rng=np.random.default_rng([99, k, 1]))
            probability = {"log_loss", "roc_auc", "average_precision", "top_k_accuracy"}
            seen.setdefault("probabilities", []).append({k: v for k, v in ours(Path(tmp) / str(k)).items()
                                                         if k in probability | {"accuracy", "f1"}})
    assert len(seen) == 8, sorted(seen)
    for shape, runs in seen.items():
        keys = sorted(set.intersection(*(set(r) for r in runs)) if shape != "probabilities" else
                      set.union(*(set(r) for r in runs)))
        assert len(runs) >= 10, shape
        for a in keys:
            for b in keys:
                if a < b:
                    assert any(abs(r[a] - r[b]) > 1e-12 for r in runs if a in r and b in r), (shape, a, b)


def test_the_page_names_top_k_with_its_k_and_says_how_rows_are_read(tmp_path):
    for rows, said in (("sum_to_1", "every row sums to 1 within 0.01; log loss reads each row divided by its sum"),
                       ("rescale", "Each row was divided by its sum before scoring (as Kaggle's multi-class log "
                                   "loss does)")):
        submit(tmp_path, text(model()), config(top_k=3, probability_rows=rows), rows)
        page = (tmp_path / rows / "out" / "detailed_results.html").read_text(encoding="utf-8")
        plain = html.unescape(page.replace("<wbr>", ""))
        assert "Top-3 accuracy" in plain and "Top-k" not in plain and said in plain, rows
