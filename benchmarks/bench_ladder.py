#!/usr/bin/env python3
"""A probing attack on the public board: exact feedback against the Ladder (Blum and Hardt, ICML 2015, section 5).

    .venv/bin/python benchmarks/bench_ladder.py [--queries 50 100 200 400 800] [--repeat 5]

A synthetic binary task: 10,000 test items with random labels, split as the competitions here are,
40% public (board A) and 60% private (board B). The attacker knows nothing: it submits k random
label vectors, keeps those the public board seems to like, and submits their majority vote (the
paper's boosting attack). Its true accuracy is 0.5 on any data; what matters is what the public board
shows for it:

- exact: the board shows every score (to 5 decimals, as Kaggle did); the attacker keeps the vectors
  scoring above 0.5;
- Ladder, fixed step 0.01 / parameter-free: the board releases scores through scorer.publish.ladder (the
  program's own code); the attacker keeps the vectors that moved the shown score.

For each setting and k: how many vectors were kept, the public score the board shows for the boosted
submission, its exact public score, its private score, and the gap between shown and private (the
overfitting a leaderboard reports as progress). Averages over ``--repeat`` seeded runs.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from _measure import table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring_program"))
from scorer.public import Feedback, ladder  # noqa: E402

N, PUBLIC = 10000, 4000


def accuracy(sums):
    return sums[..., 0] / sums[..., 1]


def run_ladder(settings, public_right, seed):
    """Feed each vector's public per-item correctness through the Ladder; (improved flags, state)."""
    state, improved, best_table = None, [], None
    for number, right in enumerate(public_right, start=1):
        table = np.column_stack([right, np.ones(len(right))])
        margin = None
        if settings.ladder == "parameter_free" and state is not None:
            margin = ladder.paired_margin(table, best_table, accuracy, seed)
        state = ladder.step(state, {"accuracy": right.mean()}, "accuracy", settings, margin=margin, number=number)
        improved.append(state.improved)
        if state.improved:
            best_table = table
    return np.array(improved), state


def attack(k, setting, rng, seed):
    labels = rng.integers(0, 2, N)
    votes = rng.integers(0, 2, (k, N))
    right = votes == labels
    public = right[:, :PUBLIC].astype(float)
    if setting == "exact":
        shown = np.round(public.mean(axis=1), 5)
        kept = shown > 0.5
    else:
        settings = Feedback(ladder="fixed", ladder_step=0.01) if setting == "fixed" else \
            Feedback(ladder="parameter_free")
        improved, state = run_ladder(settings, public, seed)
        kept = improved & (np.array([p.mean() for p in public]) > 0.5)
    if not kept.any():
        boosted = votes[0]
    else:
        boosted = (votes[kept].sum(axis=0) * 2 >= kept.sum()).astype(int)
    boosted_right = (boosted == labels).astype(float)
    exact_public, private = boosted_right[:PUBLIC].mean(), boosted_right[PUBLIC:].mean()
    if setting == "exact":
        shown = round(exact_public, 5)
    else:
        table = np.column_stack([boosted_right[:PUBLIC], np.ones(PUBLIC)])
        margin = None
        if settings.ladder == "parameter_free":
            best = np.column_stack([public[state.best_submission - 1], np.ones(PUBLIC)])
            margin = ladder.paired_margin(table, best, accuracy, seed)
        final = ladder.step(state, {"accuracy": exact_public}, "accuracy", settings, margin=margin, number=k + 1)
        shown = final.released["accuracy"]
    return int(kept.sum()), shown, exact_public, private


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, nargs="+", default=[50, 100, 200, 400, 800])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows = []
    for setting, name in (("exact", "exact (5 decimals)"), ("fixed", "Ladder, step 0.01"),
                          ("free", "Ladder, parameter-free")):
        for k in args.queries:
            results = np.array([attack(k, setting, np.random.default_rng(1000 * r + k), r)
                                for r in range(args.repeat)], dtype=float)
            kept, shown, exact_public, private = results.mean(axis=0)
            rows.append([name, k, "%.0f" % kept, "%.4f" % shown, "%.4f" % exact_public, "%.4f" % private,
                         "%+.4f" % (shown - private)])
        print("done %s" % setting, file=sys.stderr)
    print(table(["public board", "queries", "vectors kept", "shown for the boosted submission",
                 "its exact public score", "its private score", "shown - private"], rows))


if __name__ == "__main__":
    main()
