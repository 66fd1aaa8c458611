"""Emotion-cause family against the official SemEval-2024 Task 3 CodaLab scorer's printed numbers.

The submissions are made here by a seeded generator (``submissions``) from the
real test gold; the numbers the official ``CodaLab/evaluation/evaluate.py``
printed for them are in fixtures/ecac_official_scores.json (which says how they
were produced). Every key must agree to 1e-9. The fixture also stores a hash of
each generated file, so a change in the generator cannot go unnoticed.
"""
import hashlib
import json
import random

import pytest

from helpers import ROOT, make_input, read_scores, run_score, shared
from scorer.tasks._ecac_io import EMOTIONS, clean_span, locate_span

FIXTURE = ROOT / "tests" / "fixtures" / "ecac_official_scores.json"
SEED = 20240315
SCENARIOS = ("perfect", "dropped", "shifted", "swapped", "spurious_duplicates", "empty", "mixture")
SAMPLE_S1_CONVERSATIONS = (1, 2, 3, 4, 5, 12)


def gold_spans(conv):
    """Subtask 1 gold of one conversation as (emo_utt, emotion, cause_utt, start, end), spans as the scorer finds them."""
    texts = [u["text"] for u in conv["conversation"]]
    out = []
    for emo, cause in conv["emotion-cause_pairs"]:
        emo_utt, emotion = emo.split("_")
        cause_utt, span = cause.split("_", 1)
        start, end = locate_span(clean_span(span), texts[int(cause_utt) - 1])
        out.append((int(emo_utt), emotion, int(cause_utt), start, end))
    return out


def _shift(rng, start, end, n_tokens):
    for _ in range(20):
        s = min(max(start + rng.randint(-2, 2), 0), n_tokens - 1)
        e = min(max(end + rng.randint(-2, 2), s + 1), n_tokens)
        if (s, e) != (start, end):
            return s, e
    return start, end


def _random_pair(rng, n_tokens):
    n_utts = len(n_tokens)
    cause = rng.randint(1, n_utts)
    s = rng.randint(0, n_tokens[cause - 1] - 1)
    e = rng.randint(s + 1, n_tokens[cause - 1])
    return rng.randint(1, n_utts), rng.choice(EMOTIONS[1:]), cause, s, e


def _conversation_pairs(rng, scenario, spans, n_tokens, subtask):
    """Predicted pairs of one conversation (lists of two strings) for a scenario."""
    p = {"dropped": (0.3, 0, 0, 0, 0), "shifted": (0, 0.5, 0, 0, 0), "swapped": (0, 0, 0.35, 0, 0),
         "spurious_duplicates": (0, 0, 0, 0.8, 0.25), "mixture": (0.15, 0.25, 0.1, 0.4, 0.15),
         "perfect": (0, 0, 0, 0, 0), "empty": None}[scenario]
    if p is None:
        return []
    drop, shift, swap, spurious, dup = p
    rows = []
    for emo_utt, emotion, cause_utt, start, end in spans:
        if (subtask == 1 and end == 0) or rng.random() < drop:  # the [0, 0] span: see test_emotion_cause_official_corpus
            continue
        if rng.random() < shift:
            if subtask == 1:
                start, end = _shift(rng, start, end, n_tokens[cause_utt - 1])
            else:
                cause_utt = min(max(cause_utt + rng.choice((-1, 1)), 1), len(n_tokens))
        if rng.random() < swap:
            emotion = rng.choice([e for e in EMOTIONS if e != emotion])
        rows.append((emo_utt, emotion, cause_utt, start, end))
        if scenario == "mixture" and subtask == 1 and end - start >= 2 and rng.random() < 0.3:
            # several predictions on one gold span: the official recall denominator counts it for each
            mid = rng.randint(start + 1, end - 1)
            rows += [(emo_utt, emotion, cause_utt, start, mid), (emo_utt, emotion, cause_utt, mid, end)]
    while rng.random() < spurious:
        rows.append(_random_pair(rng, n_tokens))
    rows += [r for r in list(rows) if rng.random() < dup]
    rng.shuffle(rows) if scenario == "mixture" else None
    pairs = []
    for emo_utt, emotion, cause_utt, start, end in rows:
        head = ("U%d" if scenario != "perfect" and rng.random() < 0.1 else "%d") % emo_utt
        cause = "%d_%d_%d" % (cause_utt, start, end) if subtask == 1 else "%d" % cause_utt
        pairs.append([head + "_" + emotion, cause])
    return pairs


def submissions(gold1, gold2, seed=SEED):
    """scenario -> {1: JSON text of Subtask_1_pred.json, 2: JSON text of Subtask_2_pred.json}."""
    out = {}
    for k, scenario in enumerate(SCENARIOS):
        files = {}
        for subtask, gold in ((1, gold1), (2, gold2)):
            rng = random.Random(seed * 100 + k * 10 + subtask)
            convs = []
            for conv in gold:
                n_tokens = [max(len(u["text"].split()), 1) for u in conv["conversation"]]
                if subtask == 1:
                    spans = gold_spans(conv)
                else:
                    spans = [(int(e.split("_")[0]), e.split("_")[1], int(c), 0, 0)
                             for e, c in conv["emotion-cause_pairs"]]
                cid = conv["conversation_ID"]
                if scenario == "mixture" and rng.random() < 0.1:
                    cid = str(cid)  # the official scorer reads string ids too
                convs.append({"conversation_ID": cid,
                              "emotion-cause_pairs": _conversation_pairs(rng, scenario, spans, n_tokens, subtask)})
            if scenario == "mixture":
                rng.shuffle(convs)
            files[subtask] = json.dumps(convs, ensure_ascii=False)
        out[scenario] = files
    return out


