"""The kernels that work a block at a time give what plain Python gives, across block boundaries and key collisions.

Each expectation is computed here in plain Python (dicts, sets, str methods, unicodedata), never by the code
under test; blocks are made tiny so that every boundary is crossed, and keys are forced to collide so that
the exact fallbacks run.
"""
import math
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import scorer.bytelevel.cells as cells_module
import scorer.bytelevel.grouping as grouping_module
import scorer.metrics.sets as sets_module
import scorer.resampling as resampling_module
import scorer.bytelevel.vocabulary as vocabulary_module
from scorer.bytelevel.cells import Cells
from scorer.metrics.sets import code_items, coded_overlap_counts, pair_codes
from scorer.resampling import distinct_rows
from scorer.bytelevel.tokens import numbers
from scorer.tables import _first_rows
from scorer.bytelevel.vocabulary import Vocabulary

from helpers import split_tokens

WORDS = st.sampled_from(["a", "b", "ab", " a", "A", "ａ", "字", "long keyword X", "long keyword Y", "\u3000b"])
CELLS = st.lists(st.lists(WORDS, max_size=4).map("_".join), max_size=12)


REAL_KEYS = grouping_module.keys


def zero_keys(cells):
    """Keys that collide wherever a real key could: every cell longer than 8 bytes gets key 0 (up to 8 bytes,
    a real key is a bijection of the bytes for each length, and the kernels rely on it)."""
    return np.where(cells.lengths() > 8, np.uint64(0), REAL_KEYS(cells))


def python_codes(strings):
    seen = {}
    return [seen.setdefault(s, len(seen)) for s in strings], list(seen)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(blocks=st.lists(st.lists(WORDS, max_size=6), max_size=5), collide=st.booleans())
def test_a_vocabulary_codes_cells_in_order_of_first_appearance(blocks, collide):
    with pytest.MonkeyPatch.context() as monkeypatch:
        if collide:
            monkeypatch.setattr(vocabulary_module, "keys", zero_keys)
            monkeypatch.setattr(grouping_module, "keys", zero_keys)
        vocabulary = Vocabulary()
        codes = [c for block in blocks for c in vocabulary.add(Cells.from_strings(block)).tolist()]
        expected, distinct = python_codes([s for block in blocks for s in block])
        assert codes == expected
        assert vocabulary.cells().tolist() == distinct


def python_items(cells, sep, steps):
    rows, items = [], []
    for row, cell in enumerate(cells):
        for piece in cell.split(sep):
            if not piece:
                continue
            if "strip" in steps:
                piece = piece.strip()
            if "nfkc" in steps:
                piece = unicodedata.normalize("NFKC", piece)
            if "casefold" in steps:
                piece = piece.casefold()
            if "strip" in steps and "nfkc" in steps:
                piece = piece.strip()
            if piece:
                rows.append(row)
                items.append(piece)
    return rows, items


@settings(max_examples=150, deadline=None, derandomize=True)
@given(cells=CELLS, steps=st.sampled_from([[], ["strip"], ["strip", "nfkc", "casefold"], ["casefold"]]),
       block=st.sampled_from([1, 2, 5]))
def test_coded_items_are_the_split_and_normalised_keywords(cells, steps, block):
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(sets_module, "CELL_BLOCK", block)
        rows, codes, distinct = code_items(Cells.from_strings(cells), "_", steps)
        expected_rows, expected_items = python_items(cells, "_", steps)
        assert rows.tolist() == expected_rows
        assert [distinct.tolist()[c] for c in codes.tolist()] == expected_items
        assert codes.tolist() == python_codes(expected_items)[0]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(gold=CELLS, pred=CELLS)
