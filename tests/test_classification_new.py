"""A classification competition made with ``organizer new`` from the public GoEmotions data (the comments with
exactly one Ekman emotion), linted, bundled and scored on both boards; its scores against scikit-learn.

The data is read from ../shared (never copied into the project); the test skips, saying why, without it.
"""
import csv
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, f1_score, log_loss, roc_auc_score, top_k_accuracy_score

from bundle_shared import says_board_a_answers_only
from helpers import SHARED_DATA, organizer, read_scores_json

EKMAN = SHARED_DATA / "multilabel" / "goemotions" / "ekman"
pytestmark = pytest.mark.skipif(not (EKMAN / "test.tsv").is_file(),
                                reason="the public GoEmotions data is not at %s (shared/ beside the project)" % EKMAN)


def single_label(split, labels):
    """The comments of ``split`` with exactly one Ekman emotion: id, text, label."""
    frame = pd.read_csv(EKMAN / ("%s.tsv" % split), sep="\t", header=None, names=["text", "ids", "id"], dtype=str,
                        quoting=csv.QUOTE_NONE, keep_default_na=False)
    frame = frame[~frame["ids"].str.contains(",")].copy()
    frame["label"] = [labels[int(i)] for i in frame["ids"]]
    return frame[["id", "text", "label"]]


@pytest.fixture(scope="module")
def competition(tmp_path_factory):
    base = tmp_path_factory.mktemp("ekman")
    labels = (EKMAN / "labels.txt").read_text(encoding="utf-8").split()
    for split in ("test", "dev"):
        single_label(split, labels).to_csv(base / ("%s.csv" % split), index=False)
    out = base / "competition"
    proc = organizer("new", "classification", base / "test.csv", out, "--title", "GoEmotions (Ekman)", "--labels",
                     EKMAN / "labels.txt", "--dev-gold", base / "dev.csv", "--option", "submission=probabilities",
                     "--option", "top_k=3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert says_board_a_answers_only(proc.stdout), proc.stdout
    return base, out, labels


def model_output(gold, labels, seed):
    """Probabilities of a mediocre model: noise plus a bonus on the gold class, rows summing to 1, some tied."""
    rng = np.random.default_rng(seed)
    codes = np.array([labels.index(g) for g in gold])
    raw = rng.random((len(codes), len(labels))) + 0.9 * np.eye(len(labels))[codes] * (rng.random(len(codes)) < 0.7)[:, None]
    raw = np.round(raw, 1) + 0.05   # a coarse grid: ties within rows and across comments
    return raw / raw.sum(axis=1, keepdims=True)


def test_the_competition_bundles_and_its_scores_equal_sklearn(competition, tmp_path):
    base, out, labels = competition
    bundle = organizer("bundle", out, tmp_path / "ekman.zip")
    assert bundle.returncode == 0, bundle.stdout + bundle.stderr
    with zipfile.ZipFile(tmp_path / "ekman.zip") as archive:
        assert {"reference_data_A.zip", "reference_data_B.zip", "starting_kit.zip"} <= set(archive.namelist())
    gold = pd.read_csv(out / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)
    proba = model_output(gold["label"], labels, seed=5)
    submission = pd.DataFrame(proba, columns=labels)
    submission.insert(0, "id", gold["id"])
    submission = submission[["id"] + labels[::-1]].sample(frac=1.0, random_state=0)   # columns and rows in any order
    path = tmp_path / "submission.csv"
    submission.to_csv(path, index=False, float_format="%.6f")
    # the numbers as written (six decimals), read back by Python's own correctly rounded float()
    with open(path, encoding="utf-8", newline="") as fh:
        rows = {r["id"]: [float(r[c]) for c in labels] for r in csv.DictReader(fh)}
    proba = np.array([rows[i] for i in gold["id"]])
    boards = pd.read_csv(out / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    for board in ("A", "B"):
        proc = organizer("score", out, board, path, tmp_path / board, "--reveal")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        got = read_scores_json(tmp_path / board / "output")
        on = gold["id"].isin(set(boards.loc[boards["board"] == board, "id"])).to_numpy()
        y, p = gold["label"].to_numpy()[on], proba[on]
        predicted = np.asarray(labels, dtype=object)[np.argmax(p, axis=1)]
        by_name = np.argsort(labels)
        expected = {"f1": f1_score(y, predicted, average="macro", zero_division=0),
                    "cohen_kappa": cohen_kappa_score(y, predicted),
                    # each row divided by its sum (six decimals sum to 1 within 1e-6 only): docs/classification.md
                    "log_loss": log_loss(y, (p / p.sum(axis=1, keepdims=True))[:, by_name], labels=sorted(labels)),
                    "roc_auc": roc_auc_score(y, p[:, by_name], multi_class="ovr", labels=sorted(labels)),
                    "top_k_accuracy": top_k_accuracy_score(len(labels) - 1 - np.array([labels.index(v) for v in y]),
                                                           p[:, ::-1], k=3, labels=list(range(len(labels))))}
        for key, value in expected.items():   # scores.json holds 10 decimals
            assert abs(got[key] - value) <= 1e-9, (board, key, got[key], value)


def test_a_label_file_is_refused_where_probabilities_are_scored(competition, tmp_path):
    base, out, labels = competition
    gold = pd.read_csv(out / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)
    path = tmp_path / "labels.csv"
    gold.assign(label=labels[0]).to_csv(path, index=False)
    proc = organizer("score", out, "A", path, tmp_path / "out")
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 1 and len(lines) == 1, proc.stdout + proc.stderr
    assert "this task scores probabilities" in lines[0] and "id," + ",".join(labels) in lines[0]
