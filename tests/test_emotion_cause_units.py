"""Emotion-cause family on tiny hand-worked cases: every expected value is worked out in the comments."""
import json


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.api import Competition
from scorer.discovery import SubmittedFile
from scorer.metrics.cause_spans import Pairs, fuzzy_hits, proportional, strict_hits

EPS = 1e-8
# conversation 7: utterance 2 has 6 tokens, utterance 3 has 3
CONV = [{"utterance_ID": 1, "text": "Hi ."}, {"utterance_ID": 2, "text": "We won the big game !"},
        {"utterance_ID": 3, "text": "Oh wow !"}]


def gold_file(pairs, conv_id=7):
    return json.dumps([{"conversation_ID": conv_id, "conversation": CONV, "emotion-cause_pairs": pairs}])


def pred_file(pairs, conv_id=7):
    return json.dumps([{"conversation_ID": conv_id, "emotion-cause_pairs": pairs}])


def score(tmp_path, gold1, pred1, options=None, gold2=None, pred2=None):
    (tmp_path / "g1.json").write_text(gold1, encoding="utf-8")
    files = {"subtask1_gold": "g1.json", "subtask2_gold": "g2.json"}
    opts = dict(options or {})
    if gold2 is not None:
        (tmp_path / "g2.json").write_text(gold2, encoding="utf-8")
    else:
        opts.setdefault("subtasks", "1")
    comp = Competition.from_raw({"task": "emotion_cause", "files": files, "options": opts}, str(tmp_path))
    slots = {"subtask1": SubmittedFile("Subtask_1_pred.json", lambda: pred1.encode("utf-8")),
             "subtask2": None if pred2 is None else SubmittedFile("Subtask_2_pred.json", lambda: pred2.encode("utf-8"))}
    return comp.score(comp.read_files(slots)).scores, comp.reference


def test_perfect_is_one_minus_epsilon_in_official_and_one_in_clean(tmp_path):
    gold = gold_file([["3_joy", "2_We won the big game !"]])  # cleaned: "We won the big game" = tokens [0, 5)
    pred = pred_file([["3_joy", "2_0_5"]])
    official, _ = score(tmp_path, gold, pred)
    p = 1 / (1 + EPS)                          # 1 / (1 pred + 1e-8)
    f = 2 * p * p / (2 * p + EPS)              # 0.99999998500000...
    assert official["strict_precision"] == pytest.approx(p, abs=1e-15)
    assert official["weighted_strict_f1"] == pytest.approx(f, abs=1e-15)
    assert official["weighted_strict_f1"] < 1.0
    assert official["Proportional_precision"] == pytest.approx(5 / (5 + EPS), abs=1e-15)
    clean, _ = score(tmp_path, gold, pred, {"mode": "clean"})
    assert clean["weighted_strict_f1"] == 1.0 and clean["weighted_Proportional_f1"] == 1.0


def test_neutral_predictions_are_neither_right_nor_wrong_and_duplicates_count_once(tmp_path):
    gold = gold_file([["3_joy", "2_We won"]])  # tokens [0, 2)
    base, _ = score(tmp_path, gold, pred_file([["3_joy", "2_0_2"]]))
    noisy, _ = score(tmp_path, gold, pred_file([["3_joy", "2_0_2"], ["U3_joy", "2_0_2"], ["3_neutral", "2_0_2"],
                                                ["1_neutral", "1_0_1"]]))
    assert noisy == base


def test_weighted_average_uses_gold_share(tmp_path):
    # gold: joy x3, anger x1; predictions: the 3 joy pairs' first two right, one joy wrong span, no anger.
    gold = gold_file([["3_joy", "2_We"], ["3_joy", "2_won"], ["3_joy", "2_game"], ["2_anger", "3_Oh"]])
    pred = pred_file([["3_joy", "2_0_1"], ["3_joy", "2_1_2"], ["3_joy", "2_2_3"]])
    s, _ = score(tmp_path, gold, pred, {"mode": "clean"})
    # joy: P = 2/3, R = 2/3, F = 2/3; anger: 0; weights 3/4, 1/4 -> weighted F = 1/2
    assert s["weighted_strict_f1"] == pytest.approx(0.5, abs=1e-15)
    assert s["weighted_strict_precision"] == pytest.approx(0.5, abs=1e-15)
    # micro: 2 right of 3 predicted, 4 gold -> P 2/3, R 1/2, F 4/7
    assert s["strict_f1"] == pytest.approx(4 / 7, abs=1e-15)
    o, _ = score(tmp_path, gold, pred)
    pj = 2 / (3 + EPS)
    assert o["weighted_strict_precision"] == pytest.approx(0.75 * pj, abs=1e-15)


