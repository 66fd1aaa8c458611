"""What a run publishes of a board: the one policy that score.py, the EvalAI adapter and the organizer tools share.

- A sealed board (``report: sealed``) is not scored: every leaderboard key gets
  ``SEALED_VALUE`` and nothing is computed from any answer (its phase's
  reference data holds none).
- Board A's public values are rounded when ``feedback.round_to`` says so.
- The primary score's bootstrap interval (``intervals``) is drawn from the
  per-unit counts of its Units group (their groups of equal rows,
  ``Units.groups``), with the family's formula of the sums
  (``TaskFamily.statistic``), and rounded as the scores are.
- With the Ladder (``feedback.ladder`` on board A, or the organizer's own
  settings), the values published are those the Ladder releases, given the
  team's earlier state (``History``; scorer/publish/ladder.py), rounded to
  ``round_to``; no interval is shown then.

>>> round_all({"f1": 0.123456}, 3), round_all({"f1": 0.123456}, None)
({'f1': 0.123}, {'f1': 0.123456})
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from .. import background, resampling
from ..outputs import ordered_keys, ordered_scores
from ..tasks.base import Result
from . import ladder

SEALED_VALUE = -1.0      # every leaderboard key of a sealed board while its phase runs
OVERLAP_UNITS = 1 << 22  # above this many units the interval is drawn after the report's sections, to spare memory


@dataclass
class History:
    """What the Ladder continues: the team's state after its last submission and its best one's per-unit counts."""

    state: Optional[ladder.State] = None
    best_units: Optional[np.ndarray] = None
    number: Optional[int] = None   # this submission's number (None: unknown)
    key: str = ""                  # the settings a state belongs to (a state of other settings is not continued)
    notes: List[str] = field(default_factory=list)   # what the history held that is no state of this run (skipped)


@dataclass
class Published:
    scores: Dict[str, float]       # the leaderboard's values, the primary key first, as published
    result: Optional[Result]       # the board's Result (None on a sealed board: nothing was scored)
    bounds: Optional[Tuple[float, float]] = None   # the primary score's interval, rounded as the scores
    summed: int = 0                                 # units the interval summed by the central limit theorem
    ladder_state: Optional[ladder.State] = None    # the Ladder's state after this submission (None: no Ladder)
    table: Optional[np.ndarray] = None             # the primary's per-unit counts when the Ladder needed them
    ladder_history_notes: List[str] = field(default_factory=list)   # for the organizer: the history's skipped parts

    @property
    def sealed(self):
        return self.result is None

    def written(self, cfg):
        """What scores.txt and scores.json hold: the scores, then the interval's keys when the config asks."""
        out = dict(self.scores)
        if self.bounds is not None:
            out.update(zip(cfg.intervals.keys(cfg.primary_key), self.bounds))
        return out


def publish(comp, submission, history=None, settings=None, interval=True, sections=False):
    """What ``submission`` publishes on the board of ``comp``'s config.

    ``settings``: the Ladder's (a config Feedback); by default the config's own on board A, none elsewhere.
    ``history``: the team's earlier state for the Ladder (None: a first submission). ``interval``: draw the
    primary score's interval (not on a Ladder board, whose page shows the released scores only). ``sections``:
    also build the report's sections (not on a Ladder board), the interval being drawn meanwhile on a second
    thread.
    """
    cfg = comp.cfg
    if cfg.report == "sealed":
        return Published(placeholders(comp), None)
    result = comp.score(submission)
    exact = ordered_scores(result.scores, cfg.primary_key)
    settings = settings if settings is not None else ladder_settings(cfg)
    if settings is not None:
        history = history or History()
        state, table = release(comp, result, exact, history, settings)
        return Published(round_all(ordered_scores(state.released, cfg.primary_key), settings.round_to), result,
                         ladder_state=state, table=table, ladder_history_notes=list(history.notes))
    digits = rounding(cfg)
    group = result.units_of(cfg.primary_key)
    if interval and sections and callable(result.sections) and (group is None or group.n <= OVERLAP_UNITS):
        # the sections take time: the interval meanwhile (up to OVERLAP_UNITS: both hold per-unit temporaries)
        drawing = background.start(primary_interval, comp, result)
        result.report_sections()
        drawn = drawing.result()
    else:   # the sections first: what they alone need (a family's sorts, say) is let go before the interval
        if sections:
            result.report_sections()
        drawn = primary_interval(comp, result) if interval else None
    if drawn is None:
        return Published(round_all(exact, digits), result)
    bounds = (drawn.low, drawn.high) if digits is None else (round(drawn.low, digits), round(drawn.high, digits))
    return Published(round_all(exact, digits), result, bounds, summed=drawn.summed)


def primary_interval(comp, result):
    """The primary score's resampling.Interval on the scored board, or None (turned off, or no sum over units)."""
    cfg = comp.cfg
    group = result.units_of(cfg.primary_key)
    if group is None or cfg.intervals.resamples <= 0:
        return None
    # the table's groups of equal rows: a family that declares them (``Units.code``) builds one row per group
    return resampling.interval_of(group.groups(), comp.family.statistic(group.name, cfg.primary_key, cfg),
                                  cfg.intervals.resamples, cfg.intervals.level, cfg.intervals.seed, salt=group.name)


def ladder_settings(cfg):
    """The config's Ladder (its Feedback) when this board runs one: board A only; else None."""
    return cfg.feedback if cfg.board == "A" and cfg.feedback.ladder != "none" else None


def release(comp, result, exact, history, settings):
    """(the Ladder's state after this submission, the primary's per-unit counts or None).

    The parameter-free Ladder's margin is the paired standard error of the difference with the best
    submission's counts; the fixed Ladder's is its step (scorer/publish/ladder.py).
    """
    cfg = comp.cfg
    group = result.units_of(cfg.primary_key)
    table, margin = None, None
    if settings.ladder == "parameter_free" and group is not None:
        table = group.make()
        if history.state is not None:
            best = None if history.best_units is None else comp.family.saved_table(group.name, history.best_units)
            if best is not None and np.shape(best) != np.shape(table):
                # another program's or board's layout: the margin is then a first submission's, and the organizer
                # is told (private/history_notes.txt)
                history.notes.append("history: the best submission's per-unit counts have the shape %s, this run's "
                                     "%s; the margin is that of a first submission (the score's own standard error)"
                                     % ("x".join(map(str, np.shape(best))), "x".join(map(str, np.shape(table)))))
                best = None
            margin = ladder.paired_margin(table, best,
                                          comp.family.statistic(group.name, cfg.primary_key, cfg), cfg.intervals.seed)
    state = ladder.step(history.state, exact, cfg.primary_key, settings,
                        cfg.primary_key in comp.family.lower_is_better, margin, history.number, history.key)
    return state, table


def placeholders(comp):
    """``SEALED_VALUE`` for every leaderboard key, the primary key first."""
    keys = ordered_keys(comp.family.leaderboard_keys(comp.cfg.options), comp.cfg.primary_key)
    return {key: SEALED_VALUE for key in keys}


def rounding(cfg):
    """The decimals public scores are rounded to on this board (None: not rounded)."""
    return cfg.feedback.round_to if cfg.board == "A" else None


def round_all(values, digits):
    """Every value rounded to ``digits`` decimals (None: as they are), as plain floats."""
    return {k: round(float(v), digits) for k, v in values.items()} if digits is not None else dict(values)
