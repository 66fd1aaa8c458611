#!/usr/bin/env python3
"""Benchmark of the single-label classification scorer: whole process against scikit-learn, the read floors.

    .venv/bin/python benchmarks/bench_classification.py [--sizes 100000 1000000]

For each number of items: 6 classes with unequal shares, a gold ``id,label`` and a submission of one
probability column per class (``submission: probabilities``, so every key is scored: the label keys from each
row's highest column, log loss, one-vs-rest ROC AUC, average precision, top-2 accuracy). Each probability is
a multiple of 1e-6 written with 6 decimals, a row's six summing to exactly 1 (so scikit-learn's multi-class
AUC takes the rows as they are); rows lean towards their gold class, and some values repeat (ties). Then,
each a fresh process:
- ours: score.py (interpreter start, imports, reading, validation, every key, the bootstrap interval, every
  output file), median of 3;
- scikit-learn: pandas reads both files, the rows put in the gold's order, then every key we write:
  accuracy_score, balanced_accuracy_score, precision_recall_fscore_support (macro, weighted), cohen_kappa_score,
  matthews_corrcoef, log_loss (of the rows divided by their sums), roc_auc_score (ovr, macro),
  average_precision_score and top_k_accuracy_score; its scores must equal ours to 1e-9 (top-k: the classes
  renumbered in reverse, as tests/test_classification_oracles.py explains, so that ties rank alike);
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported);
- the bytes floor: reading the three files' bytes (labels.txt too).
"""
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main, input_folders

CLASSES = ["billing", "delivery", "refund", "account", "technical", "other"]
SHARE = [0.3, 0.25, 0.15, 0.12, 0.1, 0.08]
TOP_K = 2
UNIT = 10 ** 6   # probabilities are multiples of 1 / UNIT
BLOCK = 1000000  # items generated at once; a larger input is written block after block


def make_data(n, seed=0):
    """(gold codes, probability numerators (n, classes), each row summing to UNIT, every value in [1, UNIT))."""
    rng = np.random.default_rng(seed)
    width = len(CLASSES)
    gold = rng.choice(width, size=n, p=SHARE)
    raw = rng.random((n, width)) + 1.2 * np.eye(width)[gold] * (rng.random(n) < 0.6)[:, None]
    raw = np.round(raw, 2)   # a coarse grid before normalising: equal values in rows and across items
    share = np.floor(raw / raw.sum(axis=1, keepdims=True) * UNIT).astype(np.int64)
    share = np.maximum(share, 1)
    top = np.argmax(share, axis=1)
    share[np.arange(n), top] += UNIT - share.sum(axis=1)   # the rounding's rest on the highest: rows sum to UNIT
    return gold, share


def write_block(folder, gold, share, first, seed):
    """Items first .. first + len(gold) - 1 appended to the gold and the submission (the files begun at 0), the
    submission's rows of the block shuffled with ``seed`` (another order than the gold's)."""
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    n = len(gold)
    ids = np.char.add("item", np.arange(first, first + n).astype(str)).astype(object)
    names = np.asarray(CLASSES, dtype=object)
    more = dict(mode="a", header=False) if first else {}
    pd.DataFrame({"id": ids, "label": names[gold]}).to_csv(ref / "gold.csv", index=False, **more)
    columns = {"id": ids}
    for c, name in enumerate(CLASSES):
        columns[name] = np.char.mod("0.%06d", share[:, c])
    order = np.random.default_rng(seed).permutation(n)
    pd.DataFrame(columns).iloc[order].to_csv(res / "submission.csv", index=False, **more)


def make_files(folder, n):
    """The gold and submission of ``n`` items, a block of BLOCK at a time (block k drawn with seed k, its
    submission rows shuffled with seed k + 1; up to BLOCK items, one block)."""
    ref, res = input_folders(folder)
    (ref / "labels.txt").write_text("\n".join(CLASSES) + "\n", encoding="utf-8")
    (ref / "config.yaml").write_text("task: classification\nboard: all\noptions: {submission: probabilities, "
                                     "top_k: %d}\n" % TOP_K, encoding="utf-8")
    for k, first in enumerate(range(0, n, BLOCK)):
        gold, share = make_data(min(BLOCK, n - first), seed=k)
        write_block(folder, gold, share, first, seed=k + 1)
    return [(ref / "gold.csv", ","), (res / "submission.csv", ","), (ref / "labels.txt", None)]


def sklearn_scores(folder):
    from sklearn.metrics import (accuracy_score, average_precision_score, balanced_accuracy_score,
                                 cohen_kappa_score, log_loss, matthews_corrcoef, precision_recall_fscore_support,
                                 roc_auc_score, top_k_accuracy_score)

    ref, res = folder / "input" / "ref", folder / "input" / "res"
    classes = (ref / "labels.txt").read_text(encoding="utf-8").split()
    gold = pd.read_csv(ref / "gold.csv", dtype=str, keep_default_na=False)
    sub = pd.read_csv(res / "submission.csv", dtype={"id": str}, keep_default_na=False).set_index("id")
    proba = sub.loc[gold["id"], classes].to_numpy(dtype=float)
    code = {c: k for k, c in enumerate(classes)}
    y = gold["label"].map(code).to_numpy()
    p = np.argmax(proba, axis=1)   # the first highest column: the class declared first
    labels = list(range(len(classes)))
    # every key we write (docs/classification.md: macro average, no ordinal order, so no quadratic-weighted kappa)
    out = {"accuracy": accuracy_score(y, p), "balanced_accuracy": balanced_accuracy_score(y, p),
           "cohen_kappa": cohen_kappa_score(y, p), "mcc": matthews_corrcoef(y, p)}
    pr, rc, f, _ = precision_recall_fscore_support(y, p, average="macro", zero_division=0)
    out.update(precision=pr, recall=rc, f1=f)
    pr, _, f, _ = precision_recall_fscore_support(y, p, average="weighted", zero_division=0)
    out.update(weighted_precision=pr, weighted_f1=f)
    # log loss reads each row divided by its sum (these rows sum to 1 but for the last bits)
    out["log_loss"] = log_loss(y, proba / proba.sum(axis=1, keepdims=True), labels=labels)
    out["roc_auc"] = roc_auc_score(y, proba, multi_class="ovr", labels=labels)
    out["average_precision"] = average_precision_score(y, proba)
    width = len(classes)
    out["top_k_accuracy"] = top_k_accuracy_score(width - 1 - y, proba[:, ::-1], k=TOP_K, labels=labels)
    return {k: float(v) for k, v in out.items()}


def main(argv=None):
    family_main(argv, __doc__, __file__, "classification", "items", make_files, {"sklearn": sklearn_scores},
                [100000, 1000000])


if __name__ == "__main__":
    main()
