#!/usr/bin/env python3
"""Benchmark of the bank-comments scorer: whole process against seqeval + scikit-learn, the pandas and bytes floors.

    .venv/bin/python benchmarks/bench_bank_comments.py [--sizes 10000 100000 300000 1000000] [--peer-max 100000]

For each number of documents: a generated gold (id,text,BIO_anno,class; about 60 characters per comment)
and a damaged prediction (id,BIO_anno,class) are written to a temp folder; then, each a fresh process:
- ours: score.py (interpreter start, imports, reading, validation, scoring, every output file), median of 3;
- seqeval + sklearn: pandas reads both files, the tags are split in Python, then seqeval
  ``f1_score(mode="strict", scheme=IOB2)`` and scikit-learn ``cohen_kappa_score``; its score must equal ours
  to 1e-9 (run up to --peer-max documents: about 5 minutes at 1M);
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported), median of 3;
- the bytes floor: reading both files' bytes.
With several sizes, the growth of our time from one size to the next is printed too.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main

ROOT = Path(__file__).resolve().parents[1]
TAGS = np.array(["O", "B-BANK", "I-BANK", "B-PRODUCT", "I-PRODUCT", "B-COMMENTS_N", "I-COMMENTS_N",
                 "B-COMMENTS_ADJ", "I-COMMENTS_ADJ"])


def gold_codes(rng, n):
    idx = np.arange(n)
    is_start = rng.random(n) < 0.12
    kind = rng.integers(0, 4, n)
    length = rng.geometric(0.4, n)
    last = np.maximum.accumulate(np.where(is_start, idx, -1))
    safe = np.maximum(last, 0)
    within = (last >= 0) & (idx - safe < length[safe])
    return np.where(within, 1 + 2 * kind[safe] + (idx != safe), 0)


BLOCK = 1000000   # documents generated at once; a larger input is written block after block


def make_files(folder, n_docs, seed=0):
    """Gold and submission of ``n_docs`` documents in folder/input (block k drawn with seed + k; up to BLOCK, one
    block)."""
    ref = folder / "input" / "ref"
    res = folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    for k, first in enumerate(range(0, n_docs, BLOCK)):
        write_block(ref, res, first, min(BLOCK, n_docs - first), seed + k, append=k > 0)
    (ref / "config.yaml").write_text("task: bank_comments\nboard: all\n")
    return [(ref / "gold.csv", ","), (res / "submission.csv", ",")]


def write_block(ref, res, first, n_docs, seed, append):
    """Documents first .. first + n_docs - 1, written to (or after the rows already in) the gold and submission."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(20, 101, n_docs)
    total = int(lengths.sum())
    gold = gold_codes(rng, total)
    pred = gold.copy()
    noise = rng.random(total) < 0.05
    pred[noise] = rng.integers(0, 9, int(noise.sum()))
    cls = rng.choice(3, n_docs, p=[0.11, 0.05, 0.84])
    pcls = np.where(rng.random(n_docs) < 0.2, rng.integers(0, 3, n_docs), cls)
    bounds = np.concatenate(([0], np.cumsum(lengths)))
    gold_tags, pred_tags = TAGS[gold], TAGS[pred]
    g_rows = [" ".join(gold_tags[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    p_rows = [" ".join(pred_tags[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    texts = ["字" * int(k) for k in lengths]
    ids = np.arange(first, first + n_docs)
    mode, header = ("a", False) if append else ("w", True)
    pd.DataFrame({"id": ids, "text": texts, "BIO_anno": g_rows, "class": cls}).to_csv(ref / "gold.csv", index=False,
                                                                                      mode=mode, header=header)
    pd.DataFrame({"id": ids, "BIO_anno": p_rows, "class": pcls}).to_csv(res / "submission.csv", index=False,
                                                                        mode=mode, header=header)


def seqeval_peer(folder):
    """The peer's whole computation: read both files with pandas, split the tags, seqeval + scikit-learn."""
    from seqeval.metrics import f1_score
    from seqeval.scheme import IOB2
    from sklearn.metrics import cohen_kappa_score
    g = pd.read_csv(folder / "input" / "ref" / "gold.csv", dtype=str, keep_default_na=False)
    s = pd.read_csv(folder / "input" / "res" / "submission.csv", dtype=str, keep_default_na=False)
    f1 = f1_score([r.split(" ") for r in g["BIO_anno"]], [r.split(" ") for r in s["BIO_anno"]], mode="strict",
                  scheme=IOB2)
    kappa = cohen_kappa_score(g["class"].astype(int), s["class"].astype(int))
    return {"score": 0.5 * f1 + 0.5 * kappa}


def main(argv=None):
    family_main(argv, __doc__, __file__, "bank_comments", "documents", make_files, {"seqeval+sklearn": seqeval_peer}, [10000, 100000, 300000, 1000000], 100000)


if __name__ == "__main__":
    main()
