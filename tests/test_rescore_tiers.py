"""rescore's significance tiers, similar submissions and side-by-side boards, end to end on the keywords demo.

The keywords family's primary score (macro_f1) is the mean over samples of a per-sample F1, so the paired
test over units is ranx's Fisher randomization test on per-sample scores. The per-sample F1 is computed
here from the files with plain Python sets, and ranx (test-only) gives the p-values the tiers must agree
with.
"""
import csv
import random

import numpy as np
import pytest

from helpers import ROOT, organizer
from organizer import bundle
from organizer.tiers import tiers

COMPETITION = ROOT / "examples" / "keywords"
GOLD = COMPETITION / "reference_data" / "gold.csv"


def read(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def board_ids(board):
    return [r["id"] for r in read(COMPETITION / "reference_data" / "boards.csv") if r["board"] == board]


def dropped(rows, share, seed):
    """Each gold keyword kept with probability 1 - share."""
    rng = random.Random(seed)
    out = []
    for r in rows:
        words = [w for w in r["keywords"].split("_") if w and rng.random() >= share]
        out.append({"id": r["id"], "keywords": "_".join(words)})
    return out


def as_csv(rows):
    return "id,keywords\n" + "".join("%s,%s\n" % (r["id"], r["keywords"]) for r in rows)


def per_sample_f1(gold_rows, pred_rows, ids):
    """2|G & P| / (|G| + |P|) per sample (0 when both are empty; a missing row is an empty prediction)."""
    gold = {r["id"]: {w for w in r["keywords"].split("_") if w} for r in gold_rows}
    pred = {r["id"]: {w for w in r["keywords"].split("_") if w} for r in pred_rows}
    out = []
    for i in ids:
        g, p = gold[i], pred.get(i, set())
        out.append(2 * len(g & p) / (len(g) + len(p)) if g or p else 0.0)
    return np.array(out)


@pytest.fixture(scope="module")
def rescored(tmp_path_factory):
    base = tmp_path_factory.mktemp("tiers")
    gold = read(GOLD)
    teams = {"perfect": gold, "drop20": dropped(gold, 0.20, 1), "drop21": dropped(gold, 0.21, 2),
             "drop45": dropped(gold, 0.45, 3)}
    near = [dict(r) for r in teams["drop45"]]
    b_ids = set(board_ids("B"))
    changed = 0
    for r in near:   # change the answer of 2% of board B's samples
        if r["id"] in b_ids and changed < len(b_ids) // 50:
            r["keywords"] = "其他"
            changed += 1
    subs = base / "subs"
    subs.mkdir()
    for name, rows in teams.items():
        (subs / (name + ".csv")).write_text(as_csv(rows), encoding="utf-8")
    shuffled = teams["drop45"][::-1]
    (subs / "copy45.zip").write_bytes(bundle.zip_bytes({"x/answer.csv": as_csv(shuffled).encode("utf-8")}))
    (subs / "near45.csv").write_text(as_csv(near), encoding="utf-8")
    out = base / "out"
    proc = organizer("rescore", COMPETITION, "B", subs, out, "-j", "2", "--permutations", "20000")
    assert proc.returncode == 0, proc.stderr
    return teams, near, out, proc


def test_adjacent_p_values_agree_with_ranx_fisher_test(rescored):
    from ranx.statistical_tests import fisher_randomization_test

    teams, near, out, _ = rescored
    gold = read(GOLD)
    ids = board_ids("B")
    rows = read(out / "tiers.csv")
    order = [r["submission"] for r in rows]
    scores = {name: per_sample_f1(gold, teams.get(name, near if name == "near45" else teams["drop45"]), ids)
              for name in order}
    for r in rows:
        assert float(r["macro_f1"]) == pytest.approx(scores[r["submission"]].mean(), abs=1e-9)
    for previous, r in zip(rows, rows[1:]):
        theirs, _ = fisher_randomization_test(scores[previous["submission"]], scores[r["submission"]], 20000, 0.05, 42)
        # two Monte Carlo estimates of one p-value (ranx's draws vary from run to run): five standard errors
        p = (float(r["p_vs_previous"]) + theirs) / 2
        assert abs(float(r["p_vs_previous"]) - theirs) < 5 * np.sqrt(2 * p * (1 - p) / 20000) + 1e-3, (
            previous["submission"], r["submission"], r["p_vs_previous"], theirs)
    tier = {r["submission"]: int(r["tier"]) for r in rows}
    # perfect alone; 20% and 21% dropped not told apart; 45% dropped and its copy together; the near copy,
    # wrong on 2% more samples every time, is worse for sure
    assert tier["perfect"] == 1 and tier["drop20"] == tier["drop21"] == 2
    assert tier["drop45"] == tier["copy45"] == 3 and tier["near45"] == 4
    assert all(r["method"].startswith("paired approximate randomization, 20000 permutations") for r in rows)


def test_tiers_with_ranx_p_values_are_ours():
    """The tier rule on ranx's p-values and on ours gives the same tiers (per-unit scores of ten teams)."""
    from ranx.statistical_tests import fisher_randomization_test

    rng = np.random.default_rng(4)
    n = 400
    base = rng.random(n)
    levels = [0.0, 0.01, 0.02, 0.1, 0.11, 0.2, 0.26, 0.27, 0.4, 0.41]
    teams = {"t%d" % k: np.clip(base - level + rng.normal(0, 0.05, n), 0, 1) for k, level in enumerate(levels)}
    ranked = sorted(teams, key=lambda t: -teams[t].mean())
    tables = {t: np.column_stack([v, np.ones(n)]) for t, v in teams.items()}
    ours = tiers(ranked, tables, lambda s: s[..., 0] / s[..., 1], 0.05, 20000)
    tier, members, expected = 1, [ranked[0]], {ranked[0]: 1}
    for team in ranked[1:]:
        p = min(fisher_randomization_test(teams[m], teams[team], 20000, 0.05, 42)[0] for m in members)
        if p < 0.05:
            tier, members = tier + 1, [team]
        else:
            members.append(team)
        expected[team] = tier
    assert {r.team: r.tier for r in ours} == expected
    assert len(set(expected.values())) >= 4


def test_similar_submissions_are_flagged(rescored):
    _, _, out, _ = rescored
    rows = read(out / "similar.csv")
    identical = {frozenset((r["submission"], r["other"])) for r in rows if r["kind"] == "identical"}
    similar = {frozenset((r["submission"], r["other"])): float(r["agreement"]) for r in rows if r["kind"] == "similar"}
    assert identical == {frozenset(("copy45", "drop45"))}   # other order, zipped: the same answers
    n_b = len(board_ids("B"))
    changed = n_b // 50
    for pair in (("copy45", "near45"), ("drop45", "near45")):
        assert similar[frozenset(pair)] == pytest.approx(1 - changed / n_b, abs=1e-6)
    assert not any("drop20" in pair or "perfect" in pair for pair in similar)


def test_a_stricter_threshold_leaves_the_near_copy_alone(tmp_path, rescored):
    _, _, out, _ = rescored
    subs = out.parent / "subs"
    strict = tmp_path / "strict"
    proc = organizer("rescore", COMPETITION, "B", subs, strict, "-j", "2", "--similar", "0.995", "--compare")
    assert proc.returncode == 0, proc.stderr
    kinds = {r["kind"] for r in read(strict / "similar.csv")}
    assert kinds == {"identical"}
    assert "board A:" not in proc.stdout and "board B: 6 submissions" in proc.stdout   # --compare alone: board B


def test_the_similarity_threshold_may_be_1_and_no_more(tmp_path, rescored):
    """--similar takes a share in (0, 1]: at 1 only the identical pair is grouped (the near copy agrees on 98%
    of the units); 1.01 is the organizer's mistake (exit code 2, one line naming the range)."""
    _, _, out, _ = rescored
    subs = out.parent / "subs"
    proc = organizer("rescore", COMPETITION, "B", subs, tmp_path / "one", "-j", "2", "--similar", "1", "--compare")
    assert proc.returncode == 0, proc.stderr
    assert {r["kind"] for r in read(tmp_path / "one" / "similar.csv")} == {"identical"}
    proc = organizer("rescore", COMPETITION, "B", subs, tmp_path / "over", "--similar", "1.01")
    assert proc.returncode == 2 and "(0, 1]" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
        proc.stderr

def test_side_by_side_ranks_each_board_on_its_own(rescored):
    teams, _, out, _ = rescored
    rows = {r["submission"]: r for r in read(out / "side_by_side.csv")}
    gold = read(GOLD)
    for board in ("A", "B"):
        ids = board_ids(board)
        means = {name: per_sample_f1(gold, rows_, ids).mean()
                 for name, rows_ in teams.items()}
        assert float(rows["drop20"]["macro_f1 %s" % board]) == pytest.approx(means["drop20"], abs=1e-9)
        assert rows["perfect"]["rank %s" % board] == "1"
    page = (out / "leaderboard.html").read_text(encoding="utf-8")
    for section in ("Ranking on board B", "Boards side by side", "Similar submissions", "Every score on board B"):
        assert section in page


def test_tiers_from_the_workers_and_from_the_cache_are_those_computed_here(tmp_path, rescored):
    """rescore computes each team's tests at once in its workers and keeps them: the same tiers and p-values as
    the tests run here one after the other; a second run computes none again (here: it reads what the cache holds)."""
    import json
    import shutil

    from organizer.phase_data import assemble_reference
    from scorer.api import Competition

    _, _, out, _ = rescored
    rows = read(out / "tiers.csv")
    order = [r["submission"] for r in rows]
    runs = out / "runs" / "B"
    tables = {t: np.load(runs / t / "units.npy") for t in order}
    comp = Competition.open(str(assemble_reference(COMPETITION / "reference_data", "B", tmp_path / "ref", True)))
    group = json.loads((runs / order[0] / "result.json").read_text(encoding="utf-8"))["analysis"]["group"]
    here = tiers(order, tables, comp.family.statistic(group, comp.cfg.primary_key, comp.cfg), 0.05, 20000)
    assert [(r.team, str(r.tier), "" if r.p_vs_previous is None else str(round(r.p_vs_previous, 6)),
             "" if r.p_in_tier is None else str(round(r.p_in_tier, 6))) for r in here] == \
        [(r["submission"], r["tier"], r["p_vs_previous"], r["p_in_tier"]) for r in rows]
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    cache = json.loads((runs / "tiers_cache.json").read_text(encoding="utf-8"))
    assert len(cache) >= len(order) - 1
    (copy / "runs" / "B" / "tiers_cache.json").write_text(json.dumps({k: 0.5 for k in cache}), encoding="utf-8")
    proc = organizer("rescore", COMPETITION, "B", out.parent / "subs", copy, "-j", "2", "--permutations", "20000")
    assert proc.returncode == 0, proc.stderr
    again = read(copy / "tiers.csv")
    # every adjacent test was in the cache (pairs the first run never tested, across its tiers, are computed)
    assert [r["p_vs_previous"] for r in again[1:]] == ["0.5"] * (len(order) - 1)


def test_tiers_of_the_first_submissions_only(tmp_path, rescored):
    _, _, out, _ = rescored
    proc = organizer("rescore", COMPETITION, "B", out.parent / "subs", tmp_path / "out", "-j", "2", "--tiers-top",
                     "2", "--compare")
    assert proc.returncode == 0, proc.stderr
    assert [r["submission"] for r in read(tmp_path / "out" / "tiers.csv")] == ["perfect", "drop20"]
    board = read(tmp_path / "out" / "leaderboard.csv")
    assert [r["tier"] for r in board] == ["1", "2", "", "", "", ""]
    page = (tmp_path / "out" / "leaderboard.html").read_text(encoding="utf-8")
    assert "Tiers are given to the first 2 of the 6 scored submissions (--tiers-top)." in page


def test_similar_pairs_are_those_found_one_pair_at_a_time():
    """The teams compared at once against every team after them: the pairs and agreements a plain loop finds."""
    from organizer.similar import groups

    rng = np.random.default_rng(11)
    base = rng.integers(0, 5, 300).astype(np.uint64)
    answers = {}
    for k in range(40):
        a = base.copy()
        change = rng.random(300) < rng.choice([0.0, 0.02, 0.1, 0.5])
        a[change] = rng.integers(5, 9, int(change.sum())).astype(np.uint64)
        answers["t%02d" % k] = a
    board = rng.random(300) < 0.6
    found = {g.kind: set(g.pairs) for g in groups(answers, board, 0.9)}
    expected = {"identical": set(), "similar": set()}
    teams = sorted(answers)
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if all(x == y for x, y in zip(answers[a], answers[b])):
                expected["identical"].add((a, b, 1.0))
                continue
            kept = [x == y for x, y, on in zip(answers[a], answers[b], board) if on]
            if sum(kept) / len(kept) >= 0.9:
                expected["similar"].add((a, b, sum(kept) / len(kept)))
    assert expected["identical"] and expected["similar"]
    assert {k: v for k, v in found.items()} == {k: v for k, v in expected.items() if v}
