"""task: qa end to end: score.py on small competitions made from the public SQuAD 2.0 and CMRC 2018 data gives the
numbers the official scripts gave (tests/fixtures/qa_official.json, recorded on the cases of tests/qa_cases.py),
on both file forms, on boards A and B, in both languages; a wrong file ends with exit 1 and one line that quotes
no gold answer."""
import json

import numpy as np
import pytest

from helpers import ROOT, as_platform, assert_participant_error, make_input, read_scores, run_score, shared
from qa_cases import CMRC_FILES, cmrc_edge, cmrc_predictions, punkt_free, questions
from test_qa_kernels import squad_case

FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "qa_official.json").read_text(encoding="utf-8"))
TOL = 1e-9
SCRIPT_KEYS = {"exact": "exact", "f1": "f1", "HasAns_exact": "has_ans_exact", "HasAns_f1": "has_ans_f1",
               "NoAns_exact": "no_ans_exact", "NoAns_f1": "no_ans_f1", "best_exact": "best_exact",
               "best_f1": "best_f1", "best_exact_thresh": "best_exact_thresh", "best_f1_thresh": "best_f1_thresh"}


def gold_of(data):
    return [{"id": qid.strip(), "answers": golds} for qid, _, golds, _ in questions(data)]


def public_of(data):
    return [{"id": qid.strip(), "context": context, "question": "q"} for qid, context, _, _ in questions(data)]


def config(rules="squad_v2", probs=False, board="all", language="en", boards=False):
    lines = ["task: qa", "board: %s" % board, "language: %s" % language,
             "options: {rules: %s, no_answer_probabilities: %s}" % (rules, "true" if probs else "false")]
    if boards:
        lines.append("boards: {file: boards.csv}")
    return "\n".join(lines) + "\n"


def score(tmp_path, ref, res, name="input"):
    inp = make_input(tmp_path, ref, res, name)
    out = tmp_path / (name + "_out")
    return run_score(inp, out), out


def dumps(value):
    return json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("name", ["mixture", "edge", "gold", "empty"])
def test_squad_v2_keys_equal_the_official_script(tmp_path, name):
    data, preds, probs = squad_case(name)
    ref = {"gold.json": dumps(gold_of(data)), "config.yaml": config(probs=True)}
    proc, out = score(tmp_path, ref, {"predictions.json": dumps(preds), "na_probs.json": dumps(probs)})
    assert proc.returncode == 0, proc.stderr
    got = read_scores(out)
    for key, value in FIXTURE["squad"][name]["with_na_probs"].items():
        if key in SCRIPT_KEYS:
            assert abs(got[SCRIPT_KEYS[key]] - value) <= TOL, (key, got[SCRIPT_KEYS[key]], value)
    # without probabilities: the script's plain keys, and no best_* column
    ref["config.yaml"] = config()
    proc, out = score(tmp_path, ref, {"predictions.json": dumps(preds)}, "plain")
    assert proc.returncode == 0, proc.stderr
    got = read_scores(out)
    assert not any(k.startswith("best_") for k in got)
    for key, value in FIXTURE["squad"][name]["plain"].items():
        if key in SCRIPT_KEYS:
            assert abs(got[SCRIPT_KEYS[key]] - value) <= TOL, (key, got[SCRIPT_KEYS[key]], value)


def cmrc_case(key):
    if key == "edge":
        return cmrc_edge()
    name, scenario = key.rsplit("/", 1)
    data, _ = punkt_free(json.loads(shared("qa", name).read_text(encoding="utf-8")))
    return data, cmrc_predictions(data, scenario)


@pytest.mark.parametrize("key", ["%s/mixture" % CMRC_FILES[0], "%s/gold" % CMRC_FILES[1], "edge"])
def test_cmrc2018_keys_equal_the_official_script(tmp_path, key):
    """The trial mixture leaves about a tenth of the questions without a prediction: the script counts them, 0."""
    data, preds = cmrc_case(key)
    ref = {"gold.json": dumps(gold_of(data)), "config.yaml": config("cmrc2018")}
    proc, out = score(tmp_path, ref, {"predictions.json": dumps({k.strip(): v for k, v in preds.items()})})
    assert proc.returncode == 0, proc.stderr
    got, recorded = read_scores(out), FIXTURE["cmrc"][key]
    assert abs(got["exact"] - recorded["EM"]) <= TOL and abs(got["f1"] - recorded["F1"]) <= TOL
    assert "%.3f" % got["average"] == recorded["printed"]["AVERAGE"]
    assert abs(got["average"] - (recorded["EM"] + recorded["F1"]) / 2) <= TOL


