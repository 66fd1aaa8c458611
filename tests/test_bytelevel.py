"""The byte-level reader held to pandas on random bytes (scoring_program/scorer/bytelevel/README.md).

Two properties, on bytes drawn at random (any byte, with the ones that trouble CSV readers drawn more often):

- what ``csvscan.scan`` accepts reads as ``pandas.read_csv(engine="c", dtype=str, na_filter=False,
  skipinitialspace=True)`` reads it: the same names, the same cells, row for row;
- what it refuses goes to pandas: the table readers (a submission's ``read_table``, a reference's ``table_of``)
  give the same columns, cells and lines, or the same one-line error, with the scanner as with every file left
  to pandas.
"""
import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorer.bytelevel.csvscan as csvscan_module
from scorer.bytelevel.csvscan import scan
from scorer.discovery import SubmittedFile
from scorer.errors import ReferenceDataError, ScoringError, SubmissionError
from scorer.tables import read_table, table_of
from scorer.textio import plain_utf8

# the bytes that shape a delimited file, and a few UTF-8 characters that trouble readers (BOM, spaces, commas)
SHAPING = [b",", b"\t", b'"', b"\n", b"\r", b" ", b"a", b"1", b"\xef\xbb\xbf", "字".encode(), "é".encode(), b"\x0b",
           "\u3000".encode(), "，".encode(), b";", b"\x00", b'"a"', b'"a,b"', b'""', b'"\n"', b'"x""y"',
           b" " * 17]   # more leading spaces than the scanner skips one at a time (csvscan.MAX_LEADING_SPACES)
# random bytes: mostly text (those pieces and any character), sometimes any byte at all (invalid UTF-8 included)
TEXT_PIECE = st.one_of(st.sampled_from(SHAPING), st.characters(blacklist_categories=("Cs",)).map(str.encode))
RANDOM_BYTES = st.one_of(st.lists(TEXT_PIECE, max_size=40).map(b"".join),
                         st.lists(st.one_of(TEXT_PIECE, st.binary(min_size=1, max_size=2)), max_size=40).map(b"".join))
HEADERS = st.sampled_from([b"", b"id,v\n", b"id\tv\r\n", b"\xef\xbb\xbfid,v\n", b'"id","v"\n', b"ID, v\n",
                           b"v,v\n", b"id,\n"])   # the last two: names pandas renames (v.1, Unnamed: 1)
SETTINGS = settings(max_examples=1000, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def pandas_reading(data, sep, skip_blank_lines):
    """(names, rows) as pandas' C parser reads ``data`` with the options the scanner reproduces, or None when it
    refuses the file."""
    try:
        frame = pd.read_csv(io.BytesIO(data), engine="c", dtype=str, na_filter=False, skipinitialspace=True,
                            encoding="utf-8", sep=sep, keep_default_na=False, header=0, quoting=csv.QUOTE_MINIMAL,
                            skip_blank_lines=skip_blank_lines)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        return None
    if not isinstance(frame.index, pd.RangeIndex):   # pandas made the first row's extra fields an index
        return None
    return list(frame.columns), frame.values.tolist()


@SETTINGS
@given(header=HEADERS, body=RANDOM_BYTES, sep=st.sampled_from([",", "\t"]), skip=st.booleans())
def test_what_the_scanner_accepts_reads_as_pandas_reads_it(header, body, sep, skip):
    data = header + body
    if not plain_utf8(data):   # the readers scan plain UTF-8 only (tables.py asks textio.plain_utf8 first)
        return
    scanned = scan(data, sep, skip)
    if scanned is None:
        return
    expected = pandas_reading(data, sep, skip)
    assert expected is not None, "pandas refuses a file the scanner read: %r" % data
    names, rows = expected
    columns = [scanned.cells(k).tolist() for k in range(len(scanned.names))]
    assert scanned.names == names, data
    assert ([list(row) for row in zip(*columns)] if scanned.n_rows else []) == rows, data
    assert [scanned.char_lengths(k).tolist() for k in range(len(names))] == [[len(v) for v in c] for c in columns]
    assert scanned.physical_lines == data.count(b"\n") + (not data.endswith(b"\n"))


def outcome(read):
    """What a reader gives: (columns, cells of each, file line of each row), or the error's class and line."""
    try:
        table = read()
    except ScoringError as exc:
        return type(exc).__name__, exc.text("en")
    return list(table.columns), [table.cells(c).tolist() for c in table.columns], np.asarray(table.line).tolist()


def without_scanner(monkeypatch, read):
    """``read()`` with every file left to pandas, as the scanner leaves those it refuses."""
    with monkeypatch.context() as patched:
        patched.setattr(csvscan_module, "scan", lambda *args, **kwargs: None)
        return outcome(read)


@SETTINGS
@given(header=HEADERS, body=RANDOM_BYTES)
def test_a_submitted_table_reads_the_same_with_the_scanner_and_through_pandas(header, body):
    data = header + body
    file = SubmittedFile("s.csv", lambda: data)

    def read():
        return read_table(file, ("id", "v"), SubmissionError, separators=(",", "\t"))

    with pytest.MonkeyPatch.context() as monkeypatch:
        assert outcome(read) == without_scanner(monkeypatch, read), data


@SETTINGS
@given(header=HEADERS, body=RANDOM_BYTES)
def test_a_reference_table_reads_the_same_with_the_scanner_and_through_pandas(header, body):
    data = header + body

    def read():
        return table_of(data, "gold.csv")

    with pytest.MonkeyPatch.context() as monkeypatch:
        assert outcome(read) == without_scanner(monkeypatch, read), data


def test_the_comparison_sees_a_scanner_that_reads_wrong():
    """The properties above can fail: a scanner that dropped the last row would be caught by both."""
    data = b"id,v\n1,a\n2,b\n"
    right = scan(data, ",", False)
    assert pandas_reading(data, ",", False) == (["id", "v"], [["1", "a"], ["2", "b"]])
    assert [right.cells(k).tolist() for k in range(2)] == [["1", "2"], ["a", "b"]]

    def short(*args, **kwargs):
        found = scan(*args, **kwargs)
        found.start, found.end = found.start[:, :-1], found.end[:, :-1]
        found.line = None if found.line is None else found.line[:-1]
        return found

    file = SubmittedFile("s.csv", lambda: data)
    with pytest.MonkeyPatch.context() as monkeypatch:
        honest = outcome(lambda: read_table(file, ("id", "v"), SubmissionError))
        monkeypatch.setattr(csvscan_module, "scan", short)
        broken = outcome(lambda: read_table(file, ("id", "v"), SubmissionError))
        assert broken != honest
        assert outcome(lambda: table_of(data, "gold.csv")) != without_scanner(monkeypatch, lambda: table_of(
            data, "gold.csv"))


@pytest.mark.parametrize("data", [b"id,v,v \n1,2,3\n", b"\x01,\t\x01", b"id,\xef\xbb\xbfid\n1,2\n"])
def test_a_reference_header_naming_a_column_twice_is_the_organizers_error(data):
    """Found by the properties above: two names that only spaces (or a BOM) set apart are one column name twice
    once stripped; pandas renames a repeated name (``v.1``), not those, so the table had two columns of one name
    and a family reading it failed with an internal error instead of the organizer's one line."""
    with pytest.raises(ReferenceDataError) as caught:
        table_of(data, "gold.csv")
    assert caught.value.text("en").startswith("gold.csv: the header names the column ")
    assert outcome(lambda: table_of(b"id,v,v\n1,2,3\n", "gold.csv"))[0] == ["id", "v", "v.1"]   # as pandas names it
