"""Per-unit tables: every named column is an independent count of its unit, and every key of the summed columns
is the independent value of the key on those units.

A family's keys are one formula (``unit_scores``) of the column sums of its per-unit table, whose columns are
named once (``Units.schema``). Here, for every family, every Units group and several options, on both boards'
reference data with the sample submission and a spoiled one:

- each named column of the table, unit by unit, equals what the name says, counted here from the files with
  plain Python or an independent implementation (seqeval, scikit-learn, pytrec_eval, scipy, sacreBLEU,
  rouge-score), never with the scoring program's code: a column filled with another count, or read from another
  place, fails;
- each key, computed by ``unit_scores`` from the sums of the rows of the whole board and of random halves,
  equals that key computed by scikit-learn, seqeval, scipy, pytrec_eval, sacreBLEU, rouge-score or the source
  document's formula (SQuAD 2.0's, restated) on those units: a wrong formula fails, even one the scores and
  their intervals share;
- the Result's own scores are ``unit_scores`` of ``Units.sums`` (the declarations' sums, no row built), and
  scoring a half on its own gives what its rows give.
"""
import io
import json
import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats
from sklearn import metrics

from ecac_corpus import gold_pairs as ecac_gold_pairs
from organizer.phase_data import assemble_reference
from scorer.api import Competition
from test_generation_kernels import ChineseRule
from test_qa_kernels import PlainSquad
from test_review_determinism import DEMOS, sample_files, spoil_board_b

# (family, option overrides): the demo's own options first, then other rules that change the formulas
CASES = [
    ("bank_comments", {}), ("bank_comments", {"scheme": "conlleval", "ner_weight": 0.3}),
    ("view_sentiment", {}),
    ("keywords", {}), ("keywords", {"mode": "legacy"}),
    ("multilabel", {}), ("multilabel", {"both_empty": "skip", "classes": "all", "beta": 2, "k": [1, 5]}),
    ("multilabel", {"both_empty": "zero", "classes": "gold", "map_denominator": "min_k_relevant", "set_top_k": 2,
                    "ndcg_gain": "linear"}),
    ("emotion_cause", {}), ("emotion_cause", {"mode": "clean"}),
    ("regression", {}), ("regression", {"rmsle": False, "smape_zero": "skip"}),
    ("classification", {}), ("classification", {"average": "weighted",
                                                "ordinal_order": ["good", "okay", "excellent", "poor", "terrible"]}),
    ("classification", {"submission": "probabilities", "top_k": 2, "ordinal_order": None}),
    ("classification", {"ordinal_weights": "linear",
                        "ordinal_order": ["poor", "terrible", "okay", "excellent", "good"]}),
    ("qa", {}),
    ("generation", {}), ("generation", {"bleu_tokenizer": "char", "lowercase": True, "rouge_stem": True,
                                        "rouge_tokenizer": "chinese"}),
]
# keys that rank all the units of a board at once: no sum over units gives them
NOT_SUMS = {"macro_ap", "median_ae", "spearman", "kendall", "roc_auc", "average_precision"}


def competition(tmp_path, family, options, board="A"):
    ref = assemble_reference(DEMOS[family][0] / "reference_data", board, tmp_path / ("ref_" + board), reveal=True)
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw["options"] = dict(raw.get("options") or {}, **options)
    if options:
        raw.pop("columns", None)   # labels of the demo's keys: other options write other keys
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return Competition.open(str(ref))


def submitted_files(family, options, spoiled=False):
    files = sample_files(family)
    if options.get("submission") == "probabilities":
        files = probability_files(files)
    return spoil_board_b(family, files) if spoiled and options.get("submission") != "probabilities" else files


def submission(tmp_path, comp, family, spoiled=False, files=None):
    files = files if files is not None else submitted_files(family, {}, spoiled)
    res = tmp_path / ("res_spoiled" if spoiled else "res")
    res.mkdir(exist_ok=True)
    for name, data in files.items():
        (res / name).write_bytes(data)
    return comp.read_submission(str(res))


def table(data):
    """A CSV or TSV file (judged from its header line) as text cells."""
    sep = "\t" if "\t" in data.decode("utf-8-sig").split("\n", 1)[0] else ","
    return pd.read_csv(io.BytesIO(data), sep=sep, dtype=str, keep_default_na=False)


def reference_file(family, name):
    return (DEMOS[family][0] / "reference_data" / name).read_bytes()


def probability_files(files):
    """The classification sample as probabilities: seeded rows, each putting more weight on its sample label."""
    frame = table(next(iter(files.values())))
    classes = reference_file("classification", "labels.txt").decode("utf-8").split()
    rng = np.random.default_rng(11)
    proba = rng.dirichlet(np.ones(len(classes)), size=len(frame))
    proba[np.arange(len(frame)), [classes.index(v) for v in frame["label"]]] += 1.0
    proba = np.round(proba / proba.sum(axis=1, keepdims=True), 6)
    proba[:, -1] = np.round(1.0 - proba[:, :-1].sum(axis=1), 6)
    out = pd.DataFrame({"id": frame["id"]})
    for k, name in enumerate(classes):
        out[name] = ["%.6f" % v for v in proba[:, k]]
    return {"sample_submission.csv": out.to_csv(index=False).encode("utf-8")}


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # scikit-learn's ill-defined-metric warnings: zero_division decides
        return function(*args, **kwargs)


def kappa_or_one(value):
    """scikit-learn's kappa is NaN where both sides hold one and the same class: perfect agreement, 1.0 here."""
    return 1.0 if math.isnan(value) else value


