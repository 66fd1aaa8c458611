"""Every participant mistake of the bank format: exit 1, one line on stderr, what/where/how, no gold."""
import pytest

from helpers import assert_participant_error, make_input, read_scores, run_score

GOLD = ("id,text,BIO_anno,class\n"
        "0,招行额度高,B-BANK I-BANK B-COMMENTS_N I-COMMENTS_N B-COMMENTS_ADJ,2\n"
        "1,服务差,B-COMMENTS_N I-COMMENTS_N B-COMMENTS_ADJ,0\n"
        "2,信用卡不错,B-PRODUCT I-PRODUCT I-PRODUCT B-COMMENTS_ADJ I-COMMENTS_ADJ,1\n")
CONFIG = "task: bank_comments\nboard: all\n"
GOOD_ROWS = ["0,O O O O O,2", "1,O O O,2", "2,O O O O O,2"]


def submit(tmp_path, content, name="submission.csv"):
    inp = make_input(tmp_path, {"config.yaml": CONFIG, "gold.csv": GOLD}, {name: content})
    return run_score(inp, tmp_path / "output")


def csv_of(rows, header="id,BIO_anno,class"):
    return "\n".join([header] + rows) + "\n"


# comment 0 right (3 entities of the gold's 7, class 2), 1 no entity but its class, 2 no entity and a wrong class:
# entity P = 3/3, R = 3/7, F1 = 0.6; classes gold (2, 0, 1) vs (2, 0, 2): Po = 2/3, Pe = (1 + 0 + 2) / 9 = 1/3,
# kappa = (2/3 - 1/3) / (1 - 1/3) = 0.5; S = 0.5 * 0.6 + 0.5 * 0.5 = 0.55
SHAPE_ROWS = ["0,B-BANK I-BANK B-COMMENTS_N I-COMMENTS_N B-COMMENTS_ADJ,2", "1,O O O,0", "2,O O O O O,2"]
BY_HAND = {"score": 0.55, "ner_f1": 0.6, "kappa": 0.5, "ner_precision": 1.0, "ner_recall": 3 / 7}


