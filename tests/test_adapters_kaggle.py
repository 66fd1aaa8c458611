"""The Kaggle-style metric on every family: hand-worked scores, participant errors that quote no gold, the
Usage subsets, host errors.

Kaggle's contract, as its metric template and utility script state it (the template's docstring; a public copy
of ``kaggle_metric_utilities.py``, "forked from v5 of the official version", e.g. nahuel-coliva/birdclef2026
@3bbe143): every solution column but ``Usage`` reaches ``score``; extra arguments after the first three are
allowed, each annotated; ``score`` returns one finite float; ``safe_call_score`` shows a participant the text of
an exception whose class is named ``ParticipantVisibleError``, the host only one named ``HostVisibleError``.
"""
import inspect
import json
import math
import re
import sys
from fractions import Fraction as F

import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score, f1_score, log_loss, mean_squared_error, r2_score, roc_auc_score
from sklearn.preprocessing import MultiLabelBinarizer

from helpers import ROOT

sys.path.insert(0, str(ROOT / "adapters" / "kaggle"))
import metric  # noqa: E402


def words(frame):
    """Every distinctive text of a DataFrame (cells and their pieces of 3+ characters), to look for in messages."""
    found = set()
    for value in frame.astype(str).to_numpy().ravel():
        for piece in [value] + re.split(r"[\s\"\[\],_]+", value):
            if len(piece) >= 3:
                found.add(piece)
    return found


def refused(solution, submission, row_id="id", public=(), **kwargs):
    """The ParticipantVisibleError text; it is one line and quotes no solution value the submission lacks
    (``public``: words participants have anyway, such as multilabel's class names)."""
    with pytest.raises(metric.ParticipantVisibleError) as caught:
        metric.score(solution.copy(), submission.copy(), row_id, **kwargs)
    text = str(caught.value)
    assert "\n" not in text and text.startswith("ERROR (submission error): "), text
    secret = words(solution.drop(columns=[row_id])) - words(submission) - set(public)
    leaked = sorted(w for w in secret if w in text)
    assert not leaked, (leaked, text)
    assert "Traceback" not in text and "File \"" not in text
    return text


# -- bank_comments ------------------------------------------------------------------------------------
BANK_SOLUTION = pd.DataFrame({"id": ["c1", "c2", "c3"],
                              "BIO_anno": ["B-BANK I-BANK O O", "O B-PRODUCT I-PRODUCT O", "B-COMMENTS_N O B-COMMENTS_ADJ"],
                              "class": [0, 1, 2]})
BANK_SUBMISSION = pd.DataFrame({"id": ["c1", "c2", "c3"],
                                "BIO_anno": ["B-BANK I-BANK O O", "O B-PRODUCT O O", "B-COMMENTS_N O O"],
                                "class": [0, 1, 0]})


def test_bank_by_hand():
    # gold entities BANK[0,2) PRODUCT[1,3) COMMENTS_N[0,1) COMMENTS_ADJ[2,3); predicted BANK[0,2) PRODUCT[1,2)
    # COMMENTS_N[0,1): 2 right of 3 predicted, 4 gold -> F1 = 2*(2/3)(1/2)/(2/3+1/2) = 4/7.
    # classes gold 0 1 2, predicted 0 1 0: Po = 2/3, Pe = 1/3*2/3 + 1/3*1/3 = 1/3 -> kappa = 1/2.
    ner_f1, kappa = F(4, 7), F(1, 2)
    assert kappa == F(cohen_kappa_score([0, 1, 2], [0, 1, 0])).limit_denominator(100)
    assert metric.score(BANK_SOLUTION.copy(), BANK_SUBMISSION.copy(), "id", task="bank_comments") == pytest.approx(
        float(ner_f1 / 2 + kappa / 2), abs=1e-12)
    assert metric.score(BANK_SOLUTION, BANK_SUBMISSION, "id", metric="ner_f1", task="bank_comments") == \
        pytest.approx(4 / 7, abs=1e-12)
    # ner_weight 1: S = S1
    assert metric.score(BANK_SOLUTION, BANK_SUBMISSION, "id", options={"ner_weight": 1.0},
                        task="bank_comments") == pytest.approx(4 / 7)


def test_bank_participant_error():
    wrong = BANK_SUBMISSION.copy()
    wrong.loc[1, "class"] = 7
    text = refused(BANK_SOLUTION, wrong, task="bank_comments")
    # the row passed third is line 3 of the submission (header = line 1), named by its id and column
    assert "submission.csv line 3 (id c2), column class" in text
    text = refused(BANK_SOLUTION, BANK_SUBMISSION.drop(columns=["BIO_anno"]), task="bank_comments")
    assert "id,BIO_anno,class" in text
    odd = BANK_SUBMISSION.copy()
    odd.loc[2, "BIO_anno"] = "B-COMMENTS_N O"        # one tag short: the message must not say how many are due
    refused(BANK_SOLUTION, odd, task="bank_comments")


# -- qa --------------------------------------------------------------------------------------------------
QA_SOLUTION = pd.DataFrame({"id": ["q1", "q2", "q3"],
                            "answers": ['["Denmark"]', "[]", '["the 10th century", "10th century"]']})
