"""Every participant mistake of the keyword format: exit 1, one line, what/where/how, no gold."""
import pytest

from helpers import assert_participant_error, make_input, read_scores, run_score

GOLD = "id,keywords\n007,深度学习_图像分割\n008,数值模拟_贯流风机\n009,抗高血压药\n"
CONFIG = "task: keywords\nboard: all\n"
GOOD = ["007,深度学习", "008,数值模拟_风机"]


def submit(tmp_path, content, config=CONFIG, name="prediction.csv"):
    inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": GOLD}, {name: content})
    return run_score(inp, tmp_path / "output")


def csv_of(rows, header="id,keywords"):
    return "\n".join([header] + rows) + "\n"


def test_good_files_score_the_same_in_every_shape(tmp_path):
    # 007: 1 of 2 right, nothing wrong: P 1, R 1/2, F 2/3; 008: 1 of 2 right, 1 wrong: F 1/2; 009 no row: 0.
    # macro F1 = (2/3 + 1/2 + 0) / 3 = 7/18; micro: 2 right of 3 predicted and 5 gold, P 2/3, R 2/5, F1 1/2
    variants = [csv_of(GOOD), csv_of([r.replace(",", "\t") for r in GOOD], "id\tkeywords"),
                csv_of(GOOD).encode("gb18030"), csv_of(GOOD).encode("utf-16"), csv_of(GOOD + ["009,"])]
    for i, content in enumerate(variants):
        proc = submit(tmp_path / str(i), content)
        assert proc.returncode == 0, (i, proc.stderr)
        scores = read_scores(tmp_path / str(i) / "output")
        assert scores["macro_f1"] == pytest.approx(7 / 18, abs=1e-9) and scores["micro_f1"] == pytest.approx(0.5)


def test_an_ideographic_comma_inside_a_keyword_is_text(tmp_path):
    proc = submit(tmp_path, csv_of(["007,深度学习、神经网络"]))  # one keyword, matching no gold keyword
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "output")
    assert scores["micro_precision"] == 0.0 and scores["micro_recall"] == 0.0


def test_a_test_id_may_hold_a_full_width_comma(tmp_path):
    # the full-width check is for ids the test set does not have: a column separated by '，' leaves such ids
    gold = "id,keywords\n\"A，1\",x_y\nB,z\n"
    inp = make_input(tmp_path, {"config.yaml": CONFIG, "gold.csv": gold}, {"prediction.csv": "id,keywords\n\"A，1\",x\nB,z\n"})
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 0, proc.stderr
    # A: 1 of 2 right, nothing wrong (F 2/3); B right (F 1): macro F1 5/6
    assert read_scores(tmp_path / "output")["macro_f1"] == pytest.approx(5 / 6, abs=1e-9)


CASES = [
    ("empty file", "", ["prediction.csv is empty"]),
    ("header only", "id,keywords\n", ["no rows"]),
    ("missing column", csv_of(["007"], header="id"), ["line 1", "must be exactly id,keywords"]),
    ("extra column", csv_of(["007,深度学习,0.9"], header="id,keywords,score"), ["must be exactly id,keywords"]),
    ("semicolons", csv_of([r.replace(",", ";") for r in GOOD], header="id;keywords"), ["separated by ';'"]),
    ("full-width comma", csv_of(["007，深度学习"]), ["line 2, column id", "full-width comma"]),
    ("unknown id", csv_of(GOOD + ["010,x"]), ["line 4", "'010' is not in the test set"]),
    ("lost zeros", csv_of(["7,深度学习"]), ["'7'", "keep their leading zeros"]),
    ("empty id", csv_of(GOOD + [",x"]), ["line 4", "column id"]),
    ("duplicated id", csv_of(GOOD + ["007,图像分割"]), ["id 007 appears twice (lines 2 and 4)", "one row"]),
    ("too many fields", csv_of(GOOD + ["009,a,b"]), ["saw 3"]),
]


@pytest.mark.parametrize("label,content,fragments", CASES, ids=[c[0] for c in CASES])
def test_participant_errors(tmp_path, label, content, fragments):
    line = assert_participant_error(submit(tmp_path, content), *fragments)
    for gold_keyword in ("图像分割", "贯流风机", "抗高血压药"):
        assert gold_keyword not in line or gold_keyword in content.split("\n", 3)[-1]


def test_undecodable_bytes(tmp_path):
    assert_participant_error(submit(tmp_path, csv_of(GOOD).encode("utf-8") + b"\xff\xfe\x80\n"),
                             "line 4: byte 1 of the line (0xff) cannot be read as UTF-8 text", "the rest of the file is UTF-8")
