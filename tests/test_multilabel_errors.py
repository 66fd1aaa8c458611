"""Participant mistakes in multi-label submissions: exit 1, one line, where and how to fix, no gold label."""
import pytest

from helpers import as_platform, assert_participant_error, make_input, read_scores, run_score

LABELS = "joy\nanger\nfear\nsurprise_gold_only\n"
GOLD = "id,labels\n001,joy\n002,anger fear\n003,surprise_gold_only\n"
CONFIG = "task: multilabel\n"


def _run(tmp_path, submission, config=CONFIG, name="sub.csv"):
    base = make_input(tmp_path, {"labels.txt": LABELS, "gold.csv": GOLD, "config.yaml": config},
                      {name: submission})
    return run_score(base, tmp_path / "out")


@pytest.mark.parametrize("submission, fragments", [
    ("id,labels\n001,joy\n002,angr\n003,\n", ["sub.csv line 3 (id 002), column labels", "'angr'", "not a label"]),
    ("id,labels\n001,\"joy,fear\"\n002,anger\n003,\n", ["line 2", "separate the labels with single spaces"]),
    ("id,labels\n001,joy fear joy\n002,anger\n003,\n", ["line 2 (id 001)", "'joy' is listed twice", "position 3"]),
    ("id,labels\n001,joy\n001,fear\n002,anger\n003,\n", ["id 001 appears twice"]),
    ("id,labels\n001,joy\n002,anger\n003,\n004,fear\n", ["'004' is not in the test set"]),
    ("id,labels\n001,joy\n003,fear\n", ["1 id(s) of the test set have no row (002)"]),
    ("id,labels,scores\n001,joy fear,0.9 abc\n002,anger,1\n003,,\n", ["line 2 (id 001), column scores",
                                                                        "score 2 is 'abc'"]),
    ("id,labels,scores\n001,joy,nan\n002,anger,1\n003,,\n", ["score 1 is 'nan'", "not a finite number"]),
    ("id,labels,scores\n001,joy,0.5\n002,anger,-inf\n003,,\n", ["line 3 (id 002)", "'-inf'"]),
    ("id,labels,scores\n001,joy fear,0.5\n002,anger,1\n003,,\n", ["1 scores for 2 labels"]),
    ("id,labels\n001,joy\n002,anger\n003,\n", None),  # valid: an empty cell is an empty prediction
    ("id,label\n001,joy\n", ["the columns are id,label but must be exactly id,labels or id,labels,scores."]),
    ("id,labels,probability\n001,joy,1\n", ["must be exactly id,labels"]),
])
def test_submission_errors(tmp_path, submission, fragments):
    proc = _run(tmp_path, submission)
    if fragments is None:
        assert proc.returncode == 0, proc.stderr
        return
    line = assert_participant_error(proc, *fragments)
    if "not a label of this task" not in line:  # that message lists the (public) class names
        assert "surprise_gold_only" not in line


def test_threshold_needs_scores(tmp_path):
    proc = _run(tmp_path, "id,labels\n001,joy\n002,anger\n003,\n",
                config=CONFIG + "options: {set_threshold: 0.5}\n")
    assert_participant_error(proc, "needs a scores column", "id,labels,scores")


def test_unknown_label_message_lists_the_label_names(tmp_path):
    proc = _run(tmp_path, "id,labels\n001,Joy\n002,anger\n003,\n")
    line = assert_participant_error(proc, "label 1 is 'Joy'", "spelled exactly")
    assert "joy, anger, fear" in line  # the class names are public: they are the task's vocabulary


def test_gold_errors_are_the_organizers(tmp_path):
    base = as_platform(make_input(tmp_path, {"labels.txt": "a\nb\n", "gold.csv": "id,labels\n1,a c\n",
                                             "config.yaml": CONFIG}, {"s.csv": "id,labels\n1,a\n"}), "codalab_v1")
    proc = run_score(base, tmp_path / "out")
    assert proc.returncode == 2 and "'c'" not in proc.stderr
    assert "'c' is not in labels.txt" in (tmp_path / "out" / "private" / "organizer_error.txt").read_text()


