"""Multi-label scores on the real GoEmotions test set against independent implementations.

Set metrics: scikit-learn precision_recall_fscore_support / f1_score / fbeta_score.
nDCG: scikit-learn ndcg_score (ignore_ties=True; the scores are distinct anyway)
and pytrec_eval ndcg_cut; MAP@k: pytrec_eval map_cut; ERR@k (and exponential
nDCG@k): gdeval.pl through ir_measures, which prints 5 decimals and fixes g_max = 4.
The whole path (files -> score.py engine -> scores.json) is what is compared.
"""
import numpy as np
import pytest
from sklearn.metrics import fbeta_score, ndcg_score, precision_recall_fscore_support

from multilabel_data import (config, gold_csv, gold_matrix, goemotions, rankings, score_in_process,
                                  submission_csv, system_scores)

EXACT = 1e-9


@pytest.fixture(scope="module")
def data():
    labels, frame = goemotions("test")
    gold = gold_matrix(frame["codes"], len(labels))
    return labels, frame, gold


def _files(labels, ids, codes, options=None, grades=None):
    return {"labels.txt": "\n".join(labels) + "\n", "gold.csv": gold_csv(ids, codes, labels, grades),
            "config.yaml": config(options)}


def _indicator(ranked, n_classes, top_k=None):
    pred = np.zeros((len(ranked), n_classes), dtype=int)
    for i, row in enumerate(ranked):
        pred[i, row[:top_k]] = 1
    return pred


def _close(ours, expected, tol=EXACT):
    assert abs(ours - float(expected)) <= tol, (ours, float(expected))


# two classes that never occur in the gold: one sometimes predicted, one never, so that the three class rules
# cover 28 (gold), 29 (gold_or_predicted) and 30 (all) classes
NEVER_GOLD = ["zz_sometimes_predicted", "zz_never_predicted"]


def _with_unused_classes(labels, gold, ranked, seed):
    rng = np.random.default_rng(seed)
    ranked = [row + [len(labels)] if rng.random() < 0.05 else row for row in ranked]
    gold = np.hstack([gold, np.zeros((len(gold), len(NEVER_GOLD)), dtype=gold.dtype)])
    return labels + NEVER_GOLD, gold, ranked


@pytest.mark.parametrize("classes", ["gold_or_predicted", "all", "gold"])
def test_set_metrics_match_sklearn(tmp_path, data, classes):
    labels, frame, gold = data
    scores = system_scores(gold, seed=11)
    ranked, _ = rankings(scores, seed=12, max_len=5)
    labels, gold, ranked = _with_unused_classes(labels, gold, ranked, seed=13)
    got = score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"], {"classes": classes}),
                           submission_csv(frame["id"], ranked, labels))
    y, p = gold, _indicator(ranked, len(labels))
    mp, mr, mf, _ = precision_recall_fscore_support(y, p, average="micro", zero_division=0)
    _close(got["micro_precision"], mp)
    _close(got["micro_recall"], mr)
    _close(got["micro_f1"], mf)
    covered = {"all": np.ones(len(labels), bool), "gold": y.sum(0) > 0,
               "gold_or_predicted": (y.sum(0) > 0) | (p.sum(0) > 0)}[classes]
    cp, cr, macro_f1, _ = precision_recall_fscore_support(y, p, average="macro", zero_division=0,
                                                          labels=np.flatnonzero(covered))
    _close(got["class_avg_precision"], cp)
    _close(got["class_avg_recall"], cr)
    _close(got["macro_f1"], macro_f1)
    _close(got["class_avg_f1"], 2 * cp * cr / (cp + cr))  # ML-GCN: harmonic mean of the two averages
    sp, sr, sf, _ = precision_recall_fscore_support(y, p, average="samples", zero_division=0)
    _close(got["sample_avg_precision"], sp)
    _close(got["sample_avg_recall"], sr)
    _close(got["sample_avg_f1"], sf)


def test_the_class_rules_really_differ_on_these_inputs(tmp_path, data):
    labels, frame, gold = data
    ranked, _ = rankings(system_scores(gold, seed=11), seed=12, max_len=5)
    labels, gold, ranked = _with_unused_classes(labels, gold, ranked, seed=13)
    values = [score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"], {"classes": rule}),
                               submission_csv(frame["id"], ranked, labels), name=rule)["class_avg_precision"]
              for rule in ("gold", "gold_or_predicted", "all")]
    assert values[0] > values[1] > values[2]


