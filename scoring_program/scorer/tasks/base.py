"""What a task family is: the one small interface the engine talks to.

A family module in ``scorer/tasks/`` defines ``FAMILY = SomeFamily()``; the
registry finds it by itself, so adding a family touches nothing else
(docs/architecture.md). The engine (``scorer.api``) calls:

1. ``load_reference(cfg) -> Reference``: the gold named by ``cfg.files``
   (errors: ReferenceDataError). A Reference holds the *contract* (what a
   submission must match: the test units and their shapes), the answers, a
   stratum per unit (for stratified boards; or a function that gives them), a Kaggle-style usage value per
   unit or None, and notes for the organizer only.
2. ``public_contract(folder, cfg) -> Contract or None``: the same contract
   built from the public test inputs in ``folder`` (the starting kit), without
   a single answer; None when the family has no offline check or the inputs
   are not there.
3. ``parse_submission(files, cfg)`` (optional) and then
   ``read_submission(parsed, contract, cfg, problems)``: read and validate the
   participant's files against *every* unit of the contract, whatever the
   board, so that no message depends on (or reveals) the board split. The
   first step does what needs no reference data (reading the tables, cutting
   and coding their tokens, parsing numbers) and reports nothing but a problem
   that leaves the file unreadable (raised: encoding, header, columns); score.py
   runs it while the reference loads on a second thread. By default it returns
   the files unchanged, and ``read_submission`` does all the work. The second
   step reports every row problem, in its own order: each goes to
   ``problems`` (a ``scorer.problems.Problems``): on a platform the first one
   ends the run, the offline check collects them all; a problem that makes the
   rest unreadable is raised. Returns the submission, or None when problems
   were collected.
4. ``score(reference, submission, mask, cfg) -> Result``: score the units
   where ``mask`` (a boolean array in reference order) is True. The Result
   also names, in ``units``, the per-unit counts behind its keys, in tables
   whose columns are named once (``_per_unit.Schema``); and
   ``unit_scores(group, sums, cfg)`` turns column sums of such counts back
   into those keys, reading them by name through the same schema, so
   intervals and paired tests resample units without re-running the metric
   (``scorer.resampling``).
5. ``unit_answers(reference, submission) -> uint64 array``: a digest of the
   submitted answer of every unit (reference order), to tell identical and
   nearly identical submissions apart (the organizer's rescore).
6. ``take(submission, contract, positions)``: the submission restricted to
   the units at ``positions`` of the contract it was read against. A phase's
   reference data (``public_inputs`` in its config) holds the answers of its
   own board only: the submission is checked against every test unit of the
   public contract, then scored against the board's gold with this
   restriction. ``unit_files`` declares, per reference file, how the
   organizer tools keep a board's units of it.
7. ``advice(submission, contract, cfg) -> [Problem]`` (optional): warnings
   about a valid submission that will score badly (rows missing where that is
   allowed, keywords joined by another separator, every row the same, ...),
   each saying how to fix it. The offline check prints them and score.py shows
   them on the page, after a read without problems, on the whole file against
   every test unit: a warning never changes a score or an exit code, and it
   must be cheap beside the scoring (score.py asks on every run).
"""
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import resampling
from ..bytelevel.grouping import group_keys
from ..config import Option
from ..problems import Message
from ..tables import read_table
from ._per_unit import Schema, column_sums, units_table

UNITS = Message("report.unit.units", "units", "单元")


@dataclass
class Contract:
    """What a submission must match; families add the shapes of their units."""

    # every test unit id, in reference order: a sequence of str (len, [i], iteration, np.asarray); a reference's
    # are tables.UnitIds (compact cells with their index: no Python string per id until one is asked for)
    units: Any

    def mismatch(self, public, positions):
        """Where this (a gold's) contract disagrees with ``public``, the contract of the public test inputs:
        ``(i, what)`` for the first unit ``i`` whose shape differs from that of unit ``positions[i]`` of
        ``public`` (``what`` says how, for the organizer), or None. The ids already match."""
        return None


