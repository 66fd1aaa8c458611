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
from dataclasses import dataclass

import numpy as np

from .cells import BYTE_MASKS, Cells, concatenate_freeing
from .tagcodes import SEPARATOR_MAX, encode_cells, ordered, token_chunks, token_holds, token_text


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

    def text(self, token, limit=None):
        """The token as the participant wrote it (read from its own bytes: a long cell is not copied); with
        ``limit``, its first ``limit + 1`` characters at most (``tagcodes.token_text``)."""
        return token_text(self.column, int(self.row[token]), int(self.position[token]), limit)

    def holds(self, token, text):
        """True when the token holds ``text``."""
        return token_holds(self.column, int(self.row[token]), int(self.position[token]), text)


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
    cells = ordered(as_cells(column))
    counts = np.zeros(len(cells), dtype=np.int64)
    for rows, _, _, counts[rows] in token_chunks(cells):  # only the counts are kept
        pass
    return counts


def numbers(column):
    """(values, count per row) of space-separated numbers; a token that is not a number is NaN.

    Every token gets the value pandas' C parser (``read_csv``, its default converter) gives it: plain decimals
    (``-12.5``, ``0.25e-3``: at most 15 digits) are read a column of digits at a time (``plain_decimals``),
    any other token by the same steps as that parser (``any_decimals``), reading its bytes once, whatever its
    length. Tokens the parser refuses are NaN, its spellings of infinity infinite.

    >>> v, c = numbers(["0.5 1e-3", "", "x inf"])
    >>> v.tolist(), c.tolist()
    ([0.5, 0.001, nan, inf], [2, 0, 2])
    """
    cells = as_cells(column)
    if _one_token_each(cells):   # nothing to cut (a column of one number per cell): each cell is its token
        if not _apart(cells):    # any_decimals reads tokens in buffer order with a byte between any two
            cells = ordered(cells)
        parts = []
        for a in range(0, len(cells), ROW_BLOCK):
            starts = cells.start[a:a + ROW_BLOCK].astype(np.int64)
            parts.append(_token_values(cells, starts, cells.end[a:a + ROW_BLOCK] - starts))
        return concatenate_freeing(parts, np.float64), np.ones(len(cells), dtype=np.int64)
    cells = ordered(cells)
    parts, counts = [], np.zeros(len(cells), dtype=np.int64)
    for rows, starts, lengths, counts[rows] in token_chunks(cells):  # a megabyte of the column at a time
        parts.append(_token_values(cells, starts, lengths))
    return concatenate_freeing(parts, np.float64), counts  # each piece freed once copied: never twice the values


def _token_values(cells, starts, lengths):
    """The values of the tokens at ``starts`` (buffer order): a column of digits at a time where every token is a
    plain decimal (``plain_decimals``), else by the parser's steps (``any_decimals``)."""
    values = plain_decimals(cells, starts, lengths)
    return any_decimals(cells.buf, starts, lengths) if values is None else values


ONE_TOKEN_BYTES = 24   # cells up to this long are checked for separators a word at a time
_NO_SEPARATOR = np.uint64(0x4141414141414141)          # 'A' in every byte
_BELOW = np.uint64(0x0101010101010101 * (SEPARATOR_MAX + 1))
_TOPS = np.uint64(0x8080808080808080)


