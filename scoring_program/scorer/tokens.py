"""Cells of space-separated tokens: coded against a vocabulary, counted, read as numbers.

One cutting rule everywhere: every character up to U+0020 separates tokens
(``tagcodes.is_separator``), so a message that names "token 3 of the row"
points at what the code read as token 3.

>>> tokens = coded(pd.Series(["a b", "", "c x a"]), ["a", "b", "c"])
>>> tokens.codes.tolist(), tokens.counts.tolist(), tokens.row.tolist(), tokens.position.tolist()
([0, 1, 2, -1, 0], [2, 0, 3], [0, 0, 2, 2, 2], [0, 1, 0, 1, 2])
>>> tokens.first_per_row(tokens.codes < 0), tokens.text(3)
({2: 3}, 'x')
"""
import csv
import io
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .tagcodes import SEPARATOR_MAX, encode, split_tokens


@dataclass
class Tokens:
    """The tokens of every row of a column: code (-1 outside the vocabulary), row and position of each."""

    codes: np.ndarray
    counts: np.ndarray           # tokens per row
    row: np.ndarray
    position: np.ndarray
    column: pd.Series            # the cells, to quote a token in a message

    def duplicated(self):
        """True for a token whose code already came earlier in its row."""
        key = self.row.astype(np.int64) * (int(self.codes.max(initial=0)) + 2) + self.codes + 1
        order = np.argsort(key, kind="stable")
        dup = np.zeros(len(key), dtype=bool)
        dup[order[1:]] = key[order[1:]] == key[order[:-1]]
        return dup

    def first_per_row(self, flags):
        """{row: index of its first flagged token}, for the rows with one (tokens are in row order)."""
        hits = np.flatnonzero(flags)
        rows, first = np.unique(self.row[hits], return_index=True)
        return dict(zip(rows.tolist(), hits[first].tolist()))

    def text(self, token):
        """The token as the participant wrote it."""
        return split_tokens(self.column.iloc[int(self.row[token])])[int(self.position[token])]


def coded(column, vocabulary):
    """Tokens of ``column`` (a Series of strings) coded against ``vocabulary``."""
    enc = encode(column.tolist(), list(vocabulary))
    return _tokens(enc.codes.astype(np.int32), enc.counts.astype(np.int64), column)


def uncoded(column):
    """Tokens of ``column`` without a vocabulary (numbers, say): every code is -1, rows and positions are known."""
    counts = token_counts(column.tolist())
    return _tokens(np.full(int(counts.sum()), -1, dtype=np.int32), counts, column)


def _tokens(codes, counts, column):
    row = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    position = (np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)).astype(np.int32)
    return Tokens(codes, counts, row, position, column)


def token_counts(strings):
    """Tokens in each string, on one joined buffer.

    >>> token_counts(["1 2", "", "  3\\t4  5 ", "6\\x0b7"]).tolist()
    [2, 0, 3, 2]
    """
    buf = np.frombuffer("\0".join(strings).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    is_sep = buf <= SEPARATOR_MAX
    starts = np.flatnonzero(~is_sep & np.concatenate(([True], is_sep[:-1])))
    rows = np.searchsorted(np.flatnonzero(buf == 0), starts, side="right")
    return np.bincount(rows, minlength=len(strings)).astype(np.int64)


def numbers(column):
    """(values, count per row) of space-separated numbers; a token that is not a number is NaN.

    The tokens go one per line through pandas' C number parser; only when some
    token is not a plain number does the slower per-token conversion run.

    >>> v, c = numbers(pd.Series(["0.5 1e-3", "", "x inf"]))
    >>> v.tolist(), c.tolist()
    ([0.5, 0.001, nan, inf], [2, 0, 2])
    """
    strings = column.tolist()
    counts = token_counts(strings)
    if not counts.sum():
        return np.zeros(0), counts
    lines = "\n".join(strings).replace(" ", "\n").replace("\t", "\n").replace("\r", "\n")
    values = None
    if not any(c in lines for c in _OTHER_CONTROLS):  # else a line could hold two tokens
        values = _parse_lines(lines)
    if values is None or len(values) != counts.sum():
        values = pd.to_numeric(pd.Series(split_tokens(" ".join(strings)), dtype=object),
                               errors="coerce").to_numpy(dtype=float)
    return values, counts


_OTHER_CONTROLS = [chr(c) for c in range(SEPARATOR_MAX + 1) if chr(c) not in "\t\n\r "]


def _parse_lines(lines):
    """One float per non-blank line through pandas' C parser, or None when some line is not a number."""
    try:
        return pd.read_csv(io.StringIO(lines), header=None, names=["v"], dtype=np.float64, sep="\t",
                           quoting=csv.QUOTE_NONE, na_filter=False, skip_blank_lines=True,
                           engine="c")["v"].to_numpy()
    except ValueError:  # includes pandas' ParserError
        return None