def test_grades_above_err_max_grade_are_the_organizers(tmp_path):
    base = make_input(tmp_path, {"labels.txt": "a\nb\n", "gold.csv": "id,labels,grades\n1,a b,5 1\n",
                                 "config.yaml": CONFIG + "options: {err_max_grade: 4}\n"},
                      {"s.csv": "id,labels\n1,a\n"})
    as_platform(base, "codalab_v1")  # private/ is the organizer's there
    proc = run_score(base, tmp_path / "out")
    assert proc.returncode == 2
    assert "grade 5, above options.err_max_grade 4" in (tmp_path / "out" / "private" / "organizer_error.txt").read_text()


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "gb18030"])
def test_encodings_with_a_scores_column(tmp_path, encoding):
    text = "id,labels,scores\r\n001,joy fear,0.9 0.1\r\n002,anger,1\r\n003,,\r\n"
    base = make_input(tmp_path, {"labels.txt": LABELS, "gold.csv": GOLD, "config.yaml": CONFIG},
                      {"sub.csv": text.encode(encoding)})
    proc = run_score(base, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    # sets 001 {joy, fear}, 002 {anger}, 003 {}: 2 right of 3 predicted, 4 gold: F1 = 2 (2/3)(1/2) / (2/3 + 1/2) = 4/7
    assert read_scores(tmp_path / "out")["micro_f1"] == pytest.approx(4 / 7, abs=1e-9)


def test_a_latin1_file_read_as_gb18030_says_so_when_its_values_fail(tmp_path):
    """'\xe9joy' in Latin-1 is no UTF-8 but valid GB18030 (0xe9 0x6a is one character): the label then fails, and
    the line says which codec was guessed and to save the file as UTF-8."""
    latin1 = "id,labels\n001,\xe9joy\n002,anger\n003,\n".encode("latin-1")
    assert "\xe9joy".encode("latin-1").decode("gb18030") == "\u9596oy"   # the codec's own reading, not ours
    line = assert_participant_error(_run(tmp_path / "a", latin1), "label 1 is '\u9596oy'",
                                    "(sub.csv is not UTF-8, so it was read as GB18030; if its text looks garbled "
                                    "here, save it as UTF-8.)")
    assert line.count("GB18030") == 1
    # a UTF-8 file with the same mistake gets no word on codecs
    line = assert_participant_error(_run(tmp_path / "b", "id,labels\n001,\u9596oy\n002,anger\n003,\n"), "not a label")
    assert "GB18030" not in line


def test_the_offline_check_notes_the_guessed_codec_after_the_problems(tmp_path):
    from scorer.kit import check, report_lines

    public = tmp_path / "public"
    public.mkdir()
    (public / "test_public.csv").write_text("id,text\n001,a\n002,b\n003,c\n", encoding="utf-8")
    (public / "labels.txt").write_text(LABELS, encoding="utf-8")
    sub = tmp_path / "sub.csv"
    sub.write_bytes("id,labels\n001,\xe9joy\n002,anger\n003,\n".encode("latin-1"))
    lines, code = report_lines(check(str(sub), str(public), {"task": "multilabel"}), "sub.csv")
    assert code == 1 and lines[0] == "sub.csv: 1 problem(s) found:", lines
    assert lines[-1] == ("note: sub.csv is not UTF-8, so it was read as GB18030; if its text looks garbled in the "
                         "problems above, save it as UTF-8."), lines
    sub.write_bytes("id,labels\n001,\u9596oy\n002,anger\n003,\n".encode("utf-8"))
    lines, code = report_lines(check(str(sub), str(public), {"task": "multilabel"}), "sub.csv")
    assert code == 1 and not [l for l in lines if "GB18030" in l], lines
