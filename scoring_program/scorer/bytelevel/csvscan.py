"""Delimited bytes to cell offsets with numpy, giving exactly what pandas' C parser gives, or nothing.

``pandas.read_csv(engine="c", dtype=str, na_filter=False, skipinitialspace=True)``
builds a Python string for every cell; this scanner finds the same cells as
(start, end) offsets into the file's bytes, so the families work on columns of
bytes (``cells.Cells``) without a Python object per cell.

It reads the shape nearly every real file has, exactly as pandas' tokenizer
does (pandas/_libs/src/parser/tokenizer.c: states START_RECORD, START_FIELD,
IN_FIELD, IN_QUOTED_FIELD, QUOTE_IN_QUOTED_FIELD, EAT_CRNL, WHITESPACE_LINE):

- UTF-8 bytes, a leading byte-order mark skipped; lines end with LF or CRLF;
- fields separated by one ASCII byte; spaces at the start of a field skipped;
- a field is either unquoted, with no quote in it, or quoted from its first byte
  to a closing quote that is followed by the separator, a line end or the end of
  the file; inside the quotes anything goes (separators, line breaks) and ``""``
  is one quote;
- a row with fewer fields than the header is filled with empty cells (a blank
  line is such a row), or skipped as pandas' ``skip_blank_lines`` does.

Anything else (a bare CR, a quote inside an unquoted field, text after a closing
quote, spaces before an opening quote, a row with more fields than the header,
an empty or repeated header name, an unclosed quote) makes ``scan`` return
None: the caller then reads the file with pandas, so every file reads as before.
tests/test_csvscan.py checks this against pandas on generated hostile files.

>>> s = scan(b'id,text\\r\\n1,"a ""b"",\\nc"\\r\\n 2 ,x\\r\\n', ",", skip_blank_lines=False)
>>> s.names, s.cells(1).tolist(), s.cells(0).tolist(), s.line.tolist()
(['id', 'text'], ['a "b",\\nc', 'x'], ['1', '2 '], [2, 4])
"""
import codecs
from dataclasses import dataclass
from typing import List, Optional

import numpy as np

from .cells import Cells, concatenate_freeing, offset_dtype

QUOTE, LF, CR, SPACE, TAB = 34, 10, 13, 32, 9
CHUNK = 1 << 22        # bytes per numpy pass: temporaries stay small and are reused
MAX_LEADING_SPACES = 16


@dataclass
class Scanned:
    """The cells of a delimited file: column ``k`` of row ``i`` is ``buf[start[k, i]:end[k, i]]``."""

    buf: np.ndarray
    names: List[str]              # the header as pandas names the columns (no space stripped)
    start: np.ndarray             # (columns, rows) int64
    end: np.ndarray
    drop: np.ndarray              # sorted offsets of the first quote of each "" inside quoted fields
    line: Optional[np.ndarray]    # file line (1-based) where each row starts (None when not asked for)
    physical_lines: int           # lines of the file, as text.count("\n") + (not text.endswith("\n"))
    longest_field: int            # bytes of the longest field, quotes included

    @property
    def n_rows(self):
        return self.start.shape[1]

    def cells(self, k):
        """Column ``k`` as Cells, each ``""`` read as one quote (a compact copy only where a cell has one)."""
        cells = Cells(self.buf, self.start[k], self.end[k])
        if not len(self.drop):
            return cells
        if not (np.searchsorted(self.drop, cells.end) > np.searchsorted(self.drop, cells.start)).any():
            return cells
        return cells.without_bytes(self.drop)   # the first quote of each pair taken out

    def char_lengths(self, k):
        """Characters in each cell of column ``k`` (``str.len()`` of pandas' strings), without copying it."""
        cells = Cells(self.buf, self.start[k], self.end[k])
        lengths = cells.char_lengths()
        if len(self.drop):
            lengths -= np.searchsorted(self.drop, cells.end) - np.searchsorted(self.drop, cells.start)
        return lengths


