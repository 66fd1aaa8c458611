"""The platform contract: how score.py is run, what it writes, and what it never reveals."""
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import (ROOT, as_platform, make_input, read_scores, read_scores_json, run_score, run_score_process,
                     write_files, zipped)

from organizer.phase_data import assemble_reference  # noqa: E402

SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"


def phase_input(tmp_path, board, submission_files, name="input", reveal=False):
    base = Path(tmp_path) / name
    assemble_reference(ROOT / "reference_data", board, base / "ref", reveal)
    write_files(base / "res", submission_files)
    return base




def test_runs_like_codalab_v1_from_a_copied_program_and_a_wrapped_zip(tmp_path):
    """Program unzipped elsewhere under another name, cwd = run/, submission in a wrapping folder + junk."""
    run_dir = tmp_path / "run"
    program = run_dir / "program"
    with zipfile.ZipFile(tmp_path / "scoring_program.zip", "w") as zf:
        for path in sorted((ROOT / "scoring_program").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, path.relative_to(ROOT / "scoring_program").as_posix())
    with zipfile.ZipFile(tmp_path / "scoring_program.zip") as zf:
        zf.extractall(program)
    sample = SAMPLE.read_bytes()
    upload = zipped({"my_preds/submission.csv": sample, "__MACOSX/my_preds/._submission.csv": b"\0\x05junk",
                     "my_preds/.DS_Store": b"\0\0junk"})
    inp = phase_input(run_dir, "A", {})
    with zipfile.ZipFile(io.BytesIO(upload)) as zf:
        zf.extractall(inp / "res")
    command = (program / "metadata").read_text().split("command:")[1].split("\n")[0].strip()
    argv = command.replace("$program", str(program)).replace("$input", str(inp)) \
        .replace("$output", str(run_dir / "output")).split(" ")
    argv[0] = sys.executable  # python3 of this environment
    proc = subprocess.run(argv, cwd=str(run_dir), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    reference = run_score(phase_input(tmp_path, "A", {"submission.csv": sample}, "plain"), tmp_path / "plain_out")
    assert reference.returncode == 0
    assert (run_dir / "output" / "scores.txt").read_bytes() == (tmp_path / "plain_out" / "scores.txt").read_bytes()


def plain_scores(tmp_path, board="A"):
    """The scores of the sample submission given as a plain file: what every other shape must give."""
    out = tmp_path / ("plain_" + board)
    assert run_score(phase_input(tmp_path, board, {"s.csv": SAMPLE.read_bytes()}, "plain_in_" + board, reveal=True),
                     out).returncode == 0
    return read_scores(out)


def test_a_zip_inside_res_is_read(tmp_path):
    inp = phase_input(tmp_path, "A", {"upload.zip": zipped({"folder/submission.csv": SAMPLE.read_bytes()})})
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert read_scores(tmp_path / "out") == plain_scores(tmp_path)


def test_codabench_metadata_file_in_res_is_ignored(tmp_path):
    inp = phase_input(tmp_path, "B", {"submission.csv": SAMPLE.read_bytes(),
                                      "metadata": "exitCode: 0\nelapsedTime: 1.2\n"}, reveal=True)
    proc = run_score(inp, tmp_path / "out", cwd=ROOT / "scoring_program")  # Codabench's cwd
    assert proc.returncode == 0, proc.stderr
    assert read_scores(tmp_path / "out") == plain_scores(tmp_path, "B")


def test_scores_files_follow_the_platform_rules(tmp_path):
    proc = run_score(phase_input(tmp_path, "A", {"s.csv": SAMPLE.read_bytes()}), tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    lines = (out / "scores.txt").read_text().splitlines()
    import yaml
    keys = list(yaml.safe_load((ROOT / "competition.yaml").read_text())["leaderboard"]["columns"])
    assert [l.split(":")[0] for l in lines] == keys  # every leaderboard key, in order
    for line in lines:
        assert line.count(":") == 1 and ": " in line and "e" not in line.split(": ")[1]
    assert yaml.safe_load((out / "scores.txt").read_text()) == read_scores_json(out) == read_scores(out)
    assert sorted(p.name for p in out.iterdir()) == ["detailed_results.html", "scores.json", "scores.txt"]
    html = (out / "detailed_results.html").read_text()
    assert "<script" not in html and "://" not in html and "src=" not in html


def test_outputs_are_byte_identical_across_runs(tmp_path):
    outs = []
    for k in range(2):
        inp = phase_input(tmp_path, "A", {"submission.csv": SAMPLE.read_bytes()}, "in%d" % k)
        assert run_score_process(inp, tmp_path / ("out%d" % k)).returncode == 0  # each with its own hash seed
        outs.append(tmp_path / ("out%d" % k))
    for name in ("scores.txt", "scores.json", "detailed_results.html"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()


def test_board_a_run_reveals_nothing_of_board_b(tmp_path):
    """Change only board-B rows of the submission: every participant-visible byte must stay the same."""
    import pandas as pd
    boards = pd.read_csv(ROOT / "reference_data" / "boards.csv", dtype=str)
    b_ids = set(boards.loc[boards.board == "B", "id"])
    sub = pd.read_csv(SAMPLE, dtype=str)
    worse = sub.copy()
    in_b = worse["id"].isin(b_ids)
    worse.loc[in_b, "class"] = "0"
    worse.loc[in_b, "BIO_anno"] = worse.loc[in_b, "BIO_anno"].str.replace("B-", "I-")
    runs = []
    for k, frame in enumerate((sub, worse)):
        inp = phase_input(tmp_path, "A", {"submission.csv": frame.to_csv(index=False)}, "in%d" % k)
        proc = run_score(inp, tmp_path / ("out%d" % k))
        assert proc.returncode == 0, proc.stderr
        runs.append((proc, tmp_path / ("out%d" % k)))
    (p0, o0), (p1, o1) = runs
    assert p0.stdout.replace(str(o0), "") == p1.stdout.replace(str(o1), "") and p0.stderr == p1.stderr == ""
    for name in ("scores.txt", "scores.json", "detailed_results.html"):
        assert (o0 / name).read_bytes() == (o1 / name).read_bytes()
    assert not (o0 / "private").exists()
    # and the board-A numbers are not the board-B or whole-set numbers
    whole = run_score(make_input(tmp_path, {"config.yaml": "task: bank_comments\n",
                                            "gold.csv": (ROOT / "reference_data" / "gold.csv").read_bytes()},
                                 {"s.csv": SAMPLE.read_bytes()}, "all"), tmp_path / "out_all")
    assert whole.returncode == 0
    assert read_scores(o0)["score"] != read_scores(tmp_path / "out_all")["score"]


def test_no_run_writes_a_score_of_board_b_anywhere_whatever_the_options(tmp_path):
    """Board A's phase and the sealed board B's hold no answer of board B, so no run can write its scores, not
    even into CodaLab v1's private/ (whose private_output.zip the site's own API links for the submitter:
    codalab-competitions apps/api/views/competition_views.py, SubmissionScoreView.get)."""
    for board in ("A", "B"):
        for platform, kept in (("codalab_v1", True), ("codabench", False), ("local", False)):
            inp = as_platform(phase_input(tmp_path, board, {"submission.csv": SAMPLE.read_bytes()},
                                          platform + board), platform)
            config = inp / "ref" / "config.yaml"
            config.write_text(config.read_text() + "private_output: true\n")
            out = tmp_path / ("out_" + platform + board)
            assert run_score(inp, out).returncode == 0
            assert (out / "private").exists() == kept, platform
            written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
            assert written == ["detailed_results.html"] + ["private/provenance.json"] * kept + \
                ["scores.json", "scores.txt"], (board, platform, written)
    sealed = read_scores(out)
    assert set(sealed.values()) == {-1.0}


def test_boards_cover_every_id_once_and_split_40_60():
    import pandas as pd
    boards = pd.read_csv(ROOT / "reference_data" / "boards.csv", dtype=str)
    gold = pd.read_csv(ROOT / "reference_data" / "gold.csv", dtype=str)
    assert sorted(boards["id"]) == sorted(gold["id"]) and not boards["id"].duplicated().any()
    assert (boards["board"] == "A").sum() == round(0.4 * len(gold))
    # stratified: each class keeps its share on board A within one document
    merged = gold.merge(boards, on="id")
    for _, group in merged.groupby("class"):
        assert abs((group["board"] == "A").sum() - 0.4 * len(group)) <= 1


def test_kaggle_usage_column_selects_the_boards(tmp_path):
    gold = ("id,text,BIO_anno,class,Usage\n0,招行,B-BANK I-BANK,2,Public\n1,好,B-COMMENTS_ADJ,1,Private\n"
            "2,差,B-COMMENTS_ADJ,0,Ignored\n")
    sub = "id,BIO_anno,class\n0,B-BANK I-BANK,2\n1,O,0\n2,O,2\n"
    for board, f1 in (("A", 1.0), ("B", 0.0)):
        config = "task: bank_comments\nboard: %s\nboards: {usage_column: Usage}\n" % board
        inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold}, {"s.csv": sub}, "in" + board)
        proc = run_score(inp, tmp_path / ("out" + board))
        assert proc.returncode == 0, proc.stderr
        assert read_scores(tmp_path / ("out" + board))["ner_f1"] == f1


ORGANIZER_CASES = [
    ("task: bank\n", "task is 'bank'; allowed:"),
    ("task: bank_comments\nboard: C\n", "board is 'C'; allowed: A, B, all"),
    ("task: bank_comments\noptions: {scheme: bio}\n", "options.scheme is 'bio'; allowed: 'iob2', 'conlleval'"),
    ("task: bank_comments\noptions: {ner_weight: 2}\n", "options.ner_weight is 2; allowed: a number in [0.0, 1.0]"),
    ("task: bank_comments\noptions: {colour: red}\n", "options.colour is not an option of task bank_comments"),
    ("task: bank_comments\nprimary_key: f1\n", "primary_key is 'f1'; allowed for task bank_comments: score,"),
    ("task: bank_comments\nboard: A\n", "names neither a file nor a usage_column"),
    ("task: bank_comments\nboard: A\nboards: {file: nowhere.csv}\n", "boards file nowhere.csv"),
    ("task: bank_comments\nfiles: {gold: missing.csv}\n", "gold file missing.csv"),
    ("task: bank_comments\nscoring: yes\n", "unknown key 'scoring'"),
    ("[not a mapping]\n", "must be a mapping"),
]


@pytest.mark.parametrize("config,fragment", ORGANIZER_CASES, ids=[c[1][:30] for c in ORGANIZER_CASES])
def test_organizer_mistakes_exit_2_with_the_key_value_and_what_is_allowed(tmp_path, config, fragment):
    gold = "id,BIO_anno,class\n0,O,2\n"
    inp = as_platform(make_input(tmp_path, {"config.yaml": config, "gold.csv": gold}, {"s.csv": gold}), "codalab_v1")
    proc = run_score(inp, tmp_path / "o")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    details = tmp_path / "o" / "private" / "organizer_error.txt"  # reference-data errors: details kept private
    assert fragment in proc.stderr or fragment in details.read_text()


def test_bad_boards_file_is_an_organizer_error(tmp_path):
    gold = "id,BIO_anno,class\n0,O,2\n1,O,2\n"
    config = "task: bank_comments\nboard: A\nboards: {file: boards.csv}\n"
    for name, boards, fragment in [("dup", "id,board\n0,A\n0,B\n1,B\n", "lists id 0 twice"),
                                   ("gap", "id,board\n0,A\n", "does not assign 1 reference unit"),
                                   ("val", "id,board\n0,A\n1,C\n", "has board 'C'")]:
        inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold, "boards.csv": boards}, {"s.csv": gold}, name)
        proc = run_score(as_platform(inp, "codalab_v1"), tmp_path / ("o" + name))
        assert proc.returncode == 2 and "reference data of this phase is invalid" in proc.stderr, proc.stderr
        assert fragment in (tmp_path / ("o" + name) / "private" / "organizer_error.txt").read_text()


