#!/usr/bin/env python3
"""Make a competition's board assignment once: reference_data/boards.csv (id,board).

    python3 tools/make_boards.py COMPETITION_DIR [--ratio-a 0.4] [--seed 2024]

The unit (document, sentence, conversation) and the stratification label come
from the task family named in reference_data/board_A.yaml; see scorer.boards.assign.
The same seed and gold always give the same file.
"""
import argparse
import sys
from pathlib import Path

import _paths  # noqa: F401
from competition import board_configs, load_board_config
from scorer.api import Competition
from scorer.boards import assign
from scorer.config import task_only


def make_boards(competition, ratio_a=0.4, seed=2024):
    reference_dir = Path(competition) / "reference_data"
    board = sorted(board_configs(reference_dir))[0]
    # the whole reference, without any split: the assignment must not depend on an existing boards file
    comp = Competition.from_raw(task_only(load_board_config(reference_dir, board)), str(reference_dir))
    table = assign(comp.reference.units, comp.reference.strata, ratio_a=ratio_a, seed=seed)
    out = reference_dir / "boards.csv"
    table.to_csv(out, index=False, lineterminator="\n")
    return out, table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("--ratio-a", type=float, default=0.4)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    out, table = make_boards(args.competition, args.ratio_a, args.seed)
    counts = table["board"].value_counts().to_dict()
    print("wrote %s: %d units, board A %d, board B %d" % (out, len(table), counts.get("A", 0), counts.get("B", 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
