"""Kaggle-style metric over the same scoring engine as score.py, for every task family.

    score(solution, submission, row_id_column_name, task="", metric="", options=None, labels="",
          language="") -> float

``python3 -m organizer kaggle COMPETITION_DIR OUT_DIR`` writes this file with the competition's parameters
(``COMPETITION`` below: its task, primary key, options, class names and language), which are then the defaults
of ``score``; without them, ``task`` must be given (the host's own call says which family).

Kaggle's metric template says that every solution column but ``Usage`` reaches
the metric, that extra arguments are allowed after the first three (each with a
type annotation), and that the metric returns one finite float; its utility
script ``kaggle_metric_utilities.safe_call_score`` shows a participant the text
of an exception whose class is named ``ParticipantVisibleError`` and the host
only one named ``HostVisibleError`` (any other one is shown to participants when
the solution is all numbers and the text has no digit). So every failure here
is one of those two classes.

The adapter writes the two DataFrames into the family's files (one row per row
id; the row id column becomes the family's id column) and scores them with
``scorer.public`` (``Competition.from_raw``, ``read_files``, ``scores``), exactly
as score.py reads those files, on every row of the solution it is given: the
Public rows score board A, the Private rows board B.

| task | solution columns (besides the row id) | submission columns (besides the row id) |
|---|---|---|
| bank_comments | ``BIO_anno``, ``class`` (``text`` optional) | exactly ``BIO_anno``, ``class`` |
| keywords | ``keywords`` (joined by ``keyword_separator``) | exactly ``keywords`` |
| multilabel | ``labels`` (``grades`` optional); the class names in ``labels=`` | ``labels`` (``scores`` optional) |
| regression | ``value`` | exactly ``value`` |
| classification | ``label``; the class names in ``labels=`` | ``label``, or one probability column per class |
| view_sentiment | ``views``: JSON list of ``[View, Opinion]`` pairs | exactly ``views``, the same JSON |
| emotion_cause | ``conversation`` (the JSON utterance list), ``subtask1`` and/or ``subtask2`` (JSON pair lists) | ``subtask1`` and/or ``subtask2`` (JSON pair lists) |
| qa | ``answers``: JSON list of the gold answer texts (``[]``: unanswerable) | exactly ``answer`` (``na_prob`` too with no-answer probabilities) |
| generation | ``reference`` | exactly ``text`` |

An empty ``views``, ``subtask1`` or ``subtask2`` cell means no pair. A format
problem raises ParticipantVisibleError with score.py's one line, its place
written as ``submission.csv line N (id X), column C`` (N counts the header as
line 1 and one line per row, in the order the rows were passed); a problem of
the solution, the options or the engine raises HostVisibleError.

Deliberate difference from score.py: submission rows whose id is not in the
solution passed are ignored, so that a whole submission can be scored against
one subset of the solution.

    >>> import pandas as pd
    >>> sol = pd.DataFrame({"id": ["1"], "BIO_anno": ["B-BANK I-BANK O"], "class": [2]})
    >>> score(sol, sol.copy(), "id", task="bank_comments")
    1.0
"""
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from typing import Dict, Optional, Union

import numpy as np
import pandas as pd

# a notebook cell has no __file__: then the engine is looked for in the working folder
HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
USAGE = "Usage"
# -- competition: written by python3 -m organizer kaggle; the defaults of score()'s parameters --
COMPETITION = {}
# -- end of competition --
# arguments of engine messages that hold a line number of the file the message is about
LINE_ARGS = ("first", "again")


class ParticipantVisibleError(Exception):
    """Shown to the participant (Kaggle's convention); every other error is shown to the host only."""


class HostVisibleError(Exception):
    """Shown to the host only: a problem of the solution, the metric's arguments or the engine."""


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          task: str = "", metric: str = "", options: Optional[Union[dict, str]] = None,
          labels: str = "", language: str = "") -> float:
    """The primary score (or the leaderboard key ``metric``) of ``submission`` on the rows of ``solution``.

    ``task``: the family; ``options``: the family's options (a mapping, or its JSON text), as under ``options:`` in
    config.yaml; ``labels``: multilabel's or classification's class names, separated by white space (its
    labels.txt); ``language``: en or zh. A parameter not given is the competition's (``COMPETITION``).
    """
    given = dict(task=task, metric=metric, options=options, labels=labels, language=language)
    params = {k: v if v not in ("", None) else COMPETITION.get(k, v) for k, v in given.items()}
    try:
        return _score(solution, submission, row_id_column_name, params["task"], params["metric"],
                      params["options"], params["labels"], params["language"] or "en")
    except (ParticipantVisibleError, HostVisibleError):
        raise
    except Exception as exc:  # a bug of ours, or a solution the checks missed: never shown to participants
        raise HostVisibleError("internal error (%s): %s\n%s" % (type(exc).__name__, exc, traceback.format_exc())) \
            from None