def test_threshold_top_k_and_fbeta_match_sklearn(tmp_path, data):
    labels, frame, gold = data
    scores = system_scores(gold, seed=21)
    ranked, ranked_scores = rankings(scores, seed=22, full=True)
    threshold, top_k, beta = 0.8, 3, 0.5
    options = {"set_threshold": threshold, "set_top_k": top_k, "beta": beta}
    # labels written in a shuffled order: the scores decide the ranking
    got = score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"], options),
                           submission_csv(frame["id"], ranked, labels, ranked_scores, shuffle_seed=23))
    p = _indicator(ranked, len(labels), top_k) & (scores >= threshold)
    y = gold
    assert p.sum(1).min() == 0 and p.sum(1).max() == top_k  # both limits are active on this data
    _close(got["micro_f1"], fbeta_score(y, p, beta=1.0, average="micro", zero_division=0))
    _close(got["micro_fbeta"], fbeta_score(y, p, beta=beta, average="micro", zero_division=0))
    covered = np.flatnonzero((y.sum(0) > 0) | (p.sum(0) > 0))
    _close(got["macro_fbeta"], fbeta_score(y, p, beta=beta, average="macro", zero_division=0, labels=covered))
    _close(got["sample_avg_fbeta"], fbeta_score(y, p, beta=beta, average="samples", zero_division=0))


@pytest.mark.parametrize("rule", ["zero", "one", "skip"])
def test_empty_sets_neutral_as_no_label(tmp_path, data, rule):
    """GoEmotions 'neutral' read as "no emotion": 27 classes, many samples with an empty gold set."""
    labels, frame, gold = data
    emotions = labels[:-1]
    codes = [[c for c in row if c != 27] for row in frame["codes"]]
    y = gold[:, :27]
    scores = system_scores(y, seed=31)
    ranked, _ = rankings(scores, seed=32, max_len=3)
    got = score_in_process(tmp_path, _files(emotions, frame["id"], codes, {"both_empty": rule}),
                           submission_csv(frame["id"], ranked, emotions))
    p = _indicator(ranked, 27)
    both = (y.sum(1) == 0) & (p.sum(1) == 0)
    assert both.sum() > 100 and ((y.sum(1) == 0) & (p.sum(1) > 0)).sum() > 100
    rest = ~both
    sp, sr, sf, _ = precision_recall_fscore_support(y[rest], p[rest], average="samples", zero_division=0)
    n, n_both = len(y), int(both.sum())
    expected = {"zero": lambda v: v * (n - n_both) / n, "one": lambda v: (v * (n - n_both) + n_both) / n,
                "skip": lambda v: v}[rule]
    _close(got["sample_avg_precision"], expected(sp))
    _close(got["sample_avg_recall"], expected(sr))
    _close(got["sample_avg_f1"], expected(sf))
    mp, mr, mf, _ = precision_recall_fscore_support(y, p, average="micro", zero_division=0)
    _close(got["micro_f1"], mf)  # pooled counts ignore the rule


def _graded_run(tmp_path, data, seed, top_grade, options, **ranking_args):
    """Random grades 1..top_grade on the GoEmotions gold, a seeded ranking, and our scores for it."""
    labels, frame, _ = data
    rng = np.random.default_rng(seed)
    grades = [rng.integers(1, top_grade + 1, size=len(row)).tolist() for row in frame["codes"]]
    y = gold_matrix(frame["codes"], len(labels), grades)
    scores = system_scores(y, seed=seed + 1)
    ranked, _ = rankings(scores, seed=seed + 2, **ranking_args)
    got = score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"], options, grades),
                           submission_csv(frame["id"], ranked, labels))
    return got, y, scores, ranked


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_ndcg_matches_sklearn(tmp_path, data, gain):
    got, y, scores, _ = _graded_run(tmp_path, data, 41, 3, {"k": [1, 3, 10], "ndcg_gain": gain}, full=True)
    y_true = y if gain == "linear" else 2.0 ** y - 1
    for k in (1, 3, 10):
        _close(got["ndcg_at_%d" % k], ndcg_score(y_true, scores, k=k, ignore_ties=True))