QA_SUBMISSION = pd.DataFrame({"id": ["q1", "q2", "q3"], "answer": ["denmark", "", "in the 10th"]})


def test_qa_by_hand():
    # q1 right (case forgiven); q2 unanswerable, answered empty: 1; q3 [in, 10th] against [10th, century]: F1 1/2
    assert metric.score(QA_SOLUTION, QA_SUBMISSION, "id", task="qa") == pytest.approx(250 / 3, abs=1e-12)
    assert metric.score(QA_SOLUTION, QA_SUBMISSION, "id", task="qa", metric="no_ans_f1") == 100.0
    # probabilities 0.1, 0.9, 0.2: walked q1 (+1), q3 (+1/2), q2 (answered empty: +0) from the start 1 (one
    # unanswerable question): the best running score 2.5 of 3
    with_probs = QA_SUBMISSION.assign(na_prob=[0.1, 0.9, 0.2])
    assert metric.score(QA_SOLUTION, with_probs, "id", task="qa", metric="best_f1",
                        options={"no_answer_probabilities": True}) == pytest.approx(250 / 3, abs=1e-12)
    assert metric.score(QA_SOLUTION, with_probs, "id", task="qa", metric="best_f1_thresh",
                        options={"no_answer_probabilities": True}) == 0.2


def test_qa_participant_errors():
    text = refused(QA_SOLUTION, QA_SUBMISSION.assign(extra="x"), task="qa")
    assert "must be id, answer" in text
    text = refused(QA_SOLUTION, QA_SUBMISSION.assign(na_prob=["0.1", "x", "0.2"]), task="qa",
                   options={"no_answer_probabilities": True})
    assert "na_prob" in text and "q2" in text
    twice = pd.concat([QA_SUBMISSION, QA_SUBMISSION.iloc[:1]])
    assert "twice" in refused(QA_SOLUTION, twice, task="qa")


# -- generation --------------------------------------------------------------------------------------------
def test_generation_equals_sacrebleu():
    sacrebleu = pytest.importorskip("sacrebleu")
    sol = pd.DataFrame({"id": ["a", "b", "c"], "reference": ["the cat sat on the mat", "hello world", "x y z"]})
    sub = pd.DataFrame({"id": ["a", "b", "c"], "text": ["the cat sat on a mat", "hello world", ""]})
    hyps, refs = sub["text"].tolist(), [sol["reference"].tolist()]
    assert metric.score(sol, sub, "id", task="generation") == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
    assert metric.score(sol, sub, "id", task="generation", metric="chrf_pp") == pytest.approx(
        sacrebleu.corpus_chrf(hyps, refs, word_order=2).score, abs=1e-9)
    text = refused(sol, sub.rename(columns={"text": "hyp"}), task="generation")
    assert "id,text" in text


# -- keywords ------------------------------------------------------------------------------------------
KW_SOLUTION = pd.DataFrame({"id": ["d1", "d2"], "keywords": ["alpha", "alpha_beta_gamma_delta"]})
KW_SUBMISSION = pd.DataFrame({"id": ["d1", "d2"], "keywords": ["alpha_omega", "alpha"]})


def test_keywords_by_hand():
    # d1: P = 1/2, R = 1, F = 2/3; d2: P = 1, R = 1/4, F = 2/5 (docs/keywords.md's example)
    assert metric.score(KW_SOLUTION, KW_SUBMISSION, "id", task="keywords") == pytest.approx(8 / 15, abs=1e-12)
    # micro: 2 right, 3 predicted, 5 gold -> P = 2/3, R = 2/5, F = 1/2
    assert metric.score(KW_SOLUTION, KW_SUBMISSION, "id", task="keywords", metric="micro_f1") == pytest.approx(0.5)
    # the separator is an option: "|" makes each cell one keyword, so only d1's "alpha" vs "alpha|omega" differ
    piped = KW_SUBMISSION.assign(keywords=["alpha|omega", "alpha"])
    gold = KW_SOLUTION.assign(keywords=["alpha", "alpha|beta|gamma|delta"])
    assert metric.score(gold, piped, "id", task="keywords", options='{"keyword_separator": "|"}') == \
        pytest.approx(8 / 15, abs=1e-12)


def test_keywords_participant_error():
    twice = pd.DataFrame({"id": ["d1", "d2", "d2"], "keywords": ["alpha", "omega", "omega"]})
    text = refused(KW_SOLUTION, twice, task="keywords")
    assert "lines 3 and 4" in text    # the rows passed second and third


# -- multilabel ----------------------------------------------------------------------------------------
ML_LABELS = "billing refund password account"
ML_SOLUTION = pd.DataFrame({"id": ["t1", "t2", "t3"], "labels": ["billing refund", "password", float("nan")]})
ML_SUBMISSION = pd.DataFrame({"id": ["t1", "t2", "t3"], "labels": ["refund account", "password", float("nan")],
                              "scores": ["0.9 0.4", "0.8", float("nan")]})


