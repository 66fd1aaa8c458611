"""Timing helpers for the benchmark scripts: whole-process wall time and peak memory of a command."""
import json
import subprocess
import tempfile
import sys
import time
from pathlib import Path

SCORE = Path(__file__).resolve().parents[1] / "scoring_program" / "score.py"

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


def score_whole_process(input_dir, out_base, repeat=3):
    """Run score.py ``repeat`` times on INPUT (fresh processes, outputs in out_base/out<k>).

    Returns (median wall seconds, peak MiB, folder of the first run's outputs); a failed run stops
    the benchmark with score.py's stderr.
    """
    runs = [run_measured([sys.executable, str(SCORE), str(input_dir), str(Path(out_base) / ("out%d" % k))])
            for k in range(repeat)]
    failed = [r for r in runs if r["rc"] != 0]
    if failed:
        raise SystemExit(failed[0]["err"])
    return sorted(r["wall"] for r in runs)[len(runs) // 2], max(r["peak_mib"] for r in runs), Path(out_base) / "out0"


def peer_rows(sizes, make_files, peer, read):
    """One table row per size: counts, our whole process, a peer on the same files, the read time, the gap.

    ``make_files(folder, n)`` writes INPUT into folder and returns (gold, pred, n_gold, n_pred);
    ``peer(gold, pred)`` returns {score key: value}; ``read(gold, pred)`` reads both files with pandas.
    The gap is the largest difference between our scores.json and the peer on the peer's keys.
    """
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            gold_path, pred_path, n_gold, n_pred = make_files(folder, n)
            wall, peak, out = score_whole_process(folder / "input", folder, repeat=1)
            ours = json.loads((out / "scores.json").read_text())
            t_peer, theirs = best_of(lambda: peer(gold_path, pred_path), repeat=1)
            t_read, _ = best_of(lambda: read(gold_path, pred_path), repeat=3)
            gap = max(abs(ours[k] - theirs[k]) for k in theirs)
            rows.append([n, n_gold, n_pred, "%.2f" % wall, "%.0f" % peak, "%.2f" % t_peer, "%.2f" % t_read,
                         "%.1e" % gap])
    return rows


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
