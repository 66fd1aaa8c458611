#!/usr/bin/env python3
"""Benchmark of the generation scorer: whole process against sacreBLEU and rouge-score, the read floors.

    .venv/bin/python benchmarks/bench_generation.py [--sizes 100000] [--peer-max 100000]

For each number of segments: a generated English corpus (hypotheses of 5 to 40 words from a vocabulary of
20,000 words with punctuation; one or two references each, words of the hypothesis kept, dropped or replaced)
written as gold.csv (``id,reference``, a row per reference) and predictions.csv (``id,text``); then, each a fresh
process:
- ours: score.py (interpreter start, imports, reading, validation, every key, the primary key's interval,
  every output file), median of 3;
- sacreBLEU: pandas reads both files, ``BLEU``, ``CHRF`` and ``CHRF(word_order=2)`` ``corpus_score``; its
  BLEU, chrF, chrF++ and length ratio must equal ours to 1e-9;
- rouge-score: pandas reads both files, ``RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])``'s
  ``score_multi`` on every segment, the means times 100; they must equal ours to 1e-9;
- the pandas read floor: ``pandas.read_csv`` of both files as strings (pandas already imported);
- the bytes floor: reading both files' bytes;
- the start floor ("start s"): a fresh interpreter importing numpy, pandas and yaml, nothing else (median of
  ``--repeat``);
- floors of the metrics' own definitions on the same texts, each timed alone in a process that has read the
  files already (``FLOORS``; the median of ``--repeat``): "13a floor s", sacreBLEU's 13a tokenizer (its replacements
  and its four regular expressions, restated here) run once by Python's ``re`` over every hypothesis and reference
  joined into one string, then split into tokens; "chrF keys sort s", one ``np.sort`` of one int64 key per non-space
  character of every hypothesis and reference ((segment, side, code point), in segment order: the grouping chrF's
  first order alone needs), "chrF keys merge sort s" the same with ``kind="stable"`` (numpy's merge sort, which
  finds the segments' runs), "chrF keys hash s" the same keys grouped by ``pandas.factorize`` instead, and "chrF
  keys pass s" one elementwise numpy pass over them (each key compared with the next: what touching every key once
  costs). They are what a single pass of the definitions costs in numpy, pandas and ``re``, not what scoring costs
  (no BLEU counting, chrF's orders 2 to 6 and words, ROUGE, reading or output is in them), and none is a proven
  lower bound: a vectorised 13a on code points needs no regular expression, and sorting each segment's keys on its
  own costs fewer comparisons than one sort of them all.
"""
import random
from collections import defaultdict
from pathlib import Path

import pandas as pd

from _measure import family_main, input_folders

ROOT = Path(__file__).resolve().parents[1]


def make_files(folder, n, seed=0):
    ref, res = input_folders(folder)
    rng = random.Random(seed)
    vocab = ["w%d" % i for i in range(20000)] + [",", ".", "(", ")", "'s", "3.5", "U.S."]
    ids, hyps, ref_ids, refs = [], [], [], []
    for i in range(n):
        words = [rng.choice(vocab) for _ in range(rng.randint(5, 40))]
        unit = "s%07d" % i
        ids.append(unit)
        hyps.append(" ".join(words))
        for _ in range(rng.choice((1, 1, 2))):
            ref_ids.append(unit)
            refs.append(" ".join(w if rng.random() < 0.7 else rng.choice(vocab) for w in words if rng.random() < 0.9))
    pd.DataFrame({"id": ref_ids, "reference": refs}).to_csv(ref / "gold.csv", index=False)
    pd.DataFrame({"id": ids, "text": hyps}).to_csv(res / "predictions.csv", index=False)
    (ref / "config.yaml").write_text("task: generation\nboard: all\n", encoding="utf-8")
    return [(ref / "gold.csv", ","), (res / "predictions.csv", ",")]


def read(folder):
    gold = pd.read_csv(folder / "input" / "ref" / "gold.csv", dtype=str, keep_default_na=False)
    pred = pd.read_csv(folder / "input" / "res" / "predictions.csv", dtype=str, keep_default_na=False)
    refs = defaultdict(list)
    for unit, text in zip(gold["id"], gold["reference"]):
        refs[unit].append(text)
    return pred["text"].tolist(), [refs[unit] for unit in pred["id"]]


def sacrebleu_scores(folder):
    from sacrebleu.metrics import BLEU, CHRF

    hyps, refs = read(folder)
    most = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(most)]
    bleu = BLEU().corpus_score(hyps, streams)
    return {"bleu": bleu.score, "length_ratio": bleu.sys_len / bleu.ref_len,
            "chrf": CHRF().corpus_score(hyps, streams).score,
            "chrf_pp": CHRF(word_order=2).corpus_score(hyps, streams).score}


