"""Rules at their edges: each value worked by hand from the rule as the docs state it, at the limit and one step
past it, where the rest of the suite tries only values well inside or well outside."""
import numpy as np


def test_board_a_rounds_each_stratum_by_largest_remainder():
    """Strata of 3, 3 and 4 units at 40%: 1.2, 1.2 and 1.6 units wanted, 1 + 1 + 1 taken by flooring, and the
    one unit still short of round(0.4 * 10) = 4 goes to the largest remainder (0.6, the third stratum)."""
    from scorer.boards import assign

    units = ["u%d" % i for i in range(10)]
    strata = ["a"] * 3 + ["b"] * 3 + ["c"] * 4
    table = assign(units, strata, 0.4, seed=3)
    on_a = table.assign(stratum=strata).query("board == 'A'")["stratum"].value_counts().to_dict()
    assert on_a == {"a": 1, "b": 1, "c": 2}
    # remainders 0.8, 0.4 and 0.8 (strata of 2, 1 and 2 at 40%): two units short, the two largest remainders
    table = assign(units[:5], ["a", "a", "b", "c", "c"], 0.4, seed=3)
    on_a = table.assign(stratum=["a", "a", "b", "c", "c"]).query("board == 'A'")["stratum"].value_counts()
    assert on_a.to_dict() == {"a": 1, "c": 1}
