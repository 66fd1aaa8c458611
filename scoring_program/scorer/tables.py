"""Delimited tables, read once: encoding, emptiness, separator and columns settled in that order.

Result and gold files of the same task circulate comma- and TAB-separated
(pandas' ``to_csv`` and the organisers' TAB files), so a task may allow both;
the header decides. Every row keeps the physical file line it starts on, so
messages name the line an editor shows. The id checks put their problems in a
``Problems``: a platform run stops at the first, the offline check keeps all.

>>> from scorer.discovery import SubmittedFile
>>> from scorer.errors import SubmissionError
>>> data = b"id\\tlabel\\n7\\tx\\n\\n8\\ty\\n"
>>> table = read_table(SubmittedFile("a.tsv", lambda: data), ("id", "label"), SubmissionError, ("," , "\\t"))
>>> table.sep, table.cells("id").tolist(), table.line.tolist()
('\\t', ['7', '8'], [2, 4])

Valid UTF-8 files in plain CSV shape (nearly all) are read by ``csvscan`` into
columns of bytes (``Table.cells``) without a Python string per cell; any other
file is read by pandas as before. Both give the same cells, lines and messages.
"""
import codecs
import csv
import io
import os
import re

import numpy as np

from .bytelevel import csvscan
from .bytelevel.cells import Cells, joined
from .bytelevel.grouping import Index, duplicated, factorize
from .errors import ReferenceDataError, clip
from .bytelevel.lazy import pandas as pd
from .problems import Message
from .quoting import has_unsafe
from .textio import decode_with_codec, normalise_newlines, parse_table, plain_utf8, utf8_bytes

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_BLANK_LINE_BYTES = re.compile(rb"\n[ \t]*\r?\n")   # the same on bytes without a lone CR
_NOT_SPACE = re.compile(rb"[^\t-\r\x1c- ]")             # a byte that is no ASCII white space
CSV_FIELD_LIMIT = 131072                                 # csv.field_size_limit(): physical_lines' reader stops there

# separators that look like a comma to a person but are text to a CSV reader
FULLWIDTH = {"\uff0c": Message("table.fullwidth_comma", "full-width comma '，'", "全角逗号“，”"),
             "\u3001": Message("table.ideographic_comma", "ideographic comma '、'", "顿号“、”"),
             "\uff1b": Message("table.fullwidth_semicolon", "full-width semicolon '；'", "全角分号“；”")}
OTHER_SEPARATORS = (("\t", "TAB"), (";", "';'"), (",", "','"), ("|", "'|'"))

EMPTY = Message("table.empty_file", "{file} is empty; it needs the header line {header} and one line per test item.",
                "{file} 为空；需要表头行 {header}，每个测试样本一行。")
FULLWIDTH_SEPARATOR = Message("table.fullwidth_separator", "{where} uses a {label} as a separator; separate the "
                              "columns with the ASCII '{sep}' only.", "{where} 用{label}作分隔符；请只用半角的 '{sep}' 分隔各列。")
HEADER_SEPARATOR = Message("table.header_separator", "{where}: the header is separated by {label}; separate the "
                           "columns with {sep} (header: {header}).",
                           "{where}：表头用 {label} 分隔；请用 {sep} 分隔各列（表头：{header}）。")
SPREADSHEET_EXPORT = Message(
    "table.spreadsheet_export", "{where}: the file is a spreadsheet export with ';' between the columns and decimal "
    "commas (such as {number}), as Excel writes CSV in German, French and other locales; save it with ',' between "
    "the columns and '.' as the decimal mark (in pandas: read_csv(path, sep=';', decimal=',').to_csv(new_path, "
    "index=False)), header: {header}.",
    "{where}：该文件是电子表格导出的 CSV，列之间用 ';' 分隔、小数点用逗号（如 {number}），这是 Excel 在德语、法语等区域设置下"
    "的写法；请改为列之间用 ',' 分隔、小数点用 '.'（用 pandas：read_csv(原文件, sep=';', decimal=',').to_csv(新文件, "
    "index=False)），表头为：{header}。")
COLUMNS = Message("table.columns", "{where}: the columns are {found} but must be exactly {expected}{hint}.",
                  "{where}：列为 {found}，必须恰好是 {expected}{hint}。")
