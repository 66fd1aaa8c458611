"""Tables that may be comma- or TAB-separated: the separator is judged from the header line.

Result and gold files of the same task circulate in both forms (pandas'
``to_csv`` default and the organisers' TAB files), so both are read; the
header decides, and everything else is the shared table validation.
"""

import numpy as np
import pandas as pd

from ..discovery import SubmittedFile
from ..errors import SubmissionError, clip, where
from ..tabular import FULLWIDTH_SEPARATORS, read_submission_table
from ..textio import decode, normalise_newlines, sniff_separator


def header_separator(text):
    """',' or TAB, whichever the first line holds more of (',' when neither).

    >>> header_separator("SentenceId\\tView\\tOpinion\\n1\\ta,b\\tpos"), header_separator("id,keywords")
    ('\\t', ',')
    """
    return sniff_separator(text.split("\n", 1)[0])


def read_submission(file, columns, fullwidth_check=True):
    """(frame, line, separator) of a submitted table whose separator is ',' or TAB.

    The full-width comma check applies to comma-separated files only (in a TAB
    file a '，' inside a value is just text), and only if ``fullwidth_check``:
    free-text values such as keywords contain '、' and '，' legitimately.
    """
    data = file.read_bytes()
    sep = header_separator(normalise_newlines(decode(data, file.name, SubmissionError)))
    frame, line = read_submission_table(SubmittedFile(file.name, lambda: data), columns, sep=sep,
                                        check_fullwidth=fullwidth_check and sep == ",")
    return frame, line, sep


def fullwidth_ids(ids, line, name, column):
    """Refuse ids holding a full-width separator: the row was split on the wrong comma."""
    for char, label in FULLWIDTH_SEPARATORS.items():
        hit = np.flatnonzero(ids.str.contains(char, regex=False).to_numpy())
        if len(hit):
            raise SubmissionError("%s holds a %s; separate the columns with the ASCII ',' (or a TAB) only."
                                  % (where(name, int(line[hit[0]]), column=column), label))


def known_ids(ids, line, units, name, column, what):
    """Position of each submitted id among the reference ``units``; refuses empty and unknown ids.

    Ids are text; when an unknown id is a known one without its leading zeros,
    the message says so (spreadsheets drop them).
    """
    empty = np.flatnonzero((ids == "").to_numpy())
    if len(empty):
        raise SubmissionError("%s is empty; every row needs the %s of a test item."
                              % (where(name, int(line[empty[0]]), column=column), what))
    code = pd.Index(units).get_indexer(ids)
    unknown = np.flatnonzero(code < 0)
    if len(unknown):
        i = int(unknown[0])
        hint = ""
        stripped = pd.Index(pd.Series(units, dtype=object).astype(str).str.lstrip("0"))
        if ids.iloc[unknown].str.lstrip("0").isin(stripped).any():
            hint = " %ss are text: keep their leading zeros (e.g. 028171, not 28171)." % what
        raise SubmissionError("%s: %s %r is not in the test set (%d row(s) with unknown %ss); use the %ss of "
                              "the test set exactly as given.%s"
                              % (where(name, int(line[i]), column=column), what, clip(ids.iloc[i]), len(unknown),
                                 what, what, hint))
    return code.astype(np.int64)