def test_coded_overlap_counts_are_set_intersections(gold, pred):
    n = max(len(gold), len(pred))
    gold, pred = gold + [""] * (n - len(gold)), pred + [""] * (n - len(pred))
    c, g, p = coded_overlap_counts(*code_items(gold, "_"), *code_items(pred, "_"), n)
    sets_g = [set(filter(None, cell.split("_"))) for cell in gold]
    sets_p = [set(filter(None, cell.split("_"))) for cell in pred]
    assert c.tolist() == [len(a & b) for a, b in zip(sets_g, sets_p)]
    assert g.tolist() == [len(a) for a in sets_g]
    assert p.tolist() == [len(b) for b in sets_p]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(pairs=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 6)), max_size=30), block=st.sampled_from([1, 3]))
def test_pair_codes_are_the_sorted_distinct_pairs(pairs, block):
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(sets_module, "CELL_BLOCK", block)
        rows = np.array([r for r, _ in pairs], dtype=np.int32)
        items = np.array([i for _, i in pairs], dtype=np.int32)
        assert pair_codes(rows, items, 7).tolist() == sorted({r * 7 + i for r, i in pairs})


@settings(max_examples=150, deadline=None, derandomize=True)
@given(values=st.lists(st.sampled_from([0, 1, -1, 7, 2 ** 62, -2 ** 63, 2 ** 63 - 1, 12345]), max_size=30),
       rounds=st.sampled_from([1, 2, 64]), fast_at=st.booleans())
def test_group_keys_codes_by_first_appearance_however_the_table_fills(values, rounds, fast_at):
    # rounds=1 or 2: probing gives up early and the keys are sorted instead; fast_at False: an older numpy,
    # whose ufunc.at is slow, sorts from the start
    from scorer.bytelevel.grouping import group_keys
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(grouping_module, "PROBE_ROUNDS", rounds)
        monkeypatch.setattr(grouping_module, "_FAST_UFUNC_AT", fast_at)
        codes, first = group_keys(np.array(values, dtype=np.int64))
    expected, distinct = python_codes(values)
    assert codes.tolist() == expected
    assert first.tolist() == [values.index(v) for v in distinct]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(a=st.sets(st.integers(0, 40), max_size=25), b=st.sets(st.integers(0, 40), max_size=25),
       block=st.sampled_from([1, 2, 5, 1 << 16]))
def test_intersections_and_row_counts_of_pairs_are_the_set_ones(a, b, block):
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(sets_module, "CELL_BLOCK", block)
        sorted_a, sorted_b = np.array(sorted(a), dtype=np.int64), np.array(sorted(b), dtype=np.int64)
        assert sets_module.sorted_intersection(sorted_a, sorted_b).tolist() == sorted(a & b)
        # pairs of 7 items over 6 rows: pair // 7 is the row
        assert sets_module.rows_of_pairs(sorted_a, 7, 6).tolist() == [sum(1 for v in a if v // 7 == r)
                                                                      for r in range(6)]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(ids=st.lists(st.sampled_from(["u1", "u2", "u3", "x", "long unknown id", "long unknown 2nd", ""]), max_size=10),
       collide=st.booleans())
def test_first_rows_name_the_first_row_of_each_id(ids, collide):
    with pytest.MonkeyPatch.context() as monkeypatch:
        if collide:
            monkeypatch.setattr(grouping_module, "keys", zero_keys)
        units = ["u1", "u2", "u3"]
        position = np.array([units.index(i) if i in units else -1 for i in ids], dtype=np.int64)
        empty = np.array([i == "" for i in ids], dtype=bool)
        first = _first_rows(Cells.from_strings(ids), position, empty, len(units))
        expected = [k if s == "" else ids.index(s) for k, s in enumerate(ids)]
        if first is None:   # no id repeats: every row is its own first
            assert expected == list(range(len(ids)))
        else:
            assert first.tolist() == expected


VALUES = st.sampled_from([0.0, -0.0, 1.0, 0.5, float("nan"), 2.0])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=st.lists(st.tuples(VALUES, VALUES), max_size=12), collide=st.booleans())
def test_distinct_rows_group_equal_rows_in_order_of_first_appearance(rows, collide):
    with pytest.MonkeyPatch.context() as monkeypatch:
        if collide:
            monkeypatch.setattr(resampling_module, "row_keys", lambda table: np.zeros(len(table), dtype=np.uint64))
        monkeypatch.setattr(resampling_module, "_ROW_BLOCK", 3)
        table = np.array(rows, dtype=float).reshape(len(rows), 2)
        same = lambda a, b: all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))  # noqa: E731
        firsts, inverse = [], []
        for k, row in enumerate(rows):
            match = [g for g, f in enumerate(firsts) if same(rows[f], row)]
            if not match:
                firsts.append(k)
            inverse.append(match[0] if match else len(firsts) - 1)
        groups = distinct_rows(table)
        assert groups.inverse.tolist() == inverse
        assert groups.counts.tolist() == [inverse.count(g) for g in range(len(firsts))]
        assert np.array_equal(groups.rows, table[firsts].reshape(len(firsts), 2), equal_nan=True)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.5, -1.5, 2.0, -3.25, float("inf"), float("-inf"), 1e-300,
                                        -1e-300, 5e-324]), max_size=12))
