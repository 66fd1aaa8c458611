"""Significance tiers of a final ranking: which teams the test set cannot tell apart.

Teams are taken best first. Each is tested against the team just above it
(the adjacent test the table shows) and against every member of the current
tier: a paired approximate randomization test over the board's units
(``scorer.resampling.paired_randomization``: each permutation swaps the two
teams' per-unit counts on every unit with probability 1/2 and recomputes both
scores from the sums). A team starts a new tier when it differs significantly
(p < alpha) from some member of the current tier, so that the members of one
tier are pairwise not significantly different; the tier's p-value is the
smallest p against its members (the one that decides).

No correction for multiple comparisons is made: a tier boundary says that
this pair differs at this level, as the adjacent tests of shared tasks do.
With m adjacent pairs, about alpha * m boundaries are expected by chance when
no team differs from its neighbour; the page says so.

>>> import numpy as np
>>> mean = lambda sums: sums[..., 0] / sums[..., 1]
>>> t = lambda rate: np.column_stack([np.arange(200) < rate * 200, np.ones(200)]).astype(float)
>>> [(r.team, r.tier) for r in tiers(["a", "b", "c"], {"a": t(0.9), "b": t(0.88), "c": t(0.5)}, mean)]
[('a', 1), ('b', 1), ('c', 2)]
"""
from dataclasses import dataclass
from typing import Optional

from scorer.public import DEFAULT_SEED, paired_randomization

DEFAULT_ALPHA = 0.05
DEFAULT_PERMUTATIONS = 2000


@dataclass
class TierRow:
    team: str
    tier: int
    score: float
    p_vs_previous: Optional[float]   # adjacent test (None for the first team)
    p_in_tier: Optional[float]       # smallest p against the members of the tier it was tested against


def salt(a, b):
    """The seed's salt of the test of teams ``a`` and ``b``: the same whichever comes first."""
    return "%s\0%s" % tuple(sorted((a, b)))


def tiers(ranked, tables, statistic, alpha=DEFAULT_ALPHA, permutations=DEFAULT_PERMUTATIONS, seed=DEFAULT_SEED,
          tested=None):
    """TierRows of ``ranked`` (team names, best first) from their per-unit tables (same units, same order).

    ``tested(pairs)``: the p-values of the pairs (a, b) of team names, in order, each the p-value of
    ``paired_randomization(tables[a], tables[b], statistic, permutations, seed, salt(a, b))``; by default computed
    here one after the other (rescore computes a team's pairs at once, in its worker processes, and keeps them).
    """
    cache = {}

    def here(pairs):
        return [paired_randomization(tables[a], tables[b], statistic, permutations, seed, salt=salt(a, b)).p_value
                for a, b in pairs]

    def p(pairs):
        """The p-value of each pair, the pairs not known yet computed at once."""
        todo = list(dict.fromkeys(pair for pair in pairs if pair not in cache))
        for (a, b), value in zip(todo, (tested or here)(todo)):
            cache[(a, b)] = cache[(b, a)] = value
        return [cache[pair] for pair in pairs]

    rows, members, tier = [], [], 0
    for position, team in enumerate(ranked):
        score = float(statistic(tables[team].sum(axis=0)))
        if position == 0:
            tier, members = 1, [team]
            rows.append(TierRow(team, tier, score, None, None))
            continue
        values = p([(ranked[position - 1], team)] + [(member, team) for member in members])
        previous, against = values[0], min(values[1:])
        if against < alpha:
            tier += 1
            members = [team]
        else:
            members.append(team)
        rows.append(TierRow(team, tier, score, previous, against))
    return rows
