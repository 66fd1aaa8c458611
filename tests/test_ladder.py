"""The Ladder on board A, on CodaLab v1's history layout; rounding and hidden per-class counts.

A team's submissions are scored one after another by the emulated v1 worker (tests/platform_workers.py):
each run gets INPUT/history/<phase>/<n>/output/ holding the private_output.zip of the team's earlier runs,
as the site laid it out. The released scores are checked against the Ladder worked here from the exact
per-sample scores (computed with plain Python sets): Algorithm 1 of Blum and Hardt for the fixed step,
and the authors' rule (std of the per-sample differences / sqrt(n)) for the parameter-free Ladder.
"""
import json
import os
import shutil

import numpy as np
import pytest
import yaml

from helpers import ROOT, read_scores
from organizer import bundle
from platform_workers import run_v1
from scorer.publish import ladder
from scorer.config import Feedback
from test_rescore_tiers import as_csv, board_ids, dropped, per_sample_f1, read

KEYWORDS = ROOT / "examples" / "keywords"
GOLD = KEYWORDS / "reference_data" / "gold.csv"


# -- the mechanism by hand ------------------------------------------------------------------------
def released(sequence, step=0.01, lower=False):
    settings = Feedback(ladder="fixed", ladder_step=step)
    state, out = None, []
    for k, value in enumerate(sequence, start=1):
        state = ladder.step(state, {"s": value, "other": value / 2}, "s", settings, lower, number=k)
        out.append((state.released["s"], state.improved))
    return out


def test_fixed_ladder_by_hand():
    # 0.5 first: released 0.50; 0.505 is not above 0.50 + 0.01; 0.52 is: released 0.52; 0.525 is not above
    # 0.53; 0.531 is: rounded to 0.53; 0.6 -> 0.60
    got = released([0.5, 0.505, 0.52, 0.525, 0.531, 0.6])
    assert got == [(0.5, True), (0.5, False), (0.52, True), (0.52, False), (0.53, True), (0.6, True)]
    # smaller is better (coverage error): mirrored
    assert released([3.0, 2.995, 2.9], 0.05, lower=True) == [(3.0, True), (3.0, False), (2.9, True)]


def test_a_new_score_is_compared_with_the_released_score_not_the_exact_best():
    """Algorithm 1 compares s_t with R_{t-1}, the score released last (rounded), not the best exact score."""
    # 0.7349 is released as 0.73; 0.742 > 0.73 + 0.01, though only 0.0071 above the exact 0.7349: released 0.74
    assert released([0.7349, 0.742]) == [(0.73, True), (0.74, True)]
    # 0.7251 is released as 0.73; 0.7398 is not above 0.73 + 0.01 = 0.74, though 0.0147 above the exact 0.7251
    assert released([0.7251, 0.7398]) == [(0.73, True), (0.73, False)]
    # smaller is better: 2.96 is released as 2.95; 2.905 is not below 2.95 - 0.05 = 2.90 (0.055 below 2.96)
    assert released([2.96, 2.905], 0.05, lower=True) == [(2.95, True), (2.95, False)]
    # the margin is strict: exactly one step above the released score is not enough (binary fractions: no dust)
    assert released([0.5, 0.75, 0.8125], 0.25) == [(0.5, True), (0.5, False), (0.75, True)]
    # the state keeps the best submission's exact score beside the released one
    settings = Feedback(ladder="fixed", ladder_step=0.01)
    state = ladder.step(ladder.step(None, {"s": 0.7349}, "s", settings, number=1), {"s": 0.742}, "s", settings,
                        number=2)
    assert (state.best, state.best_submission, state.released) == (0.742, 2, {"s": 0.74})


