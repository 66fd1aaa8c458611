"""The reveal ends with each team's real board-B score on the leaderboard, for the submission the platform's rule
selects, on emulations of Codabench's and EvalAI's APIs (fake_platforms.py cites the functions they follow).

While board B is sealed every submission gets the placeholder -1. ``python3 -m organizer reveal ... --codabench``
replaces the phase's reference data, re-runs each team's leaderboard submission and puts the re-run on the board;
``--evalai`` scores each submission here and stores the scores through the host API, then opens the split. The
real scores are checked against seqeval and scikit-learn (the bank oracle), not against the program.
"""
import contextlib
import io
import json
import os
from unittest import mock

import pytest

from fake_platforms import FakeCodabench, FakeEvalAI
from helpers import ROOT
from platform_workers import participant_zip
from test_adapters import Challenge
from bundle_shared import bank_oracle, board_ids, built, members, phases

from organizer import reveal, reveal_evalai

SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"
GOLD = ROOT / "reference_data" / "gold.csv"


def spoiled(tmp_path):
    """The sample with every class set to 2: valid, and scored differently."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "spoiled.csv"
    path.write_text("\n".join(lines[:1] + [l.rsplit(",", 1)[0] + ",2" for l in lines[1:]]) + "\n", encoding="utf-8")
    return path


def oracle(path):
    return bank_oracle(GOLD, path, board_ids(ROOT, "B"))


def run_reveal(tmp_path, *flags, token=None):
    """The command as organizers run it, the token in ORGANIZER_TOKEN (none without ``token``)."""
    out, err = io.StringIO(), io.StringIO()
    env = {k: v for k, v in os.environ.items() if k != reveal.TOKEN_VARIABLE}
    if token is not None:
        env[reveal.TOKEN_VARIABLE] = token
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), mock.patch.dict(os.environ, env, clear=True):
        code = reveal.main([str(ROOT), "B", str(tmp_path / "reveal.zip")] + list(flags))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def unpaced(monkeypatch):
    """The emulations do not throttle: no pause between EvalAI calls (test_reveal_client.py checks the pace)."""
    monkeypatch.setattr(reveal_evalai, "PACE", 0.0)


def codabench(tmp_path, rule):
    root = members(built(ROOT))
    refs = [root[p["reference_data"]] for p in phases(ROOT)]
    return FakeCodabench(root, refs, root["scoring_program.zip"], rule=rule, work=tmp_path / "platform")


def assert_scores(stored, expected):
    assert set(expected) <= set(stored)
    for key, value in expected.items():
        assert float(stored[key]) == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("rule", ["Add", "Add_And_Delete", "Add_And_Delete_Multiple"])
def test_codabench_under_an_add_rule_each_team_gets_its_chosen_submission_revealed(tmp_path, rule):
    site = codabench(tmp_path, rule)
    try:
        other = spoiled(tmp_path)
        t1_sample = site.submit("t1", 2, participant_zip({"s.csv": SAMPLE.read_bytes()}))
        site.submit("t1", 2, participant_zip({"s.csv": other.read_bytes()}))   # later, not chosen
        t2 = site.submit("t2", 2, participant_zip({"s.csv": other.read_bytes()}))
        site.submit("t3", 2, participant_zip({"s.csv": SAMPLE.read_bytes()}))  # never put on the board
        site.add(t1_sample)
        site.add(t2)
        assert {v for s in site.subs.values() for v in s["scores"].values()} == {"-1.0000000000"}   # sealed
        code, out, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", "--batch", "1",
                                    token=site.token)
        assert code == 0, err
        board = site.dispatch("GET", "/api/phases/2/get_leaderboard/", {}, b"", "Token " + site.token)[1]
        rows = {row["owner"]: row for row in board["submissions"]}
        assert sorted(rows) == ["t1", "t2"]                       # t3 chose nothing: nothing is shown for it
        for team, source, chosen in (("t1", SAMPLE, t1_sample), ("t2", other, t2)):
            row = rows[team]
            rerun = site.subs[row["id"]]
            assert row["id"] != chosen and rerun["data"] == site.subs[chosen]["data"]   # a re-run of the chosen one
            assert_scores({s["column_key"]: s["score"] for s in row["scores"]}, oracle(source))
        assert "1 with submissions but no leaderboard entry (t3)" in out
        # the phase's task now holds the reveal's reference data, every other data field kept
        task = site.tasks["task-2"]
        assert site.storage[task["reference_data"]["key"]] == (tmp_path / "reveal.zip").read_bytes()
        assert task["scoring_program"] is not None
        # run again: nothing is re-run, everything checked again
        before = len(site.subs)
        code, out, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token=site.token)
        assert code == 0, err
        assert len(site.subs) == before and out.count("already revealed") == 2
    finally:
        site.close()


def test_a_phase_that_is_not_over_is_revealed_only_when_asked(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        site.add(site.submit("t1", 2, participant_zip({"s.csv": SAMPLE.read_bytes()})))
        flags = ["--codabench", site.url, "--competition", "1"]
        for end in ("2999-01-01T00:00:00Z", None):
            site.phases[2]["end"] = end
            code, _, err = run_reveal(tmp_path, *flags, token=site.token)
            assert code == 2 and err.count("\n") == 1 and "is not over" in err and "--early" in err
            assert not [c for c in site.calls if c[0] != "GET"]
        code, out, err = run_reveal(tmp_path, *flags, "--dry-run", token=site.token)
        assert code == 0 and "the phase is not over: it has no end" in out
        code, _, err = run_reveal(tmp_path, *flags, "--early", token=site.token)
        assert code == 0, err
    finally:
        site.close()


def test_codabench_under_force_last_the_last_submission_is_revealed_without_connecting(tmp_path):
    site = codabench(tmp_path, "Force_Last")
    try:
        other = spoiled(tmp_path)
        site.submit("t1", 2, participant_zip({"s.csv": SAMPLE.read_bytes()}))
        last = site.submit("t1", 2, participant_zip({"s.csv": other.read_bytes()}))
        code, out, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token=site.token)
        assert code == 0, err
        [row] = site.dispatch("GET", "/api/phases/2/get_leaderboard/", {}, b"", "Token " + site.token)[1]["submissions"]
        assert site.subs[row["id"]]["data"] == site.subs[last]["data"]
        assert_scores({s["column_key"]: s["score"] for s in row["scores"]}, oracle(other))
        assert not [c for c in site.calls if "submission_leaderboard_connection" in c[1]]
    finally:
        site.close()


def test_codabench_a_rule_the_organizer_cannot_change_stops_before_anything_is_changed(tmp_path):
    site = codabench(tmp_path, "Force_Best")
    try:
        site.submit("t1", 2, participant_zip({"s.csv": SAMPLE.read_bytes()}))
        code, out, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token=site.token)
        assert code == 2 and err.count("\n") == 1 and "submission_rule is Force_Best" in err
        assert not [c for c in site.calls if c[0] != "GET"]
    finally:
        site.close()


def test_codabench_refusals_and_wrong_scores_end_in_one_line(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        site.add(site.submit("t1", 2, participant_zip({"s.csv": SAMPLE.read_bytes()})))
        code, _, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token="wrong-token")
        assert code == 2 and err.count("\n") == 1 and "answered 401" in err and "Traceback" not in err
        # a platform that keeps scoring on the sealed data: the re-run's -1 differs from this program's scores
        site.routes = [r for r in site.routes if r[1] != r"/api/tasks/(\d+)/"]
        site.routes.append(("PATCH", r"/api/tasks/(\d+)/", lambda m, q, b: {}))
        code, _, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token=site.token)
        assert code == 2 and err.count("\n") == 1 and "stored" in err and "scores its file" in err
    finally:
        site.close()
    code, _, err = run_reveal(tmp_path, "--codabench", site.url, "--competition", "1", token="not-a-token-1")
    assert code == 2 and err.count("\n") == 1 and "failed" in err   # the platform is not there any more


# -- EvalAI ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def challenge(tmp_path_factory):
    return Challenge(ROOT, tmp_path_factory.mktemp("challenge"))


def evalai(challenge, tmp_path):
    by_phase = {p["id"]: p["codename"][len("board_"):].upper() for p in challenge.config["challenge_phases"]}

    def evaluate(phase, upload):
        path = tmp_path / ("upload%d.zip" % len(list(tmp_path.glob("upload*.zip"))))
        path.write_bytes(upload)
        out, _ = challenge.submit(by_phase[phase], path)
        return {"result": out["result"]} if out["status"] == "FINISHED" else {}

    return FakeEvalAI(challenge.config, evaluate)


def test_evalai_the_host_api_stores_each_submissions_real_scores_and_opens_the_split(tmp_path, challenge):
    site = evalai(challenge, tmp_path)
    try:
        phase = next(p["id"] for p in challenge.config["challenge_phases"] if p["codename"] == "board_b")
        other = spoiled(tmp_path)
        site.submit("t1", phase, participant_zip({"s.csv": SAMPLE.read_bytes()}))
        site.submit("t1", phase, participant_zip({"s.csv": other.read_bytes()}))
        site.submit("t2", phase, participant_zip({"s.csv": other.read_bytes()}))
        site.submit("t3", phase, participant_zip({"s.csv": SAMPLE.read_bytes()}), is_public=False)
        site.submit("t4", phase, participant_zip({"x.txt": b"nothing"}))   # failed: stays failed
        split = next(s for s in site.splits.values() if s["challenge_phase"] == phase)
        assert split["visibility"] == 1
        assert {v for s in site.subs.values() for r in s["results"].values() for v in r.values()} == {-1.0}
        status, body, _ = site.dispatch("GET", "/api/jobs/challenge_phase_split/%d/leaderboard/" % split["id"], {},
                                        b"", "")
        assert status == 400 and "not public" in body["error"]
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        assert split["visibility"] == 3
        status, body, _ = site.dispatch("GET", "/api/jobs/challenge_phase_split/%d/leaderboard/" % split["id"], {},
                                        b"", "")
        rows = {r["submission__participant_team__team_name"]: r for r in body["results"]}
        labels = split["leaderboard_schema"]["labels"]
        assert sorted(rows) == ["t1", "t2"]   # t3's only submission is private; t4's failed
        best_t1 = max((oracle(SAMPLE), oracle(other)), key=lambda s: s["score"])   # EvalAI shows each team's best
        for team, expected in (("t1", best_t1), ("t2", oracle(other))):
            assert_scores(dict(zip(labels, rows[team]["result"])), expected)
        # what the submitter reads now: the real scores, no path of the organizer's machine
        stdout = site.subs[1]["stdout"]
        assert "score" in stdout and "/tmp" not in stdout and "OUTPUT" not in stdout
        assert site.subs[5]["status"] == "failed"
    finally:
        site.close()


def test_evalai_a_phase_still_evaluating_or_a_refused_token_ends_in_one_line(tmp_path, challenge):
    site = evalai(challenge, tmp_path)
    try:
        phase = next(p["id"] for p in challenge.config["challenge_phases"] if p["codename"] == "board_b")
        site.submit("t1", phase, participant_zip({"s.csv": SAMPLE.read_bytes()}))
        code, _, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token="wrong-token")
        assert code == 2 and err.count("\n") == 1 and "answered 401" in err
        code, _, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token="participant-token")
        assert code == 2 and err.count("\n") == 1 and "shows 0 dataset splits to this token" in err   # not a host of it
        site.subs[1]["status"] = "running"
        code, _, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 2 and err.count("\n") == 1 and "still being evaluated" in err
        site.subs[1]["status"] = "finished"
        site.phases[phase]["end_date"] = "2999-01-01T00:00:00Z"
        code, _, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 2 and err.count("\n") == 1 and "is not over" in err
    finally:
        site.close()


def test_reveal_without_a_platform_writes_the_zip_and_says_the_steps(tmp_path):
    code, out, err = run_reveal(tmp_path)
    assert code == 0 and err == ""
    for platform in ("Codabench:", "EvalAI:", "CodaLab v1:"):
        assert platform in out
    assert "gold.csv" in members((tmp_path / "reveal.zip").read_bytes())
    code, _, err = run_reveal(tmp_path, "--codabench", "http://127.0.0.1:9", "--competition", "1")
    assert code == 2 and err.count("\n") == 1 and "ORGANIZER_TOKEN" in err


# -- CodaLab v1: the organizer's steps on the site's pages ----------------------------------------------------
def test_codalab_v1_re_running_each_leaderboard_entry_while_blind_reveals_it_and_re_running_all_does_not(tmp_path):
    """The documented reveal (docs/organizers.md): with the revealed reference data in place, "Re-run submission" on
    each leaderboard entry while the phase is still blind; each re-run, when it ends, takes its participant's place.
    "Re-run all submissions" re-runs every one, and whichever ends last takes the place."""
    from fake_platforms import CodaLabV1Phase

    root = members(built(ROOT))
    sealed = root[phases(ROOT)[1]["reference_data"]]
    other = spoiled(tmp_path)
    uploads = {"sample": participant_zip({"s.csv": SAMPLE.read_bytes()}),
               "other": participant_zip({"s.csv": other.read_bytes()})}
    for how in ("each_entry", "all"):
        site = CodaLabV1Phase(root["scoring_program.zip"], sealed, tmp_path / how)
        p1_first = site.submit("p1", uploads["sample"])
        p1_last = site.submit("p1", uploads["other"])
        p2 = site.submit("p2", uploads["sample"])
        for sub in (p1_first, p1_last, p2):
            site.finish(sub)
        assert site.leaderboard == {"p1": p1_last, "p2": p2}
        assert {v for s in site.subs for v in s["scores"].values()} == {-1.0}
        code, _, err = run_reveal(tmp_path)
        assert code == 0, err
        site.reference = (tmp_path / "reveal.zip").read_bytes()
        chosen = sorted(site.leaderboard.values()) if how == "each_entry" else [s["id"] for s in list(site.subs)]
        reruns = [site.re_run(s) for s in chosen]
        for sub in reversed(reruns):   # the runs end in another order than they were started
            site.finish(sub)
        site.blind = False   # the organizer switches the phase to the default mode
        shown = {p: site.subs[s - 1]["scores"] for p, s in site.leaderboard.items()}
        if how == "each_entry":
            assert_scores(shown["p1"], oracle(other))   # p1's entry was its last submission
            assert_scores(shown["p2"], oracle(SAMPLE))
        else:   # p1's first submission's re-run ended last: its entry is not the one the phase kept
            assert_scores(shown["p1"], oracle(SAMPLE))