def test_multilabel_by_hand():
    # tp: refund (t1), password (t2) = 2; predicted 3, gold 3 -> micro F1 = 2/3
    got = metric.score(ML_SOLUTION, ML_SUBMISSION.drop(columns=["scores"]), "id", task="multilabel", labels=ML_LABELS)
    assert got == pytest.approx(2 / 3, abs=1e-12)
    binarize = MultiLabelBinarizer(classes=ML_LABELS.split())
    truth = binarize.fit_transform([["billing", "refund"], ["password"], []])
    pred = binarize.transform([["refund", "account"], ["password"], []])
    assert got == pytest.approx(f1_score(truth, pred, average="micro"), abs=1e-12)
    # set_threshold 0.5 keeps refund (0.9) and password (0.8): 2 right of 2, 3 gold -> F1 = 2*1*(2/3)/(5/3) = 0.8
    assert metric.score(ML_SOLUTION, ML_SUBMISSION, "id", task="multilabel", labels=ML_LABELS.split(),
                        options={"set_threshold": 0.5}) == pytest.approx(0.8, abs=1e-12)


def test_multilabel_participant_error():
    wrong = ML_SUBMISSION.drop(columns=["scores"]).assign(labels=["refund shipping", "password", ""])
    text = refused(ML_SOLUTION, wrong, task="multilabel", labels=ML_LABELS, public=ML_LABELS.split())
    assert "(id t1), column labels" in text and "shipping" in text


def test_multilabel_without_labels_is_a_host_error():
    with pytest.raises(metric.HostVisibleError, match="labels"):
        metric.score(ML_SOLUTION, ML_SUBMISSION, "id", task="multilabel")


# -- regression ----------------------------------------------------------------------------------------
RG_SOLUTION = pd.DataFrame({"id": ["r1", "r2", "r3", "r4"], "value": [3.0, 0.5, 2.0, 7.0]})
# floats that only read back as themselves when written with every digit (0.1 + 0.2 is 0.30000000000000004)
RG_SUBMISSION = pd.DataFrame({"id": ["r4", "r1", "r2", "r3"], "value": [8.0, 2.5, 0.1 + 0.2, 2.0 / 3.0]})


def test_regression_by_hand():
    truth = [3.0, 0.5, 2.0, 7.0]
    pred = [2.5, 0.1 + 0.2, 2.0 / 3.0, 8.0]      # the submission in the solution's order
    got = metric.score(RG_SOLUTION, RG_SUBMISSION, "id", task="regression")
    assert got == pytest.approx(mean_squared_error(truth, pred) ** 0.5, rel=1e-12)
    # by hand: errors -0.5, -0.2, -4/3, 1 -> MAE = (0.5 + 0.2 + 4/3 + 1) / 4
    mae = metric.score(RG_SOLUTION, RG_SUBMISSION, "id", task="regression", metric="mae")
    assert mae == pytest.approx((0.5 + (0.5 - (0.1 + 0.2)) + 4 / 3 + 1) / 4, rel=1e-12)
    assert metric.score(RG_SOLUTION, RG_SUBMISSION, "id", task="regression", metric="r2") == \
        pytest.approx(r2_score(truth, pred), rel=1e-12)
    assert metric.score(RG_SOLUTION, RG_SUBMISSION, "id", task="regression", metric="spearman") == \
        pytest.approx(spearmanr(truth, pred)[0], rel=1e-12)
    # values given as text read as the same numbers
    as_text = RG_SUBMISSION.assign(value=[repr(v) for v in RG_SUBMISSION["value"]])
    assert metric.score(RG_SOLUTION, as_text, "id", task="regression") == got


def test_regression_participant_errors():
    text = refused(RG_SOLUTION, RG_SUBMISSION.assign(value=[8.0, float("nan"), 1.0, 2.0]), task="regression")
    assert "line 3 (id r1), column value" in text and "is empty" in text
    text = refused(RG_SOLUTION, RG_SUBMISSION.assign(value=["8", "2,5", "1", "2"]), task="regression")
    assert "'2,5' is not a number" in text and "decimal mark" in text
    text = refused(RG_SOLUTION, RG_SUBMISSION.assign(value=[8.0, -1.0, 1.0, 2.0]), task="regression",
                   options={"rmsle": True})
    assert "is negative" in text and "RMSLE" in text
    # without RMSLE (the default) a negative prediction is a prediction
    assert metric.score(RG_SOLUTION, RG_SUBMISSION.assign(value=[8.0, -1.0, 1.0, 2.0]), "id",
                        task="regression") == pytest.approx(
        mean_squared_error([3.0, 0.5, 2.0, 7.0], [-1.0, 1.0, 2.0, 8.0]) ** 0.5, rel=1e-12)


def test_regression_gold_errors_are_the_hosts():
    with pytest.raises(metric.HostVisibleError, match="rmsle: false"):
        metric.score(RG_SOLUTION.assign(value=[3.0, -0.5, 2.0, 7.0]), RG_SUBMISSION, "id", task="regression",
                     options={"rmsle": True})
    with pytest.raises(metric.HostVisibleError, match="value_range"):
        metric.score(RG_SOLUTION, RG_SUBMISSION, "id", task="regression", options={"value_range": [0, 5]})
    with pytest.raises(metric.HostVisibleError):
        metric.score(RG_SOLUTION.rename(columns={"value": "target"}), RG_SUBMISSION, "id", task="regression")


