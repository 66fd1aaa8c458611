"""Turning space-separated tag strings into integer codes, fast and exactly.

A row such as ``"B-BANK I-BANK O"`` becomes codes ``[1, 2, 0]``. The cells of
a column (``cells.Cells``: offsets into the bytes the file was read from) are
cut at whitespace with numpy, a few megabytes of the buffer at a time. Each
token's bytes are read as 64-bit words straight from the buffer (a view with a
one-byte stride, so one gather reads eight bytes), masked to the token's
length, and compared with the vocabulary's words: the match is exact, and a
token that is not exactly a vocabulary tag gets code -1. No Python code runs
per row or per token.

>>> encode(["B-X I-X O", "", "O Y"], ["O", "B-X", "I-X"]).codes.tolist()
[1, 2, 0, 0, -1]
"""
from dataclasses import dataclass

import numpy as np

from .cells import BYTE_MASKS, Cells, joined, offset_value

SEPARATOR_MAX = 32  # the cutting rule: every character (byte) up to U+0020 separates tokens
CHUNK_BYTES = 1 << 20  # bytes of the buffer cut at once: the temporaries stay small and are reused
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd multiplier that spreads the words into one hash key


@dataclass
class Encoded:
    codes: np.ndarray   # int16 code per token, -1 for a token outside the vocabulary
    counts: np.ndarray  # tokens per row

    def locate(self, token_index):
        """(row, position within the row) of a token, both 0-based."""
        ends = np.cumsum(self.counts)
        row = int(np.searchsorted(ends, token_index, side="right"))
        return row, int(token_index - (ends[row] - self.counts[row]))


def encode(strings, vocabulary):
    """Codes of the tags in ``strings`` (a list of str) against ``vocabulary`` (a list of str)."""
    return encode_cells(Cells.from_strings(list(strings)), vocabulary)


def encode_cells(cells, vocabulary):
    """Codes of the tags in ``cells`` (a Cells) against ``vocabulary``: int8 codes when it has under 127 tags."""
    table = _Vocabulary(vocabulary)
    dtype = np.int8 if len(vocabulary) < 127 else np.int16
    cells = ordered(cells)
    codes, counts = [], np.zeros(len(cells), dtype=np.int64)
    words = cells.words()
    for rows, starts, lengths, counts[rows] in token_chunks(cells):
        codes.append(table.lookup(cells.buf, words, starts, lengths).astype(dtype))
    if not codes:
        return Encoded(np.zeros(0, dtype), counts)
    return Encoded(np.concatenate(codes) if len(codes) > 1 else codes[0], counts)


def token_chunks(cells):
    """(rows slice, token starts, token lengths, tokens per row) for consecutive cells, about CHUNK_BYTES of the
    buffer at a time (a longer cell in one piece, cut CHUNK_BYTES at a time); ``cells`` must be in buffer order
    (``ordered``)."""
    scratch = np.zeros(CHUNK_BYTES + 1, dtype=bool)
    for rows, lo, hi in _runs(cells):
        yield (rows,) + _cut(cells, rows, lo, hi, scratch)


def ordered(cells):
    """``cells`` if they lie in buffer order with a byte between any two; else a compact copy that does."""
    full = np.flatnonzero(cells.end > cells.start)
    start, end = cells.start[full], cells.end[full]
    if (start[1:] > end[:-1]).all() and (cells.start[1:] >= cells.start[:-1]).all():
        return cells
    data = joined(cells, b"\0")
    lengths = cells.lengths()
    begin = np.cumsum(lengths + 1) - lengths - 1
    return Cells(np.frombuffer(data, dtype=np.uint8), begin, begin + lengths)


def _runs(cells):
    """(rows slice, lo, hi): consecutive cells whose bytes lie in buf[lo:hi], about CHUNK_BYTES each."""
    n = len(cells)
    k = 0
    while k < n:
        lo = int(cells.start[k])
        stop = int(np.searchsorted(cells.start, offset_value(cells.start, lo + CHUNK_BYTES), side="left"))
        stop = min(n, max(stop, k + 1))
        yield slice(k, stop), lo, int(cells.end[k:stop].max())
        k = stop


