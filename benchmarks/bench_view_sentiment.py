#!/usr/bin/env python3
"""Benchmark of the view-sentiment scorer: whole process against the source's set formula, the read floors.

    .venv/bin/python benchmarks/bench_view_sentiment.py [--sizes 100000 1000000]

For each number of sentences: a generated gold (about 1.5 views per sentence, TAB-separated), the list of
sentences and a damaged prediction (comma-separated) are written to a temp folder; then, each a fresh process:
- ours: score.py (interpreter start, imports, reading, validation, scoring, every output file), median of 3;
- set formula: the source document's computation written plainly (pandas reads gold and prediction, then
  Python sets of (SentenceId, View) and (SentenceId, View, Opinion) tuples); its F1 must equal ours to 1e-9;
- the pandas read floor: ``pandas.read_csv`` of the three files as strings (pandas already imported);
- the bytes floor: reading the three files' bytes.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main, input_folders, write_blocks

ROOT = Path(__file__).resolve().parents[1]
OPINIONS = np.array(["pos", "neu", "neg"])


BLOCK = 1000000   # sentences generated at once; a larger input is written block after block


def make_files(folder, n_sentences, seed=0):
    """Gold, sentence list and prediction of ``n_sentences`` in folder/input (block k drawn with seed + k; up to
    BLOCK, one block)."""
    ref, res = input_folders(folder)
    write_blocks(ref, res, n_sentences, BLOCK, seed, write_block)
    (ref / "config.yaml").write_text("task: view_sentiment\nboard: all\n", encoding="utf-8")
    return [(ref / "gold.csv", "\t"), (ref / "sentences.csv", ","), (res / "result.csv", ",")]


def write_block(ref, res, first, n_sentences, seed, append):
    """Sentences first .. first + n_sentences - 1, written to (or after the rows already in) the three files."""
    rng = np.random.default_rng(seed)
    width = max(7, len(str(first + n_sentences - 1)))   # np.char.zfill cuts longer numbers to its width
    ids = np.char.zfill(np.arange(first, first + n_sentences).astype(str), width).astype(object)
    views = np.array(["品牌%d型号%d" % (b, m) for b in range(200) for m in range(10)], dtype=object)
    per = rng.choice([0, 1, 1, 2, 2, 3], size=n_sentences)
    sentence = np.repeat(np.arange(n_sentences), per)
    view = rng.integers(0, len(views), len(sentence))
    gold = pd.DataFrame({"SentenceId": ids[sentence], "View": views[view],
                         "Opinion": OPINIONS[rng.choice(3, len(sentence), p=[0.33, 0.56, 0.11])]})
    gold = gold.drop_duplicates(["SentenceId", "View"])
    pred = gold[rng.random(len(gold)) > 0.1].copy()
    flip = rng.random(len(pred)) < 0.3
    pred.loc[flip, "Opinion"] = "neu"
    extra = pd.DataFrame({"SentenceId": ids[rng.integers(0, n_sentences, len(gold) // 10)],
                          "View": views[rng.integers(0, len(views), len(gold) // 10)], "Opinion": "neu"})
    pred = pd.concat([pred, extra]).drop_duplicates(["SentenceId", "View"])
    mode, header = ("a", False) if append else ("w", True)
    gold.to_csv(ref / "gold.csv", sep="\t", index=False, mode=mode, header=header)
    pd.DataFrame({"SentenceId": ids}).to_csv(ref / "sentences.csv", index=False, mode=mode, header=header)
    pred.to_csv(res / "result.csv", index=False, mode=mode, header=header)


def read(gold_path, pred_path):
    gold = pd.read_csv(gold_path, sep="\t", dtype=str, keep_default_na=False)
    pred = pd.read_csv(pred_path, dtype=str, keep_default_na=False)
    return gold, pred


def set_formula(folder):
    """The source's evaluate(), with tuples instead of concatenated strings."""
    gold, pred = read(folder / "input" / "ref" / "gold.csv", folder / "input" / "res" / "result.csv")
    s_key = set(zip(gold.SentenceId, gold.View))
    r_key = set(zip(pred.SentenceId, pred.View))
    tn = len(r_key & s_key)
    fn1, fn2 = len(s_key) - tn, len(r_key) - tn
    tp = len(set(zip(pred.SentenceId, pred.View, pred.Opinion)) & set(zip(gold.SentenceId, gold.View, gold.Opinion)))
    p = tp / (tn + fn2)
    r = tp / (tp + fn1)
    return {"f1": 2 * p * r / (p + r)}


def main(argv=None):
    family_main(argv, __doc__, __file__, "view_sentiment", "sentences", make_files, {"set formula": set_formula}, [100000, 1000000])


if __name__ == "__main__":
    main()
