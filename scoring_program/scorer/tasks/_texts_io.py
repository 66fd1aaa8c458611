"""One text per id, read from a participant's file: the submissions of the text families (qa, generation).

A file is read by its name's ending, so that what it holds never has to be guessed:

- ``.json``: one JSON object ``{"id": "text", ...}`` (SQuAD's predictions file);
- ``.jsonl``: JSON Lines, one object ``{"id": ..., "<column>": ...}`` per line;
- anything else: a table with the header ``id,<column>`` (comma or TAB), read as every family reads its CSV
  files (``tables.read_table``; full-width commas stay in the texts).

Every problem is one line naming the place (the line, or the id of a JSON object's entry) and how to fix it;
an id given twice is refused (``json.loads`` alone would keep the last silently), a value that is no string is
refused (a number is no answer: write it as text). What is returned (``Texts``) holds the position of each
entry's unit in the contract (-1 for an entry with a problem), its text, and where it was.
"""
import gc
import json
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, List

import numpy as np

from ..bytelevel.cells import Cells
from ..errors import ReferenceDataError, SubmissionError, clip
from ..problems import Message, Reason
from ..tables import match_ids, read_table, unit_index
from ..textio import JSON_REASONS, WORKBOOK_SUFFIXES, decode

BAD_JSON = Message("texts.bad_json", "{file} line {line} column {column} is not valid JSON ({reason}); save the file "
                   "with json.dump (or one json.dumps per line for .jsonl).",
                   "{file} 第 {line} 行第 {column} 列不是合法的 JSON（{reason}）；请用 json.dump 保存文件"
                   "（predictions.jsonl 这样的文件每行用一次 json.dumps）。")
EMPTY_FILE = Message("texts.empty", "{file} is empty; write one {what} per test id.",
                     "{file} 是空文件；请为每个测试 id 写一个{what}。")
NOT_AN_OBJECT = Message("texts.not_an_object", "{file} holds a JSON {kind}, not one object {{id: {what}}}; write "
                        "json.dump({{id: {what}, ...}}) (or name the file .jsonl for one object per line).",
                        "{file} 是一个 JSON {kind}，而不是一个对象 {{id: {what}}}；请写 json.dump({{id: {what}, ...}})"
                        "（每行一个对象的文件请命名为 predictions.jsonl）。")
LINE_NOT_AN_OBJECT = Message("texts.line_not_an_object", "{where}: the line holds a JSON {kind}, not an object "
                             "{{\"id\": ..., \"{column}\": ...}}; write one such object per line.",
                             "{where}：该行是一个 JSON {kind}，而不是对象 {{\"id\": ..., \"{column}\": ...}}；"
                             "请每行写一个这样的对象。")
NO_FIELD = Message("texts.no_field", "{where}: the object has no \"{field}\"; write {{\"id\": ..., \"{column}\": ...}} "
                   "on every line.", "{where}：该对象没有 \"{field}\"；请在每行写 {{\"id\": ..., \"{column}\": ...}}。")
NOT_TEXT = Message("texts.not_text", "{where}: the {what} is a JSON {kind} ({value}), not a string; write it as text "
                   "in double quotes (\"\" for none).",
                   "{where}：{what}是 JSON {kind}（{value}），不是字符串；请写成双引号中的文本（没有则写 \"\"）。")
ID_NOT_TEXT = Message("texts.id_not_text", "{where}: the id is a JSON {kind} ({value}); write the test id as a string "
                      "in double quotes.", "{where}：id 是 JSON {kind}（{value}）；请把测试 id 写成双引号中的字符串。")
EMPTY_ID = Message("texts.empty_id", "{where}: the id is empty; every entry needs the id of a test item.",
                   "{where}：id 为空；每一项都需要一个测试样本的 id。")
DUPLICATE_ID = Message("texts.duplicate_id", "{where}: id {id} is given twice; keep one {what} per id.",
                       "{where}：id {id} 出现了两次；每个 id 只保留一个{what}。")
UNKNOWN_ID = Message("texts.unknown_id", "{where}: id {id} is not in the test set ({n} entries with unknown ids); use "
                     "the ids of the test inputs.", "{where}：id {id} 不在测试集中（共 {n} 项 id 未知）；请使用测试输入中的 id。")
WORKBOOK = Message("texts.workbook", "{file} is a spreadsheet workbook, not a text file; in Excel: File > Save As > "
                   "'CSV UTF-8 (Comma delimited) (*.csv)', name it predictions.csv and upload that file.",
                   "{file} 是电子表格工作簿，不是文本文件；请在 Excel 中选择“文件 > 另存为 > CSV UTF-8（逗号分隔）(*.csv)”，"
                   "命名为 predictions.csv 后上传该文件。")