def test_a_bug_exits_3_with_a_short_line_and_a_private_traceback(tmp_path, monkeypatch, capsys):
    from scorer.platform import cli

    def broken(*args):
        raise KeyError("secret detail")

    monkeypatch.setattr(cli, "run", broken)
    for platform, kept in (("codalab_v1", True), ("codabench", False), ("local", False)):
        inp = as_platform(tmp_path / ("in_" + platform), platform)
        out = tmp_path / ("out_" + platform)
        code = cli.main([str(inp), str(out)])
        err = capsys.readouterr().err
        assert code == 3 and len(err.strip().splitlines()) == 1 and "secret detail" not in err
        assert (out / "private").exists() == kept, platform
        if kept:
            assert "secret detail" in (out / "private" / "traceback.txt").read_text()
            assert "private output (private/traceback.txt)" in err
        else:  # nowhere a participant could reach: the organizer reproduces it locally
            assert "python3 -m organizer score" in err


def test_no_arguments_and_no_codabench_folders_prints_usage():
    proc = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py")], capture_output=True, text=True)
    if os.path.isdir("/app/input"):
        pytest.skip("a Codabench layout exists on this machine")
    assert proc.returncode == 2 and "usage: score.py INPUT OUTPUT" in proc.stderr


def test_reference_errors_show_no_gold_to_participants_but_all_to_the_organizer(tmp_path):
    gold = "id,BIO_anno,class\n0,O,2\n1,B-BANK,secret-class-7\n"
    for platform in ("codabench", "local"):
        inp = make_input(tmp_path, {"config.yaml": "task: bank_comments\n", "gold.csv": gold}, {"s.csv": gold}, platform)
        proc = run_score(as_platform(inp, platform), tmp_path / ("out_" + platform))
        assert proc.returncode == 2 and "secret-class-7" not in proc.stderr and "python3 -m organizer score" in proc.stderr
        assert not (tmp_path / ("out_" + platform) / "private").exists()
    inp = as_platform(make_input(tmp_path, {"config.yaml": "task: bank_comments\n", "gold.csv": gold}, {"s.csv": gold}),
                      "codalab_v1")
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "secret-class-7" not in proc.stderr
    assert "secret-class-7" not in (tmp_path / "out" / "detailed_results.html").read_text()
    assert "secret-class-7" in (tmp_path / "out" / "private" / "organizer_error.txt").read_text()
    organizer = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(inp),
                                str(tmp_path / "out2")], capture_output=True, text=True,
                               env=dict(os.environ, SCORER_ORGANIZER="1"))
    assert organizer.returncode == 2 and "secret-class-7" in organizer.stderr