# -- classification ------------------------------------------------------------------------------------
CL_LABELS = "bird cat dog"
CL_SOLUTION = pd.DataFrame({"id": ["t1", "t2", "t3", "t4"], "label": ["cat", "dog", "cat", "bird"]})
CL_SUBMISSION = pd.DataFrame({"id": ["t1", "t2", "t3", "t4"], "label": ["cat", "cat", "cat", "bird"]})
CL_PROBA = pd.DataFrame({"id": ["t4", "t3", "t2", "t1"], "dog": [0.1, 0.2, 0.3, 0.1], "cat": [0.2, 0.5, 0.6, 0.7],
                         "bird": [0.7, 0.3, 0.1, 0.2]})


def test_classification_by_hand():
    # bird: 1 right of 1 predicted, 1 gold -> F1 1; cat: 2 right, 3 predicted, 2 gold -> 4/5; dog: 0 -> macro 3/5
    got = metric.score(CL_SOLUTION, CL_SUBMISSION, "id", task="classification", labels=CL_LABELS)
    assert got == pytest.approx(0.6, abs=1e-12)
    assert got == pytest.approx(f1_score(CL_SOLUTION["label"], CL_SUBMISSION["label"], average="macro"), abs=1e-12)
    # probability columns in any order, rows in any order; the labels are their highest column (cat cat cat bird)
    options = {"submission": "probabilities"}
    assert metric.score(CL_SOLUTION, CL_PROBA, "id", task="classification", labels=CL_LABELS.split(),
                        options=options) == pytest.approx(0.6, abs=1e-12)
    proba = CL_PROBA.set_index("id").loc[CL_SOLUTION["id"], CL_LABELS.split()].to_numpy()
    for key, expected in (("log_loss", log_loss(CL_SOLUTION["label"], proba, labels=CL_LABELS.split())),
                          ("roc_auc", roc_auc_score(CL_SOLUTION["label"], proba, multi_class="ovr",
                                                    labels=CL_LABELS.split()))):
        assert metric.score(CL_SOLUTION, CL_PROBA, "id", task="classification", labels=CL_LABELS, options=options,
                            metric=key) == pytest.approx(expected, abs=1e-12)


def test_classification_participant_errors():
    wrong = CL_SUBMISSION.assign(label=["cat", "horse", "cat", "bird"])
    text = refused(CL_SOLUTION, wrong, task="classification", labels=CL_LABELS, public=CL_LABELS.split())
    assert "(id t2), column label" in text and "horse" in text
    text = refused(CL_SOLUTION, CL_PROBA.drop(columns=["dog"]), task="classification", labels=CL_LABELS,
                   public=CL_LABELS.split())
    assert "'dog'" in text
    text = refused(CL_SOLUTION, CL_SUBMISSION, task="classification", labels=CL_LABELS, public=CL_LABELS.split(),
                   options={"submission": "probabilities"})
    assert "id,bird,cat,dog" in text


def test_classification_without_labels_is_a_host_error():
    with pytest.raises(metric.HostVisibleError, match="task classification needs labels="):
        metric.score(CL_SOLUTION, CL_SUBMISSION, "id", task="classification")


# -- view_sentiment ------------------------------------------------------------------------------------
VS_SOLUTION = pd.DataFrame({"SentenceId": ["s1", "s2", "s3"],
                            "views": ['[["Alpha", "pos"], ["Beta", "neg"]]', '[["Gamma", "neu"]]', "[]"]})
VS_SUBMISSION = pd.DataFrame({"SentenceId": ["s1", "s2", "s3"],
                              "views": ['[["Alpha", "pos"], ["Beta", "pos"]]', float("nan"), '[["Delta", "neg"]]']})


def test_view_sentiment_by_hand():
    # G = {s1 Alpha, s1 Beta, s2 Gamma}, R = {s1 Alpha, s1 Beta, s3 Delta}: found 2, missed 1 (fn1), spurious 1
    # (fn2); right opinion 1 (tp), wrong 1 (fp) -> P = 1/(1+1+1), R = 1/(1+1), F1 = 2/5; views: P = R = 2/3
    score = lambda **kw: metric.score(VS_SOLUTION, VS_SUBMISSION, "SentenceId", task="view_sentiment", **kw)  # noqa
    assert score() == pytest.approx(2 / 5, abs=1e-12)
    assert score(metric="precision") == pytest.approx(1 / 3, abs=1e-12)
    assert score(metric="view_f1") == pytest.approx(2 / 3, abs=1e-12)


OPINIONS = ("pos", "neu", "neg")      # the opinion names every message may list


def test_view_sentiment_participant_errors():
    bad = VS_SUBMISSION.assign(views=['[["Alpha", "pos"]]', '[["Delta", "great"]]', ""])
    text = refused(VS_SOLUTION, bad, "SentenceId", task="view_sentiment", public=OPINIONS)
    assert "submission.csv line 3 (id s2), column views" in text and "great" in text
    not_json = VS_SUBMISSION.assign(views=['[["Alpha", "pos"]]', "Delta:neg", ""])
    assert "line 3 (id s2), column views" in refused(VS_SOLUTION, not_json, "SentenceId", task="view_sentiment",
                                                     public=OPINIONS)
    not_pairs = VS_SUBMISSION.assign(views=['[["Alpha", "pos"]]', '["Delta", "neg"]', ""])
    assert "pairs" in refused(VS_SOLUTION, not_pairs, "SentenceId", task="view_sentiment", public=OPINIONS)
    repeated = VS_SUBMISSION.assign(views=['[["Delta", "pos"], ["Delta", "pos"]]', "", ""])
    assert "line 2" in refused(VS_SOLUTION, repeated, "SentenceId", task="view_sentiment", public=OPINIONS)


