"""Turning space-separated tag strings into integer codes, fast and exactly.

A row such as ``"B-BANK I-BANK O"`` becomes codes ``[1, 2, 0]``. The strings
of all rows are joined into one byte buffer and cut at whitespace with numpy.
Each token's bytes are read as 64-bit words straight from the buffer (a view
with a one-byte stride, so one gather reads eight bytes), masked to the token's
length, and compared with the vocabulary's words: the match is exact, and a
token that is not exactly a vocabulary tag gets code -1. No Python code runs
per row or per token.

>>> encode(["B-X I-X O", "", "O Y"], ["O", "B-X", "I-X"]).codes.tolist()
[1, 2, 0, 0, -1]
"""
import re
from dataclasses import dataclass

import numpy as np

SEPARATOR_MAX = 32  # the cutting rule: every character (byte) up to U+0020 separates tokens
_ROW_SEP = "\0"     # joins rows in the buffer
CHUNK_ROWS = 50000  # bounds memory on very large files
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


def split_tokens(text):
    """The tokens of one string, cut exactly where ``encode`` cuts (at every character <= U+0020).

    Messages quote a token by its position from ``encode``; ``str.split`` cuts
    elsewhere (not at U+0001, but at U+3000), so it would quote the wrong one.

    >>> split_tokens(" B-X\x01O  I-X\u3000O ")
    ['B-X', 'O', 'I-X\u3000O']
    """
    return [t for t in _SEPARATORS.split(text) if t]


_SEPARATORS = re.compile("[\\x00-\\x%02x]+" % SEPARATOR_MAX)


def encode(strings, vocabulary):
    """Codes of the tags in ``strings`` (a list of str) against ``vocabulary`` (a list of str)."""
    table = _Vocabulary(vocabulary)
    parts = [_encode_chunk(strings[i:i + CHUNK_ROWS], table) for i in range(0, len(strings), CHUNK_ROWS)]
    if not parts:
        return Encoded(np.zeros(0, np.int16), np.zeros(0, np.int64))
    return Encoded(np.concatenate([p.codes for p in parts]), np.concatenate([p.counts for p in parts]))


def _buffer(data, pad):
    """uint8 view of ``data`` plus ``pad`` zero bytes, so word reads past the end stay inside."""
    return np.frombuffer(data + b"\0" * pad, dtype=np.uint8)


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _word(view, starts, lengths, w):
    """Word ``w`` (bytes 8w..8w+7) of each token, zero past the token's end."""
    keep = np.clip(lengths - 8 * w, 0, 8)
    return view[starts + 8 * w] & _MASKS[keep]


def _word_view(buf):
    """Every byte offset of ``buf`` read as a little-endian uint64 (a view, no copy)."""
    return np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


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
        # the fewest leading words that, with the length, tell the tags apart
        for k in range(1, self.n_words + 1):
            keys = _key(list(self.words[:, :k].T), self.lengths)
            if len(np.unique(keys)) == len(keys):
                break
        self.key_words = k
        self.order = np.argsort(keys)
        self.sorted_keys = keys[self.order]


def _encode_chunk(strings, vocab):
    n_rows = len(strings)
    buf = _buffer(_ROW_SEP.join(strings).encode("utf-8", "surrogatepass"), vocab.pad)
    n = len(buf) - vocab.pad
    if n == 0:
        return Encoded(np.zeros(0, np.int16), np.zeros(n_rows, np.int64))
    is_sep = buf[:n] <= SEPARATOR_MAX
    edge = np.diff(is_sep.view(np.int8), prepend=np.int8(1), append=np.int8(1))
    bounds = np.flatnonzero(edge)  # alternately the start of a token and the end of the same token
    starts = bounds[0::2]
    lengths = bounds[1::2] - starts
    row_breaks = np.flatnonzero(buf[:n] == 0)
    first_token = np.searchsorted(starts, np.concatenate(([0], row_breaks + 1, [n + 1])))
    counts = np.diff(first_token)

    view = _word_view(buf)
    words = [_word(view, starts, lengths, w) for w in range(vocab.key_words)]
    slot = np.searchsorted(vocab.sorted_keys, _key(words, lengths))
    code = vocab.order[np.minimum(slot, len(vocab.order) - 1)]
    exact = lengths == vocab.lengths[code]
    for w, word in enumerate(words):
        exact &= word == vocab.words[code, w]
    for w in range(vocab.key_words, vocab.n_words):  # the rest is read only for tokens that long
        long = np.flatnonzero(exact & (lengths > 8 * w))
        exact[long] = _word(view, starts[long], lengths[long], w) == vocab.words[code[long], w]
    return Encoded(np.where(exact, code, -1).astype(np.int16), counts)
