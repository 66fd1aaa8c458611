"""Turning space-separated tag strings into integer codes, fast and exactly.

A row such as ``"B-BANK I-BANK O"`` becomes codes ``[1, 2, 0]``. The strings
of all rows are joined into one byte buffer and cut at whitespace with numpy;
each token is then compared, as packed 8-byte words, with the vocabulary. No
Python code runs per row or per token, and a token that is not exactly a
vocabulary tag gets code -1.
"""
from dataclasses import dataclass

import numpy as np

_DOC_SEP = 0  # NUL separates rows in the joined buffer (it cannot be a tag character)
_SPACES = (9, 10, 13, 32)
CHUNK_ROWS = 50000  # bounds memory on very large files


@dataclass
class Encoded:
    codes: np.ndarray   # int16 code per token, -1 for a token outside the vocabulary
    counts: np.ndarray  # tokens per row

    def locate(self, token_index):
        """(row, position within the row) of a token, both 0-based."""
        ends = np.cumsum(self.counts)
        row = int(np.searchsorted(ends, token_index, side="right"))
        return row, int(token_index - (ends[row] - self.counts[row]))


def _pack(buf, starts, lengths, width):
    """Pack each token's first ``width`` bytes (zero padded) into uint64 words: (n, width // 8)."""
    words = np.zeros((len(starts), width // 8), dtype=np.uint64)
    last = len(buf) - 1
    for j in range(width):  # one pass per byte position, over all tokens at once
        present = lengths > j
        byte = buf[np.minimum(starts + j, last)].astype(np.uint64)
        byte[~present] = 0
        words[:, j // 8] |= byte << np.uint64(8 * (j % 8))
    return words


def encode(strings, vocabulary):
    """Codes of the tags in ``strings`` (a list of str) against ``vocabulary`` (a list of str)."""
    parts = [_encode_chunk(strings[i:i + CHUNK_ROWS], vocabulary) for i in range(0, len(strings), CHUNK_ROWS)]
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return Encoded(empty.astype(np.int16), empty)
    return Encoded(np.concatenate([p.codes for p in parts]), np.concatenate([p.counts for p in parts]))


def _encode_chunk(strings, vocabulary):
    vocab_bytes = [t.encode("utf-8") for t in vocabulary]
    width = max(8, -(-max(len(t) for t in vocab_bytes) // 8) * 8)
    buf = np.frombuffer("\0".join(strings).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    n_rows = len(strings)
    if len(buf) == 0:
        return Encoded(np.zeros(0, np.int16), np.zeros(n_rows, np.int64))

    is_space = np.isin(buf, _SPACES)
    is_sep = is_space | (buf == _DOC_SEP)
    # token boundaries: a token starts where a non-separator follows a separator (or the buffer start)
    edge = np.diff(np.concatenate(([1], is_sep.astype(np.int8), [1])))
    starts = np.flatnonzero(edge == -1)
    ends = np.flatnonzero(edge == 1)
    lengths = ends - starts

    row_breaks = np.flatnonzero(buf == _DOC_SEP)
    row_of_token = np.searchsorted(row_breaks, starts)
    counts = np.bincount(row_of_token, minlength=n_rows)

    words = _pack(buf, starts, lengths, width)
    vocab_words = _pack(np.frombuffer(b"".join(vocab_bytes), np.uint8),
                        np.cumsum([0] + [len(v) for v in vocab_bytes[:-1]]),
                        np.array([len(v) for v in vocab_bytes]), width)
    codes = np.full(len(starts), -1, dtype=np.int16)
    fits = lengths <= width
    for code, target in enumerate(vocab_words):  # one pass per vocabulary tag
        hit = fits & (words == target).all(axis=1)
        codes[hit] = code
    return Encoded(codes, counts)
