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
- the bytes floor: reading both files' bytes.
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


def main(argv=None):
    family_main(argv, __doc__, __file__, "generation", "segments", make_files,
                {"sacreBLEU": sacrebleu_scores, "rouge-score": rouge_score_scores}, [100000])


if __name__ == "__main__":
    main()
