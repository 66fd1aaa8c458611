"""Participant mistakes in ECAC submissions: exit 1, one line, no traceback, no gold span text."""
import json

import pytest

from helpers import assert_participant_error, make_input, read_scores, run_score

CONVS = {
    1375: [{"utterance_ID": 1, "text": "We won the secret match !"}, {"utterance_ID": 2, "text": "Really ?"}],
    1376: [{"utterance_ID": 1, "text": "I lost my keys ."}],
}
GOLD1 = json.dumps([{"conversation_ID": c, "conversation": u,
                     "emotion-cause_pairs": [["1_joy", "1_won the secret match"]] if c == 1375 else []}
                    for c, u in CONVS.items()])
GOLD2 = json.dumps([{"conversation_ID": c, "conversation": u,
                     "emotion-cause_pairs": [["2_surprise", "1"]] if c == 1375 else []} for c, u in CONVS.items()])
SECRET = "secret"  # a word of a gold span: it must never reach stderr


def config(subtasks="both", mode="official"):
    return "task: emotion_cause\noptions: {subtasks: '%s', mode: %s}\n" % (subtasks, mode)


def sub(pairs_1375, pairs_1376=(), extra=()):
    convs = [{"conversation_ID": 1375, "emotion-cause_pairs": list(pairs_1375)},
             {"conversation_ID": 1376, "emotion-cause_pairs": list(pairs_1376)}] + list(extra)
    return json.dumps(convs)


def run(tmp_path, res, subtasks="both", mode="official"):
    ref = {"config.yaml": config(subtasks, mode), "Subtask_1_gold.json": GOLD1, "Subtask_2_gold.json": GOLD2}
    base = make_input(tmp_path, ref, res)
    return run_score(base, tmp_path / "out")


# refused in both modes (the official scorer refuses them too)
CASES = [
    ("not_json", {"Subtask_1_pred.json": "[{\"conversation_ID\": 1375,"}, ("Subtask_1_pred.json line 1", "not valid JSON")),
    ("not_list", {"Subtask_1_pred.json": "{\"1375\": []}"}, ("must be a JSON list of conversations",)),
    ("no_id", {"Subtask_1_pred.json": json.dumps([{"emotion-cause_pairs": []}])}, ("entry 1", "conversation_ID")),
    ("no_pairs_key", {"Subtask_1_pred.json": json.dumps([{"conversation_ID": 1375}])}, ("conversation 1375", "emotion-cause_pairs")),
    ("duplicate", {"Subtask_1_pred.json": sub([], extra=[{"conversation_ID": "1375", "emotion-cause_pairs": []}])},
     ("conversation 1375 twice",)),
    ("missing", {"Subtask_1_pred.json": json.dumps([{"conversation_ID": 1375, "emotion-cause_pairs": []}])},
     ("conversation 1376 is missing", "1 of 2")),
    ("pair_shape", {"Subtask_1_pred.json": sub([["1_joy", "1_0_2", "x"]])}, ("conversation 1375, pair 1", "two strings")),
    ("unknown_emotion", {"Subtask_1_pred.json": sub([["1_Joy", "1_0_2"]])}, ("unknown emotion 'Joy'", "lower case")),
    ("bad_head", {"Subtask_1_pred.json": sub([["joy_1", "1_0_2"]])}, ("<emotion utterance>_<emotion>",)),
    ("text_cause", {"Subtask_1_pred.json": sub([["1_joy", "1_won the match"]])}, ("not the cause text",)),
    ("u_cause", {"Subtask_1_pred.json": sub([["1_joy", "U1_0_2"]])}, ("no 'U'",)),
    ("s2_u_cause", {"Subtask_2_pred.json": sub([["2_surprise", "U1"]])}, ("Subtask_2_pred.json", "no \"U\" prefix")),
    ("nothing", {"readme.txt": "hello"}, ("Subtask_1_pred.json", "Subtask_2_pred.json")),
    ("arabic_indic_digits", {"Subtask_1_pred.json": sub([["1_joy", "1_\u0660_\u0662"]])}, ("conversation 1375, pair 1", "digits 0-9")),
    ("fullwidth_digits", {"Subtask_2_pred.json": sub([["\uff12_surprise", "1"]])}, ("pair 1", "digits 0-9")),
    ("fullwidth_conversation_id", {"Subtask_1_pred.json": sub([], extra=[{"conversation_ID": "\uff11",
                                                                           "emotion-cause_pairs": []}])},
     ("entry 3", "digits 0-9")),
]

# refused by mode clean; the official scorer scores them (see test_emotion_cause_official_corpus.py)
CLEAN_ONLY = [
    ("unknown", {"Subtask_1_pred.json": sub([], extra=[{"conversation_ID": 99, "emotion-cause_pairs": []}])},
     ("conversation 99 is not a test conversation",)),
    ("outside", {"Subtask_1_pred.json": sub([["1_joy", "1_3_9"]])}, ("span 3_9 is outside utterance 1", "6 tokens")),
    ("empty_span", {"Subtask_1_pred.json": sub([["1_joy", "1_2_2"]])}, ("span 2_2",)),
    ("zero_span", {"Subtask_1_pred.json": sub([["1_joy", "1_0_0"]])}, ("span 0_0",)),
    ("emo_utt", {"Subtask_1_pred.json": sub([["5_joy", "1_0_2"]])}, ("emotion utterance 5 does not exist", "1 to 2")),
    ("cause_utt", {"Subtask_1_pred.json": sub([], [["1_sadness", "2_0_1"]])}, ("conversation 1376", "cause utterance 2")),
    ("s2_span", {"Subtask_2_pred.json": sub([["2_surprise", "1_0_2"]])}, ("number of the cause utterance",)),
    ("signed_number", {"Subtask_1_pred.json": sub([["+1_joy", "1_0_2"]])}, ("<emotion utterance>_<emotion>",)),
]

