"""The kinds of failure, each with its own exit code, and how their messages quote what they quote.

A participant sees stderr, so every message here must be one line that says
what is wrong, where, and how to fix it, and must never quote a reference label
or anything about rows of a hidden board. Values from the participant are cut
(``clip``) and every string we print or write passes ``printable``.
"""
import re

from .problems import Message, Problem

PLAIN = Message("plain", "{text}", "{text}")   # a message made elsewhere (a host's, a tool's)


class ScoringError(Exception):
    """Base class: ``exit_code`` is what score.py returns; ``problem`` says what, where, in every language."""

    exit_code = 3
    who = "internal error"
    kind = "internal"

    def __init__(self, problem):
        if not isinstance(problem, Problem):
            problem = PLAIN(text=str(problem))
        self.problem = problem
        super().__init__(self.text("en"))

    def text(self, lang="en"):
        """The message in ``lang``, always one line."""
        return _ONE_LINE.sub(" ", self.problem.text(lang)).strip()

    @property
    def message(self):
        return self.args[0]


class SubmissionError(ScoringError):
    """The participant's files are wrong (exit 1)."""

    exit_code = 1
    who = "submission error"
    kind = "submission"


class ConfigError(ScoringError):
    """The organizer's config.yaml is wrong (exit 2)."""

    exit_code = 2
    who = "competition configuration error"
    kind = "config"


class ReferenceDataError(ScoringError):
    """The organizer's reference data is wrong (exit 2)."""

    exit_code = 2
    who = "reference data error"
    kind = "reference"


class OutputError(ScoringError):
    """OUTPUT cannot be written (exit 3): a problem of the platform or of the run, not of the submission."""

    exit_code = 3
    who = "internal error"
    kind = "output"


_ONE_LINE = re.compile(r"[\r\n\v\f\x85\u2028\u2029]+")
# C0/C1 controls (but TAB), zero-width and bidi controls, line/paragraph separators, BOM, lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                     "\ufeff\ufff9-\ufffb\ud800-\udfff]")


def printable(text):
    r"""``text`` with control, bidi-override, zero-width and surrogate characters shown as escapes.

    What reaches a terminal, a log viewer or a page can then neither reorder
    nor hide characters, nor fail to encode.

    >>> printable("id\u202eabc\x00\ud800")
    'id\\u202eabc\\x00\\ud800'
    """
    return _UNSAFE.sub(_escape, str(text))


def _escape(match):
    code = ord(match.group(0))
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def where(file, line=None, column=None, unit=None):
    """Format a location: ``submission.csv line 7 (id 5), column class``; long names are cut."""
    text = clip(file, 80)
    if line is not None:
        text += " line %d" % line
    if unit is not None:
        text += " (id %s)" % clip(unit)
    if column is not None:
        text += ", column %s" % clip(column)
    return text


def clip(text, limit=40):
    """``text`` cut to ``limit`` characters, for quoting a participant's value in a message.

    >>> clip("abcdef", 3)
    'abc...'
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."
