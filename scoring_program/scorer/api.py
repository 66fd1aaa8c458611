"""The one way into the engine: open a competition, read a submission, score a board.

score.py, the starting kit's offline check, the EvalAI and Kaggle adapters,
the organizer tools, the benchmarks and the tests all go through here, so the
sequence config -> reference -> boards -> submission -> scores exists once.

- ``Task``: a configuration and its family, and what a submission must match
  (its *contract*: the test units and their shapes). Built from the public
  test inputs (``Task.public``) it can check a submission offline, without a
  single answer.
- ``Competition``: a Task built from the reference data, which also holds the
  answers and the boards, and scores.

A phase's reference data (what the organizer tools upload; ``public_inputs``
in its config) holds the public test inputs and the answers of its own board
only, none at all on a sealed board: the submission is checked against every
test unit of the public inputs, then scored against the board's gold
(``family.take`` keeps its answers of the gold's units).

Example (the shipped bank competition's board-A reference folder)::

    comp = Competition.open("input/ref")
    submission = comp.read_submission("input/res")     # SubmissionError if it is wrong
    comp.scores(submission, "A")                       # {"score": 0.64, "ner_f1": 0.81, ...}

``Competition.open_with_submission("input/ref", "input/res")`` gives the same
two, faster: the reference loads on a second thread while the submission's
own work (``family.parse_submission``: reading, cutting, coding) runs.
"""
import contextlib
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from . import background, digests, textio
from .boards import Boards, load_boards
from .config import Config, load_config, parse_config, task_only
from .discovery import SubmittedFile, find_files
from .errors import PhaseClosed, ReferenceDataError, SubmissionError
from .limits import check_size, reference_bytes, submission_cap
from .outputs import ordered_scores
from .problems import Message, Problems
from .tables import unit_cells, unit_index
from .tasks import families
from .tasks.base import Result, TaskFamily

# input (reference and submission files) up to which the reference loads while the submission is parsed: both
# sides' tables are then in memory at once (at a million rows, a tenth to a quarter more peak memory); above, a
# worker's memory matters more than the time
OVERLAP_BYTES = 2 ** 30


@dataclass
class Task:
    cfg: Config
    family: TaskFamily
    contract: object                   # what a submission must match (units and their shapes)
    size_cap: Optional[int] = None     # bytes a submission may hold; None: not checked (offline)

    @classmethod
    def public(cls, public_dir, raw_config):
        """The task of a board config, its contract built from the public test inputs in ``public_dir``.

        Raises ConfigError for a bad config and NoOfflineCheck when the family
        cannot check offline or the public inputs are not there.
        """
        registry = families()
        cfg = parse_config(task_only(raw_config), registry, ref_dir=public_dir)
        family = registry[cfg.task]
        contract = family.public_contract(public_dir, cfg)
        if contract is None:
            raise NoOfflineCheck(cfg)
        return cls(cfg, family, contract)

    @property
    def slots(self):
        """Submission slot -> its file-name pattern."""
        return {s: self.cfg.files[s] for s in self.family.submission_slots}

    def submitted_files(self, res_dir):
        """The files of the submission in ``res_dir``, one per slot (None where an optional one is absent)."""
        files = find_files(res_dir, self.slots, self.family.required_slots)
        return files if self.size_cap is None else check_size(files, self.size_cap)

    def read_files(self, files: Dict[str, Optional[SubmittedFile]], advise=False):
        """The submission made of ``files`` (slot -> SubmittedFile); SubmissionError at its first problem.
        ``advise``: a Competition also asks the family for its warnings (``Competition.read_parsed``)."""
        with _guess_named():
            parsed = self.family.parse_submission(files, self.cfg)
            return self.read_parsed(parsed, advise) if advise else self.read_parsed(parsed)

    def read_parsed(self, parsed):
        """The submission from what ``family.parse_submission`` made of its files; SubmissionError at its first
        problem."""
        return self.family.read_submission(parsed, self.contract, self.cfg, Problems(SubmissionError))

    def read_submission(self, res_dir, advise=False):
        return self.read_files(self.submitted_files(res_dir), advise)

    def problems(self, res_dir):
        """Every problem of the submission in ``res_dir`` (a list of Problems, in file and line order)."""
        return self.collect(res_dir)[1]

    def collect(self, res_dir):
        """(the submission or None, every problem in file and line order, notes on them): one read, nothing
        stops it early.

        The submission is there only when there is no problem (the offline check then asks for advice). The
        notes, only beside problems, name the codec guessed for a file that is not UTF-8.
        """
        files = self.submitted_files(res_dir)
        problems = Problems(SubmissionError, collect=True)
        submission = None
        with textio.guesses() as guessed:
            try:
                parsed = self.family.parse_submission(files, self.cfg)
                submission = self.family.read_submission(parsed, self.contract, self.cfg, problems)
            except SubmissionError as exc:  # a problem that leaves the rest unreadable ends the list
                problems.found.append(exc.problem)
        found = problems.sorted([f.name for f in files.values() if f is not None])
        # the codec guessed for a file may be why its values are wrong: said once, after them
        notes = [textio.READ_AS_NOTE(file=name, codec=codec) for name, codec in guessed] if found else []
        return (None if found else submission), found, notes


