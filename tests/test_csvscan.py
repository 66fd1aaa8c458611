"""The byte-level table reader against pandas' C parser, on generated hostile files and on valid ones.

``csvscan.scan`` either gives exactly the cells pandas gives (names, every value, the rows, the file line
where each row starts as ``tables.physical_lines`` counts it, the characters of every cell) or gives up
(None), and the file is then read by pandas. Hostile files are made of the pieces that trouble CSV
readers (quotes, doubled quotes, CR, CRLF, line breaks in quotes, spaces, separators, a BOM): the scanner
reads exactly those that have the shape its docstring promises (``in_shape``, a plain walk over the bytes
written here from that list) and gives up on the others. Valid files are written by Python's csv module,
and those the scanner must take.
"""
import codecs
import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.bytelevel.cells import Cells
from scorer.bytelevel.grouping import Index, duplicated, factorize
from scorer.bytelevel.csvscan import MAX_LEADING_SPACES, scan
from scorer.tables import physical_lines
from scorer.textio import normalise_newlines

PIECES = [",", "\t", '"', '""', "\n", "\r\n", "\r", " ", "  ", "a", "字", "b c", "1", "\ufeff", '"a"', '"a,b"',
          '"\n"', '"x""y"', ",,", "\t\t", " \t", "é", "\x0b", "\u3000"]
SETTINGS = settings(max_examples=600, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def pandas_cells(data, sep, skip_blank_lines):
    """(names, rows) as pandas reads ``data`` the way tables.py asks it to, or None when it refuses."""
    try:
        frame = pd.read_csv(io.BytesIO(data), encoding="utf-8", sep=sep, dtype=str, keep_default_na=False,
                            na_filter=False, header=0, quoting=csv.QUOTE_MINIMAL, skipinitialspace=True,
                            skip_blank_lines=skip_blank_lines, engine="c")
    except (pd.errors.ParserError, pd.errors.EmptyDataError):
        return None
    return list(frame.columns), frame.values.tolist(), frame.index.tolist()


def check_against_pandas(data, sep, skip_blank_lines):
    """None if the scanner gave up; else assert it agrees with pandas in every respect, and return True."""
    scanned = scan(data, sep, skip_blank_lines)
    if scanned is None:
        return None
    expected = pandas_cells(data, sep, skip_blank_lines)
    assert expected is not None, "pandas refuses a file the scanner read: %r" % data
    names, rows, index = expected
    columns = [scanned.cells(k).tolist() for k in range(len(scanned.names))]
    got = [list(r) for r in zip(*columns)] if columns and scanned.n_rows else []
    assert scanned.names == names, (data, scanned.names, names)
    assert got == rows and index == list(range(len(rows))), (data, got, rows)
    lengths = [scanned.char_lengths(k).tolist() for k in range(len(names))]
    assert lengths == [[len(v) for v in column] for column in columns]
    if not skip_blank_lines:  # what submissions use: the line numbers messages name
        text = normalise_newlines(data.decode("utf-8-sig"))
        assert scanned.line.tolist() == physical_lines(text, len(rows), sep).tolist(), data
    return True


@SETTINGS
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=30), header=st.booleans(),
       bom=st.booleans(), sep=st.sampled_from([",", "\t"]), skip=st.booleans())
def test_hostile_pieces_read_as_pandas_reads_them_or_not_at_all(pieces, header, bom, sep, skip):
    text = ("id,v\n" if header else "") + "".join(pieces)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    read = check_against_pandas(data, sep, skip)
    assert bool(read) == in_shape(data, sep, skip), (data, read)   # it gives up on exactly the files it must


