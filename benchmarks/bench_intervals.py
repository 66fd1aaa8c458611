#!/usr/bin/env python3
"""What the bootstrap interval of the primary score costs: whole-process time with and without it.

    .venv/bin/python benchmarks/bench_intervals.py [--sizes 100000] [--repeat 3]

For each family with generated data (the generators of the family's own benchmark), score.py runs as a
whole process on the same files, alternately with ``intervals: {resamples: 0}`` (no interval) and with the
default (1000 resamples, 95%), ``--repeat`` times each; the table gives the fastest run of each (the
machine's other work only ever adds time), the added share, and
the interval's own cost measured in process (building the per-unit table, grouping equal rows, drawing
and recomputing the score), with the number of distinct rows it resampled. Target: at most +20% at 100k
units.
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _measure import run_measured, table

ROOT = Path(__file__).resolve().parents[1]
SCORE = ROOT / "scoring_program" / "score.py"
sys.path.insert(0, str(ROOT / "scoring_program"))


def bank(folder, n):
    import bench_bank_comments
    bench_bank_comments.make_files(folder, n)


def view_sentiment(folder, n):
    import bench_view_sentiment
    bench_view_sentiment.make_files(folder, n)


def keywords(folder, n):
    import bench_keywords
    bench_keywords.make_files(folder, n)


def multilabel(folder, n):
    import bench_multilabel
    bench_multilabel.write_files(folder, *bench_multilabel.make_data(n))


FAMILIES = [("bank_comments", bank), ("view_sentiment", view_sentiment), ("keywords", keywords),
            ("multilabel", multilabel)]


def with_intervals(ref, resamples):
    config = ref / "config.yaml"
    text = config.read_text(encoding="utf-8").split("intervals:")[0]
    config.write_text(text + ("intervals: {resamples: %d}\n" % resamples), encoding="utf-8")


def whole(folder, repeat):
    """Fastest wall seconds of score.py, without and with the interval, runs interleaved."""
    times = {0: [], 1000: []}
    for k in range(repeat):
        for resamples in (0, 1000):
            with_intervals(folder / "input" / "ref", resamples)
            run = run_measured([sys.executable, str(SCORE), str(folder / "input"), str(folder / ("out%d" % k))])
            if run["rc"] != 0:
                raise SystemExit(run["err"])
            times[resamples].append(run["wall"])
    return {r: min(t) for r, t in times.items()}


def in_process(folder):
    """(seconds of the interval alone, distinct rows resampled, primary key), fastest of three."""
    from scorer.public import Competition, distinct_rows, primary_interval

    with_intervals(folder / "input" / "ref", 1000)
    comp = Competition.open(str(folder / "input" / "ref"))
    result = comp.score(comp.read_submission(str(folder / "input" / "res")))
    times = []
    for _ in range(3):
        t = time.perf_counter()
        primary_interval(comp, result)
        times.append(time.perf_counter() - t)
    distinct = len(distinct_rows(result.units_of(comp.cfg.primary_key).make()).counts)
    return min(times), distinct, comp.cfg.primary_key


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    for n in args.sizes:
        for name, make in FAMILIES:
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                make(folder, n)
                walls = whole(folder, args.repeat)
                alone, distinct, key = in_process(folder)
                rows.append([name, n, key, distinct, "%.2f" % walls[0], "%.2f" % walls[1000],
                             "%+.0f%%" % (100 * (walls[1000] / walls[0] - 1)), "%.3f" % alone])
                print("done %s %d" % (name, n), file=sys.stderr)
    print(table(["family", "units", "primary key", "distinct rows", "whole s (no interval)",
                 "whole s (1000 resamples)", "added", "interval alone s"], rows))


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
