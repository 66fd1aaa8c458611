"""The three kinds of failure, each with its own exit code.

A participant sees stderr, so every message here must be one line that says
what is wrong, where, and how to fix it, and must never quote a reference label
or anything about rows of a hidden board.
"""


class ScoringError(Exception):
    """Base class: ``exit_code`` is what score.py returns."""

    exit_code = 3
    who = "internal error"

    def __init__(self, message):
        super().__init__(" ".join(str(message).split()))  # always one line

    @property
    def message(self):
        return self.args[0]


class SubmissionError(ScoringError):
    """The participant's files are wrong (exit 1)."""

    exit_code = 1
    who = "submission error"


class ConfigError(ScoringError):
    """The organizer's config.yaml is wrong (exit 2)."""

    exit_code = 2
    who = "competition configuration error"


class ReferenceDataError(ScoringError):
    """The organizer's reference data is wrong (exit 2)."""

    exit_code = 2
    who = "reference data error"


def where(file, line=None, column=None, unit=None):
    """Format a location: ``submission.csv line 7 (id 5), column class``."""
    text = str(file)
    if line is not None:
        text += " line %d" % line
    if unit is not None:
        text += " (id %s)" % unit
    if column is not None:
        text += ", column %s" % column
    return text


def clip(text, limit=40):
    """``text`` cut to ``limit`` characters, for quoting a participant's value in a message.

    >>> clip("abcdef", 3)
    'abc...'
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."
