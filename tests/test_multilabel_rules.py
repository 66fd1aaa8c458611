"""Hand-worked multi-label cases, one per convention: every expected value is worked out in the comments."""
from fractions import Fraction as F

import pytest

from multilabel_data import config, score_in_process

EXACT = 1e-9


def _csv(header, rows):
    return header + "\n" + "".join(",".join(r) + "\n" for r in rows)


def _score(tmp_path, labels, gold, submission, options=None, name="run"):
    """gold: [(id, labels[, grades])]; submission: [(id, labels[, scores])]."""
    gold_header = "id,labels,grades" if len(gold[0]) == 3 else "id,labels"
    sub_header = "id,labels,scores" if len(submission[0]) == 3 else "id,labels"
    files = {"labels.txt": "\n".join(labels) + "\n", "gold.csv": _csv(gold_header, gold),
             "config.yaml": config(options)}
    return score_in_process(tmp_path, files, _csv(sub_header, submission), name=name)


def _check(got, expected):
    for key, value in expected.items():
        assert abs(got[key] - float(value)) <= EXACT, (key, got[key], float(value))


RELEVANT = ["r%d" % i for i in range(10)]
OTHER = ["n%d" % i for i in range(7)]


@pytest.mark.parametrize("k, denominator, expected", [
    (10, "relevant", F(26, 100)),        # (1/1 + 2/2 + 3/5) / 10, the source document's example
    (5, "relevant", F(26, 100)),         # the same hits, all within the first 5
    (5, "min_k_relevant", F(52, 100)),   # (1/1 + 2/2 + 3/5) / min(5, 10)
    (10, "min_k_relevant", F(26, 100)),  # min(10, 10) = 10
])
def test_document_map_example(tmp_path, k, denominator, expected):
    ranked = "r0 r1 n0 n1 r2 n2 n3 n4 n5 n6"  # relevant at ranks 1, 2 and 5; 10 relevant in all
    got = _score(tmp_path, RELEVANT + OTHER, [("q", " ".join(RELEVANT))], [("q", ranked)],
                 {"k": k, "map_denominator": denominator})
    _check(got, {"map_at_%d" % k: expected})


@pytest.mark.parametrize("denominator, at2, at3", [
    ("relevant", F(1, 5), F(1, 5) * (1 + F(2, 3))),             # trec_eval: / |R| = 5
    ("min_k_relevant", F(1, 2), F(1, 3) * (1 + F(2, 3))),       # Kaggle apk: / min(k, 5)
])
def test_map_denominators_on_the_reference_toy(tmp_path, denominator, at2, at3):
    got = _score(tmp_path, ["a", "b", "c", "d", "e", "x"], [("q", "a b c d e")], [("q", "a x b")],
                 {"k": [2, 3], "map_denominator": denominator})
    _check(got, {"map_at_2": at2, "map_at_3": at3})


GRADED_GOLD = [("q", "d1 d2 d3 d4 d5", "3 1 2 0 3")]  # d4 is judged, grade 0: not relevant
GRADED_RUN = [("q", "d1 d2 d3 d4 d5")]


@pytest.mark.parametrize("g_max, published", [(4, 0.48804), (3, 0.89648), (None, 0.89648)])
def test_err_on_graded_toy(tmp_path, g_max, published):
    # R(g) = (2^g - 1) / 2^g_max; ERR@3 = R1 + (1/2) R2 (1 - R1) + (1/3) R3 (1 - R1)(1 - R2)
    top = 4 if g_max == 4 else 3  # None: the largest grade of the gold file, 3
    r1, r2, r3 = (F(2 ** g - 1, 2 ** top) for g in (3, 1, 2))
    hand = r1 + F(1, 2) * r2 * (1 - r1) + F(1, 3) * r3 * (1 - r1) * (1 - r2)
    got = _score(tmp_path, ["d1", "d2", "d3", "d4", "d5"], GRADED_GOLD, GRADED_RUN,
                 {"k": 3, "err_max_grade": g_max})
    _check(got, {"err_at_3": hand})
    assert abs(got["err_at_3"] - published) < 5e-6  # the values measured with ir_measures (gdeval) in the notes