def _one_token_each(cells):
    """True when every cell is one token as it stands: 1 to ONE_TOKEN_BYTES bytes, none a separator (cutting
    would give each cell back whole, so a column of one number per cell needs no pass over the file's bytes).

    >>> _one_token_each(as_cells(["0.25", "1e-3", "12345678901234567890"])), _one_token_each(as_cells(["1", "2 3"]))
    (True, False)
    >>> _one_token_each(as_cells(["1", ""])), _one_token_each(as_cells([]))
    (False, False)
    """
    lengths = cells.end - cells.start
    if not len(lengths) or int(lengths.min()) < 1 or int(lengths.max()) > ONE_TOKEN_BYTES:
        return False
    words = cells.words()
    for a in range(0, len(cells), ROW_BLOCK):
        start, length = cells.start[a:a + ROW_BLOCK].astype(np.int64), lengths[a:a + ROW_BLOCK]
        for w in range(-(-int(length.max()) // 8)):
            inside = BYTE_MASKS[np.clip(length - 8 * w, 0, 8)]
            word = (words.at(start + 8 * w) & inside) | (_NO_SEPARATOR & ~inside)   # past the cell: no separator
            # a byte below SEPARATOR_MAX + 1 borrows in the subtraction where its own top bit was clear: any such
            # byte sets a top bit, and no word without one does (Hacker's Delight, "hasless")
            if ((word - _BELOW) & ~word & _TOPS).any():
                return False
    return True


def _apart(cells):
    """True when the cells lie in buffer order with a byte between any two (what ``ordered`` checks), read a block
    of rows at a time: no temporary as long as the column.

    >>> buf = np.frombuffer(b"1,2;3", np.uint8)
    >>> _apart(Cells(buf, np.array([0, 2, 4]), np.array([1, 3, 5])))   # "1", "2", "3"
    True
    >>> _apart(Cells(buf, np.array([0, 1]), np.array([1, 2])))         # "1", "," with no byte between
    False
    >>> _apart(Cells(buf, np.array([2, 0]), np.array([3, 1])))   # out of buffer order
    False
    """
    for a in range(0, len(cells), ROW_BLOCK):
        start, end = cells.start[a:a + ROW_BLOCK + 1], cells.end[a:a + ROW_BLOCK + 1]   # one row into the next block
        if (start[1:] <= end[:-1]).any():
            return False
    return True


MAX_DIGITS = 15          # digits of an exact int64 mantissa below 2**53
SIGNIFICANT = 17         # digits the parser accumulates (leading zeros count); later ones only move the exponent
MAX_TEN = 22             # 10**22 is the largest power of ten a double holds exactly
FEW_SHAPES = 8           # up to this many shapes (length, dot, exponent, signs), one pass each to find them
_TENS = np.array([10.0 ** k for k in range(MAX_TEN + 1)])
_POW10 = 10 ** np.arange(19, dtype=np.int64)


def plain_decimals(cells, starts, lengths):
    """The value of every token if each is ``[+-]digits[.digits][(e|E)[+-]digits]`` (at most 24 bytes, at most
    3 digits in the exponent, a scale within 10**22), else None.

    pandas' parser accumulates the first 17 digits in a double, ``number * 10 + digit`` a digit at a time (a
    later digit before the dot adds one to the exponent, a later one after it is skipped), and then divides
    (or multiplies) once by a power of ten, exact up to 10**22. Up to 15 digits every step is exact, so the
    mantissa is read as an integer; the 16th and 17th digits (a double written with all its digits, as
    ``repr`` and ``to_csv`` write it) take the parser's two rounded steps each. Tokens are read as rows of
    bytes; tokens of one shape (length, place of the dot and of the exponent, signs) share the places of
    their digits, so each shape is read a column at a time.
    """
    n = len(starts)
    if not n:
        return np.zeros(0)
    longest = int(lengths.max())
    if longest > 24:
        return None
    words = cells.words()
    if longest <= 8 and int(lengths.min()) == longest:  # one word each, all as long: maybe all of one shape
        value = _one_word_shape(words.at(starts) & BYTE_MASKS[longest], longest)
        if value is not None:
            return value
    byte = _token_bytes(words, starts, lengths, longest)
    shapes = _shapes(byte, lengths)
    if shapes is None:
        return None
    shape, dpos, epos, lead, exp_sign, n_dot, n_mark = shapes
    groups = _shape_groups(shape)
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


def _token_bytes(words, starts, lengths, longest):
    """The tokens as rows of bytes, (tokens, ``longest`` rounded up to 8), zero past each token's end."""
    width = 8 * -(-longest // 8)
    byte = np.empty((len(starts), width // 8), dtype=np.uint64)
    for w in range(width // 8):
        byte[:, w] = words.at(starts + 8 * w) & BYTE_MASKS[np.clip(lengths - 8 * w, 0, 8)]
    return byte.view(np.uint8)


def _shapes(byte, lengths):
    """(shape code, place of the dot, place of the e, leading sign, exponent's sign, has a dot, has an e) of each
    token (rows of ``_token_bytes``), the code equal for tokens whose digits are at the same places; None unless
    every token is ``[+-]digits[.digits][(e|E)[+-]digits]`` with 1 to 3 digits in the exponent."""
    n, width = byte.shape
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
    if not ok.all():
        return None
    shape = ((lengths * 32 + dpos) * 32 + epos) * 4 + lead * 2 + exp_sign
    return shape, dpos, epos, lead, exp_sign, n_dot, n_mark


def _shape_groups(shape):
    """The tokens of each shape, as arrays of positions (one group: every token)."""
    kinds = np.flatnonzero(np.bincount(shape))
    if len(kinds) == 1:
        return [np.arange(len(shape))]
    if len(kinds) <= FEW_SHAPES:
        return [np.flatnonzero(shape == kind) for kind in kinds.tolist()]
    order = np.argsort(shape, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(shape[order])) + 1)


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
            run = (words >> np.uint64(8 * a)) & BYTE_MASKS[b - a]
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
    taken = columns[:SIGNIFICANT]   # the parser reads 17 digits; a later one moves the exponent if before the dot
    exact, rounded = taken[:MAX_DIGITS], taken[MAX_DIGITS:]
    fraction_taken = sum(1 for j in taken if has_dot and j > dpos)
    whole_dropped = sum(1 for j in columns[SIGNIFICANT:] if not has_dot or j < dpos)
    if byte.shape[1] == 8:
        mantissa = _eight_digits(byte.view(np.uint64)[:, 0], exact)
    else:
        mantissa = np.zeros(len(byte), dtype=np.int64)
        for k, j in enumerate(exact):
            mantissa += (byte[at, j] - np.uint8(48)).astype(np.int64) * _POW10[len(exact) - 1 - k]
    exponent = np.zeros(len(byte), dtype=np.int64)
    if has_mark:
        digits = range(epos + 1 + exp_sign, length)
        for k, j in enumerate(digits):
            exponent += (byte[at, j] - np.uint8(48)).astype(np.int64) * _POW10[len(digits) - 1 - k]
        if exp_sign:
            exponent = np.where(byte[at, epos + 1] == 45, -exponent, exponent)
    scale = exponent - fraction_taken + whole_dropped
    if (np.abs(scale) > MAX_TEN).any():
        return None
    value = mantissa.astype(np.float64)
    for j in rounded:   # as the parser adds them: the product rounded, then the sum
        value *= 10.0
        value += byte[at, j] - np.uint8(48)
    up = scale >= 0
    value[up] *= _TENS[scale[up]]
    value[~up] /= _TENS[-scale[~up]]
    if lead:
        value = np.where(byte[at, 0] == 45, -value, value)
    return value


# -- any token, by the steps of pandas' C parser ------------------------------------------------------------
EXPONENT_DIGITS = 17    # digits of an exponent it reads; a token with more is no number
SCAN_BYTES = 1 << 20    # bytes of the tokens' buffer searched for non-digits at once
MARKS = 5               # non-digit bytes kept per token: a number has at most 4 (signs, dot, e)
_POWERS = np.array([float("1e%d" % k) for k in range(309)])   # the parser's table: each power correctly rounded
_INFINITIES = {b"inf": 1.0, b"+inf": 1.0, b"-inf": -1.0, b"infinity": 1.0, b"+infinity": 1.0, b"-infinity": -1.0}


def any_decimals(buf, starts, lengths):
    """The value of each token (``buf[starts[i]:starts[i] + lengths[i]]``, in buffer order, apart) as pandas 2.2's C
    parser reads a float column (``precise_xstrtod``), NaN where it reads none, +-inf for its spellings of infinity.

    The parser takes ``[+-]digits[.digits][(e|E)[+-]digits]``: the first 17 digits of the mantissa, leading zeros
    included, are accumulated as ``number = number * 10 + digit`` in doubles (each step rounded), later integer
    digits add one to the exponent, later fraction digits are skipped; at most 17 exponent digits are read, into
    a 32-bit int (it wraps); the number is then multiplied or divided once by the power of ten of its exponent
    (twice below 1e-308, zero below 1e-616), and an exponent above 308 or an infinite result is no number.
    Here the same steps run on every token at once: each byte is read once (to find the few non-digit bytes)
    and only the first digits of each part are gathered, so a token of any length costs its bytes.

    >>> buf = np.frombuffer(b"0.1234567890123456789 00000000000000000000001 1e-700 1e400 -Inf 1.5e", np.uint8)
    >>> any_decimals(buf, np.array([0, 22, 46, 53, 59, 64]), np.array([21, 23, 6, 5, 4, 4])).tolist()
    [0.1234567890123456, 0.0, 0.0, nan, -inf, nan]
    """
    starts, lengths = np.asarray(starts, dtype=np.int64), np.asarray(lengths, dtype=np.int64)
    values = np.full(len(starts), np.nan)
    if not len(starts):
        return values
    count, marks = _non_digits(buf, starts, starts + lengths)
    rows = np.flatnonzero(count < MARKS)
    read, parsed = _parse(buf, starts[rows], lengths[rows], count[rows], marks[rows])
    values[rows[read]] = parsed[read]
    failed = np.flatnonzero(np.isnan(values) & (lengths <= 9) & (lengths >= 3))
    if len(failed):
        values[failed] = _infinities(buf, starts[failed], lengths[failed])
    return values


def _non_digits(buf, starts, ends):
    """(bytes of each token that are no ASCII digit, the offsets of the first MARKS of them, -1 past those).

    The tokens' bytes are searched SCAN_BYTES at a time; the tokens lie in buffer order, apart.
    """
    count = np.zeros(len(starts), dtype=np.int64)
    marks = np.full((len(starts), MARKS), -1, dtype=np.int64)
    lo, hi = int(starts[0]), int(ends[-1])
    for a in range(lo, hi, SCAN_BYTES):
        piece = buf[a:min(hi, a + SCAN_BYTES)]
        pos = np.flatnonzero((piece - np.uint8(48)) > 9)   # below '0' wraps around: above 9 too
        pos += a
        token = np.searchsorted(starts, pos, side="right") - 1
        keep = token >= 0
        keep[keep] = pos[keep] < ends[token[keep]]   # not a separator between tokens
        pos, token = pos[keep], token[keep]
        if not len(pos):
            continue
        heads = np.flatnonzero(np.concatenate(([True], token[1:] != token[:-1])))
        sizes = np.diff(np.append(heads, len(token)))
        rank = np.arange(len(token)) - np.repeat(heads, sizes) + count[token]
        kept = rank < MARKS
        marks[token[kept], rank[kept]] = pos[kept]
        count[token[heads]] += sizes
    return count, marks


def _parse(buf, start, length, count, marks):
    """(read, value) of tokens with fewer than MARKS non-digit bytes, at ``marks`` (-1 past ``count``)."""
    n = len(start)
    end = start + length
    rows = np.arange(n)
    last = len(buf) - 1
    byte = lambda at: buf[np.clip(at, 0, last)]  # noqa: E731  (a byte anywhere; masked where it is none)
    step = np.zeros(n, dtype=np.int64)           # non-digit bytes consumed so far
    ahead = lambda: np.where(step < count, marks[rows, np.minimum(step, MARKS - 1)], end)  # noqa: E731
    sign = (count > 0) & (marks[:, 0] == start) & ((byte(start) == 43) | (byte(start) == 45))
    negative = sign & (byte(start) == 45)
    step += sign
    digits_from = start + sign
    int_end = ahead()
    n_int = int_end - digits_from
    dot = (step < count) & (byte(int_end) == 46)
    step += dot
    frac_end = np.where(dot, ahead(), int_end)
    n_frac = np.where(dot, frac_end - int_end - 1, 0)
    taken_int = np.minimum(n_int, SIGNIFICANT)
    taken_frac = np.minimum(n_frac, SIGNIFICANT - taken_int)
    n_digits = taken_int + taken_frac
    at = frac_end
    exp = (step < count) & ((byte(at) | np.uint8(32)) == 101)   # e or E
    step += exp
    exp_sign = exp & (step < count) & (marks[rows, np.minimum(step, MARKS - 1)] == at + 1) & (
        (byte(at + 1) == 43) | (byte(at + 1) == 45))
    exp_negative = exp_sign & (byte(at + 1) == 45)
    step += exp_sign
    exp_from = at + 1 + exp_sign
    n_exp = np.where(exp, ahead() - exp_from, 0)
    at = np.where(exp, exp_from + n_exp, at)
    read = (n_digits > 0) & (step == count) & (at == end) & ~(exp & ((n_exp == 0) | (n_exp > EXPONENT_DIGITS)))
    number = np.zeros(n)
    for j in range(SIGNIFICANT):   # the mantissa, a digit at a time as the parser adds them
        live = j < n_digits
        where = np.where(j < taken_int, digits_from + j, int_end + 1 + j - taken_int)
        number = np.where(live, number * 10.0 + (byte(where).astype(np.int64) - 48), number)
    written = np.zeros(n, dtype=np.int32)
    with np.errstate(over="ignore"):
        for j in range(EXPONENT_DIGITS):  # the exponent's digits into a C int, wrapping as it does
            live = j < n_exp
            digit = (byte(exp_from + j).astype(np.int32) - 48)
            written = np.where(live, written * np.int32(10) + digit, written)
        exponent = (np.maximum(n_int - SIGNIFICANT, 0) - taken_frac).astype(np.int32)
        exponent = np.where(exp_negative, exponent - written, exponent + written)
    number = np.where(negative, -number, number)
    exponent = exponent.astype(np.int64)
    read &= exponent <= 308
    with np.errstate(over="ignore"):   # an infinite product is refused below, as the parser refuses it
        value = np.where(exponent > 0, number * _POWERS[np.clip(exponent, 0, 308)],
                         number / _POWERS[np.clip(-exponent, 0, 308)])
    tiny = exponent < -308
    value = np.where(tiny, number / _POWERS[np.clip(-308 - exponent, 0, 308)] / _POWERS[308], value)
    value = np.where(exponent < -616, 0.0, value)
    read &= np.isfinite(value)
    return read, value


def _infinities(buf, starts, lengths):
    """+-inf for the spellings of infinity pandas' parser takes (any case; tokens of 3 to 9 bytes), else NaN."""
    written = np.zeros((len(starts), 9), dtype=np.uint8)
    for j in range(9):   # the token's bytes, zero past its end, upper-case letters made lower-case
        live = j < lengths
        written[live, j] = buf[starts[live] + j]
    written += ((written >= 65) & (written <= 90)).view(np.uint8) * np.uint8(32)
    out = np.full(len(starts), np.nan)
    for spelling, sign in _INFINITIES.items():
        pattern = np.frombuffer(spelling.ljust(9, b"\0"), dtype=np.uint8)
        out[(lengths == len(spelling)) & (written == pattern).all(axis=1)] = sign * np.inf
    return out