# -- the engine ----------------------------------------------------------------------------------------
def _engine():
    """Put the engine copied beside this file (``organizer kaggle``) or the project's one on the path; an engine
    already importable (a folder the notebook put on sys.path) is used as it is."""
    for folder in (HERE, os.path.join(HERE, os.pardir, os.pardir, "scoring_program")):
        if os.path.isfile(os.path.join(folder, "scorer", "public.py")):
            folder = os.path.abspath(folder)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            return
    try:
        import scorer.public  # noqa: F401
    except ImportError:
        raise HostVisibleError("the scoring engine (scorer/) is neither beside metric.py nor on sys.path") from None


def _messages():
    """The adapter's participant messages, declared once (the engine's Message registry refuses a key twice)."""
    from scorer.public import MESSAGES, Message

    if "kaggle.no_row_id" not in MESSAGES:
        Message("kaggle.no_row_id", "the submission has no column {column}; give every row its {column}.",
                "提交没有 {column} 列；请为每一行给出 {column}。")
        Message("kaggle.columns", "{where}: the submission's columns must be {columns}; found {found}.",
                "{where}：提交的列必须是 {columns}；实际为 {found}。")
        Message("kaggle.not_json", "{where}: {value} is not valid JSON ({reason}); write {example}, or leave the "
                "cell empty.", "{where}：{value} 不是合法的 JSON（{reason}）；请写成 {example}，或留空。")
        Message("kaggle.repeated_column", "the submission has the column {column} twice; give each column once.",
                "提交中 {column} 列出现了两次；每列只能出现一次。")
        Message("kaggle.surrogate", "{where}: {value} holds half of a character (a lone surrogate), which no text "
                "can hold; write the character whole, or remove it.",
                "{where}：{value} 含有半个字符（孤立的代理项），文本中不能有这样的字符；请写出完整的字符，或删除它。")
        Message("kaggle.not_pairs", "{where}: {value} is not a JSON list of [View, Opinion] pairs of strings; "
                "write {example}, or leave the cell empty.",
                "{where}：{value} 不是由 [View, Opinion] 字符串对组成的 JSON 列表；请写成 {example}，或留空。")
    return MESSAGES


# -- DataFrame cells to text -------------------------------------------------------------------------
def _texts(column):
    """The cells of a column as the text a CSV file holds: a missing cell is empty, 2.0 read as a float is 2.

    >>> _texts(pd.Series([1.0, float("nan"), 0.25])).tolist(), _texts(pd.Series(["a", None])).tolist()
    (['1', '', '0.25'], ['a', ''])
    """
    if pd.api.types.is_float_dtype(column):
        values = column.to_numpy(dtype=float)
        out = column.astype(str).to_numpy(dtype=object)
        integral = np.isfinite(values) & (values == np.round(values)) & (np.abs(values) < 2 ** 53)
        out[integral] = values[integral].astype(np.int64).astype(str)
        out[np.isnan(values)] = ""
        return out
    missing = column.isna().to_numpy()
    out = column.astype(str).to_numpy(dtype=object)
    out[missing] = ""
    return out


def _table(data, name):
    """A table's cells as the engine reads them (comma- or TAB-separated by its header), as a DataFrame of text."""
    from scorer.public import table_of

    table = table_of(data, name)
    return pd.DataFrame({c: table.cells(c).to_objects() for c in table.columns}, columns=table.columns)


def _csv(columns, data):
    """CSV bytes (header first, minimal quoting, LF) of ``{column: array of text}``."""
    frame = pd.DataFrame({c: data[c] for c in columns}, columns=list(columns))
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def _row_starts(data, columns):
    """The generated file's line where each row starts (header line 1; a quoted line break spans lines)."""
    breaks = np.zeros(len(data[columns[0]]), dtype=np.int64)
    for c in columns:
        breaks += pd.Series(data[c], dtype=object).str.count("\n").to_numpy(dtype=np.int64)
    return 2 + np.concatenate([[0], np.cumsum(1 + breaks)[:-1]]).astype(np.int64)