def assert_scores_by_hand(proc, out):
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(out)
    for key, value in BY_HAND.items():
        assert scores[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("shape", ["plain", "crlf", "spaces after the header's commas", "bom"])
def test_a_good_file_scores_the_same_in_every_shape(tmp_path, shape):
    content = {"plain": csv_of(SHAPE_ROWS), "crlf": csv_of(SHAPE_ROWS).replace("\n", "\r\n"),
               # the task page's own example header is "id, BIO_anno, class"
               "spaces after the header's commas": csv_of(SHAPE_ROWS, header="id, BIO_anno, class"),
               "bom": "\ufeff" + csv_of(SHAPE_ROWS)}[shape]
    assert_scores_by_hand(submit(tmp_path, content), tmp_path / "output")


CASES = [
    ("empty file", "", ["submission.csv is empty"]),
    ("header only", "id,BIO_anno,class\n", ["no rows"]),
    ("missing column", csv_of(["0,O O O O O", "1,O O O", "2,O O O O O"], header="id,BIO_anno"),
     ["line 1", "must be exactly id,BIO_anno,class"]),
    ("index written", csv_of(["0," + r for r in GOOD_ROWS], header=",id,BIO_anno,class"), ["index=False"]),
    ("full-width comma", csv_of(["0，O O O O O,2"] + GOOD_ROWS[1:]), ["line 2", "full-width comma", "ASCII ','"]),
    ("tab separated", "id\tBIO_anno\tclass\n" + "\n".join(r.replace(",", "\t") for r in GOOD_ROWS) + "\n",
     ["separated by TAB"]),
    ("missing id", csv_of(GOOD_ROWS[:2]), ["1 id(s) of the test set have no row (2)"]),
    ("unknown id", csv_of(GOOD_ROWS + ["7,O,2"]), ["line 5", "'7' is not in the test set"]),
    ("duplicated id", csv_of(GOOD_ROWS + ["1,O O O,1"]), ["id 1 appears twice (lines 3 and 5)"]),
    ("length differs", csv_of([GOOD_ROWS[0], "1,O O,2", GOOD_ROWS[2]]),
     ["line 3 (id 1), column BIO_anno", "2 tags for a comment of 3 characters"]),
    ("unknown tag", csv_of([GOOD_ROWS[0], "1,O B-BNK O,2", GOOD_ROWS[2]]),
     ["line 3 (id 1), column BIO_anno", "tag 2 is 'B-BNK'", "B-BANK"]),
    ("lower-case tag", csv_of([GOOD_ROWS[0], "1,O b-bank O,2", GOOD_ROWS[2]]), ["'b-bank'"]),
    ("class out of range", csv_of([GOOD_ROWS[0], GOOD_ROWS[1], "2,O O O O O,3"]),
     ["line 4 (id 2), column class", "'3' is not a class", "0 (negative), 1 (positive) or 2 (neutral)"]),
    ("class missing", csv_of([GOOD_ROWS[0], "1,O O O,", GOOD_ROWS[2]]), ["line 3 (id 1), column class"]),
    ("too many fields", csv_of([GOOD_ROWS[0], "1,O O O,2,9", GOOD_ROWS[2]]), ["line 3", "saw 4"]),
    # pandas makes a first row's extra leading field the index, shifting every column: refused the same way
    ("too many fields in the first row", csv_of(["0,O O O O O,2,9"] + GOOD_ROWS[1:]), ["line 2", "saw 4"]),
]


@pytest.mark.parametrize("label,content,fragments", CASES, ids=[c[0] for c in CASES])
def test_participant_errors(tmp_path, label, content, fragments):
    line = assert_participant_error(submit(tmp_path, content), *fragments)
    for gold_label in ("B-BANK I-BANK B-COMMENTS_N", "招行", "服务差"):
        assert gold_label not in line


def test_undecodable_bytes(tmp_path):
    content = csv_of(GOOD_ROWS).encode("utf-8") + b"\xff\xfe\x80\n"
    assert_participant_error(submit(tmp_path, content), "cannot be read as UTF-8 or GB18030", "CSV UTF-8")


def test_no_file_and_several_files(tmp_path):
    inp = make_input(tmp_path, {"config.yaml": CONFIG, "gold.csv": GOLD}, {"notes.txt": "hello"})
    assert_participant_error(run_score(inp, tmp_path / "o1"), "no file matching '*.csv'", "notes.txt")
    inp = make_input(tmp_path, {"config.yaml": CONFIG, "gold.csv": GOLD},
                     {"a.csv": csv_of(GOOD_ROWS), "b/b.csv": csv_of(GOOD_ROWS)}, name="input2")
    assert_participant_error(run_score(inp, tmp_path / "o2"), "2 files matching '*.csv'", "a.csv", "b/b.csv")


@pytest.mark.parametrize("encoding", ["utf-8-sig", "gbk", "gb18030", "utf-16"])
def test_excel_encodings_are_read(tmp_path, encoding):
    assert_scores_by_hand(submit(tmp_path, csv_of(SHAPE_ROWS).encode(encoding)), tmp_path / "output")


def test_line_numbers_stay_right_after_blank_lines(tmp_path):
    content = "id,BIO_anno,class\n0,O O O O O,2\n\n\n1,O O O,2\n2,O O O O O,7\n\n"
    assert_participant_error(submit(tmp_path, content), "line 6 (id 2), column class")




@pytest.mark.parametrize("data,line", [
    (b"a,b\n1,2,3\n", 2),
    (b"\na,b\n\n1,2,3\n4,5\n", 4),          # blank lines are lines, not rows
    (b" \na,b\n1,2,3\n", 3),                 # a line of spaces is blank too
    (b'"a\nb",c\n1,2,3\n', 3),               # a line end inside a quoted header
    (b"\r\ra,b\r1,2,3\r", 4),               # CR alone ends a line
])
def test_a_first_row_longer_than_the_header_is_refused_with_its_line(data, line):
    """The line an editor shows, where blank lines are skipped (the kit's and the organizer's tables)."""
    from scorer.errors import SubmissionError
    from scorer.textio import parse_table

    with pytest.raises(SubmissionError) as caught:
        parse_table(data, "f.csv", SubmissionError, skip_blank_lines=True)
    assert ("Expected 2 fields in line %d, saw 3" % line) in caught.value.problem.text()
