"""Problems as data: what is wrong, where, and the words that say it in every language.

A ``Message`` is declared once, next to the code that finds the problem, with
its text in English and Chinese. A ``Problem`` is one occurrence of it: the
message, its arguments and its place (file, physical line, unit, column).
``Problems`` is where validation puts what it finds: on a platform the first
problem ends the run (exit 1 and one line), the offline check keeps every one,
and both come from the same validation code.

Templates name their fields in braces; ``{where}`` is the place, written by
``i18n.where`` in the message's language.

>>> EMPTY = Message("example.empty_id", "{where}: the id is empty; write the id of a test item.",
...                 "{where}：id 为空；请写测试样本的 id。")
>>> problem = EMPTY.at("a.csv", line=3, column="id")
>>> problem.text("en")
'a.csv line 3, column id: the id is empty; write the id of a test item.'
>>> problem.text("zh")
'a.csv 第 3 行，列 id：id 为空；请写测试样本的 id。'
"""
import string
from dataclasses import dataclass

import numpy as np
from typing import Any, Dict, List, Optional, Tuple

from .i18n import LANGUAGES
from .quoting import clip

MESSAGES: Dict[str, "Message"] = {}   # every message of the engine, by key (tests check each one)


class Message:
    """One message with its text in every language; ``key`` is unique in the engine.

    Messages under ``reference.`` reach the organizer only (a participant reads
    a generic line instead) and may have no Chinese text (``zh=None``).
    """

    def __init__(self, key, en, zh):
        if key in MESSAGES:
            raise ValueError("message key %r is declared twice" % key)
        self.key = key
        self.texts = {"en": en, "zh": zh}
        MESSAGES[key] = self

    def fields(self, lang="en"):
        """The names the template of ``lang`` uses."""
        return {name for _, name, _, _ in string.Formatter().parse(self.texts[lang]) if name}

    def at(self, file=None, line=None, unit=None, column=None, **args):
        """A Problem of this message at a place, with its arguments."""
        return Problem(self, tuple(sorted(args.items())), file, line, unit, column)

    def __call__(self, **args):
        """A Problem of this message that has no place (or names it in its own fields)."""
        return self.at(**args)

    def __repr__(self):
        return "Message(%r)" % self.key


@dataclass(frozen=True)
class Problem:
    """One problem: its message, the message's arguments, and its place."""

    message: Message
    args: Tuple[Tuple[str, Any], ...] = ()
    file: Optional[str] = None
    line: Optional[int] = None
    unit: Optional[str] = None
    column: Optional[str] = None

    @property
    def key(self):
        return self.message.key

    def text(self, lang="en", where=None):
        """The one-line message in ``lang`` (English where the message has no such text).

        ``where`` replaces the written place (the offline check names several lines at once).
        """
        from . import i18n

        lang = lang if lang in LANGUAGES else "en"
        template = self.message.texts.get(lang) or self.message.texts["en"]
        if where is None:
            where = i18n.where(lang, self.file, self.line, self.column, self.unit) if self.file is not None else ""
        values = {k: _written(v, lang) for k, v in self.args}
        for name in ("file", "line", "unit", "column"):  # the place's parts, for templates that name them
            values.setdefault(name, getattr(self, name))
        return template.format(where=where, **values)


class Problems:
    """Where validation puts problems: ``stop`` raises the first, ``collect`` keeps them all.

    ``error`` is the ScoringError subclass a problem becomes when it ends the run.
    """

    def __init__(self, error, collect=False):
        self.error = error
        self.collect = collect
        self.found: List[Problem] = []

    def add(self, problem):
        if not self.collect:
            raise self.error(problem)
        self.found.append(problem)

    def add_rows(self, rows, line, make):
        """One problem per row of ``rows`` (row indices): ``make(i)`` builds row i's Problem.

        Rows are taken in file-line order; when stopping at the first, only that
        one is built.
        """
        rows = np.asarray(rows, dtype=np.int64)
        if not len(rows):
            return
        order = rows[np.argsort(np.asarray(line)[rows], kind="stable")]
        if not self.collect:
            raise self.error(make(int(order[0])))
        self.found.extend(make(int(i)) for i in order)

    def __bool__(self):
        return bool(self.found)

    def sorted(self, files=()):
        """The problems in file order (the order of ``files``), then line order, then as found."""
        rank = {name: k for k, name in enumerate(files)}
        keyed = sorted(enumerate(self.found),
                       key=lambda kp: (rank.get(kp[1].file, len(rank)), kp[1].line is None, kp[1].line or 0, kp[0]))
        return [p for _, p in keyed]


def _written(value, lang):
    """A message's field: a Message, Problem (or anything with ``text(lang)``) in ``lang``; other values as they are."""
    if isinstance(value, Message):
        return value().text(lang)
    text = getattr(value, "text", None)
    return text(lang) if callable(text) else value


class Reason:
    """Why a step failed, from its exception: Python's own (English) words in English, its name in other languages.

    >>> r = Reason(ValueError("bad  thing"))
    >>> r.text("en"), r.text("zh")
    ('ValueError: bad thing', 'ValueError')
    """

    def __init__(self, exc, detail=None, named=True):
        self.name = type(exc).__name__
        self.detail = clip(" ".join((str(exc) if detail is None else detail).split()), 80)
        self.named = named

    def text(self, lang="en"):
        if not self.detail or lang != "en":
            return self.name
        return "%s: %s" % (self.name, self.detail) if self.named else self.detail
