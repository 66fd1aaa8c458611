"""The separator of a table is judged from its header line (tables.sniff_separator): the allowed separator the
header holds most of, and on a tie the first the task allows, the comma.

Why the comma on a tie: it is the form each task's page gives first and the one a header holding no separator at
all is read with, so a stray character in a header never changes how an honest comma file is read. Both readers
(the byte scanner for plain UTF-8, pandas for any other encoding) and ``header_names`` (how the classification
family tells labels from probabilities) judge it the same way.
"""
import codecs

import pytest

from bundle_shared import comp_id, competitions, sample_submission
from test_line_ends import run

from scorer.tables import header_names, sniff_separator


@pytest.mark.parametrize("header, allowed, expected", [
    ("id,keywords\t", (",", "\t"), ","),          # one of each: the first allowed
    ("id\tkeywords,", (",", "\t"), ","),
    ("id,keywords\t", ("\t", ","), "\t"),         # the order of ``allowed`` decides, not the characters
    ("a,b\tc\td", (",", "\t"), "\t"),             # more TABs than commas
    ("a,b,c\td", ("\t", ","), ","),
    ("id", (",", "\t"), ","),                     # none: the first allowed
    ("id", ("\t", ","), "\t"),
])
def test_the_separator_is_the_one_the_header_holds_most_of_and_the_first_allowed_on_a_tie(header, allowed, expected):
    assert sniff_separator(header, allowed) == expected


def test_header_names_breaks_a_tie_as_the_table_reader_does():
    assert header_names(b"id,a\tb\n1,0.5\t\n", "s.csv", ValueError) == ["id", "a\tb"]
    assert header_names(b"id,a\tb\n", "s.csv", ValueError, separators=("\t", ",")) == ["id,a", "b"]


TWO_SEPARATORS = [c for c in competitions()
                  if any(n.endswith(".csv") for n in sample_submission(c) or {})
                  and b"\t" not in next(iter(sample_submission(c).values())).split(b"\n", 1)[0]]


def _tied(data):
    """The file with as many TABs as its header has commas added at the header's end (white space every reader
    strips from a column name)."""
    header, rest = data.split(b"\n", 1)
    return header + b"\t" * header.count(b",") + b"\n" + rest


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("competition", TWO_SEPARATORS, ids=comp_id)
def test_a_comma_file_whose_header_ties_with_tabs_reads_as_commas(competition, encoding, tmp_path):
    """Every shipped CSV family whose sample is comma-separated: a header holding as many TABs as commas scores as
    the clean file does (UTF-8 goes through the byte scanner, UTF-16 through pandas)."""
    name, data = next((n, d) for n, d in sample_submission(competition).items() if n.endswith(".csv"))
    base, expected = run(competition, {name: data}, tmp_path / "clean")
    assert base.returncode == 0, base.stderr
    tied = _tied(data)
    header = tied.split(b"\n", 1)[0].decode("utf-8")
    assert header.count(",") == header.count("\t") > 0
    if encoding == "utf-16":
        tied = codecs.BOM_UTF16_LE + tied.decode("utf-8").encode("utf-16-le")
    proc, outputs = run(competition, {name: tied}, tmp_path / "tied")
    assert proc.returncode == 0, proc.stderr
    assert outputs == expected
