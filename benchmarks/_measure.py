"""Measuring helpers for the benchmark scripts: whole processes, read floors, the targets, Markdown tables.

Every timed command runs in a fresh process (``run_measured``): wall time from start to exit, peak resident
memory of that process. Before timing, the files are read once (so the operating system's cache holds them
for every contestant alike) and the scoring program's bytecode is compiled once (as after a first run on a
platform); each contestant then runs ``repeat`` times: the median wall time is reported, with the fastest and
the slowest run beside it (the spread says how noisy the machine was).
"""
import compileall
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCORE = ROOT / "scoring_program" / "score.py"
MIB = 2 ** 20
# the targets (see docs/benchmarks.md): time and memory against the input, growth from 100k to 1M units
TIME_FACTOR = 2.0
MEMORY_FACTOR, MEMORY_EXTRA_MIB = 3.0, 150.0
GROWTH_LIMIT = 11.0

_CHILD = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - t
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": p.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mib": usage.ru_maxrss / 1024.0, "err": p.stderr.decode()[-500:],
                  "out": p.stdout.decode()[-100000:]}))
"""

_PANDAS_FLOOR = r"""
import json, sys, time
import pandas as pd
files = json.loads(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter()
    for path, sep in files:
        pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    times.append(time.perf_counter() - t)
print(json.dumps(sorted(times)))
"""


def input_folders(folder):
    """(folder/input/ref, folder/input/res), made."""
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    return ref, res


def write_blocks(ref, res, n, block, seed, write_block):
    """``write_block(ref, res, first, size, seed + k, append)`` for block k of ``block`` units (the last one
    shorter), each block after the rows already written: an input of any size in the memory of one block."""
    for k, first in enumerate(range(0, n, block)):
        write_block(ref, res, first, min(block, n - first), seed + k, append=k > 0)


def run_measured(argv):
    """Run argv in a fresh process; returns dict(rc, wall seconds, cpu seconds (user + system), peak_mib, err, out)."""
    out = subprocess.run([sys.executable, "-c", _CHILD] + [str(a) for a in argv], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def whole_process(argv, repeat=3):
    """(median wall seconds, largest peak MiB, the last run) of ``repeat`` fresh runs of argv; stops on a failure."""
    runs = [run_measured(argv) for _ in range(repeat)]
    failed = [r for r in runs if r["rc"] != 0]
    if failed:
        raise SystemExit("%s failed: %s" % (" ".join(map(str, argv[:3])), failed[0]["err"]))
    return statistics.median(r["wall"] for r in runs), max(r["peak_mib"] for r in runs), runs[-1]


def score_whole_process(input_dir, out_base, repeat=3, program=None):
    """score.py run ``repeat`` times on INPUT: (median wall seconds, peak MiB, folder of the last run's outputs,
    median CPU seconds: user + system of all its threads, (min, max) wall seconds).

    ``program``: another copy of scoring_program/ to time instead of this one (to compare two versions).
    """
    out = Path(out_base) / "out"
    score = Path(program) / "score.py" if program else SCORE
    runs = [run_measured([sys.executable, score, input_dir, out]) for _ in range(repeat)]
    failed = [r for r in runs if r["rc"] != 0]
    if failed:
        raise SystemExit("score.py failed: %s" % failed[0]["err"])
    walls = [r["wall"] for r in runs]
    return (statistics.median(walls), max(r["peak_mib"] for r in runs), out,
            statistics.median(r["cpu"] for r in runs), (min(walls), max(walls)))


def pandas_floor(files, repeat=3):
    """(median, min, max) seconds pandas.read_csv takes to read ``files`` ((path, separator) pairs), in one process
    that has already imported pandas."""
    out = subprocess.run([sys.executable, "-c", _PANDAS_FLOOR, json.dumps([(str(p), s) for p, s in files]),
                          str(repeat)], capture_output=True, text=True, check=True)
    times = json.loads(out.stdout)
    return statistics.median(times), times[0], times[-1]


def bytes_floor(files, repeat=3):
    """Median seconds reading the bytes of ``files`` takes."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for path, _ in files:
            with open(path, "rb") as fh:
                fh.read()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def prepare(files, program=None):
    """Compile the scoring program's bytecode and read ``files`` once, so every timed run starts alike."""
    compileall.compile_dir(str(program or ROOT / "scoring_program"), quiet=1)
    bytes_floor(files, repeat=1)


def input_bytes(files):
    return sum(os.path.getsize(p) for p, _ in files)


def memory_bound_mib(n_bytes, factor=MEMORY_FACTOR):
    return factor * n_bytes / MIB + MEMORY_EXTRA_MIB


def machine():
    """One line on the machine and the load it carries now."""
    try:
        with open("/proc/meminfo") as fh:
            mem = int(fh.readline().split()[1]) / 2 ** 20
    except OSError:
        mem = float("nan")
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(l.split(":", 1)[1].strip() for l in fh if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import numpy
    import pandas
    return ("%d cores (%s), %.0f GiB, %s, Python %s, numpy %s, pandas %s; load average %s"
            % (os.cpu_count(), cpu, mem, platform.system(), platform.python_version(), numpy.__version__,
               pandas.__version__, load()))


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def agree(ours, theirs, who, tolerance=1e-9):
    """The largest |ours - theirs| over their keys; stops the benchmark when one is above ``tolerance``."""
    gap = max(abs(ours[k] - v) for k, v in theirs.items())
    if gap > tolerance:
        raise SystemExit("%s disagrees with us by %.3g: ours %r, theirs %r" % (who, gap, ours, theirs))
    return gap


def scores_of(out):
    return json.loads((Path(out) / "scores.json").read_text(encoding="utf-8"))


def verdicts(rows):
    """Lines saying where each size stands against the three targets; rows are dicts (see run_family)."""
    lines = []
    for r in rows:
        t_ok = r["ours_s"] <= TIME_FACTOR * r["pandas_s"]
        m_ok = r["ours_mib"] <= r["bound_mib"]
        lines.append("%s %s: time %.2f s = %.2fx the pandas read (target %.0fx: %s); peak %.0f MiB, bound %.0f MiB "
                     "(%s)" % (r["n"], r["unit"], r["ours_s"], r["ours_s"] / r["pandas_s"], TIME_FACTOR,
                               "met" if t_ok else "NOT met", r["ours_mib"], r["bound_mib"],
                               "met" if m_ok else "NOT met"))
    by_n = {r["n"]: r for r in rows}
    if 100000 in by_n and 1000000 in by_n:
        growth = by_n[1000000]["ours_s"] / by_n[100000]["ours_s"]
        lines.append("growth from 100k to 1M: %.1fx (target at most %.0fx: %s)"
                     % (growth, GROWTH_LIMIT, "met" if growth <= GROWTH_LIMIT else "NOT met"))
    return lines


def growth_table(rows):
    """Time and memory per size with the growth factor from the size before."""
    out, previous = [], None
    for r in rows:
        growth = "-" if previous is None else "%.1fx for %.0fx" % (r["ours_s"] / previous["ours_s"],
                                                                    r["n"] / previous["n"])
        out.append([r["n"], "%.1f" % (r["bytes"] / 1e6), "%.2f" % r["ours_s"], "%.0f" % r["ours_mib"], growth,
                    "%.2f" % (1e6 * r["ours_s"] / r["n"])])
        previous = r
    return table(["units", "input MB", "ours s", "ours MiB", "time growth", "us per unit"], out)


def table(headers, rows):
    """A Markdown table, ready to paste into docs/benchmarks.md."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows])


def run_family(family, unit, sizes, make, peers, peer_max, repeat=3, extra=None, program=None):
    """Measure one family at each size and print its table, the verdicts and (with several sizes) the growth.

    ``make(folder, n)`` writes INPUT into folder/input and returns the files the scorer reads as (path,
    separator) pairs (separator None: not a table); ``peers`` is [(label, script argv prefix)]: each peer
    runs as ``argv + [folder]`` and prints its scores as JSON; ``extra(folder, n)`` gives more cells;
    ``program`` times another copy of scoring_program/ instead of this one.
    """
    import tempfile

    print("%s on %s%s" % (family, machine(), "; program %s" % program if program else ""))
    rows, cells = [], []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files = make(folder, n)
            tables = [(p, s) for p, s in files if s is not None]
            prepare(files, program)
            before = load()
            ours, peak, out, cpu, (fastest, slowest) = score_whole_process(folder / "input", folder, repeat,
                                                                            program)
            mine = scores_of(out)
            floor, floor_min, floor_max = pandas_floor(tables, repeat)
            raw = bytes_floor(files)
            size = input_bytes(files)
            row = {"n": n, "unit": unit, "ours_s": ours, "ours_mib": peak, "pandas_s": floor, "bytes": size,
                   "bound_mib": memory_bound_mib(size)}
            line = [n, "%.1f" % (size / 1e6), "%.2f" % ours, "%.2f-%.2f" % (fastest, slowest), "%.2f" % cpu,
                    "%.0f" % peak, "%.0f" % row["bound_mib"], "%.2f" % floor, "%.2f-%.2f" % (floor_min, floor_max),
                    "%.3f" % raw, "%.2fx" % (ours / floor), "%.0fx" % (ours / raw)]
            for label, argv in peers:
                if n > peer_max:
                    line += ["not run", "-", "-", "-"]
                    continue
                wall, peer_peak, run = whole_process(list(argv) + [folder], repeat=1)
                gap = agree(mine, json.loads(run["out"]), label)
                line += ["%.2f" % wall, "%.0f" % peer_peak, "%.1fx" % (wall / ours), "%.1e" % gap]
            if extra is not None:
                line += extra(folder, n)
            line.append("%s / %s" % (before.split()[0], load().split()[0]))
            rows.append(row)
            cells.append(line)
            print("done %d" % n, file=sys.stderr)
    headers = [unit, "input MB", "ours s", "ours s min-max", "ours CPU s", "ours MiB", "bound MiB", "pandas read s",
               "pandas read s min-max", "bytes read s",
               "ours / pandas", "ours / bytes"]
    for label, _ in peers:
        headers += ["%s s" % label, "%s MiB" % label, "%s / ours" % label, "max |ours - %s|" % label]
    return rows, cells, headers


def add_common_arguments(parser, sizes, peer_max=10 ** 9):
    parser.add_argument("--sizes", type=int, nargs="+", default=sizes)
    parser.add_argument("--peer-max", type=int, default=peer_max, help="largest size the peers are run on")
    parser.add_argument("--repeat", type=int, default=3, help="runs of score.py and of the pandas read per size (the median is shown, "
                        "with the min-max)")
    parser.add_argument("--program", type=Path, help="time this copy of scoring_program/ instead (an older one)")


def family_main(argv, doc, script, family, unit, make_files, peers, sizes, peer_max=10 ** 9, extra=None,
                extra_headers=()):
    """The command line of a family's benchmark: time ours and each peer (``peers``: name -> fn(folder) ->
    scores, each run as ``script --peer NAME FOLDER`` in its own process) at every size, and print the tables;
    ``extra(folder, n, repeat)``: more cells of each size's row, under ``extra_headers`` (``run_family``)."""
    import argparse
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    add_common_arguments(parser, sizes, peer_max)
    parser.add_argument("--peer", nargs=2, help=argparse.SUPPRESS)  # NAME FOLDER: run that peer on the folder
    args = parser.parse_args(argv)
    if args.peer:
        print(json.dumps(peers[args.peer[0]](Path(args.peer[1]))))
        return
    commands = [(name, [sys.executable, script, "--peer", name]) for name in peers]
    rows, cells, headers = run_family(family, unit, args.sizes, make_files, commands, args.peer_max, args.repeat,
                                      extra=extra and (lambda folder, n: extra(folder, n, args.repeat)),
                                      program=args.program)
    report(rows, cells, headers, extra_headers, scaling=len(args.sizes) > 2)


def report(rows, cells, headers, extra_headers=(), scaling=False):
    print(table(headers + list(extra_headers) + ["load (1 min) before / after"], cells))
    print()
    for line in verdicts(rows):
        print("- " + line)
    if scaling:
        print()
        print(growth_table(rows))
