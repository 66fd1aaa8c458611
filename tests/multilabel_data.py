"""Test inputs (no tests) for the multi-label family: GoEmotions gold and seeded system rankings.

The rankings imitate a classifier: every class gets a random score, gold
classes get a bonus (so most, not all, gold labels rank high), all scores are
distinct (so no oracle has to break a tie), and each list is cut at a random
length (0 to ``max_len``) unless ``full`` is asked for.
"""
import csv
from pathlib import Path

import numpy as np
import pandas as pd

from helpers import shared

GOEMOTIONS = ("multilabel", "goemotions")


def goemotions(split="test"):
    """(labels, frame with columns id and codes (list of class codes))."""
    folder = shared(*GOEMOTIONS)
    labels = [l.strip() for l in (folder / "labels.txt").read_text(encoding="utf-8").splitlines() if l.strip()]
    frame = pd.read_csv(folder / ("%s.tsv" % split), sep="\t", header=None, names=["text", "codes", "id"],
                        quoting=csv.QUOTE_NONE, dtype=str, keep_default_na=False)
    frame["codes"] = [[int(c) for c in s.split(",")] for s in frame["codes"]]
    return labels, frame[["id", "codes"]]


def gold_matrix(codes, n_classes, grades=None):
    """(n, n_classes) grade matrix from lists of codes (and optional per-label grades)."""
    matrix = np.zeros((len(codes), n_classes), dtype=np.int64)
    for i, row in enumerate(codes):
        for j, c in enumerate(row):
            matrix[i, c] = 1 if grades is None else grades[i][j]
    return matrix


def system_scores(gold, seed, bonus=0.6):
    """(n, n_classes) scores in [0, 1 + bonus): uniform noise plus a bonus on gold classes; all distinct."""
    rng = np.random.default_rng(seed)
    raw = rng.random(gold.shape) + bonus * (gold > 0)
    ordered = np.sort(raw, axis=1)
    assert (np.diff(ordered, axis=1) > 0).all(), "tied scores: choose another seed"
    return raw


def rankings(scores, seed, max_len=6, full=False):
    """(ranked codes per row, their scores) : each row's classes by decreasing score, cut at a random length."""
    rng = np.random.default_rng(seed)
    n, m = scores.shape
    order = np.argsort(-scores, axis=1, kind="stable")
    lengths = np.full(n, m) if full else rng.integers(0, max_len + 1, size=n)
    ranked = [order[i, :lengths[i]].tolist() for i in range(n)]
    return ranked, [scores[i, r].tolist() for i, r in enumerate(ranked)]


def gold_csv(ids, codes, labels, grades=None):
    frame = pd.DataFrame({"id": ids, "labels": [" ".join(labels[c] for c in row) for row in codes]})
    if grades is not None:
        frame["grades"] = [" ".join(str(g) for g in row) for row in grades]
    return frame.to_csv(index=False, lineterminator="\n")


def submission_csv(ids, ranked, labels, scores=None, shuffle_seed=None):
    """CSV text; with ``shuffle_seed`` the labels of a row are written in a random order (scores decide)."""
    rows_labels, rows_scores = [], []
    rng = np.random.default_rng(shuffle_seed) if shuffle_seed is not None else None
    for i, row in enumerate(ranked):
        idx = list(range(len(row)))
        if rng is not None:
            rng.shuffle(idx)
        rows_labels.append(" ".join(labels[row[j]] for j in idx))
        if scores is not None:
            rows_scores.append(" ".join(repr(float(scores[i][j])) for j in idx))
    frame = pd.DataFrame({"id": ids, "labels": rows_labels})
    if scores is not None:
        frame["scores"] = rows_scores
    return frame.to_csv(index=False, lineterminator="\n")


def config(options=None, board="all", boards=None):
    import yaml
    raw = {"task": "multilabel", "board": board}
    if boards:
        raw["boards"] = {"file": boards}
    if options:
        raw["options"] = options
    return yaml.safe_dump(raw)


def score_in_process(tmp_path, files, submission, name="run"):
    """Score with the engine in this process (fast); returns the scores as written to scores.json."""
    from helpers import make_input, read_scores_json
    from scorer.platform.runner import run
    base = make_input(tmp_path, files, {"submission.csv": submission}, name=name)
    out = Path(tmp_path) / (name + "_out")
    run(str(base), str(out))
    return read_scores_json(out)

