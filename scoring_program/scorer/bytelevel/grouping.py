"""Exact grouping and look-up of text cells: a key per cell, codes in order of first appearance, an index.

Every grouping is exact: a 64-bit key (``keys``) only brings candidates together, each candidate is then
compared with its group's first member byte for byte (``same``), and on a collision (two different cells, one
key) the work is redone with Python strings.

>>> from scorer.bytelevel.cells import Cells
>>> cells = Cells.from_strings(["b", " a ", "b", ""])
>>> factorize(cells.strip(), ordered=True)[0].tolist(), duplicated(cells).tolist()
([0, 1, 0, 2], [False, False, True, False])
>>> Index(Cells.from_strings(["x", "b"])).get_indexer(cells).tolist()
[1, -1, 1, -1]
"""
import numpy as np

from .cells import BLOCK, BYTE_MASKS, offset_dtype, segment_indices, word

_MIX = np.uint64(0x9E3779B97F4A7C15)   # odd multiplier that spreads the words into one key
_STEP = 0xC2B2AE3D27D4EB4F              # word k of a cell is offset by k times this before it is mixed
_FINAL = np.uint64(0xFF51AFD7ED558CCD)  # odd multiplier of the key's last mixing
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)   # the word mixer's second odd multiplier
PROBE_ROUNDS = 64   # hash-table rounds before crowded keys are sorted or searched instead
_FAST_UFUNC_AT = np.lib.NumpyVersion(np.__version__) >= "1.25.0"   # before, ufunc.at was slower than a sort
SHORT_WORDS = 4   # cells of up to this many 8-byte words are read a word at a time across a block of cells


def keys(cells):
    """A 64-bit key per cell from its length and all its bytes; equal cells have equal keys.

    key = F(length * MIX + sum over the cell's words w_k of h(w_k, k)), with h(., k) and F bijections: a cell of
    up to eight bytes has a key of its own for its length (``same`` relies on it), and the sum over words lets
    a long cell be read as flat runs of words, in any number of passes.
    """
    out = np.empty(len(cells), dtype=np.uint64)
    for a in range(0, len(cells), BLOCK):  # a block of cells at a time: the word temporaries stay small
        out[a:a + BLOCK] = _block_keys(cells[a:a + BLOCK])
    return out


def _word_hash(word, k):
    """h(word, k): what word ``k`` adds to its cell's key (``word``: a fresh uint64 array, changed in place; ``k``
    an int, or an array of one ``k`` per word). A full 64-bit mixer (two multiplications, three shifts), a
    bijection for each k: with one multiplication the sum over words stayed nearly linear in the bytes, and
    cells that differ by +d in one word and -d at the same place of another (``品牌167型号5``, ``品牌197型号2``)
    collided."""
    word += np.uint64(_STEP * k % 2 ** 64) if isinstance(k, int) else k.astype(np.uint64) * np.uint64(_STEP)
    word ^= word >> np.uint64(33)
    word *= _MIX
    word ^= word >> np.uint64(29)
    word *= _MIX2
    word ^= word >> np.uint64(32)
    return word


def _block_keys(cells):
    lengths = cells.lengths()
    key = lengths.astype(np.uint64) * _MIX
    words = cells.words()
    short = lengths <= 8 * SHORT_WORDS
    rows = np.flatnonzero(short & (lengths > 0))
    at, left = cells.start[rows], lengths[rows]
    for k in range(SHORT_WORDS):  # word by word: each step reads the next eight bytes of the cells that have them
        if not len(rows):
            break
        key[rows] += _word_hash(words.at(at) & BYTE_MASKS[np.minimum(left, 8)], k)
        more = left > 8
        rows, at, left = rows[more], at[more] + 8, left[more] - 8
    rows = np.flatnonzero(~short)
    if len(rows):
        key[rows] += _long_word_sums(cells, rows)
    key ^= key >> np.uint64(29)
    key *= _FINAL
    key ^= key >> np.uint64(32)
    return key


def _long_word_sums(cells, rows):
    """The sum of h(w_k, k) over the words of each of the cells ``rows``, their words read as flat runs."""
    start, lengths = cells.start[rows].astype(np.int64), cells.lengths_at(rows).astype(np.int64)
    sums = np.zeros(len(rows), dtype=np.uint64)
    words = cells.words()
    for seg, k in segment_indices((lengths + 7) >> 3):
        h = _word_hash(words.at(start[seg] + 8 * k) & BYTE_MASKS[np.minimum(lengths[seg] - 8 * k, 8)], k)
        heads = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1])))
        sums[seg[heads]] += np.add.reduceat(h, heads)
    return sums


