"""A per-unit table declared once, column by column: its rows for resampling, its column sums for the scores.

A family's leaderboard keys are one formula (``family.unit_scores``) of the column sums of a table with one
row per unit of the board (``base.Units``). Each column says what it holds:

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

>>> columns = [Ones(3), TallyAt(np.array([0, 1, 5]), np.array([2, 4, 6])), Tally(None, 3, np.array([1, 0, 1]), 2)]
>>> units_table(columns, 3).tolist()
[[1.0, 2.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 1.0]]
>>> column_sums(columns).tolist()
[3.0, 3.0, 1.0, 2.0]
>>> units_table(columns, 3, units=np.array([0, 2])).tolist()
[[1.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0]]
"""
import numpy as np


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