def test_a_csv_file_scores_as_the_json_file(tmp_path):
    data, preds, _ = squad_case("mixture")
    ref = {"gold.json": dumps(gold_of(data)), "config.yaml": config()}
    _, out_json = score(tmp_path, ref, {"predictions.json": dumps(preds)}, "json")
    rows = ["id,answer"] + ['%s,"%s"' % (k, v.replace('"', '""')) for k, v in preds.items()]
    proc, out_csv = score(tmp_path, ref, {"predictions.csv": "\n".join(rows) + "\n"}, "csv")
    assert proc.returncode == 0, proc.stderr
    assert read_scores(out_csv) == read_scores(out_json)


def test_boards_score_their_own_questions_and_the_interval_is_of_the_primary_key(tmp_path):
    """Board A's F1 equals the official number on board A's questions alone (the script run on that subset:
    recorded per question, the mean taken here)."""
    data, preds, probs = squad_case("mixture")
    ids = [g["id"] for g in gold_of(data)]
    rng = np.random.default_rng(7)
    board = np.where(rng.random(len(ids)) < 0.4, "A", "B")
    raw = FIXTURE["squad"]["mixture"]["raw"]   # per question (exact, f1), no threshold: the plain keys
    boards = "id,board\n" + "".join("%s,%s\n" % (i, b) for i, b in zip(ids, board))
    for which in ("A", "B"):
        ref = {"gold.json": dumps(gold_of(data)), "boards.csv": boards,
               "config.yaml": config(board=which, boards=True)}
        proc, out = score(tmp_path, ref, {"predictions.json": dumps(preds)}, "board" + which)
        assert proc.returncode == 0, proc.stderr
        on = [i for i, b in zip(ids, board) if b == which]
        expected = 100.0 * sum(raw[i][1] for i in on) / len(on)
        got = read_scores(out)
        assert abs(got["f1"] - expected) <= TOL
        assert abs(got["exact"] - 100.0 * sum(raw[i][0] for i in on) / len(on)) <= TOL
        page = (out / "detailed_results.html").read_text(encoding="utf-8")
        assert "95% interval" in page and "%d questions on this board" % len(on) in page


def test_the_page_speaks_chinese(tmp_path):
    data, preds = cmrc_case("edge")
    ref = {"gold.json": dumps(gold_of(data)), "config.yaml": config("cmrc2018", language="zh")}
    proc, out = score(tmp_path, ref, {"predictions.json": dumps(preds)})
    assert proc.returncode == 0, proc.stderr
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert "答案的比较方式" in page and "最长公共子串" in page and "个问题" in page


GOLD = [{"id": "q1", "answers": ["Secret Answer One"]}, {"id": "q2", "answers": []},
        {"id": "q3", "answers": ["Hidden Two", "Hidden 2"]}]


@pytest.mark.parametrize("res, fragments", [
    ({"predictions.json": '{"q1": "a", "q9": "b"}'}, ["predictions.json", "q9", "not in the test set"]),
    ({"predictions.json": '{"q1": "a", "q1": "b"}'}, ["'q1' is given twice"]),
    ({"predictions.json": '{"q1": 3}'}, ["JSON number", "not a string"]),
    ({"predictions.json": '{"q1": {"text": "a"}}'}, ["JSON object", "not a string"]),
    ({"predictions.json": '["q1", "a"]'}, ["JSON array", "not one object"]),
    ({"predictions.json": '{"q1": "a",}'}, ["predictions.json line 1", "not valid JSON"]),
    ({"predictions.csv": "id,text\nq1,a\n"}, ["predictions.csv"]),
    ({"predictions.csv": "id,answer\nq1,a\nq1,b\n"}, ["q1", "twice"]),
    ({"answers.json": '{"q1": "a"}'}, ["predictions.*"]),
    ({"predictions.json": '{"q1": "a"}', "na_probs.json": '{"q1": 0.1}'}, ["na_probs.json"]),
])
def test_a_wrong_file_is_one_line_that_says_how_to_fix_it(tmp_path, res, fragments):
    probs = "na_probs.json" in res
    ref = {"gold.json": dumps(GOLD), "config.yaml": config(probs=probs)}
    if probs:
        res = dict(res, **{"na_probs.json": '{"q1": "x"}'})
    proc, _ = score(tmp_path, ref, res)
    line = assert_participant_error(proc, *fragments)
    for secret in ("Secret", "Hidden"):
        assert secret not in line


