#!/usr/bin/env python3
"""Benchmark of the qa scorer: whole process against SQuAD 2.0's formula in plain Python, the read floors.

    .venv/bin/python benchmarks/bench_qa.py [--sizes 100000] [--rules squad_v2|cmrc2018]

For each number of questions: a generated gold (gold.json: 0 to 3 answers of 1 to 6 words each from a vocabulary
of 20,000 words, articles and punctuation) and a prediction (predictions.json: a gold answer with words dropped
or added, empty answers, answers to unanswerable questions); then, each a fresh process:
- ours: score.py with rules squad_v2 (interpreter start, imports, reading, validation, every key, the primary
  key's interval, every output file), median of 3;
- squad-formula: json.load of both files and the SQuAD 2.0 evaluation's per-question functions (normalize_answer,
  compute_exact, compute_f1; the best gold answer, the HasAns/NoAns split) restated here, as the official script
  runs them question by question; its keys must equal ours to 1e-9;
- the read floor: ``pandas.read_json`` of both files (gold as records, predictions as one object), pandas
  already imported (and the peak memory of that process); and ``json.load`` of both;
- the bytes floor: reading both files' bytes.

With ``--rules cmrc2018`` the texts are Chinese (answers of 1 to 12 characters of the common block with CMRC's
full-width punctuation, a passage-free gold as above) and the peer is CMRC 2018's evaluation (mixed segmentation,
punctuation removal, the longest common substring, EM and F1 per question, the best gold answer, AVERAGE) restated
here for texts without Latin letters, digits or spaces, where its segmentation needs no NLTK (``cmrc-formula``).

Then the verdicts against the targets (``_measure.verdicts``): ours within twice the pandas read, the peak within
the memory bound (``_measure.memory_bound_mib``: 3 times the input bytes + 150 MiB). ``--program`` times another
copy of scoring_program/ (an older one, to compare two versions under the same load).
"""
import collections
import json
import random
import re
import string
from pathlib import Path

from _measure import (agree, bytes_floor, input_bytes, input_folders, load, machine, memory_bound_mib, prepare,
                      run_measured, score_whole_process, scores_of, table, verdicts, whole_process)

ROOT = Path(__file__).resolve().parents[1]


CMRC_MARKS = ("，", "。", "、", "（", "）", "《", "》", "：")   # among the script's sp_char


