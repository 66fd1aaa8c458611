"""The reveal ends with each team's real board-B score on the leaderboard, for the submission the platform's rule
selects, on emulations of Codabench's and EvalAI's APIs (fake_platforms.py cites the functions they follow).

While board B is sealed every submission gets the placeholder -1. ``python3 -m organizer reveal ... --codabench``
replaces the phase's reference data, re-runs each team's leaderboard submission and puts the re-run on the board;
``--evalai`` writes the record by the phase's rule, flags every other submission and stores each entry's scores
through the host API, opens the split and closes the phase. The real scores are checked against seqeval and
scikit-learn (the bank oracle), not against the program.
"""
import contextlib
import datetime as dt
import functools
import io
import json
import os
import uuid
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


@pytest.mark.parametrize("rule", ["Add_And_Delete_Multiple", "Add", "Force_Last"])
def test_codabench_a_record_without_entries_still_takes_the_late_rows_off_the_board_or_says_it_cannot(tmp_path, rule):
    # the only submission came after the end and is on the board (its owner put it there, or Force_Last did): the
    # record ranks nobody, and the board must show nobody either (removed where the rule lets the organizer remove
    # a row, else said in one line that names the one way left, deleting the submission)
    site = codabench(tmp_path, rule)
    try:
        sample, other, bad = files(tmp_path)
        site.now = None
        late = site.submit("bob", 2, sample)
        if rule != "Force_Last":
            site.add(late)
        assert site.board()
        code, out, err = run_reveal(tmp_path, *on(site), token=site.token)
        record = record_of(tmp_path)
        assert record["entries"] == [] and [(l["team"], l["reason"]) for l in record["left_out"]] == [
            ("bob", "none_before_end")]
        if rule == "Add_And_Delete_Multiple":
            assert code == 0, out + err
            assert site.board() == {}
            assert ("DELETE", "/api/submissions/%d/submission_leaderboard_connection/" % late) in changes(site)
        else:
            assert code == 1, out + err
            # on the real Codabench (c7dbc756) a superuser's DELETE of the row got 403 under Add and Force_Last,
            # and the organizer's DELETE of the submission itself took the row off
            assert out.count("the leaderboard keeps 1 row(s) the final ranking does not hold (bob's %d): under %s no "
                             "one may take a row off the board, a superuser neither" % (late, rule)) == 1
            assert "the competition's organizers may delete such a submission itself, which takes its row off" in out
            assert out.count("differs:") == 1 and "team bob" in out
        assert not [c for c in site.calls if "re_run" in c[1]]
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


def evalai(challenge, tmp_path, **kwargs):
    """FakeEvalAI of the challenge organizer evalai writes, each run the evaluation script's as EvalAI's worker
    runs it (test_adapters.py), with the annotation the worker holds."""
    by_phase = {p["id"]: p["codename"][len("board_"):].upper() for p in challenge.config["challenge_phases"]}
    runs = tmp_path / "runs"
    runs.mkdir(exist_ok=True)

    def evaluate(phase, upload, annotation):
        n = len(list(runs.iterdir()))
        path, held = runs / ("%d-%s.zip" % (n, uuid.uuid4())), runs / ("%d-annotation.zip" % n)
        path.write_bytes(upload)
        held.write_bytes(annotation)
        out, _ = challenge.submit(by_phase[phase], path, annotation=held)
        if out["status"] != "FINISHED":
            return {"stdout": out["stdout"], "stderr": out["stderr"]}
        return {"result": out["result"], "submission_result": out["submission_result"], "stdout": out["stdout"]}

    annotations = {p["id"]: challenge.files[p["test_annotation_file"]] for p in challenge.config["challenge_phases"]}
    return FakeEvalAI(challenge.config, evaluate, annotations=annotations, **kwargs)


def board_b(site):
    phase = next(p["id"] for p in site.phases.values() if p["codename"] == "board_b")
    split = next(s for s in site.splits.values() if s["challenge_phase"] == phase)
    return phase, split


def as_user(site, method, path, body=None, token=None):
    """One call of the API as the user of ``token`` (none: anonymous): (status, answer)."""
    status, answer, _ = site.dispatch(method, path, {}, json.dumps(body).encode() if body is not None else b"",
                                      "Bearer %s" % token if token else "")
    return status, answer


def upload(path):
    return participant_zip({"s.csv": Path(path).read_bytes()})


def record(tmp_path):
    return json.loads((tmp_path / "final_ranking.json").read_text(encoding="utf-8"))


def changes(site, since=0):
    return [c for c in site.calls[since:] if c[0] != "GET"]