# -- emotion_cause -------------------------------------------------------------------------------------
CONV1 = [{"utterance_ID": 1, "text": "I passed the exam !"}, {"utterance_ID": 2, "text": "That is great news ."},
         {"utterance_ID": 3, "text": "I am so happy for you ."}]
CONV2 = [{"utterance_ID": 1, "text": "The dog ate my homework ."}, {"utterance_ID": 2, "text": "Oh no , terrible ."}]
EC_SOLUTION = pd.DataFrame({
    "conversation_ID": [11, 12],
    "conversation": [json.dumps(CONV1), json.dumps(CONV2)],
    "subtask1": [json.dumps([["2_joy", "1_I passed the exam"], ["3_joy", "1_I passed the exam !"]]),
                 json.dumps([["2_sadness", "1_The dog ate my homework"]])],
    "subtask2": [json.dumps([["2_joy", "1"], ["3_joy", "1"]]), json.dumps([["2_sadness", "1"]])],
})


def test_emotion_cause_subtask2_by_hand():
    sub = pd.DataFrame({"conversation_ID": [11, 12],
                        "subtask2": [json.dumps([["2_joy", "1"], ["3_surprise", "1"]]),
                                     json.dumps([["2_sadness", "1"], ["2_anger", "2"]])]})
    score = lambda **kw: metric.score(EC_SOLUTION, sub, "conversation_ID", task="emotion_cause",  # noqa: E731
                                      options={"subtasks": "2", "mode": "clean"}, **kw)
    # pairs: 3 gold, 4 predicted, 2 right -> P = 1/2, R = 2/3, F1 = 4/7
    assert score(metric="f1_pair") == pytest.approx(4 / 7, abs=1e-12)
    # per emotion: joy (weight 2/3) P = 1, R = 1/2, F = 2/3; sadness (1/3) F = 1; surprise, anger weigh 0
    assert score() == pytest.approx(2 / 3 * 2 / 3 + 1 / 3, abs=1e-12)   # weighted_f1, the primary key


def test_emotion_cause_subtask1_by_hand():
    # gold spans: 11 2_joy [0,4), 11 3_joy [0,4) (the "!" is stripped), 12 2_sadness [0,5)
    sub = pd.DataFrame({"conversation_ID": ["11", "12"],
                        "subtask1": [json.dumps([["2_joy", "1_0_4"], ["3_joy", "1_0_2"]]), ""]})
    score = lambda key: metric.score(EC_SOLUTION, sub, "conversation_ID", task="emotion_cause",  # noqa: E731
                                     options={"subtasks": "1", "mode": "clean"}, metric=key)
    # strict: 1 right of 2 predicted, 3 gold -> P = 1/2, R = 1/3, F1 = 2/5
    assert score("strict_f1") == pytest.approx(2 / 5, abs=1e-12)
    # proportional: overlaps 4 + 2 of predicted lengths 4 + 2 and gold lengths 4 + 4 + 5 -> P = 1, R = 6/13,
    # F1 = 2 * 6/13 / (19/13) = 12/19
    assert score("Proportional_f1") == pytest.approx(12 / 19, abs=1e-12)


# public: the emotion names and the conversations' texts (the test inputs every participant has)
EC_PUBLIC = ("neutral", "anger", "disgust", "fear", "joy", "sadness", "surprise") + tuple(
    words(EC_SOLUTION[["conversation"]]))


def test_emotion_cause_participant_errors():
    kw = dict(task="emotion_cause", options={"subtasks": "2", "mode": "clean"}, public=EC_PUBLIC)
    glad = pd.DataFrame({"conversation_ID": [11, 12], "subtask2": ['[["2_glad", "1"]]', "[]"]})
    text = refused(EC_SOLUTION, glad, "conversation_ID", **kw)
    assert "submission.csv column subtask2" in text and "conversation 11" in text and "glad" in text
    broken = pd.DataFrame({"conversation_ID": [11, 12], "subtask2": ["[]", '[["2_anger", "1"]']})
    assert "line 3 (id 12), column subtask2" in refused(EC_SOLUTION, broken, "conversation_ID", **kw)
    missing = pd.DataFrame({"conversation_ID": [11], "subtask2": ["[]"]})
    refused(EC_SOLUTION, missing, "conversation_ID", **kw)
    extra = pd.DataFrame({"conversation_ID": [11, 12], "subtask2": ["[]", "[]"], "notes": ["", ""]})
    assert "subtask1 and/or subtask2" in refused(EC_SOLUTION, extra, "conversation_ID", **kw)
    subtask1 = pd.DataFrame({"conversation_ID": [11, 12], "subtask1": ['[["2_joy", "1_0_9"]]', "[]"]})
    assert "utterance 1" in refused(EC_SOLUTION, subtask1, "conversation_ID", task="emotion_cause",
                                    options={"subtasks": "1", "mode": "clean"}, public=EC_PUBLIC)


