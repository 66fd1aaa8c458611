"""What a task family is: the one small interface the platform contract talks to.

A family module in ``scorer/tasks/`` defines ``FAMILY = SomeFamily()``; the
registry finds it by itself, so adding a family touches nothing else. The
contract calls, in order:

1. ``load_reference(cfg)``: read the gold named by ``cfg.files`` (errors:
   ReferenceDataError). The returned object has ``units`` (every unit id, as
   strings, in file order), ``strata`` (a label per unit, for stratified
   boards), ``usage`` (a Kaggle-style Public/Private/Ignored value per unit, or
   None) and ``notes`` (lines for the organizer only).
2. ``load_submission(files, ref, cfg)``: parse and validate the participant's
   files against *all* units of the reference, whatever the board, so that a
   message never depends on (or reveals) the board split (errors:
   SubmissionError).
3. ``score(ref, sub, units, cfg)``: score the units of one board and return a
   Result: every leaderboard key with a finite value, and report sections.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..config import Option


@dataclass
class Reference:
    """The minimum every family's reference carries; families subclass or attach more."""

    units: np.ndarray
    strata: np.ndarray
    usage: Optional[np.ndarray] = None
    notes: List[str] = field(default_factory=list)


@dataclass
class Result:
    """Scores in leaderboard order, plus the report's sections for this board."""

    scores: Dict[str, float]
    sections: List[Any] = field(default_factory=list)
    summary: str = ""


class TaskFamily:
    """Base class; subclasses set the class attributes and implement the three methods."""

    name = ""
    title = ""
    # slot -> default file name; submission slots hold globs matched in res/.
    default_files: Dict[str, str] = {}
    submission_slots: Sequence[str] = ("submission",)
    # None: every submission slot is required; () : at least one of them.
    required_slots: Optional[Sequence[str]] = None
    options: Dict[str, Option] = {}
    # the file of the starting kit that lists the test items without answers (for the offline check)
    public_inputs = "test_public.csv"

    def leaderboard_keys(self, options) -> List[str]:
        """The scores.txt keys, the default primary key first."""
        raise NotImplementedError

    def load_reference(self, cfg) -> Reference:
        raise NotImplementedError

    def load_submission(self, files, ref, cfg):
        raise NotImplementedError

    def score(self, ref, sub, units, cfg) -> Result:
        raise NotImplementedError

    # -- optional: offline format checks for participants (starting kit) ---------------------
    def public_reference(self, folder, cfg):
        """A Reference built from the public test inputs in ``folder`` (no labels), or None.

        It carries what ``load_submission`` needs to validate a submission's
        format (the units and whatever shapes them, e.g. text lengths) and
        nothing that would reveal an answer. None means the family has no
        offline check.
        """
        return None

    def submission_problems(self, files, ref, cfg, limit=100) -> List[str]:
        """Every problem of the submission as one-line messages; [] when it loads.

        The default asks ``load_submission`` again and again: a problem that
        names a line of a table (``<file> line N``) blanks that line (blank lines
        are skipped and keep the numbering of the others) and the check goes on;
        a problem of the whole file ends the list (after rows were set aside it
        may be their echo, so a note asks for a second run instead). A family
        may override this with a check that finds everything in one pass.
        """
        from ..errors import SubmissionError

        files, found, seen = dict(files), [], set()
        while len(found) < limit:
            try:
                self.load_submission(files, ref, cfg)
                break
            except SubmissionError as exc:
                slot, line = _problem_line(exc.message, files)
                if slot is None or line <= 1 or (slot, line) in seen:
                    # after rows were set aside a whole-file problem may be their echo (a "missing" id)
                    tail = [STOPPED_EARLY] if seen else [exc.message]
                    return [m for _, m in sorted(found)] + tail
                found.append(((list(files).index(slot), line), exc.message))
                seen.add((slot, line))
                files[slot] = _blank_line(files[slot], line)
        return [m for _, m in sorted(found)]  # in file order, whatever order the checks ran in


STOPPED_EARLY = ("(the check set the rows above aside and stopped; fix them and run it again: checks of the "
                 "whole file, such as missing ids, come after them)")


def _problem_line(message, files):
    """(slot, line) of a message that starts with ``<file name> line N``, else (None, 0)."""
    for slot, file in files.items():
        if file is None:
            continue
        head = file.name + " line "
        if message.startswith(head):
            digits = message[len(head):].split(None, 1)[0].rstrip(",:")
            if digits.isdigit():
                return slot, int(digits)
    return None, 0


def _blank_line(file, line):
    """A copy of a submitted table whose ``line`` (1-based) is empty, as UTF-8."""
    from ..discovery import SubmittedFile
    from ..errors import SubmissionError
    from ..textio import decode, normalise_newlines

    lines = normalise_newlines(decode(file.read_bytes(), file.name, SubmissionError)).split("\n")
    if line - 1 < len(lines):
        lines[line - 1] = ""
    data = "\n".join(lines).encode("utf-8")
    return SubmittedFile(file.name, lambda: data)
