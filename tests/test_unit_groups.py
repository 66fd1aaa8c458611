"""A Units group that declares a code per unit (equal codes, equal rows) gives its groups of equal rows without
building every row: the same groups, counts and numbering (order of first appearance) as
``resampling.distinct_rows`` of the whole table, so an interval drawn from them has the same numbers.

Checked on random tables made of every kind of column (``tasks/_per_unit.py``), with codes that tell equal
rows apart and codes finer than the rows (different codes, equal rows), and on classification's label keys,
whose declaration (an item's row is fixed by its gold and predicted class) must hold on every board.
"""
import numpy as np
import pytest

from scorer import resampling
from scorer.tasks._per_unit import PER_CLASS, Each, Ones, Schema, Tally, TallyAt, units_table
from scorer.tasks.base import Units
from test_unit_counts import competition, submission


def assert_same_groups(found, expected):
    assert found.rows.shape == expected.rows.shape
    np.testing.assert_array_equal(found.rows, expected.rows)
    np.testing.assert_array_equal(found.counts, expected.counts)
    np.testing.assert_array_equal(found.inverse, expected.inverse)


def random_units(rng, n, kinds, width, code_of_kind):
    """Units of ``n`` units, each of one of ``kinds`` kinds drawn at random; a unit's row depends on its kind
    only (several kinds may share a row), and its code is ``code_of_kind`` of its kind."""
    kind = rng.integers(0, kinds, size=n)
    value = rng.integers(0, 3, size=(kinds, 2)).astype(float)    # small values: kinds often share rows
    value[rng.random(kinds) < 0.2, 0] = np.nan                   # NaN equals NaN in a row
    category = rng.integers(0, width, size=kinds)
    weight = rng.integers(0, 2, size=kinds).astype(float)
    items_of_kind = rng.integers(0, 3, size=kinds)               # items of each unit, in categories by kind
    per_unit = items_of_kind[kind]
    unit = np.repeat(np.arange(n), per_unit)
    item_category = (category[kind][unit] + np.arange(len(unit)) - np.repeat(np.cumsum(per_unit) - per_unit,
                                                                             per_unit)) % width
    stream = rng.integers(0, 3, size=kinds)                      # positions of a stream cut per unit
    lengths = stream[kind] + 1
    ends = np.cumsum(lengths)
    positions = np.flatnonzero(np.arange(ends[-1] if n else 0) - np.repeat(ends - lengths, lengths)
                               < np.repeat(stream[kind], lengths))
    columns = {"ones": Ones(n), "values": Each(value[kind]), "doubled": Each(lambda: value[kind][:, 0] * 2.0, 1),
               "category": Tally(None, n, category[kind], width),
               "weighted": Tally(None, n, category[kind], width, weight=weight[kind]),
               "items": Tally(unit, n, item_category, width), "at": TallyAt(positions, ends)}
    return Units("random", ("x",), SCHEMA, columns, n, code=code_of_kind[kind])


SCHEMA = Schema("ones", ("values", 2), "doubled", ("category", PER_CLASS), ("weighted", PER_CLASS),
                ("items", PER_CLASS), "at")


@pytest.mark.parametrize("seed", range(40))
def test_groups_by_code_are_the_distinct_rows_of_the_table(seed):
    rng = np.random.default_rng(seed)
    n, kinds, width = int(rng.integers(1, 300)), int(rng.integers(1, 30)), int(rng.integers(1, 5))
    # codes: large, in any order, each kind its own (several kinds may still have equal rows: merged)
    code_of_kind = rng.choice(np.arange(-10 ** 6, 10 ** 6), size=kinds, replace=False)
    group = random_units(rng, n, kinds, width, code_of_kind)
    expected = resampling.distinct_rows(group.make())
    assert_same_groups(group.groups(), expected)
    if kinds > 1:   # codes coarser than the table's rows: not what the table gives (the declaration is broken)
        group.code = np.zeros(n, dtype=np.int64)
        if len(expected.counts) > 1:
            with pytest.raises(AssertionError):
                assert_same_groups(group.groups(), expected)


def test_without_a_code_the_groups_are_those_of_the_whole_table():
    rng = np.random.default_rng(1)
    group = random_units(rng, 50, 6, 3, np.arange(6))
    group.code = None
    assert_same_groups(group.groups(), resampling.distinct_rows(group.make()))


def test_the_rows_of_some_units_are_those_of_the_whole_table():
    rng = np.random.default_rng(2)
    group = random_units(rng, 200, 12, 4, np.arange(12))
    whole = group.make()
    for some in (np.array([0]), np.array([199, 3, 50]), np.flatnonzero(rng.random(200) < 0.3), np.zeros(0, int)):
        np.testing.assert_array_equal(units_table(SCHEMA.ordered(group.columns), group.n, units=some), whole[some])


def test_an_interval_from_the_groups_has_the_table_s_numbers():
    rng = np.random.default_rng(3)
    group = random_units(rng, 400, 10, 3, np.arange(10) * 7)
    share = lambda sums: SCHEMA.read(sums)["category"][..., 0] / SCHEMA.read(sums)["ones"]   # the first category's
    low, high = resampling.interval(group.groups(), share, 300, 0.9, seed=5)
    assert 0 < low < high < 1
    assert (low, high) == resampling.interval(group.make(), share, 300, 0.9, seed=5)


CLASSIFICATION = [{}, {"average": "weighted", "ordinal_order": ["good", "okay", "excellent", "poor", "terrible"]}]


@pytest.mark.parametrize("options", CLASSIFICATION, ids=["default", "ordinal"])
def test_classification_declares_the_groups_of_its_label_rows(tmp_path, options):
    """An item's row of the label keys (gold, predicted and right per class, squared ordinal distance) is fixed
    by its (gold, predicted) pair, as its code says: on every board, with the sample and a spoiled submission."""
    for board, spoiled in (("A", False), ("A", True), ("B", True)):
        comp = competition(tmp_path / board, "classification", options, board)
        sub = submission(tmp_path / board, comp, "classification", spoiled)
        if True:
            result = comp.family.score(comp.reference, sub, comp.boards.mask(board), comp.cfg)
            group = result.units_of("accuracy")
            assert group.code is not None
            expected = resampling.distinct_rows(group.make())
            assert len(expected.counts) > 1   # several pairs, so that a wrong code would show
            assert_same_groups(group.groups(), expected)
