"""The final ranking is a record: by the competition's rule, among submissions made before the phase's end, scored
here; written the same bytes every time; compared line by line with a leaderboard read back; and, once fixed, the
phase's reference data closes it (every later run fails with one line and no score).

Expected selections and ranks are worked by hand from the submissions each test lists; the scores of the CodaLab
v1 record come from seqeval and scikit-learn (the bank oracle), not from the program.
"""
import datetime as dt
import io
import json
import subprocess
import sys
import zipfile

import pytest

from bundle_shared import built, competitions, comp_id, members, phases
from helpers import ROOT
from organizer import final_record as fr
from organizer import reveal
from organizer.phase_data import closed_phase_entries, write_entries

UTC = dt.timezone.utc
END = dt.datetime(2027, 3, 1, tzinfo=UTC)


def day(d, hour=0):
    return dt.datetime(2027, 2, d, hour, tzinfo=UTC)


def sub(id_, team, created, status=fr.FINISHED, **kw):
    return fr.Submission(str(id_), team, created, status, **kw)


def picked(plan):
    return {team: [s.id for s in subs] for team, subs in plan.picks.items()}


def reasons(plan_or_left):
    left = plan_or_left.left_out if hasattr(plan_or_left, "left_out") else plan_or_left
    return {l.team: l.reason for l in left}


# -- the rules ----------------------------------------------------------------------------------------------------
def test_last_takes_the_last_finished_submission_before_the_end_and_never_one_after_it():
    subs = [sub(1, "ann", day(1)), sub(2, "ann", day(5)), sub(3, "ann", day(6), fr.FAILED),
            sub(4, "ann", END),                                       # at the end: too late
            sub(5, "bob", day(2)), sub(6, "bob", END + dt.timedelta(seconds=1)),
            sub(7, "cy", day(3), fr.FAILED), sub(8, "cy", END + dt.timedelta(days=1)),   # only a late one finished
            sub(9, "dee", END + dt.timedelta(hours=1))]
    plan = fr.plan(subs, "last", END)
    assert picked(plan) == {"ann": ["2"], "bob": ["5"]}
    assert reasons(plan) == {"cy": "all_failed", "dee": "none_before_end"}
    assert plan.left_out[1].says.endswith("(1 made after it)")


def test_chosen_takes_the_teams_own_entries_falls_back_when_the_entry_is_late_and_leaves_out_a_team_with_none():
    subs = [sub(1, "ann", day(1), chosen=True), sub(2, "ann", day(2)),               # chose its first
            sub(3, "bob", day(1)), sub(4, "bob", day(2)), sub(5, "bob", END, chosen=True),   # chose a late one
            sub(6, "cy", day(1)),                                                    # chose nothing
            sub(7, "dee", day(1), chosen=True), sub(8, "dee", day(3), chosen=True)]  # two entries
    plan = fr.plan(subs, "chosen", END)
    assert picked(plan) == {"ann": ["1"], "bob": ["4"], "dee": ["7", "8"]}
    assert reasons(plan) == {"cy": "no_entry"}
    assert "entry 5 was made after the end" in plan.notes["bob"]


def test_best_ranks_each_teams_best_by_the_primary_key_in_its_direction_the_earlier_of_equals():
    subs = [sub(1, "ann", day(1)), sub(2, "ann", day(2)), sub(3, "ann", day(3)), sub(4, "bob", day(1)),
            sub(5, "bob", END)]
    plan = fr.plan(subs, "best", END)
    assert picked(plan) == {"ann": ["1", "2", "3"], "bob": ["4"]}
    scores = {"1": 0.5, "2": 0.7, "3": 0.7, "4": 0.6}
    scored = {k: fr.Scored("h" + k, {"rmse": v, "mae": 1.0}) for k, v in scores.items()}
    high, _ = fr.decide(plan, scored, "rmse", "desc")
    assert [(e.rank, e.team, e.submission) for e in high] == [(1, "ann", "2"), (2, "bob", "4")]
    low, _ = fr.decide(plan, scored, "rmse", "asc")
    assert [(e.rank, e.team, e.submission) for e in low] == [(1, "ann", "1"), (2, "bob", "4")]