KINDS = {dict: Message("texts.kind.object", "object", "对象"), list: Message("texts.kind.array", "array", "数组"),
         str: Message("texts.kind.string", "string", "字符串"), bool: Message("texts.kind.boolean", "boolean", "布尔值"),
         int: Message("texts.kind.number", "number", "数字"), float: Message("texts.kind.number2", "number", "数字"),
         type(None): Message("texts.kind.null", "null", "null")}


def kind(value):
    """What a JSON value is, as a message (object, array, string, number, boolean, null).

    >>> [kind(v).texts["en"] for v in (_Pairs([("a", 1)]), [1], "x", 2.5, True, None)]
    ['object', 'array', 'string', 'number', 'boolean', 'null']
    """
    return KINDS[dict] if isinstance(value, _Pairs) else KINDS.get(type(value), KINDS[str])


@dataclass
class Texts:
    """The entries of a submitted file: each one's contract position (-1: a problem), text, line (or rank)."""

    name: str
    position: np.ndarray
    texts: List[str]
    line: np.ndarray
    extra: Any = None     # the values of a table's optional columns (name -> Cells)


class _Pairs(list):
    """A JSON object as its (key, value) pairs in file order: a key given twice stays twice."""


_PAUSE = threading.Lock()
_paused = {"readers": 0, "was_on": False}


@contextmanager
def _collection_paused():
    """Python's cyclic garbage collection paused while JSON text becomes objects, the objects then frozen
    (``gc.freeze``: left out of later collections). Parsing a million entries would otherwise trigger full
    collections that walk every object parsed so far (the parse of a 70 MB gold took 4 times as long), and
    every later one would walk them again. Parsed JSON holds no reference cycle: reference counting alone frees
    it (in a process that reads many files, the organizer's tools or the tests, the cyclic garbage not yet
    collected when a parse ends stays too: a few objects each time). The two threads of a run may parse at
    once: collection resumes when the last of them is done."""
    with _PAUSE:
        if not _paused["readers"]:
            _paused["was_on"] = gc.isenabled()
            gc.disable()
        _paused["readers"] += 1
    try:
        yield
    finally:
        with _PAUSE:
            _paused["readers"] -= 1
            if not _paused["readers"]:
                gc.freeze()
                if _paused["was_on"]:
                    gc.enable()


def read_json(data, name, error, pairs=True):
    """The JSON value of a file's bytes (UTF-8 with or without BOM, UTF-16, GB18030); objects as _Pairs (``pairs``:
    a key given twice stays twice), else as dicts (json's own, several times faster on many small objects)."""
    text = decode(data, name, error)
    if not text.strip():
        raise error(EMPTY_FILE(file=name, what=""))
    try:
        with _collection_paused():
            return json.loads(text, object_pairs_hook=_Pairs) if pairs else json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(BAD_JSON(file=name, line=exc.lineno, column=exc.colno, reason=JSON_REASONS.get(exc.msg, exc.msg)))
    except (ValueError, RecursionError) as exc:
        raise error(BAD_JSON(file=name, line=1, column=1, reason=Reason(exc, named=False)))


def form_of(name):
    """``json``, ``jsonl`` or ``table``: how a file is read, by its name's ending."""
    lower = name.lower()
    return "jsonl" if lower.endswith(".jsonl") else "json" if lower.endswith(".json") else "table"


def parse_texts(file, column, what, error=SubmissionError):
    """(form, the raw entries): ids, texts and lines as read, before any id is looked up. ``what`` names a value
    in messages (a Message: "answer", "text")."""
    form = form_of(file.name)
    if file.name.lower().endswith(WORKBOOK_SUFFIXES):   # predictions.xlsx matches predictions.*: said for what it is
        raise error(WORKBOOK(file=clip(file.name, 80)))
    if form == "table":
        table = read_table(file, ("id", column), error, separators=(",", "\t"), fullwidth=False)
        return form, (table, column)
    data = file.read_bytes()
    name = file.name
    if form == "json":
        value = read_json(data, name, error)
        if not isinstance(value, _Pairs):
            raise error(NOT_AN_OBJECT(file=name, kind=kind(value), what=what))
        ids = [k for k, _ in value]
        values = [v for _, v in value]
        return form, (name, ids, values, np.arange(1, len(ids) + 1), None)
    text = decode(data, name, error)
    ids, values, lines, wrong = [], [], [], []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw, object_pairs_hook=_Pairs)
        except json.JSONDecodeError as exc:
            raise error(BAD_JSON(file=name, line=number, column=exc.colno, reason=JSON_REASONS.get(exc.msg, exc.msg)))
        except (ValueError, RecursionError) as exc:
            raise error(BAD_JSON(file=name, line=number, column=1, reason=Reason(exc, named=False)))
        if not isinstance(entry, _Pairs):
            wrong.append((number, LINE_NOT_AN_OBJECT.at(name, number, kind=kind(entry), column=column)))
            continue
        fields = dict(entry)
        missing = [f for f in ("id", column) if f not in fields]
        if missing:
            wrong.append((number, NO_FIELD.at(name, number, field=missing[0], column=column)))
            continue
        ids.append(fields["id"])
        values.append(fields[column])
        lines.append(number)
    if not ids and not wrong:
        raise error(EMPTY_FILE(file=name, what=what))
    return form, (name, ids, values, np.asarray(lines, dtype=np.int64), wrong)