def test_evalai_the_record_takes_each_teams_chosen_submission_and_the_board_shows_exactly_it(tmp_path, challenge):
    """The shipped competition (no force_submission_to_leaderboard: Codabench's Add) on EvalAI: board B's phase
    lets each team make one submission public, its entry. Submissions made at or after the end, private ones, failed
    ones, a banned team's and the hosts' are no entries; each is said. The board then shows each entry with the
    scores seqeval and scikit-learn give, EvalAI's own choice (its best public submission) set aside."""
    site = evalai(challenge, tmp_path)
    try:
        phase, split = board_b(site)
        other, bad = spoiled(tmp_path), participant_zip({"x.txt": b"nothing"})
        end = site.phases[phase]["end_date"]
        t1_first = site.submit("t1", phase, upload(SAMPLE))
        t1_chosen = site.submit("t1", phase, upload(other), is_public=True)
        t2 = site.submit("t2", phase, upload(other), is_public=True)
        t2_late = site.submit("t2", phase, upload(SAMPLE), is_public=True, at=end)      # at the end: too late
        site.submit("t3", phase, upload(SAMPLE))                                          # private: no choice
        site.submit("t4", phase, bad, is_public=True)                                     # failed
        site.submit("t5", phase, upload(SAMPLE), is_public=True)                          # banned below
        site.submit("Host_1_Team", phase, upload(SAMPLE), is_public=True, by="host")      # the hosts'
        site.challenge["banned_email_ids"] = ["t5@teams.test"]
        assert site.subs[t2]["is_public"] is False and site.subs[t2_late]["is_public"] is True   # one public a team
        assert {v for r in site.rows.values() for v in r["result"].values()} == {-1.0}           # sealed
        assert as_user(site, "GET", "/api/jobs/challenge_phase_split/%d/leaderboard/" % split["id"])[0] == 400
        results = {i: s["files"]["result"] for i, s in site.subs.items() if s["status"] == "finished"}
        completed = {i: s["completed_at"] for i, s in site.subs.items()}

        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        written = record(tmp_path)
        assert written["rule"] == "chosen" and "is_restricted_to_select_one_submission" in written["platform_rule"]
        # t1's choice, not its better first one; t2 chose one made at the end: its last before the end is its entry
        assert [(e["team"], e["submission"], e["rank"]) for e in written["entries"]] == [
            ("t1", str(t1_chosen), 1), ("t2", str(t2), 1)]
        assert "made after the end" in written["entries"][1]["note"]
        assert {l["team"]: l["reason"] for l in written["left_out"]} == {
            "Host_1_Team": "host", "t3": "no_entry", "t4": "all_failed", "t5": "banned"}
        for e in written["entries"]:
            assert_scores(e["scores"], oracle(other))
        # the board shows the record and nothing else (t2's entry made public: the board shows public ones only)
        rows = site.public_board(split["id"])
        assert sorted((r["submission__participant_team__team_name"], r["submission__id"]) for r in rows) == [
            ("t1", t1_chosen), ("t2", t2)]
        for row in rows:
            assert_scores(dict(zip(split_labels(site, split), row["result"])), oracle(other))
        assert oracle(SAMPLE)["score"] > oracle(other)["score"] and site.subs[t1_first]["is_flagged"]
        assert site.subs[t2]["is_public"] and site.subs[t2_late]["is_flagged"]
        assert split["visibility"] == 3
        # the submissions' files and times are the worker's: each result file is still its JSON
        for i, text in results.items():
            assert site.subs[i]["files"]["result"] == text and json.loads(text)
        assert {i: s["completed_at"] for i, s in site.subs.items()} == completed
        # the phase is closed: its annotation is OUT_closed.zip
        assert site.annotations[phase] == (tmp_path / "reveal_closed.zip").read_bytes()
        assert "the leaderboard equals the final ranking" in out
        # again: nothing changes on the platform, the board is checked again
        before = len(site.calls)
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        assert changes(site, before) == [] and "nothing to change" in out
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", "--check", token=site.token)
        assert code == 0 and "equals" in out, err
    finally:
        site.close()


def split_labels(site, split):
    return site.leaderboards[split["leaderboard"]]["schema"]["labels"]


