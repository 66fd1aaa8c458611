#!/usr/bin/env python3
"""Re-scoring a competition's submissions: ``python3 -m organizer rescore`` on both boards, cold and cached.

    .venv/bin/python benchmarks/bench_rescore.py [--submissions 1000] [--jobs 2] [--repeat 3]
                                                 [--before PROJECT --before-submissions 100]

The competition is the shipped one (the top level: bank comments, 5,000 test comments, 2,000 on board A and
3,000 on board B). The submissions are the starting kit's sample with seeded changes, each different (every one
is scored, none is found in the cache), of a spread of quality as a final's are: each comment's class changed
with a probability drawn for the team from 0.02 to 0.4, and its tags all set to O with one from 0 to 0.2. Every
run is the organizer's command in a fresh process, as an organizer runs it:
``rescore . A SUBMISSIONS OUT -j JOBS``, which ranks board A and scores board B beside it, into a new OUT (cold),
then the same command again on the same OUT (nothing changed: every run comes from the cache). ``--before``
names another copy of the project (a checkout of an earlier commit) whose command is timed the same way, cold,
on the first ``--before-submissions`` submissions.

Prints the machine, then a Markdown table: per program and run, the submissions, the scorings (submissions x
boards), the wall time (median of ``--repeat`` runs, with the smallest and largest), scorings per second, and
the time per scoring.
"""
import argparse
import csv
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _measure import ROOT, load, machine, table

BOARDS = 2


def make_submissions(folder, n, seed=2024):
    """``n`` different submissions of a spread of quality, as a final's are: the kit's sample with each class
    changed with a probability drawn for the team from 0.02 to 0.4, and each row's tags all O with one from 0 to
    0.2, seeded."""
    rows = list(csv.reader(io.StringIO((ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8"),
                                       newline="")))
    header, body = rows[0], rows[1:]
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True)
    for k in range(n):
        flip = rng.random(len(body)) < rng.uniform(0.02, 0.4)
        shift = rng.integers(1, 3, len(body))
        blank = rng.random(len(body)) < rng.uniform(0.0, 0.2)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        for i, (unit, tags, cls) in enumerate(body):
            tags = " ".join("O" for _ in tags.split()) if blank[i] else tags
            cls = str((int(cls) + int(shift[i])) % 3) if flip[i] else cls
            writer.writerow([unit, tags, cls])
        (folder / ("team_%04d.csv" % k)).write_text(out.getvalue(), encoding="utf-8")


def timed(project, submissions, out, jobs):
    """Wall seconds of ``rescore`` of ``project`` (its own Python package, from its folder); stops on a failure."""
    argv = [sys.executable, "-m", "organizer", "rescore", str(project), "A", str(submissions), str(out), "-j",
            str(jobs)]
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=str(project), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit("rescore failed (%s): %s" % (project, proc.stderr[-2000:]))
    return wall, proc.stdout


def runs(project, submissions, work, jobs, repeat, cached=True):
    """(cold walls, cached walls): ``repeat`` cold runs, each into a new folder, each followed by a cached run."""
    cold, warm = [], []
    for r in range(repeat):
        out = work / ("out_%s_%d" % (project.name, r))
        wall, said = timed(project, submissions, out, jobs)
        cold.append(wall)
        if cached:
            warm.append(timed(project, submissions, out, jobs)[0])
        shutil.rmtree(out)
    return cold, warm


def row(label, run, n, walls):
    median = statistics.median(walls)
    scorings = n * BOARDS
    return [label, run, n, scorings, "%.1f" % median, "%.1f-%.1f" % (min(walls), max(walls)),
            "%.1f" % (scorings / median), "%.0f" % (1000 * median / scorings)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another copy of the project to time the same way")
    parser.add_argument("--before-submissions", type=int, default=100)
    parser.add_argument("--before-repeat", type=int, default=1)
    args = parser.parse_args(argv)
    print(machine())
    with tempfile.TemporaryDirectory(prefix="bench-rescore-") as tmp:
        work = Path(tmp)
        submissions = work / "submissions"
        make_submissions(submissions, args.submissions)
        rows = []
        if args.before:
            subset = work / "subset"
            subset.mkdir()
            for path in sorted(submissions.iterdir())[:args.before_submissions]:
                shutil.copy(path, subset / path.name)
            before = Path(args.before).resolve()
            print("before: %s, load %s" % (before, load()))
            cold, warm = runs(before, subset, work, args.jobs, args.before_repeat)
            rows += [row("before", "cold", args.before_submissions, cold),
                     row("before", "cached", args.before_submissions, warm)]
        print("ours: %s, load %s" % (ROOT, load()))
        cold, warm = runs(ROOT, submissions, work, args.jobs, args.repeat)
        rows += [row("ours", "cold", args.submissions, cold), row("ours", "cached", args.submissions, warm)]
        print("load after: %s" % load())
        print(table(["program", "run", "submissions", "scorings", "wall s (median)", "wall s (min-max)",
                     "scorings per s", "ms per scoring"], rows))


if __name__ == "__main__":
    main()