def scan(data, sep, skip_blank_lines, lines=True) -> Optional[Scanned]:
    """The cells of ``data`` (UTF-8 bytes) read with separator ``sep``, header on the first line; None if unsure.

    ``lines``: find the file line of every row (``Scanned.line``; None otherwise).
    """
    n = len(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    pos0 = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if n <= pos0 or len(sep) != 1 or ord(sep) > 127 or sep in '"\r\n ':
        return None
    sep_byte = ord(sep)
    has_quotes = data.find(b'"', pos0) >= 0
    found = _positions(buf, pos0, sep_byte, has_quotes, data.find(b"\r", pos0) >= 0)
    if found is None:  # a CR alone ends a line for pandas, not for the line count of messages
        return None
    marks, newlines, quotes, n_lf = found
    offset = marks.dtype
    drop = np.zeros(0, dtype=np.int64)
    if has_quotes:
        checked = _check_quotes(buf, pos0, sep_byte, quotes)
        if checked is None:
            return None
        drop = checked
        marks = marks[np.searchsorted(quotes, marks) % 2 == 0]  # separators and line ends outside quotes
        del quotes

    is_line_end = buf[marks] == LF
    if not (len(marks) and is_line_end[-1] and marks[-1] == n - 1):  # the last line has no line end
        marks = np.append(marks, n)
        is_line_end = np.append(is_line_end, True)
    field_start = np.empty(len(marks), dtype=offset)
    field_start[0] = pos0
    np.add(marks[:-1], 1, out=field_start[1:])
    field_end = marks
    crlf = is_line_end & (marks < n)
    crlf[crlf] = buf[marks[crlf] - 1] == CR
    field_end[crlf] -= 1
    del crlf
    longest = max(int((field_end[a:a + CHUNK] - field_start[a:a + CHUNK]).max())
                  for a in range(0, len(marks), CHUNK))

    n_cols = _full_grid(is_line_end)
    if n_cols:  # the usual file: every line has the first line's fields, so no per-line arrays are needed
        del is_line_end
        line_start = field_start[::n_cols].copy() if has_quotes and lines else None
    else:
        last_field = _flatnonzero(is_line_end, offset)
        del is_line_end
        first_field = _first_fields(last_field)
        line_start = field_start[first_field] if has_quotes and lines else None

    start = field_start  # from here on: the start of each field's text (spaces skipped)
    rows = np.flatnonzero(buf[start] == SPACE if start[-1] < n else buf[np.minimum(start, n - 1)] == SPACE)
    rows = rows[start[rows] < field_end[rows]]
    for _ in range(MAX_LEADING_SPACES):
        if not len(rows):
            break
        start[rows] += 1
        rows = rows[start[rows] < field_end[rows]]
        rows = rows[buf[start[rows]] == SPACE]
    if len(rows):
        return None
    quoted = np.zeros(len(start), dtype=bool)
    if has_quotes:
        np.less(start, field_end, out=quoted)
        quoted &= buf[np.minimum(start, n - 1)] == QUOTE
    start += quoted
    end = field_end
    end -= quoted
    del field_end

    if n_cols == 1 and skip_blank_lines and _blank(buf, start, end, quoted).any():
        n_cols = 0   # one field a line, and some lines are blank: the general way drops them
        last_field = first_field = np.arange(len(start), dtype=offset)
    if not n_cols:
        per_line = last_field - first_field
        per_line += 1
    if n_cols:
        n_rows = len(start) // n_cols - 1
        names = _names(buf, start, end, drop, 0, n_cols)
        if names is None:
            return None
        starts = start[n_cols:].reshape(n_rows, n_cols).T  # views: a column is every n_cols-th field
        ends = end[n_cols:].reshape(n_rows, n_cols).T
        if not lines:
            line = None
        elif has_quotes:
            line = _lines_of(newlines, line_start[1:], offset)
        else:
            line = np.arange(2, n_rows + 2, dtype=offset)
    else:
        keep = np.ones(len(per_line), dtype=bool)
        if skip_blank_lines:  # lines of spaces and tabs (not the separator) are no rows
            one = np.flatnonzero(per_line == 1)
            f = first_field[one]
            keep[one[_blank(buf, start[f], end[f], quoted[f])]] = False
        kept = _flatnonzero(keep, offset)
        if not len(kept):
            return None
        header, data_lines = kept[0], kept[1:]
        n_cols = int(per_line[header])
        names = _names(buf, start, end, drop, int(first_field[header]), n_cols)
        if names is None or int(per_line[data_lines].max(initial=0)) > n_cols:
            return None
        n_rows = len(data_lines)
        # a field the row lacks is empty, placed at the row's end so that every column stays in buffer order
        row_end = end[last_field[data_lines]]
        starts = np.repeat(row_end[None, :], n_cols, axis=0)
        ends = starts.copy()
        line_of_field = np.repeat(np.arange(len(per_line)), per_line)
        rank = np.full(len(per_line), -1, dtype=np.int64)
        rank[data_lines] = np.arange(n_rows)
        row = rank[line_of_field]
        used = row >= 0
        column = np.arange(len(start)) - first_field[line_of_field]
        starts[column[used], row[used]] = start[used]
        ends[column[used], row[used]] = end[used]
        if not lines:
            line = None
        elif has_quotes:
            line = _lines_of(newlines, line_start[data_lines], offset)
        else:
            line = (data_lines + 1).astype(offset, copy=False)
    physical = n_lf + (not data.endswith(b"\n"))
    return Scanned(buf, names, starts, ends, drop, line, physical, longest)


def _first_fields(last_field):
    """The first field of each line, from the last field of each."""
    first_field = np.empty(len(last_field), dtype=last_field.dtype)
    first_field[0] = 0
    np.add(last_field[:-1], 1, out=first_field[1:])
    return first_field


def _blank(buf, start, end, quoted):
    """True for each field (the only one of its line) that holds nothing but spaces and tabs."""
    blank = (start == end) & ~quoted
    maybe = np.flatnonzero(~blank & ~quoted & (buf[np.minimum(start, len(buf) - 1)] == TAB))
    for k in maybe.tolist():   # a field starting with a TAB: rare
        blank[k] = not bytes(buf[start[k]:end[k]]).strip(b" \t")
    return blank


def _full_grid(is_line_end):
    """The number of fields of the first line when every line has that many; else 0 (a short row, or a blank
    line among lines of several fields, takes the general way)."""
    n_fields = len(is_line_end)
    first = int(np.argmax(is_line_end)) + 1
    if n_fields % first or int(np.count_nonzero(is_line_end)) != n_fields // first:
        return 0
    return first if is_line_end[first - 1::first].all() else 0


def _flatnonzero(mask, dtype):
    """``np.flatnonzero(mask)`` as ``dtype``, found CHUNK items at a time (no 64-bit array as long as the result)."""
    return concatenate_freeing([np.flatnonzero(mask[a:a + CHUNK]) + a for a in range(0, len(mask), CHUNK)], dtype)


def _lines_of(newlines, starts, dtype):
    """The 1-based file line of each offset of ``starts`` (sorted), from the sorted offsets of the line feeds."""
    return concatenate_freeing([np.searchsorted(newlines, starts[a:a + CHUNK]) + 1
                                for a in range(0, len(starts), CHUNK)], dtype)


def _positions(buf, pos0, sep, with_quotes, with_cr):
    """(separators and LFs, LFs, quotes, number of LFs): offsets in buffer order, LFs and quotes only
    ``with_quotes``; None when a CR is not followed by a LF."""
    n = len(buf)
    offset = offset_dtype(n)
    marks, newlines, quotes = [], [], []
    n_lf = 0
    is_lf = np.empty(CHUNK, dtype=bool)
    hit = np.empty(CHUNK, dtype=bool)
    for a in range(pos0, n, CHUNK):
        piece = buf[a:a + CHUNK]
        k = len(piece)
        lf, mark = is_lf[:k], hit[:k]
        np.equal(piece, LF, out=lf)
        n_lf += int(np.count_nonzero(lf))
        if with_cr:
            cr = np.flatnonzero(piece == CR)
            cr += a + 1
            if len(cr) and (cr[-1] >= n or (buf[cr] != LF).any()):
                return None
        np.equal(piece, sep, out=mark)
        mark |= lf
        marks.append(_offsets_in(mark, a, offset))
        if with_quotes:
            newlines.append(_offsets_in(lf, a, offset))
            np.equal(piece, QUOTE, out=mark)
            quotes.append(_offsets_in(mark, a, offset))
    return (concatenate_freeing(marks, offset), concatenate_freeing(newlines, offset),
            concatenate_freeing(quotes, offset), n_lf)


def _offsets_in(mask, at, dtype):
    """The offsets (``at`` + index) where ``mask`` is true, as ``dtype``: a chunk's positions kept at the width of
    the whole file's offsets."""
    found = np.flatnonzero(mask).astype(dtype)
    found += at
    return found


def _check_quotes(buf, pos0, sep, quotes):
    """The offsets to drop (first quote of each ""), or None when a quote is not where a valid file has one.

    Counting quotes in order, an even-numbered one opens a quoted field and the next one closes it. An
    opening quote must begin a field (or directly follow a closing quote: the pair is one escaped quote);
    a closing quote must be followed by the separator, CR, LF, a quote or the end of the file.
    """
    n = len(buf)
    if len(quotes) % 2:
        return None
    opening, closing = quotes[0::2], quotes[1::2]
    escaped = np.zeros(len(opening), dtype=bool)
    escaped[1:] = opening[1:] == closing[:-1] + 1
    before = buf[np.maximum(opening - 1, 0)]
    begins = (opening == pos0) | (((before == sep) | (before == LF)) & (opening > pos0))
    if not (begins | escaped).all():
        return None
    after = closing + 1
    following = buf[np.minimum(after, n - 1)]
    ends = (after == n) | (following == sep) | (following == LF) | (following == CR) | (following == QUOTE)
    if not ends.all():
        return None
    return closing[:-1][escaped[1:]]


def _names(buf, start, end, drop, first, n_cols):
    """The header's column names, or None when one is empty or repeated (pandas renames those)."""
    names = []
    for k in range(first, first + n_cols):
        raw = bytes(buf[start[k]:end[k]])
        if len(drop) and np.searchsorted(drop, end[k]) > np.searchsorted(drop, start[k]):
            raw = raw.replace(b'""', b'"')
        names.append(raw.decode("utf-8"))
    if any(name == "" for name in names) or len(set(names)) != len(names):
        return None
    return names