def same(a, rows_a, b, rows_b, equal_keys=False):
    """True where cell ``rows_a[k]`` of ``a`` has exactly the bytes of cell ``rows_b[k]`` of ``b``.

    ``equal_keys``: the pairs are known to have equal ``keys``; then cells of equal length up to 8 bytes are
    equal already (for one length, the key of a one-word cell is a bijection of that word).
    """
    ok = np.empty(len(rows_a), dtype=bool)
    for k in range(0, len(rows_a), BLOCK):
        ok[k:k + BLOCK] = _block_same(a, rows_a[k:k + BLOCK], b, rows_b[k:k + BLOCK], equal_keys)
    return ok


def _block_same(a, rows_a, b, rows_b, equal_keys):
    la, lb = a.lengths_at(rows_a), b.lengths_at(rows_b)
    ok = la == lb
    short = la <= 8 * SHORT_WORDS
    live = np.flatnonzero(ok & short & (la > (8 if equal_keys else 0)))
    words_a, words_b = a.words(), b.words()
    at_a, at_b, left = a.start[rows_a[live]], b.start[rows_b[live]], la[live]
    while len(live):  # word by word, only while the bytes so far are equal and there are more
        mask = BYTE_MASKS[np.minimum(left, 8)]
        equal = (words_a.at(at_a) & mask) == (words_b.at(at_b) & mask)
        ok[live] = equal
        more = equal & (left > 8)
        live, at_a, at_b, left = live[more], at_a[more] + 8, at_b[more] + 8, left[more] - 8
    long = np.flatnonzero(ok & ~short)
    if len(long):
        ok[long] = _same_long(a, a.start[rows_a[long]], b, b.start[rows_b[long]], la[long])
    return ok


def _same_long(a, start_a, b, start_b, lengths):
    """True where the ``lengths`` bytes at ``start_a`` of ``a`` equal those at ``start_b`` of ``b``: the words of
    every pair read as flat runs."""
    start_a, start_b, lengths = start_a.astype(np.int64), start_b.astype(np.int64), lengths.astype(np.int64)
    ok = np.ones(len(lengths), dtype=bool)
    words_a, words_b = a.words(), b.words()
    for seg, k in segment_indices((lengths + 7) >> 3):
        mask = BYTE_MASKS[np.minimum(lengths[seg] - 8 * k, 8)]
        differ = (words_a.at(start_a[seg] + 8 * k) & mask) != (words_b.at(start_b[seg] + 8 * k) & mask)
        ok[seg[differ]] = False
    return ok


def _same_as_first(cells, codes, first):
    """True when every cell has exactly the bytes of the first cell of its code (keys were equal)."""
    for a in range(0, len(cells), BLOCK):
        part = codes[a:a + BLOCK]
        if not _block_same(cells, np.arange(a, a + len(part)), cells, first[part], equal_keys=True).all():
            return False
    return True


def factorize(cells, ordered=False):
    """(codes, first): a code per cell, equal cells alike, and the first cell of each code (``first[code]``).

    Codes follow the order of first appearance (as ``pandas.factorize``); ``ordered`` says a caller relies
    on that order.
    """
    if not len(cells):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    codes, first = group_keys(keys(cells), ordered)
    if not _same_as_first(cells, codes, first):  # a key collision
        return _factorize_strings(cells.tolist())
    return codes, first


def group_keys(key, ordered=False):
    """(codes, first) for the equal values of ``key`` (1-D integers), as ``factorize`` gives for cells: codes
    in order of first appearance (``ordered`` is kept for callers that need no order; they get it anyway).

    Equal keys meet in a hash table (linear probing, at least two slots per key): a few vectorized
    rounds instead of a sort. Keys crafted to crowd the table take too many rounds; those are sorted.

    >>> [a.tolist() for a in group_keys(np.array([7, 3, 7, 5]), ordered=True)]
    [[0, 1, 0, 2], [0, 1, 3]]
    """
    n = len(key)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = np.ascontiguousarray(key)
    if not _FAST_UFUNC_AT:
        return _sorted_groups(key)
    owner = _hash_owners(key.view(np.uint64) if key.dtype.itemsize == 8 else key.astype(np.int64).view(np.uint64))
    if owner is None:
        return _sorted_groups(key)
    first = np.full(n, n, dtype=owner.dtype)
    np.minimum.at(first, owner, np.arange(n, dtype=owner.dtype))  # each group's first position, whoever owns it
    first_of = first[owner]
    del owner
    is_first = np.zeros(n, dtype=bool)
    is_first[first_of] = True
    code = np.cumsum(is_first) - 1
    return code[first_of], np.flatnonzero(is_first)


