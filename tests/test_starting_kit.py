"""The participants' starting kit: validate.py (every problem, en/zh) and score_local.py, run from the shipped zip."""
import io
import subprocess
import sys
import zipfile

import pytest

from helpers import ROOT, in_english, make_input, run_score
from bundle_shared import bank_oracle, built, members, read_csv



SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The starting kit exactly as participants download it, unpacked far from the project."""
    folder = tmp_path_factory.mktemp("kit")
    with zipfile.ZipFile(io.BytesIO(members(built(ROOT))["starting_kit.zip"])) as archive:
        archive.extractall(folder)
    assert [p.name for p in folder.iterdir()] == ["starting_kit"]   # one folder, nothing spilled beside it
    return in_english(folder / "starting_kit")


def tool(kit, script, *args):
    # -E -s: no PYTHONPATH, no user site; cwd = the kit. Only the engine inside the kit can be imported.
    return subprocess.run([sys.executable, "-E", "-s", str(kit / script)] + [str(a) for a in args],
                          cwd=str(kit), capture_output=True, text=True, timeout=600)


def broken(tmp_path):
    """The sample with five planted problems (line numbers are file lines)."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2].rsplit(",", 1)[0] + ",7"        # line 3, id 1: class 7
    lines[3] = lines[1]                                  # line 4: id 0 again
    lines[5] = lines[5].replace("B-BANK", "B-BNK", 1)    # line 6, id 4: unknown tag
    lines[6] = "99999,O O,1"                             # line 7: unknown id (so id 5 is missing)
    lines[8] = lines[8].rsplit(",", 1)[0].rsplit(" ", 1)[0] + "," + lines[8].rsplit(",", 1)[1]  # line 9: one tag short
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_the_kit_validates_the_sample_without_the_project(kit):
    proc = tool(kit, "validate.py", "sample_submission.csv")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no problems found (checked against the 5,000 test items)" in proc.stdout


def test_validate_prints_every_problem(kit, tmp_path):
    proc = tool(kit, "validate.py", broken(tmp_path))
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    assert out[0] == "bad.csv: 6 problem(s) found:"
    expected = ["line 3 (id 1), column class: '7'", "line 4, column id: id 0 appears twice (lines 2 and 4)",
                "line 6 (id 4), column BIO_anno: tag", "line 7, column id: id '99999' is not in the test set",
                "line 9 (id 7), column BIO_anno: ", "2 id(s) of the test set have no row (2, 5)"]
    assert len(out) == 1 + len(expected)
    for line, fragment in zip(out[1:], expected):
        assert fragment in line, (fragment, line)


def test_validate_speaks_chinese_when_the_competition_does(kit, tmp_path):
    config = tmp_path / "zh.yaml"
    config.write_text("task: bank_comments\nlanguage: zh\n", encoding="utf-8")
    proc = tool(kit, "validate.py", broken(tmp_path), "--config", config)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == "bad.csv：发现 6 个问题："
    assert "bad.csv 第 3 行（id 1），列 class：'7' 不是合法的类别" in proc.stdout


