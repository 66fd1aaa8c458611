"""The reveal ends with each team's real board-B score on the leaderboard, for the submission the platform's rule
selects, on emulations of Codabench's and EvalAI's APIs (fake_platforms.py cites the functions they follow).

While board B is sealed every submission gets the placeholder -1. ``python3 -m organizer reveal ... --codabench``
replaces the phase's reference data, re-runs each team's leaderboard submission and puts the re-run on the board;
``--evalai`` scores each submission here and stores the scores through the host API, then opens the split. The
real scores are checked against seqeval and scikit-learn (the bank oracle), not against the program.
"""
import contextlib
import datetime as dt
import functools
import io
import json
import os
from pathlib import Path
from unittest import mock

import pytest
import yaml

from fake_platforms import FakeCodabench, FakeEvalAI
from helpers import ROOT
from platform_workers import participant_zip
from test_adapters import Challenge
from bundle_shared import bank_oracle, board_ids, built, members, phases

from organizer import reveal, reveal_codabench, reveal_evalai

SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"
GOLD = ROOT / "reference_data" / "gold.csv"


def spoiled(tmp_path):
    """The sample with every class set to 2: valid, and scored differently."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "spoiled.csv"
    path.write_text("\n".join(lines[:1] + [l.rsplit(",", 1)[0] + ",2" for l in lines[1:]]) + "\n", encoding="utf-8")
    return path


def oracle(path):
    return dict(_oracle(Path(path).read_bytes(), str(path)))


@functools.lru_cache(maxsize=None)
def _oracle(content, path):
    """The oracle's scores of a file, once per content (seqeval takes a second)."""
    return tuple(bank_oracle(GOLD, path, board_ids(ROOT, "B")).items())


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
    monkeypatch.setattr(reveal_codabench, "PAUSE", 0.0)


def assert_scores(stored, expected):
    assert set(expected) <= set(stored)
    for key, value in expected.items():
        assert float(stored[key]) == pytest.approx(value, abs=1e-9), key


# -- Codabench ----------------------------------------------------------------------------------------------
def codabench(tmp_path, rule, **kwargs):
    """The shipped competition's v1 bundle on the emulated Codabench, its leaderboard's columns as the v2 bundle
    writes them."""
    root = members(built(ROOT))
    refs = [root[p["reference_data"]] for p in phases(ROOT)]
    columns = yaml.safe_load(members(built(ROOT, "v2"))["competition.yaml"])["leaderboards"][0]["columns"]
    return FakeCodabench(root, refs, root["scoring_program.zip"], rule=rule, work=tmp_path / "platform",
                         columns=columns, **kwargs)


def files(tmp_path):
    """The sample, a valid file that scores differently, and a file that fails (no CSV)."""
    return (participant_zip({"s.csv": SAMPLE.read_bytes()}), participant_zip({"s.csv": spoiled(tmp_path).read_bytes()}),
            participant_zip({"x.txt": b"nothing"}))


def on(site, *flags):
    return ["--codabench", site.url, "--competition", "1"] + list(flags)


def record_of(tmp_path):
    return json.loads((tmp_path / "final_ranking.json").read_text(encoding="utf-8"))


def changes(site, since=0):
    """The calls after ``since`` that may change something: every one but a GET."""
    return [c for c in site.calls[since:] if c[0] != "GET"]


def assert_board_is_the_record(site, tmp_path, expected):
    """The leaderboard shows, for each entry of the record, a re-run of its submission (same owner and file) with
    the oracle's scores of ``expected[team]`` (a list: one per entry), and nothing else."""
    record = record_of(tmp_path)
    board = site.board()
    assert sorted(owner for owner, _ in board.values()) == sorted(t for t, srcs in expected.items() for _ in srcs)
    assert sorted(e["team"] for e in record["entries"]) == sorted(board[int(e["shown_as"])][0]
                                                                  for e in record["entries"])
    for e in record["entries"]:
        rerun, original = site.subs[int(e["shown_as"])], site.subs[int(e["submission"])]
        assert rerun["data"] == original["data"] and rerun["owner"] == original["owner"] == e["team"]
        assert rerun["created"] > original["created"]
    for team, sources in expected.items():
        mine = sorted((e for e in record["entries"] if e["team"] == team), key=lambda e: e["scores"]["score"])
        truths = sorted((oracle(src) for src in sources), key=lambda o: o["score"])
        for e, truth in zip(mine, truths):
            assert_scores(e["scores"], truth)                          # the record, scored here
            assert_scores(board[int(e["shown_as"])][1], truth)         # what Codabench stored, 10 decimals