def test_proportional_counts_a_gold_span_once_per_matching_prediction_in_official(tmp_path):
    gold = gold_file([["3_joy", "2_We won the big"]])  # [0, 4), length 4
    pred = pred_file([["3_joy", "2_0_2"], ["3_joy", "2_2_4"]])
    o, _ = score(tmp_path, gold, pred)
    # overlaps 2 + 2 = 4 of 4 predicted tokens; recall denominator 4 + 4 (the gold span once per prediction)
    assert o["Proportional_precision"] == pytest.approx(4 / (4 + EPS), abs=1e-15)
    assert o["Proportional_recall"] == pytest.approx(4 / (8 + EPS), abs=1e-15)
    c, _ = score(tmp_path, gold, pred, {"mode": "clean"})
    # clean: only the first of the two equal overlaps is credited: 2 of 4 predicted, 2 of 4 gold tokens
    assert c["Proportional_precision"] == 0.5 and c["Proportional_recall"] == 0.5


def test_proportional_prefers_best_ratio_then_overlap():
    # gold spans A [0,4) and B [4,6), both joy, same utterances; pred [2,5) overlaps A by 2 (2/4) and B by 1 (1/2)
    gold = Pairs.of([(0, 3, 2, 0, 4, 4), (0, 3, 2, 4, 6, 4)])
    pred = Pairs.of([(0, 3, 2, 2, 5, 4), (0, 3, 2, 1, 5, 4)])
    m = proportional(gold, pred)
    # pred 1: equal ratios 1/2, overlap 2 > 1 -> A. pred 2 [1,5): A 3/4, B 1/2 -> A
    assert m.gold_of.tolist() == [0, 0] and m.overlap.tolist() == [2, 3]
    assert m.gold_count.tolist() == [2, 1]


def test_fuzzy_is_greedy_in_file_order():
    gold = Pairs.of([(0, 3, 2, 0, 2, 4), (0, 3, 2, 3, 6, 4)])
    pred = Pairs.of([(0, 3, 2, 1, 4, 4), (0, 3, 2, 0, 1, 4)])
    # pred 1 overlaps both gold spans and takes the first; pred 2 overlaps only the first: no match
    gold_hit, pred_hit = fuzzy_hits(gold, pred)
    assert pred_hit.tolist() == [True, False] and gold_hit.tolist() == [True, False]
    assert fuzzy_hits(gold, Pairs.of([(0, 3, 2, 0, 1, 4), (0, 3, 2, 1, 4, 4)]))[1].tolist() == [True, True]


def test_emotion_and_utterances_must_agree():
    gold = Pairs.of([(0, 3, 2, 0, 2, 4)])
    pred = Pairs.of([(0, 3, 2, 0, 2, 1), (0, 3, 1, 0, 2, 4), (1, 3, 2, 0, 2, 4)])
    assert not strict_hits(gold, pred)[1].any()
    assert not fuzzy_hits(gold, pred)[1].any()
    assert (proportional(gold, pred).gold_of == -1).all()


def test_unfindable_gold_span_is_zero_zero_and_noted(tmp_path):
    gold = gold_file([["3_joy", "2_we lost"], ["3_joy", "2_won"]])
    s, ref = score(tmp_path, gold, pred_file([["3_joy", "2_1_2"]]))
    assert ref.gold[1].start.tolist() == [0, 1] and ref.gold[1].end.tolist() == [0, 2]
    assert any("not found" in n for n in ref.notes)
    # one of two gold pairs found: R = 1/(2+eps), and the [0,0] pair adds 0 tokens to the proportional recall
    assert s["strict_recall"] == pytest.approx(1 / (2 + EPS), abs=1e-15)
    assert s["Proportional_recall"] == pytest.approx(1 / (1 + EPS), abs=1e-15)


def test_predicted_zero_zero_hits_the_unfindable_gold_span_in_official_mode(tmp_path):
    gold = gold_file([["3_joy", "2_we lost"], ["3_joy", "2_won"]])   # spans [0, 0] (not found) and [1, 2)
    s, _ = score(tmp_path, gold, pred_file([["3_joy", "2_0_0"]]))
    # one strict hit of one prediction, two gold pairs: P = 1/(1+eps), R = 1/(2+eps)
    assert s["strict_precision"] == pytest.approx(1 / (1 + EPS), abs=1e-15)
    assert s["strict_recall"] == pytest.approx(1 / (2 + EPS), abs=1e-15)
    # the span has length 0: nothing to overlap, 0 predicted tokens, 0 gold tokens for [0, 0] plus 1 for [1, 2)
    assert s["Proportional_precision"] == 0.0 and s["Proportional_recall"] == 0.0
    assert s["fuzzy_precision"] == 0.0  # pred.end > gold.start fails: 0 > 0