def test_every_reason_a_team_is_left_out():
    subs = [sub(1, "ban", day(1), banned=True), sub(2, "pend", day(1), fr.PENDING), sub(3, "pend", day(2)),
            sub(4, "priv", day(1), public=False), sub(5, "priv", day(2), fr.FAILED), sub(6, "pub", day(1))]
    plan = fr.plan(subs, "best", END, public_only=True)
    assert reasons(plan) == {"ban": "banned", "pend": "pending", "priv": "private"}
    assert picked(plan) == {"pub": ["6"]}
    entries, left = fr.decide(plan, {"6": fr.Scored("x", {}, "ERROR (submission error): bad")}, "f1", "desc")
    assert entries == [] and reasons(left)["pub"] == "not_scored" and "bad" in left[-1].says


def test_the_hosts_submissions_are_no_entries():
    """EvalAI leaves a public phase's submissions made by the challenge's hosts off its board: a team of hosts is
    left out, and a host's submission in another team is not that team's last."""
    subs = [sub(1, "hosts", day(1), host=True), sub(2, "mixed", day(1)), sub(3, "mixed", day(2), host=True)]
    plan = fr.plan(subs, "last", END)
    assert reasons(plan) == {"hosts": "host"} and picked(plan) == {"mixed": ["2"]}


def test_ties_share_a_rank_and_the_order_does_not_depend_on_the_listing():
    subs = [sub(1, "ann", day(3)), sub(2, "bob", day(1)), sub(3, "cy", day(2)), sub(4, "dee", day(4))]
    scored = {"1": fr.Scored("a", {"f1": 0.5}), "2": fr.Scored("b", {"f1": 0.5}), "3": fr.Scored("c", {"f1": 0.9}),
              "4": fr.Scored("d", {"f1": 0.1})}
    first, _ = fr.decide(fr.plan(subs, "last", END), scored, "f1", "desc")
    second, _ = fr.decide(fr.plan(list(reversed(subs)), "last", END), scored, "f1", "desc")
    assert [(e.rank, e.team) for e in first] == [(1, "cy"), (2, "bob"), (2, "ann"), (4, "dee")]
    assert first == second


# -- the files --------------------------------------------------------------------------------------------------
def a_record(**changes):
    subs = [sub(1, "ann", day(1)), sub(2, "=bob", day(2)), sub(3, "cy", day(3), fr.FAILED)]
    plan = fr.plan(subs, "last", END)
    entries, left = fr.decide(plan, {"1": fr.Scored("a" * 64, {"f1": 0.25, "acc": 0.5}),
                                     "2": fr.Scored("b" * 64, {"f1": 0.75, "acc": 0.125})}, "f1", "desc")
    value = dict(title="T", board="B", platform="codabench", site="https://cb.example", competition="7", phase="12",
                 phase_name="B", phase_end=fr.iso(END), platform_rule="Force_Last", rule="last", primary_key="f1",
                 sort="desc", keys=["f1", "acc"], reference_sha256="c" * 64, program_sha256="d" * 64,
                 entries=entries, left_out=left)
    value.update(changes)
    return fr.Record(**value)


def test_the_files_are_the_same_bytes_every_time_and_read_back_as_written(tmp_path):
    record = a_record()
    paths = fr.write(record, tmp_path / "one")
    again = fr.write(a_record(), tmp_path / "two")
    assert [p.read_bytes() for p in paths] == [p.read_bytes() for p in again]
    assert fr.read(tmp_path / "one") == record
    value = json.loads(paths[0].read_text(encoding="utf-8"))
    assert value["rule_says"] == fr.RULES["last"].says
    assert [e["team"] for e in value["entries"]] == ["=bob", "ann"]
    assert value["left_out"] == [{"team": "cy", "reason": "all_failed", "detail": "1 failed",
                                  "says": "every submission made before the phase's end failed (1 failed)"}]
    lines = paths[1].read_text(encoding="utf-8").splitlines()
    assert lines[0] == "rank,team,submission,shown_as,created,sha256,f1,acc,note"
    assert lines[1].startswith("1,'=bob,2,,2027-02-02T00:00:00+00:00,") and lines[1].endswith(",0.75,0.125,")
    assert lines[3].startswith(",cy,") and "left out: every submission" in lines[3]


