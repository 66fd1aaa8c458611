"""The kinds of failure, each with its own exit code, and how their messages quote what they quote.

A participant sees stderr, so every message here must be one line that says
what is wrong, where, and how to fix it, and must never quote a reference label
or anything about rows of a hidden board. Values from the participant are cut
(``quoting.clip``) and every string we print or write passes ``quoting.printable``.
"""
import re

from .problems import Message, Problem
from .quoting import clip, printable  # noqa: F401  (the names every raiser uses)

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


class PhaseClosed(ScoringError):
    """The phase has ended and its final ranking is fixed: nothing is read or scored (exit 1, a failed run)."""

    exit_code = 1
    who = "phase closed"
    kind = "closed"


class OutputError(ScoringError):
    """OUTPUT cannot be written (exit 3): a problem of the platform or of the run, not of the submission."""

    exit_code = 3
    who = "internal error"
    kind = "output"


_ONE_LINE = re.compile(r"[\r\n\v\f\x85\u2028\u2029]+")