# -- the oracles: each a family's per-unit columns and keys, from the files -------------------------------------
class BankComments:
    """Entities per comment from seqeval (strict IOB2, or conlleval chunks); kappa and accuracy from scikit-learn."""

    def __init__(self, units, files, options):
        from seqeval.metrics.sequence_labeling import get_entities
        from seqeval.scheme import IOB2, Entities

        gold = table(reference_file("bank_comments", "gold.csv")).set_index("id")
        sub = table(next(iter(files.values()))).set_index("id")
        self.gold_tags = [gold.at[u, "BIO_anno"].split() for u in units]
        self.pred_tags = [sub.at[u, "BIO_anno"].split() for u in units]
        self.gold_class = [int(float(gold.at[u, "class"])) for u in units]
        self.pred_class = [int(float(sub.at[u, "class"])) for u in units]
        self.strict, self.weight = options["scheme"] == "iob2", float(options["ner_weight"])

        def entities(tags):
            if self.strict:
                return {(e.tag, e.start, e.end) for e in Entities([tags], IOB2).entities[0]}
            return set(get_entities(tags))

        g, p = [entities(t) for t in self.gold_tags], [entities(t) for t in self.pred_tags]
        cell = np.zeros((len(units), 9))
        cell[np.arange(len(units)), np.array(self.gold_class) * 3 + np.array(self.pred_class)] = 1
        self.columns = {"comments": {"right": [len(a & b) for a, b in zip(g, p)], "predicted": [len(b) for b in p],
                                     "gold": [len(a) for a in g], "class_cell": cell}}

    def keys(self, at):
        from seqeval import metrics as seq
        from seqeval.scheme import IOB2

        kwargs = dict(mode="strict", scheme=IOB2) if self.strict else {}
        gold, pred = [self.gold_tags[i] for i in at], [self.pred_tags[i] for i in at]
        f1 = quietly(seq.f1_score, gold, pred, **kwargs)
        kappa = kappa_or_one(quietly(metrics.cohen_kappa_score, [self.gold_class[i] for i in at],
                                     [self.pred_class[i] for i in at]))
        return {"ner_f1": f1, "ner_precision": quietly(seq.precision_score, gold, pred, **kwargs),
                "ner_recall": quietly(seq.recall_score, gold, pred, **kwargs), "kappa": kappa,
                "class_accuracy": metrics.accuracy_score([self.gold_class[i] for i in at],
                                                         [self.pred_class[i] for i in at]),
                "score": self.weight * f1 + (1 - self.weight) * kappa}


class ViewSentiment:
    """(view, opinion) pairs per sentence counted with dictionaries; the keys by the source document's formula."""

    LABELS = {"pos": "pos", "neu": "neu", "neg": "neg", "正面": "pos", "中性": "neu", "负面": "neg"}

    def __init__(self, units, files, options):
        gold, sub = table(reference_file("view_sentiment", "gold.csv")), table(next(iter(files.values())))
        accepted = {}
        for sid, view, opinion in zip(gold["SentenceId"], gold["View"], gold["Opinion"]):
            accepted.setdefault((sid.strip(), view), set()).add(self.LABELS[opinion.strip().lower()])
        predicted = {(sid.strip(), view): self.LABELS[opinion.strip().lower()]
                     for sid, view, opinion in zip(sub["SentenceId"], sub["View"], sub["Opinion"])}
        count = {u: dict(tp=0, fp=0, fn1=0, fn2=0) for u in units}
        for (sid, view), opinion in predicted.items():
            if sid in count:
                key = "fn2" if (sid, view) not in accepted else "tp" if opinion in accepted[sid, view] else "fp"
                count[sid][key] += 1
        for sid, view in accepted:
            if sid in count and (sid, view) not in predicted:
                count[sid]["fn1"] += 1
        self.counts = [count[u] for u in units]
        self.columns = {"sentences": {name: [c[name] for c in self.counts] for name in ("tp", "fp", "fn1", "fn2")}}

    def keys(self, at):
        tp, fp, fn1, fn2 = (sum(self.counts[i][k] for i in at) for k in ("tp", "fp", "fn1", "fn2"))
        p, r = ratio(tp, tp + fp + fn2), ratio(tp, tp + fn1)
        vp, vr = ratio(tp + fp, tp + fp + fn2), ratio(tp + fp, tp + fp + fn1)
        return {"precision": p, "recall": r, "f1": ratio(2 * p * r, p + r), "view_precision": vp,
                "view_recall": vr, "view_f1": ratio(2 * vp * vr, vp + vr)}


def ratio(a, b):
    return a / b if b else 0.0


class Keywords:
    """Keyword sets per sample (Python sets of the pieces of each cell); the averages from scikit-learn."""

    def __init__(self, units, files, options):
        sep = options["keyword_separator"]
        sets = lambda frame: {i: {k for k in cell.split(sep) if k} for i, cell in zip(frame["id"], frame["keywords"])}  # noqa: E731
        gold, pred = sets(table(reference_file("keywords", "gold.csv"))), sets(table(next(iter(files.values()))))
        self.gold, self.pred = [gold[u] for u in units], [pred.get(u, set()) for u in units]
        legacy = options["mode"] == "legacy"
        self.counted = np.array([not legacy or bool(g and p) for g, p in zip(self.gold, self.pred)])
        c = np.array([len(g & p) for g, p in zip(self.gold, self.pred)]) * self.counted
        g = np.array([len(s) for s in self.gold]) * self.counted
        p = np.array([len(s) for s in self.pred]) * self.counted
        self.columns = {"samples": {"counted": self.counted, "right": c, "gold": g, "predicted": p,
                                    "precision": [ratio(a, b) for a, b in zip(c, p)],
                                    "recall": [ratio(a, b) for a, b in zip(c, g)],
                                    "f1": [ratio(2 * a, b + d) for a, b, d in zip(c, p, g)]}}

    def keys(self, at):
        at = [i for i in at if self.counted[i]]
        if not at:   # no sample counted (mode legacy, nothing predicted): every mean over no sample is 0
            return dict.fromkeys(("macro_precision", "macro_recall", "macro_f1", "f1_of_macro_pr", "micro_precision",
                                  "micro_recall", "micro_f1"), 0.0)
        binarizer = __import__("sklearn.preprocessing", fromlist=["MultiLabelBinarizer"]).MultiLabelBinarizer()
        binarizer.fit([self.gold[i] | self.pred[i] for i in at])
        y, p = binarizer.transform([self.gold[i] for i in at]), binarizer.transform([self.pred[i] for i in at])
        mp, mr, mf, _ = quietly(metrics.precision_recall_fscore_support, y, p, average="samples", zero_division=0)
        up, ur, uf, _ = quietly(metrics.precision_recall_fscore_support, y, p, average="micro", zero_division=0)
        return {"macro_precision": mp, "macro_recall": mr, "macro_f1": mf, "f1_of_macro_pr": ratio(2 * mp * mr, mp + mr),
                "micro_precision": up, "micro_recall": ur, "micro_f1": uf}


