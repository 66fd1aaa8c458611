"""What the families' texts share: lists of public ids, counts and shares, normalisation steps, written for a reader.

A warning (``TaskFamily.advice``) is a Problem about a submission that is valid
but will score badly: the offline check (validate.py) prints them, and score.py
shows the same on the participant's page, after a read without problems, so
nothing here ever changes a score or an exit code. Warnings are about the whole
file against every test unit (never one board), name test ids only where the
public test inputs list them, and never say anything about answers. score.py
asks on every run: a family's advice costs a small fraction of its scoring
(ids become strings only for the units a warning names: ``units_where``).

>>> ids(["a", "b", "c"], limit=2).text("en"), ids(["a", "b", "c"], limit=2).text("zh")
('a, b and 1 more', 'a, b 等（另有 1 个）')
>>> ids(["a"]), count(2714), share(0.8571)
('a', '2,714', '86%')
"""
from .problems import Message
from .quoting import clip

SHOWN = 10   # ids named in one warning; the rest are counted

MORE_IDS = Message("advice.more_ids", "{shown} and {more} more", "{shown} 等（另有 {more} 个）")


def ids(values, limit=SHOWN):
    """The first ``limit`` of ``values`` (ids), each cut short, and how many more there are."""
    values = list(values)
    shown = ", ".join(clip(v) for v in values[:limit])
    if len(values) <= limit:
        return shown
    return MORE_IDS(shown=shown, more=count(len(values) - limit))


def units_where(units, mask):
    """The ids of ``units`` (a contract's) where ``mask`` is True, as a list: a ``tables.UnitIds`` makes a string
    for those only, not for every unit.

    >>> import numpy as np
    >>> units_where(["a", "b", "c"], np.array([True, False, True]))
    ['a', 'c']
    """
    try:
        picked = units[mask]
    except TypeError:   # a plain list
        import numpy as np

        picked = np.asarray(units, dtype=object)[mask]
    return list(picked)


def count(n):
    """A count with thousands separators, as people write it."""
    return "{:,}".format(int(n))


def share(fraction):
    """A fraction as a whole percentage."""
    return "%d%%" % round(100 * float(fraction))


# separators that people use to join items in one cell instead of the task's own
LIST_SEPARATORS = (";", "\uff1b", ",", "\uff0c", "\u3001", "|")


def most_common_separator(texts, exclude=""):
    """(separator, share of ``texts`` holding it) for the separator of LIST_SEPARATORS held by most texts.

    ``texts``: a column of ``cells.Cells`` (searched as bytes, one pass per separator: score.py asks on every
    run, and imports no pandas for it) or strings.

    >>> most_common_separator(["a;b", "c;d", "e"])
    (';', 0.6666666666666666)
    >>> most_common_separator([])
    (None, 0.0)
    """
    if not hasattr(texts, "contains"):
        from .bytelevel.cells import Cells

        texts = Cells.from_strings([str(t) for t in texts])
    best, best_share = None, 0.0
    for sep in LIST_SEPARATORS:  # one pass over the column per separator
        if sep in exclude or not len(texts):
            continue
        found = float(texts.contains(sep).mean())
        if found > best_share:
            best, best_share = sep, found
    return best, best_share


# the names of the text normalisation steps (metrics.sets.NORMALISATIONS) in a sentence of a page
STEP_NAMES = {"strip": Message("advice.step_strip", "strip", "去除首尾空白"),
              "nfkc": Message("advice.step_nfkc", "nfkc", "NFKC 规范化（全角转半角）"),
              "casefold": Message("advice.step_casefold", "casefold", "大小写折叠")}
STEPS_JOINED = Message("advice.steps_joined", "{first}+{rest}", "{first}、{rest}")


def steps(names):
    """Normalisation steps as one Problem: ``strip+casefold`` in English, a list in Chinese ("" for none).

    >>> steps(["strip", "casefold"]).text("en"), steps(["strip", "casefold"]).text("zh")
    ('strip+casefold', '去除首尾空白、大小写折叠')
    """
    joined = STEP_NAMES[names[-1]]() if names else ""
    for step in reversed(names[:-1]):
        joined = STEPS_JOINED(first=STEP_NAMES[step](), rest=joined)
    return joined