@dataclass
class Shown:
    """How a generated submission file is named to the participant: its name, rows and columns."""

    name: str
    starts: Optional[np.ndarray] = None      # generated line where each generated row starts
    lines: Optional[np.ndarray] = None       # the participant's line of each generated row
    columns: Dict[str, str] = field(default_factory=dict)

    def line(self, generated):
        if self.starts is None or generated is None or not len(self.starts):
            return None
        row = int(np.searchsorted(self.starts, int(generated), side="right")) - 1
        return int(self.lines[row]) if row >= 0 else int(generated)   # before the rows: the header


@dataclass
class Upload:
    """The submission as the engine's files: slot -> (file name, bytes), and how each file is shown."""

    files: Dict[str, tuple] = field(default_factory=dict)
    shown: Dict[str, Shown] = field(default_factory=dict)     # generated file name -> how it is shown
    aliases: Dict[str, str] = field(default_factory=dict)     # other names a message may quote -> shown name


# -- the families' layouts ---------------------------------------------------------------------------
class Layout:
    """How one family's solution and submission DataFrames become its reference and submission files, and back
    (``solution``, ``sample``: what ``python3 -m organizer kaggle`` writes for a competition)."""

    id_column = "id"
    names = {}   # reference file -> how the host's message names it

    def solution(self, reference):
        """(the solution DataFrame, its rows' units) of a competition's reference files ``{name: bytes}`` (every
        unit, the board split aside): what ``reference`` reads back into the same files' answers."""
        raise NotImplementedError

    def sample(self, files, units):
        """The submission DataFrame of a starting kit's sample submission ``{file name: bytes}`` (``units``: the
        test units, in the solution's order)."""
        raise NotImplementedError

    def reference(self, solution, ids, labels):
        """{file name: bytes} of the reference folder (HostVisibleError on a broken solution)."""
        raise NotImplementedError

    def upload(self, frame, ids, lines, row_id, cfg, problem):
        """The Upload of the submission rows kept (``frame``: their columns but the row id; ``ids``: their row
        ids; ``lines``: their lines); ``problem(message_key, **place_and_args)`` raises."""
        raise NotImplementedError


class TableLayout(Layout):
    """A family whose reference and submission are one table each: the DataFrame's columns, as they are. The
    family's engine says which columns its gold needs (a solution without one is the host's error, in its words)."""

    def __init__(self, gold="gold.csv", id_column="id", extra=None, slot="submission"):
        self.gold, self.id_column, self.slot = gold, id_column, slot
        self.extra = extra   # (file slot, how labels= becomes that file's bytes), or None
        self.names = {gold: "the solution"}

    def solution(self, reference):
        frame = _table(reference[self.gold], self.gold)
        return frame, [unit.strip() for unit in frame[self.id_column]]

    def sample(self, files, units):
        (name, data), = files.items()
        return _table(data, name)

    def reference(self, solution, ids, labels):
        columns = [self.id_column] + [c for c in solution.columns if c != self.id_column]
        data = {c: _texts(solution[c]) for c in solution.columns}
        data[self.id_column] = ids
        files = {self.gold: _csv(columns, data)}
        if self.extra:
            files.update(self.extra(labels))
        return files

    def upload(self, frame, ids, lines, row_id, cfg, problem):
        columns = [self.id_column] + [str(c) for c in frame.columns]
        data = {str(c): _texts(frame[c]) for c in frame.columns}
        data[self.id_column] = ids
        name = "submission.csv"
        starts = _row_starts(data, columns)
        return Upload({self.slot: (name, _csv(columns, data))},
                      {name: Shown(name, starts, lines, {self.id_column: row_id})})


def _labels_file(task):
    """How ``labels=`` becomes the labels.txt of ``task``."""
    def extra(labels):
        names = labels.split() if isinstance(labels, str) else [str(x) for x in (labels or [])]
        if not names:
            raise HostVisibleError("task %s needs labels=: the class names, separated by spaces (labels.txt)" % task)
        return {"labels.txt": ("\n".join(names) + "\n").encode("utf-8")}
    return extra


