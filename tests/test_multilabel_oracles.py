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

from test_multilabel_data import (config, gold_csv, gold_matrix, goemotions, rankings, score_in_process,
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


@pytest.mark.parametrize("classes", ["gold_or_predicted", "all", "gold"])
def test_set_metrics_match_sklearn(tmp_path, data, classes):
    labels, frame, gold = data
    scores = system_scores(gold, seed=11)
    ranked, _ = rankings(scores, seed=12, max_len=5)
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