def test_ordered_bits_sort_and_tie_as_the_values(values):
    from scorer.metrics.ties import ordered_bits
    keys = ordered_bits(np.array(values, dtype=float)).tolist()
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            assert (keys[i] < keys[j]) == (a < b) and (keys[i] == keys[j]) == (a == b)


TAG_SETS = [["O", "B-BANK", "I-BANK", "B-COMMENTS_ADJ", "I-COMMENTS_ADJ", "B-PRODUCT", "I-PRODUCT"],
            ["label_%02d" % i for i in range(28)],
            ["aa", "ab", "ba", "a" * 17, "a" * 16 + "b", "b" * 9, "x"]]
NEAR = ["label_2x", "label_027", "label_0", "labelx01", "B-BANKS", "I-BAN", "B-COMMENTS_AD", "aaa", "a" * 18,
        "a" * 16 + "c", "b" * 8, "X", "o", "字"]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=st.data(), which=st.integers(0, len(TAG_SETS) - 1), chunk=st.sampled_from([16, 64, 1 << 20]))
def test_tag_codes_are_exact_dictionary_look_ups(data, which, chunk):
    import scorer.bytelevel.tagcodes as tagcodes_module
    tags = TAG_SETS[which]
    token = st.sampled_from(tags + NEAR)
    rows = data.draw(st.lists(st.lists(token, max_size=6).map(" ".join), max_size=8))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tagcodes_module, "CHUNK_BYTES", chunk)
        enc = tagcodes_module.encode(rows, tags)
    expected = [tags.index(t) if t in tags else -1 for row in rows for t in row.split()]
    assert enc.codes.astype(int).tolist() == expected
    assert enc.counts.tolist() == [len(row.split()) for row in rows]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(strings=st.lists(WORDS, max_size=12), vocabulary=st.lists(WORDS, unique=True, max_size=8),
       crowded=st.booleans())
def test_an_index_finds_cells_in_any_bucket(strings, vocabulary, crowded):
    # an Index buckets its keys by their top bits; crowded: every key in bucket 0, found by scanning it
    from scorer.bytelevel.grouping import Index
    expected = [vocabulary.index(s) if s in vocabulary else -1 for s in strings]
    with pytest.MonkeyPatch.context() as monkeypatch:
        if crowded:
            monkeypatch.setattr(grouping_module, "keys", lambda cells: REAL_KEYS(cells) & np.uint64(0xFFFFFFFF))
            monkeypatch.setattr(grouping_module, "PROBE_ROUNDS", 2)  # and a crowded bucket is searched past that
        for module in (cells_module, grouping_module):   # both read cells a block at a time
            monkeypatch.setattr(module, "BLOCK", 3)
        assert Index(Cells.from_strings(vocabulary)).get_indexer(Cells.from_strings(strings)).tolist() == expected