def _hash_owners(key):
    """For each key, the position of one key equal to it (the same for all of them), or None when probing
    would take more than PROBE_ROUNDS rounds."""
    n = len(key)
    bits = max(4, (2 * n - 1).bit_length())
    mask = (1 << bits) - 1
    small = np.int32 if n < 2 ** 31 else np.int64
    table = np.full(1 << bits, -1, dtype=small)       # slot -> the position of the key that holds it
    slot = ((key * _MIX) >> np.uint64(64 - bits)).view(np.int64)  # multiplicative hashing: the top bits
    table[slot] = np.arange(n, dtype=small)  # the first round: every slot is free; of several claimants, one wins
    owner = table[slot]
    moving = key[owner] != key
    live = np.flatnonzero(moving)
    slot = (slot[live] + 1) & mask
    for _ in range(PROBE_ROUNDS - 1):
        if not len(live):
            return owner
        held = table[slot]
        free = held < 0
        table[slot[free]] = live[free]
        held[free] = table[slot[free]]
        equal = key[held] == key[live]
        owner[live[equal]] = held[equal]
        moving = ~equal
        live, slot = live[moving], (slot[moving] + 1) & mask
    return owner if not len(live) else None


def _sorted_groups(key):
    """``group_keys`` by a stable sort: equal keys side by side."""
    n = len(key)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=new[1:])
    del sorted_key
    first = order[new]   # each key's first position (stable: the earliest of equal keys comes first)
    group = np.cumsum(new)
    del new
    group -= 1
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = group
    del order, group
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    return rank[inverse], first[by_first]


def _factorize_strings(strings):
    seen = {}
    codes = np.fromiter((seen.setdefault(s, len(seen)) for s in strings), dtype=np.int64, count=len(strings))
    return codes, np.unique(codes, return_index=True)[1]


def duplicated(cells):
    """True for a cell equal to an earlier one (``pandas.Series.duplicated``)."""
    codes, first = factorize(cells)
    dup = np.ones(len(cells), dtype=bool)
    dup[first] = False
    return dup


class Index:
    """Distinct cells and their positions; ``get_indexer`` finds other cells among them, exactly.

    The vocabulary's cells must be distinct (``ValueError`` otherwise).
    """

    def __init__(self, cells):
        self.cells = cells
        key = keys(cells)
        self.order = np.argsort(key, kind="stable").astype(offset_dtype(len(key)), copy=False)
        self.sorted_keys = key[self.order]
        self.by_string = None
        if len(key) > 1 and (self.sorted_keys[1:] == self.sorted_keys[:-1]).any():
            strings = cells.tolist()
            self.by_string = {s: k for k, s in enumerate(strings)}
            if len(self.by_string) != len(strings):
                raise ValueError("the cells of an Index must be distinct")
        # keys are uniform 64-bit values: their top bits cut the sorted keys into buckets of about one key,
        # so a look-up reads its bucket's start and a key or two instead of searching the whole array
        bits = max(1, int(len(key)).bit_length())
        self._shift = np.uint64(64 - bits)
        start = np.zeros((1 << bits) + 1, dtype=np.int32 if len(key) < 2 ** 31 else np.int64)
        np.cumsum(np.bincount((self.sorted_keys >> self._shift).astype(np.intp), minlength=1 << bits), out=start[1:])
        self._bucket_start = start

    def __len__(self):
        return len(self.cells)

    def get_indexer(self, cells):
        """Position of each of ``cells`` in the index, -1 where it is not there."""
        if self.by_string is not None:
            return np.array([self.by_string.get(s, -1) for s in cells.tolist()], dtype=np.int64)
        if not len(self.cells) or not len(cells):
            return np.full(len(cells), -1, dtype=np.int64)
        position = np.empty(len(cells), dtype=np.int64)
        for a in range(0, len(cells), BLOCK):  # a block at a time: the look-up's temporaries stay small
            position[a:a + BLOCK] = self._block_indexer(cells[a:a + BLOCK])
        return position

    def _block_indexer(self, cells):
        key = keys(cells)
        bucket = (key >> self._shift).view(np.int64)
        slot, end = self._bucket_start[bucket], self._bucket_start[bucket + 1]
        del bucket
        hit = slot < end
        hit &= self.sorted_keys[np.minimum(slot, len(self.sorted_keys) - 1)] == key
        found = np.where(hit, slot, -1)
        live = np.flatnonzero(~hit & (slot + 1 < end))
        for _ in range(PROBE_ROUNDS):  # the rest of a bucket's keys, one step each: few buckets hold more than two
            if not len(live):
                break
            at = slot[live] + 1
            slot[live] = at
            hit = self.sorted_keys[at] == key[live]
            found[live[hit]] = at[hit]
            live = live[~hit & (at + 1 < end[live])]
        if len(live):  # a crowded bucket: searched
            at = np.minimum(np.searchsorted(self.sorted_keys, key[live]), len(self.sorted_keys) - 1)
            hit = self.sorted_keys[at] == key[live]
            found[live[hit]] = at[hit]
        rows = np.flatnonzero(found >= 0)
        position = np.full(len(cells), -1, dtype=np.int64)
        candidate = self.order[found[rows]]
        exact = _block_same(cells, rows, self.cells, candidate, equal_keys=True)
        position[rows[exact]] = candidate[exact]
        return position

    def tolist(self):
        return self.cells.tolist()
