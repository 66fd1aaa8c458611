"""Make a competition's board assignment once: reference_data/boards.csv (id,board).

    python3 -m organizer boards COMPETITION_DIR [--ratio-a 0.4] [--seed 2024] [--force]

The unit (document, sentence, conversation) and the stratification label come
from the task family named in reference_data/board_A.yaml; see scorer.boards.assign.
The same seed and gold always give the same file. An existing boards.csv is
kept unless --force is given: a split that changes after submissions were
scored changes every score.
"""
import sys
from pathlib import Path

import pandas as pd

from .inputs import Parser, existing_folder, seed, share, write_file
from .layout import board_configs, load_board_config
from scorer.public import Competition, assign, task_only


def whole_reference(competition):
    """The Competition of the whole reference of ``competition``, without any split (the task of its first board
    config)."""
    reference_dir = Path(competition) / "reference_data"
    configs = sorted(board_configs(reference_dir))
    if not configs:
        raise SystemExit("%s has no board_<X>.yaml: the board configs name the task whose units are split."
                         % reference_dir)
    return Competition.from_raw(task_only(load_board_config(reference_dir, configs[0])), str(reference_dir))


def gold_notes(competition):
    """The family's notes on the competition's whole gold (e.g. declared labels no unit has)."""
    return list(whole_reference(competition).reference.notes)


def split(competition, ratio_a=0.4, seed=2024):
    """(the id,board table, the stratum of each unit, the family's notes on the gold) of the competition's whole
    reference."""
    # the whole reference, without any split: the assignment must not depend on an existing boards file
    comp = whole_reference(competition)
    strata = comp.reference.unit_strata()
    return assign(comp.reference.units, strata, ratio_a=ratio_a, seed=seed), strata, list(comp.reference.notes)


def make_boards(competition, ratio_a=0.4, seed=2024, force=False):
    """Write reference_data/boards.csv (refusing to replace an existing one unless ``force``); returns (its path,
    the table, the strata, the notes on the gold)."""
    out = Path(competition) / "reference_data" / "boards.csv"
    if out.exists() and not force:
        raise SystemExit("%s exists already: a new split changes every score. Pass --force to replace it." % out)
    table, strata, notes = split(competition, ratio_a, seed)
    write_file(out, table.to_csv(index=False, lineterminator="\n").encode("utf-8"), "boards.csv")
    return out, table, strata, notes


def counts(table, strata):
    """Units per stratum on each board, as printable lines (the largest strata first)."""
    frame = pd.crosstab(pd.Series(strata, name="stratum"), table["board"].to_numpy())
    frame = frame.reindex(columns=["A", "B"], fill_value=0)
    frame = frame.loc[frame.sum(axis=1).sort_values(ascending=False, kind="stable").index]
    width = max(len("stratum"), *(len(str(s)) for s in frame.index))
    lines = ["%-*s %8s %8s" % (width, "stratum", "board A", "board B")]
    lines += ["%-*s %8d %8d" % (width, s, a, b) for s, (a, b) in zip(frame.index, frame.to_numpy())]
    lines.append("%-*s %8d %8d" % (width, "all", frame["A"].sum(), frame["B"].sum()))
    return lines


def main(argv=None):
    parser = Parser(prog="python3 -m organizer boards", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("--ratio-a", type=share, default=0.4, help="share of units on board A (default 0.4)")
    parser.add_argument("--seed", type=seed, default=2024, help="seed of the split (default 2024)")
    parser.add_argument("--force", action="store_true", help="replace an existing boards.csv")
    args = parser.parse_args(argv)
    existing_folder(Path(args.competition) / "reference_data", "the competition's reference data")
    out, table, strata, notes = make_boards(args.competition, args.ratio_a, args.seed, args.force)
    print("wrote %s: %d units" % (out, len(table)))
    print("\n".join(counts(table, strata)))
    for note in notes:
        print("warning: reference_data/%s" % note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