EITHER = Message("table.either", "{first} or {last}", "{first} 或 {last}")
INDEX_HINT = Message("table.index_hint", " (an unnamed first column is pandas' index: write the file with "
                     "to_csv(..., index=False))",
                     "（未命名的第一列是 pandas 写入的行索引：请用 to_csv(..., index=False) 写文件）")
NO_ROWS = Message("table.no_rows", "{file} has a header but no rows; write one line per test item.",
                  "{file} 只有表头没有数据行；每个测试样本写一行。")
EMPTY_ID = Message("table.empty_id", "{where} is empty; every row needs the {what} of a test item.",
                   "{where} 为空；每一行都需要测试样本的 {what}。")
DUPLICATE_ID = Message("table.duplicate_id", "{where}: {what} {id} appears twice (lines {first} and {again}); keep "
                       "one row per {what}.", "{where}：{what} {id} 重复出现（第 {first} 行和第 {again} 行）；每个 {what} 只保留一行。")
UNKNOWN_ID = Message("table.unknown_id", "{where}: {what} {id} is not in the test set ({n} row(s) with unknown "
                     "{what}s); use the {what}s of the test set exactly as given.{hint}",
                     "{where}：{what} {id} 不在测试集中（共 {n} 行的 {what} 未知）；请原样使用测试集给出的 {what}。{hint}")
ZEROS_HINT = Message("table.zeros_hint", " {what}s are text: keep their leading zeros (e.g. 028171, not 28171).",
                     "{what} 是文本：请保留开头的 0（例如 028171，而不是 28171）。")
FULLWIDTH_ID = Message("table.fullwidth_id", "{where} holds a {label}; separate the columns with the ASCII ',' (or a "
                       "TAB) only.", "{where} 含有{label}；请只用半角逗号（或 TAB）分隔各列。")
MISSING_IDS = Message("table.missing_ids", "{file}: {n} {what}(s) of the test set have no row ({shown}); write one row "
                      "for every {what}.", "{file}：测试集中有 {n} 个 {what} 没有对应的行（{shown}）；每个 {what} 都要写一行。")
NO_REFERENCE_FILE = Message("reference.no_file", "the {slot} file {file} named in config.yaml is not in the reference "
                            "data.", None)
NO_REFERENCE_COLUMN = Message("reference.no_column", "{file} has no column {column} (columns: {columns}).", None)
REPEATED_REFERENCE_COLUMN = Message("reference.repeated_column", "{file}: the header names the column {column} twice "
                                    "(spaces around a name do not count); name each column once.", None)
REPEATED_REFERENCE_ID = Message("reference.repeated_id", "{file} repeats {column} {id}.", None)
EMPTY_REFERENCE_ID = Message("reference.empty_id", "{where}: the {column} is empty; every test item needs an id that "
                             "a submission can name.", None)
UNPRINTABLE_REFERENCE_ID = Message("reference.unprintable_id", "{where}: the {column} {id} holds a control, zero-width "
                                   "or direction character, which participants cannot see to copy; give it an id of "
                                   "visible characters.", None)
# lead bytes of what quoting.printable escapes: C0 controls but TAB, DEL, and the UTF-8 lead bytes of C1 controls
# (C2), U+061C (D8), the zero-width, separator and bidi ranges (E2) and U+FEFF, U+FFF9-FFFB (EF)
_SUSPECT = np.zeros(256, dtype=bool)
_SUSPECT[[b for b in range(0x20) if b != 0x09] + [0x7F, 0xC2, 0xD8, 0xE2, 0xEF]] = True