@dataclass(frozen=True)
class UnitFile:
    """A reference file that holds something of each unit: the organizer tools keep a board's units of it.

    ``form`` is ``csv`` (a table whose column ``key`` names the unit, comma- or TAB-separated; the id is the
    cell stripped; only the ``columns`` the family reads are kept, so that a column filled on some units
    only says nothing of the others) or ``json`` (a list of objects whose ``key`` names the unit;
    ``canonical`` turns its value into the unit's id as the family reads it).
    """

    form: str
    key: str
    columns: Tuple[str, ...] = ()
    canonical: Optional[Callable[[Any], Optional[str]]] = None


@dataclass(frozen=True)
class SubmissionFile:
    """One file of a submission, declared once: the engine reads it by this declaration, and the tools that
    describe or write submissions (the starting kit's texts, a host's adapter) can take it from here.

    ``columns`` are a table's columns in order (none: a JSON file), ``optional`` those it may add after them;
    the header line decides which of ``separators`` separates them; ``fullwidth``: a full-width comma in a
    comma-separated file is refused (keywords hold them legitimately).
    """

    slot: str                              # its key in the config's ``files:``
    pattern: str                           # the default file-name pattern matched in res/
    columns: Tuple[str, ...] = ()
    optional: Tuple[str, ...] = ()
    separators: Tuple[str, ...] = (",",)
    fullwidth: bool = True

    @property
    def header(self):
        """The header line of the required columns, comma-separated (``id,BIO_anno,class``)."""
        return ",".join(self.columns)

    def read(self, file, error):
        """The table of ``file`` (a SubmittedFile) with these columns (``tables.read_table``)."""
        return read_table(file, self.columns, error, separators=self.separators, fullwidth=self.fullwidth,
                          optional=self.optional)


@dataclass
class Reference:
    """The contract, plus what only the organizer has; families subclass it with their answers."""

    contract: Contract
    # the stratum of each unit for the board split, or a function that gives them: only the organizer's split
    # asks for them (``unit_strata``), so a family may spare every scoring run the array
    strata: Any
    usage: Optional[np.ndarray] = None
    notes: List[str] = field(default_factory=list)

    @property
    def units(self):
        return self.contract.units

    def unit_strata(self):
        """The stratum of each unit (reference order), for the stratified board split."""
        return self.strata() if callable(self.strata) else self.strata


@dataclass
class Units:
    """The per-unit counts behind some leaderboard keys, one row per unit of the board (reference order).

    The table's columns are named once, in the group's ``schema`` (``_per_unit.Schema``), and declared by those
    names (``columns``: name -> Each, Ones, Tally or TallyAt). Summing the rows of any sample of units and
    passing the sums to ``family.unit_scores(name, sums, cfg)``, which reads them through the same schema,
    gives every key of ``keys`` on that sample; the Result's own values are that formula of ``sums()``, the
    sums of every row (``TaskFamily.reduce``), so a board's score and its interval cannot disagree. ``make``
    builds the rows when asked (most runs resample one group only).

    ``code`` (optional, an integer per unit) declares that units with equal codes have equal rows (an item's
    row of the label keys is fixed by its (gold, predicted) pair): ``groups`` then builds one row per code
    instead of the whole table. The declaration is a promise of the family, checked by its tests against
    ``resampling.distinct_rows`` of ``make()``.
    """

    name: str
    keys: Tuple[str, ...]
    schema: Schema
    columns: Dict[str, Any]            # every name of the schema -> its column declaration
    n: int                             # units of the board: the table's rows
    code: Optional[np.ndarray] = None  # equal codes, equal rows (None: nothing declared)

    def __post_init__(self):
        self.schema.ordered(self.columns)   # a column missing, unnamed or of another width fails here, at once

    @property
    def _ordered(self):
        return self.schema.ordered(self.columns)

    def named(self, sums):
        """``sums`` (of this table's columns, any leading shape) read by the schema's names."""
        return self.schema.read(sums)

    def sums(self) -> np.ndarray:
        """The column sums of the whole table, from the columns' declarations (no row is built)."""
        return column_sums(self._ordered)

    def make(self) -> np.ndarray:
        """The (units, columns) table."""
        return units_table(self._ordered, self.n)

    def groups(self) -> resampling.Groups:
        """The table's groups of equal rows, numbered in order of first appearance: what
        ``resampling.distinct_rows(self.make())`` gives, without building every row when ``code`` is declared.

        The units are grouped by code (``grouping.group_keys``, in order of first appearance) and a row is built
        for each group's first unit only; groups of different codes whose rows are equal after all are then
        merged (``distinct_rows`` of those few rows), so the groups and their order are those of the table's
        rows whatever codes tell equal rows apart.
        """
        if self.code is None:
            return resampling.distinct_rows(self.make())
        by_code, first = group_keys(np.asarray(self.code, dtype=np.int64), ordered=True)
        merged = resampling.distinct_rows(units_table(self._ordered, self.n, units=first))
        inverse = merged.inverse[by_code]
        return resampling.Groups(merged.rows, np.bincount(inverse, minlength=len(merged.rows)).astype(np.int64),
                                 inverse)