class Multilabel:
    """Sets, per-class cells, ranked lists and the score matrix of each sample, from the files; per-sample values
    from scikit-learn (the samples as the classes of the transposed matrices), pytrec_eval and the ERR formula."""

    def __init__(self, units, files, options):
        labels = reference_file("multilabel", "labels.txt").decode("utf-8").split()
        code = {name: k for k, name in enumerate(labels)}
        gold, sub = table(reference_file("multilabel", "gold.csv")).set_index("id"), table(next(iter(files.values())))
        sub = sub.set_index("id")
        n, m = len(units), len(labels)
        self.grades = np.zeros((n, m), dtype=int)
        self.ranked, self.scores = [], []
        threshold, top = options["set_threshold"], options["set_top_k"]
        self.pred = np.zeros((n, m), dtype=bool)
        for i, u in enumerate(units):
            names = gold.at[u, "labels"].split()
            grades = [int(g) for g in gold.at[u, "grades"].split()] if "grades" in gold else [1] * len(names)
            for name, grade in zip(names, grades):
                self.grades[i, code[name]] = grade
            listed = [code[name] for name in sub.at[u, "labels"].split()]
            scores = [float(s) for s in sub.at[u, "scores"].split()] if "scores" in sub else [-k for k in
                                                                                            range(len(listed))]
            order = sorted(range(len(listed)), key=lambda k: -scores[k])   # stable: equal scores keep the list order
            self.ranked.append([listed[k] for k in order])
            self.scores.append([scores[k] for k in order])
            for rank, k in enumerate(order):
                if (threshold is None or scores[k] >= threshold) and (top is None or rank < top):
                    self.pred[i, listed[k]] = True
        self.gold = self.grades > 0
        self.options, self.m = options, m
        self.beta = float(options["beta"]) if options["beta"] is not None else 1.0
        self.ks = options["k"] if isinstance(options["k"], list) else [options["k"]]
        self.g_max = options["err_max_grade"] or max(1, int(self.grades.max()))
        self.matrix = np.full((n, m), -1e9)   # unlisted: below every listed label, tied
        for i, (row, scores) in enumerate(zip(self.ranked, self.scores)):
            self.matrix[i, row] = scores
        self.columns = self._columns()

    def _columns(self):
        y, p = self.gold, self.pred
        both_empty = ~y.any(axis=1) & ~p.any(axis=1)
        cells = metrics.multilabel_confusion_matrix(y, p, samplewise=True)   # per sample: [[tn, fp], [fn, tp]]
        tp = cells[:, 1, 1]
        sample_p, sample_r, sample_f, _ = quietly(metrics.precision_recall_fscore_support, y.T, p.T, average=None,
                                                  zero_division=0)
        sample_fb = quietly(metrics.fbeta_score, y.T, p.T, beta=self.beta, average=None, zero_division=0)
        ones = np.ones(len(y))
        out = {"sets": {"samples": ones, "both_empty": both_empty, "tp": tp, "predicted": tp + cells[:, 0, 1],
                        "gold": tp + cells[:, 1, 0], "precision": sample_p, "recall": sample_r, "f1": sample_f,
                        "fbeta": sample_fb},
               "classes": {"tp": y & p, "predicted": p, "gold": y}}
        listed_empty = np.array([not r for r in self.ranked])
        self.ranked_both_empty = listed_empty & ~y.any(axis=1)
        self.per_k = {k: self._ranked(k) for k in self.ks}
        for k, (ap, ndcg, err) in self.per_k.items():
            out["ranking@%d" % k] = {"samples": ones, "both_empty": self.ranked_both_empty, "ap": ap, "ndcg": ndcg,
                                     "err": err}
        lrap = [metrics.label_ranking_average_precision_score(y[i:i + 1], self.matrix[i:i + 1]) for i in range(len(y))]
        coverage = [metrics.coverage_error(y[i:i + 1], self.matrix[i:i + 1]) for i in range(len(y))]
        loss = [metrics.label_ranking_loss(y[i:i + 1], self.matrix[i:i + 1]) for i in range(len(y))]
        out["label_ranking"] = {"samples": ones, "lrap": lrap, "coverage": coverage, "loss": loss}
        return out

    def _ranked(self, k):
        """(AP@k, nDCG@k, ERR@k) of every sample: trec_eval's map_cut and ndcg_cut on the list's own order (scores
        -rank: no tie for trec_eval to break), the gain 2^g - 1 given as the judgement; ERR by Chapelle's formula."""
        import pytrec_eval

        exponential = self.options["ndcg_gain"] == "exponential"
        gain = (2 ** self.grades - 1) if exponential else self.grades
        qrels = {str(i): {str(c): int(gain[i, c]) for c in np.flatnonzero(self.gold[i])} for i in range(len(gain))}
        binary = {q: {d: 1 for d in judged} for q, judged in qrels.items()}
        run = {str(i): {str(c): -float(r) for r, c in enumerate(row)} for i, row in enumerate(self.ranked) if row}
        ap_of = pytrec_eval.RelevanceEvaluator(binary, {"map_cut_%d" % k}).evaluate(run)
        ndcg_of = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_%d" % k}).evaluate(run)
        n_relevant = self.gold.sum(axis=1)
        ap = np.array([ap_of.get(str(i), {}).get("map_cut_%d" % k, 0.0) for i in range(len(gain))])
        if self.options["map_denominator"] == "min_k_relevant":   # trec_eval's AP times |R| / min(k, |R|)
            ap = np.where(n_relevant > 0, ap * n_relevant / np.maximum(np.minimum(n_relevant, k), 1), 0.0)
        ndcg = np.array([ndcg_of.get(str(i), {}).get("ndcg_cut_%d" % k, 0.0) for i in range(len(gain))])
        err = []
        for i, row in enumerate(self.ranked):
            total, going_on = 0.0, 1.0
            for rank, c in enumerate(row[:k], start=1):
                stop = (2.0 ** self.grades[i, c] - 1) / 2.0 ** self.g_max
                total += going_on * stop / rank
                going_on *= 1 - stop
            err.append(total)
        return ap, ndcg, np.array(err)

    def _mean(self, values, both_empty):
        rule = self.options["both_empty"]
        values = np.asarray(values, dtype=float)
        if rule == "skip":
            values = values[~both_empty]
        elif rule == "one":
            values = np.where(both_empty, 1.0, values)
        return float(values.mean()) if len(values) else 0.0

    def keys(self, at):
        at = np.asarray(at)
        if not len(at):
            return {}
        y, p, sets = self.gold[at], self.pred[at], self.columns["sets"]
        up, ur, uf, _ = quietly(metrics.precision_recall_fscore_support, y, p, average="micro", zero_division=0)
        out = {"micro_precision": up, "micro_recall": ur, "micro_f1": uf,
               "micro_fbeta": quietly(metrics.fbeta_score, y, p, beta=self.beta, average="micro", zero_division=0)}
        empty = sets["both_empty"][at]
        for name, key in (("precision", "sample_avg_precision"), ("recall", "sample_avg_recall"),
                          ("f1", "sample_avg_f1"), ("fbeta", "sample_avg_fbeta")):
            out[key] = self._mean(sets[name][at], empty)
        cp, cr, cf, _ = quietly(metrics.precision_recall_fscore_support, y, p, average=None, zero_division=0)
        cfb = quietly(metrics.fbeta_score, y, p, beta=self.beta, average=None, zero_division=0)
        rule = self.options["classes"]
        covered = {"all": np.ones(self.m, bool), "gold": y.any(axis=0),
                   "gold_or_predicted": y.any(axis=0) | p.any(axis=0)}[rule]
        mean = lambda v: float(v[covered].mean()) if covered.any() else 0.0  # noqa: E731
        out.update(class_avg_precision=mean(cp), class_avg_recall=mean(cr), macro_f1=mean(cf), macro_fbeta=mean(cfb),
                   class_avg_f1=ratio(2 * mean(cp) * mean(cr), mean(cp) + mean(cr)))
        for k, (ap, ndcg, err) in self.per_k.items():
            empty = self.ranked_both_empty[at]
            out.update({"map_at_%d" % k: self._mean(ap[at], empty), "ndcg_at_%d" % k: self._mean(ndcg[at], empty),
                        "err_at_%d" % k: self._mean(err[at], empty)})
        out.update(label_ranking_avg_precision=metrics.label_ranking_average_precision_score(y, self.matrix[at]),
                   coverage_error=metrics.coverage_error(y, self.matrix[at]),
                   label_ranking_loss=metrics.label_ranking_loss(y, self.matrix[at]))
        return out