class Table:
    """A table read once: its columns (strings), the file line of each row, its separator.

    ``cells(column)`` is a column as ``cells.Cells`` (what the families use);
    ``frame`` is the whole table as a pandas DataFrame of strings, made on demand.
    A submitted table's columns have their canonical names (the header is
    matched without case); a reference table keeps the header's names.
    """

    def __init__(self, name, columns, line, sep, scanned=None, positions=None, rows=None, frame=None):
        self.name = name
        self.columns = tuple(columns)
        self._line = line             # None: a reference table, whose row i is line i + 2 (made when asked)
        self.sep = sep
        self._scanned = scanned       # csvscan.Scanned, or None when pandas read the file
        self._positions = positions   # column -> its index in the scanned file
        self._rows = rows             # the scanned rows kept (blank ones dropped), or None for all
        self._frame = frame
        self._cells = {}

    @property
    def line(self):
        """The file line of each row."""
        if self._line is None:
            return np.arange(self._scanned.n_rows, dtype=np.int64) + 2
        return self._line

    def __len__(self):
        return self._scanned.n_rows if self._line is None else len(self._line)

    def cells(self, column):
        """The column named ``column`` as Cells."""
        if column not in self._cells:
            if self._scanned is None:
                self._cells[column] = Cells.from_strings(self._frame[column].tolist())
            else:
                cells = self._scanned.cells(self._positions[column])
                self._cells[column] = cells if self._rows is None else cells[self._rows]
        return self._cells[column]

    def keeping(self, columns):
        """A table of ``columns`` only, with the same name and lines (what a family keeps for its messages once the
        other columns are read): their cells' offsets are copied, so the other columns' offsets can go; the
        file's bytes stay (a copy of the cells' bytes would cost more at the moment it is made)."""
        kept = Table(self.name, columns, self.line, self.sep)
        for column in columns:
            cells = self.cells(column)
            kept._cells[column] = Cells(cells.buf, np.array(cells.start), np.array(cells.end))
        return kept

    def forget(self, column):
        """Drop the cells of ``column`` kept by ``cells`` (they are made again if asked for)."""
        self._cells.pop(column, None)

    def char_lengths(self, column):
        """Characters in each cell of ``column``, as ``frame[column].str.len()``."""
        if self._scanned is None or column in self._cells:
            return self.cells(column).char_lengths()
        lengths = self._scanned.char_lengths(self._positions[column])
        return lengths if self._rows is None else lengths[self._rows]

    @property
    def frame(self):
        """The table as a DataFrame of strings (imports pandas)."""
        if self._frame is None:
            self._frame = pd.DataFrame({c: self.cells(c).to_objects() for c in self.columns},
                                       columns=list(self.columns))
        return self._frame


def read_table(file, columns, error, separators=(",",), fullwidth=True, skipinitialspace=True, optional=()):
    """Decode ``file`` (a SubmittedFile) once and read it as a table with exactly ``columns``.

    Each of ``optional`` may be there too (the header decides), after the others.
    The separator is the one of ``separators`` the header line holds most of.
    A full-width comma is refused in comma-separated files unless ``fullwidth``
    is False (values such as keywords hold it legitimately). Blank lines are
    dropped; ``line`` keeps every row's own line.
    """
    data = file.read_bytes()
    if skipinitialspace:
        table = _scan_table(data, file.name, columns, error, separators, fullwidth, optional)
        if table is not None:
            return table
    return _pandas_table(data, file.name, columns, error, separators, fullwidth, skipinitialspace, optional)


def _scan_table(data, name, columns, error, separators, fullwidth, optional):
    """``read_table`` by csvscan, or None to leave the file to pandas; the same checks in the same order."""
    if not plain_utf8(data):
        return None
    pos0 = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    found = _NOT_SPACE.search(data, pos0)
    if found is None:
        raise error(EMPTY.at(name, header=separators[0].join(columns)))
    if data[found.start()] >= 0x80:  # maybe a Unicode space: the text path decides whether the file is empty
        return None
    first_line = _first_line(data, pos0)
    if first_line is None:
        return None
    sep = sniff_separator(first_line.decode("utf-8"), separators)
    _check_header_separator(first_line.decode("utf-8"), data, name, columns, sep, error)
    if fullwidth and sep == "," and not data.isascii():  # ASCII bytes hold no full-width character
        for char, label in FULLWIDTH.items():
            raw = char.encode("utf-8")
            # a search for one byte is a memchr, many times faster than one for three: most files lack the first
            pos = data.find(raw, pos0) if data.find(raw[:1], pos0) >= 0 else -1
            if pos >= 0:
                if data.count(b"\r") != data.count(b"\r\n"):  # lines as the text path counts them
                    return None
                raise error(FULLWIDTH_SEPARATOR.at(name, line=data.count(b"\n", pos0, pos) + 1, label=label(),
                                                   sep=sep))
    scanned = csvscan.scan(data, sep, skip_blank_lines=False)
    if scanned is None:
        return None
    found_names = [c.strip().lstrip("\ufeff") for c in scanned.names]
    given = {c.lower() for c in found_names}
    required, columns = tuple(columns), tuple(columns) + tuple(c for c in optional if c.lower() in given)
    _check_columns(found_names, columns, name, sep, error, _headers(required, optional))
    positions = {canonical: k for k, c in enumerate(found_names) for canonical in columns
                 if c.lower() == canonical.lower()}
    if (b'"' in data and scanned.physical_lines != scanned.n_rows + 1
            and scanned.longest_field > CSV_FIELD_LIMIT):
        return None  # physical_lines' csv reader gives up on such a field: leave the numbering to it
    table = Table(name, columns, scanned.line, sep, scanned, positions)
    blank = np.ones(scanned.n_rows, dtype=bool)
    for k in range(len(found_names)):
        blank &= scanned.start[k] == scanned.end[k]
    # rows with every cell empty go when the file has a blank line (searched for only then: it costs a pass)
    if blank.any() and _BLANK_LINE_BYTES.search(data, pos0):
        rows = np.flatnonzero(~blank)
        table = Table(name, columns, scanned.line[rows], sep, scanned, positions, rows)
    if len(table) == 0:
        raise error(NO_ROWS.at(name))
    return table


