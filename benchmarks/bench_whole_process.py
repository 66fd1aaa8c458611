#!/usr/bin/env python3
"""Whole process against whole process: score.py beside a process that only reads the same tables with pandas.

    .venv/bin/python benchmarks/bench_whole_process.py [--families bank_comments keywords ...] [--units 100000]
                                                        [--pairs 9]

For each family, its benchmark's generator writes ``--units`` units to a temp folder; then score.py (as the
platforms run it) and the yardstick, a fresh Python process that imports pandas and reads every table the scorer
reads with ``read_csv`` (as strings), run in turn, ``--pairs`` times after one run of each not counted. The
ratio is taken pair by pair (each score.py run over the yardstick run just after it), so a machine whose speed
drifts moves both sides of a ratio alike. Printed: each side's wall seconds and the ratio as min, median, max.
"""
import argparse
import importlib
import json
import statistics
import sys
import tempfile
from pathlib import Path

from _measure import SCORE, load, machine, prepare, run_measured, table

FAMILIES = ("bank_comments", "view_sentiment", "keywords", "multilabel", "classification", "regression")

_READ_ONLY = r"""
import json, sys
import pandas as pd
for path, sep in json.loads(sys.argv[1]):
    pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
"""


def spread(values, fmt):
    return (fmt % statistics.median(values), (fmt + "-" + fmt) % (min(values), max(values)))


def measure(family, units, pairs):
    """One row: the family, its input MB, score.py's and the yardstick's wall seconds and their ratio (median,
    min-max of each), the load before and after."""
    make = importlib.import_module("bench_" + family).make_files
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = make(folder, units)
        tables = json.dumps([(str(p), s) for p, s in files if s is not None])
        prepare(files)
        ours_argv = [sys.executable, SCORE, folder / "input", folder / "out"]
        yard_argv = [sys.executable, "-c", _READ_ONLY, tables]
        before = load()
        run_measured(ours_argv), run_measured(yard_argv)   # not counted
        ours, yard = [], []
        for _ in range(pairs):
            a, b = run_measured(ours_argv), run_measured(yard_argv)
            if a["rc"] != 0 or b["rc"] != 0:
                raise SystemExit("%s: a run failed: %s" % (family, a["err"] or b["err"]))
            ours.append(a["wall"])
            yard.append(b["wall"])
        size = sum(Path(p).stat().st_size for p, _ in files)
        ratios = [a / b for a, b in zip(ours, yard)]
        return ([family, units, "%.1f" % (size / 1e6)] + list(spread(ours, "%.2f")) + list(spread(yard, "%.2f"))
                + list(spread(ratios, "%.2fx")) + ["%s / %s" % (before.split()[0], load().split()[0])])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", nargs="+", choices=FAMILIES, default=list(FAMILIES))
    parser.add_argument("--units", type=int, default=100000)
    parser.add_argument("--pairs", type=int, default=9)
    args = parser.parse_args(argv)
    print("whole process, %d pairs, on %s" % (args.pairs, machine()))
    rows = []
    for family in args.families:
        rows.append(measure(family, args.units, args.pairs))
        print("done %s" % family, file=sys.stderr)
    print(table(["family", "units", "input MB", "ours s", "ours s min-max", "pandas process s",
                 "pandas process s min-max", "ours / pandas process", "min-max", "load (1 min) before / after"],
                rows))


if __name__ == "__main__":
    main()