# -- the Usage subsets ---------------------------------------------------------------------------------
def test_each_usage_subset_scores_its_rows_only():
    solution = KW_SOLUTION.assign(Usage=["Public", "Private"])
    by_usage = {"Public": 2 / 3, "Private": 2 / 5}       # d1 and d2 of test_keywords_by_hand
    for usage, expected in by_usage.items():
        # what the host passes: the subset's rows without Usage, and the whole submission
        subset = solution[solution["Usage"] == usage].drop(columns=["Usage"]).reset_index(drop=True)
        assert metric.score(subset, KW_SUBMISSION.copy(), "id", task="keywords") == pytest.approx(expected)
        # a Usage column that does reach the metric is dropped, not read as data
        with_usage = solution[solution["Usage"] == usage].reset_index(drop=True)
        assert metric.score(with_usage, KW_SUBMISSION.copy(), "id", task="keywords") == pytest.approx(expected)


def test_a_bad_row_fails_the_call_of_its_subset_with_its_line_in_the_whole_submission():
    solution = BANK_SOLUTION.assign(Usage=["Public", "Private", "Public"])
    wrong = BANK_SUBMISSION.copy()
    wrong.loc[1, "class"] = 7                            # c2, a Private row
    public = solution[solution["Usage"] == "Public"].drop(columns=["Usage"])
    private = solution[solution["Usage"] == "Private"].drop(columns=["Usage"])
    metric.score(public, wrong, "id", task="bank_comments")
    assert "line 3 (id c2)" in refused(private, wrong, task="bank_comments")


# -- host errors ---------------------------------------------------------------------------------------
def test_host_errors():
    for kwargs in ({"task": "sentiment"}, {"options": {"scheme": "bio"}}, {"metric": "accuracy"},
                   {"options": "{not json"}, {"task": ""}):
        with pytest.raises(metric.HostVisibleError):
            metric.score(BANK_SOLUTION, BANK_SUBMISSION, "id", **dict({"task": "bank_comments"}, **kwargs))
    with pytest.raises(metric.HostVisibleError):
        metric.score(BANK_SOLUTION.drop(columns=["class"]), BANK_SUBMISSION, "id", task="bank_comments")
    with pytest.raises(metric.HostVisibleError):
        metric.score(BANK_SOLUTION, BANK_SUBMISSION, "comment", task="bank_comments")
    bad_gold = BANK_SOLUTION.assign(**{"class": [0, 1, 5]})
    with pytest.raises(metric.HostVisibleError):
        metric.score(bad_gold, BANK_SUBMISSION, "id", task="bank_comments")
    with pytest.raises(metric.HostVisibleError):
        metric.score(VS_SOLUTION.assign(views=["x", "[]", "[]"]), VS_SUBMISSION, "SentenceId", task="view_sentiment")


def test_a_bug_reaches_the_host_only(monkeypatch):
    from scorer import api

    def broken(self, submission, board=None):
        raise KeyError("gold value c3")
    monkeypatch.setattr(api.Competition, "scores", broken)
    with pytest.raises(metric.HostVisibleError, match="KeyError"):
        metric.score(BANK_SOLUTION, BANK_SUBMISSION, "id", task="bank_comments")


def test_the_classes_are_named_as_the_host_routes_them():
    # safe_call_score compares err.__class__.__name__ with these two names
    assert metric.ParticipantVisibleError.__name__ == "ParticipantVisibleError"
    assert metric.HostVisibleError.__name__ == "HostVisibleError"


def test_messages_follow_the_language():
    wrong = BANK_SUBMISSION.assign(**{"class": [0, 9, 0]})
    with pytest.raises(metric.ParticipantVisibleError, match="^错误（提交文件有误）：submission.csv 第 3 行"):
        metric.score(BANK_SOLUTION, wrong, "id", language="zh", task="bank_comments")


def test_signature_is_the_template_one():
    signature = inspect.signature(metric.score)
    params = signature.parameters
    assert list(params)[:3] == ["solution", "submission", "row_id_column_name"]
    assert all(p.annotation is not inspect.Parameter.empty for p in params.values())
    assert signature.return_annotation is float
    value = metric.score(BANK_SOLUTION, BANK_SUBMISSION, "id", task="bank_comments")
    assert type(value) is float and math.isfinite(value)