class ViewLayout(Layout):
    """view_sentiment: one row per sentence, its views as a JSON list of [View, Opinion] pairs."""

    id_column = "SentenceId"
    column = "views"
    example = '[["ViewA", "pos"], ["ViewB", "neg"]]'

    def _pairs(self, cells, bad):
        """(row of each pair, views, opinions) of the JSON cells; ``bad(i, value, reason)`` for a wrong cell."""
        rows, views, opinions = [], [], []
        for i, cell in enumerate(cells):
            if not cell.strip():
                continue
            try:
                value = json.loads(cell)
            except (ValueError, RecursionError) as exc:
                bad(i, cell, getattr(exc, "msg", type(exc).__name__))
                continue
            if not isinstance(value, list) or not all(
                    isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in value):
                bad(i, cell, None)
                continue
            rows += [i] * len(value)
            views += [p[0] for p in value]
            opinions += [p[1] for p in value]
        return np.asarray(rows, dtype=np.int64), np.asarray(views, dtype=object), np.asarray(opinions, dtype=object)

    def _grouped(self, frame, ids):
        """One JSON cell per id of ``ids``: the [View, Opinion] pairs of its rows in ``frame``, [] for none."""
        pairs = {unit: [] for unit in ids}
        for unit, view, opinion in zip(frame["SentenceId"], frame["View"], frame["Opinion"]):
            pairs.setdefault(unit.strip(), []).append([view, opinion])
        return pd.DataFrame({self.id_column: ids,
                             self.column: [json.dumps(pairs[unit], ensure_ascii=False) for unit in ids]})

    def solution(self, reference):
        ids = [unit.strip() for unit in _table(reference["sentences.csv"], "sentences.csv")["SentenceId"]]
        return self._grouped(_table(reference["gold.csv"], "gold.csv"), ids), ids

    def sample(self, files, units):
        (name, data), = files.items()
        return self._grouped(_table(data, name), units)   # a sentence without a view too: its row, []

    def reference(self, solution, ids, labels):
        if self.column not in solution.columns:
            raise HostVisibleError("the solution has no column %s (JSON lists of [View, Opinion] pairs)" % self.column)

        def bad(i, value, reason):
            raise HostVisibleError("solution row %d, column %s: not a JSON list of [View, Opinion] pairs of strings"
                                   % (i + 1, self.column))

        rows, views, opinions = self._pairs(_texts(solution[self.column]), bad)
        gold = {"SentenceId": ids[rows], "View": views, "Opinion": opinions}
        return {"gold.csv": _csv(("SentenceId", "View", "Opinion"), gold),
                "sentences.csv": _csv(("SentenceId",), {"SentenceId": ids})}

    def upload(self, frame, ids, lines, row_id, cfg, problem):
        if list(frame.columns) != [self.column]:
            problem("kaggle.columns", file="submission.csv", columns=", ".join([row_id, self.column]),
                    found=", ".join(map(str, [row_id] + list(frame.columns))))

        def bad(i, value, reason):
            from scorer.public import clip
            place = dict(file="submission.csv", line=int(lines[i]), unit=ids[i], column=self.column,
                         value=repr(clip(value)), example=self.example)
            if reason is None:
                problem("kaggle.not_pairs", **place)
            problem("kaggle.not_json", reason=reason, **place)

        rows, views, opinions = self._pairs(_texts(frame[self.column]), bad)
        columns = ("SentenceId", "View", "Opinion")
        data = {"SentenceId": ids[rows], "View": views, "Opinion": opinions}
        name = "submission.csv"
        starts = _row_starts(data, columns)
        shown = Shown(name, starts, lines[rows], {"SentenceId": row_id, "View": self.column, "Opinion": self.column})
        return Upload({"submission": (name, _csv(columns, data))}, {name: shown})