def test_probabilities_are_required_when_the_competition_scores_them(tmp_path):
    ref = {"gold.json": dumps(GOLD), "config.yaml": config(probs=True)}
    proc, _ = score(tmp_path, ref, {"predictions.json": '{"q1": "a", "q2": "", "q3": "b"}'})
    assert_participant_error(proc, "na_probs.json")
    proc, _ = score(tmp_path, ref, {"predictions.json": '{"q1": "a", "q2": "", "q3": "b"}',
                                    "na_probs.json": '{"q1": 0.5}'}, "some")
    assert_participant_error(proc, "2 answered question(s)", "q2")


def test_probabilities_with_other_rules_are_a_config_error(tmp_path):
    ref = {"gold.json": dumps(GOLD), "config.yaml": config("cmrc2018", probs=True)}
    proc, _ = score(tmp_path, ref, {"predictions.json": '{"q1": "a"}'})
    assert proc.returncode == 2 and "no_answer_probabilities" in proc.stderr


def test_an_unanswerable_gold_question_needs_rules_squad_v2(tmp_path):
    ref = {"gold.json": dumps(GOLD), "config.yaml": config("squad_v1.1")}
    inp = as_platform(make_input(tmp_path, ref, {"predictions.json": '{"q1": "a"}'}), "codalab_v1")
    out = tmp_path / "output"
    proc = run_score(inp, out)
    assert proc.returncode == 2 and "q2" not in proc.stderr
    text = (out / "private" / "organizer_error.txt").read_text(encoding="utf-8")
    assert "question q2 has no gold answer" in text and "squad_v2" in text


@pytest.mark.parametrize("entries, said", [
    ([{"id": "q1", "answers": ["a"]}, {"id": 2, "answers": []}], 'entry 2: its "id" is no string'),
    ([{"id": "q1", "answers": ["a"]}, {"answers": ["b"]}], 'entry 2: its "id" is no string'),
    ([{"id": "q1", "answers": "abc"}], 'entry 1: its "answers" is no list of strings'),
    ([{"id": "q1", "answers": ["a"]}, {"id": "q2", "answers": ["b", 3]}], 'entry 2: its "answers" is no list'),
    ([{"id": "q1"}], 'entry 1: its "answers" is no list of strings'),
])
def test_a_wrong_gold_entry_is_named_for_the_organizer(tmp_path, entries, said):
    """The gold's entries are checked all at once; the first wrong one is still named, with what is wrong."""
    ref = {"gold.json": dumps(entries), "config.yaml": config()}
    inp = as_platform(make_input(tmp_path, ref, {"predictions.json": '{"q1": "a"}'}), "codalab_v1")
    out = tmp_path / "output"
    proc = run_score(inp, out)
    assert proc.returncode == 2
    assert said in (out / "private" / "organizer_error.txt").read_text(encoding="utf-8")


def test_a_missing_question_scores_zero_and_is_warned_about(tmp_path):
    """q2 (unanswerable) has no entry: 0, not the 100 an empty answer gets; q1 right, q3 wrong: F1 = 100/3."""
    ref = {"gold.json": dumps(GOLD), "config.yaml": config()}
    proc, out = score(tmp_path, ref, {"predictions.json": '{"q1": "secret answer one", "q3": "nothing"}'})
    assert proc.returncode == 0, proc.stderr
    assert abs(read_scores(out)["f1"] - 100.0 / 3) <= TOL
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert "1 question(s) have no entry" in page and "q2" in page
    proc, out = score(tmp_path, ref, {"predictions.json": '{"q1": "secret answer one", "q2": "", "q3": "x"}'}, "b")
    assert abs(read_scores(out)["f1"] - 200.0 / 3) <= TOL