# -- the shipped competitions as Kaggle DataFrames --------------------------------------------------------
def usage_of(competition):
    boards = pd.read_csv(competition / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    return dict(zip(boards["id"], boards["board"].map({"A": "Public", "B": "Private"})))


def test_real_bank_gold_per_usage_subset_equals_seqeval_and_sklearn():
    from bundle_shared import bank_oracle, board_ids
    gold, sample = ROOT / "reference_data" / "gold.csv", ROOT / "starting_kit" / "sample_submission.csv"
    solution = pd.read_csv(gold, dtype=str, keep_default_na=False)
    solution["Usage"] = solution["id"].map(usage_of(ROOT))
    submission = pd.read_csv(sample, dtype=str, keep_default_na=False)
    for usage, board in (("Public", "A"), ("Private", "B")):
        subset = solution[solution["Usage"] == usage].drop(columns=["Usage"]).reset_index(drop=True)
        value = metric.score(subset, submission.copy(), "id", task="bank_comments")
        assert value == pytest.approx(bank_oracle(gold, sample, board_ids(ROOT, board))["score"], abs=1e-9)


def _grouped(ids, frame, id_column, pairs):
    """One JSON cell per id: the list of ``pairs(row)`` of its rows in ``frame`` (``[]`` for none)."""
    cells = {i: [] for i in ids}
    for _, row in frame.iterrows():
        cells[row[id_column]].append(pairs(row))
    return [json.dumps(cells[i], ensure_ascii=False) for i in ids]


def example_frames(name):
    """(solution with Usage, submission, row id, score() keyword arguments) of examples/<name>."""
    comp = ROOT / "examples" / name
    ref, kit = comp / "reference_data", comp / "starting_kit"
    config = yaml_load(ref / "board_A.yaml")
    kwargs = dict(task=name, options=config.get("options") or {}, metric=config.get("primary_key", ""))
    read = lambda p, sep=",": pd.read_csv(p, dtype=str, keep_default_na=False, sep=sep)  # noqa: E731
    if name in ("keywords", "multilabel", "regression", "classification"):
        solution, submission, row_id = read(ref / "gold.csv"), read(kit / "sample_submission.csv"), "id"
        if name in ("multilabel", "classification"):
            kwargs["labels"] = (ref / "labels.txt").read_text(encoding="utf-8")
    elif name == "view_sentiment":
        ids = read(ref / "sentences.csv")["SentenceId"].tolist()
        view = lambda row: [row["View"], row["Opinion"]]  # noqa: E731
        gold, pred = read(ref / "gold.csv", "\t"), read(kit / "sample_submission.csv")
        solution = pd.DataFrame({"SentenceId": ids, "views": _grouped(ids, gold, "SentenceId", view)})
        submission = pd.DataFrame({"SentenceId": ids, "views": _grouped(ids, pred, "SentenceId", view)})
        row_id = "SentenceId"
    else:
        row_id = "conversation_ID"
        gold = {s: json.loads((ref / ("Subtask_%d_gold.json" % s)).read_text(encoding="utf-8")) for s in (1, 2)}
        pred = {s: json.loads((kit / "submission" / ("Subtask_%d_pred.json" % s)).read_text(encoding="utf-8"))
                for s in (1, 2)}
        ids = [str(c["conversation_ID"]) for c in gold[1]]
        solution = pd.DataFrame({row_id: ids, "conversation": [json.dumps(c["conversation"]) for c in gold[1]]})
        submission = pd.DataFrame({row_id: ids})
        for s in (1, 2):
            by_id = {str(c["conversation_ID"]): c["emotion-cause_pairs"] for c in gold[s]}
            solution["subtask%d" % s] = [json.dumps(by_id[i]) for i in ids]
            by_id = {str(c["conversation_ID"]): c["emotion-cause_pairs"] for c in pred[s]}
            submission["subtask%d" % s] = [json.dumps(by_id[i]) for i in ids]
    usage = usage_of(comp)
    solution["Usage"] = solution[row_id].map(usage)
    return solution, submission, row_id, kwargs


def yaml_load(path):
    import yaml
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["keywords", "multilabel", "regression", "view_sentiment", "emotion_cause",
                                  "classification"])
def test_examples_score_as_score_py_scores_their_files(name, tmp_path):
    """Not an oracle: the DataFrame mapping checked against the files score.py reads (same engine), on the demo
    competitions' data, per Usage subset = board."""
    import shutil
    from scorer.api import Competition

    solution, submission, row_id, kwargs = example_frames(name)
    comp = ROOT / "examples" / name
    for usage, board in (("Public", "A"), ("Private", "B")):
        ref = tmp_path / board
        shutil.copytree(comp / "reference_data", ref)
        shutil.copy(ref / ("board_%s.yaml" % board), ref / "config.yaml")
        engine = Competition.open(str(ref))
        kit = comp / "starting_kit"
        if (kit / "submission").is_dir():
            files = engine.submitted_files(str(kit / "submission"))
        else:
            files = {"submission": _one_file(kit / "sample_submission.csv")}
        expected = engine.scores(engine.read_files(files), board)[engine.cfg.primary_key]
        subset = solution[solution["Usage"] == usage].drop(columns=["Usage"]).reset_index(drop=True)
        assert metric.score(subset, submission.copy(), row_id, **kwargs) == pytest.approx(expected, abs=1e-12)


def _one_file(path):
    from scorer.discovery import SubmittedFile
    data = path.read_bytes()
    return SubmittedFile(path.name, lambda: data, len(data))


# -- the built metric, away from the project -----------------------------------------------------------------
RUN_BUILT = r"""
import json, sys
import pandas as pd
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "module":
    import metric
    score = metric.score
else:                        # a notebook cell: the file's text run without __file__, in the folder of scorer/
    namespace = {"__name__": "metric_cell"}
    exec(open(sys.argv[1] + "/metric.py", encoding="utf-8").read(), namespace)
    score = namespace["score"]
sol = pd.DataFrame({"id": ["d1", "d2"], "keywords": ["alpha", "alpha_beta_gamma_delta"]})
sub = pd.DataFrame({"id": ["d1", "d2"], "keywords": ["alpha_omega", "alpha"]})
print(json.dumps(score(sol, sub, "id", task="keywords")))
"""


