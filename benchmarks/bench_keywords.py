#!/usr/bin/env python3
"""Benchmark of the keyword-set scorer against scikit-learn and the pandas I/O floor.

    .venv/bin/python benchmarks/bench_keywords.py [--sizes 100000 1000000]

For each number of samples: a generated gold (2 to 6 keywords per sample from a
vocabulary of 50,000 terms, joined by "_") and a damaged prediction (keywords
dropped, added, replaced; empty and missing rows) are written to a temp folder;
then, side by side:
- ours: score.py as a whole process (interpreter start, reading, validation, scoring, outputs), peak RSS;
- scikit-learn: pandas read + Python split into sets + MultiLabelBinarizer(sparse_output=True) +
  precision_recall_fscore_support(average="samples") and (average="micro");
- I/O floor: pandas.read_csv of the two files as strings.
The last column is the largest difference between our six scores and scikit-learn's
(scores.json has 10 decimals).
"""
import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import peer_rows, table

ROOT = Path(__file__).resolve().parents[1]


def make_files(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    vocabulary = np.array(["术语%05d" % i for i in range(50000)], dtype=object)
    size = rng.integers(2, 7, n)
    sample = np.repeat(np.arange(n), size)
    term = rng.zipf(1.3, len(sample)) % len(vocabulary)
    gold = pd.DataFrame({"s": sample, "k": vocabulary[term]}).drop_duplicates()
    kept = gold[rng.random(len(gold)) > 0.3]
    added = pd.DataFrame({"s": rng.integers(0, n, n), "k": vocabulary[rng.zipf(1.3, n) % len(vocabulary)]})
    pred = pd.concat([kept, added]).drop_duplicates()
    ids = np.char.add("doc", np.arange(n).astype(str)).astype(object)
    join = lambda frame: frame.groupby("s")["k"].agg("_".join)  # noqa: E731
    gold_cells = join(gold).reindex(range(n), fill_value="")
    pred_cells = join(pred).reindex(range(n), fill_value="")
    roll = rng.random(n)
    pred_cells[roll < 0.05] = ""                        # empty rows
    present = roll >= 0.02                              # missing rows
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    pd.DataFrame({"id": ids, "keywords": gold_cells.to_numpy()}).to_csv(ref / "gold.csv", index=False)
    pd.DataFrame({"id": ids[present], "keywords": pred_cells.to_numpy()[present]}).to_csv(
        res / "prediction.csv", index=False, sep="\t")
    (ref / "config.yaml").write_text("task: keywords\nboard: all\n", encoding="utf-8")
    return ref / "gold.csv", res / "prediction.csv", len(gold), len(pred)


def read(gold_path, pred_path):
    gold = pd.read_csv(gold_path, dtype=str, keep_default_na=False)
    pred = pd.read_csv(pred_path, sep="\t", dtype=str, keep_default_na=False)
    return gold, pred


def sklearn_scores(gold_path, pred_path):
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    gold, pred = read(gold_path, pred_path)
    by_id = dict(zip(pred["id"], pred["keywords"]))
    gold_sets = [set(filter(None, cell.split("_"))) for cell in gold["keywords"]]
    pred_sets = [set(filter(None, by_id.get(i, "").split("_"))) for i in gold["id"]]
    binarizer = MultiLabelBinarizer(sparse_output=True).fit(gold_sets + pred_sets)
    y_true, y_pred = binarizer.transform(gold_sets), binarizer.transform(pred_sets)
    out = {}
    for average, prefix in (("samples", "macro"), ("micro", "micro")):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        out.update({prefix + "_precision": p, prefix + "_recall": r, prefix + "_f1": f})
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100000, 1000000])
    args = parser.parse_args(argv)
    rows = peer_rows(args.sizes, make_files, sklearn_scores, read)
    print(table(["samples", "gold keywords", "pred keywords", "ours s (whole process)", "ours peak MiB",
                 "sklearn s", "pandas read s", "max |ours - sklearn|"], rows))


if __name__ == "__main__":
    main()