def test_other_keys_are_those_of_the_released_submission():
    settings = Feedback(ladder="fixed", ladder_step=0.01)
    first = ladder.step(None, {"s": 0.604, "r": 0.333}, "s", settings, number=1)
    kept = ladder.step(first, {"s": 0.605, "r": 0.9}, "s", settings, number=2)
    assert first.released == {"s": 0.6, "r": 0.33} and kept.released == first.released
    assert kept.best_submission == 1 and not kept.improved


def test_rounded_to_a_step():
    assert [ladder.rounded(v, 0.01) for v in (0.004999, 0.005, 0.6649, 0.665, 1.0)] == [0.0, 0.01, 0.66, 0.67, 1.0]
    assert ladder.rounded(0.437, 0.05) == 0.45 and ladder.rounded(0.4249, 0.05) == 0.4


# -- on CodaLab v1's history layout ---------------------------------------------------------------
def competition(tmp_path, feedback):
    copy = tmp_path / "keywords"
    shutil.copytree(KEYWORDS, copy)
    path = copy / "reference_data" / "board_A.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["feedback"] = feedback
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return bundle.program_zip(copy), bundle.reference_zip(copy, "A")


def submissions(shares):
    gold = read(GOLD)
    return [dropped(gold, share, seed) for seed, share in enumerate(shares)]


def run_team(tmp_path, program, reference, teams, phase=1, history=None):
    """Score the team's submissions in order, each run seeing the private outputs of the earlier ones."""
    history = dict(history or {})
    runs = []
    for number, rows in enumerate(teams, start=1):
        sub = bundle.zip_bytes({"answer.csv": as_csv(rows).encode("utf-8")})
        run = run_v1(tmp_path / ("run%d" % number), program, reference, sub, phase=phase, submission=number,
                     history=history)
        assert run.returncode == 0, run.stderr
        runs.append(run)
        history[(phase, number)] = bundle.zip_bytes(run.private_zip)
    return runs


def exact(rows):
    return per_sample_f1(read(GOLD), rows, board_ids("A"))


def test_fixed_ladder_through_the_history(tmp_path):
    program, reference = competition(tmp_path, {"ladder": "fixed", "ladder_step": 0.01})
    teams = submissions([0.30, 0.295, 0.10, 0.40, 0.0])
    runs = run_team(tmp_path, program, reference, teams)
    truth = [exact(rows).mean() for rows in teams]
    expected, best = [], None
    for value in truth:   # Algorithm 1, with scores (larger is better)
        if best is None or value > best + 0.01:
            best = float(np.floor(value / 0.01 + 0.5) * 0.01)
        expected.append(best)
    shown = [read_scores_text(run.scores_txt)["macro_f1"] for run in runs]
    assert shown == pytest.approx(expected, abs=1e-9)
    assert len(set(shown)) < len(set(truth))   # the ladder held some back
    for run, value in zip(runs, shown):
        page = run.detailed_results.decode("utf-8")
        assert "the Ladder" in page and "Samples" not in page and "interval" not in page
        assert not any(name.startswith("private/") for name in run.output_zip)
        assert "%.4f" % value in page
        state = ladder.State.from_json(run.private_zip["private/ladder.json"].decode("utf-8"))
        assert state.released["macro_f1"] == pytest.approx(value, abs=1e-12)
    # every other key is the released submission's, rounded to the step
    second = read_scores_text(runs[1].scores_txt)
    assert second == read_scores_text(runs[0].scores_txt)


def read_scores_text(text):
    return {line.split(":")[0]: float(line.split(":")[1]) for line in text.splitlines() if line}


