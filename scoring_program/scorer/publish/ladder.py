"""A public board that resists probing: the Ladder of Blum and Hardt (ICML 2015), fed by the team's history.

Exact scores on a fixed public board let a team learn the board's answers
by submitting many variations and keeping what scores higher, so the public
score drifts above what the same files would score on new data. The Ladder
releases a new score only when it beats the team's best released score by a
margin; otherwise the best stays:

- ``fixed`` (their Algorithm 1): with step eta, a score s is released when
  s > R + eta, R the score released last, and then rounded to the nearest
  multiple of eta; every other key of that submission is released rounded to
  eta as well;
- ``parameter_free`` (their parameter-free variant, as in the authors' code):
  the margin is the standard error of the difference between this submission
  and the best one on the same units (a paired test), and the released score
  is exact. The authors use std(per-unit loss difference) / sqrt(n), which is
  right for a mean over units; here the standard error comes from a paired
  bootstrap of the per-unit counts, which is the same thing for a mean and
  also holds for F1 or kappa. The first submission is always released.

Where the history comes from. A scoring run sees only its own inputs, so the
state travels through the platform: each run writes the state after this
submission to ``OUTPUT/private/ladder.json`` (and, for the parameter-free
Ladder, the per-unit counts of a new best to ``ladder_units.npy``). CodaLab
v1 hands a run the private outputs of the participant's earlier finished
submissions as ``INPUT/history/<phase, 3 digits>/<submission number, 3
digits>/output/`` (codalab-competitions, apps/web/tasks.py ``score``: the
``history`` bundle lists ``%03d/%03d/output/: <private_output.zip>`` per
earlier submission; competitions-v1-compute-worker, worker.py ``get_bundle``
downloads every key of a metadata bundle into a folder of that name and
unzips it there; private_output.zip is the whole OUTPUT folder, worker.py
``run``). INPUT/metadata names the run's ``competition-phase`` and
``competition-submission``. The latest earlier submission of the same phase
whose state was made with the same config holds the state to continue.

Caveat, from the same source: since codalab-competitions commit 57e625b
(2017-02-19) the site writes an empty history list, so the public CodaLab
instances give no history and every submission is then treated as the team's
first (the Ladder only rounds). Codabench gives no history at all. The
organizer tool ``python3 -m organizer ladder`` keeps the state itself instead
(docs/report.md).
"""
import io
import json
import math
import os
import stat
from dataclasses import dataclass, field
from typing import Dict, Optional

import numpy as np
import yaml

from .. import resampling

STATE_FILE = "ladder.json"
UNITS_FILE = "ladder_units.npy"
_METADATA_LIMIT = 1 << 16


@dataclass
class State:
    """The Ladder's state for one team after some submission."""

    key: str = ""                        # the config it was made with (a new config starts a new Ladder)
    submission: Optional[int] = None     # the submission it follows
    best_submission: Optional[int] = None
    best: Optional[float] = None         # the exact primary score of the best submission
    released: Dict[str, float] = field(default_factory=dict)
    improved: bool = False               # this submission became the best

    def to_json(self):
        return json.dumps(self.__dict__, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text, keys=None):
        """The state a run wrote; ValueError when the text is not one (any damage: the history comes from outside).

        ``keys``: the leaderboard keys a released score may have (None: any key without a colon).
        """
        try:
            raw = json.loads(text)
        except RecursionError:
            raise ValueError("nested too deep")
        if not isinstance(raw, dict):
            raise ValueError("not a mapping")
        state = cls(**{k: raw[k] for k in cls.__dataclass_fields__ if k in raw})
        released = state.released
        if not isinstance(released, dict) or not all(
                isinstance(k, str) and ":" not in k and (keys is None or k in keys) and _finite(v)
                for k, v in released.items()):
            raise ValueError("released is not a mapping of leaderboard keys to numbers")
        if not isinstance(state.key, str) or not isinstance(state.improved, bool) \
                or not (state.best is None or _finite(state.best)) \
                or not all(n is None or (isinstance(n, int) and not isinstance(n, bool))
                           for n in (state.submission, state.best_submission)):
            raise ValueError("a field has the wrong type")
        return state


