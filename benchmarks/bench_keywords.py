#!/usr/bin/env python3
"""Benchmark of the keyword-set scorer: whole process against scikit-learn, the read floors.

    .venv/bin/python benchmarks/bench_keywords.py [--sizes 100000 1000000]

For each number of samples: a generated gold (2 to 6 keywords per sample from a vocabulary of 50,000
terms, joined by "_") and a damaged prediction (keywords dropped, added, replaced; empty and missing rows,
TAB-separated) are written to a temp folder; then, each a fresh process:
- ours: score.py (interpreter start, imports, reading, validation, scoring, every output file), median of 3;
- scikit-learn: pandas reads both files, Python splits the cells into sets, MultiLabelBinarizer
  (sparse_output=True) and precision_recall_fscore_support (average="samples" and "micro"); its six
  scores must equal ours to 1e-9 (scores.json has 10 decimals);
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported);
- the bytes floor: reading both files' bytes.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main, input_folders, write_blocks

ROOT = Path(__file__).resolve().parents[1]


BLOCK = 1000000   # samples generated at once; a larger input is written block after block


def make_files(folder, n, seed=0):
    """Gold and prediction of ``n`` samples in folder/input (block k drawn with seed + k; up to BLOCK, one block)."""
    ref, res = input_folders(folder)
    write_blocks(ref, res, n, BLOCK, seed, write_block)
    (ref / "config.yaml").write_text("task: keywords\nboard: all\n", encoding="utf-8")
    return [(ref / "gold.csv", ","), (res / "prediction.csv", "\t")]


def write_block(ref, res, first, n, seed, append):
    """Samples first .. first + n - 1, written to (or after the rows already in) the gold and the prediction."""
    rng = np.random.default_rng(seed)
    vocabulary = np.array(["术语%05d" % i for i in range(50000)], dtype=object)
    size = rng.integers(2, 7, n)
    sample = np.repeat(np.arange(n), size)
    term = rng.zipf(1.3, len(sample)) % len(vocabulary)
    gold = pd.DataFrame({"s": sample, "k": vocabulary[term]}).drop_duplicates()
    kept = gold[rng.random(len(gold)) > 0.3]
    added = pd.DataFrame({"s": rng.integers(0, n, n), "k": vocabulary[rng.zipf(1.3, n) % len(vocabulary)]})
    pred = pd.concat([kept, added]).drop_duplicates()
    ids = np.char.add("doc", np.arange(first, first + n).astype(str)).astype(object)
    join = lambda frame: frame.groupby("s")["k"].agg("_".join)  # noqa: E731
    gold_cells = join(gold).reindex(range(n), fill_value="")
    pred_cells = join(pred).reindex(range(n), fill_value="")
    roll = rng.random(n)
    pred_cells[roll < 0.05] = ""                        # empty rows
    present = roll >= 0.02                              # missing rows
    mode, header = ("a", False) if append else ("w", True)
    pd.DataFrame({"id": ids, "keywords": gold_cells.to_numpy()}).to_csv(ref / "gold.csv", index=False, mode=mode,
                                                                         header=header)
    pd.DataFrame({"id": ids[present], "keywords": pred_cells.to_numpy()[present]}).to_csv(
        res / "prediction.csv", index=False, sep="\t", mode=mode, header=header)


def read(gold_path, pred_path):
    gold = pd.read_csv(gold_path, dtype=str, keep_default_na=False)
    pred = pd.read_csv(pred_path, sep="\t", dtype=str, keep_default_na=False)
    return gold, pred


def sklearn_scores(folder):
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    gold, pred = read(folder / "input" / "ref" / "gold.csv", folder / "input" / "res" / "prediction.csv")
    by_id = dict(zip(pred["id"], pred["keywords"]))
    gold_sets = [set(filter(None, cell.split("_"))) for cell in gold["keywords"]]
    pred_sets = [set(filter(None, by_id.get(i, "").split("_"))) for i in gold["id"]]
    binarizer = MultiLabelBinarizer(sparse_output=True).fit(gold_sets + pred_sets)
    y_true, y_pred = binarizer.transform(gold_sets), binarizer.transform(pred_sets)
    out = {}
    for average, prefix in (("samples", "macro"), ("micro", "micro")):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        out.update({prefix + "_precision": float(p), prefix + "_recall": float(r), prefix + "_f1": float(f)})
    return out


def main(argv=None):
    family_main(argv, __doc__, __file__, "keywords", "samples", make_files, {"sklearn": sklearn_scores}, [100000, 1000000])


if __name__ == "__main__":
    main()