def test_parameter_free_ladder_follows_the_authors_rule(tmp_path):
    program, reference = competition(tmp_path, {"ladder": "parameter_free"})
    # a first submission; one about as good (a different random draw); a clearly better one; a worse one
    teams = submissions([0.30, 0.30, 0.15, 0.35])
    runs = run_team(tmp_path, program, reference, teams)
    scores = [exact(rows) for rows in teams]
    n = len(scores[0])
    expected, best = [], None
    for k, s in enumerate(scores):
        if best is None:
            best = k
        else:
            threshold = np.std(s - scores[best], ddof=1) / np.sqrt(n)
            gain = s.mean() - scores[best].mean()
            assert abs(gain - threshold) > 0.2 * threshold   # far from the edge: the bootstrap's SE decides alike
            if gain > threshold:
                best = k
        expected.append(scores[best].mean())
    shown = [read_scores_text(run.scores_txt)["macro_f1"] for run in runs]
    assert shown == pytest.approx(expected, abs=1e-9)
    improved = [ladder.State.from_json(r.private_zip["private/ladder.json"].decode("utf-8")).improved for r in runs]
    assert improved == [True, False, True, False]
    # the per-unit counts of a new best are kept for the next runs, and only then
    assert ["private/ladder_units.npy" in r.private_zip for r in runs] == improved


def test_history_of_another_phase_or_config_is_not_continued(tmp_path):
    program, reference = competition(tmp_path, {"ladder": "fixed", "ladder_step": 0.01})
    teams = submissions([0.10, 0.30])
    good = run_team(tmp_path / "good", program, reference, teams[:1])
    # the same team's run in phase 2 and a run under another config are in the history: neither counts
    other_program, other_reference = competition(tmp_path / "other", {"ladder": "fixed", "ladder_step": 0.05})
    other = run_team(tmp_path / "other_run", other_program, other_reference, teams[:1])
    history = {(2, 1): bundle.zip_bytes(good[0].private_zip), (1, 1): bundle.zip_bytes(other[0].private_zip)}
    sub = bundle.zip_bytes({"answer.csv": as_csv(teams[1]).encode("utf-8")})
    run = run_v1(tmp_path / "second", program, reference, sub, phase=1, submission=2, history=history)
    assert run.returncode == 0, run.stderr
    worse = float(np.floor(exact(teams[1]).mean() / 0.01 + 0.5) * 0.01)
    assert read_scores_text(run.scores_txt)["macro_f1"] == pytest.approx(worse, abs=1e-9)  # a first submission


def test_without_history_every_submission_is_a_first_one(tmp_path):
    """Today's CodaLab v1 writes an empty history list: the Ladder then rounds each score to its step."""
    program, reference = competition(tmp_path, {"ladder": "fixed", "ladder_step": 0.01})
    teams = submissions([0.10, 0.30])
    for k, rows in enumerate(teams):
        sub = bundle.zip_bytes({"answer.csv": as_csv(rows).encode("utf-8")})
        run = run_v1(tmp_path / ("r%d" % k), program, reference, sub, phase=1, submission=k + 1, history={})
        value = float(np.floor(exact(rows).mean() / 0.01 + 0.5) * 0.01)
        assert read_scores_text(run.scores_txt)["macro_f1"] == pytest.approx(value, abs=1e-9)


# -- rounding and per-class counts ------------------------------------------------------------------
def test_rounding_and_hidden_class_counts(tmp_path):
    program, reference = competition(tmp_path, {"round_to": 2, "class_counts": False})
    teams = submissions([0.2])
    run = run_team(tmp_path, program, reference, teams)[0]
    scores = read_scores_text(run.scores_txt)
    assert scores["macro_f1"] == pytest.approx(round(exact(teams[0]).mean(), 2), abs=1e-12)
    assert all(abs(v * 100 - round(v * 100)) < 1e-9 for v in scores.values())
    page = run.detailed_results.decode("utf-8")
    assert "rounded to 2 decimals" in page and "By gold-set size" not in page and "Samples" in page
    import re
    low, high = map(float, re.search(r"\[(\d\.\d{4}), (\d\.\d{4})\]", page).groups())   # the interval,
    assert low < scores["macro_f1"] < high and round(low * 100, 6) % 1 == 0 == round(high * 100, 6) % 1  # rounded too


