"""N-grams of token codes and their clipped counts, for every text of a batch at once.

An n-gram is coded from the code of its (n-1)-gram prefix and its last token: the pair of two integers is one
int64 key, grouped exactly (``cells.group_keys``), so an n-gram's code is exact whatever its order. Counts are
per (text, n-gram) pair, from the same grouping of ``text * width + code`` keys; the matches of a hypothesis
against a reference are ``min(count in hypothesis, count in reference)`` summed over its n-grams.

``sorted_matches`` counts every order of a batch from one sort of exact keys instead (the measures' fast path);
the coding above is its fallback for keys wider than 63 bits, and what other callers use.

>>> codes, offsets = np.array([0, 1, 0, 1, 0, 1, 1]), np.array([0, 4, 7])   # "a b a b" and "a b b"
>>> [(o.tolist(), i.tolist()) for o, i in ngram_codes(codes, offsets, 2)][1]   # bigrams: ab ba ab | ab bb
([0, 0, 0, 1, 1], [0, 1, 0, 0, 2])
"""
import numpy as np

from ..bytelevel.grouping import group_keys


def flat_references(references, reference_segment=None):
    """(reference texts, the hypothesis each belongs to): ``references`` is one sequence of reference texts per
    hypothesis, or a flat sequence of texts with ``reference_segment`` saying whose each is.

    >>> texts, seg = flat_references([["a", "b"], ["c"]])
    >>> texts, seg.tolist()
    (['a', 'b', 'c'], [0, 0, 1])
    """
    if reference_segment is not None:
        return list(references), np.asarray(reference_segment, dtype=np.int64)
    texts, seg = [], []
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            raise TypeError("references of hypothesis %d: give a sequence of strings, not a string" % i)
        texts.extend(refs)
        seg.extend([i] * len(refs))
    return texts, np.asarray(seg, dtype=np.int64)


def check_references(reference_segment, n):
    """Every hypothesis has a reference and every reference a hypothesis (ValueError otherwise)."""
    if len(reference_segment) and (reference_segment.min() < 0 or reference_segment.max() >= n):
        raise ValueError("a reference belongs to no hypothesis")
    if n and np.bincount(reference_segment, minlength=n).min() == 0:
        raise ValueError("hypothesis %d has no reference" % int(np.argmin(np.bincount(reference_segment, minlength=n))))


def best_reference(score, ref_seg, n):
    """Per segment, the position of its reference with the highest score, the first on a tie.

    >>> best_reference(np.array([1.0, 3.0, 3.0, 2.0]), np.array([0, 0, 0, 1]), 2).tolist()
    [1, 3]
    """
    order = np.lexsort((np.arange(len(score)), -score, ref_seg))
    first = np.ones(len(order), dtype=bool)
    first[1:] = ref_seg[order][1:] != ref_seg[order][:-1]
    out = np.empty(n, dtype=np.int64)
    out[ref_seg[order][first]] = order[first]
    return out


def ngram_codes(codes, offsets, max_order):
    """Per order n = 1..max_order: (text of each n-gram, code of each n-gram), n-grams in text order; codes of
    one order are comparable across texts. ``codes``: token codes (>= 0), text i holding
    ``codes[offsets[i]:offsets[i+1]]``."""
    codes = np.asarray(codes, dtype=np.int64)
    n_tok = len(codes)
    lengths = np.diff(offsets)
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    room = np.repeat(offsets[1:], lengths) - np.arange(n_tok)   # tokens from each position to its text's end
    width = int(codes.max()) + 1 if n_tok else 1
    out = [(owner, codes)]
    prev = codes   # code of the n-gram starting at each position (valid where room >= n)
    for n in range(2, max_order + 1):
        valid = np.flatnonzero(room >= n)
        key = prev[valid] * width + codes[valid + n - 1]
        grams, _ = group_keys(key)
        out.append((owner[valid], grams))
        prev = np.full(n_tok, -1, dtype=np.int64)
        prev[valid] = grams
    return out