class EmotionCause:
    """Pairs per conversation: the gold spans by the tests' own reading (ecac_corpus), the submission's pairs read
    here; strict, fuzzy and proportional matching as the official scorer describes them, with plain loops."""

    EMOTIONS = ("neutral", "anger", "disgust", "fear", "joy", "sadness", "surprise")   # the emotion codes 0..6

    def __init__(self, units, files, options):
        self.official = options["mode"] == "official"
        self.eps = 1e-8 if self.official else 0.0
        self.columns = {}
        self.counts = {}
        for subtask in (1, 2):
            gold = {str(c["conversation_ID"]): c for c in
                    json.loads(reference_file("emotion_cause", "Subtask_%d_gold.json" % subtask))}
            pred = {str(c["conversation_ID"]): c["emotion-cause_pairs"]
                    for c in json.loads(files["Subtask_%d_pred.json" % subtask])}
            names = ("gold", "strict", "pred", "prop_num", "prop_pred", "prop_gold", "fuzzy")[:7 if subtask == 1 else 3]
            counts = {name: np.zeros((len(units), 7)) for name in names}
            for row, u in enumerate(units):
                g = first_each([(e, self.EMOTIONS.index(emo), c, s, t) for e, emo, c, s, t in
                                ecac_gold_pairs(gold[u], subtask)])
                p = first_each([self._pair(pair, subtask) for pair in pred.get(u, [])])
                self._count(counts, row, g, p, subtask)
            self.columns["subtask%d" % subtask] = counts
            self.counts[subtask] = counts

    def _pair(self, pair, subtask):
        emo_utt, emotion = pair[0].replace("U", "").split("_")
        cause = pair[1].split("_")
        start, end = (int(cause[1]), int(cause[2])) if subtask == 1 else (0, 0)
        return int(emo_utt), self.EMOTIONS.index(emotion), int(cause[0]), start, end

    def _count(self, counts, row, gold, pred, subtask):
        for pair in gold:
            counts["gold"][row, pair[1]] += 1
        for pair in pred:
            counts["pred"][row, pair[1]] += 1
            counts["strict"][row, pair[1]] += pair in gold
        if subtask == 2:
            return
        same = lambda a, b: (a[0], a[1], a[2]) == (b[0], b[1], b[2])  # noqa: E731
        taken = [False] * len(gold)
        for pair in pred:                                   # fuzzy: greedy, predictions in file order
            for j, g in enumerate(gold):
                if not taken[j] and same(pair, g) and pair[4] > g[3] and pair[3] < g[4]:
                    taken[j] = True
                    counts["fuzzy"][row, pair[1]] += 1
                    break
        best = []
        for pair in pred:                                   # proportional: each prediction's best gold span
            choice = None
            for j, g in enumerate(gold):
                overlap = min(pair[4], g[4]) - max(pair[3], g[3])
                if same(pair, g) and overlap > 0 and pair[4] > g[3] and pair[3] < g[4]:
                    key = (overlap / (g[4] - g[3]), overlap)
                    if choice is None or key > choice[0]:
                        choice = (key, j, overlap)
            best.append(choice)
        if not self.official:   # each gold span credited once: to its largest overlap, then its first prediction
            for j in range(len(gold)):
                mine = [k for k, b in enumerate(best) if b is not None and b[1] == j]
                if len(mine) > 1:
                    keep = max(mine, key=lambda k: (best[k][2], -k))
                    for k in mine:
                        if k != keep:
                            best[k] = None
        for pair, b in zip(pred, best):
            counts["prop_pred"][row, pair[1]] += pair[4] - pair[3]
            if b is not None:
                counts["prop_num"][row, pair[1]] += b[2]
        for j, g in enumerate(gold):
            matched = sum(1 for b in best if b is not None and b[1] == j)
            counts["prop_gold"][row, g[1]] += (g[4] - g[3]) * (max(matched, 1) if self.official else 1)

    def _prf(self, num, pred, gold, n_gold):
        eps = self.eps
        p = [ratio(num[j], pred[j] + eps) for j in range(1, 7)]
        r = [ratio(num[j], gold[j] + eps) for j in range(1, 7)]
        f = [ratio(2 * a * b, a + b + eps) for a, b in zip(p, r)]
        w = [ratio(n_gold[j], sum(n_gold[1:])) for j in range(1, 7)]
        mp = ratio(sum(num[1:]), sum(pred[1:]) + eps)
        mr = ratio(sum(num[1:]), sum(gold[1:]) + eps)
        return {"weighted_p": sum(a * b for a, b in zip(p, w)), "weighted_r": sum(a * b for a, b in zip(r, w)),
                "weighted_f1": sum(a * b for a, b in zip(f, w)), "micro_p": mp, "micro_r": mr,
                "micro_f1": ratio(2 * mp * mr, mp + mr + eps)}

    def keys(self, at):
        out = {}
        c = {name: v[at].sum(axis=0) for name, v in self.counts[1].items()}
        for prefix, part in (("strict", self._prf(c["strict"], c["pred"], c["gold"], c["gold"])),
                             ("fuzzy", self._prf(c["fuzzy"], c["pred"], c["gold"], c["gold"])),
                             ("Proportional", self._prf(c["prop_num"], c["prop_pred"], c["prop_gold"], c["gold"]))):
            out.update({"weighted_%s_precision" % prefix: part["weighted_p"],
                        "weighted_%s_recall" % prefix: part["weighted_r"], "weighted_%s_f1" % prefix: part["weighted_f1"],
                        "%s_precision" % prefix: part["micro_p"], "%s_recall" % prefix: part["micro_r"],
                        "%s_f1" % prefix: part["micro_f1"]})
        c = {name: v[at].sum(axis=0) for name, v in self.counts[2].items()}
        pair = self._prf(c["strict"], c["pred"], c["gold"], c["gold"])
        out.update(precision_pair=pair["micro_p"], recall_pair=pair["micro_r"], f1_pair=pair["micro_f1"],
                   weighted_precision=pair["weighted_p"], weighted_recall=pair["weighted_r"],
                   weighted_f1=pair["weighted_f1"])
        return out


