#!/usr/bin/env python3
"""Benchmark of the generation kernels against sacreBLEU and rouge-score, in one process.

    .venv/bin/python benchmarks/bench_generation_kernels.py [--segments 100000] [--skip-rouge-score]

Generated corpus (seeded): hypotheses of 5 to 40 words from a vocabulary of 20,000 words with punctuation, one
or two references each (words of the hypothesis kept, dropped or replaced); and a Chinese corpus of the same
size (characters) for the ``zh`` tokenizer. For each measure: our per-segment statistics and the corpus score
from their sums, next to sacreBLEU's ``corpus_score`` (BLEU 13a, BLEU zh, chrF, chrF++) and rouge-score's
``score``/``score_multi`` on every segment (ROUGE-1, ROUGE-2, ROUGE-L, means over segments); the two results must
agree to 1e-9. Times are wall seconds of one run each (the second run of ours, after a warm-up on 1,000 segments).
"""
import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scoring_program"))

from scorer.public import bleu, chrf, rouge  # noqa: E402


def corpus(n, seed=0, chinese=False):
    rng = random.Random(seed)
    if chinese:
        vocab = [chr(0x4E00 + i) for i in range(3000)] + list("，。：“”（）") + ["2021", "AI", "5G"]
        join = ""
    else:
        vocab = ["w%d" % i for i in range(20000)] + [",", ".", "(", ")", "'s", "3.5", "U.S."]
        join = " "
    hyps, refs = [], []
    for _ in range(n):
        words = [rng.choice(vocab) for _ in range(rng.randint(5, 40))]
        hyps.append(join.join(words))
        these = []
        for _ in range(rng.choice((1, 1, 2))):
            ref = [w if rng.random() < 0.7 else rng.choice(vocab) for w in words if rng.random() < 0.9]
            these.append(join.join(ref))
        refs.append(these)
    return hyps, refs


def streams(refs):
    most = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(most)]


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--segments", type=int, default=100000)
    parser.add_argument("--skip-rouge-score", action="store_true")
    args = parser.parse_args(argv)
    import sacrebleu
    hyps, refs = corpus(args.segments)
    zh_hyps, zh_refs = corpus(args.segments, seed=1, chinese=True)
    warm_h, warm_r = corpus(1000, seed=2)
    bleu.statistics(warm_h, warm_r), chrf.statistics(warm_h, warm_r), rouge.statistics(warm_h, warm_r)

    def ours_bleu(h, r, tok):
        stats = bleu.statistics(h, r, tokenizer=tok)
        return float(bleu.bleu({k: v.sum() for k, v in stats.items()}))

    def ours_chrf(h, r, word_order):
        stats = chrf.statistics(h, r, word_order=word_order)
        return float(chrf.chrf({k: v.sum() for k, v in stats.items()}, word_order=word_order))

    rows = []
    for label, ours, theirs in (
            ("BLEU 13a", lambda: ours_bleu(hyps, refs, "13a"),
             lambda: sacrebleu.metrics.BLEU().corpus_score(hyps, streams(refs)).score),
            ("BLEU zh (Chinese text)", lambda: ours_bleu(zh_hyps, zh_refs, "zh"),
             lambda: sacrebleu.metrics.BLEU(tokenize="zh").corpus_score(zh_hyps, streams(zh_refs)).score),
            ("chrF", lambda: ours_chrf(hyps, refs, 0),
             lambda: sacrebleu.metrics.CHRF().corpus_score(hyps, streams(refs)).score),
            ("chrF++", lambda: ours_chrf(hyps, refs, 2),
             lambda: sacrebleu.metrics.CHRF(word_order=2).corpus_score(hyps, streams(refs)).score)):
        a, ta = timed(ours)
        b, tb = timed(theirs)
        assert abs(a - b) <= 1e-9, (label, a, b)
        rows.append((label, ta, "sacreBLEU %s" % sacrebleu.__version__, tb, a))
    types = ("rouge1", "rouge2", "rougeL")
    stats, ta = timed(lambda: rouge.statistics(hyps, refs, types=types))
    means = {t: float(stats[t + "_fmeasure"].mean()) for t in types}
    tb = None
    if not args.skip_rouge_score:
        from rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(list(types))

        def theirs():
            got = [scorer.score_multi(r, h) if len(r) > 1 else scorer.score(r[0], h) for h, r in zip(hyps, refs)]
            return {t: float(np.mean([g[t].fmeasure for g in got])) for t in types}

        expected, tb = timed(theirs)
        for t in types:
            assert abs(means[t] - expected[t]) <= 1e-9, (t, means[t], expected[t])
    rows.append(("ROUGE-1, ROUGE-2, ROUGE-L (P, R, F per segment)", ta, "rouge-score 0.1.2", tb, means["rougeL"]))
    print("%d segments, Python %s, numpy %s" % (args.segments, sys.version.split()[0], np.__version__))
    print("| measure | ours (s) | reference | reference (s) | score |")
    print("|---|---|---|---|---|")
    for label, ta, name, tb, value in rows:
        print("| %s | %.2f | %s | %s | %.6f |" % (label, ta, name, "skipped" if tb is None else "%.2f" % tb, value))


if __name__ == "__main__":
    main()