def _cut(cells, rows, lo, hi, scratch):
    """(start, length) of every token of the cells ``rows`` (all in buf[lo:hi]), and the tokens of each cell.

    Tokens are the runs of bytes above U+0020. The byte before and the byte after each cell is made a
    separator, so no run crosses a cell's edge; the runs that lie between the cells (other columns of the
    file) are then dropped. The bytes are read CHUNK_BYTES at a time, so a cell of any length costs no
    temporary longer than that (a run may go on from one piece to the next).
    """
    s, e = cells.start[rows] - lo, cells.end[rows] - lo
    full = e > s
    edges = np.concatenate((s[full] - 1, e[full]))   # forced separators, offsets from lo
    edges.sort()
    bounds = _run_bounds(cells.buf, lo, hi, edges, scratch)
    starts, ends = bounds[0::2], bounds[1::2]
    first, last = np.searchsorted(starts, s), np.searchsorted(starts, e)
    counts = last - first
    if int(counts.sum()) != len(starts):  # runs outside the cells: drop them
        gaps = np.concatenate((first[:1], first[1:] - last[:-1], [len(starts) - last[-1]]))
        begin = np.concatenate(([0], last))
        outside = np.repeat(begin - (np.cumsum(gaps) - gaps), gaps) + np.arange(int(gaps.sum()))
        keep = np.ones(len(starts), dtype=bool)
        keep[outside] = False
        starts, ends = starts[keep], ends[keep]
    return starts + lo, ends - starts, counts


def _run_bounds(buf, lo, hi, edges, scratch):
    """Offsets from ``lo`` where each run of bytes above U+0020 in buf[lo:hi] begins and ends, alternately; the
    bytes at ``edges`` (sorted offsets) count as separators. Read len(scratch) - 1 bytes at a time."""
    step = len(scratch) - 1
    found = []
    inside = False   # whether the byte before the piece belongs to a run
    for a in range(0, hi - lo, step):
        b = min(hi - lo, a + step)
        flag = scratch[:b - a + 1]      # flag[j + 1]: byte lo + a + j is in a run; flag[0]: the byte before
        flag[0] = inside
        np.greater(buf[lo + a:lo + b], SEPARATOR_MAX, out=flag[1:])
        cut = edges[np.searchsorted(edges, a):np.searchsorted(edges, b)]
        flag[cut - a + 1] = False
        changes = np.flatnonzero(flag[1:] != flag[:-1])
        changes += a
        found.append(changes)
        inside = bool(flag[-1])
    if inside:
        found.append(np.array([hi - lo], dtype=np.int64))
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def token_span(cells, row, k):
    """(start, end) in the buffer of token ``k`` (0-based) of cell ``row``, cut as ``encode`` cuts (at every byte up
    to U+0020); the cell is read CHUNK_BYTES at a time, so naming a token of a long cell costs no copy of the cell."""
    lo, hi = int(cells.start[row]), int(cells.end[row])
    scratch = np.zeros(min(CHUNK_BYTES, max(hi - lo, 1)) + 1, dtype=bool)
    seen = 0
    inside = False
    step = len(scratch) - 1
    for a in range(lo, hi, step):
        b = min(hi, a + step)
        flag = scratch[:b - a + 1]
        flag[0] = inside
        np.greater(cells.buf[a:b], SEPARATOR_MAX, out=flag[1:])
        begins = np.flatnonzero(flag[1:] & ~flag[:-1])
        if seen + len(begins) > k:
            start = a + int(begins[k - seen])
            return start, _run_end(cells.buf, start, hi)
        seen += len(begins)
        inside = bool(flag[-1])
    raise IndexError("cell %d has %d tokens" % (row, seen))