def test_feedback_settings_belong_to_board_a(tmp_path):
    from scorer.config import parse_config
    from scorer.errors import ConfigError
    from scorer.tasks import families

    raw = yaml.safe_load((KEYWORDS / "reference_data" / "board_B.yaml").read_text(encoding="utf-8"))
    raw["feedback"] = {"ladder": "fixed"}
    with pytest.raises(ConfigError) as info:
        parse_config(raw, families())
    assert "feedback" in info.value.message and "board A only" in info.value.message


# -- the state kept by the organizer tool ------------------------------------------------------------
def ladder_board(out):
    return {r["team"]: r for r in read(out / "ladder.csv")}


def test_the_organizer_tool_keeps_the_state(tmp_path):
    from helpers import organizer

    subs = tmp_path / "subs"
    teams = {"alpha": submissions([0.30, 0.295, 0.10]), "beta": submissions([0.50, 0.05])}
    for team, rows in teams.items():
        for k, sub in enumerate(rows):
            (subs / team).mkdir(parents=True, exist_ok=True)
            (subs / team / ("%03d.csv" % (k + 1))).write_text(as_csv(sub), encoding="utf-8")
    out = tmp_path / "out"
    proc = organizer("ladder", KEYWORDS, subs, out, "--step", "0.01")
    assert proc.returncode == 0, proc.stderr

    def expected(rows):
        best = None
        for value in (exact(r).mean() for r in rows):
            if best is None or value > best + 0.01:
                best = float(np.floor(value / 0.01 + 0.5) * 0.01)
        return best

    board = ladder_board(out)
    for team, rows in teams.items():
        assert float(board[team]["macro_f1"]) == pytest.approx(expected(rows), abs=1e-9)
        assert board[team]["submissions"] == str(len(rows))
    assert board["beta"]["rank"] == "1" and board["beta"]["best submission"] == "002.csv"
    page = (out / "ladder.html").read_text(encoding="utf-8")
    assert "the Ladder" in page and "beats the team&#x27;s shown score by more than 0.01" in page
    # a new submission: only it is scored, from the kept state
    more = submissions([0.0])[0]
    (subs / "alpha" / "004.csv").write_text(as_csv(more), encoding="utf-8")
    state = json.loads((out / "ladder_state.json").read_text(encoding="utf-8"))
    assert len(state["alpha"]["done"]) == 3
    assert organizer("ladder", KEYWORDS, subs, out, "--step", "0.01").returncode == 0
    assert float(ladder_board(out)["alpha"]["macro_f1"]) == pytest.approx(expected(teams["alpha"] + [more]), abs=1e-9)
    assert len(json.loads((out / "ladder_state.json").read_text(encoding="utf-8"))["alpha"]["done"]) == 4
    # an earlier file replaced: the team is replayed from its first submission
    (subs / "alpha" / "001.csv").write_text(as_csv(more), encoding="utf-8")
    assert organizer("ladder", KEYWORDS, subs, out, "--step", "0.01").returncode == 0
    replayed = [more] + teams["alpha"][1:] + [more]
    assert float(ladder_board(out)["alpha"]["macro_f1"]) == pytest.approx(expected(replayed), abs=1e-9)
    assert ladder_board(out)["alpha"]["best submission"] == "001.csv"


def test_the_organizer_tool_runs_the_parameter_free_ladder(tmp_path):
    from helpers import organizer

    subs = tmp_path / "subs"
    for k, rows in enumerate(submissions([0.30, 0.30, 0.15])):
        (subs / "team").mkdir(parents=True, exist_ok=True)
        (subs / "team" / ("%03d.csv" % (k + 1))).write_text(as_csv(rows), encoding="utf-8")
    proc = organizer("ladder", KEYWORDS, subs, tmp_path / "out", "--parameter-free")
    assert proc.returncode == 0, proc.stderr
    row = ladder_board(tmp_path / "out")["team"]
    assert float(row["macro_f1"]) == pytest.approx(exact(submissions([0.30, 0.30, 0.15])[2]).mean(), abs=1e-9)
    assert row["best submission"] == "003.csv"


