"""ngrams.sorted_matches (every order from one sort of exact keys) against n-grams counted one text at a time with
collections.Counter: the matches of each reference with its hypothesis, and BLEU's clipped matches per segment.

The cases are the ones its keys make hard: a text of one token, orders longer than every text, empty texts
between others, n-grams repeated many times, units long enough to be sorted row by row, and token codes so large
that a key holds them only once they are numbered within each segment (or not at all: then None)."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scorer.metrics import ngrams
from scorer.metrics.ngrams import KEY_BITS, TABLE_SORT_ITEMS, sorted_matches


def counted(text, order):
    return Counter(tuple(text[i:i + order]) for i in range(len(text) - order + 1))


def oracle(hyps, refs, ref_seg, max_order):
    """Per order: (per reference, sum of min(count in its hypothesis, count in it)); per segment, sum over the
    hypothesis's n-grams of min(count, the largest count in one of its references))."""
    out = []
    for order in range(1, max_order + 1):
        h = [counted(t, order) for t in hyps]
        r = [counted(t, order) for t in refs]
        match = [sum(min(c, h[s][g]) for g, c in r[k].items()) for k, s in enumerate(ref_seg)]
        clipped = [sum(min(c, max(r[k][g] for k in range(len(refs)) if ref_seg[k] == s)) for g, c in h[s].items())
                   for s in range(len(hyps))]
        out.append((match, clipped))
    return out


def flat(hyps, refs):
    texts = list(hyps) + list(refs)
    codes = np.array([c for t in texts for c in t], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in texts])]).astype(np.int64)
    return codes, offsets


def check(hyps, refs, ref_seg, max_order):
    codes, offsets = flat(hyps, refs)
    found = sorted_matches(codes, offsets, np.array(ref_seg, dtype=np.int64), max_order, clipped=True)
    if found is None:   # no key holds them (or no token at all): the caller codes each order instead
        return None
    expected = oracle(hyps, refs, ref_seg, max_order)
    assert len(found) == max_order
    for order, ((match, clipped), (want_match, want_clipped)) in enumerate(zip(found, expected), start=1):
        assert match.tolist() == want_match, "order %d" % order
        assert clipped.tolist() == want_clipped, "order %d" % order
    return found


def test_single_tokens_and_orders_longer_than_every_text():
    hyps, refs, seg = [[5], [5], [7]], [[5], [6], [5, 5], [7]], [0, 0, 1, 2]
    found = check(hyps, refs, seg, 4)
    assert found[0][0].tolist() == [1, 0, 1, 1] and found[3][0].tolist() == [0, 0, 0, 0]


def test_empty_texts_between_others_read_nothing_of_their_neighbours():
    # an empty hypothesis, an empty reference, and texts whose last n-grams would run on into the next text
    hyps, refs, seg = [[1, 2], [], [1, 2, 3]], [[], [1, 2, 1, 2], [2, 3], [], [3, 1, 2, 3]], [0, 0, 1, 2, 2]
    check(hyps, refs, seg, 4)


def test_repeated_ngrams_are_clipped_on_both_sides():
    hyps = [[1] * 50 + [2, 1] * 20, [3, 3, 3]]
    refs = [[1] * 7, [2, 1] * 30 + [1] * 3, [3] * 10, [3]]
    check(hyps, refs, [0, 0, 1, 1], 4)


def test_units_long_enough_to_be_sorted_row_by_row():
    rng = np.random.default_rng(7)
    hyps = [rng.integers(0, 3, rng.integers(TABLE_SORT_ITEMS, 3 * TABLE_SORT_ITEMS)).tolist() for _ in range(6)]
    refs = [rng.integers(0, 3, rng.integers(TABLE_SORT_ITEMS, 3 * TABLE_SORT_ITEMS)).tolist() for _ in range(9)]
    seg = [0, 0, 1, 2, 3, 3, 3, 4, 5]
    check(hyps, refs, seg, 6)


def test_one_long_text_past_many_short_ones():
    # one unit far longer than the others: one sort (a table row per unit would be mostly padding)
    rng = np.random.default_rng(3)
    hyps = [rng.integers(0, 4, 5000).tolist()] + [[1, 2]] * 20
    refs = [rng.integers(0, 4, 4000).tolist()] + [[2, 1, 2]] * 20
    check(hyps, refs, list(range(21)), 4)


def test_codes_at_the_width_limit_are_numbered_within_segments():
    # codes too wide for 4 digits in one key: numbered within each segment (few distinct codes each)
    big = 1 << 40
    hyps = [[big, big + 1, big], [big + 7, 3, big + 7, 3]]
    refs = [[big + 1, big, big + 1, big], [big], [3, big + 7, 3]]
    assert check(hyps, refs, [0, 0, 1], 4) is not None


@pytest.mark.parametrize("max_order", [2, 3])
def test_codes_exactly_filling_the_key(max_order):
    # one reference: no bit of unit; the digits take every bit left but the side's (all 62 of them at order 2)
    digit_bits = (KEY_BITS - 1) // max_order
    top = (1 << digit_bits) - 2   # codes + 1 fill the digit
    hyps = [[top, 0, top, top]]
    refs = [[0, top, top, 0, top]]
    assert check(hyps, refs, [0], max_order) is not None


def test_no_key_holds_them_gives_none():
    # a segment with more distinct codes than a digit can number: no exact key, the caller codes each order
    max_order = 9
    digit_bits = (KEY_BITS - 1) // max_order
    text = list(range(1 << digit_bits))
    assert sorted_matches(*flat([text], [text]), np.array([0]), max_order) is None


texts = st.lists(st.integers(0, 4), max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.integers(1, 6), st.sampled_from([0, 1 << 20, 1 << 50]))
def test_every_order_of_any_texts_is_the_counted_one(segments, max_order, shift):
    hyps = [[c + shift for c in h] for h, _ in segments]
    refs = [[c + shift for c in r] for _, rs in segments for r in rs]
    seg = [i for i, (_, rs) in enumerate(segments) for _ in rs]
    check(hyps, refs, seg, max_order)


@pytest.mark.parametrize("max_order", [1, 2, 4, 6])
def test_row_by_row_and_one_sort_agree(monkeypatch, max_order):
    # the same texts through both sorts of _sorted_by_unit
    rng = np.random.default_rng(max_order)
    hyps = [rng.integers(0, 3, 150).tolist() for _ in range(4)]
    refs = [rng.integers(0, 3, 120).tolist() for _ in range(8)]
    seg = [0, 0, 1, 1, 2, 2, 3, 3]
    check(hyps, refs, seg, max_order)
    monkeypatch.setattr(ngrams, "TABLE_SORT_ITEMS", 10 ** 9)
    check(hyps, refs, seg, max_order)