def test_reference_notes_are_written_only_when_asked_for(tmp_path):
    gold = "id,BIO_anno,class\n0,O I-BANK,2\n"   # an ill-formed gold transition makes a note
    cases = [("local", "local", "private_output: true\n", {}, False),
             ("v1 not asked", "codalab_v1", "", {}, False),
             ("v1", "codalab_v1", "private_output: true\n", {}, True),
             ("codabench", "codabench", "private_output: true\n", {}, False),   # its output zip may be public
             ("organizer", "local", "", {"SCORER_ORGANIZER": "1"}, True)]
    for name, platform, extra, env, expected in cases:
        inp = as_platform(make_input(tmp_path, {"config.yaml": "task: bank_comments\n" + extra, "gold.csv": gold},
                                     {"s.csv": "id,BIO_anno,class\n0,O O,2\n"}, name), platform)
        proc = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(inp),
                               str(tmp_path / ("o" + name))], capture_output=True, text=True,
                              env=dict(os.environ, **env))
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / ("o" + name) / "private" / "reference_notes.txt").exists() == expected, name


def test_the_process_exits_with_every_line_said_and_every_file_whole(tmp_path):
    """score.py ends without tearing the interpreter down: its streams are flushed and its files closed first."""
    good = run_score_process(phase_input(tmp_path, "A", {"s.csv": SAMPLE.read_bytes()}), tmp_path / "out")
    assert good.returncode == 0 and good.stdout.rstrip().splitlines()[-1].endswith("detailed_results.html"), good.stdout
    assert read_scores(tmp_path / "out") == read_scores_json(tmp_path / "out")
    assert (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    bad = run_score_process(phase_input(tmp_path, "A", {"s.csv": "id,BIO_anno,class\n"}, name="bad"), tmp_path / "o2")
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1 and bad.stdout == ""
