"""The starting kit's validate.py works for every family: no gold needed, a clear first problem at least."""
import json
import subprocess
import sys

import pytest

from helpers import ROOT

VALIDATE = ROOT / "starting_kit" / "validate.py"


def validate(competition, submission):
    kit = ROOT / "examples" / competition / "starting_kit"
    config = ROOT / "examples" / competition / "reference_data" / "board_A.yaml"
    return subprocess.run([sys.executable, str(VALIDATE), "--public", str(kit), "--config", str(config),
                           str(submission)], capture_output=True, text=True)


@pytest.mark.parametrize("competition,sample", [("view_sentiment", "sample_submission.csv"),
                                                ("keywords", "sample_submission.csv"),
                                                ("emotion_cause", "submission")])
def test_the_sample_submission_passes(competition, sample):
    proc = validate(competition, ROOT / "examples" / competition / "starting_kit" / sample)
    first = proc.stdout.splitlines()[0]
    valid = ("未发现问题", "合法（已对照") if competition == "view_sentiment" else ("no problems found", "valid (checked")
    assert proc.returncode == 0 and first.split(": ", 1)[-1].split("：", 1)[-1].startswith(valid), proc.stdout


def test_view_sentiment_unknown_sentence_is_found(tmp_path):
    bad = tmp_path / "pred.csv"
    bad.write_text("SentenceId,View,Opinion\n999999,大众,pos\n", encoding="utf-8")
    proc = validate("view_sentiment", bad)
    assert proc.returncode == 1 and "SentenceId '999999' 不在测试集中" in proc.stdout, proc.stdout


def test_keywords_duplicated_id_is_found(tmp_path):
    bad = tmp_path / "pred.csv"
    bad.write_text("id,keywords\nkw00001,a_b\nkw00001,c\n", encoding="utf-8")
    proc = validate("keywords", bad)
    assert proc.returncode == 1 and "appears twice (lines 2 and 3)" in proc.stdout, proc.stdout


def _ecac_submission(tmp_path, pair):
    public = json.loads((ROOT / "examples" / "emotion_cause" / "starting_kit" / "Subtask_1_test.json").read_text())
    entries = [{"conversation_ID": c["conversation_ID"], "emotion-cause_pairs": []} for c in public]
    entries[0]["emotion-cause_pairs"] = [pair(len(public[0]["conversation"][0]["text"].split()))]
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "Subtask_1_pred.json").write_text(json.dumps(entries), encoding="utf-8")
    return folder


def validate_in_mode_clean(tmp_path, folder):
    config = ROOT / "examples" / "emotion_cause" / "reference_data" / "board_A.yaml"
    clean = tmp_path / "clean.yaml"
    clean.write_text(config.read_text(encoding="utf-8").replace("mode: official", "mode: clean"), encoding="utf-8")
    kit = ROOT / "examples" / "emotion_cause" / "starting_kit"
    return subprocess.run([sys.executable, str(VALIDATE), "--public", str(kit), "--config", str(clean), str(folder)],
                          capture_output=True, text=True)


def test_emotion_cause_span_outside_the_utterance_is_found_in_mode_clean(tmp_path):
    folder = _ecac_submission(tmp_path, lambda n_tokens: ["1_joy", "1_0_%d" % (n_tokens + 3)])
    # mode official scores such a span, as the official scorer does; mode clean refuses it
    assert validate("emotion_cause", folder).returncode == 0
    proc = validate_in_mode_clean(tmp_path, folder)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Subtask_1_pred.json" in proc.stdout and "outside utterance 1" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_emotion_cause_cause_text_is_found(tmp_path):
    folder = _ecac_submission(tmp_path, lambda n_tokens: ["1_joy", "1_the cause text"])
    proc = validate("emotion_cause", folder)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Subtask_1_pred.json" in proc.stdout and "not the cause text" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_every_row_problem_is_listed_in_file_order(tmp_path):
    bad = tmp_path / "pred.csv"
    bad.write_text("SentenceId,View,Opinion\n999999,大众,pos\n000059,玄武Pro3,good\n000105,,pos\n"
                   "000107,赤兔GT3,neu\n", encoding="utf-8")
    proc = validate("view_sentiment", bad)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("  - ")]
    assert proc.returncode == 1 and "发现 3 个问题" in proc.stdout, proc.stdout
    assert ["第 2 行" in lines[0], "第 3 行" in lines[1], "第 4 行" in lines[2]] == [True, True, True]
    assert "'999999'" in lines[0] and "'good'" in lines[1] and "View 为空" in lines[2]


def multilabel_sample_with(tmp_path, rows):
    """The multi-label sample submission with some rows (by index in its lines) replaced."""
    lines = (ROOT / "examples" / "multilabel" / "starting_kit" / "sample_submission.csv").read_text(
        encoding="utf-8").split("\n")
    for index, rest in rows.items():
        lines[index] = lines[index].split(",")[0] + "," + rest
    bad = tmp_path / "pred.csv"
    bad.write_text("\n".join(lines), encoding="utf-8")
    return bad


def test_a_row_problem_is_listed_once_and_not_echoed_as_a_missing_id(tmp_path):
    proc = validate("multilabel", multilabel_sample_with(tmp_path, {3: "nosuchlabel,0.5"}))
    found = [l for l in proc.stdout.splitlines() if l.startswith("  - ")]
    assert proc.returncode == 1 and len(found) == 1, proc.stdout
    assert "line 4" in found[0] and "'nosuchlabel'" in found[0] and "have no row" not in proc.stdout


def test_multilabel_rows_are_all_checked_before_missing_ids(tmp_path):
    bad = multilabel_sample_with(tmp_path, {3: "nosuchlabel,0.5", 7: "shipping shipping,0.5 0.4", 9: "shipping,abc"})
    proc = validate("multilabel", bad)
    found = [l for l in proc.stdout.splitlines() if l.startswith("  - ")]
    assert proc.returncode == 1 and len(found) == 3, proc.stdout
    assert ["line 4" in found[0], "line 8" in found[1], "line 10" in found[2]] == [True, True, True]
    assert "'nosuchlabel'" in found[0] and "listed twice" in found[1] and "'abc'" in found[2]


def test_emotion_cause_every_faulty_pair_is_listed_in_mode_clean(tmp_path):
    """Three planted faults in one conversation: each is named with its pair number, in file order."""
    folder = _ecac_submission(tmp_path, lambda n_tokens: ["1_joy", "1_0_%d" % (n_tokens + 3)])
    path = folder / "Subtask_1_pred.json"
    entries = json.loads(path.read_text(encoding="utf-8"))
    entries[0]["emotion-cause_pairs"] = [["1_glee", "1_0_1"], ["1_joy", "1_0_1"], ["1_joy", "1_0"],
                                         ["1_joy", "1_0_1", "extra"]]
    path.write_text(json.dumps(entries), encoding="utf-8")
    proc = validate_in_mode_clean(tmp_path, folder)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert "3 problem(s)" in lines[0], proc.stdout
    assert [("pair %d" % n) in line for n, line in zip((1, 3, 4), lines[1:4])] == [True] * 3, proc.stdout
    assert "unknown emotion 'glee'" in lines[1] and "three numbers" in lines[2] and "two strings" in lines[3]