def rouge_score_scores(folder):
    from rouge_score import rouge_scorer

    hyps, refs = read(folder)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types)
    totals = defaultdict(float)
    for hyp, these in zip(hyps, refs):
        scored = scorer.score_multi(these, hyp)
        for t in types:
            totals[t.lower() + "_f"] += scored[t].fmeasure
            totals[t.lower() + "_p"] += scored[t].precision
            totals[t.lower() + "_r"] += scored[t].recall
    return {k: 100.0 * v / len(hyps) for k, v in totals.items()}


FLOORS = r"""
import json, re, statistics, sys, time
from collections import defaultdict
import numpy as np
import pandas as pd

folder, repeat = sys.argv[1], int(sys.argv[2])
gold = pd.read_csv(folder + "/input/ref/gold.csv", dtype=str, keep_default_na=False)
pred = pd.read_csv(folder + "/input/res/predictions.csv", dtype=str, keep_default_na=False)
segment = {unit: k for k, unit in enumerate(pred["id"])}
texts = pred["text"].tolist() + gold["reference"].tolist()
units = np.array(list(range(len(pred))) + [segment[u] for u in gold["id"]], dtype=np.int64)
side = np.repeat(np.array([0, 1], dtype=np.int64), [len(pred), len(gold)])
by_segment = np.argsort(units, kind="stable")   # each hypothesis, then its references: the keys in segment order
texts, units, side = [texts[i] for i in by_segment.tolist()], units[by_segment], side[by_segment]

# sacreBLEU 2.x's 13a (tokenizer_13a.Tokenizer13a, then tokenizer_re.TokenizerRegexp), restated
RULES = [(re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "), (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
         (re.compile(r"([\.,])([^0-9])"), r" \1 \2"), (re.compile(r"([0-9])(-)"), r"\1 \2 ")]


def v13a(line):
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = " %s " % line
    for pattern, replacement in RULES:
        line = pattern.sub(replacement, line)
    return line.split()


joined = " ".join(texts)
lengths = np.array([len(t) for t in texts], dtype=np.int64)
code = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
kept = ~np.isin(code, [9, 10, 11, 12, 13, 32])   # chrF drops whitespace
keys = (((np.repeat(units, lengths) << 1) | np.repeat(side, lengths)) << 21 | code)[kept]
times = defaultdict(list)
for _ in range(repeat):
    t = time.perf_counter(); tokens = v13a(joined); times["13a"].append(time.perf_counter() - t)
    t = time.perf_counter(); np.sort(keys); times["sort"].append(time.perf_counter() - t)
    t = time.perf_counter(); np.sort(keys, kind="stable"); times["merge"].append(time.perf_counter() - t)
    t = time.perf_counter(); pd.factorize(keys); times["hash"].append(time.perf_counter() - t)
    t = time.perf_counter(); np.count_nonzero(keys[1:] != keys[:-1]); times["pass"].append(time.perf_counter() - t)
out = {k: statistics.median(v) for k, v in times.items()}
out.update(tokens=len(tokens), keys=len(keys))
print(json.dumps(out))
"""
FLOOR_HEADERS = ["start s", "13a floor s", "chrF keys sort s", "chrF keys merge sort s", "chrF keys hash s",
                 "chrF keys pass s", "13a tokens", "chrF keys"]


def start_floor(repeat=3):
    """Median wall time of a fresh interpreter that imports the runtime's three libraries and stops: what every
    run of score.py pays before it reads a byte."""
    import statistics
    import subprocess
    import sys
    import time

    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import numpy, pandas, yaml"], check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def floors(folder, n, repeat=3):
    """The cells of ``FLOORS`` on the files of ``folder``, in a fresh process (pandas and numpy imported)."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", FLOORS, str(folder), str(repeat)], capture_output=True, text=True,
                         check=True)
    found = json.loads(out.stdout)
    return ["%.2f" % start_floor(repeat), "%.2f" % found["13a"], "%.2f" % found["sort"], "%.2f" % found["merge"], "%.2f" % found["hash"],
            "%.3f" % found["pass"],
            found["tokens"], found["keys"]]


def main(argv=None):
    family_main(argv, __doc__, __file__, "generation", "segments", make_files,
                {"sacreBLEU": sacrebleu_scores, "rouge-score": rouge_score_scores}, [100000],
                extra=floors, extra_headers=FLOOR_HEADERS)


if __name__ == "__main__":
    main()