def test_evalai_under_last_the_last_public_submission_is_the_entry_not_the_best(tmp_path, challenge):
    """A phase whose submissions are public unless the team hides them (competition.yaml's
    force_submission_to_leaderboard: Codabench's Force_Last): each team's last public finished submission before the
    end, where EvalAI would show its best."""
    site = evalai(challenge, tmp_path)
    try:
        phase, split = board_b(site)
        site.phases[phase].update(is_submission_public=True, is_restricted_to_select_one_submission=False)
        other = spoiled(tmp_path)
        site.submit("t1", phase, upload(SAMPLE))
        last = site.submit("t1", phase, upload(other))
        site.submit("t1", phase, participant_zip({"x.txt": b"nothing"}))        # failed: passed over
        site.submit("t2", phase, upload(SAMPLE), is_public=False)               # private
        path = "/api/challenges/challenge/create/challenge_phase_split/%d/" % split["id"]
        assert as_user(site, "PATCH", path, {"visibility": 3}, "rogue-token")[0] == 200   # opened early: -1 rows
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        assert "the record follows the phase" in out    # competition.yaml asks for chosen
        assert "was public before any reveal stored scores" in out
        written = record(tmp_path)
        assert written["rule"] == "last"
        assert [(e["team"], e["submission"]) for e in written["entries"]] == [("t1", str(last))]
        assert {l["team"]: l["reason"] for l in written["left_out"]} == {"t2": "private"}
        [row] = site.public_board(split["id"])
        assert row["submission__id"] == last
        assert_scores(dict(zip(split_labels(site, split), row["result"])), oracle(other))
    finally:
        site.close()


def test_evalai_submissions_still_evaluated_are_waited_for_and_else_their_team_is_left_out(tmp_path, challenge,
                                                                                          monkeypatch):
    site = evalai(challenge, tmp_path)
    try:
        phase, split = board_b(site)
        site.submit("t1", phase, upload(SAMPLE), is_public=True)
        queued = site.submit("t2", phase, upload(SAMPLE), is_public=True, run=False)
        site.subs[queued]["status"] = "partially_evaluated"
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", "--wait", "0",
                                    token=site.token)
        assert code == 0, err
        assert {l["team"]: (l["reason"], l["detail"]) for l in record(tmp_path)["left_out"]} == {
            "t2": ("pending", str(queued))}
        assert "still partially_evaluated" in out
        # the phase stays open to it: closed now, its run would fail although it was made in time
        assert site.annotations[phase] == challenge.files[challenge.phase("B")["test_annotation_file"]]
        assert "is not closed yet" in out
        waits = []

        def worker(seconds):   # the queue moves while the reveal waits
            waits.append(seconds)
            site.run(queued)

        monkeypatch.setattr(reveal_evalai, "_sleep", worker)
        code, out, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        assert len(waits) == 1 and "waiting for 1 submission(s)" in out
        assert sorted(e["team"] for e in record(tmp_path)["entries"]) == ["t1", "t2"]
        assert sorted(r["submission__participant_team__team_name"] for r in site.public_board(split["id"])) == [
            "t1", "t2"]
        assert site.annotations[phase] == (tmp_path / "reveal_closed.zip").read_bytes()
        assert "was public before" not in out   # the split the first run opened
    finally:
        site.close()


def test_evalai_a_participant_who_moves_the_board_is_reported_by_check(tmp_path, challenge):
    """EvalAI lets a team change its own submissions whenever it likes (update_submission_meta), and any member of
    any host team change a split: nothing a participant does after the reveal goes unreported by --check; a re-run
    or a late submission is refused once the challenge is over."""
    site = evalai(challenge, tmp_path)
    try:
        phase, split = board_b(site)
        other = spoiled(tmp_path)
        better = site.submit("t1", phase, upload(SAMPLE))
        entry = site.submit("t1", phase, upload(other), is_public=True)
        t2 = site.submit("t2", phase, upload(SAMPLE), is_public=True)
        code, _, err = run_reveal(tmp_path, "--evalai", site.url, "--challenge", "1", token=site.token)
        assert code == 0, err
        check = ["--evalai", site.url, "--challenge", "1", "--check"]
        meta = "/api/jobs/challenges/1/submissions/%d/update_submission_meta/"

        def reported(*words):
            code, out, err = run_reveal(tmp_path, *check, token=site.token)
            lines = [l for l in out.splitlines() if l.startswith("differs:")]
            assert code == 1 and len(lines) == 1, (code, out, err)
            for word in words:
                assert word in lines[0], (word, lines)

        # a re-run and a late submission: refused, the challenge is over
        assert as_user(site, "POST", "/api/jobs/submissions/%d/re-run/" % entry, {}, "t1-token")[0] == 403
        assert as_user(site, "POST", "/api/jobs/submissions/%d/re-run/" % entry, {}, site.token)[0] == 406
        with pytest.raises(Exception, match="406"):
            site.submit("t1", phase, upload(SAMPLE), enforce=True)
        # a team unflags and publishes the one it did not choose: it holds the sealed -1, so EvalAI's best is still
        # the entry (a baseline row too stays below it); once the team flags its entry, the -1 row is shown instead
        assert as_user(site, "PATCH", meta % better, {"is_flagged": False, "is_public": True,
                                                       "is_baseline": True}, "t1-token")[0] == 200
        assert as_user(site, "PATCH", meta % t2, {"is_flagged": True}, "t1-token")[0] == 404   # not its own
        assert run_reveal(tmp_path, *check, token=site.token)[0] == 0
        as_user(site, "PATCH", meta % entry, {"is_flagged": True}, "t1-token")
        reported("team t1", "shows %d where the record ranks submission %d" % (better, entry))
        as_user(site, "PATCH", meta % better, {"is_flagged": True, "is_baseline": False}, site.token)
        as_user(site, "PATCH", meta % entry, {"is_flagged": False}, site.token)
        # a team hides its entry
        as_user(site, "PATCH", meta % t2, {"is_public": False}, "t2-token")
        reported("team t2", str(t2))
        as_user(site, "PATCH", meta % t2, {"is_public": True}, site.token)
        # a member of another host team hides the split, or the schema's order is turned
        path = "/api/challenges/challenge/create/challenge_phase_split/%d/" % split["id"]
        assert as_user(site, "PATCH", path, {"visibility": 1}, "t1-token")[0] == 401
        assert as_user(site, "PATCH", path, {"visibility": 1}, "rogue-token")[0] == 200
        reported("visibility 1")
        as_user(site, "PATCH", path, {"visibility": 3}, "rogue-token")
        schema = site.leaderboards[split["leaderboard"]]["schema"]
        schema["metadata"]["score"]["sort_ascending"] = True
        code, out, _ = run_reveal(tmp_path, *check, token=site.token)
        assert code == 1 and "differs: the board is ordered lowest first by score" in out
        assert "differs: the board lists team t1 (#2 in the record) above team t2 (#1)" in out
        schema["metadata"]["score"]["sort_ascending"] = False
        code, out, err = run_reveal(tmp_path, *check, token=site.token)
        assert code == 0, out + err
    finally:
        site.close()


