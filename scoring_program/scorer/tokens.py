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

from .cells import Cells, concatenate_freeing, joined
from .lazy import pandas as pd
from .tagcodes import SEPARATOR_MAX, encode_cells, ordered, split_tokens, token_chunks, tokens_of


SHORT_ROWS = 16  # rows of at most this many tokens are checked for repeats by shifted comparisons


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
        longest = int(self.counts.max(initial=0))
        if longest <= SHORT_ROWS:  # compare each token with the few before it in its row
            dup = np.zeros(len(self.codes), dtype=bool)
            for back in range(1, longest):
                same = self.codes[back:] == self.codes[:-back]
                same &= self.position[back:] >= back
                dup[back:] |= same
            return dup
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


ROW_BLOCK = 1 << 16  # rows whose token positions are computed at once: no temporary as long as the tokens


def _tokens(codes, counts, column):
    n_tokens = int(counts.sum())
    small = np.int32 if n_tokens < 2 ** 31 else np.int64
    row = np.repeat(np.arange(len(counts), dtype=small), counts)
    longest = int(counts.max(initial=0))
    position = np.empty(n_tokens, dtype=np.int16 if longest < 2 ** 15 else small)  # few per row: two bytes each
    if len(counts) and int(counts.min()) == longest:  # every row as long: the positions repeat
        position.reshape(len(counts), longest)[:] = np.arange(longest)
        return Tokens(codes, counts, row, position, column)
    ends = np.cumsum(counts)
    for a in range(0, len(counts), ROW_BLOCK):
        block = counts[a:a + ROW_BLOCK]
        first, last = (int(ends[a - 1]) if a else 0), int(ends[a + len(block) - 1])
        starts = ends[a:a + ROW_BLOCK] - block - first
        position[first:last] = np.arange(last - first) - np.repeat(starts, block)
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
    cells = ordered(as_cells(column))
    parts, counts = [], np.zeros(len(cells), dtype=np.int64)
    for rows, starts, lengths, counts[rows] in token_chunks(cells):  # a megabyte of the column at a time
        values = plain_decimals(cells, starts, lengths)
        if values is None:
            return _numbers_by_pandas(cells, token_counts(cells))
        parts.append(values)
    return concatenate_freeing(parts, np.float64), counts  # each piece freed once copied: never twice the values