def read_texts(parsed, units, problems, what):
    """The Texts of parsed entries against the contract's ``units``: every entry problem reported in line order
    (empty, repeated or unknown ids; values that are no string)."""
    form, raw = parsed
    if form == "table":
        table, column = raw
        position = match_ids(table, "id", units, problems, fullwidth=True)
        return Texts(table.name, position, table.cells(column).tolist(), np.asarray(table.line))
    name, ids, values, lines, wrong = raw
    sound = _sound_entries(ids, values, units) if not wrong else None
    if sound is not None:
        return Texts(name, sound, values, lines)
    bad = np.zeros(len(ids), dtype=bool)
    found = []   # (line, problem)
    where = (lambda i: dict(file=name, line=int(lines[i]))) if form == "jsonl" else \
        (lambda i: dict(file=name, unit=clip(str(ids[i]))))
    keys = []
    for i, (key, value) in enumerate(zip(ids, values)):
        if not isinstance(key, str):
            found.append((lines[i], ID_NOT_TEXT.at(**where(i), kind=kind(key), value=clip(json.dumps(key), 40))))
            bad[i] = True
            keys.append("")
            continue
        keys.append(key.strip())
        if not keys[-1]:
            found.append((lines[i], EMPTY_ID.at(**where(i))))
            bad[i] = True
        elif not isinstance(value, str):
            found.append((lines[i], NOT_TEXT.at(**where(i), what=what, kind=kind(value),
                                                value=clip(json.dumps(value, ensure_ascii=False), 40))))
            bad[i] = True
    position = unit_index(units).get_indexer(Cells.from_strings(keys)) if keys else np.zeros(0, dtype=np.int64)
    position = np.asarray(position, dtype=np.int64)
    seen = {}
    unknown = [i for i in range(len(keys)) if not bad[i] and position[i] < 0]
    for i in range(len(keys)):
        if bad[i] or position[i] < 0:
            continue
        if position[i] in seen:
            found.append((lines[i], DUPLICATE_ID.at(**where(i), id=repr(clip(keys[i])), what=what)))
            bad[i] = True
        else:
            seen[position[i]] = i
    for i in unknown:
        found.append((lines[i], UNKNOWN_ID.at(**where(i), id=repr(clip(keys[i])), n=len(unknown))))
        bad[i] = True
    found.extend(wrong or ())
    for _, problem in sorted(found, key=lambda lp: lp[0]):
        problems.add(problem)
    position[bad] = -1
    texts = [v if isinstance(v, str) else "" for v in values]
    return Texts(name, position, texts, lines)


def _sound_entries(ids, values, units):
    """The contract position of every entry when no entry has a problem (every id a string naming a unit once,
    every value a string), else None: the whole file checked at once, the entries one by one only to report."""
    try:   # joining the values and stripping the ids fail unless every one is a string
        "".join(values)
        keys = list(map(str.strip, ids))
    except TypeError:
        return None
    if not keys:
        return None
    position = np.asarray(unit_index(units).get_indexer(Cells.from_strings(keys)), dtype=np.int64)
    if (position < 0).any() or np.bincount(position, minlength=len(units)).max(initial=0) > 1:
        return None
    return position


def per_unit(entries, n_units):
    """(text per unit as an object array, "" where absent; present: bool per unit) of read Texts."""
    out = np.full(n_units, "", dtype=object)
    present = np.zeros(n_units, dtype=bool)
    ok = entries.position >= 0
    if ok.any():
        out[entries.position[ok]] = np.asarray(entries.texts, dtype=object)[ok]
        present[entries.position[ok]] = True
    return out, present


def reference_json(data, name):
    """A reference JSON file's value, objects as dicts (ReferenceDataError with the place when it is no JSON)."""
    return read_json(data, name, ReferenceDataError, pairs=False)
