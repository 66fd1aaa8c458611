#!/usr/bin/env python3
"""Benchmark of the regression scorer: whole process against scikit-learn and scipy, the read floors.

    .venv/bin/python benchmarks/bench_regression.py [--sizes 100000 1000000] [--resamples 1000]

For each number of items: a generated gold (log-normal values written with 6 significant digits, a tenth of
them repeated ratings so that ranks tie) and a prediction (the gold times a noise, with every digit a double
has, in another row order) are written to a temp folder, a million items at a time; then, each a fresh
process:
- ours: score.py (interpreter start, imports, reading, validation, scoring, every output file, the report's
  residual table and binned scatter), median of 3;
- scikit-learn + scipy: pandas reads both files (the value as a float), the rows are matched by id, then
  sklearn.metrics (mean_squared_error, root_mean_squared_error, mean_absolute_error,
  root_mean_squared_log_error, median_absolute_error, mean_absolute_percentage_error, r2_score) and
  scipy.stats (pearsonr, spearmanr, kendalltau); sMAPE (neither has it) from its formula in numpy; every key
  must equal ours to 1e-9 (scores.json has 10 decimals);
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported);
- the bytes floor: reading both files' bytes.

``--resamples`` sets the config's ``intervals: {resamples: N}`` (default 1000, the platforms' default; 0: no
interval). Every unit's squared error differs, so past 2^24 draws the primary score's bootstrap sums the bulk
of the units by the central limit theorem (docs/report.md, "Large boards of distinct rows").
"""
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from _measure import family_main, input_folders, write_blocks

ROOT = Path(__file__).resolve().parents[1]
RESAMPLES = 1000
BLOCK = 1000000   # items generated and written at a time


def make_files(folder, n, seed=0):
    """Gold and prediction of ``n`` items in folder/input (block k drawn with seed + k; up to BLOCK, one block)."""
    ref, res = input_folders(folder)
    write_blocks(ref, res, n, BLOCK, seed, write_block)
    # every key, RMSLE included (off by default: the values here are never negative)
    (ref / "config.yaml").write_text("task: regression\nboard: all\noptions: {rmsle: true}\n"
                                     "intervals: {resamples: %d}\n" % RESAMPLES, encoding="utf-8")
    return [(ref / "gold.csv", ","), (res / "prediction.csv", ",")]


def write_block(ref, res, first, n, seed, append):
    """Items first .. first + n - 1, written to (or after the rows already in) the gold and the prediction (whose
    rows come in another order within the block)."""
    rng = np.random.default_rng(seed)
    gold = np.round(rng.lognormal(5.0, 1.0, n), 1)
    rated = rng.random(n) < 0.1
    gold[rated] = rng.integers(1, 6, int(rated.sum()))          # ties
    pred = gold * rng.lognormal(0.0, 0.3, n) + rng.normal(0, 5, n).clip(0, None)
    ids = np.char.add("item", np.arange(first, first + n).astype(str)).astype(object)
    order = rng.permutation(n)
    mode, header = ("a", False) if append else ("w", True)
    pd.DataFrame({"id": ids, "value": gold}).to_csv(ref / "gold.csv", index=False, float_format="%.6g", mode=mode,
                                                    header=header)
    pd.DataFrame({"id": ids[order], "value": pred[order]}).to_csv(res / "prediction.csv", index=False, mode=mode,
                                                                  header=header)


def sklearn_scores(folder):
    from scipy import stats
    from sklearn import metrics

    gold = pd.read_csv(folder / "input" / "ref" / "gold.csv", dtype={"id": str})
    pred = pd.read_csv(folder / "input" / "res" / "prediction.csv", dtype={"id": str})
    y = gold["value"].to_numpy(float)
    p = pred.set_index("id")["value"].reindex(gold["id"]).to_numpy(float)
    scale = np.abs(y) + np.abs(p)
    return {"rmse": metrics.root_mean_squared_error(y, p), "mae": metrics.mean_absolute_error(y, p),
            "mse": metrics.mean_squared_error(y, p), "rmsle": metrics.root_mean_squared_log_error(y, p),
            "median_ae": metrics.median_absolute_error(y, p),
            "mape": metrics.mean_absolute_percentage_error(y, p),
            "smape": float(np.mean(np.divide(2 * np.abs(p - y), scale, out=np.zeros(len(y)), where=scale > 0))),
            "r2": metrics.r2_score(y, p), "pearson": float(stats.pearsonr(y, p)[0]),
            "spearman": float(stats.spearmanr(y, p)[0]), "kendall": float(stats.kendalltau(y, p)[0])}


def main(argv=None):
    global RESAMPLES
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--resamples" in argv:
        at = argv.index("--resamples")
        RESAMPLES = int(argv[at + 1])
        del argv[at:at + 2]
    family_main(argv, __doc__, __file__, "regression", "items", make_files,
                {"sklearn+scipy": sklearn_scores}, [100000, 1000000])


if __name__ == "__main__":
    main()
