"""Submissions of different teams that are the same, or nearly: identical answers, or agreement on almost every unit.

Each submission is read by the scoring engine and reduced to one digest per
unit of its answer (``family.unit_answers``: the answer as scored, so the row
order, the file format, the encoding, a zip or repeated keywords change
nothing). Two teams are

- *identical* when every unit's digest is the same (the whole test set);
- *similar* when they agree on at least ``threshold`` of the units of the
  board being ranked (default 0.95).

Groups are the connected teams (a-b and b-c similar: one group a, b, c), each
pair listed with its agreement.

>>> import numpy as np
>>> answers = {"a": np.array([1, 2, 3, 4], np.uint64), "b": np.array([1, 2, 3, 4], np.uint64),
...            "c": np.array([1, 2, 3, 9], np.uint64), "d": np.array([5, 6, 7, 8], np.uint64)}
>>> [(g.kind, g.teams) for g in groups(answers, np.ones(4, bool), threshold=0.75)]
[('identical', ('a', 'b')), ('similar', ('a', 'b', 'c'))]
"""
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

import numpy as np

DEFAULT_THRESHOLD = 0.95


@dataclass
class Group:
    kind: str                        # "identical" (every unit) or "similar" (>= threshold of the board's units)
    teams: Tuple[str, ...]
    pairs: List[Tuple[str, str, float]] = field(default_factory=list)   # (team, team, agreement on the board)


def agreement(a, b, board):
    """Share of the board's units where the two answers are the same."""
    on = np.asarray(board, dtype=bool)
    return float((a[on] == b[on]).mean()) if on.any() else 1.0


def _components(teams, edges):
    parent = {t: t for t in teams}

    def root(t):
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    for a, b in edges:
        parent[root(a)] = root(b)
    found: Dict[str, List[str]] = {}
    for t in teams:
        found.setdefault(root(t), []).append(t)
    return [tuple(sorted(members)) for members in found.values() if len(members) > 1]


def groups(answers, board, threshold=DEFAULT_THRESHOLD):
    """Groups of identical teams, then groups linked by similar (not identical) pairs.

    Each team is compared with every team after it at once (one row of a matrix of answers against the rows
    below it): a thousand teams are half a million pairs, in seconds.
    """
    teams = sorted(answers)
    identical, similar = [], []
    if teams:
        on = np.asarray(board, dtype=bool)
        matrix = np.stack([np.asarray(answers[t]) for t in teams])
        shown = matrix[:, on]
        for i in range(len(teams) - 1):
            same = (matrix[i + 1:] == matrix[i]).all(axis=1)
            share = (shown[i + 1:] == shown[i]).mean(axis=1) if on.any() else np.ones(len(teams) - 1 - i)
            for j in np.flatnonzero(same).tolist():
                identical.append((teams[i], teams[i + 1 + j], 1.0))
            for j in np.flatnonzero(~same & (share >= threshold)).tolist():
                similar.append((teams[i], teams[i + 1 + j], float(share[j])))
    out = []
    for kind, pairs in (("identical", identical), ("similar", similar)):
        for members in sorted(_components(teams, [(a, b) for a, b, _ in pairs])):
            out.append(Group(kind, members, [p for p in pairs if p[0] in members]))
    return out