@settings(max_examples=150, deadline=None, derandomize=True)
@given(a=st.lists(st.integers(0, 30), max_size=20), v=st.lists(st.integers(-2, 32), max_size=20),
       side=st.sampled_from(["left", "right"]), block=st.sampled_from([1, 2, 5]))
def test_search_sorted_is_searchsorted_for_sorted_queries(a, v, side, block):
    from scorer.metrics.spans import search_sorted
    a, v = np.sort(np.array(a, dtype=np.int64)), np.sort(np.array(v, dtype=np.int64))
    assert search_sorted(a, v, side, block).tolist() == np.searchsorted(a, v, side).tolist()


@pytest.mark.parametrize("sorted_entries", [0, 1 << 22])
def test_per_class_ap_finds_each_class_by_sort_or_by_comparison_alike(sorted_entries):
    # 0: every class's entries found by a comparison (the path of very long lists); else by one sort
    from sklearn.metrics import average_precision_score
    import scorer.metrics.label_ranking as label_ranking_module
    rng = np.random.default_rng(7)
    n, n_classes = 300, 6
    relevant = rng.random((n, n_classes)) < 0.3
    scores = np.round(rng.random((n, n_classes)), 2)   # ties inside classes
    order = np.argsort(-scores, axis=1, kind="stable")[:, :4]   # four labels listed per sample
    listed = label_ranking_module.Listed.of(order.tolist(), np.take_along_axis(scores, order, 1).tolist())
    matrix = np.full((n, n_classes), -np.inf)
    np.put_along_axis(matrix, order, np.take_along_axis(scores, order, 1), 1)
    matrix[np.isinf(matrix)] = -1.0   # unlisted: below every listed score, tied
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(label_ranking_module, "SORTED_ENTRIES", sorted_entries)
        ours = label_ranking_module.per_class_ap(listed, relevant)
    expected = [average_precision_score(relevant[:, c], matrix[:, c]) if relevant[:, c].any() else 0.0
                for c in range(n_classes)]
    assert ours == pytest.approx(expected, abs=1e-12)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(gold=st.sets(st.integers(0, 60), max_size=20), pred=st.sets(st.integers(0, 60), max_size=20),
       rounds=st.sampled_from([0, 1, 2, 8]))