def make_cmrc_files(folder, n, seed=0):
    ref, res = input_folders(folder)
    rng = random.Random(seed)
    chars = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    gold, preds = [], {}
    for i in range(n):
        qid = "q%07d" % i
        answers = ["".join(rng.choice(chars) if rng.random() < 0.9 else rng.choice(CMRC_MARKS)
                           for _ in range(rng.randint(1, 12))) for _ in range(rng.choice((1, 1, 2, 3)))]
        gold.append({"id": qid, "answers": answers})
        if rng.random() < 0.85:
            first = answers[0]
            cut = rng.randint(0, len(first) // 2)
            preds[qid] = first[cut:] + ("".join(rng.choice(chars) for _ in range(rng.randint(0, 4))))
        else:
            preds[qid] = "" if rng.random() < 0.5 else rng.choice(chars)
    (ref / "gold.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    (res / "predictions.json").write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
    (ref / "config.yaml").write_text("task: qa\nboard: all\noptions:\n  rules: cmrc2018\n", encoding="utf-8")
    return [(ref / "gold.json", None), (res / "predictions.json", None)]


CMRC_SP_CHAR = set("-:_*^/\\~`+=，。：？！“”；’《》·、「」（）－～『』") | {"……"}


def cmrc_segments(text):
    """CMRC 2018's mixed_segmentation with rm_punc, for text of Chinese characters and marks only."""
    return [c for c in str(text).lower().strip() if c not in CMRC_SP_CHAR]


def longest_common_substring(a, b):
    best, row = 0, [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, 1):
            cur = row[j]
            row[j] = prev + 1 if x == y else 0
            best = max(best, row[j])
            prev = cur
    return best


def cmrc_scores(folder):
    gold = json.loads((folder / "input" / "ref" / "gold.json").read_text(encoding="utf-8"))
    preds = json.loads((folder / "input" / "res" / "predictions.json").read_text(encoding="utf-8"))
    f1_total = em_total = 0.0
    for q in gold:
        pred = preds[q["id"]]
        pred_segs, pred_clean = cmrc_segments(pred), "".join(cmrc_segments(pred))
        f1s = []
        for answer in q["answers"]:
            segs = cmrc_segments(answer)
            same = longest_common_substring(segs, pred_segs)
            if same == 0:
                f1s.append(0.0)
                continue
            precision, recall = same / len(pred_segs), same / len(segs)
            f1s.append(2 * precision * recall / (precision + recall))
        f1_total += max(f1s)
        em_total += max(float("".join(cmrc_segments(a)) == pred_clean) for a in q["answers"])
    f1, em = 100.0 * f1_total / len(gold), 100.0 * em_total / len(gold)
    return {"f1": f1, "exact": em, "average": (f1 + em) / 2}


def make_files(folder, n, seed=0):
    ref, res = input_folders(folder)
    rng = random.Random(seed)
    vocab = ["w%d" % i for i in range(20000)] + ["the", "a", "an", "1,066", "U.S.", "(x)", "Paris."]
    gold, preds = [], {}
    for i in range(n):
        qid = "q%07d" % i
        answers = [" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 6)))
                   for _ in range(rng.choice((0, 1, 1, 2, 3)))]
        gold.append({"id": qid, "answers": answers})
        if answers and rng.random() < 0.8:
            words = answers[0].split()
            preds[qid] = " ".join(w for w in words if rng.random() < 0.8) + (" extra" if rng.random() < 0.3 else "")
        else:
            preds[qid] = "" if rng.random() < 0.5 else rng.choice(vocab)
    (ref / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (res / "predictions.json").write_text(json.dumps(preds), encoding="utf-8")
    (ref / "config.yaml").write_text("task: qa\nboard: all\n", encoding="utf-8")
    return [(ref / "gold.json", None), (res / "predictions.json", None)]


def normalize_answer(s):
    s = "".join(ch for ch in s.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", s, flags=re.UNICODE).split())


def compute_f1(gold, pred):
    g, p = normalize_answer(gold).split(), normalize_answer(pred).split()
    common = collections.Counter(g) & collections.Counter(p)
    same = sum(common.values())
    if not g or not p:
        return float(g == p)
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def squad_scores(folder):
    gold = json.loads((folder / "input" / "ref" / "gold.json").read_text(encoding="utf-8"))
    preds = json.loads((folder / "input" / "res" / "predictions.json").read_text(encoding="utf-8"))
    exact, f1, has = [], [], []
    for q in gold:
        answers = [a for a in q["answers"] if normalize_answer(a)] or [""]
        pred = preds[q["id"]]
        exact.append(max(float(normalize_answer(a) == normalize_answer(pred)) for a in answers))
        f1.append(max(compute_f1(a, pred) for a in answers))
        has.append(bool(q["answers"]))
    out = {"exact": 100.0 * sum(exact) / len(exact), "f1": 100.0 * sum(f1) / len(f1)}
    for prefix, keep in (("has_ans_", True), ("no_ans_", False)):
        rows = [k for k, h in enumerate(has) if h == keep]
        out[prefix + "exact"] = 100.0 * sum(exact[k] for k in rows) / len(rows)
        out[prefix + "f1"] = 100.0 * sum(f1[k] for k in rows) / len(rows)
    return out


_JSON_FLOOR = r"""
import json, sys, time
import pandas as pd
gold, pred, how = sys.argv[1], sys.argv[2], sys.argv[3]
times = []
for _ in range(3):
    t = time.perf_counter()
    if how == "pandas":
        pd.read_json(gold, orient="records", dtype=False)
        pd.read_json(pred, orient="index", typ="series", dtype=False)
    else:
        json.load(open(gold, encoding="utf-8"))
        json.load(open(pred, encoding="utf-8"))
    times.append(time.perf_counter() - t)
print(sorted(times)[1])
"""


def json_floor(files, how):
    """(median seconds of the read, the peak MiB of its process) of ``how`` (pandas or json) reading both files."""
    import sys
    run = run_measured([sys.executable, "-c", _JSON_FLOOR, str(files[0][0]), str(files[1][0]), how])
    if run["rc"] != 0:
        raise SystemExit("the %s read failed: %s" % (how, run["err"]))
    return float(run["out"]), run["peak_mib"]


def main(argv=None):
    import argparse
    import sys
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100000])
    parser.add_argument("--program", type=Path, help="time this copy of scoring_program/ instead (an older one)")
    parser.add_argument("--rules", choices=["squad_v2", "cmrc2018"], default="squad_v2")
    parser.add_argument("--peer", nargs=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cmrc = args.rules == "cmrc2018"
    peer_name = "cmrc-formula" if cmrc else "squad-formula"
    if args.peer:
        print(json.dumps((cmrc_scores if cmrc else squad_scores)(Path(args.peer[0]))))
        return
    print("qa (rules %s) on %s%s" % (args.rules, machine(), "; program %s" % args.program if args.program else ""))
    rows, verdict_rows = [], []
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files = (make_cmrc_files if cmrc else make_files)(folder, n)
            prepare(files, args.program)
            before = load()
            ours, peak, out, cpu, (fastest, slowest) = score_whole_process(folder / "input", folder,
                                                                            program=args.program)
            mine = scores_of(out)
            (pandas_s, pandas_mib), (json_s, _), raw = json_floor(files, "pandas"), json_floor(files, "json"), \
                bytes_floor(files)
            wall, peer_peak, run = whole_process([sys.executable, __file__, "--rules", args.rules, "--peer", folder],
                                                 repeat=1)
            gap = agree(mine, json.loads(run["out"]), peer_name)
            size = input_bytes(files)
            bound = memory_bound_mib(size)
            rows.append([n, "%.1f" % (size / 1e6), "%.2f" % ours, "%.2f-%.2f" % (fastest, slowest), "%.2f" % cpu,
                         "%.0f" % peak, "%.0f" % bound, "%.2f" % pandas_s, "%.0f" % pandas_mib, "%.2f" % json_s,
                         "%.3f" % raw,
                         "%.2fx" % (ours / pandas_s), "%.2fx" % (ours / json_s), "%.2f" % wall, "%.0f" % peer_peak,
                         "%.1fx" % (wall / ours), "%.1e" % gap, "%s / %s" % (before.split()[0], load().split()[0])])
            verdict_rows.append({"n": n, "unit": "questions", "ours_s": ours, "ours_mib": peak, "pandas_s": pandas_s,
                                 "bytes": size, "bound_mib": bound})
    print(table(["questions", "input MB", "ours s", "ours s min-max", "ours CPU s", "ours MiB", "bound MiB",
                 "pandas read_json s", "pandas read_json MiB", "json.load s", "bytes read s", "ours / pandas",
                 "ours / json",
                 peer_name + " s", peer_name + " MiB", peer_name + " / ours", "max |ours - %s|" % peer_name,
                 "load (1 min) before / after"], rows))
    print()
    for line in verdicts(verdict_rows):
        print("- " + line)


if __name__ == "__main__":
    main()