@dataclass
class Result:
    """Scores in leaderboard order, plus the report's sections for this board."""

    scores: Dict[str, float]
    # the report's sections, or a function that builds them when the page is written (score.py builds them
    # while the primary score's interval is drawn on a second thread: worth it where they cost time)
    sections: Any = field(default_factory=list)
    summary: Any = ""   # a string, or a Problem written in the competition's language
    units: List[Units] = field(default_factory=list)

    def report_sections(self):
        """The report's sections (built now if the family gave a function)."""
        if callable(self.sections):
            self.sections = self.sections()
        return self.sections

    def units_of(self, key):
        """The Units group that holds ``key``, or None (a key that is no sum over units, e.g. macro AP)."""
        for group in self.units:
            if key in group.keys:
                return group
        return None


class TaskFamily:
    """Base class; subclasses set the class attributes and implement the methods."""

    name = ""
    title = ""   # a Message (its text in each language) or a plain string
    # reference slot -> default file name
    reference_files: Dict[str, str] = {}
    # the files of a submission: slot, default pattern (a glob matched in res/), columns, separators
    submission_files: Tuple[SubmissionFile, ...] = (SubmissionFile("submission", "*.csv"),)
    # None: every submission slot is required; () : at least one of them.
    required_slots: Optional[Sequence[str]] = None
    options: Dict[str, Option] = {}
    # the file of the starting kit that lists the test items without answers (for the offline check)
    public_inputs = "test_public.csv"
    # what a unit of the board is, for the page ("documents", "sentences", ...)
    unit_noun: Message = UNITS
    # leaderboard keys where a smaller value is better (the others: larger is better)
    lower_is_better: Sequence[str] = ()
    # score key -> Message: what the page calls every key the family writes, where the competition's
    # ``columns`` give no label; a key may hold ``{k}``, a whole number (map_at_{k})
    key_labels: Dict[str, Message] = {}
    # reference slot -> UnitFile: the files a phase's reference data keeps the scored board's units of; every
    # other reference file goes whole to every phase, so it must hold no answer (a list of class names)
    unit_files: Dict[str, UnitFile] = {}

    @property
    def submission_slots(self) -> Tuple[str, ...]:
        return tuple(f.slot for f in self.submission_files)

    @property
    def default_files(self) -> Dict[str, str]:
        """Slot -> default file name (reference files) or pattern (submission files)."""
        return dict(self.reference_files, **{f.slot: f.pattern for f in self.submission_files})

    def submission_file(self, slot="submission") -> SubmissionFile:
        return next(f for f in self.submission_files if f.slot == slot)

    def leaderboard_keys(self, options) -> List[str]:
        """The scores.txt keys, the default primary key first."""
        raise NotImplementedError

    def key_label(self, key, options=None):
        """The family's label of score ``key`` (a Problem, written in the page's language), or None; ``options``
        (the config's) let a family name a key's parameter (``Top-3 accuracy``).

        >>> family = TaskFamily()
        >>> family.key_labels = {"f1": Message("doc.f1", "F1", "F1"), "map_at_{k}": Message("doc.map", "MAP@{k}", "MAP@{k}")}
        >>> family.key_label("map_at_10").text("en"), family.key_label("f1").text("zh"), family.key_label("map_at_x")
        ('MAP@10', 'F1', None)
        """
        if key in self.key_labels:
            return self.key_labels[key]()
        for pattern, message in self.key_labels.items():
            head, k, tail = pattern.partition("{k}")
            if k and key.startswith(head) and key.endswith(tail) and key[len(head):len(key) - len(tail)].isdigit():
                return message(k=int(key[len(head):len(key) - len(tail)]))
        return None

    def load_reference(self, cfg) -> Reference:
        raise NotImplementedError

    def public_contract(self, folder, cfg) -> Optional[Contract]:
        return None

    def parse_submission(self, files, cfg):
        """What ``read_submission`` gets: the work on ``files`` (slot -> SubmittedFile) that needs no reference.

        Only a problem that leaves a file unreadable may be raised here; row problems are reported by
        ``read_submission`` in its own order, so that the first problem of a file is the same either way.
        """
        return files

    def read_submission(self, parsed, contract, cfg, problems):
        raise NotImplementedError

    def score(self, reference, submission, mask, cfg) -> Result:
        raise NotImplementedError

    def take(self, submission, contract, positions):
        """``submission`` (read against ``contract``) restricted to the units at ``positions`` of the contract,
        in that order: what ``score`` gets against a gold of those units only."""
        raise NotImplementedError("%s cannot score a phase's reference data (no take)" % self.name)

    def unit_scores(self, group, sums, cfg) -> Dict[str, np.ndarray]:
        """The keys of Units group ``group`` from column sums of its counts (``sums``: any leading shape): the
        one formula of each of those keys, for a board (``reduce``) and for its resamples (``statistic``)."""
        raise NotImplementedError

    def reduce(self, units, cfg):
        """(every key of the Units groups ``units`` as a float, {group name: its column sums}): each key is
        ``unit_scores`` of the sums of its group's whole table."""
        scores, sums = {}, {}
        for group in units:
            sums[group.name] = group.sums()
            found = self.unit_scores(group.name, sums[group.name], cfg)
            scores.update((key, float(found[key])) for key in group.keys)
        return scores, sums

    def saved_table(self, group, table):
        """A per-unit table of Units group ``group`` that an earlier run saved (the parameter-free Ladder's best
        counts, kept between runs), as this program builds that group's table: a family whose groups changed
        reads an older layout here; the same table by default."""
        return table

    def statistic(self, group, key, cfg):
        """The function from column sums of Units group ``group`` (any leading shape) to ``key``: what
        intervals, paired tests and the Ladder compute on resampled units."""
        return lambda sums: self.unit_scores(group, sums, cfg)[key]

    def unit_answers(self, reference, submission) -> np.ndarray:
        """A uint64 digest of the submitted answer of each unit, in reference order."""
        raise NotImplementedError

    def advice(self, submission, contract, cfg) -> List[Any]:
        """Warnings (Problems) about a valid ``submission`` that will score badly; none by default."""
        return []


def kept_codes(positions, n_units):
    """The code each of ``n_units`` units gets when only the units at ``positions`` are kept, in that order;
    -1 for a unit left out (``take`` re-codes a submission's unit codes with it).

    >>> kept_codes(np.array([2, 0]), 4).tolist()
    [1, -1, 0, -1]
    """
    codes = np.full(n_units, -1, dtype=np.int64)
    codes[np.asarray(positions, dtype=np.int64)] = np.arange(len(positions))
    return codes


def segment_order(counts, order):
    """Indices that gather the segments ``order`` of a concatenation of segments of ``counts`` entries, in that
    order (the tags of some comments, the utterances of some conversations).

    >>> segment_order(np.array([2, 1, 3]), np.array([2, 0, 1])).tolist()
    [3, 4, 5, 0, 1, 2]
    """
    counts = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(counts) - counts
    taken = counts[order]
    return (np.arange(int(taken.sum())) - np.repeat(np.cumsum(taken) - taken, taken)
            + np.repeat(starts[order], taken))