def _first_line(data, pos0):
    """The bytes of the first line (after the BOM), or None when a lone CR ends it."""
    ends = [k for k in (data.find(b"\n", pos0), data.find(b"\r", pos0)) if k >= 0]
    end = min(ends) if ends else len(data)
    if data[end:end + 1] == b"\r" and data[end + 1:end + 2] != b"\n":
        return None
    return data[pos0:end]


def _pandas_table(data, name, columns, error, separators, fullwidth, skipinitialspace, optional):
    """``read_table`` through text and pandas: any encoding, any shape pandas reads."""
    file_name = name
    raw, codec = decode_with_codec(data, file_name, error)
    text = normalise_newlines(raw)
    if not text.strip():
        raise error(EMPTY.at(file_name, header=separators[0].join(columns)))
    sep = sniff_separator(text.split("\n", 1)[0], separators)
    _check_header_separator(text.split("\n", 1)[0], text, name, columns, sep, error)
    if fullwidth and sep == ",":
        for char, label in FULLWIDTH.items():
            pos = text.find(char)
            if pos >= 0:
                raise error(FULLWIDTH_SEPARATOR.at(file_name, line=text.count("\n", 0, pos) + 1, label=label(),
                                                   sep=sep))
    frame = parse_table(utf8_bytes(data, raw, codec), file_name, error, sep=sep, skip_blank_lines=False,
                        skipinitialspace=skipinitialspace)
    given = {str(c).lower() for c in frame.columns}
    required, columns = tuple(columns), tuple(columns) + tuple(c for c in optional if c.lower() in given)
    _check_columns(list(frame.columns), columns, file_name, sep, error, _headers(required, optional))
    frame = frame.rename(columns={c: canonical for c in frame.columns for canonical in columns
                                  if c.lower() == canonical.lower()})[list(columns)]
    line = physical_lines(text, len(frame), sep, skipinitialspace)
    blank = (frame == "").all(axis=1).to_numpy() if _BLANK_LINE.search(text) else np.zeros(len(frame), bool)
    if blank.any():
        frame = frame.loc[~blank].reset_index(drop=True)
        line = line[~blank]
    if len(frame) == 0:
        raise error(NO_ROWS.at(file_name))
    return Table(file_name, columns, line, sep, frame=frame)


def header_names(data, name, error, separators=(",", "\t")):
    r"""The column names of a file's header line as written (stripped), before the file is read as a table: what
    a family that takes more than one form of file (labels or probabilities) decides the form by. The line ends
    where an editor ends it (CR, LF or CRLF, as the table reader reads it); the separator is judged as
    ``read_table`` judges it; a file in another encoding is decoded whole (or its error raised, as the reader
    would).

    >>> header_names(b"\xef\xbb\xbfid,a,b\r1,0.5,0.5\r", "s.csv", ValueError), header_names(b"id\tlabel\n", "s", ValueError)
    (['id', 'a', 'b'], ['id', 'label'])
    """
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    ends = [k for k in (data.find(b"\n", start), data.find(b"\r", start)) if k >= 0]
    line = data[start:min(ends) if ends else len(data)]
    try:
        if b"\0" in line:
            raise UnicodeError
        text = line.decode("utf-8")
    except UnicodeError:   # another encoding: the whole file decoded as the table reader will (or its error)
        text = normalise_newlines(decode_with_codec(data, name, error)[0]).lstrip("\ufeff").split("\n", 1)[0]
    if not text.strip():
        return []
    sep = sniff_separator(text, separators)
    try:
        return [c.strip() for c in next(csv.reader([text], delimiter=sep, skipinitialspace=True))]
    except csv.Error:   # a name longer than the csv module's field limit: the table reader says what is wrong
        return [c.strip().strip('"') for c in text.split(sep)]