def first_each(pairs):
    """The pairs without repeats, each where it first occurs."""
    seen, out = set(), []
    for pair in pairs:
        if pair not in seen:
            seen.add(pair)
            out.append(pair)
    return out


class Regression:
    """Per-unit terms from scikit-learn (the units as the outputs of one sample: ``multioutput='raw_values'``), the
    centred and scaled columns as the family's documentation defines them; the keys from scikit-learn and scipy."""

    def __init__(self, units, files, options):
        gold = table(reference_file("regression", "gold.csv")).set_index("id")
        sub = table(next(iter(files.values()))).set_index("id")
        self.y = np.array([float(gold.at[u, "value"]) for u in units])
        self.p = np.array([float(sub.at[u, "value"]) for u in units])
        self.skip = options["smape_zero"] == "skip"
        y, p = self.y[None, :], self.p[None, :]
        raw = dict(multioutput="raw_values")
        zero = (self.y == 0) & (self.p == 0)
        self.smape = np.where(zero, 0.0, 2 * np.abs(self.p - self.y) / np.where(zero, 1.0, np.abs(self.y) + np.abs(self.p)))
        self.counted = ~zero if self.skip else np.ones(len(units), bool)
        u = self.y - self.y.mean()
        su, sv = own_scale(self.y), own_scale(self.p)
        ones = np.ones(len(units))
        self.columns = {"squared": {"units": ones, "squared_error": metrics.mean_squared_error(y, p, **raw)},
                        "absolute": {"units": ones, "absolute_error": metrics.mean_absolute_error(y, p, **raw)},
                        "percentage": {"units": ones,
                                       "percentage_error": metrics.mean_absolute_percentage_error(y, p, **raw)},
                        "symmetric": {"counted": self.counted, "symmetric_error": self.smape * self.counted},
                        "r2": {"units": ones, "u": u, "uu": u * u, "squared_error": (self.p - self.y) ** 2},
                        "pearson": {"units": ones, "u": su, "uu": su * su, "v": sv, "vv": sv * sv, "uv": su * sv}}
        if options["rmsle"]:
            self.columns["log"] = {"units": ones, "squared_log_error": metrics.mean_squared_log_error(y, p, **raw)}

    def keys(self, at):
        y, p = self.y[at], self.p[at]
        if not len(at):
            return {}
        out = {"mse": metrics.mean_squared_error(y, p), "rmse": metrics.root_mean_squared_error(y, p),
               "mae": metrics.mean_absolute_error(y, p), "mape": metrics.mean_absolute_percentage_error(y, p),
               "r2": metrics.r2_score(y, p, force_finite=True), "pearson": correlation(y, p),
               "rmsle": metrics.root_mean_squared_log_error(y, p) if (y >= 0).all() and (p >= 0).all() else None}
        counted = self.counted[at]
        out["smape"] = float(self.smape[at][counted].mean()) if counted.any() else 0.0
        return out


def own_scale(x):
    """A column on its own scale, as the family documents it: (x - mean) / max |x - mean|; a constant column is 0."""
    if (x == x[0]).all():
        return np.zeros(len(x))
    centred = x - x.mean()
    return centred / np.abs(centred).max()


def correlation(y, p):
    """scipy's Pearson r; 0.0 for a constant column (the family's documented value, scipy's NaN)."""
    if (y == y[0]).all() or (p == p[0]).all():
        return 0.0
    return stats.pearsonr(y, p).statistic