def test_entities_starting_before_a_span_are_counted_as_searchsorted_counts_them(gold, pred, rounds):
    # disjoint sorted spans from sorted distinct bounds; rounds=0: every span is searched at once
    from scorer.metrics.entity_views import _starting_before
    g, p = sorted(gold), sorted(pred)
    g_start, g_end = np.array(g[0:len(g) // 2 * 2:2]), np.array(g[1:len(g) // 2 * 2:2])
    p_start, p_end = np.array(p[0:len(p) // 2 * 2:2]), np.array(p[1:len(p) // 2 * 2:2])
    lo = np.array([sum(1 for e in g_end if e <= s) for s in p_start], dtype=np.int64)
    expected = [sum(1 for s in g_start if s < e) for e in p_end]
    assert _starting_before(g_start, lo, p_end, rounds).tolist() == expected


def _decimal(sign, whole, fraction):
    return sign + whole + ("." + fraction if fraction else "")


DIGITS = st.text("0123456789", min_size=1, max_size=7)
SHAPED = st.tuples(st.sampled_from(["", "-", "+"]), st.integers(1, 4), st.integers(0, 5))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(shape=SHAPED, draws=st.lists(st.tuples(DIGITS, DIGITS, st.sampled_from(["", "-", "+"])), min_size=1, max_size=30),
       mixed=st.lists(st.sampled_from(["1e3", "-0.5E-2", "123456789.25", "7", "-0", "0.000001", "+12.5"]), max_size=4))
def test_numbers_are_pythons_floats(shape, draws, mixed):
    """Tokens of one shape (the one-word path), then with others mixed in (the general path): float() each."""
    sign, n_whole, n_fraction = shape
    same = [_decimal(s if sign else "", (w * 4)[:n_whole], (f * 6)[:n_fraction]) for w, f, s in draws]
    for tokens in (same, same + mixed, mixed):
        cells = [" ".join(tokens[k:k + 3]) for k in range(0, len(tokens), 3)]
        values, counts = numbers(cells)
        assert counts.tolist() == [len(c.split()) for c in cells]
        expected = [float(t) for t in tokens]
        assert [v if v != 0 else str(v) for v in values.tolist()] == [e if e != 0 else str(e) for e in expected]


# pieces of cells of any length: spaces of one, two and three bytes, letters of one to three bytes, long runs
PIECES = st.sampled_from(["a", "b", "字", "é", " ", "\t", "\u3000", "\xa0", "\u2029", "\x85", "\x1f", "x" * 37,
                          "long keyword X " * 3, " " * 20, "\u3000" * 9, "0", "0" * 40])
ANY_LENGTH = st.lists(st.lists(PIECES, max_size=24).map("".join), max_size=8)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(strings=ANY_LENGTH, other=ANY_LENGTH, collide=st.booleans(), run=st.sampled_from([1, 3, 1 << 16]),
       short_words=st.sampled_from([0, 1, 4]), rounds=st.sampled_from([0, 1, 16]), window=st.sampled_from([1, 2, 64]))
def test_cells_of_any_length_group_strip_count_and_copy_as_python_does(strings, other, collide, run, short_words,
                                                                        rounds, window):
    # run: words (or bytes) of long cells read per pass, a cell split over passes; short_words: how long a cell
    # may be and still be read a word at a time; rounds: spaces taken off one at a time before the windows, the
    # first of them ``window`` bytes wide
    strings = strings + [s for s in other if s not in strings][:3]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(cells_module, "RUN", run)
        monkeypatch.setattr(grouping_module, "SHORT_WORDS", short_words)
        monkeypatch.setattr(cells_module, "STRIP_ROUNDS", rounds)
        monkeypatch.setattr(cells_module, "STRIP_WINDOW", window)
        monkeypatch.setattr(cells_module, "SLICE_BYTES", 16)
        monkeypatch.setattr(cells_module, "GATHER_BYTES", 5)
        monkeypatch.setattr(cells_module, "LONG_CELL", 40)
        if collide:
            monkeypatch.setattr(grouping_module, "keys", zero_keys)
            monkeypatch.setattr(vocabulary_module, "keys", zero_keys)
        cells = Cells.from_strings(strings)
        assert cells.strip().tolist() == [s.strip() for s in strings]
        assert cells.without_leading("0").tolist() == [s.lstrip("0") for s in strings]
        assert cells.char_lengths().tolist() == [len(s) for s in strings]
        assert cells[::-1].compact().tolist() == strings[::-1]
        codes, first = grouping_module.factorize(cells, ordered=True)
        assert codes.tolist() == python_codes(strings)[0]
        distinct = list(dict.fromkeys(other))
        where = {s: k for k, s in enumerate(distinct)}
        index = grouping_module.Index(Cells.from_strings(distinct))
        assert index.get_indexer(cells).tolist() == [where.get(s, -1) for s in strings]
        vocabulary = Vocabulary()
        added = vocabulary.add(cells[: len(cells) // 2]).tolist() + vocabulary.add(cells[len(cells) // 2:]).tolist()
        assert added == python_codes(strings)[0] and vocabulary.cells().tolist() == python_codes(strings)[1]
        pairs = [(i, j) for i in range(len(strings)) for j in range(len(strings))]
        rows_a, rows_b = np.array([i for i, _ in pairs], dtype=np.int64), np.array([j for _, j in pairs], dtype=np.int64)
        assert grouping_module.same(cells, rows_a, cells, rows_b).tolist() == [strings[i] == strings[j] for i, j in pairs]


def test_a_key_reads_every_byte_of_a_long_cell_in_any_number_of_passes():
    # one megabyte-long cell and its copy with one byte changed near the end, read with runs of one word
    base = "k" * (1 << 20)
    strings = [base, base[:-3] + "j" + base[-2:], base, "k" * 8]
    for run in (1 << 16, 7):
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(cells_module, "RUN", run)
            keys = grouping_module.keys(Cells.from_strings(strings)).tolist() if run > 7 else None
            codes, _ = grouping_module.factorize(Cells.from_strings(strings))
        assert codes.tolist() == [0, 1, 0, 2]
        assert keys is None or (keys[0] == keys[2] and len(set(keys)) == 3)


def pandas_value(token):
    """The value pandas' C parser gives one token of a float column (what the scores column meant before it was
    read here), NaN where it gives none."""
    import csv
    import io
    import pandas as pd
    try:
        return pd.read_csv(io.StringIO(token + "\n"), header=None, names=["v"], dtype=np.float64, sep="\t",
                           quoting=csv.QUOTE_NONE, na_filter=False, engine="c")["v"].tolist()[0]
    except ValueError:
        return math.nan


def pandas_values(tokens):
    """pandas' values of ``tokens``, the column at once when every token is a number to it, else one by one."""
    import csv
    import io
    import warnings
    import pandas as pd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # pandas' own cast of a column it cannot read
        try:
            return pd.read_csv(io.StringIO("\n".join(tokens) + "\n"), header=None, names=["v"], dtype=np.float64,
                               sep="\t", quoting=csv.QUOTE_NONE, na_filter=False, engine="c")["v"].tolist()
        except ValueError:
            return [pandas_value(t) for t in tokens]


def same_float(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


DIGIT_RUNS = st.sampled_from(["", "0", "7", "000000000000000000000", "12345678901234567890123", "9" * 40,
                              "1" + "0" * 307, "1" + "0" * 308, "4" * 400])
EXPONENTS = st.sampled_from(["", "e5", "E-3", "e+0", "e", "e-", "e308", "e-308", "e-324", "e-617", "e400",
                             "e2147483648", "e4294967306", "e-2147483649", "e00000000000000005",
                             "e000000000000000005", "e5x"])
ODD = st.sampled_from(["inf", "-Infinity", "+INF", "nan", "x", "1.5.6", "--1", ".", "+", "1,5", "１", "0x10"])
NUMBER_LIKE = st.tuples(st.sampled_from(["", "-", "+"]), DIGIT_RUNS, st.sampled_from(["", "."]), DIGIT_RUNS,
                        EXPONENTS).map("".join).filter(bool) | ODD


@settings(max_examples=300, deadline=None, derandomize=True)
@given(tokens=st.lists(NUMBER_LIKE, min_size=1, max_size=12), scan=st.sampled_from([3, 64, 1 << 20]),
       chunk=st.sampled_from([16, 1 << 20]))
def test_numbers_of_any_length_are_what_pandas_parser_gives(tokens, scan, chunk):
    """Long mantissas and exponents, leading zeros, wrapping exponents, infinities and non-numbers: the value
    of every token is the one pandas' C parser gives it, read in pieces of any size."""
    import scorer.bytelevel.tagcodes as tagcodes_module
    import scorer.bytelevel.tokens as tokens_module
    cells = [" ".join(tokens[k:k + 3]) for k in range(0, len(tokens), 3)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tokens_module, "SCAN_BYTES", scan)
        monkeypatch.setattr(tagcodes_module, "CHUNK_BYTES", chunk)
        values, counts = numbers(cells)
    assert counts.tolist() == [len(c.split()) for c in cells]
    expected = pandas_values(tokens)
    assert all(same_float(v, e) for v, e in zip(values.tolist(), expected)), list(zip(tokens, values.tolist(),
                                                                                     expected))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(tokens=st.lists(NUMBER_LIKE, min_size=1, max_size=12), block=st.sampled_from([1, 3, 1 << 16]),
       last=st.sampled_from([None, "", "1 2", " 3", "4\t", "0." + "1" * 22, "0." + "1" * 23]))
def test_a_column_of_one_number_per_cell_is_what_pandas_parser_gives(tokens, block, last):
    """A column whose every cell is one token (read without cutting, a block of rows at a time), or whose last cell
    is not (empty, two tokens, a space around it) or is longer than a cell checked word by word: the same values
    and counts as pandas' parser and str.split give."""
    import scorer.bytelevel.tokens as tokens_module
    cells = tokens + ([] if last is None else [last])
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tokens_module, "ROW_BLOCK", block)
        values, counts = numbers(cells)
    assert counts.tolist() == [len(c.split()) for c in cells]
    expected = pandas_values([t for c in cells for t in c.split()])
    assert len(values) == len(expected)
    assert all(same_float(v, e) for v, e in zip(values.tolist(), expected)), list(zip(cells, values.tolist(), expected))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), scale=st.integers(-12, 12), exponent=st.sampled_from(["", "e-5", "E+12"]))
def test_numbers_written_with_every_digit_of_a_double_are_what_pandas_parser_gives(seed, scale, exponent):
    """16 to 21 digits (a double's repr, as to_csv writes it), where the parser's steps round and later digits
    are dropped: one shape, then many shapes at once."""
    rng = np.random.default_rng(seed)
    doubles = rng.lognormal(0.0, 3.0, 40) * 10.0 ** scale * rng.choice([-1.0, 1.0], 40)
    written = [repr(float(v)) for v in doubles]
    digits = rng.integers(0, 10, (40, 21)).astype(str)
    digits[::3, 0] = "0"                      # leading zeros count among the parser's 17 digits
    size = rng.integers(16, 22, 40)           # up to 21 digits: the later ones move the exponent or are skipped
    long = ["".join(row[:k]) + "." + "".join(row[k:m]) + exponent
            for row, k, m in zip(digits, rng.integers(1, 21, 40), size) if k < m]
    whole = ["".join(row[:m]) + exponent for row, m in zip(digits, size)]
    one_shape = ["".join(row[:3]) + "." + "".join(row[3:17]) for row in digits]
    for tokens in (written, long, whole, one_shape, written + long):
        values, counts = numbers(tokens)
        expected = pandas_values(tokens)
        assert all(same_float(v, e) for v, e in zip(values.tolist(), expected)), [
            (t, v, e) for t, v, e in zip(tokens, values.tolist(), expected) if not same_float(v, e)][:3]


def test_a_number_of_megabytes_is_read_in_pieces():
    import scorer.bytelevel.tokens as tokens_module
    long_zero = "0.694" + "0" * (3 << 20)
    cells = ["0.5 " + long_zero + " 1e-3", "-" + "9" * 308 + ".5", "1" + "0" * (1 << 20)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tokens_module, "SCAN_BYTES", 1 << 16)
        values, counts = numbers(cells)
    assert counts.tolist() == [3, 1, 1]
    assert [same_float(v, e) for v, e in zip(values.tolist(), [0.5, 0.694, 0.001, pandas_value(cells[1]),
                                                               math.nan])] == [True] * 5


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=st.lists(st.lists(st.sampled_from(["a", "bc,d", "字字字", "x" * 30, "é" * 9, "1;2"]), max_size=6).map(
    lambda t: "\x01 ".join(t)), min_size=1, max_size=5), chunk=st.sampled_from([3, 16, 1 << 20]),
    limit=st.sampled_from([1, 5, 40]))
def test_a_token_is_named_from_its_own_bytes(rows, chunk, limit):
    import scorer.bytelevel.tagcodes as tagcodes_module
    from scorer.quoting import clip
    from scorer.bytelevel.tagcodes import token_holds, token_text
    cells = Cells.from_strings(rows)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tagcodes_module, "CHUNK_BYTES", chunk)
        for row, text in enumerate(rows):
            for k, token in enumerate(split_tokens(text)):
                assert token_text(cells, row, k) == token
                assert token_text(cells, row, k, limit) == token[:limit + 1]
                assert clip(token_text(cells, row, k, limit), limit) == clip(token, limit)
                assert token_holds(cells, row, k, ",") == ("," in token)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(asked=st.lists(st.sampled_from(["7", "07", "0", "", "x", "00" * 40 + "7", "70"]), min_size=1, max_size=5),
       units=st.lists(st.sampled_from(["007", "7", "0", "8", "000", "x0", "0" * 90 + "7"]), max_size=6),
       window=st.sampled_from([1, 64]))
def test_ids_without_their_leading_zeros_are_found_among_the_units_as_python_finds_them(asked, units, window):
    from scorer.tables import _zeros_dropped
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(cells_module, "STRIP_WINDOW", window)
        found = _zeros_dropped(Cells.from_strings(asked), units)
    assert found == any(a.lstrip("0") in {u.lstrip("0") for u in units} for a in asked)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cells=st.lists(st.lists(st.sampled_from(["p", "P", "o", "O", "s", "S", "neu", "NEG", "正面", "中", "性", " ",
                                                "\u3000", "\xa0", "\u212a", "\u0130", "ｐ", "x" * 30]), max_size=5)
                      .map("".join), max_size=10), labels=st.sampled_from(["en", "zh", "either"]))
def test_opinions_are_the_labels_of_the_stripped_lower_case_text(cells, labels):
    from scorer.tasks.view_sentiment import LABEL_SETS, _opinions
    table = LABEL_SETS[labels]
    assert _opinions(Cells.from_strings(cells), table).tolist() == [table.get(c.strip().lower(), -1) for c in cells]


def test_keys_of_cells_differing_by_opposite_steps_in_two_words_are_distinct():
    """Cells that differ by +d in one word and -d at the same place of another (brand and model numbers) get
    distinct keys: the word hash is no near-linear function of the bytes (with one, these collided, and every
    vocabulary holding them fell back to Python strings)."""
    names = ["品牌%d型号%d" % (brand, model) for brand in range(100, 300) for model in range(10)]
    names += ["view%04d_%04d" % (a, b) for a in range(100) for b in range(100)]
    assert len(set(REAL_KEYS(Cells.from_strings(names)).tolist())) == len(names)


def test_numbers_of_one_token_cells_that_touch_or_come_out_of_buffer_order():
    """Cells of one token each with no byte between them, or not in the order of their bytes: read as they are
    written (the general reader wants them in order and apart, so they are first copied so)."""
    # "0.5", "inf", "-2", then 21 digits (read by any_decimals)
    buf = np.frombuffer(b"0.5inf-21" + b"9" * 20, np.uint8)
    touching = Cells(buf, np.array([0, 3, 6, 8]), np.array([3, 6, 8, 29]))
    values, counts = numbers(touching)
    assert values.tolist() == [0.5, math.inf, -2.0, float("1" + "9" * 20)] and counts.tolist() == [1, 1, 1, 1]
    backwards = Cells(buf, np.array([8, 6, 3, 0]), np.array([29, 8, 6, 3]))
    values, counts = numbers(backwards)
    assert values.tolist() == [float("1" + "9" * 20), -2.0, math.inf, 0.5] and counts.tolist() == [1, 1, 1, 1]


def test_a_cell_is_one_token_unless_a_byte_up_to_space_is_in_it():
    """Every byte value at every place of cells of 1 to 10 bytes (one or two words): a cell is one token exactly
    when none of its bytes is at most U+0020 (the cutting rule), the bytes after it not counting."""
    from scorer.bytelevel.tokens import _one_token_each
    for length in range(1, 11):
        for place in range(length):
            for value in range(1, 256):
                cell = bytearray(b"7" * length)
                cell[place] = value
                buf = np.frombuffer(bytes(cell) + b" 5", np.uint8)   # a separator right after the cell
                cells = Cells(buf, np.array([0, length + 1]), np.array([length, length + 2]))
                assert _one_token_each(cells) == (value > 0x20), (length, place, value)
