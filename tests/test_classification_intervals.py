"""Classification's primary score with its interval, and rescore's tiers, on the demo competition.

The label keys are functions of per-item sums, log loss and top-k accuracy means of per-item values: any set of
items (a bootstrap resample, a paired permutation) gets its scores from its rows' sums. Checked here for the
probability keys on halves of a board (the label keys: tests/test_unit_counts.py), the interval in the scores
files against a plain bootstrap with scikit-learn, and the tiers against scikit-learn's macro F1 of each team.
"""
import csv
import warnings

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.metrics import f1_score, log_loss

from helpers import ROOT, organizer, read_scores_json, run_score, write_files
from organizer.phase_data import assemble_reference
from scorer.api import Competition

DEMO = ROOT / "examples" / "classification"
CLASSES = (DEMO / "reference_data" / "labels.txt").read_text(encoding="utf-8").split()


def gold():
    return pd.read_csv(DEMO / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)


def board_ids(board):
    boards = pd.read_csv(DEMO / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    return set(boards.loc[boards["board"] == board, "id"])


def probabilities(seed=0):
    """A model's probability rows for every test item (leaning to the gold class), as a frame and as CSV bytes."""
    frame = gold()
    rng = np.random.default_rng(seed)
    codes = frame["label"].map({c: k for k, c in enumerate(CLASSES)}).to_numpy()
    raw = rng.random((len(frame), len(CLASSES))) + 1.5 * np.eye(len(CLASSES))[codes] * (rng.random(len(frame)) < 0.6)[:, None]
    proba = np.round(raw / raw.sum(axis=1, keepdims=True), 6)
    table = pd.DataFrame(proba, columns=CLASSES)
    table.insert(0, "id", frame["id"])
    text = "id," + ",".join(CLASSES) + "\n" + "".join(
        i + "," + ",".join(repr(float(v)) for v in row) + "\n" for i, row in zip(frame["id"], proba))
    return table, text.encode("utf-8")


def phase(tmp_path, board, options=None, intervals=None, name="ref"):
    ref = assemble_reference(DEMO / "reference_data", board, tmp_path / name, reveal=True)
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw["options"] = dict(raw.get("options") or {}, **(options or {}))
    raw.pop("columns", None)
    if intervals:
        raw["intervals"] = intervals
    if options and options.get("submission") == "probabilities":
        raw["primary_key"] = "log_loss"
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return ref


def test_probability_keys_of_any_set_of_items_come_from_its_rows(tmp_path):
    comp = Competition.open(str(phase(tmp_path, "A", {"submission": "probabilities", "top_k": 3})))
    _, data = probabilities()
    write_files(tmp_path / "res", {"submission.csv": data})
    sub = comp.read_submission(str(tmp_path / "res"))
    rng = np.random.default_rng(5)
    mask = np.ones(len(comp.reference.units), dtype=bool)
    half = rng.random(len(mask)) < 0.5
    whole, on_half = comp.family.score(comp.reference, sub, mask, comp.cfg), \
        comp.family.score(comp.reference, sub, half, comp.cfg)
    covered = set()
    for group in whole.units:
        table = group.make()
        part = comp.family.unit_scores(group.name, table[half].sum(axis=0), comp.cfg)
        for key in group.keys:
            assert float(part[key]) == pytest.approx(on_half.scores[key], abs=1e-12), key
            covered.add(key)
    # ROC AUC and average precision rank all items at once: no per-item rows, no interval
    assert set(comp.family.leaderboard_keys(comp.cfg.options)) - covered == {"roc_auc", "average_precision"}
    assert "top_k_accuracy" in covered and "log_loss" in covered


@pytest.mark.parametrize("form", ["labels", "probabilities"])
def test_the_primary_score_has_an_interval_like_a_plain_bootstrap(tmp_path, form):
    options = {"submission": form}
    ref = phase(tmp_path, "B", options, {"in_scores": True, "resamples": 2000})
    table, data = probabilities(seed=3)
    if form == "labels":
        labels = np.asarray(CLASSES, dtype=object)[np.argmax(table[CLASSES].to_numpy(), axis=1)]
        data = ("id,label\n" + "".join("%s,%s\n" % (i, l) for i, l in zip(table["id"], labels))).encode("utf-8")
    write_files(tmp_path / "in" / "res", {"submission.csv": data})
    (tmp_path / "in" / "ref").symlink_to(ref)
    proc = run_score(tmp_path / "in", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores_json(tmp_path / "out")
    key = "f1" if form == "labels" else "log_loss"
    low, high = scores[key + "_ci_low"], scores[key + "_ci_high"]
    assert low < scores[key] < high
    # scikit-learn's score of the board's items, then a plain bootstrap of it (items drawn with replacement)
    on = gold()["id"].isin(board_ids("B")).to_numpy()
    y = gold()["label"].to_numpy()[on]
    proba = table[CLASSES].to_numpy()[on]
    predicted = np.asarray(CLASSES, dtype=object)[np.argmax(proba, axis=1)]

    def value(rows):
        if form == "labels":
            return f1_score(y[rows], predicted[rows], average="macro", zero_division=0)
        by_name = np.argsort(CLASSES)   # scikit-learn's columns are the classes in sorted order
        # each row divided by its sum first (docs/classification.md: log loss reads each row so; scikit-learn
        # >= 1.5 does not divide, and rows of six decimals sum to 1 within 1e-6 only)
        return log_loss(y[rows], (proba[rows] / proba[rows].sum(axis=1, keepdims=True))[:, by_name],
                        labels=sorted(CLASSES))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert scores[key] == pytest.approx(value(np.arange(len(y))), abs=1e-9)
    rng = np.random.default_rng(11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        draws = [value(rng.integers(0, len(y), len(y))) for _ in range(400)]
    theirs = np.percentile(draws, [2.5, 97.5])
    width = theirs[1] - theirs[0]
    # two Monte Carlo estimates of one interval: each bound within a fifth of the width
    assert abs(low - theirs[0]) < 0.2 * width and abs(high - theirs[1]) < 0.2 * width, (low, high, theirs)


def test_rescore_tiers_follow_sklearn_macro_f1(tmp_path):
    frame = gold()
    rng = np.random.default_rng(2)
    teams = {}
    for name, wrong in (("perfect", 0.0), ("wrong10", 0.10), ("wrong25", 0.25), ("wrong40", 0.40)):
        labels = frame["label"].to_numpy().copy()
        flip = rng.random(len(labels)) < wrong
        labels[flip] = rng.choice(CLASSES, size=int(flip.sum()))
        teams[name] = labels
    subs = tmp_path / "subs"
    subs.mkdir()
    for name, labels in teams.items():
        (subs / (name + ".csv")).write_text("id,label\n" + "".join("%s,%s\n" % (i, l) for i, l in zip(
            frame["id"], labels)), encoding="utf-8")
    # the same answers as wrong10, rows in reverse order
    (subs / "copy10.csv").write_text("id,label\n" + "".join("%s,%s\n" % (i, l) for i, l in zip(
        frame["id"][::-1], teams["wrong10"][::-1])), encoding="utf-8")
    proc = organizer("rescore", DEMO, "B", subs, tmp_path / "out", "-j", "2", "--permutations", "2000")
    assert proc.returncode == 0, proc.stderr
    with open(tmp_path / "out" / "tiers.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    on = frame["id"].isin(board_ids("B")).to_numpy()
    expected = {name: f1_score(frame["label"].to_numpy()[on], labels[on], average="macro", zero_division=0)
                for name, labels in teams.items()}
    expected["copy10"] = expected["wrong10"]
    assert sorted(r["submission"] for r in rows) == sorted(expected)
    for r in rows:
        assert float(r["f1"]) == pytest.approx(expected[r["submission"]], abs=1e-9)
    tier = {r["submission"]: int(r["tier"]) for r in rows}
    # each 15 points of labels redrawn is worse for sure; identical answers share their tier
    assert [tier[t] for t in ("perfect", "wrong10", "copy10", "wrong25", "wrong40")] == [1, 2, 2, 3, 4], rows
