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

    ``lines``: find the file line of every row (``Scanned.line``; None otherwise). The steps: the separators and
    line ends outside quotes (``_marks``), the fields between them (``_fields``), each field's text without its
    leading spaces and quotes (``_skip_leading_spaces``, ``_unquote``), then the header and the rows, a column at
    a time where every line has the header's fields (``_grid``), else line by line (``_ragged``).
    """
    pos0 = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if len(data) <= pos0 or not _one_byte_separator(sep):
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    has_quotes = data.find(b'"', pos0) >= 0
    found = _marks(buf, pos0, ord(sep), has_quotes, data.find(b"\r", pos0) >= 0)
    if found is None:
        return None
    marks, newlines, drop, n_lf = found
    start, end, is_line_end = _fields(buf, pos0, marks)
    del marks
    longest = _longest(start, end)
    offset = start.dtype
    n_cols = _full_grid(is_line_end)
    first_field, last_field = _line_fields(is_line_end, n_cols, offset)
    del is_line_end
    # where each line starts, before spaces and quotes are skipped: needed only where quotes may hold line breaks
    line_start = _line_starts(start, n_cols, first_field) if has_quotes and lines else None
    if not _skip_leading_spaces(buf, start, end):
        return None
    quoted = _unquote(buf, start, end, has_quotes)
    if n_cols == 1 and skip_blank_lines and _blank(buf, start, end, quoted).any():
        n_cols = 0   # one field a line, and some lines are blank: the general way drops them
        last_field = first_field = np.arange(len(start), dtype=offset)
    if n_cols:
        rows = _grid(buf, start, end, drop, n_cols, lines, line_start, newlines)
    else:
        rows = _ragged(buf, start, end, quoted, drop, first_field, last_field, skip_blank_lines, lines, line_start,
                       newlines)
    if rows is None:
        return None
    names, starts, ends, line = rows
    physical = n_lf + (not data.endswith(b"\n"))
    return Scanned(buf, names, starts, ends, drop, line, physical, longest)


def _one_byte_separator(sep):
    """True for a separator the scanner reads: one ASCII byte that is no quote, line end or space."""
    return len(sep) == 1 and ord(sep) <= 127 and sep not in '"\r\n '


def _marks(buf, pos0, sep, has_quotes, has_cr):
    """(offsets of the separators and LFs outside quotes, offsets of every LF (with quotes only), offsets of the
    first quote of each ``""`` inside quoted fields, number of LFs); None for a CR without a LF or a quote where
    a valid file has none."""
    found = _positions(buf, pos0, sep, has_quotes, has_cr)
    if found is None:  # a CR alone ends a line for pandas, not for the line count of messages
        return None
    marks, newlines, quotes, n_lf = found
    if not has_quotes:
        return marks, newlines, np.zeros(0, dtype=np.int64), n_lf
    drop = _check_quotes(buf, pos0, sep, quotes)
    if drop is None:
        return None
    return marks[np.searchsorted(quotes, marks) % 2 == 0], newlines, drop, n_lf   # those outside quotes


def _fields(buf, pos0, marks):
    """(start, end, ends its line) of every field, the fields lying between the marks (``_marks``): a CR before
    a LF is no part of the line's last field, and a last line without a line end ends at the end of the file."""
    n = len(buf)
    offset = marks.dtype
    is_line_end = buf[marks] == LF
    if not (len(marks) and is_line_end[-1] and marks[-1] == n - 1):  # the last line has no line end
        marks = np.append(marks, n)
        is_line_end = np.append(is_line_end, True)
    start = np.empty(len(marks), dtype=offset)
    start[0] = pos0
    np.add(marks[:-1], 1, out=start[1:])
    end = marks
    crlf = is_line_end & (marks < n)
    crlf[crlf] = buf[marks[crlf] - 1] == CR
    end[crlf] -= 1
    return start, end, is_line_end


def _line_fields(is_line_end, n_cols, dtype):
    """(first field, last field) of each line, as ``dtype``; (None, None) when every line has ``n_cols`` fields
    (the usual file: no per-line arrays are needed)."""
    if n_cols:
        return None, None
    last_field = _flatnonzero(is_line_end, dtype)
    return _first_fields(last_field), last_field