@contextlib.contextmanager
def _guess_named():
    """A submission problem met after a file of the submission was read with a guessed codec names that codec:
    a Latin-1 file read as GB18030 shows its values garbled, and the participant should know why."""
    with textio.guesses() as guessed:
        try:
            yield
        except SubmissionError as exc:
            if not guessed or exc.problem.key.startswith("text."):
                raise
            name, codec = guessed[0]
            raise type(exc)(textio.READ_AS(problem=exc.problem, file=name, codec=codec)) from None


@dataclass
class Competition(Task):
    reference: object = None           # the gold (None on a sealed board of a phase's reference data)
    boards: Optional[Boards] = None
    positions: Optional[np.ndarray] = None   # the contract position of each gold unit (a phase's reference data)
    # the family's warnings about the last submission read with ``advise`` (the kit's, about the whole file
    # against every test unit: nothing of the board split or of an answer), for the page
    warnings: List[Any] = field(default_factory=list)
    advice_failure: Optional[str] = None   # the traceback of a family's advice that failed (for the organizer)

    @classmethod
    def open(cls, ref_dir):
        """The competition whose config.yaml and reference files are in ``ref_dir``."""
        return cls.of(load_config(ref_dir, families()))

    @classmethod
    def from_raw(cls, raw, ref_dir):
        """The competition of a config given as a mapping, its reference files in ``ref_dir``."""
        return cls.of(parse_config(raw, families(), ref_dir=ref_dir))

    @classmethod
    def of(cls, cfg):
        refuse_if_closed(cfg)
        family = families()[cfg.task]
        cap = _size_cap(cfg, family)
        if not cfg.one_board:
            reference = family.load_reference(cfg)
            return cls(cfg, family, reference.contract, cap, reference, load_boards(cfg, reference))
        contract = family.public_contract(cfg.public_dir(), cfg)
        if contract is None:
            raise ReferenceDataError(NO_PUBLIC_INPUTS(folder=cfg.public_inputs, name=family.public_inputs))
        if cfg.report == "sealed":  # nothing is scored while the phase runs: its answers are not even there
            return cls(cfg, family, contract, cap)
        if cfg.answers_dir is not None and not os.path.isdir(cfg.answers_dir):
            raise ReferenceDataError(NO_ANSWERS_DIR(folder=cfg.answers_dir))
        reference = family.load_reference(cfg)
        check_board_units(reference.units, cfg, family)
        positions = public_positions(reference.contract, contract, cfg, family)
        boards = Boards(reference.units, np.full(len(reference.units), "A" if cfg.board == "all" else cfg.board))
        return cls(cfg, family, contract, cap, reference, boards, positions)

    def read_parsed(self, parsed, advise=False):
        """The submission, checked against every unit of the contract, as ``score`` takes it (the gold's units).

        ``advise``: also ask the family for its warnings about the file (``warnings``), as the kit's check does:
        on the whole file against every test unit, before the board's units are taken."""
        submission = super().read_parsed(parsed)
        self.warnings, self.advice_failure = [], None
        if advise:
            try:
                self.warnings = self.family.advice(submission, self.contract, self.cfg)
            except Exception:  # noqa: BLE001  a warning never changes what a platform does, its bug neither
                import traceback  # only on a failure
                self.advice_failure = traceback.format_exc()
        if self.positions is None:
            return submission
        return self.family.take(submission, self.contract, self.positions)

    @classmethod
    def open_with_submission(cls, ref_dir, res_dir, advise=False):
        """(``open(ref_dir)``, its ``read_submission(res_dir)``), the reference loading on a second thread.

        The submission's files are found and size-checked, then parsed (``family.parse_submission``: no
        reference needed) while the reference and the boards load; then the submission is checked against the
        contract. The errors are those of the two calls in turn: a broken reference is reported before any
        problem of the submission, and a submission problem only with a sound reference.

        Both sides' tables are then in memory at once, about the input's size more than one after the other:
        above ``OVERLAP_BYTES`` of input the reference is loaded first, as by the two calls.
        """
        cfg = load_config(ref_dir, families())
        refuse_if_closed(cfg)   # before the submission is even looked at
        family = families()[cfg.task]
        task = Task(cfg, family, None, _size_cap(cfg, family))
        try:
            files = task.submitted_files(res_dir)
        except BaseException:
            cls.of(cfg)  # the reference's own error comes first, as when it is read first
            raise
        size = reference_bytes(cfg, family.submission_slots) + sum(f.size for f in files.values() if f is not None)
        loading = (background.start if size <= OVERLAP_BYTES else background.now)(cls.of, cfg)
        with _guess_named():
            try:
                parsed = family.parse_submission(files, cfg)
            except BaseException:
                loading.result()  # the reference's own error comes first
                raise
            comp = loading.result()
            return comp, comp.read_parsed(parsed, advise)

    def score(self, submission, board=None) -> Result:
        """The Result of ``submission`` on ``board`` (default: the config's board)."""
        board = board or self.cfg.board
        if self.reference is None:
            raise ReferenceDataError(NO_ANSWERS(board=self.cfg.board))
        if self.cfg.one_board and board != self.cfg.board:
            raise ReferenceDataError(ONE_BOARD(board=self.cfg.board, asked=board))
        return self.family.score(self.reference, submission, self.boards.mask(board), self.cfg)

    def scores(self, submission, board=None):
        """The leaderboard values on ``board`` as plain floats, the primary key first."""
        return ordered_scores(self.score(submission, board).scores, self.cfg.primary_key)


