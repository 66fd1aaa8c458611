#!/usr/bin/env python3
"""Benchmark of the bank-comments scorer against seqeval + scikit-learn and the pandas I/O floor.

    .venv/bin/python benchmarks/bench_bank_comments.py [--sizes 10000 100000 1000000] [--oracle-max 100000]

For each size: generated gold and a damaged prediction (about 60 characters per
comment) are written to a temp folder; then, side by side:
- ours: score.py as a whole process (interpreter start, reading, validation, scoring, outputs), peak RSS;
- ours, metric only: the family's score() on already-read data (what seqeval's column measures too);
- seqeval + sklearn: f1_score(mode="strict", scheme=IOB2) + cohen_kappa_score on the already-split
  tag lists (reading and splitting not counted: their time only);
- I/O floor: pandas.read_csv of the two files as strings.
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


def make_files(folder, n_docs, seed=0):
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
    ids = np.arange(n_docs)
    ref = folder / "input" / "ref"
    res = folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    pd.DataFrame({"id": ids, "text": texts, "BIO_anno": g_rows, "class": cls}).to_csv(ref / "gold.csv", index=False)
    pd.DataFrame({"id": ids, "BIO_anno": p_rows, "class": pcls}).to_csv(res / "submission.csv", index=False)
    (ref / "config.yaml").write_text("task: bank_comments\nboard: all\n")
    return ref / "gold.csv", res / "submission.csv", total


def metric_only(folder):
    """Median time of the bank family's score() on data already read and validated."""
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.api import Competition

    comp = Competition.open(str(folder / "input" / "ref"))
    submission = comp.read_submission(str(folder / "input" / "res"))
    return best_of(lambda: comp.score(submission))[0]


def io_floor(gold, sub):
    def read():
        pd.read_csv(gold, dtype=str, keep_default_na=False)
        pd.read_csv(sub, dtype=str, keep_default_na=False)
    return best_of(read)[0]


def oracle(gold, sub):
    from seqeval.metrics import f1_score
    from seqeval.scheme import IOB2
    from sklearn.metrics import cohen_kappa_score
    g = pd.read_csv(gold, dtype=str, keep_default_na=False)
    s = pd.read_csv(sub, dtype=str, keep_default_na=False)
    g_tags = [r.split(" ") for r in g["BIO_anno"]]
    s_tags = [r.split(" ") for r in s["BIO_anno"]]
    t = time.perf_counter()
    f1 = f1_score(g_tags, s_tags, mode="strict", scheme=IOB2)
    kappa = cohen_kappa_score(g["class"].astype(int), s["class"].astype(int))
    return time.perf_counter() - t, 0.5 * f1 + 0.5 * kappa


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000, 1000000])
    parser.add_argument("--oracle-max", type=int, default=100000, help="largest size seqeval is run on")
    args = parser.parse_args(argv)
    rows = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            gold, sub, chars = make_files(folder, n)
            ours, peak, out = score_whole_process(folder / "input", folder)
            floor = io_floor(gold, sub)
            ours_metric = metric_only(folder)
            ours_score = float((out / "scores.txt").read_text().split("\n")[0].split(":")[1])
            if n <= args.oracle_max:
                peer, peer_score = oracle(gold, sub)
                assert abs(peer_score - ours_score) < 1e-9, (peer_score, ours_score)
                peer_text = "%.2f" % peer
                speedup = "%.0fx / %.0fx" % (peer / ours_metric, peer / ours)
            else:
                peer_text, speedup = "not run", "-"
            rows.append([n, "%.1fM" % (chars / 1e6), "%.2f" % ours, "%.0f" % peak, "%.2f" % ours_metric, peer_text,
                         speedup, "%.2f" % floor, "%.1fx" % (ours / floor)])
            print("done %d" % n, file=sys.stderr)
    print(table(["documents", "characters", "ours s (whole process)", "ours peak MiB", "ours s (metric only)",
                 "seqeval+sklearn s (metric only)", "speed-up (metric / whole)", "I/O floor s (read_csv x2)",
                 "ours whole / floor"], rows))


if __name__ == "__main__":
    main()