def _trec(y, ranked, labels, scores):
    qrels = {str(i): {labels[c]: int(y[i, c]) for c in np.flatnonzero(y[i])} for i in range(len(y))}
    run = {str(i): {labels[c]: float(scores[i, c]) for c in row} for i, row in enumerate(ranked) if row}
    return qrels, run


@pytest.mark.parametrize("k", [1, 3, 5])
def test_map_and_ndcg_match_pytrec_eval(tmp_path, data, k):
    import pytrec_eval
    labels, frame, _ = data
    got, y, scores, ranked = _graded_run(tmp_path, data, 51, 3, {"k": k, "ndcg_gain": "linear"}, max_len=8)
    qrels, run = _trec(y, ranked, labels, scores)
    measures = {"map_cut_%d" % k, "ndcg_cut_%d" % k}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    # trec_eval leaves out queries with no ranked label; they score 0 here (nothing relevant was ranked)
    n = len(frame)
    assert 0 < n - len(per_query) < n
    expected_map = sum(v["map_cut_%d" % k] for v in per_query.values()) / n
    expected_ndcg = sum(v["ndcg_cut_%d" % k] for v in per_query.values()) / n
    _close(got["map_at_%d" % k], expected_map)
    _close(got["ndcg_at_%d" % k], expected_ndcg)

    # the other denominator, min(k, |R|): trec_eval's AP of each query times |R| / min(k, |R|)
    other = score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"],
                                              {"k": k, "ndcg_gain": "linear", "map_denominator": "min_k_relevant"},
                                              _grades_of(y, frame["codes"])),
                             submission_csv(frame["id"], ranked, labels), name="min_k")
    n_relevant = (y > 0).sum(axis=1)
    rescaled = sum(v["map_cut_%d" % k] * n_relevant[int(q)] / min(k, n_relevant[int(q)])
                   for q, v in per_query.items()) / n
    _close(other["map_at_%d" % k], rescaled)
    if k < n_relevant.max():  # some sample has more relevant labels than k: the two denominators differ
        assert other["map_at_%d" % k] > got["map_at_%d" % k] + 1e-6
    else:
        _close(other["map_at_%d" % k], got["map_at_%d" % k])


def _grades_of(y, codes):
    return [[int(y[i, c]) for c in row] for i, row in enumerate(codes)]


def test_the_two_ndcg_gains_differ_on_graded_gold_and_each_matches_sklearn(tmp_path, data):
    got_linear, y, scores, _ = _graded_run(tmp_path / "lin", data, 41, 3, {"k": 3, "ndcg_gain": "linear"}, full=True)
    got_exp, _, _, _ = _graded_run(tmp_path / "exp", data, 41, 3, {"k": 3, "ndcg_gain": "exponential"}, full=True)
    assert len(set(y[y > 0].tolist())) == 3  # graded: 1, 2 and 3
    _close(got_linear["ndcg_at_3"], ndcg_score(y, scores, k=3, ignore_ties=True))
    _close(got_exp["ndcg_at_3"], ndcg_score(2.0 ** y - 1, scores, k=3, ignore_ties=True))
    assert abs(got_linear["ndcg_at_3"] - got_exp["ndcg_at_3"]) > 1e-3


def test_err_and_exponential_ndcg_match_gdeval(tmp_path, data):
    import ir_measures
    from ir_measures import ERR, nDCG
    labels, frame, _ = data
    options = {"k": [3, 10], "err_max_grade": 4, "ndcg_gain": "exponential"}
    got, y, scores, ranked = _graded_run(tmp_path, data, 61, 4, options, full=True)
    qrels, run = _trec(y, ranked, labels, scores)
    for k in (3, 10):
        per_query = {}
        gdeval_ndcg = nDCG(dcg="exp-log2") @ k  # gain 2^g - 1: the gdeval provider
        for m in ir_measures.iter_calc([ERR @ k, gdeval_ndcg], qrels, run):
            per_query.setdefault(str(m.measure), {})[m.query_id] = m.value
        assert len(per_query[str(ERR @ k)]) == len(frame)
        expected_err = np.mean(list(per_query[str(ERR @ k)].values()))
        expected_ndcg = np.mean(list(per_query[str(gdeval_ndcg)].values()))
        _close(got["err_at_%d" % k], expected_err, tol=5e-6)  # gdeval prints 5 decimals
        _close(got["ndcg_at_%d" % k], expected_ndcg, tol=5e-6)