def matches_per_reference(hyp, ref, ref_text_segment, n_refs):
    """Per reference text r: (sum over its n-grams g of min(count in the hypothesis of its segment, count in r),
    its n-gram count). ``hyp``, ``ref``: (text, code) of the n-grams of one order, hypotheses numbered by
    segment and references by reference text; ``ref_text_segment[r]``: the segment of reference r.

    The (segment, n-gram) pairs of both sides are coded together once, then each reference's pairs by
    (reference, code): two groupings instead of one per side and a look-up.

    >>> match, total = matches_per_reference((np.array([0, 0, 1]), np.array([5, 5, 7])),
    ...                                      (np.array([0, 0, 0, 1, 2]), np.array([5, 5, 5, 7, 6])),
    ...                                      np.array([0, 1, 1]), 3)
    >>> match.tolist(), total.tolist()
    ([2, 1, 0], [3, 1, 1])
    """
    codes, h_count, pair_ref, pair_code, pair_count, _ = _coded_pairs(hyp, ref, ref_text_segment)
    match = np.bincount(pair_ref, weights=np.minimum(h_count[pair_code], pair_count),
                        minlength=n_refs).astype(np.int64)
    total = np.bincount(ref[0], minlength=n_refs).astype(np.int64)
    return match, total


def clipped_matches(hyp, ref, ref_text_segment, n_segments):
    """Per segment: sum over its hypothesis's n-grams g of min(count in the hypothesis, the largest count of g
    in any one of its references) (BLEU's clipping against several references).

    >>> clipped_matches((np.array([0, 0, 0, 1]), np.array([5, 5, 5, 7])),
    ...                 (np.array([0, 1, 1, 2]), np.array([5, 5, 5, 6])), np.array([0, 0, 1]), 2).tolist()
    [2, 0]
    """
    codes, h_count, pair_ref, pair_code, pair_count, code_segment = _coded_pairs(hyp, ref, ref_text_segment)
    most = np.zeros(len(h_count), dtype=np.int64)
    np.maximum.at(most, pair_code, pair_count)   # the same n-gram in several references of a segment: the largest
    return np.bincount(code_segment, weights=np.minimum(h_count, most), minlength=n_segments).astype(np.int64)


def _coded_pairs(hyp, ref, ref_text_segment):
    """The (segment, n-gram) pairs of hypotheses and references coded together: (the codes, each code's count in
    the hypotheses, and per (reference text, code) pair: its reference, its code, its count; each code's
    segment)."""
    width = int(max(hyp[1].max() if len(hyp[1]) else 0, ref[1].max() if len(ref[1]) else 0)) + 1
    segment = np.concatenate([hyp[0], ref_text_segment[ref[0]]]).astype(np.int64)
    codes, first = group_keys(segment * width + np.concatenate([hyp[1], ref[1]]))
    n_codes = len(first)
    n_hyp = len(hyp[0])
    h_count = np.bincount(codes[:n_hyp], minlength=n_codes).astype(np.int64)
    ref_codes = codes[n_hyp:]
    pairs, pair_first = group_keys(ref[0].astype(np.int64) * max(n_codes, 1) + ref_codes)
    pair_count = np.bincount(pairs, minlength=len(pair_first)).astype(np.int64)
    return codes, h_count, ref[0][pair_first], ref_codes[pair_first], pair_count, segment[first]


def lookup(keys, values, wanted):
    """``values`` at the position of each of ``wanted`` in ``keys`` (distinct), 0 where absent."""
    if not len(wanted):
        return np.zeros(0, dtype=np.int64)
    if not len(keys):
        return np.zeros(len(wanted), dtype=np.int64)
    both, _ = group_keys(np.concatenate([keys, wanted]))
    table = np.zeros(int(both.max()) + 1, dtype=np.int64)
    table[both[:len(keys)]] = values
    return table[both[len(keys):]]


KEY_BITS = 63   # a sort key is a non-negative int64
TABLE_SORT_ITEMS = 100   # items per unit from which sorting each unit's row beats one sort (chrF's characters)


