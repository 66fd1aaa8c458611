"""Mode official accepts exactly what the official ECAC scorer scores, with its numbers.

The corpus (tests/ecac_corpus.py) is regenerated here with its fixed seed from
the real SemEval-2024 Task 3 test gold; fixtures/ecac_official_corpus.json holds
what the official CodaLab scorer did with each case (recorded once by
tests/record_ecac_official.py, which names the scorer's commit and the sha256 of
its evaluate.py): verdict, printed numbers, and its fuzzy numbers (defined in
the scorer, not printed). For every corpus case: scored -> we score it with the
same numbers to 1e-9; rejected -> we refuse it (exit 1, one line). The
``difference`` cases are the documented deliberate differences: the fixture
shows what the official scorer did, the test what we do instead.
"""
import hashlib
import json

import pytest

from ecac_corpus import SEED, corpus
from helpers import ROOT, assert_participant_error, make_input, read_scores, run_score, shared

FIXTURE = ROOT / "tests" / "fixtures" / "ecac_official_corpus.json"
TOLERANCE = 1e-9
GOLD_NAMES = {1: "Subtask_1_test.json", 2: "Subtask_2_test.json"}


def _sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def recorded():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def gold_text():
    return {k: shared("ecac", name).read_text(encoding="utf-8") for k, name in GOLD_NAMES.items()}


@pytest.fixture(scope="module")
def cases(gold_text):
    return {c.name: c for c in corpus(json.loads(gold_text[1]), json.loads(gold_text[2]))}


class Family:
    """The emotion_cause family called in this process, the reference read once per options."""

    def __init__(self):
        self.loaded = {}

    def run(self, files, **options):
        from scorer.api import Competition
        from scorer.discovery import SubmittedFile

        key = tuple(sorted(options.items()))
        if key not in self.loaded:
            raw = {"task": "emotion_cause", "options": dict(options),
                   "files": {"subtask1_gold": GOLD_NAMES[1], "subtask2_gold": GOLD_NAMES[2]}}
            self.loaded[key] = Competition.from_raw(raw, str(shared("ecac")))
        comp = self.loaded[key]
        slots = {"subtask%d" % k: (SubmittedFile("Subtask_%d_pred.json" % k, (lambda t=text: t.encode("utf-8")))
                                   if text is not None else None) for k, text in files.items()}
        return comp.score(comp.read_files(slots)).scores


@pytest.fixture(scope="module")
def family():
    return Family()


def _refusal(family, files, **options):
    """The one-line message of a refusal (exit code 1), or fail."""
    from scorer.errors import SubmissionError

    with pytest.raises(SubmissionError) as caught:
        family.run(files, **options)
    assert caught.value.exit_code == 1
    message = caught.value.message
    assert message and "\n" not in message and "Traceback" not in message
    return message


def _same_numbers(ours, official, label):
    assert official, label
    for key, value in official.items():
        assert key in ours, (label, key)
        assert abs(ours[key] - value) <= TOLERANCE, (label, key, ours[key], value)


def test_fixture_names_the_scorer_the_gold_and_every_generated_file(recorded, gold_text, cases):
    scorer = recorded["scorer"]
    assert scorer["path"] == "CodaLab/evaluation/evaluate.py" and len(scorer["repository_snapshot"]) == 40
    assert len(scorer["sha256"]) == 64
    assert recorded["seed"] == SEED
    assert recorded["gold_sha256"] == {str(k): _sha(t) for k, t in gold_text.items()}
    assert sorted(recorded["cases"]) == sorted(cases)
    for name, case in cases.items():
        expected = {str(k): (_sha(t) if t is not None else None) for k, t in case.files.items()}
        assert recorded["cases"][name]["sha256"] == expected, name


def test_corpus_covers_both_verdicts_and_the_lost_gold_span(recorded):
    entries = [e for e in recorded["cases"].values() if e["group"] == "corpus"]
    assert sum(e["verdict"] == "scored" for e in entries) >= 40
    assert sum(e["verdict"] == "rejected" for e in entries) >= 40
    # the gold span the scorer cannot locate sits at [0, 0]: predicting 8_0_0 there is a strict hit
    only = recorded["cases"]["s1_zero_zero_unlocated_only"]["scores"]
    assert only["strict_precision"] > 0.99 and only["strict_recall"] > 0


def _corpus_names():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return sorted(n for n, e in data["cases"].items() if e["group"] == "corpus")


def _difference_names():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return sorted(n for n, e in data["cases"].items() if e["group"] == "difference")


@pytest.mark.parametrize("name", _corpus_names())
def test_mode_official_gives_the_official_verdict_and_numbers(family, cases, recorded, name):
    entry = recorded["cases"][name]
    files = cases[name].files
    if entry["verdict"] == "rejected":
        _refusal(family, files)
        return
    ours = family.run(files)
    _same_numbers(ours, entry["scores"], name)
    if "fuzzy" in entry:
        _same_numbers(ours, entry["fuzzy"], name + " (fuzzy)")


@pytest.mark.parametrize("name", _difference_names())
def test_deliberate_differences(family, cases, recorded, name):
    entry, case = recorded["cases"][name], cases[name]
    assert entry["ours"] == case.ours
    if case.ours == "refused":
        assert entry["verdict"] == "scored", "the official scorer no longer scores %s: not a difference" % name
        message = _refusal(family, case.files)
        assert any(word in message for word in ("digits 0-9", "more than 9 digits", "whatever the gold")), message
    else:
        assert entry["verdict"] == "rejected", name
        same = recorded["cases"][case.extra["same_as"]]["scores"]
        _same_numbers(family.run(case.files), same, name)


@pytest.mark.parametrize("name", ["s1_zero_zero_unlocated_only", "s1_reversed_beside", "s2_cause_underscore",
                                  "s1_crossing_unlocated", "s1_cause_text", "s2_ids_as_floats"])
def test_whole_process_on_some_cases(tmp_path, cases, recorded, gold_text, name):
    """score.py as a platform runs it: exit 1 with one stderr line, or scores.txt within 1e-9."""
    entry = recorded["cases"][name]
    ref = {"Subtask_%d_gold.json" % k: t for k, t in gold_text.items()}
    ref["config.yaml"] = "task: emotion_cause\n"
    res = {"Subtask_%d_pred.json" % k: t for k, t in cases[name].files.items() if t is not None}
    proc = run_score(make_input(tmp_path, ref, res), tmp_path / "out")
    if entry["verdict"] == "rejected":
        assert_participant_error(proc)
    else:
        assert proc.returncode == 0, proc.stderr
        _same_numbers(read_scores(tmp_path / "out"), entry["scores"], name)


def test_mode_clean_refuses_what_the_official_scorer_only_tolerates(family, cases, recorded):
    """Mode clean keeps strict validation: the odd uploads the official scorer scores are refused."""
    for name in ("s1_zero_zero_unlocated_only", "s1_start_eq_end_inside", "s1_end_past_last", "s1_reversed_beside",
                 "s1_emo_utt_outside", "s1_cause_spaces", "s2_cause_underscore", "s2_cause_float",
                 "s1_empty_string_and_object", "s1_ids_as_floats"):
        assert recorded["cases"][name]["verdict"] == "scored", name
        _refusal(family, cases[name].files, mode="clean")
    # and scores the ordinary ones
    assert family.run(cases["s1_without_unlocated"].files, mode="clean")["weighted_strict_f1"] > 0.5
