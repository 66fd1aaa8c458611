#!/usr/bin/env python3
"""Benchmark of the multi-label scorer against scikit-learn, pytrec_eval and the pandas I/O floor.

    .venv/bin/python benchmarks/bench_multilabel.py [--sizes 100000 1000000] [--oracle-max 1000000]

For each size: 28 classes (the GoEmotions shape), 1 to 3 gold labels per sample,
and a submission listing 10 labels per sample with distinct decreasing scores
(so no implementation has to break a tie). Side by side:
- ours: score.py as a whole process (start, reading, validation, every metric, outputs), median of 3, peak RSS;
- scikit-learn: precision_recall_fscore_support (micro, macro, samples) + ndcg_score(k=3, ignore_ties=True)
  on dense matrices that are already built (reading and building not counted);
- pytrec_eval: map_cut_3 + ndcg_cut_3, building its dicts from the arrays counted, reading not;
- I/O floor: pandas.read_csv of the two files as strings.
The scores of the three are checked to agree (1e-9) before the table is printed.
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import best_of, score_whole_process, table

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


def write_files(folder, gold, ranked, scores):
    labels = ["label_%02d" % c for c in range(N_CLASSES)]
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    n = len(gold)
    ids = np.char.add("s", np.arange(n).astype(str))
    names = np.asarray(labels, dtype=object)
    gold_rows = pd.Series([""] * n, dtype=object)
    for c in range(N_CLASSES):  # one pass per class
        has = gold[:, c]
        gold_rows[has] = (gold_rows[has] + " " + names[c]).str.strip()
    pd.DataFrame({"id": ids, "labels": gold_rows}).to_csv(ref / "gold.csv", index=False)
    (ref / "labels.txt").write_text("\n".join(labels) + "\n")
    (ref / "config.yaml").write_text("task: multilabel\nboard: all\noptions: {k: 3, ndcg_gain: linear}\n")
    score_text = np.char.mod("%.6f", scores).astype(object)
    score_rows = score_text[:, 0].copy()
    for j in range(1, LISTED):
        score_rows = score_rows + " " + score_text[:, j]
    pd.DataFrame({"id": ids, "labels": _joined(labels, ranked), "scores": score_rows}).to_csv(
        res / "submission.csv", index=False)
    return ref / "gold.csv", res / "submission.csv"


def dense(ranked, scores):
    n = len(ranked)
    pred = np.zeros((n, N_CLASSES), dtype=np.int8)
    score = np.full((n, N_CLASSES), -1.0)
    rows = np.repeat(np.arange(n), LISTED)
    pred[rows, ranked.ravel()] = 1
    score[rows, ranked.ravel()] = scores.ravel()
    return pred, score


def sklearn_run(gold, pred, score):
    from sklearn.metrics import ndcg_score, precision_recall_fscore_support
    y = gold.astype(np.int8)
    t = time.perf_counter()
    micro = precision_recall_fscore_support(y, pred, average="micro", zero_division=0)
    precision_recall_fscore_support(y, pred, average="macro", zero_division=0)
    samples = precision_recall_fscore_support(y, pred, average="samples", zero_division=0)
    ndcg = ndcg_score(y, score, k=K, ignore_ties=True)
    return time.perf_counter() - t, {"micro_f1": micro[2], "sample_avg_f1": samples[2], "ndcg_at_3": ndcg}


def pytrec_run(gold, ranked, scores):
    import pytrec_eval
    labels = ["label_%02d" % c for c in range(N_CLASSES)]
    t = time.perf_counter()
    qrels = {str(i): {labels[c]: 1 for c in np.flatnonzero(row)} for i, row in enumerate(gold)}
    run = {str(i): dict(zip([labels[c] for c in r], s.tolist())) for i, (r, s) in enumerate(zip(ranked, scores))}
    result = pytrec_eval.RelevanceEvaluator(qrels, {"map_cut_%d" % K, "ndcg_cut_%d" % K}).evaluate(run)
    elapsed = time.perf_counter() - t
    n = len(gold)
    return elapsed, {"map_at_3": sum(v["map_cut_3"] for v in result.values()) / n,
                     "ndcg_at_3": sum(v["ndcg_cut_3"] for v in result.values()) / n}


def io_floor(gold_path, sub_path):
    def read():
        pd.read_csv(gold_path, dtype=str, keep_default_na=False)
        pd.read_csv(sub_path, dtype=str, keep_default_na=False)
    return best_of(read)[0]


def _ours_scores(out):
    pairs = [l.split(":") for l in (out / "scores.txt").read_text().splitlines() if l]
    return {k.strip(): float(v) for k, v in pairs}


def _agree(ours, other, who):
    for key, value in other.items():
        assert abs(ours[key] - value) < 1e-9, (who, key, ours[key], value)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100000, 1000000])
    parser.add_argument("--oracle-max", type=int, default=1000000, help="largest size the oracles are run on")
    args = parser.parse_args(argv)
    rows = []
    for n in args.sizes:
        gold, ranked, scores = make_data(n)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            gold_path, sub_path = write_files(folder, gold, ranked, scores)
            size_mb = (gold_path.stat().st_size + sub_path.stat().st_size) / 1e6
            ours, peak, out = score_whole_process(folder / "input", folder)
            floor = io_floor(gold_path, sub_path)
            ours_scores = _ours_scores(out)
        if n <= args.oracle_max:
            pred, score = dense(ranked, scores)
            sk_time, sk_scores = sklearn_run(gold, pred, score)
            _agree(ours_scores, sk_scores, "sklearn")
            del pred, score
            tr_time, tr_scores = pytrec_run(gold, ranked, scores)
            _agree(ours_scores, tr_scores, "pytrec_eval")
            sk_text, tr_text = "%.2f" % sk_time, "%.2f" % tr_time
        else:
            sk_text = tr_text = "not run"
        rows.append([n, "%.0f" % size_mb, "%.2f" % ours, "%.0f" % peak, sk_text, tr_text, "%.2f" % floor,
                     "%.1fx" % (ours / floor)])
        print("done %d" % n, file=sys.stderr)
    print(table(["samples", "files MB", "ours s (whole process)", "ours peak MiB", "sklearn s (metrics only)",
                 "pytrec_eval s (dicts + eval)", "pandas read s", "ours / read"], rows))


if __name__ == "__main__":
    main()
