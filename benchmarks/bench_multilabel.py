#!/usr/bin/env python3
"""Benchmark of the multi-label scorer: whole process against scikit-learn and pytrec_eval, the read floors.

    .venv/bin/python benchmarks/bench_multilabel.py [--sizes 10000 100000 300000 1000000] [--peer-max 1000000]

For each size: 28 classes (the GoEmotions shape), 1 to 3 gold labels per sample, and a submission
listing 10 labels per sample with distinct decreasing scores written with 6 decimals (so no
implementation has to break a tie). Then, each a fresh process:
- ours: score.py (interpreter start, imports, reading, validation, every metric, every output file), median of 3;
- scikit-learn: pandas reads both files, MultiLabelBinarizer builds the gold and predicted matrices and a
  dense score matrix is filled, then precision_recall_fscore_support (micro, macro, samples) and
  ndcg_score(k=3, ignore_ties=True);
- pytrec_eval: pandas reads both files, Python builds its dicts, map_cut_3 and ndcg_cut_3;
  the scores of both must equal ours to 1e-9;
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported);
- the bytes floor: reading the three files' bytes (labels.txt too).
With several sizes, the growth of our time from one size to the next is printed too.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main

ROOT = Path(__file__).resolve().parents[1]
N_CLASSES = 28
LISTED = 10
K = 3


def make_data(n, seed=0):
    """(gold indicator (n, C), ranked codes (n, LISTED), their scores (n, LISTED))."""
    rng = np.random.default_rng(seed)
    n_gold = rng.choice([1, 2, 3], size=n, p=[0.8, 0.15, 0.05])
    noise = rng.random((n, N_CLASSES))
    gold_order = np.argsort(noise, axis=1)
    gold = np.zeros((n, N_CLASSES), dtype=bool)
    for j in range(3):  # one pass per gold slot
        rows = np.flatnonzero(n_gold > j)
        gold[rows, gold_order[rows, j]] = True
    system = rng.random((n, N_CLASSES)) + 0.5 * gold
    ranked = np.argsort(-system, axis=1, kind="stable")[:, :LISTED]
    scores = (LISTED - np.arange(LISTED)) / LISTED + rng.random((n, LISTED)) * 0.01  # strictly decreasing
    return gold, ranked, np.round(scores, 6)


def _joined(names, codes_per_row):
    """Space-joined names per row, without a Python loop per row."""
    table_ = np.asarray(names, dtype=object)[codes_per_row]
    out = table_[:, 0].copy()
    for j in range(1, table_.shape[1]):
        out = out + " " + table_[:, j]
    return out


BLOCK = 1000000   # samples generated at once; a larger input is written block after block


def write_files(folder, gold, ranked, scores, first=0, append=False):
    """Samples first .. first + len(gold) - 1 written to (with ``append``, after the rows already in) the gold and
    the submission; labels.txt and config.yaml too."""
    labels = ["label_%02d" % c for c in range(N_CLASSES)]
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True, exist_ok=append)
    res.mkdir(parents=True, exist_ok=append)
    n = len(gold)
    ids = np.char.add("s", np.arange(first, first + n).astype(str))
    names = np.asarray(labels, dtype=object)
    gold_rows = pd.Series([""] * n, dtype=object)
    for c in range(N_CLASSES):  # one pass per class
        has = gold[:, c]
        gold_rows[has] = (gold_rows[has] + " " + names[c]).str.strip()
    mode, header = ("a", False) if append else ("w", True)
    pd.DataFrame({"id": ids, "labels": gold_rows}).to_csv(ref / "gold.csv", index=False, mode=mode, header=header)
    (ref / "labels.txt").write_text("\n".join(labels) + "\n")
    (ref / "config.yaml").write_text("task: multilabel\nboard: all\noptions: {k: 3, ndcg_gain: linear}\n")
    score_text = np.char.mod("%.6f", scores).astype(object)
    score_rows = score_text[:, 0].copy()
    for j in range(1, LISTED):
        score_rows = score_rows + " " + score_text[:, j]
    pd.DataFrame({"id": ids, "labels": _joined(labels, ranked), "scores": score_rows}).to_csv(
        res / "submission.csv", index=False, mode=mode, header=header)
    return ref / "gold.csv", res / "submission.csv"


def make_files(folder, n):
    """The gold and submission of ``n`` samples (block k drawn with seed k; up to BLOCK, one block)."""
    for k, first in enumerate(range(0, n, BLOCK)):
        gold, ranked, scores = make_data(min(BLOCK, n - first), seed=k)
        gold_path, sub_path = write_files(folder, gold, ranked, scores, first, append=k > 0)
    return [(gold_path, ","), (sub_path, ","), (folder / "input" / "ref" / "labels.txt", None)]


def _read(folder):
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    labels = (ref / "labels.txt").read_text().split()
    gold = pd.read_csv(ref / "gold.csv", dtype=str, keep_default_na=False)
    sub = pd.read_csv(res / "submission.csv", dtype=str, keep_default_na=False).set_index("id").loc[gold["id"]]
    return labels, gold, sub


def sklearn_peer(folder):
    from sklearn.metrics import ndcg_score, precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    labels, gold, sub = _read(folder)
    binarizer = MultiLabelBinarizer(classes=labels)
    y = binarizer.fit_transform([cell.split() for cell in gold["labels"]])
    listed = [cell.split() for cell in sub["labels"]]
    pred = binarizer.transform(listed)
    column = {label: k for k, label in enumerate(labels)}
    score = np.full(pred.shape, -1.0)
    rows = np.repeat(np.arange(len(listed)), [len(l) for l in listed])
    score[rows, [column[l] for row in listed for l in row]] = [float(v) for cell in sub["scores"] for v in cell.split()]
    micro = precision_recall_fscore_support(y, pred, average="micro", zero_division=0)
    precision_recall_fscore_support(y, pred, average="macro", zero_division=0)
    samples = precision_recall_fscore_support(y, pred, average="samples", zero_division=0)
    ndcg = ndcg_score(y, score, k=K, ignore_ties=True)
    return {"micro_f1": float(micro[2]), "sample_avg_f1": float(samples[2]), "ndcg_at_3": float(ndcg)}


def pytrec_peer(folder):
    import pytrec_eval

    labels, gold, sub = _read(folder)
    qrels = {i: {label: 1 for label in cell.split()} for i, cell in zip(gold["id"], gold["labels"])}
    run = {i: dict(zip(ls.split(), map(float, ss.split()))) for i, ls, ss in zip(gold["id"], sub["labels"],
                                                                                 sub["scores"])}
    result = pytrec_eval.RelevanceEvaluator(qrels, {"map_cut_%d" % K, "ndcg_cut_%d" % K}).evaluate(run)
    n = len(gold)
    return {"map_at_3": sum(v["map_cut_3"] for v in result.values()) / n,
            "ndcg_at_3": sum(v["ndcg_cut_3"] for v in result.values()) / n}


PEERS = {"sklearn": sklearn_peer, "pytrec_eval": pytrec_peer}


def main(argv=None):
    family_main(argv, __doc__, __file__, "multilabel", "samples", make_files, PEERS, [10000, 100000, 300000, 1000000], 1000000)


if __name__ == "__main__":
    main()