def test_codabench_force_last_the_record_is_the_last_finished_submission_before_the_end_and_nothing_moves_it(
        tmp_path):
    site = codabench(tmp_path, "Force_Last")
    try:
        sample, other, bad = files(tmp_path)
        site.submit("alice", 2, sample)
        a2 = site.submit("alice", 2, other)           # alice's last one before the end: her entry
        b1 = site.submit("bob", 2, sample)
        site.submit("bob", 2, bad)                    # bob's last one failed: passed over
        site.submit("carol", 2, bad)                  # carol's only one failed: left out
        site.now = None                               # the phase has ended: what follows is late
        a3 = site.submit("alice", 2, sample)          # taken by the API, on the board (Force_Last), never an entry
        assert site.subs[a3]["leaderboard"] and site.subs[a3]["created"] > _end(site)
        assert {v for sub in site.subs.values() for v in sub["scores"].values()} == {"-1.0000000000"}
        task_before = dict(site.tasks[2])
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        record = record_of(tmp_path)
        assert record["rule"] == "last" and record["platform_rule"] == "Force_Last"
        assert [(e["team"], e["submission"]) for e in record["entries"]] == [("alice", str(a2)), ("bob", str(b1))] \
            or [(e["team"], e["submission"]) for e in record["entries"]] == [("bob", str(b1)), ("alice", str(a2))]
        assert [(l["team"], l["reason"]) for l in record["left_out"]] == [("carol", "all_failed")]
        assert_board_is_the_record(site, tmp_path, {"alice": [spoiled(tmp_path)], "bob": [SAMPLE]})
        assert "the leaderboard equals the final ranking" in out
        # the task: its reference data is the closed one, every other field as it was
        task = site.tasks[2]
        assert site.storage[task["reference_data"]] == (tmp_path / "reveal_closed.zip").read_bytes()
        assert [task[k] for k in ("ingestion_program", "input_data", "scoring_program")] == \
            [task_before[k] for k in ("ingestion_program", "input_data", "scoring_program")]
        # the revealed dataset is gone: its key no longer downloads, for anyone
        [reveal_key] = [p.rsplit("/", 1)[1] for m, p in site.calls if m == "PUT" and p.startswith("/storage/")
                        and site.storage.get(p.rsplit("/", 1)[1]) is None]
        assert site.dispatch("GET", "/datasets/download/%s/" % reveal_key, {}, b"", "")[0] == 404
        # after the reveal: a late submission and bob's re-run of alice's entry fail, scoring nothing, moving nothing
        board = site.board()
        late = site.submit("alice", 2, sample)
        status, _, _ = site.dispatch("POST", "/api/submissions/re_run_many_submissions/", {},
                                     json.dumps([a2]).encode(), "Token bob-token")
        assert status == 200
        for sub in (site.subs[late], site.subs[len(site.subs)]):
            # one line, in the competition's language, naming the phase's end
            assert sub["status"] == "Failed" and sub["scores"] == {} and sub["stderr"].count("\n") == 1
            assert "2026-01-01 00:00 UTC" in sub["stderr"]
        assert site.board() == board
        code, out, err = run_reveal(tmp_path, *on(site, "--check"), token=site.token)
        assert code == 0 and "differs" not in out, out + err
        # a second run changes nothing on the platform
        before, saved = len(site.calls), (tmp_path / "final_ranking.json").read_bytes()
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        assert changes(site, before) == [] and (tmp_path / "final_ranking.json").read_bytes() == saved
    finally:
        site.close()


def _end(site):
    return dt.datetime.fromisoformat(site.phases[2]["end"].replace("Z", "+00:00"))