class EcacLayout(Layout):
    """emotion_cause: one row per conversation, each subtask's pairs as a JSON list in its own column."""

    id_column = "conversation_ID"
    slots = {"subtask1": "subtask1_gold", "subtask2": "subtask2_gold"}
    examples = {"subtask1": '[["3_joy", "2_0_5"]]', "subtask2": '[["3_joy", "2"]]'}

    @property
    def gold_names(self):
        """Each gold slot's file name, as the family declares it."""
        from scorer.public import families
        return families()["emotion_cause"].reference_files

    @staticmethod
    def _ids(ids):
        """JSON numbers of the ids (the gold needs integer conversation_IDs)."""
        out = []
        for text in ids:
            digits = text.strip()
            out.append(str(int(digits)) if digits.isdigit() and digits.isascii() else json.dumps(text))
        return out

    def _columns(self, entries_of, with_conversation):
        """(the DataFrame of one row per conversation, its ids) from each slot's JSON list of conversations."""
        first = next(iter(entries_of.values()))
        ids = [str(entry.get(self.id_column)) for entry in first]
        frame = pd.DataFrame({self.id_column: ids})
        if with_conversation:
            frame["conversation"] = [json.dumps(entry.get("conversation", []), ensure_ascii=False) for entry in first]
        for slot, entries in entries_of.items():
            pairs = {str(entry.get(self.id_column)): entry.get("emotion-cause_pairs", []) for entry in entries}
            frame[slot] = [json.dumps(pairs.get(i, []), ensure_ascii=False) for i in ids]
        return frame, ids

    def solution(self, reference):
        entries = {slot: json.loads(reference[name].decode("utf-8-sig")) for slot, name in
                   ((slot, self.gold_names[gold]) for slot, gold in self.slots.items()) if name in reference}
        return self._columns(entries, True)

    def sample(self, files, units):
        from scorer.public import families
        patterns = {f.slot: f.pattern for f in families()["emotion_cause"].submission_files}
        entries = {slot: json.loads(files[patterns[slot]].decode("utf-8-sig")) for slot in self.slots
                   if patterns[slot] in files}
        return self._columns(entries, False)[0]

    def reference(self, solution, ids, labels):
        files = {}
        if "conversation" not in solution.columns:
            raise HostVisibleError("the solution has no column conversation (the JSON list of utterances)")
        for slot, gold in self.slots.items():
            if slot not in solution.columns:
                continue
            entries = []
            for i, (cid, conv, pairs) in enumerate(zip(self._ids(ids), _texts(solution["conversation"]),
                                                       _texts(solution[slot]))):
                for column, cell in (("conversation", conv), (slot, pairs)):
                    try:
                        json.loads(cell or "[]")
                    except (ValueError, RecursionError):
                        raise HostVisibleError("solution row %d, column %s is not valid JSON" % (i + 1, column))
                entries.append('{"conversation_ID": %s, "conversation": %s, "emotion-cause_pairs": %s}'
                               % (cid, conv or "[]", pairs or "[]"))
            files[self.gold_names[gold]] = ("[" + ",\n".join(entries) + "]\n").encode("utf-8")
        return files

    def upload(self, frame, ids, lines, row_id, cfg, problem):
        if any(c not in self.slots for c in frame.columns):
            problem("kaggle.columns", file="submission.csv", columns="%s, subtask1 and/or subtask2" % row_id,
                    found=", ".join(map(str, [row_id] + list(frame.columns))))
        upload = Upload()
        for slot in self.slots:
            if slot not in frame.columns:
                continue
            cells = _texts(frame[slot])
            entries = []
            for i, (cid, cell) in enumerate(zip(self._ids(ids), cells)):
                try:
                    json.loads(cell or "[]")
                except (ValueError, RecursionError) as exc:
                    from scorer.public import clip
                    problem("kaggle.not_json", file="submission.csv", line=int(lines[i]), unit=ids[i], column=slot,
                            value=repr(clip(cell)), reason=getattr(exc, "msg", type(exc).__name__),
                            example=self.examples[slot])
                entries.append('{"conversation_ID": %s, "emotion-cause_pairs": %s}' % (cid, cell or "[]"))
            shown_name = "submission.csv column %s" % slot
            upload.files[slot] = (shown_name, ("[" + ",\n".join(entries) + "]\n").encode("utf-8"))
            upload.shown[shown_name] = Shown(shown_name)
            upload.aliases[cfg.files[slot]] = shown_name
        return upload