def _run_end(buf, start, hi):
    """Where the run of bytes above U+0020 that begins at ``start`` ends (at most ``hi``)."""
    for a in range(start, hi, CHUNK_BYTES):
        gap = np.flatnonzero(buf[a:min(hi, a + CHUNK_BYTES)] <= SEPARATOR_MAX)
        if len(gap):
            return a + int(gap[0])
    return hi


def token_text(cells, row, k, limit=None):
    """Token ``k`` of cell ``row`` as text; with ``limit``, its first ``limit + 1`` characters at most, read from its
    first bytes only (a character has at most 4 bytes): enough for a message to cut it at ``limit`` characters as
    it would cut the whole token (``quoting.clip``), without copying a long one."""
    start, end = token_span(cells, row, k)
    if limit is None:
        return bytes(cells.buf[start:end]).decode("utf-8", "surrogatepass")
    stop = min(end, start + 4 * (limit + 1))
    while stop < end and (cells.buf[stop] & 0xC0) == 0x80:  # not inside a character
        stop -= 1
    return bytes(cells.buf[start:stop]).decode("utf-8", "surrogatepass")[:limit + 1]


def token_holds(cells, row, k, text):
    """True when token ``k`` of cell ``row`` holds ``text`` (a str), searched in its bytes a piece at a time."""
    start, end = token_span(cells, row, k)
    raw = text.encode("utf-8")
    for a in range(start, end, CHUNK_BYTES):
        if bytes(cells.buf[a:min(end, a + CHUNK_BYTES + len(raw) - 1)]).find(raw) >= 0:
            return True
    return False


def _word_at(words_of, starts, lengths, w):
    """Word ``w`` of each token read from the file's buffer (``cells._Words``), zero past the token's end."""
    keep = np.clip(lengths - 8 * w, 0, 8)
    return words_of.at(starts + 8 * w) & BYTE_MASKS[keep]


def _buffer(data, pad):
    """uint8 view of ``data`` plus ``pad`` zero bytes, so word reads past the end stay inside."""
    return np.frombuffer(data + b"\0" * pad, dtype=np.uint8)


_GUESS_LENGTHS = 32


def _word(view, starts, lengths, w):
    """Word ``w`` (bytes 8w..8w+7) of each token, zero past the token's end."""
    keep = np.clip(lengths - 8 * w, 0, 8)
    return view[starts + 8 * w] & BYTE_MASKS[keep]


def _word_view(buf):
    """Every byte offset of ``buf`` read as a little-endian uint64 (a view, no copy)."""
    return np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


def _perfect_hash(keys):
    """(shift, multiplier, slot -> code) sending each of the distinct ``keys`` to a slot of its own.

    >>> shift, mul, slots = _perfect_hash(np.array([3, 99, 12345], dtype=np.uint64))
    >>> sorted(slots[(np.array([3, 99, 12345], dtype=np.uint64) * mul) >> shift].tolist())
    [0, 1, 2]
    """
    bits = max(1, int(len(keys) - 1).bit_length() + 1)
    while True:
        for k in range(64):  # a few odd multipliers per table size; a larger table if none separates the keys
            mul = np.uint64((0x9E3779B97F4A7C15 + 2 * k * 0x632BE59BD9B4E019) % 2 ** 64 | 1)
            shift = np.uint64(64 - bits)
            slots = (keys * mul) >> shift
            if len(np.unique(slots)) == len(keys):
                table = np.full(1 << bits, -1, dtype=np.int64)
                table[slots.astype(np.intp)] = np.arange(len(keys))
                return shift, mul, table
        bits += 1


def _key(words, lengths):
    key = lengths.astype(np.uint64)
    for word in words:
        key = key * _MIX + word
    return key


