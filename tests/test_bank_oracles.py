"""Bank-comments scores against oracles we did not write: seqeval and scikit-learn, on the real gold."""
import pytest
from seqeval.metrics import f1_score, precision_score, recall_score
from seqeval.scheme import IOB2
from sklearn.metrics import accuracy_score, cohen_kappa_score

from bank_data import gold_csv, perturb, real_gold, submission_csv
from helpers import make_input, read_scores
from scorer.platform.runner import run

IDS, TEXTS, GOLD_TAGS, GOLD_CLASSES = real_gold()

CASES = {
    "moved boundaries": dict(moved=0.3),
    "dropped entities": dict(dropped=0.25),
    "re-typed entities": dict(retyped=0.2),
    "stray I- tags": dict(stray=0.03),
    "flipped classes": dict(flipped=0.3),
    "everything at once": dict(moved=0.1, dropped=0.1, retyped=0.1, stray=0.01, spurious=0.01, flipped=0.15),
}


def oracle(pred_tags, pred_classes, scheme, weight=0.5):
    kwargs = dict(mode="strict", scheme=IOB2) if scheme == "iob2" else {}
    s1 = f1_score(GOLD_TAGS, pred_tags, **kwargs)
    s2 = cohen_kappa_score(GOLD_CLASSES, pred_classes)
    return {"ner_f1": s1, "ner_precision": precision_score(GOLD_TAGS, pred_tags, **kwargs),
            "ner_recall": recall_score(GOLD_TAGS, pred_tags, **kwargs), "kappa": s2,
            "class_accuracy": accuracy_score(GOLD_CLASSES, pred_classes), "score": weight * s1 + (1 - weight) * s2}


def score(tmp_path, pred_tags, pred_classes, scheme, weight=0.5):
    config = "task: bank_comments\nboard: all\noptions: {scheme: %s, ner_weight: %s}\n" % (scheme, weight)
    inp = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold_csv(IDS, TEXTS, GOLD_TAGS, GOLD_CLASSES)},
                     {"submission.csv": submission_csv(IDS, pred_tags, pred_classes)})
    run(str(inp), str(tmp_path / "output"))
    return read_scores(tmp_path / "output")


@pytest.mark.parametrize("scheme", ["iob2", "conlleval"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_scores_equal_seqeval_and_sklearn_on_real_gold(tmp_path, case, scheme):
    pred_tags, pred_classes = perturb(GOLD_TAGS, GOLD_CLASSES, seed=sorted(CASES).index(case), **CASES[case])
    ours = score(tmp_path, pred_tags, pred_classes, scheme)
    expected = oracle(pred_tags, pred_classes, scheme)
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("weight", [0.0, 0.3, 1.0])
def test_the_weight_of_the_entity_f1_is_the_option(tmp_path, weight):
    pred_tags, pred_classes = perturb(GOLD_TAGS, GOLD_CLASSES, seed=11, moved=0.1, dropped=0.1, flipped=0.2)
    ours = score(tmp_path, pred_tags, pred_classes, "iob2", weight)
    for key, value in oracle(pred_tags, pred_classes, "iob2", weight).items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


def test_schemes_really_differ_on_stray_inside_tags(tmp_path):
    # guards against both options silently running the same decoder
    pred_tags, pred_classes = perturb(GOLD_TAGS, GOLD_CLASSES, seed=7, stray=0.03)
    strict = score(tmp_path / "s", pred_tags, pred_classes, "iob2")["ner_f1"]
    lenient = score(tmp_path / "l", pred_tags, pred_classes, "conlleval")["ner_f1"]
    assert abs(strict - lenient) > 1e-3


def test_gold_as_submission_scores_one(tmp_path):
    ours = score(tmp_path, GOLD_TAGS, GOLD_CLASSES, "iob2")
    assert ours["score"] == 1.0 and ours["ner_f1"] == 1.0 and ours["kappa"] == 1.0
