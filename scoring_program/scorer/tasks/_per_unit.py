"""A per-unit table declared once, column by column and by name: its rows for resampling, its column sums for
the scores.

A family's leaderboard keys are one formula (``family.unit_scores``) of the column sums of a table with one
row per unit of the board (``base.Units``). The table's ``Schema``, declared once per Units group, names its
columns in order; a name is one column, a block of a fixed width (the nine (gold, predicted) class cells of
a comment), or a block of one column per class (``PER_CLASS``: the table's only free width, which its
declared columns fix when it is built and its width gives when it is read back). The family builds the table
by those names and reads its sums through the same declaration (``Schema.read``: ``sums["right"]``), so no
column is found by its position. Each column says what it holds:

- ``Each(values)``: a value per unit (a count, a per-unit precision, a flag; a 2-D array gives a column
  per class), or a function that gives them when asked (not kept: a large column costs no memory between);
- ``Ones(n)``: 1 for every unit (its sum counts the units);
- ``Tally(unit, n_units, category, n_categories, weight)``: how many items fall in each unit (or their
  total ``weight``), one column per category (matched pairs per conversation and emotion, a class cell
  per comment);
- ``TallyAt(positions, ends)``: how many items sit in each unit of a stream cut at ``ends`` (the sorted
  start positions of entities in the concatenated tags of the comments).

``total()`` (what the board's scores come from) and ``put()`` (the rows, built only when an interval, a
paired test or the Ladder asks for them) are read from that one declaration, so the scores of a board and
of any sample of its units are the same formula of the same counts: summing the rows of every unit gives
``total()`` (exactly for counts; for real-valued columns up to the order of the additions). ``put`` may
build the rows of some units only (``units``: their positions; rows in that order): an interval whose units
come in groups of equal rows needs one row per group (``base.Units.code``).

>>> schema = Schema("units", ("right", PER_CLASS), ("cells", 2))
>>> columns = schema.ordered({"units": Ones(3), "right": TallyAt(np.array([0, 1, 5]), np.array([2, 4, 6])),
...                           "cells": Tally(None, 3, np.array([1, 0, 1]), 2)})
>>> units_table(columns, 3).tolist()
[[1.0, 2.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 1.0]]
>>> sums = schema.read(column_sums(columns))
>>> float(sums["units"]), sums["right"].tolist(), sums["cells"].tolist()
(3.0, [3.0], [1.0, 2.0])
>>> units_table(columns, 3, units=np.array([0, 2])).tolist()
[[1.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0]]
"""
import numpy as np


PER_CLASS = "per class"   # the width of a block of one column per class


class Schema:
    """The named columns of a per-unit table, in order: each a name (one column) or ``(name, width)``, the
    width a number or ``PER_CLASS`` (every such block has one column per class, the same number)."""

    def __init__(self, *columns):
        self.columns = tuple((c, 1) if isinstance(c, str) else tuple(c) for c in columns)
        self.names = tuple(name for name, _ in self.columns)
        if len(set(self.names)) != len(self.names):
            raise ValueError("a column named twice in %r" % (self.names,))
        self._fixed = sum(w for _, w in self.columns if w != PER_CLASS)
        self._blocks = sum(1 for _, w in self.columns if w == PER_CLASS)
        self._single = {name for name, w in self.columns if w == 1}   # read as (...), the others as (..., w)

    def __repr__(self):
        return "Schema%r" % (self.columns,)

    def ordered(self, declared):
        """The column declarations of ``declared`` ({name: column}) in the schema's order, checked: every name
        and no other, each of its width (one width for every per-class block)."""
        if set(declared) != set(self.names):
            raise ValueError("columns %s declared for %r" % (sorted(declared), self))
        per_class = {declared[name].width for name, w in self.columns if w == PER_CLASS}
        wrong = [name for name, w in self.columns if w != PER_CLASS and declared[name].width != w]
        if wrong or len(per_class) > 1:
            raise ValueError("columns %s of %r have other widths" % (wrong or sorted(per_class), self))
        return [declared[name] for name in self.names]

    def layout(self, width):
        """{name: its index (one column) or slice (a block)} in a table ``width`` columns wide."""
        classes, rest = divmod(width - self._fixed, max(self._blocks, 1))
        if rest or classes < 0 or (not self._blocks and width != self._fixed):
            raise ValueError("a table of %d columns is none of %r" % (width, self))
        at, out = 0, {}
        for name, w in self.columns:
            w = classes if w == PER_CLASS else w
            out[name] = at if name in self._single else slice(at, at + w)
            at += w
        return out

    def read(self, sums):
        """``sums`` (column sums of the table, any leading shape) read by name: ``read(sums)[name]``."""
        sums = np.asarray(sums, dtype=float)
        return Named(sums, self.layout(sums.shape[-1]))


class Named:
    """Column sums addressed by name: (...) for a one-column name, (..., width) for a block."""

    def __init__(self, sums, layout):
        self._sums, self._layout = sums, layout

    def __getitem__(self, name):
        return self._sums[..., self._layout[name]]


