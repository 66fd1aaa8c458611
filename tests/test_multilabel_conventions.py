"""The worked example of docs/multilabel.md: what trec_eval, scikit-learn and ranx give beside our two options.

One sample, classes a..g. Gold grades a 3, b 1, c 2, d 0 (judged not relevant),
e 3: |R| = 4. Ranked list a, f, c, b, g (scores 0.9 0.8 0.7 0.6 0.5); d and e
not listed. k = 3.

- AP@3: relevant at ranks 1 and 3: (1/1 + 2/3) / |R| = 5/12, or / min(3, |R|) = 5/9.
- nDCG@3: DCG = g(3)/log2 2 + 0 + g(2)/log2 4; ideal [3, 3, 2]: g(3) + g(3)/log2 3 + g(2)/2,
  linear g(x) = x or exponential g(x) = 2^x - 1.
"""
import math
import re
from fractions import Fraction as F

import numpy as np
import pytest

from helpers import ROOT
from test_multilabel_rules import _score

GOLD = {"a": 3, "b": 1, "c": 2, "d": 0, "e": 3}
RUN = {"a": 0.9, "f": 0.8, "c": 0.7, "b": 0.6, "g": 0.5}
LABELS = list("abcdefg")
EXACT = 1e-9


def _ndcg(gain):
    g = (lambda x: x) if gain == "linear" else (lambda x: 2 ** x - 1)
    dcg = g(3) / math.log2(2) + g(2) / math.log2(4)
    ideal = g(3) / math.log2(2) + g(3) / math.log2(3) + g(2) / math.log2(4)
    return dcg / ideal


BY_HAND = {"map_relevant": float(F(5, 12)), "map_min_k": float(F(5, 9)),
           "ndcg_linear": _ndcg("linear"), "ndcg_exponential": _ndcg("exponential")}


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("conventions")
    gold = [("q", " ".join(k for k in GOLD), " ".join(str(v) for v in GOLD.values()))]
    run = [("q", " ".join(RUN), " ".join(str(v) for v in RUN.values()))]
    out = {}
    for denominator in ("relevant", "min_k_relevant"):
        for gain in ("linear", "exponential"):
            got = _score(tmp, LABELS, gold, run, {"k": 3, "map_denominator": denominator, "ndcg_gain": gain},
                         name="%s_%s" % (denominator, gain))
            out[denominator, gain] = got
    return out


def test_our_options_by_hand(ours):
    assert abs(ours["relevant", "linear"]["map_at_3"] - BY_HAND["map_relevant"]) <= EXACT
    assert abs(ours["min_k_relevant", "linear"]["map_at_3"] - BY_HAND["map_min_k"]) <= EXACT
    assert abs(ours["relevant", "linear"]["ndcg_at_3"] - BY_HAND["ndcg_linear"]) <= EXACT
    assert abs(ours["relevant", "exponential"]["ndcg_at_3"] - BY_HAND["ndcg_exponential"]) <= EXACT


def test_trec_eval():
    import pytrec_eval
    got = pytrec_eval.RelevanceEvaluator({"q": GOLD}, {"map_cut_3", "ndcg_cut_3"}).evaluate({"q": RUN})["q"]
    assert abs(got["map_cut_3"] - BY_HAND["map_relevant"]) <= EXACT      # our default denominator
    assert abs(got["ndcg_cut_3"] - BY_HAND["ndcg_linear"]) <= EXACT      # linear gain, not our default


def test_scikit_learn(ours):
    from sklearn.metrics import label_ranking_average_precision_score, ndcg_score
    y = np.array([[GOLD.get(c, 0) for c in LABELS]])
    scores = np.array([[RUN.get(c, 0.0) for c in LABELS]])   # d and e unlisted: tied below every listed label
    assert abs(ndcg_score(y, scores, k=3) - BY_HAND["ndcg_linear"]) <= EXACT
    assert abs(ndcg_score(2.0 ** y - 1, scores, k=3) - BY_HAND["ndcg_exponential"]) <= EXACT
    # no MAP@k in scikit-learn; its nearest, label ranking average precision, has no cut-off
    lrap = label_ranking_average_precision_score((y > 0).astype(int), scores)
    assert abs(ours["relevant", "exponential"]["label_ranking_avg_precision"] - lrap) <= EXACT
    # by hand: a 1/1; c: 2 of {a, f, c}; b: 3 of {a, f, c, b}; e ties with d at the bottom: 4 of all 7
    assert abs(lrap - float((1 + F(2, 3) + F(3, 4) + F(4, 7)) / 4)) <= EXACT


def test_ranx():
    from ranx import Qrels, Run, evaluate
    got = evaluate(Qrels({"q": {k: v for k, v in GOLD.items() if v > 0}}), Run({"q": RUN}),
                   ["map@3", "ndcg@3", "ndcg_burges@3"])
    assert abs(got["map@3"] - BY_HAND["map_relevant"]) <= EXACT
    assert abs(got["ndcg@3"] - BY_HAND["ndcg_linear"]) <= EXACT
    assert abs(got["ndcg_burges@3"] - BY_HAND["ndcg_exponential"]) <= EXACT


def test_docs_quote_these_numbers():
    text = (ROOT / "docs" / "multilabel.md").read_text(encoding="utf-8")
    section = text[text.index("### Conventions of other tools"):]
    found = set(re.findall(r"\b0\.\d{5}\b", section))
    assert {"%.5f" % v for v in BY_HAND.values()} <= found