def test_first_occurrence_is_taken(tmp_path):
    gold = json.dumps([{"conversation_ID": 7, "conversation": [{"text": "no , no , no ."}],
                        "emotion-cause_pairs": [["1_anger", "1_no ."]]}])
    _, ref = score(tmp_path, gold, pred_file([["1_anger", "1_4_6"]]))
    # "no ." is cleaned to "no", whose first occurrence is token 0 (not the "no ." at the end)
    assert (ref.gold[1].start[0], ref.gold[1].end[0]) == (0, 1)


def test_subtask2_pairs(tmp_path):
    gold1 = gold_file([["3_joy", "2_We"]])
    gold2 = gold_file([["3_joy", "2"], ["3_joy", "3"], ["2_anger", "1"]])
    pred2 = pred_file([["3_joy", 2], ["U3_joy", "2"], ["3_anger", "3"], ["2_anger", "1"]])
    s, _ = score(tmp_path, gold1, pred_file([]), {"mode": "clean"}, gold2=gold2, pred2=pred2)
    # 3 distinct predictions, 2 right (3_joy-2, 2_anger-1), 3 gold: micro P 2/3, R 2/3
    assert s["precision_pair"] == pytest.approx(2 / 3, abs=1e-15) and s["recall_pair"] == pytest.approx(2 / 3, abs=1e-15)
    # joy: P 1/1, R 1/2, F 2/3, weight 2/3; anger: P 1/2, R 1, F 2/3, weight 1/3 -> weighted F 2/3
    assert s["weighted_f1"] == pytest.approx(2 / 3, abs=1e-15)
    assert s["weighted_precision"] == pytest.approx(2 / 3 + 1 / 6, abs=1e-15)
    assert s["weighted_strict_f1"] == 0.0


# -- numbers as the official scorer reads them (int()), ASCII digits only ----------------------
def test_int_white_space_is_exactly_what_int_strips():
    import re
    import sys

    from scorer.tasks._ecac_official import INT_SPACE

    def int_strips(ch):
        try:
            return int(ch + "5" + ch) == 5
        except ValueError:
            return False

    ours = {chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(INT_SPACE, chr(c))}
    python = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and int_strips(chr(c))}
    assert ours == python and "\x1c" not in ours and "\u3000" in ours


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" \t\u3000\xa0\x1c+-_0123456789\u0663\uff13Ux.", max_size=7), st.booleans())
def test_parse_ints_is_python_int_on_ascii_digits(text, underscores):
    import pandas as pd

    from scorer.tasks._ecac_official import MAX_DIGITS, NOT_A_NUMBER, OK, TOO_LARGE, parse_ints

    values, status = parse_ints(pd.Series([text]), underscores=underscores)
    try:
        expected = int(text) if (underscores or "_" not in text) else None
    except ValueError:
        expected = None
    if expected is None or any(ch in text for ch in "\u0663\uff13"):
        assert status[0] == NOT_A_NUMBER
    elif abs(expected) >= 10 ** MAX_DIGITS:
        assert status[0] == TOO_LARGE
    else:
        assert status[0] == OK and values[0] == expected


def test_official_reading_of_pairs():
    from scorer.tasks._ecac_io import EMOTION_CODE
    from scorer.tasks._ecac_official import official_fields

    def fail(i, problem):
        raise AssertionError((i, problem))

    flat = [["U3U_joy", " 2 _+0_ 05"], ["03_neutral", "2_4_1"], ["-1_anger", "0_-3_-1"]]
    emo, cause, start, end, emotion = official_fields(flat, 1, EMOTION_CODE, fail)
    assert (emo.tolist(), cause.tolist(), start.tolist(), end.tolist(), emotion.tolist()) == (
        [3, 3, -1], [2, 2, 0], [0, 4, -3], [5, 1, -1], [4, 0, 1])
    # subtask 2: a JSON number is cut towards zero, true is 1, "2_0" is 20 (underscores between digits)
    flat = [["3_joy", 2.7], ["3_joy", True], ["3_joy", "2_0"], ["3_joy", "7", "extra"]]
    _, cause, _, _, _ = official_fields(flat, 2, EMOTION_CODE, fail)
    assert cause.tolist() == [2, 1, 20, 7]
