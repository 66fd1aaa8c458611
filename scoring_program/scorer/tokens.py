"""Cells of space-separated tokens: coded against a vocabulary, counted, read as numbers.

One cutting rule everywhere: every character up to U+0020 separates tokens
(``tagcodes.SEPARATOR_MAX``), so a message that names "token 3 of the row"
points at what the code read as token 3. A column is ``cells.Cells`` (a list
or Series of str is taken too).

>>> tokens = coded(["a b", "", "c x a"], ["a", "b", "c"])
>>> tokens.codes.tolist(), tokens.counts.tolist(), tokens.row.tolist(), tokens.position.tolist()
([0, 1, 2, -1, 0], [2, 0, 3], [0, 0, 2, 2, 2], [0, 1, 0, 1, 2])
>>> tokens.first_per_row(tokens.codes < 0), tokens.text(3)
({2: 3}, 'x')
"""
import csv
import io
from dataclasses import dataclass

import numpy as np

from .cells import Cells
from .lazy import pandas as pd
from .tagcodes import SEPARATOR_MAX, encode_cells, split_tokens, tokens_of


@dataclass
class Tokens:
    """The tokens of every row of a column: code (-1 outside the vocabulary), row and position of each."""

    codes: np.ndarray
    counts: np.ndarray           # tokens per row
    row: np.ndarray
    position: np.ndarray
    column: Cells                # the cells, to quote a token in a message

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
        return split_tokens(self.column.text(self.row[token]))[int(self.position[token])]


def as_cells(column):
    """``column`` as Cells (it may be Cells, a list of str or a pandas Series of str)."""
    return column if isinstance(column, Cells) else Cells.from_strings(list(column))


def coded(column, vocabulary):
    """Tokens of ``column`` coded against ``vocabulary``."""
    cells = as_cells(column)
    enc = encode_cells(cells, list(vocabulary))
    return _tokens(enc.codes.astype(np.int16), enc.counts, cells)


def uncoded(column):
    """Tokens of ``column`` without a vocabulary (numbers, say): every code is -1, rows and positions are known."""
    cells = as_cells(column)
    counts = token_counts(cells)
    return _tokens(np.full(int(counts.sum()), -1, dtype=np.int16), counts, cells)


def _tokens(codes, counts, column):
    row = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    position = (np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)).astype(np.int32)
    return Tokens(codes, counts, row, position, column)


def token_counts(column):
    """Tokens in each cell.

    >>> token_counts(["1 2", "", "  3\\t4  5 ", "6\\x0b7"]).tolist()
    [2, 0, 3, 2]
    """
    return tokens_of(as_cells(column))[2]


def numbers(column):
    """(values, count per row) of space-separated numbers; a token that is not a number is NaN.

    Plain decimals (``-12.5``, ``0.25e-3``: at most 15 digits) are read from the
    bytes with numpy, rounded exactly as pandas' C parser rounds them (one
    division or multiplication of the exact digits by an exact power of ten);
    any other token sends the column through pandas, as before.

    >>> v, c = numbers(["0.5 1e-3", "", "x inf"])
    >>> v.tolist(), c.tolist()
    ([0.5, 0.001, nan, inf], [2, 0, 2])
    """
    cells = as_cells(column)
    starts, lengths, counts, cells = tokens_of(cells)
    values = plain_decimals(cells, starts, lengths)
    if values is not None:
        return values, counts
    return _numbers_by_pandas(cells.tolist(), counts)


MAX_DIGITS = 15          # digits of an exact int64 mantissa below 2**53
MAX_TEN = 22             # 10**22 is the largest power of ten a double holds exactly
_TENS = np.array([10.0 ** k for k in range(MAX_TEN + 1)])
_DIGIT, _DOT, _E, _PLUS, _MINUS = 0, 1, 2, 3, 4


def plain_decimals(cells, starts, lengths):
    """The value of every token if each is ``[+-]digits[.digits][(e|E)[+-]digits]`` (at most 15 digits before
    the exponent, at most 3 in it, a scale within 10**22), else None.

    pandas' parser accumulates those digits exactly and then divides (or multiplies) once by an exact
    power of ten, so the value is the correctly rounded one; here it is computed the same way.
    """
    n = len(starts)
    if not n:
        return np.zeros(0)
    if int(lengths.max()) > 24:
        return None
    buf = cells.buf
    first = buf[starts]
    negative = first == 45
    j = (negative | (first == 43)).astype(np.int64)  # where the digits begin
    mantissa = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    fraction = np.zeros(n, dtype=np.int64)
    exponent = np.zeros(n, dtype=np.int64)
    exp_digits = np.zeros(n, dtype=np.int64)
    exp_negative = np.zeros(n, dtype=bool)
    phase = np.zeros(n, dtype=np.int8)   # 0 integer digits, 1 fraction digits, 2 after e, 3 exponent digits
    int_digits = np.zeros(n, dtype=np.int64)
    ok = lengths > j
    for k in range(int(lengths.max())):
        live = np.flatnonzero(ok & (j + k < lengths) if k else ok)
        if not len(live):
            break
        at = starts[live] + j[live] + k
        c = buf[np.minimum(at, len(buf) - 1)]
        d = c.astype(np.int64) - 48
        is_digit = (d >= 0) & (d <= 9)
        ph = phase[live]
        in_mantissa = ph <= 1
        # digits of the mantissa
        m = is_digit & in_mantissa
        rows = live[m]
        mantissa[rows] = mantissa[rows] * 10 + d[m]
        digits[rows] += 1
        fraction[rows] += ph[m] == 1
        int_digits[rows] += ph[m] == 0
        # a dot after integer digits
        dot = (c == 46) & (ph == 0)
        rows = live[dot]
        bad = int_digits[rows] == 0
        ok[rows[bad]] = False
        phase[rows] = 1
        # an exponent mark after digits
        e = ((c == 101) | (c == 69)) & in_mantissa
        rows = live[e]
        ok[rows[(digits[rows] == 0) | ((phase[rows] == 1) & (fraction[rows] == 0))]] = False
        phase[rows] = 2
        # the exponent's sign, then its digits
        sign = ((c == 43) | (c == 45)) & (ph == 2)
        rows = live[sign]
        exp_negative[rows] = c[sign] == 45
        phase[rows] = 3
        x = is_digit & (ph >= 2)
        rows = live[x]
        exponent[rows] = exponent[rows] * 10 + d[x]
        exp_digits[rows] += 1
        phase[rows] = 3
        ok[live[~(m | dot | e | sign | x)]] = False
    ok &= digits >= 1
    ok &= (phase != 1) | (fraction >= 1)
    ok &= (phase <= 1) | (exp_digits >= 1)
    ok &= (digits <= MAX_DIGITS) & (exp_digits <= 3)
    scale = np.where(exp_negative, -exponent, exponent) - fraction
    ok &= np.abs(scale) <= MAX_TEN
    if not ok.all():
        return None
    value = mantissa.astype(np.float64)
    up = scale >= 0
    value[up] *= _TENS[scale[up]]
    value[~up] /= _TENS[-scale[~up]]
    value[negative] = -value[negative]
    return value


def _numbers_by_pandas(strings, counts):
    """The tokens one per line through pandas' C number parser, or token by token when some is no number."""
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