def in_shape(data, sep, skip_blank_lines):
    """Whether ``data`` has the shape csvscan's docstring promises to read, by a plain walk over its bytes."""
    sep = sep.encode("ascii")
    body = data[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) else data
    if not body or any(body[i:i + 1] == b"\r" and body[i + 1:i + 2] != b"\n" for i in range(len(body))):
        return False
    lines, fields, i, n = [], [], 0, len(body)
    while True:  # at the start of a field
        spaces = 0
        while body[i:i + 1] == b" ":
            spaces += 1
            i += 1
        if spaces > MAX_LEADING_SPACES and body[i:i + 1] not in (sep, b"\n", b"\r", b""):
            return False
        if body[i:i + 1] == b'"':
            if spaces:
                return False                    # spaces before an opening quote
            i += 1
            value, quoted = bytearray(), True
            while True:
                if i >= n:
                    return False                # an unclosed quote
                if body[i:i + 1] == b'"':
                    if body[i + 1:i + 2] == b'"':
                        value += b'"'
                        i += 2
                        continue
                    i += 1
                    break
                value += body[i:i + 1]
                i += 1
            if body[i:i + 1] not in (sep, b"\r", b"\n", b""):
                return False                    # text after a closing quote
        else:
            start, quoted = i, False
            while i < n and body[i:i + 1] not in (sep, b"\n"):
                i += 1
            value = body[start:i]
            if value.endswith(b"\r"):
                value = value[:-1]
            if b'"' in value:
                return False                    # a quote inside an unquoted field
        fields.append((bytes(value), quoted))
        if body[i:i + 1] == b"\r":
            i += 1
        if i >= n or body[i:i + 1] == b"\n":
            lines.append(fields)
            fields = []
            i += 1
            if i >= n:
                break
        else:
            i += 1                              # past the separator
    if skip_blank_lines:
        lines = [f for f in lines if not (len(f) == 1 and not f[0][1] and not f[0][0].strip(b" \t"))]
    if not lines:
        return False
    names = [v for v, _ in lines[0]]
    if b"" in names or len(set(names)) != len(names):
        return False                            # an empty or repeated header name
    return all(len(f) <= len(names) for f in lines[1:])   # no row longer than the header


VALUES = ['"', ",", "\n", "\r\n", " ", "a", "字", "\t", 'q"q', "", "x y", "\u3000", '""']


@SETTINGS
@given(data=st.data(), n_cols=st.integers(1, 4), n_rows=st.integers(0, 6), sep=st.sampled_from([",", "\t"]),
       quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]), newline=st.sampled_from(["\n", "\r\n"]),
       skip=st.booleans(), final_newline=st.booleans())
def test_files_written_by_the_csv_module_are_read_by_the_scanner(data, n_cols, n_rows, sep, quoting, newline, skip,
                                                                 final_newline):
    cell = st.lists(st.sampled_from(VALUES), max_size=4).map("".join).map(lambda v: v.lstrip(" "))
    rows = data.draw(st.lists(st.lists(cell, min_size=n_cols, max_size=n_cols), min_size=n_rows, max_size=n_rows))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, quoting=quoting, lineterminator=newline)
    writer.writerow(["c%d" % k for k in range(n_cols)])
    writer.writerows(rows)
    text = out.getvalue() if final_newline else out.getvalue()[:-len(newline)]
    assert check_against_pandas(text.encode("utf-8"), sep, skip), text


@pytest.mark.parametrize("data, why", [
    (b"id,v\n1,a\r2,b\n", "a lone CR"),
    (b'id,v\n1,a"b\n', "a quote inside an unquoted field"),
    (b'id,v\n1,"a"b\n', "text after a closing quote"),
    (b'id,v\n1, "a"\n', "a space before an opening quote"),
    (b"id,v\n1,2,3\n", "a row longer than the header"),
    (b"id,,v\n1,2,3\n", "an empty header name"),
    (b"id,id\n1,2\n", "a repeated header name"),
    (b'id,v\n1,"a\n', "an unclosed quote"),
])
def test_what_the_scanner_leaves_to_pandas(data, why):
    assert scan(data, ",", skip_blank_lines=False) is None, why


def test_short_rows_and_blank_lines_are_read_as_pandas_reads_them():
    data = b"a,b,c\n1\n\n  \n\t\n4,5,6"
    assert check_against_pandas(data, ",", False)
    assert check_against_pandas(data, ",", True)
    assert scan(data, ",", True).n_rows == 2