def test_evalai_a_re_run_while_the_challenge_is_active_brings_the_sealed_score_back(tmp_path, challenge):
    """The worker evaluates with the annotation it loaded at its start, the sealed one: a re-run before the
    challenge's end stores -1 again. So the reveal waits for the challenge's end (--early to go ahead), and --check
    reports what a re-run did."""
    site = evalai(challenge, tmp_path, challenge_end="2999-01-01T00:00:00Z")
    try:
        phase, split = board_b(site)
        entry = site.submit("t1", phase, upload(SAMPLE), is_public=True)
        flags = ["--evalai", site.url, "--challenge", "1"]
        code, _, err = run_reveal(tmp_path, *flags, token=site.token)
        assert code == 2 and err.count("\n") == 1 and "challenge 1 is not over" in err and "re-run" in err
        assert changes(site) == []
        code, _, err = run_reveal(tmp_path, *flags, "--early", token=site.token)
        assert code == 0, err
        assert as_user(site, "POST", "/api/jobs/submissions/%d/re-run/" % entry, {}, site.token)[0] == 200
        code, out, _ = run_reveal(tmp_path, *flags, "--check", token=site.token)
        assert code == 1 and "differs: team t1" in out
        # once the worker reloads the challenge, a re-run fails on the closed annotation: no score at all
        site.restart_worker()
        rerun = max(site.subs)
        as_user(site, "POST", "/api/jobs/submissions/%d/re-run/" % rerun, {}, site.token)
        assert site.subs[max(site.subs)]["status"] == "failed"
        assert "最终排名已确定" in site.subs[max(site.subs)]["files"]["stderr"]   # board B's phase closed
    finally:
        site.close()


def test_evalai_refusals_end_in_one_line_and_change_nothing(tmp_path, challenge):
    site = evalai(challenge, tmp_path)
    try:
        phase, _ = board_b(site)
        site.submit("t1", phase, upload(SAMPLE), is_public=True)
        flags = ["--evalai", site.url, "--challenge", "1"]
        code, _, err = run_reveal(tmp_path, *flags, token="wrong-token")
        assert code == 2 and err.count("\n") == 1 and "answered 401" in err
        code, _, err = run_reveal(tmp_path, *flags, token="t1-token")
        assert code == 2 and err.count("\n") == 1 and "no host of challenge 1" in err
        code, _, err = run_reveal(tmp_path, *flags, token="rogue-token")   # a host, of another team
        assert code == 2 and "no host of challenge 1" in err
        site.phases[phase]["end_date"] = "2999-01-01T00:00:00Z"
        code, _, err = run_reveal(tmp_path, *flags, token=site.token)
        assert code == 2 and err.count("\n") == 1 and "phase board_b is not over" in err and "--early" in err
        code, out, err = run_reveal(tmp_path, *flags, "--dry-run", token=site.token)
        assert code == 0 and "dry run: phase board_b is not over" in out and "nothing written" in out
        assert changes(site) == [] and not (tmp_path / "final_ranking.json").exists()
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