# refused by mode official although the official scorer may score them: the deliberate differences
OFFICIAL_DIFFERENCES = [
    ("crossing_zero", {"Subtask_1_pred.json": sub([["1_joy", "1_-1_3"]])}, ("span -1_3", "whatever the gold")),
    ("too_large", {"Subtask_1_pred.json": sub([["1_joy", "1_0_10000000000"]])}, ("span end", "more than 9 digits")),
]


@pytest.mark.parametrize("mode", ["official", "clean"])
@pytest.mark.parametrize("name,res,fragments", CASES, ids=[c[0] for c in CASES])
def test_participant_errors(tmp_path, name, res, fragments, mode):
    line = assert_participant_error(run(tmp_path, res, mode=mode), *fragments)
    assert SECRET not in line


@pytest.mark.parametrize("name,res,fragments", CLEAN_ONLY, ids=[c[0] for c in CLEAN_ONLY])
def test_strict_validation_in_mode_clean_only(tmp_path, name, res, fragments):
    line = assert_participant_error(run(tmp_path / "clean", res, mode="clean"), *fragments)
    assert SECRET not in line
    proc = run(tmp_path / "official", res)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name,res,fragments", OFFICIAL_DIFFERENCES, ids=[c[0] for c in OFFICIAL_DIFFERENCES])
def test_deliberate_refusals_in_mode_official(tmp_path, name, res, fragments):
    line = assert_participant_error(run(tmp_path, res), *fragments)
    assert SECRET not in line


def test_odd_pairs_scored_in_mode_official_are_counted_in_the_report(tmp_path):
    proc = run(tmp_path, {"Subtask_1_pred.json": sub([["1_joy", "1_0_0"], ["1_joy", "1_4_2"], ["9_joy", "1_0_1"],
                                                      ["1_joy", "1_5_8"]])})
    assert proc.returncode == 0, proc.stderr
    # the page may break a line after an underscore (span 0_0): its text is read without the break points
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8").replace("<wbr>", "")
    for fragment in ("1 name an utterance outside their conversation", "1 have the span 0_0",
                     "1 have an empty or reversed span", "1 have a span reaching outside the utterance"):
        assert fragment in page, fragment


def test_phase_of_one_subtask_needs_its_file(tmp_path):
    proc = run(tmp_path, {"Subtask_2_pred.json": sub([])}, subtasks="1")
    assert_participant_error(proc, "scores subtask 1", "Subtask_1_pred.json")


def test_absent_subtask_scores_zero_on_its_keys(tmp_path):
    proc = run(tmp_path, {"Subtask_2_pred.json": sub([["2_surprise", "1"]])})
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "out")
    assert scores["weighted_strict_f1"] == 0.0 and scores["strict_f1"] == 0.0
    assert scores["weighted_f1"] > 0.99


def test_u_prefix_on_emotion_utterance_is_accepted(tmp_path):
    a = run(tmp_path / "a", {"Subtask_1_pred.json": sub([["U1_joy", "1_1_5"]])})
    b = run(tmp_path / "b", {"Subtask_1_pred.json": sub([["1_joy", "1_1_5"]])})
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert read_scores(tmp_path / "a" / "out") == read_scores(tmp_path / "b" / "out")
    assert read_scores(tmp_path / "a" / "out")["weighted_strict_f1"] > 0.99


def test_unknown_conversations_can_be_skipped_as_the_official_scorer_does(tmp_path):
    ref = {"config.yaml": "task: emotion_cause\noptions: {unknown_conversations: ignore, mode: clean}\n",
           "Subtask_1_gold.json": GOLD1, "Subtask_2_gold.json": GOLD2}
    res = {"Subtask_1_pred.json": sub([["1_joy", "1_1_5"]], extra=[{"conversation_ID": 99, "emotion-cause_pairs": []}])}
    proc = run_score(make_input(tmp_path, ref, res), tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert read_scores(tmp_path / "out")["weighted_strict_f1"] > 0.99


def test_unknown_conversations_follow_the_mode_unless_set(tmp_path):
    extra = sub([["1_joy", "1_1_5"]], extra=[{"conversation_ID": 99}])  # officially never looked into
    assert run(tmp_path / "official", {"Subtask_1_pred.json": extra}).returncode == 0
    ref = {"config.yaml": "task: emotion_cause\noptions: {unknown_conversations: error}\n",
           "Subtask_1_gold.json": GOLD1, "Subtask_2_gold.json": GOLD2}
    proc = run_score(make_input(tmp_path / "error", ref, {"Subtask_1_pred.json": extra}), tmp_path / "error" / "out")
    assert_participant_error(proc, "conversation 99 is not a test conversation")