class QALayout(Layout):
    """qa: one row per question; the solution's ``answers`` a JSON list of its gold answer texts (``[]``: none);
    the submission's ``answer`` (text, empty for no answer) and, with no-answer probabilities, ``na_prob``."""

    names = {"gold.json": "the solution"}
    example = '["the Normans", "Normans"]'

    def solution(self, reference):
        gold = json.loads(reference["gold.json"].decode("utf-8-sig"))
        ids = [str(q["id"]).strip() for q in gold]
        return pd.DataFrame({"id": ids, "answers": [json.dumps(q["answers"], ensure_ascii=False) for q in gold]}), ids

    def sample(self, files, units):
        answers = {}
        for name, data in files.items():
            if name.endswith("predictions.json"):
                answers = json.loads(data.decode("utf-8-sig"))
        return pd.DataFrame({"id": list(units), "answer": [answers.get(u, "") for u in units]})

    def reference(self, solution, ids, labels):
        if "answers" not in solution.columns:
            raise HostVisibleError("the solution has no column answers (a JSON list of the gold answers per question)")
        gold = []
        for i, cell in zip(ids, _texts(solution["answers"])):
            try:
                answers = json.loads(cell) if cell.strip() else []
            except ValueError:
                answers = None
            if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
                raise HostVisibleError("the solution's answers of id %s is not a JSON list of strings: %r" % (i, cell))
            gold.append({"id": i, "answers": answers})
        return {"gold.json": json.dumps(gold, ensure_ascii=False).encode("utf-8")}

    def upload(self, frame, ids, lines, row_id, cfg, problem):
        probs = bool(cfg.options.get("no_answer_probabilities"))
        wanted = ["answer", "na_prob"] if probs else ["answer"]
        found = [str(c) for c in frame.columns]
        if found != wanted:
            problem("kaggle.columns", file="submission.csv", columns=", ".join([row_id] + wanted),
                    found=", ".join([row_id] + found))
        data = {"id": ids, "answer": _texts(frame["answer"])}
        name = "submission.csv"
        upload = Upload({"predictions": (name, _csv(["id", "answer"], data))},
                        {name: Shown(name, _row_starts(data, ["id", "answer"]), lines, {"id": row_id})})
        if probs:
            cells = _texts(frame["na_prob"])
            values = {}
            for k, (unit, cell) in enumerate(zip(ids, cells)):
                try:
                    values[unit] = float(cell)
                except ValueError:
                    values[unit] = cell   # the engine says what is wrong with it, at its id
            shown = "submission.csv column na_prob"
            upload.files["na_probs"] = (shown, json.dumps(values, ensure_ascii=False).encode("utf-8"))
            upload.shown[shown] = Shown(shown)
            upload.aliases[cfg.files["na_probs"]] = shown
        return upload


# the families whose files are no table
LAYOUTS = {"view_sentiment": ViewLayout(), "emotion_cause": EcacLayout(), "qa": QALayout()}


def layouts():
    """{task: Layout} of every family the adapter can feed: those of LAYOUTS, and each family whose reference is
    one table of units (its gold, declared as a csv UnitFile, and maybe a list of class names, labels.txt, made
    from ``labels=``) and whose submission is one table: its columns are the family's, said by the family."""
    from scorer.public import families

    found = {}
    for name, family in families().items():
        if name in LAYOUTS:
            found[name] = LAYOUTS[name]
            continue
        tables = [(slot, rule) for slot, rule in family.unit_files.items() if rule.form == "csv"]
        shared = set(family.reference_files) - set(family.unit_files)
        if len(tables) == 1 == len(family.unit_files) and shared <= {"labels"} and len(family.submission_files) == 1 \
                and family.submission_files[0].columns:
            slot, rule = tables[0]
            found[name] = TableLayout(family.reference_files[slot], rule.key,
                                      _labels_file(name) if shared else None, family.submission_files[0].slot)
    return found


# -- one call ------------------------------------------------------------------------------------------
def _options(options):
    if options is None or options == "":
        return {}
    if isinstance(options, str):
        try:
            options = json.loads(options)
        except ValueError as exc:
            raise HostVisibleError("options is not a JSON object: %s" % exc)
    if not isinstance(options, dict):
        raise HostVisibleError("options must be a mapping of the family's options, got %r" % (options,))
    return dict(options)