def sniff_separator(header, allowed=(",", "\t")):
    """The separator of a delimited file, judged from its header line: the one of ``allowed`` it holds most of; on
    a tie, or with none, the first of ``allowed`` (the form the task documents first), so a stray character in a
    header never changes how a file of the first form is read.

    >>> sniff_separator("SentenceId\\tView\\tOpinion"), sniff_separator("id,keywords"), sniff_separator("id")
    ('\\t', ',', ',')
    >>> sniff_separator("id,keywords\\t"), sniff_separator("id,keywords\\t", ("\\t", ","))
    (',', '\\t')
    """
    counts = [(header.count(sep), -k, sep) for k, sep in enumerate(allowed)]
    best = max(counts)
    return best[2] if best[0] > 0 else allowed[0]


def physical_lines(text, n_rows, sep, skipinitialspace=True):
    r"""The file line where each of ``n_rows`` table rows starts (the header is line 1).

    One row per line unless a quoted field holds a line break; only then is the
    text read again, by the csv module, to count the lines of each record.

    >>> physical_lines('a,b\n1,"x\ny"\n2,z\n', 2, ",").tolist()
    [2, 4]
    """
    simple = np.arange(n_rows) + 2
    if '"' not in text or text.count("\n") + (not text.endswith("\n")) == n_rows + 1:
        return simple
    reader = csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=skipinitialspace)
    starts, previous = [], 0
    try:
        for _ in reader:
            starts.append(previous + 1)
            previous = reader.line_num
    except csv.Error:
        return simple
    if len(starts) != n_rows + 1:  # the two readers disagree: keep the row count, say nothing wrong
        return simple
    return np.asarray(starts[1:], dtype=np.int64)


def _headers(required, optional):
    """Every header a table may have, as one text: the required columns, then each optional one in turn.

    >>> _headers(("id", "labels"), ("scores",)).text("en")
    'id,labels or id,labels,scores'
    """
    headers = [",".join(required + tuple(optional[:k])) for k in range(len(optional) + 1)]
    return headers[0] if len(headers) == 1 else EITHER(first=", ".join(headers[:-1]), last=headers[-1])


_DECIMAL_COMMA = re.compile(r"(?:^|[;\n\r])\s*[-+]?\d+,\d+\s*(?=[;\n\r]|$)")


def _check_header_separator(header, content, name, columns, sep, error):
    r"""Before the rows are read: a header of several columns that holds none of the allowed separators but
    another one is written with that one (a table read with the wrong separator fails on its rows with a
    message about field counts). A header separated by ';' over cells with decimal commas is a spreadsheet's
    export in a locale that writes them (German, French): said so, with how to save it.

    >>> _check_header_separator("id;value", "id;value\n1;2,5\n", "p.csv", ("id", "value"), ",", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: ...
    """
    if len(columns) < 2 or sep in header:
        return
    other = next(((s, label) for s, label in OTHER_SEPARATORS if s != sep and s in header), None)
    if other is None:
        return
    expected = sep.join(columns)
    if other[0] == ";":
        found = _DECIMAL_COMMA.search(content if isinstance(content, str) else content.decode("utf-8", "replace"))
        if found is not None:
            raise error(SPREADSHEET_EXPORT.at(name, line=1, number=clip(found.group().strip(";\r\n \t"), 20),
                                              header=expected))
    raise error(HEADER_SEPARATOR.at(name, line=1, label=other[1], sep="TAB" if sep == "\t" else "'%s'" % sep,
                                    header=expected))


