"""Kaggle-style metric over the same scoring engine: ``score(solution, submission, row_id_column_name)``.

Kaggle passes every solution column except ``Usage`` and calls the metric once
per subset (Public, then Private), so board A / board B come from the host's
Usage column, not from boards.csv. For the bank task the solution has the
columns <row id>, BIO_anno, class (text optional), the submission <row id>,
BIO_anno, class. Format problems raise ParticipantVisibleError with the same
message score.py prints; anything else is a host error.

Deliberate difference: submission rows whose id is not in the (subset)
solution are ignored, because the host checks row ids against the whole
solution before it calls the metric on a subset.

    >>> import pandas as pd
    >>> sol = pd.DataFrame({"id": ["1"], "BIO_anno": ["B-BANK I-BANK O"], "class": [2]})
    >>> score(sol, sol.copy(), "id")
    1.0
"""
import os
import shutil
import sys
import tempfile

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPORTED = {"bank_comments": ("BIO_anno", "class")}


class ParticipantVisibleError(Exception):
    """Shown to the participant (Kaggle's convention); every other error is shown to the host only."""


class HostVisibleError(Exception):
    pass


def _engine():
    for folder in (HERE, os.path.join(HERE, os.pardir, os.pardir, "scoring_program")):
        if os.path.isfile(os.path.join(folder, "scorer", "__init__.py")):
            folder = os.path.abspath(folder)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            return
    raise HostVisibleError("the scoring engine (scorer/) is not beside metric.py")


def _csv_bytes(frame, row_id, columns):
    out = frame[[row_id] + list(columns)].rename(columns={row_id: "id"})
    return out.astype(str).to_csv(index=False, lineterminator="\n").encode("utf-8")


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          task: str = "bank_comments", metric: str = "score") -> float:
    """The competition's primary score (or ``metric``) of ``submission`` on the rows of ``solution``."""
    _engine()
    from scorer.api import Competition
    from scorer.discovery import SubmittedFile
    from scorer.errors import ScoringError, SubmissionError

    if task not in SUPPORTED:
        raise HostVisibleError("task %r has no Kaggle adapter; supported: %s" % (task, ", ".join(SUPPORTED)))
    columns = SUPPORTED[task]
    missing = [c for c in [row_id_column_name] + list(columns) if c not in submission.columns]
    if missing:
        raise ParticipantVisibleError("the submission has no column %s; its columns must be %s."
                                      % (missing[0], ",".join([row_id_column_name] + list(columns))))
    solution = solution.drop(columns=["Usage"], errors="ignore")
    ids = solution[row_id_column_name].astype(str)
    submission = submission[submission[row_id_column_name].astype(str).isin(set(ids))]
    tmp = tempfile.mkdtemp(prefix="kaggle-metric-")
    try:
        gold = solution.rename(columns={row_id_column_name: "id"})
        gold.astype(str).to_csv(os.path.join(tmp, "gold.csv"), index=False, lineterminator="\n")
        try:
            comp = Competition.from_raw({"task": task, "board": "all"}, tmp)
        except ScoringError as exc:
            raise HostVisibleError(exc.message) from None
        data = _csv_bytes(submission, row_id_column_name, columns)
        try:
            sub = comp.read_files({"submission": SubmittedFile("submission.csv", lambda: data, len(data))})
        except SubmissionError as exc:
            raise ParticipantVisibleError(exc.message) from None
        value = comp.scores(sub, "all")[metric]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return value