def sorted_matches(codes, offsets, reference_segment, max_order, clipped=False):
    """Per order n = 1..max_order: (per reference text r: sum over its n-grams g of min(count in the hypothesis of
    its segment, count in r); per segment, when ``clipped``: BLEU's clipped matches as ``clipped_matches``), all
    orders from one sort; or None when a key cannot hold them (the caller then codes each order with
    ``ngram_codes``). Texts: hypotheses 0..n-1 then references, text i holding ``codes[offsets[i]:offsets[i+1]]``
    (codes >= 0); ``reference_segment[r]``: the segment of reference r.

    Each reference r is a unit holding its own tokens and a copy of its hypothesis's. An item is a token position
    with the key (unit, the codes of the next ``max_order`` tokens of its text as digits, 0 past the text's end,
    side: 0 hypothesis, 1 reference). The keys are exact (no hash: the codes are first numbered within the
    smallest range that holds them, each segment's own if need be), so after one sort the items of one n-gram of
    one unit are one run of equal keys shifted right by the digits of orders above n, for every n at once: a
    run's reference items and hypothesis items are the two counts of that n-gram.

    >>> codes = np.array([0, 1, 0, 1, 0, 1, 1])              # hypothesis "a b a b", reference "a b b"
    >>> [(m.tolist(), c) for m, c in sorted_matches(codes, np.array([0, 4, 7]), np.array([0]), 2)]
    [([3], None), ([1], None)]

    The same counts as the per-order coding, on units long enough to be sorted row by row (``_sorted_by_unit``):

    >>> rng = np.random.default_rng(0)
    >>> lengths = rng.integers(60, 200, 30)   # 10 hypotheses, then two references for each
    >>> codes, offsets = rng.integers(0, 4, lengths.sum()), np.concatenate([[0], np.cumsum(lengths)])
    >>> seg = np.repeat(np.arange(10), 2)
    >>> fast = sorted_matches(codes, offsets, seg, 3, clipped=True)
    >>> grams = [(o < 10, o, g) for o, g in ngram_codes(codes, offsets, 3)]
    >>> per_order = [((o[h], g[h]), (o[~h] - 10, g[~h])) for h, o, g in grams]
    >>> all((m == matches_per_reference(hyp, ref, seg, 20)[0]).all() and (c == clipped_matches(hyp, ref, seg, 10)).all()
    ...     for (m, c), (hyp, ref) in zip(fast, per_order))
    True
    """
    codes = np.asarray(codes, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    ref_seg = np.asarray(reference_segment, dtype=np.int64)
    n_refs = len(ref_seg)
    n = len(offsets) - 1 - n_refs
    if not n_refs or not len(codes):
        return None
    lengths = np.diff(offsets)
    unit_bits = int(n_refs - 1).bit_length()
    room_bits = KEY_BITS - 1 - unit_bits   # bits left for the digits
    digit_bits = int(codes.max() + 1).bit_length()
    if digit_bits * max_order > room_bits:
        codes, width = _codes_per_segment(codes, lengths, ref_seg, n)
        if codes is None:
            return None
        digit_bits = int(width).bit_length()
        if digit_bits * max_order > room_bits:
            return None
    n_tok = len(codes)
    padded = np.concatenate([codes + 1, np.zeros(max_order, dtype=np.int64)])
    digits = padded[:n_tok].copy()
    for i in range(1, max_order):
        digits <<= digit_bits
        digits |= padded[i:i + n_tok]
    del padded
    # the last positions of each text read on into the next text: their digits past the end are made 0
    for room in range(1, max_order):
        last = offsets[1:] - room
        last = last[last >= offsets[:-1]]   # texts of at least ``room`` tokens
        digits[last] &= ~((1 << (digit_bits * (max_order - room))) - 1)
    # the items: per unit r, its hypothesis's tokens (side 0) then its own (side 1)
    piece_start = np.stack([offsets[ref_seg], offsets[n:-1]], axis=1).ravel()
    piece_len = np.stack([lengths[ref_seg], lengths[n:]], axis=1).ravel()
    piece_tag = (np.repeat(np.arange(n_refs, dtype=np.int64), 2) << (digit_bits * max_order + 1)) \
        | np.tile(np.array([0, 1], dtype=np.int64), n_refs)
    n_items = int(piece_len.sum())
    if not n_items:
        return None
    before = np.cumsum(piece_len) - piece_len
    position = np.repeat(piece_start - before, piece_len) + np.arange(n_items, dtype=np.int64)
    key = digits[position]
    del position, digits
    key <<= 1
    key |= np.repeat(piece_tag, piece_len)
    key = _sorted_by_unit(key, piece_len[0::2] + piece_len[1::2])
    refs_before = np.zeros(n_items + 1, dtype=np.int64)
    np.cumsum(key & 1, out=refs_before[1:])
    digit_mask = (1 << digit_bits) - 1
    hyp_len = lengths[:n]
    out = []
    # the runs of the highest order from every item; an order's runs are unions of the runs of the order above
    # (its keys are theirs shifted right by a digit), so each lower order is found among those
    prefix = key >> 1
    new = np.empty(n_items, dtype=bool)
    new[0] = True
    np.not_equal(prefix[1:], prefix[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    head = prefix[starts]
    del prefix, new
    for order in range(max_order, 0, -1):
        if order < max_order:
            head >>= digit_bits
            new = np.empty(len(head), dtype=bool)
            new[0] = True
            np.not_equal(head[1:], head[:-1], out=new[1:])
            kept = np.flatnonzero(new)
            starts, head = starts[kept], head[kept]
        edges = np.append(starts, n_items)
        in_ref = np.diff(refs_before[edges])
        in_hyp = np.diff(edges) - in_ref
        whole = (head & digit_mask) != 0   # the n-gram lies inside its text
        unit = head >> (digit_bits * order)   # ascending: the runs are sorted
        both = np.minimum(in_hyp, in_ref)
        both *= whole
        summed = np.zeros(len(both) + 1, dtype=np.int64)
        np.cumsum(both, out=summed[1:])
        unit_edges = np.searchsorted(unit, np.arange(n_refs + 1, dtype=np.int64))
        match = summed[unit_edges[1:]] - summed[unit_edges[:-1]]
        best = None
        if clipped:
            kept = np.flatnonzero(whole & (in_hyp > 0))   # the hypothesis's distinct n-grams, once per unit
            best = _clip_over_units(unit[kept], both[kept], ref_seg, n, np.maximum(hyp_len - order + 1, 0))
        out.append((match, best))
    return out[::-1]


def _sorted_by_unit(key, unit_len):
    """``key`` sorted, its items already in order of unit (the key's top bits), ``unit_len`` items each. Sorting
    each unit's items on its own row of a table (padded with the largest int64) is faster than one sort of them
    all (shorter sorts, each in cache) when units are long enough (TABLE_SORT_ITEMS on average); when they are
    shorter, or the longest would make the table over twice the items, one sort."""
    n_items = len(key)
    width = int(unit_len.max()) if len(unit_len) else 0
    if n_items < TABLE_SORT_ITEMS * len(unit_len) or width * len(unit_len) > 2 * n_items:
        key.sort()
        return key
    table = np.full((len(unit_len), width), np.iinfo(np.int64).max, dtype=np.int64)
    inside = np.arange(width, dtype=np.int64)[None, :] < unit_len[:, None]
    table[inside] = key   # row by row, in order: exactly the items of each unit
    table.sort(axis=1)
    return table[inside]


def _clip_over_units(unit, both, ref_seg, n, hyp_total):
    """Per segment: sum over its hypothesis's distinct n-grams of the largest ``both`` among its units. Each unit
    of a segment lists the same distinct n-grams in the same (sorted) order, so the j-th entry of every unit of
    a segment is the same n-gram."""
    n_refs = len(ref_seg)
    per_unit = np.bincount(unit, minlength=n_refs)
    if np.bincount(ref_seg, minlength=n).max() == 1:   # one reference per segment: nothing to take the largest of
        return np.bincount(ref_seg[unit], weights=both, minlength=n).astype(np.int64)
    distinct = np.zeros(n, dtype=np.int64)
    distinct[ref_seg] = per_unit
    seg_start = np.cumsum(distinct) - distinct
    unit_start = np.cumsum(per_unit) - per_unit
    j = np.arange(len(unit), dtype=np.int64) - unit_start[unit]
    most = np.zeros(int(distinct.sum()), dtype=np.int64)
    np.maximum.at(most, seg_start[ref_seg[unit]] + j, both)
    return np.bincount(np.repeat(np.arange(n, dtype=np.int64), distinct), weights=most, minlength=n).astype(np.int64)


def _codes_per_segment(codes, lengths, ref_seg, n):
    """(codes numbered 0.. within each segment (its hypothesis and references), one more than the largest), or
    (None, 0) when the (segment, code) pairs do not fit one key."""
    width = int(codes.max()) + 1
    if n * width >= 1 << KEY_BITS:
        return None, 0
    segment = np.concatenate([np.arange(n, dtype=np.int64), ref_seg])
    pair = np.repeat(segment, lengths) * width + codes
    groups, first = group_keys(pair)
    group_segment = pair[first] // width
    by_segment = np.argsort(group_segment, kind="stable")
    per_segment = np.bincount(group_segment, minlength=n)
    local = np.empty(len(first), dtype=np.int64)
    local[by_segment] = np.arange(len(first), dtype=np.int64) - np.repeat(np.cumsum(per_segment) - per_segment,
                                                                          per_segment)
    return local[groups], int(per_segment.max())