def _score(solution, submission, row_id, task, metric, options, labels, language):
    _engine()
    from scorer.public import Competition, ScoringError, SubmissionError, SubmittedFile, clip, error_line, printable

    messages = _messages()
    found = layouts()
    if not task:
        raise HostVisibleError("give task=, the competition's family (%s): this metric was not written for a "
                               "competition (python3 -m organizer kaggle COMPETITION_DIR OUT_DIR writes one that is)"
                               % ", ".join(sorted(found)))
    if task not in found:
        raise HostVisibleError("task %r has no Kaggle adapter; supported: %s" % (task, ", ".join(sorted(found))))
    layout = found[task]
    raw = {"task": task, "board": "all", "options": _options(options), "language": language}
    if metric:
        raw["primary_key"] = metric
    lang = language if language in ("en", "zh") else "en"

    solution = solution.drop(columns=[USAGE], errors="ignore")
    if row_id not in solution.columns:
        raise HostVisibleError("the solution has no row id column %r" % row_id)
    solution = solution.rename(columns={row_id: layout.id_column}) if row_id != layout.id_column else solution
    ids = _texts(solution[layout.id_column])

    def refuse(problem, upload=None):
        text = _shown(problem, upload).text(lang)
        # escaped as score.py escapes what it prints: the host must be able to encode and show the line
        raise ParticipantVisibleError(printable(error_line("submission error", text, lang)))

    repeated = submission.columns[submission.columns.duplicated()]
    if len(repeated):
        refuse(messages["kaggle.repeated_column"](column=printable(clip(str(repeated[0])))))
    if row_id not in submission.columns:
        refuse(messages["kaggle.no_row_id"](column=row_id))
    sub_ids = _texts(submission[row_id])
    kept = np.flatnonzero(np.isin(sub_ids, ids))   # rows of another subset are scored in its own call
    rows = submission.iloc[kept].drop(columns=[row_id])
    lines = kept.astype(np.int64) + 2               # the header is line 1
    for column in rows.columns:   # a lone surrogate cannot be written to the file the engine reads
        cells = _texts(rows[column])
        bad = np.flatnonzero(pd.Series(cells, dtype=object).str.contains(SURROGATE, regex=True).to_numpy(dtype=bool))
        if len(bad):
            i = int(bad[0])
            refuse(messages["kaggle.surrogate"].at("submission.csv", int(lines[i]), unit=sub_ids[kept[i]],
                                                   column=str(column), value=repr(clip(cells[i]))))

    tmp = tempfile.mkdtemp(prefix="kaggle-metric-")
    try:
        for name, data in layout.reference(solution.drop(columns=[layout.id_column]), ids, labels).items():
            with open(os.path.join(tmp, name), "wb") as fh:
                fh.write(data)
        try:
            comp = Competition.from_raw(raw, tmp)
        except ScoringError as exc:
            text = exc.text("en")
            for name, said in layout.names.items():   # the host knows no gold.csv: the solution it gave
                text = text.replace(name, said)
            raise HostVisibleError("%s: %s" % (exc.who, text)) from None

        def problem(key, file=None, line=None, unit=None, column=None, **args):
            refuse(messages[key].at(file, line=line, unit=unit, column=column, **args))

        upload = layout.upload(rows, sub_ids[kept], lines, row_id, comp.cfg, problem)
        files = {slot: None for slot in comp.family.submission_slots}
        for slot, (name, data) in upload.files.items():
            files[slot] = SubmittedFile(name, (lambda d=data: d), len(data))
        try:
            sub = comp.read_files(files)
        except SubmissionError as exc:
            refuse(exc.problem, upload)
        except ScoringError as exc:
            raise HostVisibleError("%s: %s" % (exc.who, exc.text("en"))) from None
        return float(comp.scores(sub, "all")[comp.cfg.primary_key])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SURROGATE = "[\ud800-\udfff]"


def _shown(problem, upload):
    """The engine's Problem about a generated file, its place and names as the participant's submission has them."""
    if upload is None:
        return problem
    names = dict(upload.aliases)
    names.update({k: v.name for k, v in upload.shown.items()})
    shown = upload.shown.get(problem.file)
    changes = {}
    if shown is not None:
        changes = dict(file=shown.name, column=shown.columns.get(problem.column, problem.column),
                       line=shown.line(problem.line) if shown.starts is not None else problem.line)
    args = []
    for key, value in problem.args:
        if shown is not None and shown.starts is not None and key in LINE_ARGS and isinstance(value, (int, np.integer)):
            value = shown.line(value)
        elif isinstance(value, str) and value in names:
            value = names[value]
        args.append((key, value))
    return dataclasses.replace(problem, args=tuple(args), **changes)
