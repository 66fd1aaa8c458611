"""rescore on the regression demo: the RMSE of each submission on board B against scikit-learn, the paired
test between neighbours against scipy's permutation test (units' squared errors swapped between the two
submissions), the tiers, an identical submission found, and the primary score's interval."""
import csv
import json

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import root_mean_squared_error

from helpers import ROOT, organizer
from organizer import bundle

COMPETITION = ROOT / "examples" / "regression"
PERMUTATIONS = 20000


def read(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def board_ids(board):
    return [r["id"] for r in read(COMPETITION / "reference_data" / "boards.csv") if r["board"] == board]


def as_csv(ids, values):
    return "id,value\n" + "".join("%s,%r\n" % (i, float(v)) for i, v in zip(ids, values))


@pytest.fixture(scope="module")
def rescored(tmp_path_factory):
    base = tmp_path_factory.mktemp("regression_tiers")
    gold_rows = read(COMPETITION / "reference_data" / "gold.csv")
    ids = [r["id"] for r in gold_rows]
    gold = np.array([float(r["value"]) for r in gold_rows])
    rng = np.random.default_rng(11)
    spread = gold.std()
    teams = {"near": gold + rng.normal(0, 0.10 * spread, len(gold)),
             "near_too": gold + rng.normal(0, 0.102 * spread, len(gold)),
             "far": gold + rng.normal(0, 0.30 * spread, len(gold))}
    teams = {k: np.clip(v, 0, None) for k, v in teams.items()}     # RMSLE is scored: no negative value
    subs = base / "subs"
    subs.mkdir()
    for name, values in teams.items():
        (subs / (name + ".csv")).write_text(as_csv(ids, values), encoding="utf-8")
    order = np.arange(len(ids))[::-1]
    shuffled = as_csv([ids[i] for i in order], teams["far"][order])
    (subs / "far_copy.zip").write_bytes(bundle.zip_bytes({"x/answer.csv": shuffled.encode("utf-8")}))
    out = base / "out"
    proc = organizer("rescore", COMPETITION, "B", subs, out, "-j", "2", "--permutations", str(PERMUTATIONS))
    assert proc.returncode == 0, proc.stderr
    teams["far_copy"] = teams["far"]
    return dict(zip(ids, range(len(ids)))), gold, teams, out


def test_rmse_and_neighbours_p_values_agree_with_sklearn_and_scipy(rescored):
    position, gold, teams, out = rescored
    on_b = np.array([position[i] for i in board_ids("B")])
    rows = read(out / "tiers.csv")
    assert [r["submission"] for r in rows][:2] in (["near", "near_too"], ["near_too", "near"])
    for r in rows:
        assert float(r["rmse"]) == pytest.approx(root_mean_squared_error(gold[on_b], teams[r["submission"]][on_b]),
                                                 rel=1e-9)
    squared = {name: (values[on_b] - gold[on_b]) ** 2 for name, values in teams.items()}

    def rmse_gap(x, y, axis):
        return np.sqrt(np.mean(x, axis=axis)) - np.sqrt(np.mean(y, axis=axis))

    checked = 0
    for previous, r in zip(rows, rows[1:]):
        a, b = squared[previous["submission"]], squared[r["submission"]]
        if np.array_equal(a, b):
            continue
        theirs = stats.permutation_test((a, b), rmse_gap, permutation_type="samples", vectorized=True,
                                        n_resamples=PERMUTATIONS, alternative="two-sided",
                                        random_state=np.random.default_rng(3)).pvalue
        ours = float(r["p_vs_previous"])
        p = (ours + theirs) / 2      # two Monte Carlo estimates of one p-value: five standard errors apart at most
        assert abs(ours - theirs) < 5 * np.sqrt(2 * p * (1 - p) / PERMUTATIONS) + 1e-3, (r["submission"], ours, theirs)
        checked += 1
    assert checked == 2
    tier = {r["submission"]: int(r["tier"]) for r in rows}
    # 10% and 10.2% of the spread as noise: not told apart on 1,200 units; 30%: worse for sure; a copy with it
    assert tier["near"] == tier["near_too"] == 1 and tier["far"] == tier["far_copy"] == 2


def test_the_identical_copy_is_found(rescored):
    *_, out = rescored
    rows = read(out / "similar.csv")
    identical = {frozenset((r["submission"], r["other"])) for r in rows if r["kind"] == "identical"}
    assert identical == {frozenset(("far", "far_copy"))}


def test_the_primary_interval_covers_the_score_and_follows_a_plain_bootstrap(tmp_path, rescored):
    """score.py's interval of RMSE on the revealed board B against a bootstrap drawn here (numpy, 4000 draws of
    the units with replacement): the ends agree to a few Monte Carlo standard errors."""
    from organizer.phase_data import assemble_input
    from helpers import run_score

    position, gold, teams, _ = rescored
    on_b = np.array([position[i] for i in board_ids("B")])
    sub = tmp_path / "near.csv"
    ids = sorted(position, key=position.get)
    sub.write_text(as_csv(ids, teams["near"]), encoding="utf-8")
    inp = assemble_input(COMPETITION / "reference_data", "B", sub, tmp_path / "input", True)
    config = inp / "ref" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "intervals: {resamples: 1000, in_scores: true}\n",
                      encoding="utf-8")
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 0, proc.stderr
    scores = json.loads((tmp_path / "output" / "scores.json").read_text(encoding="utf-8"))
    low, high = scores["rmse_ci_low"], scores["rmse_ci_high"]
    squared = (teams["near"][on_b] - gold[on_b]) ** 2
    draws = np.random.default_rng(5).integers(0, len(squared), size=(4000, len(squared)))
    boot = np.sqrt(squared[draws].mean(axis=1))
    theirs = np.quantile(boot, [0.025, 0.975])
    width = theirs[1] - theirs[0]
    assert low < scores["rmse"] < high
    assert abs(low - theirs[0]) < 0.1 * width and abs(high - theirs[1]) < 0.1 * width, (low, high, theirs)