def _finite(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def run_metadata(input_dir):
    """(phase number, submission number) from CodaLab v1's INPUT/metadata, None where absent."""
    path = os.path.join(input_dir, "metadata")
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _METADATA_LIMIT:
            return None, None
        with open(path, "rb") as fh:
            meta = yaml.safe_load(fh.read().decode("utf-8", "replace"))
    except (OSError, yaml.YAMLError, RecursionError):
        return None, None
    if not isinstance(meta, dict):
        return None, None
    return _number(meta.get("competition-phase")), _number(meta.get("competition-submission"))


def _number(value):
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def history(input_dir, phase, before):
    """[(submission number, its OUTPUT folder)] of the team's earlier submissions of ``phase``, oldest first."""
    if phase is None:
        return []
    folder = os.path.join(input_dir, "history", "%03d" % phase)
    if not os.path.isdir(folder):
        return []
    found = []
    for name in os.listdir(folder):
        number = _number(name)
        output = os.path.join(folder, name, "output")
        if number is not None and (before is None or number < before) and os.path.isdir(output):
            found.append((number, output))
    return sorted(found)


def previous(input_dir, key, keys=None, notes=None):
    """(state to continue, per-unit counts of its best submission or None) from the history, or (None, None).

    The history is made by the platform from earlier runs: what is not a regular file of a sane size, or does
    not read as a state of ``keys``, is skipped, and said in ``notes`` (a list) for the organizer.
    """
    phase, number = run_metadata(input_dir)
    entries = history(input_dir, phase, number)
    by_number = dict(entries)
    notes = [] if notes is None else notes
    for submission, output in reversed(entries):
        path = os.path.join(output, "private", STATE_FILE)
        if not os.path.lexists(path):
            continue
        try:
            state = State.from_json(_small_file(path, STATE_LIMIT).decode("utf-8"), keys)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            notes.append("history of submission %d: %s skipped (%s)" % (submission, STATE_FILE, exc))
            continue
        if state.key != key:
            continue
        units = None
        if state.best_submission in by_number:
            units_path = os.path.join(by_number[state.best_submission], "private", UNITS_FILE)
            try:
                units = _units_table(units_path)
            except (OSError, ValueError) as exc:
                notes.append("history of submission %d: %s skipped (%s)" % (state.best_submission, UNITS_FILE, exc))
        return state, units
    return None, None


STATE_LIMIT = 1 << 20          # a state is a few hundred bytes
UNITS_LIMIT = 1 << 31          # per-unit counts: units x counts x 8 bytes


def _small_file(path, limit):
    """The bytes of a regular file of at most ``limit`` bytes (ValueError otherwise: never a FIFO opened)."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > limit:
        raise ValueError("%d bytes, more than %d" % (info.st_size, limit))
    with open(path, "rb") as fh:
        return fh.read(limit + 1)


def _units_table(path):
    """A saved per-unit table: a 2-D float array whose header matches the file's size."""
    data = _small_file(path, UNITS_LIMIT)
    buffer = io.BytesIO(data)
    version = np.lib.format.read_magic(buffer)
    readers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    if version not in readers:
        raise ValueError("a .npy file of version %d.%d" % version)
    shape, fortran, dtype = readers[version](buffer)
    if dtype != np.dtype(float) or len(shape) != 2 or \
            int(np.prod(shape, dtype=object)) * dtype.itemsize != len(data) - buffer.tell():
        raise ValueError("not a table of this run's shape")
    return np.load(io.BytesIO(data), allow_pickle=False)


def rounded(value, step):
    """``value`` to the nearest multiple of ``step`` (half away from zero), without float dust.

    >>> rounded(0.7349, 0.01), rounded(0.735, 0.01), rounded(0.42, 0.05)
    (0.73, 0.74, 0.4)
    """
    decimals = max(0, -int(np.floor(np.log10(step))) + 1) if step < 1 else 0
    multiple = np.floor(abs(value) / step + 0.5 + 1e-9) * step
    return float(round(np.copysign(multiple, value), decimals + 6))


def step(state, scores, primary, settings, lower_is_better=False, margin=None, number=None, key=""):
    """The state after a submission scoring ``scores``; ``margin`` is the parameter-free Ladder's threshold.

    ``settings`` is the config's Feedback. A score is better when larger, or smaller with ``lower_is_better``.
    """
    sign = -1.0 if lower_is_better else 1.0
    value = float(scores[primary])
    first = state is None or primary not in state.released
    threshold = settings.ladder_step if settings.ladder == "fixed" else (margin or 0.0)
    # compared with the released best, as Algorithm 1 compares with R_{t-1}
    improved = first or sign * (value - state.released[primary]) > threshold
    if not improved:
        return State(key, number, state.best_submission, state.best, dict(state.released), False)
    if settings.ladder == "fixed":
        released = {k: rounded(v, settings.ladder_step) for k, v in scores.items()}
    else:
        released = {k: float(v) for k, v in scores.items()}
    return State(key, number, number, value, released, True)


def paired_margin(current, best, statistic, seed):
    """The parameter-free Ladder's margin: the standard error of statistic(current) - statistic(best).

    Without the best's counts (the first submission), the standard error of the score itself.
    """
    current = np.asarray(current, dtype=float)
    if best is None or np.shape(best) != current.shape:
        best = np.zeros_like(current)   # statistic(0) is a constant: the standard error of the score alone
    return resampling.paired_se(current, best, statistic, seed=seed, salt="ladder")


def units_bytes(table):
    """A table as .npy bytes (the format has no timestamp: the same table, the same bytes)."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(table, dtype=float), allow_pickle=False)
    return buffer.getvalue()