def test_a_gold_without_any_answer_is_scored(tmp_path):
    """Every question unanswerable (no gold answer in the whole batch): an empty or article-only prediction is
    right, any other wrong; worked by hand: 2 of 3 right, EM = F1 = NoAns = 200/3."""
    gold = [{"id": "q1", "answers": []}, {"id": "q2", "answers": []}, {"id": "q3", "answers": []}]
    ref = {"gold.json": dumps(gold), "config.yaml": config()}
    proc, out = score(tmp_path, ref, {"predictions.json": '{"q1": "", "q2": "The.", "q3": "Hidden"}'})
    assert proc.returncode == 0, proc.stderr
    got = read_scores(out)
    for key in ("exact", "f1", "no_ans_exact", "no_ans_f1"):
        assert abs(got[key] - 200.0 / 3) <= TOL, (key, got[key])

def test_the_kit_warns_of_answers_longer_than_their_passage_and_of_empty_answers():
    """The warnings read the passages of the public inputs (the kit's contract), never a gold answer."""
    from types import SimpleNamespace

    from scorer.tasks.qa import FAMILY, QAContract, QASubmission

    contract = QAContract(["q1", "q2", "q3"], passages=["short passage", "a passage", "the third passage"])
    answers = np.array(["short passage and then much more", "", "third"], dtype=object)
    sub = QASubmission(answers, np.array([True, True, True]))
    cfg = SimpleNamespace(options={"rules": "squad_v1.1"})
    found = [p.text("en") for p in FAMILY.advice(sub, contract, cfg)]
    assert any("1 answer(s) are longer than their passage: q1" in t for t in found), found
    assert any("1 answer(s) are empty" in t and "q2" in t for t in found), found
    cfg = SimpleNamespace(options={"rules": "squad_v2"})   # an empty answer is a legitimate "no answer" there
    assert not any("are empty" in p.text("en") for p in FAMILY.advice(sub, contract, cfg))
    every_empty = QASubmission(np.array(["", "", ""], dtype=object), np.array([True, True, True]))
    assert [p.key for p in FAMILY.advice(every_empty, contract, cfg)] == ["qa.advice_all_empty"]
    same = QASubmission(np.array(["x", "x", "x"], dtype=object), np.array([True, True, False]))
    assert [p.key for p in FAMILY.advice(same, contract, cfg)] == ["qa.advice_absent", "qa.advice_same"]


def test_a_board_without_questions_scores_zero_not_a_crash():
    """The kernels on no question at all (a board of a phase's reference data that holds none of a mask's units)."""
    from types import SimpleNamespace

    from scorer.tasks.qa import FAMILY, QAReference, QAContract, QASubmission

    ref = QAReference(QAContract(["q1", "q2"]), strata=None, answers=["x"], owner=np.array([0]),
                      answerable=np.array([True, False]))
    sub = QASubmission(np.array(["x", ""], dtype=object), np.array([True, True]))
    for rules in ("squad_v2", "squad_v1.1", "cmrc2018"):
        cfg = SimpleNamespace(options={"rules": rules, "no_answer_probabilities": False, "na_prob_thresh": 1.0},
                              language="en")
        assert FAMILY.score(ref, sub, np.zeros(2, dtype=bool), cfg).scores["f1"] == 0.0


def test_reading_json_leaves_garbage_collection_as_it_found_it():
    """The JSON reader pauses Python's cyclic garbage collection while it parses (a speed matter); afterwards it is
    on again if it was on, off if it was off, also when the file is no JSON."""
    import gc

    from scorer.errors import SubmissionError
    from scorer.tasks._texts_io import read_json

    was = gc.isenabled()
    try:
        for on in (True, False):
            gc.enable() if on else gc.disable()
            assert read_json(b'{"q1": "x"}', "predictions.json", SubmissionError) == [("q1", "x")]
            assert gc.isenabled() is on
            with pytest.raises(SubmissionError):
                read_json(b'{"q1": ', "predictions.json", SubmissionError)
            assert gc.isenabled() is on
    finally:
        gc.enable() if was else gc.disable()
