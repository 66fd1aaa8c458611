"""The shape every family's Start has, and the table helpers they share.

A Start turns the organizer's gold file (plus the family's extra files) into
``Items``: reference files (the answers, for reference_data/ or dev/), public
files (what the starting kit shows of the same items, every answer column
removed) and the public inputs the baseline reads. The test set and the
optional dev set are read the same way.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List

from ..inputs import OrganizerError, read_bytes
from scorer.public import ReferenceDataError, ScoringError, decode, table_of


@dataclass
class Items:
    """One set of items: the test set or the dev set."""

    reference: Dict[str, bytes]          # answer files by name (gold.csv, labels.txt, ...)
    public: Dict[str, bytes]             # what participants get of these items (test_public.csv, ...)
    units: List[str]                     # the unit ids, to refuse a dev set that shares some with the test set
    inputs: Any = None                   # what the baseline reads: public columns only
    extra: Dict[str, Any] = field(default_factory=dict)
    dropped: List[str] = field(default_factory=list)   # columns of the organizer's file written nowhere (said)


class Start:
    """Base class; a family sets the attributes and implements read, baseline and values."""

    family = ""
    sample = "sample_submission.csv"     # the kit's sample submission (a file, or a folder ending in /)
    dev_sample = "sample_prediction.csv"

    def arguments(self, parser):
        """Add the family's own flags to the ``new`` command."""

    def read(self, gold, args, dev=False) -> Items:
        raise NotImplementedError

    def files(self, args, dev=False) -> Dict[str, str]:
        """The config's ``files:`` mapping (reference slots and submission patterns)."""
        from scorer.public import families

        return dict(families()[self.family].default_files)

    def options(self, args, dev=False) -> Dict[str, Any]:
        """Options that differ from the family defaults because of the files given (e.g. which subtasks)."""
        return {}

    def notes(self, options, items, args) -> List[str]:
        """What ``new`` tells the organizer about the options it chose for the test ``items`` (printed as notes)."""
        return []

    def baseline(self, items, options, args) -> Dict[str, bytes]:
        """The sample submission of ``items``: kit-relative name -> bytes, from public inputs only."""
        raise NotImplementedError

    def values(self, options, texts, items) -> Dict[str, str]:
        """The family's template fields in the language of ``texts`` (its part of <family>.yaml) for the test
        ``items``."""
        return {}

    def example(self, items, sample, options, texts, args) -> Dict[str, str]:
        """The format section's example: ``example`` (the lines shown) and ``example_note`` (a sentence on them,
        every field filled), for the test ``items``.

        Its answers are made up from the format (the declared labels, tags, views; words of the public text), never
        read from the gold: an id of the public inputs is shown with an invented answer. This default, for a family
        that makes none, shows the first lines of the sample submission."""
        name = sorted(sample)[0]
        return {"example": "\n".join(sample[name].decode("utf-8").split("\n")[:3]), "example_note": ""}


# -- tables -----------------------------------------------------------------------------------------
def read_table(path, columns, what):
    """The table at ``path`` as strings, read exactly as the scoring program reads a reference table (the same
    encodings and separators; NUL bytes, damaged text and unclosed quotes refused, never cut), comma- or
    TAB-separated by its header.

    ``columns`` must be there and the table must have rows (OrganizerError naming ``what`` otherwise); other
    columns are kept.
    """
    data = read_bytes(path, what)
    needs = ("new needs a comma- or TAB-separated table with the header %s (docs/organizers.md, 'From the public "
             "data sets to the gold format', converts the public data sets)" % ",".join(columns))
    try:
        table = table_of(data, Path(path).name)
    except ScoringError as exc:
        raise OrganizerError("%s %s: %s; %s" % (what, path, exc.text("en").rstrip("."), needs))
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise OrganizerError("%s %s has no column %s (its columns: %s); %s"
                             % (what, path, missing[0], ", ".join(table.columns)[:200], needs))
    if not len(table):
        raise OrganizerError("%s %s has a header but no row; give one row per test item" % (what, path))
    return table.frame


def csv_bytes(frame):
    """A table as the project writes it: UTF-8, comma-separated, LF line ends, no index."""
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def public_text(frame, id_column="id"):
    """Each item's public text, as a list: its columns but the id, joined by spaces ("" without such columns).

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"id": ["1", "2"], "title": ["Rain", "Sun"], "body": ["cold", ""]})
    >>> public_text(frame), public_text(frame[["id"]])
    (['Rain cold', 'Sun '], ['', ''])
    """
    rest = frame.drop(columns=[id_column])
    if rest.shape[1] == 0:     # no row tuples to join then: pandas yields none for a frame without columns
        return [""] * len(frame)
    return [" ".join(row) for row in rest.itertuples(index=False, name=None)]


def text_columns(frame, answers):
    """The public columns of a gold table: every column but the answers."""
    return [c for c in frame.columns if c not in answers]


def lines_file(path, what):
    """The non-empty stripped lines of a text file (a list of labels, of views, ...), decoded as the scoring
    program decodes text (NUL and damaged bytes refused)."""
    data = read_bytes(path, what)
    try:
        text = decode(data, Path(path).name, ReferenceDataError)
    except ScoringError as exc:
        raise OrganizerError("%s %s: %s" % (what, path, exc.text("en")))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise OrganizerError("%s %s holds no line; give one name per line" % (what, path))
    return lines


def code_list(values, lang="en"):
    """Values as Markdown code in a list: `a`, `b` (`a`、`b` in Chinese)."""
    return ("、" if lang == "zh" else ", ").join(code(v) for v in values)


def code(value):
    """``value`` as Markdown code: `value`."""
    return "`%s`" % plain(value)


def plain(value):
    """``value`` as text that may stand between backquotes (a backquote inside becomes ')."""
    return str(value).replace("`", "'")


def csv_line(cells, sep=","):
    """One CSV line of ``cells``, a cell quoted when it holds the separator, a quote or a line break.

    >>> print(csv_line(["a", "b,c", 'a"b']))
    a,"b,c","a""b"
    """
    return sep.join('"%s"' % c.replace('"', '""') if any(x in c for x in (sep, '"', "\n", "\r")) else c
                    for c in map(str, cells))


def warnings_list(keys, texts):
    """The kit's warnings ``kit_warnings``: the family's ``warn_<key>`` texts joined by its ``warn_join``."""
    return texts["warn_join"].join(texts["warn_" + key] for key in keys)
