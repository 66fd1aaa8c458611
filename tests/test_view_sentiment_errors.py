"""Every participant mistake of the view-sentiment format: exit 1, one line, what/where/how, no gold."""
import pytest

from helpers import assert_participant_error, make_input, read_scores, run_score

SENTENCES = "SentenceId,Content\n028171,大众朗逸油耗低\n028172,宝马3系一般\n028173,今天天气不错\n"
GOLD = "SentenceId\tView\tOpinion\n028171\t朗逸\tpos\n028172\t宝马3系\tneu\n"
CONFIG = "task: view_sentiment\nboard: all\n"
HEADER = "SentenceId,View,Opinion"
GOOD = ["028171,朗逸,pos", "028172,宝马3系,neg"]


def submit(tmp_path, content, config=CONFIG, name="result.csv"):
    inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": GOLD, "sentences.csv": SENTENCES},
                     {name: content})
    return run_score(inp, tmp_path / "output")


def csv_of(rows, header=HEADER):
    return "\n".join([header] + rows) + "\n"


def test_good_files_score_the_same_in_every_shape(tmp_path):
    # 朗逸 pos right (tp), 宝马3系 neg for neu (fp): P = 1/(1+1+0) = 1/2, R = 1/(1+0) = 1, F1 = 2/3; views all found
    for i, content in enumerate([csv_of(GOOD), csv_of([r.replace(",", "\t") for r in GOOD], HEADER.replace(",", "\t")),
                                 csv_of(GOOD).encode("gb18030"), csv_of(GOOD).encode("utf-16"),
                                 b"\xef\xbb\xbf" + csv_of(GOOD).encode("utf-8"),
                                 csv_of(GOOD).replace("\n", "\r\n")]):
        proc = submit(tmp_path / str(i), content)
        assert proc.returncode == 0, (i, proc.stderr)
        scores = read_scores(tmp_path / str(i) / "output")
        assert (scores["precision"], scores["recall"], scores["view_f1"]) == (0.5, 1.0, 1.0), i
        assert scores["f1"] == pytest.approx(2 / 3, abs=1e-9)


CASES = [
    ("empty file", "", ["result.csv is empty"]),
    ("header only", HEADER + "\n", ["no rows"]),
    ("missing column", csv_of(["028171,朗逸"], header="SentenceId,View"), ["line 1", "must be exactly SentenceId,View,Opinion"]),
    ("wrong column name", csv_of(GOOD, header="id,View,Opinion"), ["line 1", "must be exactly"]),
    ("index written", csv_of(["0," + r for r in GOOD], header="," + HEADER), ["index=False"]),
    ("semicolons", csv_of([r.replace(",", ";") for r in GOOD], header=HEADER.replace(",", ";")), ["separated by ';'"]),
    ("full-width comma", csv_of(["028171，朗逸，pos"] + GOOD[1:]), ["line 2", "full-width comma"]),
    ("too many fields", csv_of(GOOD + ["028173,朗逸,pos,9"]), ["saw 4"]),
    ("unknown id", csv_of(GOOD + ["999999,朗逸,pos"]), ["line 4", "'999999' is not in the test set"]),
    ("lost zeros", csv_of(GOOD + ["28171,朗逸,pos"]), ["'28171'", "keep their leading zeros"]),
    ("empty id", csv_of(GOOD + [",朗逸,pos"]), ["line 4", "column SentenceId"]),
    ("empty view", csv_of(GOOD + ["028173,,pos"]), ["line 4 (id 028173), column View", "View is empty"]),
    ("unknown opinion", csv_of(GOOD + ["028173,朗逸,positive"]),
     ["line 4 (id 028173), column Opinion", "'positive' is not an opinion", "pos, neu or neg"]),
    ("numeric opinion", csv_of(GOOD + ["028173,朗逸,1"]), ["'1' is not an opinion"]),
    ("two opinions for one view", csv_of(GOOD + ["028171,朗逸,neg"]),
     ["line 4", "028171", "'朗逸' is given with another opinion (first at line 2)", "exactly once"]),
    ("repeated row", csv_of(GOOD + ["028171,朗逸,pos"]), ["line 4", "is given again (first at line 2)"]),
]


@pytest.mark.parametrize("label,content,fragments", CASES, ids=[c[0] for c in CASES])
def test_participant_errors(tmp_path, label, content, fragments):
    line = assert_participant_error(submit(tmp_path, content), *fragments)
    assert "宝马3系\tneu" not in line and "neu" not in line.replace("neu or", "")


def test_undecodable_bytes(tmp_path):
    content = csv_of(GOOD).encode("utf-8") + b"\xff\xfe\x80\n"
    assert_participant_error(submit(tmp_path, content), "line 4: byte 1 of the line (0xff) cannot be read as UTF-8 text",
                             "the rest of the file is UTF-8")


def test_conflicting_opinions_are_refused_even_when_identical_repeats_merge(tmp_path):
    config = CONFIG + "options: {repeated_rows: merge_identical}\n"
    assert submit(tmp_path / "ok", csv_of(GOOD + ["028171,朗逸,pos"]), config).returncode == 0
    assert_participant_error(submit(tmp_path / "bad", csv_of(GOOD + ["028171,朗逸,neu"]), config),
                             "given with another opinion")


def test_label_set_option(tmp_path):
    en = CONFIG + "options: {opinion_labels: en}\n"
    assert_participant_error(submit(tmp_path / "en", csv_of(GOOD + ["028173,朗逸,正面"]), en),
                             "'正面' is not an opinion; use pos, neu or neg.")
    # the default accepts both spellings
    assert submit(tmp_path / "either", csv_of(GOOD + ["028173,朗逸,正面"])).returncode == 0


def test_error_messages_do_not_depend_on_the_board(tmp_path):
    """A row of a board-B sentence is validated on the board-A phase exactly as on board B."""
    messages = []
    for board in ("A", "B"):
        config = "task: view_sentiment\nboard: %s\nboards: {file: boards.csv}\n" % board
        inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": GOLD, "sentences.csv": SENTENCES,
                                    "boards.csv": "id,board\n028171,A\n028172,B\n028173,B\n"},
                         {"result.csv": csv_of(GOOD + ["028173,朗逸,good"])}, name=board)
        messages.append(assert_participant_error(run_score(inp, tmp_path / (board + "_out"))))
    assert messages[0] == messages[1]