@pytest.mark.parametrize("gain, published", [("linear", 0.91587), ("exponential", 0.88700)])
def test_ndcg_gain_on_graded_toy(tmp_path, gain, published):
    import math
    lg = lambda r: 1 / math.log2(r + 1)  # noqa: E731
    g = (lambda v: v) if gain == "linear" else (lambda v: 2 ** v - 1)
    dcg = g(3) * lg(1) + g(1) * lg(2) + g(2) * lg(3) + g(0) * lg(4) + g(3) * lg(5)
    ideal = g(3) * lg(1) + g(3) * lg(2) + g(2) * lg(3) + g(1) * lg(4)
    got = _score(tmp_path, ["d1", "d2", "d3", "d4", "d5"], GRADED_GOLD, GRADED_RUN, {"k": 5, "ndcg_gain": gain})
    _check(got, {"ndcg_at_5": dcg / ideal})
    assert abs(got["ndcg_at_5"] - published) < 5e-6  # pytrec_eval / ranx values in the notes


# Class rule. Gold s1 {a}, s2 {a, b}, s3 {b}; predicted s1 {a, c}, s2 {a}, s3 {}; class d unused.
# a: tp 2, pred 2, gold 2 -> P 1, R 1, F 1.   b: tp 0, pred 0, gold 2 -> P 0 (nothing predicted), R 0, F 0.
# c: tp 0, pred 1, gold 0 -> P 0, R 0 (nothing to find), F 0.   d: nothing anywhere -> 0, 0, 0.
@pytest.mark.parametrize("rule, value", [
    ("gold_or_predicted", F(1, 3)),   # a, b, c
    ("all", F(1, 4)),                 # a, b, c, d
    ("gold", F(1, 2)),                # a, b
])
def test_classes_absent_from_the_gold(tmp_path, rule, value):
    got = _score(tmp_path, ["a", "b", "c", "d"], [("s1", "a"), ("s2", "a b"), ("s3", "b")],
                 [("s1", "a c"), ("s2", "a"), ("s3", "")], {"classes": rule})
    _check(got, {"class_avg_precision": value, "class_avg_recall": value, "class_avg_f1": value,
                 "macro_f1": value,
                 # pooled: tp 2, predicted 3, gold 4
                 "micro_precision": F(2, 3), "micro_recall": F(1, 2), "micro_f1": F(4, 7)})


def test_class_f1_is_the_harmonic_mean_of_the_averages(tmp_path):
    # gold s1 {a}, s2 {a}, s3 {b}; predicted s1 {a}, s2 {b}, s3 {b}
    # a: P 1, R 1/2, F 2/3; b: P 1/2, R 1, F 2/3 -> CP = CR = 3/4, C-F1 = 3/4, macro F1 = 2/3
    got = _score(tmp_path, ["a", "b"], [("s1", "a"), ("s2", "a"), ("s3", "b")],
                 [("s1", "a"), ("s2", "b"), ("s3", "b")])
    _check(got, {"class_avg_precision": F(3, 4), "class_avg_recall": F(3, 4), "class_avg_f1": F(3, 4),
                 "macro_f1": F(2, 3)})


# Empty sets. s1: gold {}, predicted {} (both empty); s2: gold {}, predicted {a} -> P 0, R 0 (0/0), F 0;
# s3: gold {a}, predicted {} -> P 0 (0/0), R 0, F 0; s4: gold {a, b}, predicted {a} -> P 1, R 1/2, F 2/3.
# Ranked at k = 1 (g_max = 1, the largest grade): s4 has AP 1/2, nDCG 1, ERR 1/2; s1..s3 score 0 or the rule.
@pytest.mark.parametrize("rule, p, r, f, ap, ndcg, err", [
    ("zero", F(1, 4), F(1, 8), F(1, 6), F(1, 8), F(1, 4), F(1, 8)),
    ("one", F(2, 4), F(3, 8), F(5, 12), F(3, 8), F(2, 4), F(3, 8)),
    ("skip", F(1, 3), F(1, 6), F(2, 9), F(1, 6), F(1, 3), F(1, 6)),
])
def test_empty_gold_and_empty_prediction(tmp_path, rule, p, r, f, ap, ndcg, err):
    got = _score(tmp_path, ["a", "b"], [("s1", ""), ("s2", ""), ("s3", "a"), ("s4", "a b")],
                 [("s1", ""), ("s2", "a"), ("s3", ""), ("s4", "a")], {"both_empty": rule, "k": 1})
    _check(got, {"sample_avg_precision": p, "sample_avg_recall": r, "sample_avg_f1": f,
                 "map_at_1": ap, "ndcg_at_1": ndcg, "err_at_1": err,
                 "micro_precision": F(1, 2), "micro_recall": F(1, 3)})  # pooled counts: no rule needed


