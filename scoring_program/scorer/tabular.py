"""Validation helpers shared by the families whose submissions are delimited tables."""
import csv
import io
import os
import re

import numpy as np
import pandas as pd

from .errors import ReferenceDataError, SubmissionError, clip, where
from .textio import decode_with_codec, normalise_newlines, read_table, sniff_separator, utf8_bytes

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
FULLWIDTH_SEPARATORS = {"\uff0c": "full-width comma '，'", "\u3001": "ideographic comma '、'",
                        "\uff1b": "full-width semicolon '；'"}


def read_submission_table(file, columns, sep=",", check_fullwidth=True, skipinitialspace=True):
    """Decode and parse a submitted table, checking its columns.

    Returns (frame, line) where ``line[i]`` is the file line of row ``i``;
    blank lines are dropped without shifting the line numbers of later rows.
    """
    data = file.read_bytes()
    raw, codec = decode_with_codec(data, file.name, SubmissionError)
    text = normalise_newlines(raw)
    if not text.strip():
        raise SubmissionError("%s is empty; it needs the header line %s and one line per test item."
                              % (file.name, sep.join(columns)))
    if check_fullwidth:
        for char, label in FULLWIDTH_SEPARATORS.items():
            pos = text.find(char)
            if pos >= 0:
                line = text.count("\n", 0, pos) + 1
                raise SubmissionError("%s uses a %s as a separator; separate the columns with the ASCII "
                                      "'%s' only." % (where(file.name, line), label, sep))
    frame = read_table(utf8_bytes(data, raw, codec), file.name, SubmissionError, sep=sep, skip_blank_lines=False,
                       skipinitialspace=skipinitialspace)
    _check_columns(frame, columns, file.name, sep)
    frame = frame.rename(columns={c: canonical for c in frame.columns for canonical in columns
                                  if c.lower() == canonical.lower()})[list(columns)]
    line = physical_lines(text, len(frame), sep, skipinitialspace)
    has_blank_line = _BLANK_LINE.search(text) is not None
    blank = (frame == "").all(axis=1).to_numpy() if has_blank_line else np.zeros(len(frame), bool)
    if blank.any():
        frame = frame.loc[~blank].reset_index(drop=True)
        line = line[~blank]
    if len(frame) == 0:
        raise SubmissionError("%s has a header but no rows; write one line per test item." % file.name)
    return frame, line


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


def _check_columns(frame, columns, name, sep):
    found = list(frame.columns)
    if len(found) == 1 and sep not in found[0]:
        for other, label in (("\t", "TAB"), (";", "';'"), (",", "','"), ("|", "'|'")):
            if other != sep and other in found[0]:
                raise SubmissionError("%s: the header is separated by %s; separate the columns with '%s' "
                                      "(header: %s)." % (where(name, 1), label, "TAB" if sep == "\t" else sep,
                                                         sep.join(columns)))
    lowered = [c.lower() for c in found]
    missing = [c for c in columns if c.lower() not in lowered]
    extra = [c for c in found if c.lower() not in [k.lower() for k in columns]]
    if missing or extra or len(found) != len(columns):
        hint = ""
        if any(c.lower().startswith("unnamed") for c in extra) or "" in found:
            hint = " (an unnamed column usually means the index was written: use index=False)"
        raise SubmissionError("%s: the columns are %s but must be exactly %s%s."
                              % (where(name, 1), clip(",".join(found), 80) or "(none)", ",".join(columns), hint))


def align_ids(ids, line, reference_ids, name, id_column="id", what="id", source="the test set"):
    """Position in ``ids`` of each reference id; refuses duplicated, unknown and missing ids."""
    check_ids(ids, line, reference_ids, name, id_column, what, source)
    return positions_of(ids, reference_ids, name, what, source)


def check_ids(ids, line, reference_ids, name, id_column="id", what="id", source="the test set"):
    """Refuses a duplicated or unknown id, naming its line (row-level problems)."""
    ids = pd.Index(ids)
    dup = ids.duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        first = int(np.flatnonzero(ids == ids[i])[0])
        raise SubmissionError("%s: %s %s appears twice (lines %d and %d); keep one row per %s."
                              % (where(name, int(line[i]), column=id_column), what, clip(ids[i]), line[first],
                                 line[i], what))
    known = ids.isin(pd.Index(reference_ids))
    if not known.all():
        i = int(np.flatnonzero(~known)[0])
        raise SubmissionError("%s: %s %r is not in %s (%d unknown %ss in all); use the %ss of %s "
                              "exactly as given." % (where(name, int(line[i]), column=id_column), what, clip(ids[i]),
                                                     source, int((~known).sum()), what, what, source))


def positions_of(ids, reference_ids, name, what="id", source="the test set"):
    """Position in ``ids`` (unique, all known) of each reference id; refuses missing ones (a file-level problem)."""
    reference = pd.Index(reference_ids)
    position = pd.Index(ids).get_indexer(reference)
    if (position < 0).any():
        missing = reference[position < 0]
        shown = ", ".join(str(m) for m in missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise SubmissionError("%s: %d %s(s) of %s have no row (%s); write one row for every %s."
                              % (name, len(missing), what, source, shown, what))
    return position


def read_reference_bytes(cfg, slot):
    """The bytes of the reference file named by ``files.<slot>`` in config.yaml."""
    try:
        with open(cfg.path(slot), "rb") as fh:
            return fh.read()
    except OSError:
        raise ReferenceDataError("the %s file %s named in config.yaml is not in the reference data."
                                 % (slot, cfg.files[slot]))


def _table(data, name, columns):
    raw, codec = decode_with_codec(data, name, ReferenceDataError)
    header = raw.split("\n", 1)[0]
    frame = read_table(utf8_bytes(data, raw, codec), name, ReferenceDataError, sep=sniff_separator(header))
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise ReferenceDataError("%s has no column %s (columns: %s)." % (name, absent[0], ",".join(frame.columns)))
    return frame


def read_reference_table(cfg, slot, columns):
    """The reference table of ``slot`` as strings, comma- or TAB-separated (the header decides).

    ``columns`` must be present; other columns are kept.
    """
    return _table(read_reference_bytes(cfg, slot), cfg.files[slot], columns)


def read_public_table(folder, name, columns):
    """A public test-input table (no answers) in ``folder``, or None when the folder has none."""
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        return _table(fh.read(), name, columns)


def read_public_units(folder, name, column):
    """The unit ids (stripped) of a public test-input table in ``folder``, or None without one."""
    frame = read_public_table(folder, name, [column])
    return None if frame is None else strip_cells(frame[column]).to_numpy(dtype=object)


def reference_ids(frame, name, column="id"):
    """The stripped id column of a reference table; a repeated id is an organizer error."""
    ids = strip_cells(frame[column])
    dup = ids.duplicated()
    if dup.any():
        raise ReferenceDataError("%s repeats %s %s." % (name, column, ids[dup].iloc[0]))
    return ids


_PADDED = re.compile(r"(?:\A|\x00)\s|\s(?:\x00|\Z)")


def strip_cells(series):
    """``series.str.strip()``, but free when no value has surrounding whitespace (the usual case).

    One join and one regex search in C decide; only a padded column pays the per-value strip.

    >>> strip_cells(pd.Series(["a", " b"])).tolist(), strip_cells(pd.Series(["a", "b"])).tolist()
    (['a', 'b'], ['a', 'b'])
    """
    if not len(series) or not _PADDED.search("\x00".join(series.tolist())):
        return series
    return series.str.strip()