class Each:
    """A value per unit: ``values`` is an (n,) or (n, width) array, or a function that gives it."""

    def __init__(self, values, width=None):
        self._values = values
        self.width = width if width is not None else (1 if np.ndim(values) == 1 else np.shape(values)[1])

    def values(self):
        return self._values() if callable(self._values) else self._values

    def total(self):
        values = self.values()
        # counts and flags add up exactly in 64-bit integers (and faster than cast to floats on the way)
        dtype = np.int64 if values.dtype.kind in "biu" else float
        if values.ndim == 1:   # one contiguous pass: numpy's pairwise sum
            return np.array([values.sum(dtype=dtype)], dtype=float)
        return values.sum(axis=0, dtype=dtype).astype(float)

    def put(self, out, units=None):
        values = self.values()
        out[:] = (values if units is None else values[units]).reshape(len(out), self.width)


class Ones:
    """1 for each of ``n`` units: its sum is the number of units."""

    width = 1

    def __init__(self, n):
        self.n = n

    def total(self):
        return np.array([float(self.n)])

    def put(self, out, units=None):
        out[:] = 1.0


class Tally:
    """Items counted per unit: item i is in unit ``unit[i]`` (None: item i is unit i) and category
    ``category[i]`` (None: one category), weighing ``weight[i]`` (None: 1)."""

    def __init__(self, unit, n_units, category=None, n_categories=1, weight=None):
        self.unit, self.n_units, self.category, self.weight = unit, n_units, category, weight
        self.width = n_categories

    def total(self):
        if self.category is not None:
            return np.bincount(self.category, weights=self.weight, minlength=self.width).astype(float)
        if self.weight is not None:
            return np.array([np.sum(self.weight, dtype=float)])
        return np.array([float(self.n_units if self.unit is None else len(self.unit))])

    def put(self, out, units=None):
        category = 0 if self.category is None else self.category
        weight = self.weight
        if self.unit is None:   # item i is unit i: the units' own items
            if units is not None:
                category = category if self.category is None else category[units]
                weight = weight if weight is None else weight[units]
            out[:] = 0.0
            out[np.arange(len(out)), category] = 1.0 if weight is None else weight
            return
        unit = self.unit.astype(np.int64)
        if units is not None:   # each item's row among the units asked for (-1: none), the others dropped
            row = np.full(self.n_units, -1, dtype=np.int64)
            row[units] = np.arange(len(units))
            unit = row[unit]
            kept = unit >= 0
            unit = unit[kept]
            category = category if self.category is None else category[kept]
            weight = weight if weight is None else weight[kept]
        cell = unit * self.width + category
        out[:] = np.bincount(cell, weights=weight, minlength=len(out) * self.width).reshape(len(out), self.width)


class TallyAt:
    """Items at sorted ``positions`` of a stream whose units end at ``ends`` (exclusive, increasing); with
    ``keep`` (a mask over the positions), only the items it keeps (no copy of them is kept meanwhile)."""

    width = 1

    def __init__(self, positions, ends, keep=None):
        self.positions, self.ends, self.keep = positions, ends, keep

    def total(self):
        return np.array([float(len(self.positions) if self.keep is None else np.count_nonzero(self.keep))])

    def put(self, out, units=None):
        positions = self.positions if self.keep is None else self.positions[self.keep]
        # items before each unit's end, less those before the previous unit's end
        counts = np.diff(np.searchsorted(positions, self.ends), prepend=0)
        out[:, 0] = counts if units is None else counts[units]


def column_sums(columns):
    """The sums of every column, in order (a float array)."""
    return np.concatenate([np.asarray(c.total(), dtype=float) for c in columns]) if columns else np.zeros(0)


def units_table(columns, n_units, units=None):
    """The (n_units, total width) float table of ``columns``, filled column by column (no stacked copy); with
    ``units`` (positions of units), the rows of those units only, in that order."""
    out = np.empty((n_units if units is None else len(units), sum(c.width for c in columns)))
    at = 0
    for column in columns:
        column.put(out[:, at:at + column.width], units)
        at += column.width
    return out


def group_sums(columns, n_units, group, n_groups):
    """The (n_groups, total width) column sums of each group of units, unit i in group ``group[i]``: the sums a
    page's breakdown by groups of units (samples by their size) reads through the same schema as the board's.

    >>> group_sums([Ones(3), Tally(None, 3, np.array([1, 0, 1]), 2)], 3, np.array([0, 1, 0]), 2).tolist()
    [[2.0, 0.0, 2.0], [1.0, 1.0, 0.0]]
    """
    out = np.zeros((n_groups, sum(c.width for c in columns)))
    at = 0
    for column in columns:   # one column's rows at a time
        rows = np.empty((n_units, column.width))
        column.put(rows)
        for j in range(column.width):
            out[:, at + j] = np.bincount(group, weights=rows[:, j], minlength=n_groups)
        at += column.width
    return out