def _check_columns(found, columns, name, sep, error, headers):
    sep_label = "TAB" if sep == "\t" else "'%s'" % sep
    if len(found) == 1 and sep not in found[0]:
        for other, label in OTHER_SEPARATORS:
            if other != sep and other in found[0]:
                raise error(HEADER_SEPARATOR.at(name, line=1, label=label, sep=sep_label,
                                                header=sep.join(columns)))
    lowered = [c.lower() for c in found]
    missing = [c for c in columns if c.lower() not in lowered]
    extra = [c for c in found if c.lower() not in [k.lower() for k in columns]]
    if missing or extra or len(found) != len(columns):
        hint = INDEX_HINT() if any(c.lower().startswith("unnamed") for c in extra) or "" in found else ""
        raise error(COLUMNS.at(name, line=1, found=clip(",".join(found), 80) or "(none)", expected=headers,
                               hint=hint))


# -- ids ------------------------------------------------------------------------------------------------------
def match_ids(table, column, units, problems, what="id", fullwidth=False, repeats="refuse"):
    """The position in ``units`` of each row's id; -1 for a row whose id is empty, repeated or unknown.

    Every such row is a problem (in file-line order: empty, full-width, repeated,
    unknown). ``repeats="allow"`` lets an id have several rows (one row per
    pair, as in view-sentiment). Missing ids are the caller's: ``missing_ids``.
    """
    ids = table.cells(column).strip()
    name, line = table.name, table.line
    bad = np.zeros(len(ids), dtype=bool)

    def flag(rows, make):
        rows = np.asarray(rows, dtype=np.int64)
        rows = rows[~bad[rows]]
        problems.add_rows(rows, line, make)
        bad[rows] = True

    empty = ids.lengths() == 0
    flag(np.flatnonzero(empty), lambda i: EMPTY_ID.at(name, int(line[i]), column=column, what=what))
    position = unit_index(units).get_indexer(ids)
    if fullwidth:  # a column separated by a full-width comma leaves ids that are no test ids: only those
        other = np.flatnonzero(position < 0)
        for char, label in FULLWIDTH.items():
            hit = other[ids[other].contains(char)]
            flag(hit, lambda i, label=label: FULLWIDTH_ID.at(name, int(line[i]), column=column, label=label()))
    if repeats == "refuse":
        first = _first_rows(ids, position, empty, len(units))
        dup = None if first is None else first != np.arange(len(ids))
        if dup is not None and dup.any():
            first_line = line[first]  # rows are in file order: a value's first row has its smallest line
            flag(np.flatnonzero(dup), lambda i: DUPLICATE_ID.at(name, int(line[i]), column=column, what=what,
                                                                 id=clip(ids.text(i)), first=int(first_line[i]),
                                                                 again=int(line[i])))
    unknown = np.flatnonzero((position < 0) & ~bad)
    if len(unknown):
        hint = ZEROS_HINT(what=what) if _zeros_dropped(ids[unknown], units) else ""
        flag(unknown, lambda i: UNKNOWN_ID.at(name, int(line[i]), column=column, what=what,
                                              id=repr(clip(ids.text(i))), n=len(unknown), hint=hint))
    position[bad] = -1
    return position


def _zeros_dropped(asked, units):
    """True when one of the ids ``asked`` (Cells), without its leading zeros, is a unit id without its leading
    zeros: a tool dropped them. Compared as cells (no Python string per unit id).

    >>> _zeros_dropped(Cells.from_strings(["28171", "x"]), ["028171", "5"]), _zeros_dropped(Cells.from_strings(["7"]), ["8"])
    (True, False)
    """
    plain = unit_cells(units).without_leading("0")
    distinct = plain[factorize(plain)[1]]
    return bool((Index(distinct).get_indexer(asked.without_leading("0")) >= 0).any())