class _Vocabulary:
    def __init__(self, vocabulary):
        raw = [t.encode("utf-8") for t in vocabulary]
        if any(len(t) == 0 or min(t) <= SEPARATOR_MAX for t in raw):
            raise ValueError("vocabulary tags must be non-empty with no whitespace")
        if len(set(raw)) != len(raw):
            raise ValueError("vocabulary has duplicated tags")
        self.n_words = -(-max(len(t) for t in raw) // 8)
        self.pad = 8 * self.n_words + 8
        self.lengths = np.array([len(t) for t in raw], dtype=np.int64)
        view = _word_view(_buffer(b"".join(raw), self.pad))
        starts = np.cumsum([0] + [len(t) for t in raw[:-1]]).astype(np.int64)
        self.words = np.stack([_word(view, starts, self.lengths, w) for w in range(self.n_words)], axis=1)
        # per word w, each tag's word and the mask of its bytes there (contiguous: gathered by code)
        self.word_of = [np.ascontiguousarray(self.words[:, w]) for w in range(self.n_words)]
        self.mask_of = [BYTE_MASKS[np.clip(self.lengths - 8 * w, 0, 8)] for w in range(self.n_words)]
        # the fewest leading words that, with the length, tell the tags apart
        for k in range(1, self.n_words + 1):
            keys = _key(list(self.words[:, :k].T), self.lengths)
            if len(np.unique(keys)) == len(keys):
                break
        self.key_words = k
        self.hash_shift, self.hash_mul, self.slot_code = _perfect_hash(keys)
        # the one tag a token can be, from its first byte and its length (-2: several, -1: none)
        self.guess = np.full(256 * _GUESS_LENGTHS, -1, dtype=np.int16)
        for code, tag in enumerate(raw):
            at = tag[0] * _GUESS_LENGTHS + min(len(tag), _GUESS_LENGTHS - 1)
            self.guess[at] = code if self.guess[at] == -1 else -2
        # the slots whose token must be compared with its tag: a guess longer than one byte (the tokens of a
        # slot of several tags are compared as they are coded, by _by_key)
        self.check = (self.guess >= 0) & (self.lengths[np.maximum(self.guess, 0)] > 1)

    def lookup(self, buf, words_of, starts, lengths):
        """The code of every token (-1 where it is not exactly a tag)."""
        if not len(starts):
            return np.zeros(0, dtype=np.int16)
        at = buf[starts].astype(np.int32)
        at *= _GUESS_LENGTHS
        at += np.minimum(lengths, _GUESS_LENGTHS - 1)
        code = self.guess[at]
        several = np.flatnonzero(code == -2)
        if len(several):
            code[several] = self._by_key(words_of, starts[several], lengths[several])
        check = np.flatnonzero(self.check[at])  # a guess of one byte is exact already
        if len(check):
            c, st = code[check], starts[check]
            exact = lengths[check] == self.lengths[c]
            # the first word of every checked token under its tag's mask (a token of another length is out)
            exact &= (words_of.at(st) & self.mask_of[0][c]) == self.word_of[0][c]
            for w in range(1, self.n_words):
                live = np.flatnonzero(exact & (self.lengths[c] > 8 * w))
                if not len(live):
                    break
                cl = c[live]
                exact[live] = (words_of.at(st[live] + 8 * w) & self.mask_of[w][cl]) == self.word_of[w][cl]
            code[check[~exact]] = -1
        return code

    def _by_key(self, words_of, starts, lengths):
        """The tag each token is exactly (-1: none), by the key of its first words and then all its words."""
        words = [_word_at(words_of, starts, lengths, w) for w in range(self.key_words)]
        key = _key(words, lengths)
        key *= self.hash_mul
        key >>= self.hash_shift
        code = self.slot_code[key.astype(np.intp)]   # the one tag with this key's slot, if any
        exact = (code >= 0) & (lengths == self.lengths[code])
        for w, word in enumerate(words):  # the words read for the key: zero past the token's end, as the tag's
            exact &= word == self.word_of[w][code]
        for w in range(self.key_words, self.n_words):
            live = np.flatnonzero(exact & (self.lengths[code] > 8 * w))
            if not len(live):
                break
            cl = code[live]
            exact[live] = (words_of.at(starts[live] + 8 * w) & self.mask_of[w][cl]) == self.word_of[w][cl]
        return np.where(exact, code, -1)