@pytest.mark.parametrize("how", ["module", "cell"])
def test_the_built_metric_runs_without_the_project(tmp_path, how):
    import subprocess
    from helpers import organizer
    out = tmp_path / "kaggle"
    proc = organizer("kaggle", out)
    assert proc.returncode == 0, proc.stderr
    assert (out / "metric.py").is_file() and (out / "scorer" / "api.py").is_file()
    # -E -s and a cwd outside the project: only the engine written beside metric.py can be imported
    run = subprocess.run([sys.executable, "-E", "-s", "-c", RUN_BUILT, str(out), how], capture_output=True,
                         text=True, cwd=str(out if how == "cell" else tmp_path), timeout=600)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == pytest.approx(8 / 15, abs=1e-12)


def test_a_repeated_column_and_a_lone_surrogate_are_the_participants_errors_and_can_be_shown():
    """Kaggle builds the submission DataFrame from the participant's file: two columns of one name, or half of a
    character in a cell, are theirs to fix; the line must encode (the host shows it)."""
    solution = pd.DataFrame({"id": ["1", "2"], "keywords": ["a_b", "c"]})
    twice = pd.DataFrame([["1", "a_b", "x"], ["2", "c", "y"]], columns=["id", "keywords", "keywords"])
    text = refused(solution, twice, task="keywords")
    assert "the column keywords twice" in text
    half = pd.DataFrame({"id": ["1", "2"], "keywords": ["a\ud800", "c"]})
    text = refused(solution, half, task="keywords")
    assert "line 2 (id 1), column keywords" in text and "lone surrogate" in text and "\\ud800" in text
    text.encode("utf-8")


# -- organizer kaggle COMPETITION_DIR OUT_DIR: the solution with Usage, the sample, the metric ready to paste ---------
COMPETITIONS = {"bank_comments": ROOT, **{name: ROOT / "examples" / name for name in
                                          ("keywords", "multilabel", "regression", "view_sentiment", "emotion_cause",
                                           "classification")}}


def _built_metric(out):
    """OUT/metric.py as its own module (its COMPETITION as written), beside its engine."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("metric_of_%s" % out.parent.name, str(out / "metric.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(COMPETITIONS))
def test_a_competition_becomes_kaggle_files_that_score_each_board_as_score_py(name, tmp_path):
    from organizer import kaggle
    from organizer.phase_data import phase_entries
    from helpers import write_files
    from scorer.api import Competition

    competition, out = COMPETITIONS[name], tmp_path / "kaggle"
    kaggle.build(out, competition)
    read = lambda f: pd.read_csv(out / f, dtype=str, keep_default_na=False)  # noqa: E731
    solution, sample = read("solution.csv"), read("sample_submission.csv")
    row_id = solution.columns[0]
    assert solution.columns[-1] == "Usage" and set(solution["Usage"]) == {"Public", "Private"}
    if name != "bank_comments":   # the same frames as this test builds from the files itself
        theirs, their_sample, their_id, _ = example_frames(name)
        assert row_id == their_id
        for frame, other in ((solution, theirs), (sample, their_sample)):
            shared = [c for c in other.columns if c in frame.columns]
            assert shared == list(other.columns), (list(frame.columns), list(other.columns))
            key = lambda f: f[shared].sort_values(row_id).reset_index(drop=True)  # noqa: E731
            assert key(frame).equals(key(other.astype(str)))
    built = _built_metric(out)   # no task= nor any other parameter: the competition's
    kit = competition / "starting_kit"
    for usage, board in (("Public", "A"), ("Private", "B")):
        comp = Competition.open(str(write_files(tmp_path / board, phase_entries(competition, board, reveal=True))))
        res = kit / "submission" if (kit / "submission").is_dir() else \
            write_files(tmp_path / ("res" + board), {p.name: p.read_bytes() for p in kit.glob("sample_submission*")})
        expected = comp.scores(comp.read_submission(str(res)))[comp.cfg.primary_key]
        subset = solution[solution["Usage"] == usage].drop(columns=["Usage"]).reset_index(drop=True)
        assert built.score(subset, sample.copy(), row_id) == pytest.approx(expected, abs=1e-12), board


def test_without_its_competition_the_metric_asks_for_the_task():
    """A classification host who forgets task= is told to give it, not that a bank column is missing."""
    solution = pd.DataFrame({"id": ["1", "2"], "label": ["a", "b"]})
    with pytest.raises(metric.HostVisibleError, match="^give task=, the competition's family"):
        metric.score(solution, solution.copy(), "id", labels="a b")
    assert metric.score(solution, solution.copy(), "id", task="classification", labels="a b") == 1.0


def test_every_family_has_a_layout_the_family_describes():
    from scorer.tasks import families
    layouts = metric.layouts()
    assert set(layouts) == set(families())
    assert set(metric.LAYOUTS) == {"view_sentiment", "emotion_cause", "qa"}   # the others: one table each, by the family


def test_kaggle_refuses_a_folder_without_a_split(tmp_path):
    import shutil
    from helpers import organizer
    copy = tmp_path / "comp"
    shutil.copytree(ROOT / "examples" / "keywords", copy)
    (copy / "reference_data" / "boards.csv").unlink()
    proc = organizer("kaggle", copy, tmp_path / "out")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "boards.csv" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
