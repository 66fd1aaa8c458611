"""python3 -m organizer rescore: parallel re-scoring, caching, ranks, errors, escaped HTML."""
import csv

import pytest

from helpers import ROOT
from helpers import organizer
from organizer import bundle, rescore
from bundle_shared import bank_oracle, board_ids, read_csv

GOLD = ROOT / "reference_data" / "gold.csv"
SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"


def perfect_submission():
    rows = read_csv(GOLD)
    return "id,BIO_anno,class\n" + "".join("%s,%s,%s\n" % (r["id"], r["BIO_anno"], r["class"]) for r in rows)


def flipped_classes():
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    out = [lines[0]]
    for k, line in enumerate(lines[1:]):
        head, cls = line.rsplit(",", 1)
        out.append("%s,%s" % (head, (int(cls) + 1) % 3 if k % 4 == 0 else cls))
    return "\n".join(out) + "\n"


def run(submissions, out, *extra):
    return organizer("rescore", ROOT, "A", submissions, out, "-j", "2", *extra)


@pytest.fixture
def submissions(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "team_a.csv").write_bytes(SAMPLE.read_bytes())
    (folder / "team_b.zip").write_bytes(bundle.zip_bytes({"preds/answer.csv": perfect_submission().encode()}))
    (folder / "team_c.csv").write_text("id,BIO_anno,class\n0,O,5\n", encoding="utf-8")
    (folder / "x<b>&y").mkdir()
    (folder / "x<b>&y" / "pred.csv").write_text(flipped_classes(), encoding="utf-8")
    return folder


def test_ranks_scores_and_errors(tmp_path, submissions):
    out = tmp_path / "out"
    proc = run(submissions, out, "--progress", "0")
    assert proc.returncode == 0, proc.stderr
    assert "board A: 4 submissions (0 cached, 1 failed)" in proc.stdout.splitlines()
    # asked for, progress goes to stderr (here a line at every step: 0 seconds between lines)
    assert "organizer rescore: board A 4/4 (0 cached, 1 failed;" in proc.stderr, proc.stderr
    with open(out / "leaderboard.csv", encoding="utf-8", newline="") as fh:
        rows = {r["submission"]: r for r in csv.DictReader(fh)}
    ids = board_ids(ROOT, "A")
    # the gold itself scores 1 (by definition); the others against seqeval + scikit-learn
    assert rows["team_b"]["rank"] == "1" and float(rows["team_b"]["score"]) == 1.0
    a = bank_oracle(GOLD, SAMPLE, ids)
    (tmp_path / "flipped.csv").write_text(flipped_classes(), encoding="utf-8")
    d = bank_oracle(GOLD, tmp_path / "flipped.csv", ids)
    assert float(rows["team_a"]["score"]) == pytest.approx(a["score"], abs=1e-9)
    assert float(rows["x<b>&y"]["score"]) == pytest.approx(d["score"], abs=1e-9)
    expected_order = sorted(["team_a", "x<b>&y"], key=lambda t: -{"team_a": a, "x<b>&y": d}[t]["score"])
    assert [rows[t]["rank"] for t in expected_order] == ["2", "3"]
    assert rows["team_c"]["rank"] == "" and rows["team_c"]["status"] == "failed"
    assert "不是合法的类别" in rows["team_c"]["error"] and rows["team_c"]["score"] == ""  # a zh competition
    page = (out / "leaderboard.html").read_text(encoding="utf-8")
    assert "x&lt;b&gt;&amp;y" in page and "x<b>&y" not in page


def test_rerun_skips_finished_ones_and_redoes_changed_ones(tmp_path, submissions):
    out = tmp_path / "out"
    assert run(submissions, out).returncode == 0
    first = (out / "leaderboard.csv").read_bytes()
    proc = run(submissions, out)
    assert "board A: 4 submissions (4 cached, 1 failed)" in proc.stdout.splitlines()
    assert proc.stderr == ""   # no progress where stderr is no terminal, unless asked
    assert (out / "leaderboard.csv").read_bytes() == first
    (submissions / "team_c.csv").write_bytes(SAMPLE.read_bytes())
    proc = run(submissions, out)
    assert "board A: 4 submissions (3 cached, 0 failed)" in proc.stdout.splitlines()
    with open(out / "leaderboard.csv", encoding="utf-8", newline="") as fh:
        rows = {r["submission"]: r for r in csv.DictReader(fh)}
    assert rows["team_c"]["score"] == rows["team_a"]["score"] and rows["team_c"]["rank"] == rows["team_a"]["rank"]