def test_a_local_run_with_the_ladder_is_a_first_submission(tmp_path):
    """No INPUT/metadata (a local or Codabench run): no history to read, the score rounded to the step."""
    from helpers import run_score

    program, reference = competition(tmp_path, {"ladder": "fixed", "ladder_step": 0.05})
    rows = submissions([0.2])[0]
    inp = tmp_path / "input"
    with __import__("zipfile").ZipFile(__import__("io").BytesIO(reference)) as archive:
        archive.extractall(inp / "ref")
    (inp / "res").mkdir(parents=True)
    (inp / "res" / "a.csv").write_text(as_csv(rows), encoding="utf-8")
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    value = float(np.floor(exact(rows).mean() / 0.05 + 0.5) * 0.05)
    assert read_scores(tmp_path / "out")["macro_f1"] == pytest.approx(value, abs=1e-9)
    assert not (tmp_path / "out" / "private").exists()


DAMAGED_STATES = {
    "a number": b"5", "a string": b'"state"', "null": b"null", "NaN": b"NaN", "released inf": None,
    "released a string": None, "a key with a colon": None, "nested deep": b"[" * 100000 + b"]" * 100000,
    "not UTF-8": b"\xff\xfe{", "too large": b" " * (ladder.STATE_LIMIT + 1),
}


def _damaged(valid, kind):
    state = json.loads(valid)
    if kind == "released inf":
        state["released"] = {k: float("inf") for k in state["released"]}
    elif kind == "released a string":
        state["released"] = {k: "0.5" for k in state["released"]}
    elif kind == "a key with a colon":
        state["released"] = dict(state["released"], **{"macro_f1: 1.0\nx": 1.0})
    else:
        return DAMAGED_STATES[kind]
    return json.dumps(state).encode("utf-8")


@pytest.mark.parametrize("kind", sorted(DAMAGED_STATES) + ["a FIFO", "units claiming 10^12 rows"])
def test_a_damaged_history_is_skipped_with_a_note_for_the_organizer(tmp_path, kind):
    """INPUT/history is made by the platform: whatever it holds, the run never fails nor waits; a damaged state
    is skipped (the submission is then the team's first) and said in private/history_notes.txt."""
    program, reference = competition(tmp_path, {"ladder": "parameter_free"})
    teams = submissions([0.30, 0.10])
    private = dict(run_team(tmp_path / "first", program, reference, teams[:1])[0].private_zip)
    if kind == "units claiming 10^12 rows":
        text = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000, 3), }".ljust(117) + "\n"
        private["private/ladder_units.npy"] = b"\x93NUMPY\x01\x00" + bytes([len(text), 0]) + text.encode("ascii")
    elif kind != "a FIFO":
        private["private/ladder.json"] = _damaged(private["private/ladder.json"], kind)
    state_file = "001/001/output/private/ladder.json"

    def fifo(inp):
        (inp / "history" / state_file).unlink()
        os.mkfifo(inp / "history" / state_file)

    sub = bundle.zip_bytes({"answer.csv": as_csv(teams[1]).encode("utf-8")})
    run = run_v1(tmp_path / "second", program, reference, sub, phase=1, submission=2,
                 history={(1, 1): bundle.zip_bytes(private)}, prepare=fifo if kind == "a FIFO" else None)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    notes = run.private_zip["private/history_notes.txt"].decode("utf-8")
    if kind == "units claiming 10^12 rows":   # the state is sound, its best's counts are not: they are not used
        assert "ladder_units.npy skipped" in notes
        return
    alone = run_v1(tmp_path / "alone", program, reference, sub, phase=1, submission=1)
    assert run.scores_txt == alone.scores_txt   # scored as the team's first submission
    assert "ladder.json skipped" in notes