@pytest.mark.parametrize("damage", ["", "{", "[]", '{"format": 1}', '{"format": 2}'])
def test_a_file_that_is_not_a_record_is_refused_in_one_line(tmp_path, damage):
    (tmp_path / fr.JSON_NAME).write_text(damage, encoding="utf-8")
    with pytest.raises(fr.RecordError) as exc:
        fr.read(tmp_path)
    assert "is not a final ranking" in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(fr.RecordError, match="cannot read"):
        fr.read(tmp_path / "missing")


# -- the record against a leaderboard ----------------------------------------------------------------------------
def test_compare_says_every_difference_and_nothing_when_the_board_equals_the_record():
    record = a_record()
    record.entries[0].shown_as = "20"   # =bob's entry 2 was re-run as 20
    good = [fr.Row("=bob", "20", {"f1": 0.75, "acc": 0.125}), fr.Row("ann", "1", {"f1": 0.25000000004, "acc": 0.5})]
    assert fr.compare(record, good) == []
    bad = [fr.Row("=bob", "2", {"f1": 0.75, "acc": 0.126}),        # its original: a shown id too, scores moved
           fr.Row("ann", "9", {"f1": 0.25, "acc": 0.5}),           # re-pointed
           fr.Row("cy", "3", {"f1": 0.9, "acc": 0.9})]             # left out, yet on the board
    lines = fr.compare(record, bad)
    assert lines == [
        "team =bob: submission 2 shows acc = 0.126 on the leaderboard, 0.125 in the record",
        "team ann: the leaderboard shows 9 where the record ranks submission 1 (#2, f1 0.25)",
        "team cy: the leaderboard shows submission 3 (f1 0.9), but the record ranks no entry of this team: every "
        "submission made before the phase's end failed (1 failed)"]
    assert fr.compare(record, good[:1]) == [
        "team ann: the leaderboard shows nothing where the record ranks submission 1 (#2, f1 0.25)"]
    assert fr.compare(record, good + [fr.Row("ann", "5", {"f1": 0.1})]) == [
        "team ann: the leaderboard also shows submission 5, which is no entry of the record"]
    # the platform stores 10 decimals: half a unit of the 10th is rounding, more is a difference
    assert fr.compare(record, [good[0], fr.Row("ann", "1", {"f1": 0.25000000007, "acc": 0.5})]) == [
        "team ann: submission 1 shows f1 = 0.25000000007 on the leaderboard, 0.25 in the record"]


# -- a closed phase ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_a_closed_phase_scores_nothing_and_says_so_in_one_line_in_the_competitions_language(tmp_path, competition):
    entries = closed_phase_entries(competition, "B", dt.datetime(2027, 3, 1, 8, tzinfo=dt.timezone(
        dt.timedelta(hours=8))))
    assert set(entries) == {"config.yaml"}
    write_entries(entries, tmp_path / "in" / "ref")
    (tmp_path / "in" / "res").mkdir()
    (tmp_path / "in" / "res" / "answers.csv").write_bytes(b"\xff\xfe garbage that is never read")
    out = tmp_path / "out"
    out.mkdir()
    (out / "scores.txt").write_text("score: 0.9\n", encoding="utf-8")   # an earlier run's: removed
    proc = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(tmp_path / "in"),
                           str(out)], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""
    line, = proc.stderr.splitlines()
    zh = "language: zh" in entries["config.yaml"].decode("utf-8")
    assert ("2027-03-01 00:00 UTC" in line) and (("最终排名已确定" in line) if zh else ("final ranking is fixed" in line))
    assert sorted(p.name for p in out.iterdir()) == ["detailed_results.html"]


def test_a_closed_phase_does_not_even_look_for_the_submission(tmp_path, monkeypatch):
    from scorer import api

    write_entries(closed_phase_entries(ROOT, "B", END), tmp_path / "ref")
    looked = []
    monkeypatch.setattr(api.Task, "submitted_files", lambda self, res: looked.append(res))
    with pytest.raises(api.PhaseClosed):
        api.Competition.open_with_submission(str(tmp_path / "ref"), str(tmp_path / "res"))
    assert looked == []