def _first_rows(ids, position, empty, n_units):
    """The first row holding each row's id (the row itself for an empty id), or None when no id repeats (every
    row is its own first: the usual file, which then costs no array of rows).

    A known id is its unit's position (the units are distinct), so repeats are counted without comparing
    cells; only unknown ids are grouped by their bytes.
    """
    known = position >= 0
    other = np.flatnonzero(~known & ~empty)
    if len(other) < 2:   # a repeat among the known ids: fewer units seen than known rows (a byte per unit, no count)
        n_known = int(np.count_nonzero(known))
        seen = np.zeros(n_units, dtype=bool)
        seen[position if n_known == len(position) else position[known]] = True
        if int(np.count_nonzero(seen)) == n_known:
            return None
    rows = np.arange(len(ids))
    group = np.where(known, position, -1)
    if len(other):
        group[other] = n_units + factorize(ids[other])[0]
    live = np.flatnonzero(group >= 0)
    _, at, inverse = np.unique(group[live], return_index=True, return_inverse=True)
    first = rows.copy()
    first[live] = live[at[inverse]]
    return first


class UnitIds:
    """The ids of the test units in reference order, as compact cells with their exact index.

    A million ids as Python strings cost about 60 MB and their making a tenth of a second; here ``ids[i]`` makes
    the one string a message names, ``ids[mask]`` the strings of some, and ``np.asarray(ids, dtype=object)``
    all of them, for the tools that want them.

    >>> ids = UnitIds(Cells.from_strings(["b", "a", "c"]).compact())
    >>> len(ids), ids[1], ids[-1], list(ids), ids[np.array([True, False, True])].tolist()
    (3, 'a', 'c', ['b', 'a', 'c'], ['b', 'c'])
    >>> np.asarray(ids, dtype=object).tolist(), ids.index.get_indexer(Cells.from_strings(["c", "x"])).tolist()
    (['b', 'a', 'c'], [2, -1])
    """

    __slots__ = ("cells", "index")

    def __init__(self, cells, index=None):
        self.cells = cells
        self.index = Index(cells) if index is None else index

    def __len__(self):
        return len(self.cells)

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            n = len(self.cells)
            if not -n <= key < n:
                raise IndexError("unit %d of %d" % (key, n))
            return self.cells.text(int(key) % n)
        return self.cells[key].to_objects()

    def __iter__(self):
        return iter(self.cells.tolist())

    def tolist(self):
        return self.cells.tolist()

    def __array__(self, dtype=None, copy=None):
        out = self.cells.to_objects()
        return out if dtype is None else out.astype(dtype, copy=False)

    def __repr__(self):
        return "UnitIds(%d ids)" % len(self)


def unit_cells(units):
    """The unit ids as Cells (those of UnitIds as they are, any other sequence of str made into Cells)."""
    return units.cells if isinstance(units, UnitIds) else Cells.from_strings(list(units))


def unit_index(units):
    """An exact ``grouping.Index`` of the unit ids: UnitIds' own (made once, with them), else made now."""
    return units.index if isinstance(units, UnitIds) else Index(unit_cells(units))


def missing_ids(table, units, position, problems, what="id", limit=5):
    """One problem naming the ``units`` that no row matches (a whole-file problem, after the rows)."""
    present = np.zeros(len(units), dtype=bool)
    present[position[position >= 0]] = True
    if present.all():
        return
    missing = np.flatnonzero(~present)
    shown = ", ".join(str(units[int(i)]) for i in missing[:limit]) + (", ..." if len(missing) > limit else "")
    problems.add(MISSING_IDS.at(table.name, what=what, n=len(missing), shown=shown))


# -- reference and public tables -----------------------------------------------------------------------------------
def read_reference_bytes(cfg, slot):
    """The bytes of the reference file named by ``files.<slot>`` in config.yaml."""
    try:
        with open(cfg.path(slot), "rb") as fh:
            return fh.read()
    except OSError:
        raise ReferenceDataError(NO_REFERENCE_FILE(slot=slot, file=cfg.files[slot]))


def table_of(data, name, columns=()):
    """A reference or public table (blank lines skipped), comma- or TAB-separated: the header decides."""
    table = _scan_reference(data, name)
    if table is None:
        raw, codec = decode_with_codec(data, name, ReferenceDataError)
        sep = sniff_separator(raw.split("\n", 1)[0])
        frame = parse_table(utf8_bytes(data, raw, codec), name, ReferenceDataError, sep=sep)
        names = [str(c) for c in frame.columns]
        repeated = [c for k, c in enumerate(names) if c in names[:k]]
        if repeated:   # pandas renames a repeated name, but not one that only spaces around it set apart
            raise ReferenceDataError(REPEATED_REFERENCE_COLUMN(file=name, column=repeated[0]))
        table = Table(name, names, np.arange(len(frame)) + 2, sep, frame=frame)
    absent = [c for c in columns if c not in table.columns]
    if absent:
        raise ReferenceDataError(NO_REFERENCE_COLUMN(file=name, column=absent[0], columns=",".join(table.columns)))
    return table