def test_each_single_fault_is_found_on_the_line_score_py_names(tmp_path, kit):
    """validate and score.py agree on where the (first) problem is."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    faults = {"class": (10, lambda l: l.rsplit(",", 1)[0] + ",x"), "tag": (20, lambda l: l.replace(" O", " 0", 1)),
              "count": (30, lambda l: l.rsplit(",", 1)[0] + " O," + l.rsplit(",", 1)[1])}
    for name, (index, change) in faults.items():
        damaged = list(lines)
        damaged[index] = change(damaged[index])
        text = "\n".join(damaged)
        inp = make_input(tmp_path / name, {p.name: p.read_bytes() for p in (ROOT / "reference_data").iterdir()
                                           if p.name != "board_B.yaml"}, {"s.csv": text})
        (inp / "ref" / "board_A.yaml").rename(inp / "ref" / "config.yaml")
        in_english(inp / "ref")
        proc = run_score(inp, tmp_path / name / "out")
        assert proc.returncode == 1 and "s.csv line %d" % (index + 1) in proc.stderr
        sub = tmp_path / name / "s.csv"
        sub.write_text(text, encoding="utf-8")
        check = tool(kit, "validate.py", sub)
        assert check.returncode == 1
        assert check.stdout.splitlines()[0] == "s.csv: 1 problem(s) found:"
        assert "s.csv line %d" % (index + 1) in check.stdout


def test_the_platform_stops_at_a_problem_the_offline_check_also_lists(tmp_path):
    """One validation code: stopping at the first problem (score.py) or collecting all (validate.py)."""
    from scorer.api import Task
    from scorer.errors import SubmissionError

    res = tmp_path / "res"
    res.mkdir()
    broken(tmp_path).rename(res / "bad.csv")
    task = Task.public(str(ROOT / "starting_kit"), {"task": "bank_comments"})
    collected = [p.text() for p in task.problems(str(res))]
    with pytest.raises(SubmissionError) as first:
        task.read_submission(str(res))
    assert len(collected) == 6 and first.value.message in collected
    assert [int(m.split(" line ")[1].split()[0].rstrip(",")) for m in collected[:5]] == [3, 4, 6, 7, 9]  # file lines


def test_score_local_on_the_dev_set_equals_the_oracles(kit, tmp_path):
    proc = tool(kit, "score_local.py", "dev/sample_prediction.csv", "--out", tmp_path / "scores")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    expected = bank_oracle(kit / "dev" / "gold.csv", kit / "dev" / "sample_prediction.csv")
    for line in (tmp_path / "scores" / "scores.txt").read_text(encoding="utf-8").splitlines():
        key, value = line.split(":")
        if key in expected:
            assert float(value) == pytest.approx(expected[key], abs=1e-9), key


def test_score_local_shows_the_competition_title_and_column_labels(kit, tmp_path):
    """The dev page says whose competition it is and names each score as the leaderboard does, in its language."""
    import html

    import yaml

    comp = yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))
    proc = tool(kit, "score_local.py", "dev/sample_prediction.csv", "--out", tmp_path / "scores")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = html.unescape((tmp_path / "scores" / "detailed_results.html").read_text(encoding="utf-8"))
    heading = page.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading.startswith(comp["title"]), heading
    labels = [c["label"] for c in comp["leaderboard"]["columns"].values()]
    assert labels and all(label in page for label in labels), [l for l in labels if l not in page]


def test_score_local_says_what_it_scored(kit, tmp_path):
    proc = tool(kit, "score_local.py", "dev/sample_prediction.csv", "--out", tmp_path / "scores")
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout.splitlines()
    assert out[0] == "Scored the dev set (300 items in dev/) as the platform scores the test set:"
    assert out[1].startswith("  score: ") and "board all" not in proc.stdout


def test_score_local_given_the_test_file_says_it_is_the_test_file(kit):
    proc = tool(kit, "score_local.py", "sample_submission.csv")  # test ids, not dev ids
    assert proc.returncode == 1
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0] == ("ERROR (submission error): sample_submission.csv is a prediction for the test set (its ids are "
                        "the test items of the public test inputs), but score_local.py scores predictions for the dev "
                        "set in dev/; give it a prediction for the dev items, and check a test prediction with "
                        "validate.py.")
    assert "not in the test set" not in proc.stderr


def test_score_local_says_the_test_set_of_a_message_is_the_dev_set(kit, tmp_path):
    lines = (kit / "dev" / "sample_prediction.csv").read_text(encoding="utf-8").split("\n")
    lines[5] = "nosuchid," + lines[5].split(",", 1)[1]
    bad = tmp_path / "dev_pred.csv"
    bad.write_text("\n".join(lines), encoding="utf-8")
    proc = tool(kit, "score_local.py", bad)
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert "\n" not in line and "id 'nosuchid' is not in the test set" in line
    assert line.endswith("(score_local.py checks against the dev set in dev/: here the test set means its 300 dev "
                         "items.)")


def test_a_path_that_is_not_there_is_one_line(kit):
    for script in ("validate.py", "score_local.py"):
        proc = tool(kit, script, "nosuch.csv")
        assert proc.returncode == 2 and "Traceback" not in proc.stdout + proc.stderr
        assert "cannot find " in proc.stdout + proc.stderr and "nosuch.csv" in proc.stdout + proc.stderr


def test_score_local_without_dev_data_says_so(kit, tmp_path):
    proc = tool(kit, "score_local.py", "sample_submission.csv", "--dev", tmp_path / "nothing")
    assert proc.returncode == 2 and "no dev data with gold in" in proc.stderr and "Traceback" not in proc.stderr


def test_the_dev_set_shares_no_item_with_the_test_set():
    test_ids = {r["id"] for r in read_csv(ROOT / "reference_data" / "gold.csv")}
    dev_ids = {r["id"] for r in read_csv(ROOT / "starting_kit" / "dev" / "gold.csv")}
    assert dev_ids and not test_ids & dev_ids


def test_score_py_frames_its_error_in_chinese(tmp_path):
    config = (ROOT / "reference_data" / "board_A.yaml").read_text(encoding="utf-8") + "language: zh\n"
    ref = {p.name: p.read_bytes() for p in (ROOT / "reference_data").iterdir() if not p.name.startswith("board_")}
    ref["config.yaml"] = config
    inp = make_input(tmp_path, ref, {"s.csv": "id,BIO_anno,class\n0,O,9\n"})
    proc = run_score(inp, tmp_path / "out")
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert proc.returncode == 1 and len(lines) == 1 and lines[0].startswith("错误（提交文件有误）：")
    assert "'9' 不是合法的类别" in lines[0]  # the message itself is Chinese too


@pytest.mark.parametrize("script, args", [("validate.py", ["sample_submission.csv"]),
                                          ("score_local.py", ["dev/sample_prediction.csv", "--out", "{tmp}"])])
def test_a_reader_that_goes_away_gets_no_traceback(kit, tmp_path, script, args):
    """``validate.py x | head``: the pipe is closed before the tool writes; it ends quietly with its own code."""
    argv = [sys.executable, "-E", "-s", str(kit / script)] + [a.format(tmp=tmp_path / "out") for a in args]
    proc = subprocess.Popen(argv, cwd=str(kit), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()   # the reader is gone before the tool has imported anything
    err = proc.stderr.read().decode("utf-8")
    proc.stderr.close()
    assert proc.wait(timeout=600) == 0 and err == "", err


def test_an_organizer_command_whose_reader_goes_away_gets_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "organizer", "messages"], cwd=str(ROOT), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8")
    proc.stderr.close()
    assert proc.wait(timeout=600) == 0 and err == "", err