# -- scikit-learn's label ranking measures and macro average precision, on scores with ties ---------

def _tied_run(labels, gold, seed, max_len):
    """Scores rounded to one decimal (many ties), each row's labels by decreasing score, cut at a random
    length; the full score matrix puts every unlisted label below every listed one."""
    scores = np.round(system_scores(gold, seed=seed), 1)
    ranked, ranked_scores = rankings(scores, seed=seed + 1, max_len=max_len)
    matrix = np.full(scores.shape, scores.min() - 1.0)
    for i, row in enumerate(ranked):
        matrix[i, row] = ranked_scores[i]
    return ranked, ranked_scores, matrix


def _label_ranking_expected(y, matrix, mask):
    from sklearn.metrics import (average_precision_score, coverage_error, label_ranking_average_precision_score,
                                 label_ranking_loss)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a class with no positive sample: scikit-learn warns and gives 0
        return {"label_ranking_avg_precision": label_ranking_average_precision_score(y, matrix),
                "coverage_error": coverage_error(y, matrix), "label_ranking_loss": label_ranking_loss(y, matrix),
                "macro_ap": average_precision_score(y[:, mask], matrix[:, mask], average="macro")}


@pytest.mark.parametrize("classes", ["gold_or_predicted", "all", "gold"])
@pytest.mark.parametrize("neutral_as_empty", [False, True])
def test_label_ranking_measures_match_sklearn_on_tied_scores(tmp_path, data, classes, neutral_as_empty):
    labels, frame, gold = data
    codes = frame["codes"]
    if neutral_as_empty:  # many samples with no gold label: LRAP 1, coverage 0, loss 0 for them
        labels, gold, codes = labels[:-1], gold[:, :27], [[c for c in row if c != 27] for row in codes]
    ranked, ranked_scores, matrix = _tied_run(labels, gold, seed=71, max_len=6)
    labels, gold, ranked = _with_unused_classes(labels, gold, ranked, seed=73)
    for i, row in enumerate(ranked):  # the unused class, when listed, is scored like the row's last label
        if len(row) > len(ranked_scores[i]):
            ranked_scores[i] = ranked_scores[i] + [ranked_scores[i][-1] if ranked_scores[i] else 0.5]
    matrix = np.full(gold.shape, min(min(r) for r in ranked_scores if r) - 1.0)
    for i, row in enumerate(ranked):
        matrix[i, row] = ranked_scores[i]
    ties = sum(len(r) - len(set(r)) for r in ranked_scores)
    assert ties > 1000 and sum(len(r) < len(labels) for r in ranked) == len(ranked)
    got = score_in_process(tmp_path, _files(labels, frame["id"], codes, {"classes": classes}),
                           submission_csv(frame["id"], ranked, labels, ranked_scores, shuffle_seed=74))
    p = _indicator(ranked, len(labels))
    mask = {"all": np.ones(len(labels), bool), "gold": gold.sum(0) > 0,
            "gold_or_predicted": (gold.sum(0) > 0) | (p.sum(0) > 0)}[classes]
    for key, value in _label_ranking_expected(gold, matrix, mask).items():
        _close(got[key], value)


def test_label_ranking_without_scores_uses_the_list_order(tmp_path, data):
    labels, frame, gold = data
    ranked, _ = rankings(system_scores(gold, seed=81), seed=82, max_len=5)
    matrix = np.full(gold.shape, -100.0)
    for i, row in enumerate(ranked):
        matrix[i, row] = -np.arange(len(row))   # the label at position p scores -p
    got = score_in_process(tmp_path, _files(labels, frame["id"], frame["codes"], {"classes": "all"}),
                           submission_csv(frame["id"], ranked, labels))
    for key, value in _label_ranking_expected(gold, matrix, np.ones(len(labels), bool)).items():
        _close(got[key], value)
