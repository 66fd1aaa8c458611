"""Timing helpers for the benchmark scripts: whole-process wall time and peak memory of a command."""
import json
import subprocess
import sys
import time

_CHILD = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - t
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": p.returncode, "wall": wall, "peak_mib": peak_kib / 1024.0, "err": p.stderr.decode()[-500:]}))
"""


def run_measured(argv):
    """Run argv in a fresh process; returns dict(rc, wall seconds, peak_mib)."""
    out = subprocess.run([sys.executable, "-c", _CHILD] + list(argv), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def best_of(fn, repeat=3):
    """Median wall time of fn() over ``repeat`` runs, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2], result


def table(headers, rows):
    """A Markdown table, ready to paste into the README."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows])