MAX_DIGITS = 15          # digits of an exact int64 mantissa below 2**53
MAX_TEN = 22             # 10**22 is the largest power of ten a double holds exactly
FEW_SHAPES = 8           # up to this many shapes (length, dot, exponent, signs), one pass each to find them
_TENS = np.array([10.0 ** k for k in range(MAX_TEN + 1)])
_POW10 = 10 ** np.arange(19, dtype=np.int64)
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def plain_decimals(cells, starts, lengths):
    """The value of every token if each is ``[+-]digits[.digits][(e|E)[+-]digits]`` (at most 15 digits before
    the exponent, at most 3 in it, a scale within 10**22), else None.

    pandas' parser accumulates those digits exactly and then divides (or multiplies) once by an exact power
    of ten, so the value is the correctly rounded one; here it is computed the same way. Tokens are read as
    rows of bytes; tokens of one shape (length, place of the dot and of the exponent, signs) share the
    places of their digits, so each shape is read a column at a time.
    """
    n = len(starts)
    if not n:
        return np.zeros(0)
    longest = int(lengths.max())
    if longest > 24:
        return None
    words = cells.words()
    if longest <= 8 and int(lengths.min()) == longest:  # one word each, all as long: maybe all of one shape
        value = _one_word_shape(words.at(starts) & _MASKS[longest], longest)
        if value is not None:
            return value
    width = 8 * -(-longest // 8)
    byte = np.empty((n, width // 8), dtype=np.uint64)
    for w in range(width // 8):
        byte[:, w] = words.at(starts + 8 * w) & _MASKS[np.clip(lengths - 8 * w, 0, 8)]
    byte = byte.view(np.uint8)                                  # (n, width), zero past each token
    digit = (byte - np.uint8(48)) < 10
    dot = byte == 46
    mark = (byte | np.uint8(32)) == 101                          # e or E
    sign = byte == 43
    sign |= byte == 45
    n_dot, n_mark, n_sign = _row_sums(dot), _row_sums(mark), _row_sums(sign)
    digit |= dot
    digit |= mark
    digit |= sign
    if (_row_sums(digit) != lengths).any() or n_dot.max() > 1 or n_mark.max() > 1:
        return None
    rows = np.arange(n)
    epos = np.where(n_mark > 0, mark.argmax(1), lengths) if n_mark.any() else lengths
    dpos = np.where(n_dot > 0, dot.argmax(1), epos) if n_dot.any() else epos
    lead = sign[:, 0].astype(np.int64)
    exp_sign = (n_mark > 0) & sign[rows, np.minimum(epos + 1, width - 1)]
    fraction = np.where(n_dot > 0, epos - dpos - 1, 0)
    exp_digits = np.where(n_mark > 0, lengths - epos - 1 - exp_sign, 0)
    ok = n_sign == lead + exp_sign
    ok &= dpos - lead >= 1                                       # digits before the dot (or the e)
    ok &= (n_dot == 0) | (fraction >= 1)
    ok &= (n_mark == 0) | ((exp_digits >= 1) & (exp_digits <= 3))
    ok &= dpos - lead + fraction <= MAX_DIGITS
    if not ok.all():
        return None
    shape = ((lengths * 32 + dpos) * 32 + epos) * 4 + lead * 2 + exp_sign
    kinds = np.flatnonzero(np.bincount(shape))
    if len(kinds) == 1:
        groups = [rows]
    elif len(kinds) <= FEW_SHAPES:
        groups = [np.flatnonzero(shape == kind) for kind in kinds.tolist()]
    else:
        order = np.argsort(shape, kind="stable")
        cut = np.flatnonzero(np.diff(shape[order])) + 1
        groups = np.split(order, cut)
    values = np.empty(n)
    for at in groups:
        if len(groups) == 1:
            at = slice(None)
        i = 0 if len(groups) == 1 else int(at[0])
        value = _one_shape(byte, at, int(lengths[i]), int(dpos[i]), int(epos[i]), int(lead[i]), bool(exp_sign[i]),
                           bool(n_dot[i]), bool(n_mark[i]))
        if value is None:
            return None
        values[at] = value
    return values


_DIGIT_HIGH = np.uint64(0x3030303030303030)   # '0'..'9' are 0x30..0x39: high nibble 3
_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_SIX = np.uint64(0x0606060606060606)           # a low nibble up to 9 stays below 16 when 6 is added
_CARRY = np.uint64(0x1010101010101010)


def _one_word_shape(word, length):
    """The values of tokens of ``length`` bytes (at most 8, one little-endian word each) if every one has the
    first one's shape, ``[+-]digits[.digits]`` (a dot, if any, in the same place), else None.

    The same arithmetic as ``_one_shape``, with the shape checked on whole words: 1 for the dot and sign
    bytes, 2 for the high and low nibbles of the digits.

    >>> words = lambda *tokens: np.frombuffer(b"".join(t.ljust(8, b"\\0") for t in tokens), dtype="<u8")
    >>> _one_word_shape(words(b"0.25", b"1.75"), 4).tolist(), _one_word_shape(words(b"-1.5", b"+2.5"), 4).tolist()
    ([0.25, 1.75], [-1.5, 2.5])
    >>> _one_word_shape(words(b"0.25", b"-1.5"), 4), _one_word_shape(words(b"12e3"), 4)   # two shapes; an exponent
    (None, None)
    """
    first = int(word[0]).to_bytes(8, "little")[:length]
    lead = int(first[:1] in (b"+", b"-"))
    dot = first.find(b".")
    columns = [j for j in range(lead, length) if j != dot]
    if not columns or (dot >= 0 and (dot - lead < 1 or dot == length - 1)):
        return None
    digits = np.uint64(sum(0xFF << (8 * j) for j in columns))
    x = word & digits
    if ((x & ~_NIBBLES) != (_DIGIT_HIGH & digits)).any() or (((x & _NIBBLES) + (_SIX & digits)) & _CARRY).any():
        return None
    if dot >= 0 and (((word >> np.uint64(8 * dot)) & np.uint64(0xFF)) != 46).any():
        return None
    if lead:
        sign = word & np.uint64(0xFF)
        if ((sign != 43) & (sign != 45)).any():
            return None
    value = _eight_digits(word, columns).astype(np.float64)
    if dot >= 0:
        value /= _TENS[length - dot - 1]
    if lead:
        value = np.where(sign == 45, -value, value)
    return value


def _eight_digits(words, columns):
    """The number written by the digit bytes at ``columns`` (at most 8, the most significant first) of each word.

    The digits are moved next to each other at the top of a word, the bytes above filled with '0', and the
    eight digits combined in three steps (pairs, fours, eights), each a multiply, a shift and a mask.
    """
    packed = np.zeros(len(words), dtype=np.uint64)
    out = 8 - len(columns)           # byte where the first digit goes
    run_start = 0
    for k in range(1, len(columns) + 1):  # one move per run of adjacent digit bytes
        if k == len(columns) or columns[k] != columns[k - 1] + 1:
            a, b = columns[run_start], columns[k - 1] + 1
            run = (words >> np.uint64(8 * a)) & _MASKS[b - a]
            packed |= run << np.uint64(8 * (out + run_start))
            run_start = k
    packed |= np.uint64(int.from_bytes(b"0" * out + b"\0" * len(columns), "little"))
    packed -= np.uint64(0x3030303030303030)
    packed = (packed * np.uint64(10) + (packed >> np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    packed = (packed * np.uint64(100) + (packed >> np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    packed = (packed * np.uint64(10000) + (packed >> np.uint64(32))) & np.uint64(0x00000000FFFFFFFF)
    return packed.astype(np.int64)


def _row_sums(mask):
    """True bytes per row of a (rows, 8k) boolean array, eight at a time."""
    words = mask.view(np.uint64) * np.uint64(0x0101010101010101) >> np.uint64(56)
    return words[:, 0].astype(np.int64) if words.shape[1] == 1 else words.sum(1).astype(np.int64)


def _one_shape(byte, at, length, dpos, epos, lead, exp_sign, has_dot, has_mark):
    """The values of tokens ``at`` (indices or a slice), all of one shape, read a column of digits at a time."""
    byte = byte[at]
    at = slice(None)
    columns = [j for j in range(lead, epos) if not (has_dot and j == dpos)]
    if byte.shape[1] == 8:
        mantissa = _eight_digits(byte.view(np.uint64)[:, 0], columns)
    else:
        mantissa = np.zeros(len(byte), dtype=np.int64)
        for k, j in enumerate(columns):
            mantissa += (byte[at, j] - np.uint8(48)).astype(np.int64) * _POW10[len(columns) - 1 - k]
    exponent = np.zeros(len(byte), dtype=np.int64)
    if has_mark:
        digits = range(epos + 1 + exp_sign, length)
        for k, j in enumerate(digits):
            exponent += (byte[at, j] - np.uint8(48)).astype(np.int64) * _POW10[len(digits) - 1 - k]
        if exp_sign:
            exponent = np.where(byte[at, epos + 1] == 45, -exponent, exponent)
    scale = exponent - (epos - dpos - 1 if has_dot else 0)
    if (np.abs(scale) > MAX_TEN).any():
        return None
    value = mantissa.astype(np.float64)
    up = scale >= 0
    value[up] *= _TENS[scale[up]]
    value[~up] /= _TENS[-scale[~up]]
    if lead:
        value = np.where(byte[at, 0] == 45, -value, value)
    return value


def _numbers_by_pandas(cells, counts):
    """The tokens one per line through pandas' C number parser, or token by token when some is no number.

    The lines are the cells' own bytes (no Python string per cell): pandas decodes them as it decodes a file.
    """
    if not counts.sum():
        return np.zeros(0), counts
    lines = joined(cells, b"\n")
    values = None
    if not _OTHER_CONTROLS[np.frombuffer(lines, dtype=np.uint8)].any():  # else a line could hold two tokens
        values = _parse_lines(lines.replace(b" ", b"\n").replace(b"\t", b"\n").replace(b"\r", b"\n"))
    if values is None or len(values) != counts.sum():
        values = pd.to_numeric(pd.Series(split_tokens(" ".join(cells.tolist())), dtype=object),
                               errors="coerce").to_numpy(dtype=float)
    return values, counts


# bytes that separate tokens, as a table over the 256 byte values; TAB, LF, CR and space become line ends
_OTHER_CONTROLS = np.zeros(256, dtype=bool)
_OTHER_CONTROLS[[c for c in range(SEPARATOR_MAX + 1) if chr(c) not in "\t\n\r "]] = True


def _parse_lines(lines):
    """One float per non-blank line through pandas' C parser, or None when some line is not a number."""
    try:
        return pd.read_csv(io.BytesIO(lines), header=None, names=["v"], dtype=np.float64, sep="\t",
                           quoting=csv.QUOTE_NONE, na_filter=False, skip_blank_lines=True,
                           engine="c")["v"].to_numpy()
    except ValueError:  # includes pandas' ParserError and a byte that is no UTF-8
        return None