class Classification:
    """Each item's class one-hot in the order of the ordinal scale (or of labels.txt), its squared (or, with linear
    weights, absolute) distance on that scale, its log loss and top-k hit by their formulas; the keys from
    scikit-learn (the weighted kappas on the places, every place a label, so an absent class keeps its place)."""

    def __init__(self, units, files, options):
        self.names = reference_file("classification", "labels.txt").decode("utf-8").split()
        gold, sub = table(reference_file("classification", "gold.csv")).set_index("id"), table(next(iter(files.values())))
        sub = sub.set_index("id")
        self.gold = [gold.at[u, "label"] for u in units]
        if options["submission"] == "probabilities":
            self.proba = np.array([[float(sub.at[u, name]) for name in self.names] for u in units])
            self.pred = [self.names[int(np.argmax(row))] for row in self.proba]   # the first highest column
        else:
            self.proba, self.pred = None, [sub.at[u, "label"] for u in units]
        self.options = options
        scale = options["ordinal_order"] or self.names
        place = {name: k for k, name in enumerate(scale)}
        g, p = np.array([place[v] for v in self.gold]), np.array([place[v] for v in self.pred])
        self.g_place, self.p_place = g, p
        one_hot = lambda codes: np.eye(len(scale))[codes]  # noqa: E731
        distance = {"absolute_distance": np.abs(g - p)} if options["ordinal_weights"] == "linear" else \
            {"squared_distance": (g - p) ** 2}
        self.columns = {"labels": {"gold": one_hot(g), "predicted": one_hot(p), "right": one_hot(g) * (g == p)[:, None],
                                   **distance}}
        self.places = np.arange(len(scale))
        if self.proba is not None:
            code = np.array([self.names.index(v) for v in self.gold])
            eps = np.finfo(float).eps
            share = self.proba[np.arange(len(code)), code] / self.proba.sum(axis=1)
            self.loss = -np.log(np.clip(share, eps, 1 - eps))
            ahead = [(row > row[c]).sum() + (row[:c] == row[c]).sum() for row, c in zip(self.proba, code)]
            self.hits = np.array(ahead) < options["top_k"]
            self.columns["log_loss"] = {"items": np.ones(len(code)), "total": self.loss}
            self.columns["top_k"] = {"items": np.ones(len(code)), "total": self.hits}

    def keys(self, at):
        if not len(at):
            return {}
        y, p = [self.gold[i] for i in at], [self.pred[i] for i in at]
        average = self.options["average"]
        out = {"accuracy": metrics.accuracy_score(y, p),
               "balanced_accuracy": quietly(metrics.balanced_accuracy_score, y, p),
               "cohen_kappa": kappa_or_one(quietly(metrics.cohen_kappa_score, y, p)),
               "quadratic_weighted_kappa": kappa_or_one(quietly(metrics.cohen_kappa_score, self.g_place[at],
                                                                self.p_place[at], weights="quadratic",
                                                                labels=self.places)),
               "linear_weighted_kappa": kappa_or_one(quietly(metrics.cohen_kappa_score, self.g_place[at],
                                                             self.p_place[at], weights="linear", labels=self.places)),
               "mcc": metrics.matthews_corrcoef(y, p)}
        for kind in ("macro", "micro", "weighted"):
            values = quietly(metrics.precision_recall_fscore_support, y, p, average=kind, zero_division=0)
            out.update({"%s_precision" % kind: values[0], "%s_recall" % kind: values[1], "%s_f1" % kind: values[2]})
        out.update(precision=out[average + "_precision"], recall=out[average + "_recall"], f1=out[average + "_f1"])
        if self.proba is not None:
            rows = self.proba[at] / self.proba[at].sum(axis=1, keepdims=True)
            order = sorted(range(len(self.names)), key=lambda k: self.names[k])   # scikit-learn's: sorted labels
            rows, labels = rows[:, order], [self.names[k] for k in order]
            out["log_loss"] = metrics.log_loss(y, rows, labels=labels)
            out["top_k_accuracy"] = metrics.top_k_accuracy_score(y, rows, k=self.options["top_k"], labels=labels)
        return out


class QA:
    """SQuAD 2.0's official normalisation, exact match and F1 (evaluate-v2.0.py) restated in plain Python, per
    question; a question without an entry in the submission scores 0 (the family's documented choice)."""

    def __init__(self, units, files, options):
        assert options["rules"] == "squad_v2"
        gold = {e["id"].strip(): e["answers"] for e in json.loads(reference_file("qa", "gold.json").decode("utf-8"))}
        sub = {k.strip(): v for k, v in json.loads(files["predictions.json"].decode("utf-8")).items()}
        self.answerable = np.array([bool(gold[u]) for u in units])
        exact, f1 = [], []
        for u in units:
            golds = [a for a in gold[u] if self.normalize(a)] or [""]
            if u not in sub:
                exact.append(0)
                f1.append(0.0)
                continue
            exact.append(max(int(self.normalize(a) == self.normalize(sub[u])) for a in golds))
            f1.append(max(self.f1(a, sub[u]) for a in golds))
        self.exact, self.f1s = np.array(exact), np.array(f1)
        self.columns = {"questions": {"questions": np.ones(len(units)), "exact": self.exact, "f1": self.f1s,
                                      "answerable": self.answerable, "exact_answerable": self.exact * self.answerable,
                                      "f1_answerable": self.f1s * self.answerable}}

    normalize = PlainSquad.normalize
    f1 = PlainSquad.f1

    def keys(self, at):
        at = np.asarray(at, dtype=int)
        mean = lambda values: 100.0 * float(np.mean(values)) if len(values) else 0.0  # noqa: E731
        has, no = at[self.answerable[at]], at[~self.answerable[at]]
        exact, f1 = mean(self.exact[at]), mean(self.f1s[at])
        return {"exact": exact, "f1": f1, "average": (exact + f1) / 2,
                "has_ans_exact": mean(self.exact[has]), "has_ans_f1": mean(self.f1s[has]),
                "no_ans_exact": mean(self.exact[no]), "no_ans_f1": mean(self.f1s[no])}