class NoOfflineCheck(Exception):
    """The family has no offline check, or the public test inputs it needs are missing."""

    def __init__(self, cfg):
        super().__init__(cfg.task)
        self.cfg = cfg


NO_PUBLIC_INPUTS = Message("reference.no_public_inputs", "config.yaml names public_inputs {folder!r}, but that folder "
                           "has no {name} (the public test inputs, as the starting kit has them).", None)
NO_ANSWERS_DIR = Message("reference.no_answers_dir", "config.yaml names answers_dir {folder!r}, which is not a "
                         "folder here: the answers are in the competition's scoring image (python3 -m organizer "
                         "image), so the phase must run in that image.", None)
NO_ANSWERS = Message("reference.sealed_no_answers", "board {board} is sealed: its reference data holds no answers to "
                     "score (reveal it with python3 -m organizer reveal).", None)
ONE_BOARD = Message("reference.one_board", "this reference data holds the answers of board {board} only, so board "
                    "{asked} cannot be scored with it.", None)
NOT_PUBLIC = Message("reference.not_public", "{file}: {n} unit(s) of the gold are not in the public test inputs "
                     "{public} (first: {first}); the gold and the starting kit must list the same test items.", None)
DIFFERENT_SHAPE = Message("reference.public_shape", "{file}: unit {unit} differs from the public test inputs {public}: "
                          "{what}; the gold and the starting kit must describe the same test items.", None)


CLOSED = Message("run.closed", "board {board}'s phase closed on {at} and its final ranking is fixed, so no submission "
                 "is scored any more (this one was not read); the final ranking is on the leaderboard.",
                 "榜单 {board} 的阶段已于 {at} 结束，最终排名已确定，不再为任何提交评分（本次提交未被读取）；最终排名见排行榜。")


def refuse_if_closed(cfg):
    """A closed phase (``report: closed``, written by the organizer's reveal once the final ranking is fixed)
    scores nothing: a late submission, or a re-run of any, fails with one line and writes no score."""
    if cfg.report == "closed":
        at = cfg.closed_at[:16].replace("T", " ") + " UTC"
        raise PhaseClosed(CLOSED(board=cfg.board, at=at))


BOARD_UNITS = Message("reference.board_units", "{file} holds {found} unit(s) of board {board}, {how} config.yaml's "
                      "board_units says: {count} unit(s), their ids' SHA-256 {digest}; the gold is not the one the "
                      "organizer tools made for this phase (rows lost, added or changed): make the phase's reference "
                      "data again (python3 -m organizer bundle).", None)


def check_board_units(units, cfg, family):
    """A phase's gold holds exactly the units its config names (``board_units``): a gold that lost rows, or holds
    only its header, is refused instead of scored on what is left. Their order does not count."""
    if cfg.board_units is None:
        return
    count, digest = cfg.board_units
    found, found_digest = digests.id_set(units)
    if (found, found_digest) != (count, digest):
        where = next(iter(family.unit_files), None)
        raise ReferenceDataError(BOARD_UNITS(file=cfg.files.get(where, "the gold") if where else "the gold",
                                             found=found, board=cfg.board, count=count, digest=digest[:12] + "...",
                                             how="not what" if found == count else "not the number"))


def public_positions(gold, public, cfg, family, public_name=None):
    """The position in the public contract of each unit of the gold's contract; every unit must be there alike."""
    positions = unit_index(public.units).get_indexer(unit_cells(gold.units))
    where = next(iter(family.unit_files), None)
    file = cfg.files.get(where, "the gold") if where else "the gold"
    public_name = public_name or "%s/%s" % (cfg.public_inputs, family.public_inputs)
    absent = np.flatnonzero(positions < 0)
    if len(absent):
        raise ReferenceDataError(NOT_PUBLIC(file=file, n=len(absent), public=public_name,
                                            first=gold.units[int(absent[0])]))
    found = gold.mismatch(public, positions)
    if found is not None:
        i, what = found
        raise ReferenceDataError(DIFFERENT_SHAPE(file=file, unit=gold.units[int(i)], public=public_name, what=what))
    return positions.astype(np.int64)


def _size_cap(cfg, family):
    return submission_cap(cfg.max_submission_mb, reference_bytes(cfg, family.submission_slots))


def reference_dir(input_dir):
    return os.path.join(input_dir, "ref")


def submission_dir(input_dir):
    return os.path.join(input_dir, "res")
