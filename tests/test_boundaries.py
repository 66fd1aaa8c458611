"""Rules at their edges and the defaults the docs give: each expectation worked by hand from the rule as stated, at
a limit and one step past it, where the rest of the suite tries values well inside or well outside only (each test
here was seen to fail with the rule broken: docs/testing.md, the table of mistakes)."""
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


def test_organizer_boards_puts_40_percent_on_board_a_by_default(tmp_path):
    """`organizer boards` without --ratio-a: board A holds round(0.4 n) units (the default the docs give)."""
    import shutil

    import pandas as pd
    from helpers import ROOT, organizer

    comp = tmp_path / "comp"
    shutil.copytree(ROOT / "reference_data", comp / "reference_data")
    (comp / "reference_data" / "boards.csv").unlink()
    proc = organizer("boards", comp)
    assert proc.returncode == 0, proc.stderr
    boards = pd.read_csv(comp / "reference_data" / "boards.csv", dtype=str)
    n = len(pd.read_csv(ROOT / "reference_data" / "gold.csv", dtype=str))
    assert len(boards) == n and (boards["board"] == "A").sum() == round(0.4 * n)


def test_the_ladders_step_may_be_one_half_and_no_more(tmp_path):
    """`organizer ladder --step` takes a step in (0, 0.5]: 0.5 itself is a step (each released score a multiple
    of 0.5), 0.51 is refused with the organizer's exit code 2 and the range."""
    from helpers import organizer
    from test_ladder import KEYWORDS, exact, ladder_board, submissions
    from test_rescore_tiers import as_csv

    rows = submissions([0.30])[0]
    (tmp_path / "subs" / "alpha").mkdir(parents=True)
    (tmp_path / "subs" / "alpha" / "001.csv").write_text(as_csv(rows), encoding="utf-8")
    proc = organizer("ladder", KEYWORDS, tmp_path / "subs", tmp_path / "out", "--step", "0.5")
    assert proc.returncode == 0, proc.stderr
    assert float(ladder_board(tmp_path / "out")["alpha"]["macro_f1"]) == np.floor(exact(rows).mean() / 0.5 + 0.5) * 0.5
    proc = organizer("ladder", KEYWORDS, tmp_path / "subs", tmp_path / "other", "--step", "0.51")
    assert proc.returncode == 2 and "(0, 0.5]" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
        proc.stderr


def test_a_team_starts_a_tier_when_it_differs_from_any_member_not_only_its_neighbour():
    """Tiers as organizer/tiers.py states them: b is not told apart from a (p 0.5), so a and b share tier 1;
    c is not told apart from b (p 0.5) but is from a (p 0.01 < 0.05): c starts tier 2, its tier p-value the
    smallest against the members (0.01), its adjacent one 0.5."""
    from organizer.tiers import tiers

    p = {("a", "b"): 0.5, ("b", "c"): 0.5, ("a", "c"): 0.01}
    tables = {t: np.array([[1.0, 2.0]]) for t in "abc"}
    rows = tiers(["a", "b", "c"], tables, lambda sums: sums[..., 0] / sums[..., 1],
                 tested=lambda pairs: [p[tuple(sorted(pair))] for pair in pairs])
    assert [(r.team, r.tier, r.p_vs_previous, r.p_in_tier) for r in rows] == \
        [("a", 1, None, None), ("b", 1, 0.5, 0.5), ("c", 2, 0.5, 0.01)]


def test_public_scores_may_be_rounded_to_whole_numbers(tmp_path):
    """feedback.round_to takes 0 to 10 decimals: 0 rounds every public score to a whole number (score.py and
    the EvalAI adapter alike); 11 is the organizer's mistake (exit code 2)."""
    from helpers import run_score
    from test_published import both, phase

    exact, _ = both(tmp_path / "exact", "A")
    written, split = both(tmp_path / "rounded", "A", feedback={"round_to": 0})
    assert written == split == {k: float(round(v)) for k, v in exact.items()}
    proc = run_score(phase(tmp_path / "eleven", "A", feedback={"round_to": 11}).parent, tmp_path / "eleven" / "out")
    assert proc.returncode == 2 and "feedback.round_to" in proc.stderr, proc.stderr


def test_multilabel_takes_up_to_five_cutoffs(tmp_path):
    """options.k: an integer or a list of up to 5 distinct ones. Gold {a}, the list "b a": a is at rank 2, so
    AP@1 = 0 and AP@k = (1/2) / 1 for k >= 2. Five cutoffs are scored; a sixth is the organizer's mistake (2)."""
    from helpers import make_input, read_scores, run_score

    def run(ks, name):
        files = {"labels.txt": "a\nb\n", "gold.csv": "id,labels\n1,a\n",
                 "config.yaml": "task: multilabel\noptions: {k: %s}\n" % ks}
        return run_score(make_input(tmp_path, files, {"s.csv": "id,labels\n1,b a\n"}, name), tmp_path / (name + "_out"))

    proc = run([1, 2, 3, 4, 5], "five")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "five_out")
    assert [scores["map_at_%d" % k] for k in (1, 2, 3, 4, 5)] == [0.0, 0.5, 0.5, 0.5, 0.5]
    proc = run([1, 2, 3, 4, 5, 6], "six")
    assert proc.returncode == 2 and "options.k" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
        proc.stderr