def _line_starts(start, n_cols, first_field):
    """The offset where each line starts (a copy: the fields' starts move when their spaces are skipped)."""
    return start[::n_cols].copy() if n_cols else start[first_field]


def _longest(start, end):
    """Bytes of the longest field (quotes included), CHUNK fields at a time."""
    return max(int((end[a:a + CHUNK] - start[a:a + CHUNK]).max()) for a in range(0, len(start), CHUNK))


def _skip_leading_spaces(buf, start, end):
    """Each field's start moved past its leading spaces (in place), as ``skipinitialspace`` reads it; False when a
    field has more than MAX_LEADING_SPACES of them (such a file is left to pandas)."""
    n = len(buf)
    rows = np.flatnonzero(buf[start] == SPACE if start[-1] < n else buf[np.minimum(start, n - 1)] == SPACE)
    rows = rows[start[rows] < end[rows]]
    for _ in range(MAX_LEADING_SPACES):
        if not len(rows):
            break
        start[rows] += 1
        rows = rows[start[rows] < end[rows]]
        rows = rows[buf[start[rows]] == SPACE]
    return not len(rows)


def _unquote(buf, start, end, has_quotes):
    """True for each quoted field; its quotes are taken off its start and end (in place)."""
    quoted = np.zeros(len(start), dtype=bool)
    if has_quotes:
        np.less(start, end, out=quoted)
        quoted &= buf[np.minimum(start, len(buf) - 1)] == QUOTE
    start += quoted
    end -= quoted
    return quoted


def _grid(buf, start, end, drop, n_cols, lines, line_start, newlines):
    """(names, starts, ends, each row's file line) when every line has the header's ``n_cols`` fields: a column is
    every ``n_cols``-th field, a view; None when a name is empty or repeated."""
    n_rows = len(start) // n_cols - 1
    names = _names(buf, start, end, drop, 0, n_cols)
    if names is None:
        return None
    starts = start[n_cols:].reshape(n_rows, n_cols).T
    ends = end[n_cols:].reshape(n_rows, n_cols).T
    if not lines:
        line = None
    elif line_start is not None:   # quoted line breaks: each row's line is searched among the line feeds
        line = _lines_of(newlines, line_start[1:], start.dtype)
    else:
        line = np.arange(2, n_rows + 2, dtype=start.dtype)
    return names, starts, ends, line


def _ragged(buf, start, end, quoted, drop, first_field, last_field, skip_blank_lines, lines, line_start, newlines):
    """(names, starts, ends, each row's file line) of lines of any number of fields: blank lines dropped when
    ``skip_blank_lines``, a row shorter than the header filled with empty cells; None when a name is empty or
    repeated, or a row is longer than the header."""
    per_line = last_field - first_field
    per_line += 1
    kept = _flatnonzero(_kept_lines(buf, start, end, quoted, first_field, per_line, skip_blank_lines), start.dtype)
    if not len(kept):
        return None
    header, data_lines = kept[0], kept[1:]
    n_cols = int(per_line[header])
    names = _names(buf, start, end, drop, int(first_field[header]), n_cols)
    if names is None or int(per_line[data_lines].max(initial=0)) > n_cols:
        return None
    starts, ends = _filled_rows(start, end, first_field, last_field, per_line, data_lines, n_cols)
    if not lines:
        line = None
    elif line_start is not None:
        line = _lines_of(newlines, line_start[data_lines], start.dtype)
    else:
        line = (data_lines + 1).astype(start.dtype, copy=False)
    return names, starts, ends, line


def _kept_lines(buf, start, end, quoted, first_field, per_line, skip_blank_lines):
    """True for each line that is a row (or the header): with ``skip_blank_lines``, a line of one field holding
    nothing but spaces and tabs (not the separator) is none."""
    keep = np.ones(len(per_line), dtype=bool)
    if skip_blank_lines:
        one = np.flatnonzero(per_line == 1)
        f = first_field[one]
        keep[one[_blank(buf, start[f], end[f], quoted[f])]] = False
    return keep


def _filled_rows(start, end, first_field, last_field, per_line, data_lines, n_cols):
    """(starts, ends), each (columns, rows), of the ``data_lines``: a field the row lacks is empty, placed at the
    row's end so that every column stays in buffer order."""
    n_rows = len(data_lines)
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
    return starts, ends


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
