"""What ``python3 -m organizer new`` knows of each task family: one module per family.

Each module defines ``START``, an instance of a ``base.Start`` subclass that
reads the organizer's files in the family's gold format, splits them into the
reference data (answers) and the public inputs of the starting kit (no answer
column), and makes the sample submission (a plain baseline that reads only
public inputs). ``render`` fills the page, README and leaderboard templates of
``organizer/templates/`` in the competition's language.
"""
import importlib

FAMILIES = ("bank_comments", "keywords", "multilabel", "view_sentiment", "emotion_cause", "regression",
            "classification", "qa", "generation")


def start_of(family):
    """The Start of a family (SystemExit naming the families if there is none)."""
    if family not in FAMILIES:
        raise SystemExit("unknown task family %r; new knows: %s" % (family, ", ".join(FAMILIES)))
    return importlib.import_module("%s.%s" % (__name__, family)).START
