"""Leaderboard boards: which units (documents, sentences, conversations) each board scores.

Board A is the feedback board (by default a fixed 40% of the test set), board B
the final one (the other 60%). The assignment is made once, by ``assign``,
seeded and stratified by the task's label with the unit as the atom, and stored
in the reference data as a readable ``id,board`` CSV. A Kaggle-style ``Usage``
value per unit (Public = A, Private = B, Ignored = neither) is accepted instead.
"""
import os

import numpy as np
import pandas as pd

from .errors import ReferenceDataError

USAGE_TO_BOARD = {"public": "A", "private": "B", "ignored": ""}


def assign(units, strata, ratio_a=0.4, seed=0):
    """Assign each unit to board A or B, stratified by ``strata``.

    Within each stratum the units are shuffled with ``seed`` and the first ones
    go to A; the per-stratum counts are rounded by largest remainder so that
    board A has exactly ``round(ratio_a * n)`` units.

    >>> assign(["a", "b", "c", "d", "e"], [0, 0, 0, 1, 1], 0.4, seed=1)["board"].value_counts().to_dict()
    {'B': 3, 'A': 2}
    """
    units = np.asarray(units, dtype=object)
    strata = np.asarray(strata, dtype=object).astype(str)
    if len(units) != len(strata):
        raise ValueError("units and strata differ in length")
    if not 0.0 < ratio_a < 1.0:
        raise ValueError("ratio_a must be in (0, 1)")
    if len(pd.unique(units)) != len(units):
        raise ValueError("units are not unique")
    rng = np.random.RandomState(seed)
    names, codes = np.unique(strata, return_inverse=True)
    sizes = np.bincount(codes, minlength=len(names))
    wanted = ratio_a * sizes
    take = np.floor(wanted).astype(int)
    short = int(round(ratio_a * len(units))) - int(take.sum())
    if short > 0:
        order = np.lexsort((np.arange(len(names)), -(wanted - take)))
        take[order[:short]] += 1
    board = np.empty(len(units), dtype=object)
    for code in range(len(names)):  # one iteration per stratum, not per unit
        members = np.flatnonzero(codes == code)
        members = members[np.argsort(units[members].astype(str), kind="stable")]
        shuffled = members[rng.permutation(len(members))]
        board[shuffled[: take[code]]] = "A"
        board[shuffled[take[code]:]] = "B"
    return pd.DataFrame({"id": units, "board": board})


class Boards:
    """Validated board membership of every reference unit."""

    def __init__(self, units, board_of_unit):
        self.units = np.asarray(units, dtype=object)
        self.board = np.asarray(board_of_unit, dtype=object)

    def units_of(self, board):
        if board == "all":
            return self.units[self.board != ""]
        return self.units[self.board == board]

    def counts(self):
        return {b: int((self.board == b).sum()) for b in ("A", "B")}


def load_boards(cfg, ref):
    """The Boards of the reference, from ``boards.file`` or the usage column, checked against its units."""
    units = np.asarray(ref.units, dtype=object)
    if cfg.boards_file is None and cfg.usage_column is None:
        return Boards(units, np.full(len(units), "A", dtype=object))
    if cfg.usage_column is not None:
        if ref.usage is None:
            raise ReferenceDataError("config.yaml names usage_column %r but the gold file has no such column."
                                     % cfg.usage_column)
        lowered = pd.Series(ref.usage, dtype=object).astype(str).str.strip().str.lower()
        bad = sorted(set(lowered) - set(USAGE_TO_BOARD))
        if bad:
            raise ReferenceDataError("gold column %s has the value %r; allowed: Public, Private, Ignored."
                                     % (cfg.usage_column, bad[0]))
        return _checked(Boards(units, lowered.map(USAGE_TO_BOARD).to_numpy(dtype=object)), cfg.board)
    path = os.path.join(cfg.ref_dir, cfg.boards_file)
    if not os.path.isfile(path):
        raise ReferenceDataError("the boards file %s named in config.yaml is not in the reference data."
                                 % cfg.boards_file)
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ReferenceDataError("%s cannot be read as a CSV (%s)." % (cfg.boards_file, str(exc).strip()[:200]))
    table.columns = [c.strip() for c in table.columns]
    if list(table.columns) != ["id", "board"]:
        raise ReferenceDataError("%s must have exactly the columns id,board; it has %s."
                                 % (cfg.boards_file, ",".join(table.columns)))
    ids = table["id"].str.strip()
    dup = ids[ids.duplicated()]
    if len(dup):
        raise ReferenceDataError("%s lists id %s twice; each unit belongs to exactly one board."
                                 % (cfg.boards_file, dup.iloc[0]))
    values = table["board"].str.strip()
    bad = sorted(set(values) - {"A", "B"})
    if bad:
        raise ReferenceDataError("%s has board %r; allowed: A, B." % (cfg.boards_file, bad[0]))
    index = pd.Index(ids)
    position = index.get_indexer(units)
    if (position < 0).any():
        missing = units[position < 0]
        raise ReferenceDataError("%s does not assign %d reference unit(s) (first: %s); every unit needs a board."
                                 % (cfg.boards_file, len(missing), missing[0]))
    extra = len(ids) - len(units)
    if extra > 0:
        unknown = ids[~ids.isin(pd.Index(units))]
        raise ReferenceDataError("%s assigns %d id(s) that are not in the gold (first: %s)."
                                 % (cfg.boards_file, len(unknown), unknown.iloc[0]))
    return _checked(Boards(units, values.to_numpy(dtype=object)[position]), cfg.board)


def _checked(boards, board):
    if board != "all" and len(boards.units_of(board)) == 0:
        raise ReferenceDataError("board %s has no units in the boards assignment; check the split." % board)
    return boards