def test_codabench_add_the_record_is_each_teams_choice_and_a_choice_changed_after_the_reveal_is_reported(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        sample, other, bad = files(tmp_path)
        a1 = site.submit("alice", 2, sample)
        a2 = site.submit("alice", 2, other)           # later, not chosen
        b1 = site.submit("bob", 2, other)
        site.submit("carol", 2, sample)               # never put on the board: no entry
        site.add(a1)
        site.add(b1)
        code, out, err = run_reveal(tmp_path, *on(site, "--batch", "1"), token=site.token)
        assert code == 0, err
        record = record_of(tmp_path)
        assert record["rule"] == "chosen"
        assert sorted((e["team"], e["submission"]) for e in record["entries"]) == [("alice", str(a1)), ("bob", str(b1))]
        assert [(l["team"], l["reason"]) for l in record["left_out"]] == [("carol", "no_entry")]
        assert_board_is_the_record(site, tmp_path, {"alice": [SAMPLE], "bob": [spoiled(tmp_path)]})
        # alice re-points her entry after the reveal (the connection has no end check): --check says so
        site.add(a2)
        code, out, err = run_reveal(tmp_path, *on(site, "--check"), token=site.token)
        assert code == 1 and out.count("differs:") == 1 and "team alice" in out, out + err
        # a second run keeps the record's choice, puts alice's re-run back and re-runs or uploads nothing
        before, saved = len(site.calls), (tmp_path / "final_ranking.json").read_bytes()
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        assert (tmp_path / "final_ranking.json").read_bytes() == saved
        assert [c for c in changes(site, before)] == [
            ("POST", "/api/submissions/%s/submission_leaderboard_connection/" % [
                e["shown_as"] for e in record["entries"] if e["team"] == "alice"][0])]
        assert_board_is_the_record(site, tmp_path, {"alice": [SAMPLE], "bob": [spoiled(tmp_path)]})
    finally:
        site.close()


def test_codabench_add_and_delete_multiple_two_entries_of_a_team_and_no_sealed_row_left(tmp_path):
    site = codabench(tmp_path, "Add_And_Delete_Multiple", page_size=2)   # the submissions in pages of 2
    try:
        sample, other, bad = files(tmp_path)
        a1 = site.submit("alice", 2, sample)
        a2 = site.submit("alice", 2, other)
        b1 = site.submit("bob", 2, sample)
        for sub in (a1, a2, b1):
            site.add(sub)
        site.now = None
        d1 = site.submit("dave", 2, sample)           # only after the end, put on the board: no entry
        site.add(d1)
        assert len(site.board()) == 4
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        record = record_of(tmp_path)
        assert sorted((e["team"], e["submission"]) for e in record["entries"]) == [
            ("alice", str(a1)), ("alice", str(a2)), ("bob", str(b1))]
        assert [(l["team"], l["reason"]) for l in record["left_out"]] == [("dave", "none_before_end")]
        assert_board_is_the_record(site, tmp_path, {"alice": [SAMPLE, spoiled(tmp_path)], "bob": [SAMPLE]})
        assert all(scores["score"] != -1 for _, scores in site.board().values())
    finally:
        site.close()


def test_codabench_force_best_the_record_is_each_teams_best_and_the_board_shows_it(tmp_path):
    site = codabench(tmp_path, "Force_Best")
    try:
        sample, other, bad = files(tmp_path)
        better, worse = sorted((SAMPLE, spoiled(tmp_path)), key=lambda f: -oracle(f)["score"])
        first = site.submit("alice", 2, sample if better == SAMPLE else other)
        site.submit("alice", 2, other if better == SAMPLE else sample)
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        record = record_of(tmp_path)
        assert record["rule"] == "best" and [e["submission"] for e in record["entries"]] == [str(first)]
        assert_board_is_the_record(site, tmp_path, {"alice": [better]})
    finally:
        site.close()


@pytest.mark.parametrize("rule, sorting, shown", [   # the other rules have a test of their own above
    ("Add_And_Delete", "desc", True), ("Force_Best", "asc", False), ("Force_Latest_Multiple", "desc", False)])
def test_codabench_the_other_rules_show_the_record_or_say_in_one_line_that_they_cannot(tmp_path, rule, sorting, shown):
    site = codabench(tmp_path, rule)
    try:
        site.leaderboards[1]["columns"][0]["sorting"] = sorting
        sample, other, bad = files(tmp_path)
        for team, upload in (("alice", sample), ("bob", other)):
            sub = site.submit(team, 2, upload)
            if rule.startswith("Add"):
                site.add(sub)
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        record = record_of(tmp_path)
        assert len(record["entries"]) == 2 and record["platform_rule"] == rule
        closed = site.storage[site.tasks[2]["reference_data"]] == (tmp_path / "reveal_closed.zip").read_bytes()
        assert closed   # the phase is closed either way
        if shown:
            assert code == 0, err
            assert_board_is_the_record(site, tmp_path, {"alice": [SAMPLE], "bob": [spoiled(tmp_path)]})
        else:
            assert code == 1 and out.count("cannot show the final ranking") == 1 and "differs:" in out
            assert not [c for c in site.calls if "re_run" in c[1]]
            assert all(scores["score"] == -1 for _, scores in site.board().values())
    finally:
        site.close()


def test_codabench_a_token_that_is_not_the_task_creators_is_refused_before_anything_is_uploaded(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        site.add(site.submit("alice", 2, files(tmp_path)[0]))
        for token, words in (("org2-token", ["user org2's", "not shown to org2", "org1"]),
                             ("admin-token", ["user admin's", "not shown to admin"])):
            code, out, err = run_reveal(tmp_path, *on(site), token=token)
            assert code == 2 and err.count("\n") == 1 and "TaskViewSet.update" in err, err
            assert all(w in err for w in words), err
        site.tasks[2]["shared_with"] = ["org2"]       # a user the task is shared with sees it, and is still refused
        code, out, err = run_reveal(tmp_path, *on(site), token="org2-token")
        assert code == 2 and "was created by org1" in err and "run this with org1's token" in err
        assert changes(site) == [] and not (tmp_path / "final_ranking.json").exists()
        status, body, _ = site.dispatch("PATCH", "/api/tasks/2/", {}, b'{"reference_data": null}', "Token org2-token")
        assert status == 403   # what the platform would have said after an upload
    finally:
        site.close()


def test_codabench_a_phase_that_is_not_over_is_revealed_only_when_asked(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        site.add(site.submit("alice", 2, files(tmp_path)[0]))
        site.phases[2]["end"] = "2999-01-01T00:00:00Z"
        code, _, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 2 and err.count("\n") == 1 and "is not over" in err and "--early" in err
        assert changes(site) == [] and not (tmp_path / "final_ranking.json").exists()
        code, out, err = run_reveal(tmp_path, *on(site, "--dry-run"), token=site.token)
        assert code == 0 and "the phase is not over: it ends on 2999" in out and changes(site) == []
        code, _, err = run_reveal(tmp_path, *on(site, "--early"), token=site.token)
        assert code == 0, err
        site.phases[2]["end"] = None
        code, _, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 2 and err.count("\n") == 1 and "has no end" in err
    finally:
        site.close()


def test_codabench_a_submission_still_running_is_waited_for_then_its_team_is_left_out(tmp_path):
    site = codabench(tmp_path, "Force_Last")
    try:
        sample = files(tmp_path)[0]
        site.submit("alice", 2, sample)
        stuck = site.submit("bob", 2, sample)
        site.subs[stuck].update(status="Running", scores={}, leaderboard=None)   # its run has not ended
        code, out, err = run_reveal(tmp_path, *on(site, "--wait", "0"), token=site.token)
        assert code == 0, err
        assert "still running (first: %d, Running): their team(s) are left out as pending (bob)" % stuck in out
        assert [(l["team"], l["reason"]) for l in record_of(tmp_path)["left_out"]] == [("bob", "pending")]
    finally:
        site.close()


def test_codabench_a_re_run_read_while_its_scores_arrive_is_waited_for(tmp_path):
    """The worker sets Finished, then sends the scores one by one: two reads may show the first score alone."""
    site = codabench(tmp_path, "Force_Last")
    try:
        site.submit("alice", 2, files(tmp_path)[0])
        last, reads = len(site.subs), {}
        honest = next(h for verb, pattern, h in site.routes if verb == "GET" and pattern == r"/api/submissions/(\d+)/")

        def arriving(m, q, b):
            answer, sub_id = honest(m, q, b), int(m.group(1))
            reads[sub_id] = reads.get(sub_id, 0) + 1
            return dict(answer, scores=answer["scores"][:1]) if sub_id > last and reads[sub_id] <= 2 else answer

        site.routes = [(v, p, arriving if h == honest else h) for v, p, h in site.routes]
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 0, err
        assert reads[last + 1] >= 4   # two partial reads, then two whole ones
        assert_board_is_the_record(site, tmp_path, {"alice": [SAMPLE]})
    finally:
        site.close()


def test_codabench_a_re_run_that_stores_other_scores_stops_the_reveal_and_closes_the_phase(tmp_path):
    site = codabench(tmp_path, "Add")
    try:
        site.add(site.submit("alice", 2, files(tmp_path)[0]))
        code, _, err = run_reveal(tmp_path, *on(site), token="wrong-token-1")
        assert code == 2 and err.count("\n") == 1 and "answered 401" in err and "Traceback" not in err
        honest = site.scored
        site.scored = lambda sub, scores: honest(sub, dict(scores, score=scores["score"] + 1e-6))
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        assert code == 2 and err.count("\n") == 1 and "stored" in err and "the record" in err, err
        assert "closing the phase before stopping" in out
        assert site.storage[site.tasks[2]["reference_data"]] == (tmp_path / "reveal_closed.zip").read_bytes()
        assert not [d for d in site.datasets.values() if d["name"].startswith("revealed:")]
    finally:
        site.close()
    code, _, err = run_reveal(tmp_path, *on(site), token="not-a-token-1")
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