@pytest.mark.parametrize("config, says", [
    ({"report": "closed"}, "closed_at"),
    ({"report": "closed", "closed_at": "2027-03-01T00:00:00"}, "with its offset"),
    ({"report": "closed", "closed_at": "2027-03-01"}, "with its offset"),
    ({"report": "full", "closed_at": "2027-03-01T00:00:00Z"}, "nothing unless report is closed"),
])
def test_a_closed_config_without_a_proper_end_is_the_organizers_error(tmp_path, config, says):
    ref = tmp_path / "in" / "ref"
    ref.mkdir(parents=True)
    (tmp_path / "in" / "res").mkdir()
    lines = ["task: bank_comments", "board: B"] + ["%s: %s" % kv for kv in config.items()]
    (ref / "config.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(tmp_path / "in"),
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 2 and says in proc.stderr and len(proc.stderr.splitlines()) == 1


# -- CodaLab v1: the record from the leaderboard download ----------------------------------------------------------
def test_codalab_v1_the_leaderboard_download_gives_the_record_and_check_finds_a_changed_entry(tmp_path):
    from fake_platforms import CodaLabV1Phase
    from platform_workers import participant_zip
    from test_reveal import SAMPLE, assert_scores, oracle, run_reveal, spoiled

    root = members(built(ROOT))
    site = CodaLabV1Phase(root["scoring_program.zip"], root[phases(ROOT)[1]["reference_data"]], tmp_path / "v1")
    other = spoiled(tmp_path)
    uploads = {"sample": participant_zip({"s.csv": SAMPLE.read_bytes()}),
               "other": participant_zip({"s.csv": other.read_bytes()})}
    for participant, upload in (("p1", "sample"), ("p1", "other"), ("p2", "sample")):
        site.finish(site.submit(participant, uploads[upload]))
    code, out, err = run_reveal(tmp_path)
    assert code == 0 and "--codalab-v1" in out
    site.reference = (tmp_path / "reveal.zip").read_bytes()
    for entry in sorted(site.leaderboard.values()):
        site.finish(site.re_run(entry))
    (tmp_path / "results.zip").write_bytes(site.download_leaderboard())
    v1 = ["--codalab-v1", str(tmp_path / "results.zip"), "--end", "2027-03-01T00:00:00Z"]
    code, out, err = run_reveal(tmp_path, *v1)
    assert code == 0, err
    record = fr.read(tmp_path)
    assert (record.platform, record.rule, record.sort) == ("codalab_v1", "last", "desc")
    by_team = {e.team: e for e in record.entries}
    assert_scores(by_team["p1"].scores, oracle(other))
    assert_scores(by_team["p2"].scores, oracle(SAMPLE))
    assert by_team["p1"].created == "" and len(by_team["p1"].sha256) == 64
    assert "the leaderboard equals the final ranking" in out
    assert (tmp_path / "reveal_closed.zip").is_file()
    code, out, _ = run_reveal(tmp_path, *(v1 + ["--check"]))
    assert code == 0
    # p2's entry now shows another run (its output says other scores): --check names it
    site.finish(site.submit("p2", uploads["other"]))
    (tmp_path / "results.zip").write_bytes(site.download_leaderboard())
    code, out, err = run_reveal(tmp_path, *(v1 + ["--check"]))
    assert code == 1 and err == ""
    differs = [l for l in out.splitlines() if l.startswith("differs:")]
    assert len(differs) == 1 and "team p2: the leaderboard shows 6 where the record ranks submission 5" in differs[0]


def test_v1_refuses_what_is_not_its_download_in_one_line(tmp_path):
    from test_reveal import run_reveal

    (tmp_path / "results.zip").write_bytes(b"not a zip")
    code, _, err = run_reveal(tmp_path, "--codalab-v1", str(tmp_path / "results.zip"), "--end", "2027-03-01T00:00Z")
    assert code == 2 and "is not a readable zip" in err and len(err.splitlines()) == 1
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("readme.txt", b"x")
    (tmp_path / "results.zip").write_bytes(buf.getvalue())
    code, _, err = run_reveal(tmp_path, "--codalab-v1", str(tmp_path / "results.zip"), "--end", "2027-03-01T00:00Z")
    assert code == 2 and "holds no" in err
    code, _, err = run_reveal(tmp_path, "--codalab-v1", str(tmp_path / "results.zip"), "--end", "2027-03-01")
    assert code == 2 and "offset" in err


# -- a later run keeps the record ----------------------------------------------------------------------------------
def test_a_later_run_keeps_the_record_and_decides_again_only_the_teams_left_out_as_pending():
    first = a_record()   # =bob #1 (submission 2), ann #2 (submission 1), cy left out: every one failed
    first.entries[0].shown_as = "20"
    first.left_out.append(fr.LeftOut("dee", "pending", "4"))
    subs = [sub(9, "ann", day(1)), sub(2, "=bob", day(2)), sub(3, "cy", day(3)), sub(4, "dee", day(4)),
            sub(5, "eve", day(5))]   # ann's entry re-pointed; cy's failed run now says finished; dee done; eve new
    plan = fr.plan(subs, "last", END)
    entries, left = fr.decide(plan, {k: fr.Scored(k * 64, {"f1": v, "acc": 0.5}) for k, v in
                                     (("9", 0.9), ("2", 0.75), ("3", 0.99), ("4", 0.8), ("5", 0.1))}, "f1", "desc")
    fresh = a_record(entries=entries, left_out=left)
    kept, lines = fr.keep(first, fresh)
    assert [(e.rank, e.team, e.submission, e.shown_as) for e in kept.entries] == [
        (1, "dee", "4", ""), (2, "=bob", "2", "20"), (3, "ann", "1", "")]
    assert [(l.team, l.reason) for l in kept.left_out] == [("cy", "all_failed")]
    assert lines == [
        "team ann: the platform's submissions now give submission 9 (f1 0.9); the record keeps submission 1 (f1 0.25)",
        "team cy: the platform's submissions now give submission 3 (f1 0.99); the record keeps no entry: every "
        "submission made before the phase's end failed (1 failed)",
        "team eve: the platform's submissions now give submission 5 (f1 0.1); the record keeps nothing (the team is "
        "not listed)"]
    with pytest.raises(fr.RecordError, match="another reference sha256"):
        fr.keep(first, a_record(reference_sha256="e" * 64))


def test_a_second_reveal_keeps_the_record_says_what_changed_and_new_record_makes_it_again(tmp_path):
    from fake_platforms import CodaLabV1Phase
    from platform_workers import participant_zip
    from test_reveal import SAMPLE, run_reveal, spoiled

    root = members(built(ROOT))
    site = CodaLabV1Phase(root["scoring_program.zip"], root[phases(ROOT)[1]["reference_data"]], tmp_path / "v1")
    uploads = {"sample": participant_zip({"s.csv": SAMPLE.read_bytes()}),
               "other": participant_zip({"s.csv": spoiled(tmp_path).read_bytes()})}
    run_reveal(tmp_path)
    site.reference = (tmp_path / "reveal.zip").read_bytes()
    site.finish(site.submit("p1", uploads["sample"]))
    (tmp_path / "results.zip").write_bytes(site.download_leaderboard())
    v1 = ["--codalab-v1", str(tmp_path / "results.zip"), "--end", "2027-03-01T00:00:00Z"]
    assert run_reveal(tmp_path, *v1)[0] == 0
    written = (tmp_path / fr.JSON_NAME).read_bytes()
    site.finish(site.submit("p1", uploads["other"]))   # the entry now shows another run
    (tmp_path / "results.zip").write_bytes(site.download_leaderboard())
    code, out, _ = run_reveal(tmp_path, *v1)
    assert code == 1 and (tmp_path / fr.JSON_NAME).read_bytes() == written
    assert "changed since the record: team p1: the platform's submissions now give submission 2" in out
    code, out, _ = run_reveal(tmp_path, *(v1 + ["--new-record"]))
    assert code == 0 and fr.read(tmp_path).entries[0].submission == "2"
