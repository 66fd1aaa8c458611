#!/usr/bin/env python3
"""Benchmark of the emotion-cause scorer against the official SemEval-2024 Task 3 CodaLab scorer.

    .venv/bin/python benchmarks/bench_emotion_cause.py [--official PATH/TO/evaluate.py] [--scale 10] [--repeat 3]

Two data sets, each with both subtasks and a damaged submission (organizer/demo_data/emotion_cause.py, damage()):
- the real test gold (shared/data/ecac/Subtask_{1,2}_test.json, 341 conversations), when present;
- generated conversations, ``scale`` times as many as the test set.
Whole processes are timed (interpreter start, reading, validation, scoring, outputs): ours is
scoring_program/score.py, the official one evaluate.py (not part of this project: pass its path; without
it the column says n/a). Where both ran, the largest difference over the official keys is shown.
"""
import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from _measure import run_measured, table

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "data" / "ecac"
sys.path.insert(0, str(ROOT))
from organizer.demo_data.emotion_cause import damage, make_gold  # noqa: E402

CONFIG = "task: emotion_cause\nfiles: {subtask1_gold: Subtask_1_gold.json, subtask2_gold: Subtask_2_gold.json}\n"


def write_input(folder, gold1, gold2, seed):
    pred1, pred2 = damage(gold1, gold2, seed)
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    for name, value in (("Subtask_1_gold.json", gold1), ("Subtask_2_gold.json", gold2)):
        (ref / name).write_text(json.dumps(value), encoding="utf-8")
    for name, value in (("Subtask_1_pred.json", pred1), ("Subtask_2_pred.json", pred2)):
        (res / name).write_text(json.dumps(value), encoding="utf-8")
    (ref / "config.yaml").write_text(CONFIG, encoding="utf-8")
    return folder / "input", sum(len(c["emotion-cause_pairs"]) for c in pred1 + pred2)


BLOCK = 50000   # conversations generated at a time by make_files


def make_files(folder, n, seed=11):
    """Gold and prediction of ``n`` generated conversations in folder/input (block k of BLOCK made with seed + k,
    its ids following the block before), each JSON list written a block at a time, so that an input of
    gigabytes needs no gigabytes of Python objects to be made. The files the scorer reads, as
    (path, separator) pairs (no separator: JSON)."""
    ref, res = folder / "input" / "ref", folder / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir(parents=True)
    names = (ref / "Subtask_1_gold.json", ref / "Subtask_2_gold.json", res / "Subtask_1_pred.json",
             res / "Subtask_2_pred.json")
    handles = [open(path, "w", encoding="utf-8") for path in names]
    try:
        for fh in handles:
            fh.write("[")
        written = [False] * len(handles)
        for k, first in enumerate(range(0, n, BLOCK)):
            gold1, gold2 = make_gold(min(BLOCK, n - first), seed + k, first_id=first + 1)
            for i, value in enumerate((gold1, gold2) + tuple(damage(gold1, gold2, seed + k))):
                if value:
                    handles[i].write((", " if written[i] else "") + json.dumps(value)[1:-1])
                    written[i] = True
        for fh in handles:
            fh.write("]")
    finally:
        for fh in handles:
            fh.close()
    (ref / "config.yaml").write_text(CONFIG + "board: all\n", encoding="utf-8")
    return [(path, None) for path in names]


def read_scores(path):
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            key, value = line.split(":")
            out[key.strip()] = float(value)
    return out


def median_run(argv, repeat):
    runs = [run_measured(argv) for _ in range(repeat)]
    for r in runs:
        if r["rc"] != 0:
            raise SystemExit("failed: %s\n%s" % (" ".join(argv), r["err"]))
    runs.sort(key=lambda r: r["wall"])
    return runs[len(runs) // 2]


def bench(label, gold1, gold2, args, tmp):
    folder = Path(tempfile.mkdtemp(dir=tmp))
    input_dir, n_pred = write_input(folder, gold1, gold2, seed=7)
    ours = median_run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(input_dir),
                       str(folder / "ours")], args.repeat)
    row = [label, len(gold1), sum(len(c["emotion-cause_pairs"]) for c in gold1 + gold2), n_pred,
           "%.2f" % ours["wall"], "%.0f" % ours["peak_mib"]]
    if args.official and Path(args.official).is_file():
        (folder / "official").mkdir()
        official = median_run([sys.executable, str(args.official), str(input_dir), str(folder / "official")],
                              args.official_repeat)
        theirs = read_scores(folder / "official" / "scores.txt")
        mine = json.loads((folder / "ours" / "scores.json").read_text(encoding="utf-8"))
        delta = max(abs(mine[k] - v) for k, v in theirs.items())
        row += ["%.2f" % official["wall"], "%.0f" % official["peak_mib"], "%.1fx" % (official["wall"] / ours["wall"]),
                "%.1e" % delta]
    else:
        row += ["n/a", "n/a", "n/a", "n/a"]
    shutil.rmtree(folder)
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official", help="path of the official evaluate.py (optional)")
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="runs of ours (median)")
    parser.add_argument("--official-repeat", type=int, default=1, help="runs of the official scorer (median)")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        n = 341
        if (REAL / "Subtask_1_test.json").is_file():
            gold1 = json.loads((REAL / "Subtask_1_test.json").read_text(encoding="utf-8"))
            gold2 = json.loads((REAL / "Subtask_2_test.json").read_text(encoding="utf-8"))
            n = len(gold1)
            rows.append(bench("real test set", gold1, gold2, args, tmp))
        gold1, gold2 = make_gold(n * args.scale, seed=11)
        rows.append(bench("generated, %dx" % args.scale, gold1, gold2, args, tmp))
    print(table(["data", "conversations", "gold pairs (S1+S2)", "predicted pairs", "ours s", "ours MiB",
                 "official s", "official MiB", "official/ours", "max |diff|"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