def test_ties_share_a_rank_and_failures_come_last():
    records = {"b": {"exit_code": 0, "scores": {"s": 0.5}}, "a": {"exit_code": 0, "scores": {"s": 0.5}},
               "c": {"exit_code": 0, "scores": {"s": 0.9}}, "d": {"exit_code": 1, "scores": {}, "error": "bad"}}
    header, rows = rescore.leaderboard(records, "s", "desc", ["s"])
    assert header[:4] == ["rank", "tier", "submission", "status"] and header[-1] == "error"
    assert [(r[0], r[2]) for r in rows] == [(1, "c"), (2, "a"), (2, "b"), ("", "d")]
    _, rows = rescore.leaderboard(records, "s", "asc", ["s"])
    assert [(r[0], r[2]) for r in rows][:3] == [(1, "a"), (1, "b"), (3, "c")]


def test_team_names_that_look_like_formulas_stay_text_in_the_csv(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    for name in ("=HYPERLINK(x)", "+1", "-team", "@sum"):
        (folder / (name + ".csv")).write_bytes(SAMPLE.read_bytes())
    out = tmp_path / "out"
    assert run(folder, out).returncode == 0
    with open(out / "leaderboard.csv", encoding="utf-8", newline="") as fh:
        names = sorted(r["submission"] for r in csv.DictReader(fh))
    # a spreadsheet reads a cell starting with = + - @ as a formula; a leading quote makes it text
    assert names == sorted(["'=HYPERLINK(x)", "'+1", "'-team", "'@sum"])


# -- each run in process is score.py's run, to the byte ----------------------------------------------------------
def _score_py(competition, board, submission, base):
    """score.py in its own process on the board's reference data (revealed) and ``submission``, as an organizer's
    run: (exit code, stdout with OUTPUT for the output folder, the last stderr line, {output file: bytes})."""
    import os
    import shutil
    import subprocess
    import sys

    from helpers import SCORE
    from organizer.layout import place_submission
    from organizer.phase_data import assemble_reference

    assemble_reference(competition / "reference_data", board, base / "in" / "ref", reveal=True)
    place_submission(submission, base / "in" / "res")
    out = base / "out"
    proc = subprocess.run([sys.executable, str(SCORE), str(base / "in"), str(out)], capture_output=True, text=True,
                          env=dict(os.environ, SCORER_ORGANIZER="1"), timeout=300)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    shutil.rmtree(base / "in")
    return proc.returncode, proc.stdout.replace(str(out), "OUTPUT"), lines[-1] if lines else "", files


@pytest.mark.parametrize("competition", [ROOT, ROOT / "examples" / "emotion_cause"], ids=["bank", "emotion_cause"])
def test_every_record_and_output_is_what_score_py_gives(tmp_path, competition):
    import json
    import shutil

    subs = tmp_path / "subs"
    subs.mkdir()
    kit = competition / "starting_kit"
    if competition == ROOT:
        (subs / "sample.csv").write_bytes(SAMPLE.read_bytes())
        (subs / "perfect.zip").write_bytes(bundle.zip_bytes({"preds/answer.csv": perfect_submission().encode()}))
        (subs / "wrong.csv").write_text("id,BIO_anno,class\n0,O,5\n", encoding="utf-8")
        (subs / "flipped").mkdir()
        (subs / "flipped" / "pred.csv").write_text(flipped_classes(), encoding="utf-8")
    else:
        shutil.copytree(kit / "submission", subs / "sample")
        shutil.copytree(kit / "submission", subs / "no_pairs")
        for path in (subs / "no_pairs").iterdir():
            path.write_text("[]", encoding="utf-8")
    out = tmp_path / "out"
    proc = organizer("rescore", competition, "A", subs, out, "-j", "2")
    assert proc.returncode == 0, proc.stderr
    for board in ("A", "B"):
        for entry in sorted(subs.iterdir()):
            team = rescore.team_name(entry)
            run_dir = out / "runs" / board / team
            record = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))
            code, stdout, error, files = _score_py(competition, board, entry, tmp_path / "py" / board / team)
            assert (record["exit_code"], record["stdout"], record["error"]) == \
                (code, stdout, error if code else ""), (board, team)
            made = {p.relative_to(run_dir / "output").as_posix(): p.read_bytes()
                    for p in sorted((run_dir / "output").rglob("*")) if p.is_file()}
            assert made == files, (board, team, sorted(made), sorted(files))
            if code == 0:
                assert record["scores"] == json.loads(files["scores.json"])
    assert {json.loads((out / "runs" / "A" / t / "result.json").read_text())["exit_code"]
            for t in ("wrong", "sample")} == {0, 1} if competition == ROOT else True
