"""Leaderboard boards: which units (documents, sentences, conversations) each board scores.

Board A is the feedback board (by default a fixed 40% of the test set), board B
the final one (the other 60%). The assignment is made once, by ``assign``,
seeded and stratified by the task's label with the unit as the atom, and stored
in the reference data as a readable ``id,board`` CSV. A Kaggle-style ``Usage``
value per unit (Public = A, Private = B, Ignored = neither) is accepted instead.
"""
import codecs
import os

import numpy as np

from .bytelevel import csvscan
from .bytelevel.cells import Cells
from .bytelevel.grouping import Index, duplicated, factorize
from .errors import ReferenceDataError
from .bytelevel.lazy import pandas as pd
from .problems import Message
from .tables import UnitIds, unit_cells, unit_index
from .textio import parse_table, plain_utf8

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
        self.units = units if isinstance(units, UnitIds) else np.asarray(units, dtype=object)
        self.board = np.asarray(board_of_unit).astype("U1", copy=False)  # "A", "B" or "": 4 bytes a unit

    def mask(self, board):
        """Which reference units ``board`` scores (``all``: every unit on a board), in reference order.

        >>> Boards(["a", "b", "c"], ["A", "B", ""]).mask("all").tolist()
        [True, True, False]
        """
        if board == "all":
            return self.board != ""
        return self.board == board

    def units_of(self, board):
        """The ids of the units ``board`` scores (as str)."""
        return self.units[self.mask(board)]


def load_boards(cfg, ref):
    """The Boards of the reference, from ``boards.file`` or the usage column, checked against its units."""
    units = ref.units
    if cfg.boards_file is None and cfg.usage_column is None:
        return Boards(units, np.full(len(units), "A"))
    if cfg.usage_column is not None:
        if ref.usage is None:
            raise ReferenceDataError(NO_USAGE(column=cfg.usage_column))
        code, first = factorize(Cells.from_strings([str(u) for u in ref.usage]))
        lowered = [str(ref.usage[i]).strip().lower() for i in first.tolist()]  # each spelling once
        bad = sorted(set(lowered) - set(USAGE_TO_BOARD))
        if bad:
            raise ReferenceDataError(BAD_USAGE(column=cfg.usage_column, value=repr(bad[0])))
        board = np.array([USAGE_TO_BOARD[v] for v in lowered], dtype=object)
        return _checked(Boards(units, board[code] if len(code) else np.zeros(0, dtype=object)), cfg.board)
    path = os.path.join(cfg.ref_dir, cfg.boards_file)
    name = cfg.boards_file
    if not os.path.isfile(path):
        raise ReferenceDataError(NO_FILE(file=name))
    with open(path, "rb") as fh:
        data = fh.read()
    scanned = _scan_boards(data)
    if scanned is not None:
        return _checked(_from_scan(scanned, units, name), cfg.board)
    try:
        table = parse_table(data.decode("utf-8-sig").encode("utf-8"), name, ReferenceDataError, skipinitialspace=False)
    except UnicodeDecodeError as exc:
        raise ReferenceDataError(UNREADABLE(file=name, reason=str(exc).strip()[:200]))
    table.columns = [c.strip() for c in table.columns]
    if list(table.columns) != ["id", "board"]:
        raise ReferenceDataError(BAD_COLUMNS(file=name, columns=",".join(table.columns)))
    ids = table["id"].str.strip()
    dup = ids[ids.duplicated()]
    if len(dup):
        raise ReferenceDataError(TWICE(file=name, id=dup.iloc[0]))
    values = table["board"].str.strip()
    bad = sorted(set(values) - {"A", "B"})
    if bad:
        raise ReferenceDataError(BAD_BOARD(file=name, value=repr(bad[0])))
    index = pd.Index(ids)
    strings = np.asarray(units, dtype=object)  # this path only for a boards file the byte reader leaves to pandas
    position = index.get_indexer(strings)
    if (position < 0).any():
        missing = strings[position < 0]
        raise ReferenceDataError(UNASSIGNED(file=name, n=len(missing), first=missing[0]))
    extra = len(ids) - len(units)
    if extra > 0:
        unknown = ids[~ids.isin(pd.Index(strings))]
        raise ReferenceDataError(NOT_IN_GOLD(file=name, n=len(unknown), first=unknown.iloc[0]))
    return _checked(Boards(units, values.to_numpy(dtype=object)[position]), cfg.board)


def _scan_boards(data):
    """boards.csv read by csvscan (as pandas would read it), or None to leave it to pandas."""
    if data.startswith(codecs.BOM_UTF8 * 2) or not plain_utf8(data):
        return None
    return csvscan.scan(data, ",", skip_blank_lines=True, lines=False)


def _from_scan(scanned, units, name):
    """The checks of the pandas path, on the scanned cells: the same errors in the same order."""
    columns = [c.strip() for c in scanned.names]
    if columns != ["id", "board"]:
        raise ReferenceDataError(BAD_COLUMNS(file=name, columns=",".join(columns)))
    ids, values = scanned.cells(0).strip(), scanned.cells(1).strip()
    twice = duplicated(ids)
    if twice.any():
        raise ReferenceDataError(TWICE(file=name, id=ids.text(np.flatnonzero(twice)[0])))
    board = Index(Cells.from_strings(["A", "B"])).get_indexer(values)
    wrong = np.flatnonzero(board < 0)
    if len(wrong):
        first = factorize(values[wrong])[1]
        raise ReferenceDataError(BAD_BOARD(file=name, value=repr(sorted(values[wrong].text(i) for i in first)[0])))
    position = Index(ids).get_indexer(unit_cells(units))
    if (position < 0).any():
        missing = np.flatnonzero(position < 0)
        raise ReferenceDataError(UNASSIGNED(file=name, n=len(missing), first=units[int(missing[0])]))
    if len(ids) > len(units):
        unknown = np.flatnonzero(unit_index(units).get_indexer(ids) < 0)
        raise ReferenceDataError(NOT_IN_GOLD(file=name, n=len(unknown), first=ids.text(unknown[0])))
    return Boards(units, np.array(["A", "B"])[board[position]])


def _checked(boards, board):
    if board != "all" and not boards.mask(board).any():
        raise ReferenceDataError(EMPTY_BOARD(board=board))
    return boards


NO_USAGE = Message("reference.no_usage_column", "config.yaml names usage_column {column!r} but the gold file has no "
                   "such column.", None)
BAD_USAGE = Message("reference.bad_usage", "gold column {column} has the value {value}; allowed: Public, Private, "
                    "Ignored.", None)
NO_FILE = Message("reference.no_boards_file", "the boards file {file} named in config.yaml is not in the reference "
                  "data.", None)
UNREADABLE = Message("reference.boards_unreadable", "{file} cannot be read as a CSV ({reason}).", None)
BAD_COLUMNS = Message("reference.boards_columns", "{file} must have exactly the columns id,board; it has {columns}.",
                      None)
TWICE = Message("reference.boards_twice", "{file} lists id {id} twice; each unit belongs to exactly one board.", None)
BAD_BOARD = Message("reference.boards_value", "{file} has board {value}; allowed: A, B.", None)
UNASSIGNED = Message("reference.boards_unassigned", "{file} does not assign {n} reference unit(s) (first: {first}); "
                     "every unit needs a board.", None)
NOT_IN_GOLD = Message("reference.boards_not_in_gold", "{file} assigns {n} id(s) that are not in the gold (first: "
                      "{first}).", None)
EMPTY_BOARD = Message("reference.board_empty", "board {board} has no units in the boards assignment; check the split.",
                      None)
