"""Entity F1 against seqeval for every number of entity types from 3 to 20, in both schemes.

The decoder takes another path from 8 types on (its table of every (previous tag, tag) pair would no longer
fit a byte), so each count of types is scored here through the engine (``bank_comments`` with option
``entity_types``) and compared with seqeval, which decodes the same tag lists by itself: ``mode="strict",
scheme=IOB2`` for ``iob2`` and its default (conlleval) chunking for ``conlleval``. The tag lists are drawn
so that every kind of transition occurs: ``I-X`` after ``B-X``/``I-X`` (a continuation), after ``B-Y``/``I-Y``
of another type (a new chunk under conlleval, a stray tag under IOB2), after ``O`` and at a comment's start.
"""
import numpy as np
import pytest
from seqeval.metrics import f1_score, precision_score, recall_score
from seqeval.scheme import IOB2

from helpers import write_files
from scorer.api import Competition


def tag_lists(rng, types, n_docs=80):
    """Gold-like runs B-X I-X ... with, on the prediction, re-typed inside tags, stray I- tags and moved edges."""
    gold, pred = [], []
    for _ in range(n_docs):
        length = int(rng.integers(1, 40))
        tags = ["O"] * length
        k = 0
        while k < length:
            if rng.random() < 0.3:
                kind = types[int(rng.integers(len(types)))]
                run = int(rng.integers(1, 5))
                for j in range(k, min(length, k + run)):
                    tags[j] = ("B-" if j == k else "I-") + kind
                k += run
            k += 1
        guess = list(tags)
        for j in range(length):
            roll = rng.random()
            if roll < 0.08 and guess[j] != "O":      # the same position, another type: I-Y after B-X
                guess[j] = guess[j][:2] + types[int(rng.integers(len(types)))]
            elif roll < 0.12:                        # a stray inside tag anywhere (also at the start)
                guess[j] = "I-" + types[int(rng.integers(len(types)))]
            elif roll < 0.15:
                guess[j] = "O"
        gold.append(tags)
        pred.append(guess)
    return gold, pred


def table(ids, tags, classes, text=True):
    head = "id,text,BIO_anno,class" if text else "id,BIO_anno,class"
    rows = [",".join([i] + (["字" * len(t)] if text else []) + [" ".join(t), str(c)])
            for i, t, c in zip(ids, tags, classes)]
    return "\n".join([head] + rows) + "\n"


def ours(tmp_path, types, scheme, gold, pred):
    ids = ["d%03d" % k for k in range(len(gold))]
    classes = [k % 3 for k in range(len(gold))]
    ref = write_files(tmp_path / "ref", {"gold.csv": table(ids, gold, classes)})
    res = write_files(tmp_path / "res", {"submission.csv": table(ids, pred, classes, text=False)})
    comp = Competition.from_raw({"task": "bank_comments", "board": "all",
                                 "options": {"scheme": scheme, "entity_types": list(types)}}, str(ref))
    return comp.scores(comp.read_submission(str(res)))


@pytest.mark.parametrize("scheme", ["iob2", "conlleval"])
@pytest.mark.parametrize("n_types", range(3, 21))
def test_entity_scores_equal_seqeval_for_any_number_of_types(tmp_path, n_types, scheme):
    types = ["T%d" % k for k in range(n_types)]
    gold, pred = tag_lists(np.random.default_rng(n_types), types)
    got = ours(tmp_path, types, scheme, gold, pred)
    kwargs = dict(mode="strict", scheme=IOB2) if scheme == "iob2" else {}
    expected = {"ner_f1": f1_score(gold, pred, **kwargs), "ner_precision": precision_score(gold, pred, **kwargs),
                "ner_recall": recall_score(gold, pred, **kwargs)}
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key
    assert 0.2 < expected["ner_f1"] < 0.95   # a submission that is neither right nor all wrong
