#!/usr/bin/env python3
"""Peak memory of score.py on about 2 GiB of input, for each family, against the bound of the benchmarks.

    .venv/bin/python benchmarks/bench_memory.py [--gib 2] [--families bank_comments keywords ...]
                                                [--data FOLDER] [--program PATH]

Each family's input is made by its benchmark's own generator (``make_files`` of bench_<family>.py, written a
block of a million units at a time), with as many units as make about ``--gib`` GiB of the files the scorer
reads; score.py then runs once on it as the platforms run it (board ``all``, every output file), a fresh
process, and its peak resident memory is the operating system's (``getrusage`` of the finished child, as
``/usr/bin/time -v`` reports it). The bound is 3 times the input bytes + 150 MiB for the table families, 6 times
for emotion cause (FACTORS; docs/benchmarks.md).
``--data`` keeps the generated inputs there (and reuses them: the same input for two versions of the program);
``--program`` runs another copy of scoring_program/ instead of this one.
"""
import argparse
import importlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from _measure import MEMORY_FACTOR, MIB, input_bytes, load, machine, memory_bound_mib, prepare, run_measured, table

FAMILIES = {"bank_comments": "documents", "keywords": "samples", "multilabel": "samples",
            "view_sentiment": "sentences", "emotion_cause": "conversations", "regression": "items",
            "classification": "items"}
# family -> the factor of its bound, where it is not the tables' (an emotion-cause file is JSON, read whole into
# Python's objects, as the official scorer reads it)
FACTORS = {"emotion_cause": 6.0}
PROBE_UNITS = 20000   # units generated once to learn each family's bytes per unit


def files_of(module, folder, n):
    """The generator's files for ``n`` units in ``folder`` (made if absent), as (path, separator) pairs."""
    done = folder / "done"
    if not done.exists():
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        files = module.make_files(folder, n)
        done.write_text(json.dumps([[str(p.relative_to(folder)), s] for p, s in files]), encoding="utf-8")
    return [(folder / p, s) for p, s in json.loads(done.read_text(encoding="utf-8"))]


def units_for(module, target_bytes):
    """How many units make about ``target_bytes`` of input, from a small input of PROBE_UNITS units."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = input_bytes(module.make_files(Path(tmp), PROBE_UNITS))
    return int(float("%.2g" % (target_bytes / (probe / PROBE_UNITS))))   # two significant digits


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gib", type=float, default=2.0, help="input size per family, in GiB")
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--data", type=Path, help="keep (and reuse) the generated inputs in this folder")
    parser.add_argument("--program", type=Path, help="run this copy of scoring_program/ instead")
    args = parser.parse_args(argv)
    score = (args.program or Path(__file__).resolve().parents[1] / "scoring_program") / "score.py"
    print("score.py%s on %s" % (" of %s" % args.program if args.program else "", machine()))
    rows = []
    base = args.data or Path(tempfile.mkdtemp())
    try:
        for family in args.families:
            module = importlib.import_module("bench_%s" % family)
            n = units_for(module, args.gib * 2 ** 30)
            folder = base / ("%s_%d" % (family, n))
            files = files_of(module, folder, n)
            prepare(files, args.program)
            size = input_bytes(files)
            before = load()
            run = run_measured([sys.executable, score, folder / "input", folder / "out"])
            bound = memory_bound_mib(size, FACTORS.get(family, MEMORY_FACTOR))
            verdict = "met" if run["peak_mib"] <= bound else "NOT met"
            if run["rc"] != 0:
                verdict = "exit %d: %s" % (run["rc"], run["err"].strip()[-200:])
            rows.append([family, "%d %s" % (n, FAMILIES[family]), "%.0f" % (size / MIB), "%.1f" % run["wall"],
                         "%.0f" % run["peak_mib"], "%.2fx" % (run["peak_mib"] * MIB / size), "%.0f" % bound,
                         verdict, "%s / %s" % (before.split()[0], load().split()[0])])
            print("done: %s" % " | ".join(rows[-1]), file=sys.stderr, flush=True)
            if args.data is None:
                shutil.rmtree(folder)
    finally:
        if args.data is None:
            shutil.rmtree(base, ignore_errors=True)
    print()
    print(table(["family", "units", "input MiB", "wall s", "peak MiB", "peak / input", "bound MiB", "verdict",
                 "load (1 min) before / after"], rows))


if __name__ == "__main__":
    main()