class Generation:
    """Per-segment BLEU and chrF/chrF++ statistics from sacreBLEU itself (``_extract_corpus_statistics``, its own
    column order: BLEU's hyp_len, ref_len, matches 1..4, totals 1..4; chrF's (hyp, ref, match) of each character
    order then each word order, the best reference's), ROUGE from rouge-score's ``score_multi``, exact match with
    plain Python; the keys from sacreBLEU's ``corpus_score`` and the means of rouge-score's values."""

    ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

    def __init__(self, units, files, options):
        import sacrebleu
        from rouge_score import rouge_scorer

        gold, sub = table(reference_file("generation", "gold.csv")), table(files["predictions.csv"])
        refs = {}
        for i, r in zip(gold["id"], gold["reference"]):
            refs.setdefault(i.strip(), []).append(r)
        given = {i.strip(): t for i, t in zip(sub["id"], sub["text"])}
        self.hyps = [given.get(u, "") for u in units]   # no text: an empty hypothesis
        self.refs = [refs[u] for u in units]
        lower = options["lowercase"]
        self.bleu = sacrebleu.metrics.BLEU(tokenize=options["bleu_tokenizer"], lowercase=lower)
        self.chrf = sacrebleu.metrics.CHRF(lowercase=lower)
        self.chrf_pp = sacrebleu.metrics.CHRF(word_order=2, lowercase=lower)
        every = np.arange(len(units))
        tokenizer = ChineseRule(options["rouge_stem"]) if options["rouge_tokenizer"] == "chinese" else None
        scorer = rouge_scorer.RougeScorer(list(self.ROUGE_TYPES), use_stemmer=options["rouge_stem"],
                                          tokenizer=tokenizer)
        scored = [scorer.score_multi(r, h) for h, r in zip(self.hyps, self.refs)]
        self.rouge = np.array([[getattr(s[t], m) for t in self.ROUGE_TYPES for m in ("precision", "recall", "fmeasure")]
                               for s in scored])
        self.exact = np.array([int(any(h.strip() == r.strip() for r in rs)) for h, rs in zip(self.hyps, self.refs)])
        self.columns = {   # a group per measure: its keys from its own columns
            "bleu": {"bleu": np.array(self.bleu._extract_corpus_statistics(*self._corpus(every)), dtype=float)},
            "chrf": {"chrf": np.array(self.chrf._extract_corpus_statistics(*self._corpus(every)), dtype=float)},
            "chrf_pp": {"chrf_pp": np.array(self.chrf_pp._extract_corpus_statistics(*self._corpus(every)),
                                            dtype=float)},
            "rouge": {"segments": np.ones(len(units)), "rouge": self.rouge},
            "exact": {"segments": np.ones(len(units)), "exact": self.exact}}

    def _corpus(self, at):
        """(hypotheses, reference streams) of the segments at ``at``: sacreBLEU's layout, one stream per reference
        slot, None where a segment has fewer references (its _cache_references drops them)."""
        refs = [self.refs[i] for i in at]
        most = max(len(r) for r in refs)
        return [self.hyps[i] for i in at], [[r[k] if k < len(r) else None for r in refs] for k in range(most)]

    def keys(self, at):
        at = np.asarray(at, dtype=int)
        hyps, streams = self._corpus(at)
        b = self.bleu.corpus_score(hyps, streams)
        out = {"bleu": b.score, "length_ratio": b.sys_len / b.ref_len if b.ref_len else 0.0,
               "chrf": self.chrf.corpus_score(hyps, streams).score,
               "chrf_pp": self.chrf_pp.corpus_score(hyps, streams).score,
               "exact_match": 100.0 * self.exact[at].mean()}
        k = 0
        for t in self.ROUGE_TYPES:
            for m in ("p", "r", "f"):
                out["%s_%s" % (t.lower(), m)] = 100.0 * self.rouge[at, k].mean()
                k += 1
        return out


ORACLES = {"bank_comments": BankComments, "view_sentiment": ViewSentiment, "keywords": Keywords,
           "multilabel": Multilabel, "emotion_cause": EmotionCause, "regression": Regression,
           "classification": Classification, "qa": QA, "generation": Generation}


# -- the checks -------------------------------------------------------------------------------------------------
def check_columns(group, oracle, rows):
    """Every named column of ``group``'s table, unit by unit, against the oracle's count of it."""
    named = group.named(group.make())
    expected = oracle.columns[group.name]
    assert set(group.schema.names) == set(expected), group.name
    for name in group.schema.names:
        want = np.asarray(expected[name], dtype=float)[rows]
        got = named[name]
        assert got.shape == want.shape, (group.name, name)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg="%s: %s" % (group.name, name))


def check_keys(comp, group, table, rows, oracle_keys, label):
    """The keys of ``group`` from the sums of the rows ``rows`` of its table, against the oracle's keys."""
    got = comp.family.unit_scores(group.name, table[rows].sum(axis=0), comp.cfg)
    for key in group.keys:
        want = oracle_keys[key]
        assert want is not None, key
        assert float(got[key]) == pytest.approx(want, rel=1e-9, abs=1e-9), (label, group.name, key)


@pytest.mark.parametrize("family,options", CASES, ids=lambda v: str(v).replace(" ", ""))
def test_each_named_column_and_each_key_against_an_independent_count(tmp_path, family, options):
    covered_columns, covered_keys = set(), set()
    rng = np.random.default_rng(7)
    for board in ("A", "B"):
        comp = competition(tmp_path / board, family, options, board)
        units = [str(u) for u in comp.reference.units]
        mask = comp.boards.mask(board)
        assert mask.all()   # a board's reference data holds its own units
        for spoiled in (False, True):
            files = submitted_files(family, options, spoiled)
            sub = submission(tmp_path / board, comp, family, spoiled, files)
            oracle = ORACLES[family](units, files, comp.cfg.options)
            result = comp.family.score(comp.reference, sub, mask, comp.cfg)
            half = rng.random(len(units)) < 0.5
            on_half = comp.family.score(comp.reference, sub, half, comp.cfg).scores
            whole_keys, half_keys = oracle.keys(np.arange(len(units))), oracle.keys(np.flatnonzero(half))
            for group in result.units:
                check_columns(group, oracle, np.arange(len(units)))
                covered_columns.update((group.name, name) for name in group.schema.names)
                table = group.make()
                # the Result's scores are the formula of the declarations' sums, which the rows add up to
                np.testing.assert_allclose(table.sum(axis=0), group.sums(), rtol=1e-12, atol=1e-9)
                formula = comp.family.unit_scores(group.name, group.sums(), comp.cfg)
                assert all(result.scores[key] == float(formula[key]) for key in group.keys), group.name
                check_keys(comp, group, table, np.arange(len(units)), whole_keys, "board")
                check_keys(comp, group, table, half, half_keys, "half")
                part = comp.family.unit_scores(group.name, table[half].sum(axis=0), comp.cfg)
                for key in group.keys:   # relative too: a regression error is in the units of the data
                    assert float(part[key]) == pytest.approx(on_half[key], rel=1e-12, abs=1e-12), (group.name, key)
                covered_keys.update(group.keys)
    keys = comp.family.leaderboard_keys(comp.cfg.options)
    assert covered_keys == set(keys) - NOT_SUMS
    assert {group for group, _ in covered_columns} == set(oracle.columns)