@pytest.mark.parametrize("labels, scores, first_is_gold", [
    ("b a c", "0.5 0.5 0.1", False),   # a tie: b stays before a, as listed
    ("b a c", "0.1 0.5 0.5", True),    # a and c tie above b: a first, as listed
    ("c b a", "0.1 0.2 0.3", True),    # ranked by decreasing score, not by the listed order
    ("a b c", "2 2 2", True),          # all tied: the listed order
])
def test_score_ties_keep_the_listed_order(tmp_path, labels, scores, first_is_gold):
    got = _score(tmp_path, ["a", "b", "c"], [("q", "a")], [("q", labels, scores)], {"k": 1})
    _check(got, {"map_at_1": 1 if first_is_gold else 0})


@pytest.mark.parametrize("options, p, r", [
    ({}, F(2, 3), F(2, 2)),                                  # the whole list {a, c, b}
    ({"set_top_k": 2}, F(1, 2), F(1, 2)),                    # {a, c}
    ({"set_threshold": 0.5}, F(1, 2), F(1, 2)),              # scores 0.9, 0.6 -> {a, c}
    ({"set_threshold": 0.3, "set_top_k": 1}, F(1, 1), F(1, 2)),  # both conditions -> {a}
])
def test_predicted_set_selection(tmp_path, options, p, r):
    got = _score(tmp_path, ["a", "b", "c"], [("q", "a b")], [("q", "a c b", "0.9 0.6 0.4")], dict(options, k=3))
    # the ranking is never cut by the set rule: AP@3 = (1/1 + 2/3) / 2
    _check(got, {"micro_precision": p, "micro_recall": r, "map_at_3": F(5, 6)})


def test_primary_key_is_configurable_and_first(tmp_path):
    from helpers import make_input, read_scores, run_score
    files = {"labels.txt": "a\nb\n", "gold.csv": "id,labels\n1,a\n",
             "config.yaml": "task: multilabel\nprimary_key: map_at_3\n"}
    base = make_input(tmp_path, files, {"s.csv": "id,labels\n1,b a\n"})
    proc = run_score(base, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "out")
    assert list(scores)[0] == "map_at_3" and abs(scores["map_at_3"] - 0.5) < EXACT  # (1/2) / 1
    assert all(len(k) <= 36 and ":" not in k for k in scores)


# Label ranking on the score matrix; classes a, b, c, d. Gold s0 {a}, s1 {a, c}; s0 lists c 0.9, a 0.5; s1 lists
# b 0.3 (the unlisted labels tie below every listed label). s0: a has 2 labels scored >= it, 1 of them gold ->
# LRAP 1/2, coverage 2; 1 wrong pair (c above a) of 1*3 -> loss 1/3. s1: a and c tie with everything unlisted:
# each has 4 labels >=, 2 gold -> LRAP 2/4, coverage 4; all 2*2 pairs wrong or tied -> loss 1.
# Per class over samples: a: s0 (0.5) then s1 (bottom): P 1 at R 1/2, P 1 at R 1 -> AP 1; b, d: no gold -> 0;
# c: s0 (0.9, wrong) then s1 (bottom): P 1/2 at R 1 -> AP 1/2. Classes: gold {a, c}, predicted also b, all + d.
@pytest.mark.parametrize("classes, macro_ap", [("gold_or_predicted", F(1, 2)), ("gold", F(3, 4)),
                                               ("all", F(3, 8))])
def test_label_ranking_by_hand(tmp_path, classes, macro_ap):
    got = _score(tmp_path, ["a", "b", "c", "d"], [("s0", "a"), ("s1", "a c")],
                 [("s0", "c a", "0.9 0.5"), ("s1", "b", "0.3")], {"classes": classes})
    _check(got, {"label_ranking_avg_precision": F(1, 2), "coverage_error": F(3),
                 "label_ranking_loss": (F(1, 3) + 1) / 2, "macro_ap": macro_ap})