STRINGS = st.lists(st.lists(st.sampled_from(["a", "b", " ", "\t", "\u3000", "\xa0", "\x85", "字", "\x1c", "\u2028",
                                              "\U0001F600", "ab" * 5]), max_size=7).map("".join), max_size=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(strings=STRINGS)
def test_cells_behave_as_python_strings(strings):
    cells = Cells.from_strings(strings)
    assert cells.tolist() == strings
    assert cells.strip().tolist() == [s.strip() for s in strings]
    assert cells.char_lengths().tolist() == [len(s) for s in strings]
    seen = {}
    assert factorize(cells, ordered=True)[0].tolist() == [seen.setdefault(s, len(seen)) for s in strings]
    codes, first = factorize(cells)
    assert [strings[i] for i in first[codes]] == strings and sorted(first.tolist()) == sorted(set(first.tolist()))
    assert duplicated(cells).tolist() == [s in strings[:i] for i, s in enumerate(strings)]
    vocabulary = list(dict.fromkeys(strings[::2]))
    index = Index(Cells.from_strings(vocabulary))
    assert index.get_indexer(cells).tolist() == [vocabulary.index(s) if s in vocabulary else -1 for s in strings]
    assert cells.contains("\u3000").tolist() == ["\u3000" in s for s in strings]
    assert cells.equals("ab").tolist() == [s == "ab" for s in strings]


def test_a_key_collision_is_caught_and_grouped_exactly(monkeypatch):
    # Every cell gets one key. A real key can only collide between cells of different lengths or longer than
    # 8 bytes (for one length, the key of a one-word cell is a bijection of that word), so those are used.
    import scorer.bytelevel.grouping as grouping_module
    monkeypatch.setattr(grouping_module, "keys", lambda c: np.zeros(len(c), dtype=np.uint64))
    strings = ["long cell X", "long cell Y", "long cell X", "z", "long cell Y"]
    cells = Cells.from_strings(strings)
    assert factorize(cells, ordered=True)[0].tolist() == [0, 1, 0, 2, 1]
    assert Index(Cells.from_strings(["z", "long cell X"])).get_indexer(cells).tolist() == [1, -1, 1, 0, -1]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(strings=STRINGS)
def test_cells_in_small_blocks_behave_as_in_one(strings):
    # keys, comparisons and look-ups run a block of cells at a time; blocks of 2 cross every boundary
    import scorer.bytelevel.cells as cells_module
    import scorer.bytelevel.grouping as grouping_module
    cells = Cells.from_strings(strings)
    vocabulary = Cells.from_strings(list(dict.fromkeys(strings[1::2])))
    whole = (grouping_module.keys(cells).tolist(), factorize(cells, ordered=True)[0].tolist(),
             Index(vocabulary).get_indexer(cells).tolist(), duplicated(cells).tolist())
    with pytest.MonkeyPatch.context() as patched:
        for module in (cells_module, grouping_module):   # both read cells a block at a time
            patched.setattr(module, "BLOCK", 2)
        blocks = (grouping_module.keys(cells).tolist(), factorize(cells, ordered=True)[0].tolist(),
                  Index(vocabulary).get_indexer(cells).tolist(), duplicated(cells).tolist())
    assert blocks == whole


EMPTY_ROWS = {  # rows whose every cell is empty go only when the file also has a blank line (as pandas' path does)
    "separators only": b"id,v\n1,a\n,\n2,b\n",
    "a blank line": b"id,v\n1,a\n\n2,b\n",
    "both": b"id,v\n1,a\n,\n\n2,b\n",
    "spaces on a line": b"id,v\n1,a\n \t\n,\n2,b\n",
    "CRLF blank line": b"id,v\r\n1,a\r\n\r\n,\r\n2,b\r\n",
    "full-width comma late": "id,v\n1,a\n2,b，c\n".encode(),
    "a first byte of one only": "id,v\n1,ａ\n2,；\n".encode(),
}


@pytest.mark.parametrize("name", sorted(EMPTY_ROWS))
def test_the_byte_reader_keeps_the_rows_and_errors_of_the_text_reader(name):
    from scorer.discovery import SubmittedFile
    from scorer.errors import ScoringError, SubmissionError
    from scorer.tables import _pandas_table, _scan_table

    data = EMPTY_ROWS[name]

    def outcome(read):
        try:
            table = read()
        except ScoringError as exc:
            return exc.text("en")
        return [table.cells(c).tolist() for c in table.columns], np.asarray(table.line).tolist()

    scanned = outcome(lambda: _scan_table(data, "s.csv", ("id", "v"), SubmissionError, (",",), True, ()))
    text = outcome(lambda: _pandas_table(data, "s.csv", ("id", "v"), SubmissionError, (",",), True, True, ()))
    assert scanned == text
    assert SubmittedFile("s.csv", lambda: data)  # the same bytes a submission holds