def _scan_reference(data, name):
    if not plain_utf8(data):
        return None
    pos0 = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    first_line = _first_line(data, pos0)
    if first_line is None:
        return None
    sep = sniff_separator(first_line.decode("utf-8"))
    scanned = csvscan.scan(data, sep, skip_blank_lines=True, lines=False)  # a reference row's line is its rank
    if scanned is None:
        return None
    names = [c.strip().lstrip("\ufeff") for c in scanned.names]
    if len(set(names)) != len(names):  # pandas' frame would have two columns of one name: leave it to pandas
        return None
    return Table(name, names, None, sep, scanned, {c: k for k, c in enumerate(names)})


def reference_table(cfg, slot, columns):
    """The reference table of ``slot`` (a Table), comma- or TAB-separated (the header decides).

    ``columns`` must be present; other columns are kept. ``line`` is the row's
    line counting the header and no blank line (what reference messages name).
    """
    return table_of(read_reference_bytes(cfg, slot), cfg.files[slot], columns)


def public_table(folder, name, columns):
    """A public test-input table (no answers) in ``folder`` as a Table, or None when the folder has none."""
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        return table_of(fh.read(), name, columns)


def read_public_units(folder, name, column):
    """The unit ids (stripped, as UnitIds) of a public test-input table in ``folder``, or None without one."""
    table = public_table(folder, name, [column])
    return None if table is None else reference_units(table, column)[1]


def reference_units(table, column="id"):
    """(the stripped id cells, the same ids as UnitIds) of a reference Table. An empty, repeated or unprintable id
    is an organizer error: every submission would fail on it.

    The ids are indexed once (``indexed_units``): the submission's ids are looked up in that index.
    """
    ids = table.cells(column).strip()
    check_reference_ids(ids, table.name, column)
    units, repeat = indexed_units(ids)
    if repeat is not None:
        raise ReferenceDataError(REPEATED_REFERENCE_ID(file=table.name, column=column, id=ids.text(repeat)))
    return ids, units


def check_reference_ids(ids, name, column="id"):
    """ReferenceDataError at the first empty id or id holding a character participants cannot see (what
    ``quoting.printable`` escapes); ``ids``: the stripped id cells of reference file ``name``, one per data row."""
    empty = np.flatnonzero(ids.lengths() == 0)
    if len(empty):
        raise ReferenceDataError(EMPTY_REFERENCE_ID.at(name, int(empty[0]) + 2, column=column))
    first = unprintable_cell(ids)
    if first is not None:
        raise ReferenceDataError(UNPRINTABLE_REFERENCE_ID.at(name, first + 2, column=column, id=repr(ids.text(first))))


def unprintable_cell(cells):
    """The index of the first cell holding a character ``quoting.printable`` escapes, or None.

    A byte scan finds the cells that may hold one; only those are decoded.

    >>> unprintable_cell(Cells.from_strings(["a", "中文", "b\u200bc"])), unprintable_cell(Cells.from_strings(["x\ty"]))
    (2, None)
    """
    if not len(cells):
        return None
    data = np.frombuffer(joined(cells, b" "), dtype=np.uint8)
    suspect = np.flatnonzero(_SUSPECT[data])
    if not len(suspect):
        return None
    starts = np.cumsum(cells.lengths() + 1) - cells.lengths() - 1
    for i in np.unique(np.searchsorted(starts, suspect, side="right") - 1).tolist():
        if has_unsafe(cells.text(i)):
            return i
    return None


def indexed_units(ids):
    """(``ids`` (Cells) as UnitIds, None), or (None, the first cell that repeats an earlier one).

    The exact Index made to find a repeat (its sorted 64-bit keys: distinct keys are distinct ids) is the
    UnitIds' own: the gold's and the submission's ids are looked up in it.
    """
    compact = ids.compact()  # the ids outlive the file's bytes
    try:
        return UnitIds(compact, Index(compact)), None
    except ValueError:  # a repeated id
        return None, int(np.flatnonzero(duplicated(ids))[0])
