"""What a run publishes of a board: the one policy that score.py, the EvalAI adapter and the organizer tools share.

- A sealed board (``report: sealed``) is not scored: every leaderboard key gets
  ``SEALED_VALUE`` and nothing is computed from any answer (its phase's
  reference data holds none).
- Board A's public values are rounded when ``feedback.round_to`` says so.

>>> round_all({"f1": 0.123456}, 3), round_all({"f1": 0.123456}, None)
({'f1': 0.123}, {'f1': 0.123456})
"""
from dataclasses import dataclass
from typing import Dict, Optional

from .api import ordered_keys, ordered_scores
from .tasks.base import Result

SEALED_VALUE = -1.0      # every leaderboard key of a sealed board while its phase runs


@dataclass
class Published:
    scores: Dict[str, float]       # the leaderboard's values, the primary key first, as published
    result: Optional[Result]       # the board's Result (None on a sealed board: nothing was scored)

    @property
    def sealed(self):
        return self.result is None


def publish(comp, submission):
    """The values ``submission`` gets on the board of ``comp``'s config, and the Result behind them."""
    cfg = comp.cfg
    if cfg.report == "sealed":
        return Published(placeholders(comp), None)
    result = comp.score(submission)
    return Published(round_all(ordered_scores(result.scores, cfg.primary_key), rounding(cfg)), result)


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