def inflected_and_chinese(files):
    """The generation sample with inflected words (stemming changes its matches) and, every other segment, Chinese
    words with Chinese punctuation (the chinese ROUGE rule counts them, rouge-score's own drops them)."""
    frame = table(files["predictions.csv"])
    frame["text"] = [re.sub(r"ion\b", "ions", re.sub(r"ing\b", "ed", t)) + (" 两个模型，很好。" if k % 2 else "")
                     for k, t in enumerate(frame["text"])]
    return {"predictions.csv": frame.to_csv(index=False).encode("utf-8")}


def some_questions_unanswered(files):
    """The qa sample without every fifth entry: those questions score 0, even the unanswerable ones."""
    answers = json.loads(files["predictions.json"].decode("utf-8"))
    return {"predictions.json": json.dumps({q: a for k, (q, a) in enumerate(answers.items()) if k % 5}).encode("utf-8")}


@pytest.mark.parametrize("family,options,change", [
    ("generation", CASES[-1][1], inflected_and_chinese), ("generation", {}, inflected_and_chinese),
    ("qa", {}, some_questions_unanswered)], ids=["generation-options", "generation", "qa-absent"])
def test_rules_the_demo_submission_does_not_reach_against_the_oracles(tmp_path, family, options, change):
    """Texts where the options change the counts (stemming, the chinese rule) and questions with no entry: every
    named column and every key on each board and on a random half against the oracle."""
    rng = np.random.default_rng(5)
    files = change(sample_files(family))
    for board in ("A", "B"):
        comp = competition(tmp_path / board, family, options, board)
        units = [str(u) for u in comp.reference.units]
        sub = submission(tmp_path / board, comp, family, files=files)
        oracle = ORACLES[family](units, files, comp.cfg.options)
        result = comp.family.score(comp.reference, sub, comp.boards.mask(board), comp.cfg)
        half = rng.random(len(units)) < 0.5
        whole_keys, half_keys = oracle.keys(np.arange(len(units))), oracle.keys(np.flatnonzero(half))
        for group in result.units:
            check_columns(group, oracle, np.arange(len(units)))
            table = group.make()
            check_keys(comp, group, table, np.arange(len(units)), whole_keys, "board")
            check_keys(comp, group, table, half, half_keys, "half")


def test_stacked_sums_give_the_scores_of_each_row(tmp_path):
    """unit_scores on a stack of sums (what the bootstrap passes) equals it row by row."""
    for family, options in CASES:
        comp = competition(tmp_path / family / str(len(options)), family, options)
        files = submitted_files(family, options)
        sub = submission(tmp_path / family / str(len(options)), comp, family, files=files)
        result = comp.score(sub)
        rng = np.random.default_rng(3)
        for group in result.units:
            table = group.make()
            weights = rng.multinomial(len(table), np.full(len(table), 1.0 / len(table)), size=5)
            sums = weights @ table
            stacked = comp.family.unit_scores(group.name, sums, comp.cfg)
            for r in range(5):
                one = comp.family.unit_scores(group.name, sums[r], comp.cfg)
                for key in group.keys:
                    assert float(stacked[key][r]) == pytest.approx(float(one[key]), abs=1e-12), (family, key)


def test_bank_counts_by_hand():
    """Two comments worked by hand: one entity right and one spurious in the first; classes 0->0 and 1->2."""
    import types
    from scorer.tasks.bank_comments import COMMENT_COLUMNS, FAMILY
    from scorer.tasks._per_unit import Each

    cfg = types.SimpleNamespace(options={"ner_weight": 0.5})
    # comment 1: tp 1, pred 2, gold 1, class cell (0, 0); comment 2: tp 0, pred 0, gold 1, cell (1, 2)
    cells = np.zeros((2, 9))
    cells[0, 0 * 3 + 0] = cells[1, 1 * 3 + 2] = 1
    columns = {"right": Each(np.array([1, 0])), "predicted": Each(np.array([2, 0])), "gold": Each(np.array([1, 1])),
               "class_cell": Each(cells)}
    from scorer.tasks._per_unit import column_sums
    got = FAMILY.unit_scores("comments", column_sums(COMMENT_COLUMNS.ordered(columns)), cfg)
    # P = 1/2, R = 1/2, F1 = 1/2; accuracy 1/2; kappa: po = 1/2, pe = (1*1 + 1*0 + 0*1) / 4 = 1/4 -> 1/3
    assert float(got["ner_f1"]) == pytest.approx(0.5) and float(got["class_accuracy"]) == pytest.approx(0.5)
    assert float(got["kappa"]) == pytest.approx(1 / 3) and float(got["score"]) == pytest.approx(0.5 * 0.5 + 0.5 / 3)


def test_a_schema_reads_columns_by_name_and_refuses_a_table_of_another_shape():
    from scorer.tasks._per_unit import PER_CLASS, Each, Ones, Schema

    schema = Schema("n", ("tp", PER_CLASS), ("gold", PER_CLASS), ("cells", 4))
    sums = np.arange(1.0 + 3 + 3 + 4)   # three classes: n, tp x3, gold x3, cells x4
    named = schema.read(np.stack([sums, 10 * sums]))
    assert named["n"].tolist() == [0.0, 0.0] and named["gold"].tolist() == [[4, 5, 6], [40, 50, 60]]
    assert named["cells"][0].tolist() == [7, 8, 9, 10]
    with pytest.raises(ValueError):
        schema.read(np.zeros(1 + 3 + 2 + 4))   # per-class blocks of unequal width
    with pytest.raises(ValueError):
        schema.ordered({"n": Ones(2), "tp": Each(np.zeros((2, 3))), "gold": Each(np.zeros((2, 2))),
                        "cells": Each(np.zeros((2, 4)))})
    with pytest.raises(ValueError):
        schema.ordered({"n": Ones(2), "tp": Each(np.zeros((2, 3))), "gold": Each(np.zeros((2, 3)))})


def test_every_demo_result_names_the_unit_noun_in_both_languages():
    from scorer.tasks import families

    for family in families().values():
        texts = family.unit_noun.texts
        assert texts["en"] and texts["zh"] and texts["en"] != texts["zh"], family.name