def sample_golds():
    """Golds for the official sample submissions (train conversations): subtask 1 from the
    Subtask 1 train file, subtask 2 from ECF 1.0 (utterance pairs, emotion of the emotion utterance)."""
    train = json.loads(shared("ecac", "Subtask_1_train.json").read_text(encoding="utf-8"))
    gold1 = [c for c in train if c["conversation_ID"] in SAMPLE_S1_CONVERSATIONS]
    lines = shared("ecac", "mecpe_ecf1", "all_data_pair.txt").read_text(encoding="utf-8").splitlines()
    gold2, i = [], 0
    while i < len(lines) and len(gold2) < 5:
        cid, n = (int(v) for v in lines[i].split())
        pairs = [tuple(int(v) for v in p.strip("()").split(",")) for p in lines[i + 1].split("),(") if p]
        utts = [line.split(" | ") for line in lines[i + 2:i + 2 + n]]
        conversation = [{"utterance_ID": int(u[0]), "speaker": u[1], "emotion": u[2], "text": u[3]} for u in utts]
        gold2.append({"conversation_ID": cid, "conversation": conversation,
                      "emotion-cause_pairs": [["%d_%s" % (e, utts[e - 1][2]), "%d" % c] for e, c in pairs]})
        i += 2 + n
    return json.dumps(gold1), json.dumps(gold2)


def _sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def fixture():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generated():
    gold1 = json.loads(shared("ecac", "Subtask_1_test.json").read_text(encoding="utf-8"))
    gold2 = json.loads(shared("ecac", "Subtask_2_test.json").read_text(encoding="utf-8"))
    return submissions(gold1, gold2)


def _config(subtasks, gold1, gold2):
    return ("task: emotion_cause\nfiles: {subtask1_gold: %s, subtask2_gold: %s}\noptions: {subtasks: '%s'}\n"
            % (gold1, gold2, subtasks))


def _ours(tmp_path, ref, res, subtasks="both"):
    ref = dict(ref)
    ref["config.yaml"] = _config(subtasks, "Subtask_1_test.json", "Subtask_2_test.json")
    base = make_input(tmp_path, ref, res)
    proc = run_score(base, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    return read_scores(tmp_path / "out")


def _assert_equal(ours, official, label):
    for key, value in official.items():
        assert key in ours, (label, key)
        assert abs(ours[key] - value) <= 1e-9, (label, key, ours[key], value)


def test_generated_files_are_the_ones_the_official_scorer_saw(generated, fixture):
    for scenario in SCENARIOS:
        for subtask in (1, 2):
            assert _sha(generated[scenario][subtask]) == fixture["test"][scenario]["sha256"][str(subtask)], scenario


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_test_set_matches_official(tmp_path, generated, fixture, scenario):
    ref = {"Subtask_1_test.json": shared("ecac", "Subtask_1_test.json").read_bytes(),
           "Subtask_2_test.json": shared("ecac", "Subtask_2_test.json").read_bytes()}
    res = {"Subtask_1_pred.json": generated[scenario][1], "Subtask_2_pred.json": generated[scenario][2]}
    _assert_equal(_ours(tmp_path, ref, res), fixture["test"][scenario]["scores"], scenario)


def test_official_sample_submissions(tmp_path, fixture):
    gold1, gold2 = sample_golds()
    expected = fixture["sample"]
    assert _sha(gold1) == expected["gold_sha256"]["1"] and _sha(gold2) == expected["gold_sha256"]["2"]
    for subtask, gold in ((1, gold1), (2, gold2)):
        name = "Subtask_%d_test.json" % subtask
        pred = shared("ecac", "sample_submission_Subtask_%d_pred.json" % subtask).read_bytes()
        ref = {name: gold, "config.yaml": ""}
        ref["config.yaml"] = ("task: emotion_cause\nfiles: {subtask%d_gold: %s}\noptions: {subtasks: '%d'}\n"
                              % (subtask, name, subtask))
        base = make_input(tmp_path / str(subtask), ref, {"Subtask_%d_pred.json" % subtask: pred})
        proc = run_score(base, tmp_path / str(subtask) / "out")
        assert proc.returncode == 0, proc.stderr
        _assert_equal(read_scores(tmp_path / str(subtask) / "out"), expected["scores"][str(subtask)], subtask)


def _in_process(ref_dir, files, options=None):
    """Unrounded scores of the family, called directly (scores.txt rounds to 10 decimals)."""
    from scorer.api import Competition
    from scorer.discovery import SubmittedFile

    raw = {"task": "emotion_cause", "options": dict(options or {}),
           "files": {"subtask1_gold": "Subtask_1_test.json", "subtask2_gold": "Subtask_2_test.json"}}
    comp = Competition.from_raw(raw, str(ref_dir))
    slots = {"subtask%d" % k: SubmittedFile("Subtask_%d_pred.json" % k, (lambda t=text: t.encode("utf-8")))
             for k, text in files.items()}
    return comp.score(comp.read_files(slots)).scores


@pytest.mark.parametrize("scenario", ("perfect", "shifted", "mixture"))
def test_unrounded_scores_match_official_to_1e12(generated, fixture, scenario):
    ours = _in_process(shared("ecac"), generated[scenario])
    for key, value in fixture["test"][scenario]["scores"].items():
        assert abs(ours[key] - value) <= 1e-12, (scenario, key, ours[key], value)
