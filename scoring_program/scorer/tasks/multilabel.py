"""Multi-label classification scored as sets and as ranked lists.

Reference data: ``labels.txt`` (one class name per line) and ``gold.csv`` with
columns ``id,labels`` (class names separated by spaces; empty = no label) and
an optional ``grades`` column (one integer relevance grade >= 0 per label, in
the same order; without it every gold label has grade 1).

Submission: one CSV ``id,labels`` with the labels of each sample separated by
spaces, most confident first, or ``id,labels,scores`` with one number per
label. With scores, the ranking is by decreasing score; equal scores keep the
order in which the participant listed them. Every test id needs a row; an
empty ``labels`` cell is an empty prediction.

The predicted set is the whole list, or its first ``set_top_k`` labels, or the
labels with score >= ``set_threshold`` (both: both conditions). Ranked metrics
always use the whole list, cut at each k of ``k``.

>>> sorted(FAMILY.leaderboard_keys(FAMILY_DEFAULTS))[:3]
['class_avg_f1', 'class_avg_precision', 'class_avg_recall']
"""
import csv
import io
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import numpy as np
import pandas as pd

from .. import report
from ..config import Check, Option
from ..discovery import SubmittedFile
from ..errors import ReferenceDataError, SubmissionError, clip, where
from ..metrics import label_ranking
from ..metrics import multilabel as ml
from ..metrics import ranking
from ..tabular import (check_ids, positions_of, read_public_table, read_reference_bytes, read_reference_table,
                       read_submission_table, reference_ids)
from ..tagcodes import encode, split_tokens
from ..textio import decode as decode_text, normalise_newlines
from .base import Reference, Result, TaskFamily

COLUMNS = ("id", "labels")
SCORED_COLUMNS = ("id", "labels", "scores")
MAX_K = 1000
PUBLIC_INPUTS = "test_public.csv"


def _ks(value):
    """The cutoffs of option ``k``: an integer or a list of distinct integers."""
    values = value if isinstance(value, list) else [value]
    return [int(v) for v in values]


def _k_ok(value):
    values = value if isinstance(value, list) else [value]
    return (0 < len(values) <= 5 and len(set(values)) == len(values)
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_K for v in values))


def _optional(test):
    return lambda v: v is None or (not isinstance(v, bool) and test(v))


OPTIONS = {
    "k": Option(3, Check(_k_ok, "an integer in [1, %d] or a list of up to 5 distinct ones" % MAX_K),
                "cutoffs of MAP@k, nDCG@k and ERR@k"),
    "map_denominator": Option("relevant", ranking.MAP_DENOMINATORS,
                              "AP@k divides by |relevant| (trec_eval, the source document) or min(k, |relevant|)"),
    "ndcg_gain": Option("exponential", ranking.GAINS, "nDCG gain: 2^g - 1 (exponential) or g (linear)"),
    "err_max_grade": Option(None, Check(_optional(lambda v: isinstance(v, int) and 1 <= v <= 30),
                                        "null (the largest grade in the gold file) or an integer in [1, 30]"),
                            "g_max of ERR: R = (2^g - 1) / 2^g_max"),
    "set_top_k": Option(None, Check(_optional(lambda v: isinstance(v, int) and 1 <= v <= MAX_K),
                                    "null (the whole list) or an integer in [1, %d]" % MAX_K),
                        "the predicted set is the first set_top_k labels of the list"),
    "set_threshold": Option(None, Check(_optional(lambda v: isinstance(v, (int, float)) and np.isfinite(v)),
                                        "null or a finite number"),
                            "the predicted set is the labels with score >= set_threshold"),
    "beta": Option(None, Check(_optional(lambda v: isinstance(v, (int, float)) and 0 < v <= 100),
                               "null (no F-beta columns) or a number in (0, 100]"),
                   "beta of the F-beta columns"),
    "classes": Option("gold_or_predicted", ml.CLASS_RULES, "which classes the class averages cover"),
    "both_empty": Option("zero", ml.BOTH_EMPTY_RULES,
                         "what a sample with empty gold and empty prediction scores in sample averages"),
}
FAMILY_DEFAULTS = {key: spec.default for key, spec in OPTIONS.items()}

SET_KEYS = ["micro_f1", "micro_precision", "micro_recall", "class_avg_f1", "class_avg_precision",
            "class_avg_recall", "macro_f1", "sample_avg_f1", "sample_avg_precision", "sample_avg_recall"]
FBETA_KEYS = ["micro_fbeta", "macro_fbeta", "sample_avg_fbeta"]
RANK_KEYS = ("map_at_%d", "ndcg_at_%d", "err_at_%d")
# scikit-learn's label ranking measures and macro average precision, on the score matrix (lower is better for
# coverage_error and label_ranking_loss)
LABEL_RANKING_KEYS = ["label_ranking_avg_precision", "coverage_error", "label_ranking_loss", "macro_ap"]


@dataclass
class MultilabelReference(Reference):
    labels: Tuple[str, ...] = ()
    grades: np.ndarray = None     # (n_samples, n_classes) gold grade, 0 = not relevant
    max_grade: int = 1            # largest grade in the whole gold file (all boards)


@dataclass
class MultilabelSubmission:
    ranked: np.ndarray            # (n_samples, depth) class code at each rank, -1 past the list end
    predicted: np.ndarray         # (n_samples, n_classes) bool: the predicted set
    warnings: List[str] = field(default_factory=list)
    ranked_scores: Optional[np.ndarray] = None  # (n_samples, depth) score at each rank; None: no scores column


class Multilabel(TaskFamily):
    name = "multilabel"
    title = "Multi-label classification"
    default_files = {"gold": "gold.csv", "labels": "labels.txt", "submission": "*.csv"}
    options = OPTIONS

    def leaderboard_keys(self, options):
        keys = list(SET_KEYS)
        if options.get("beta") is not None:
            keys += FBETA_KEYS
        for k in _ks(options["k"]):
            keys += [template % k for template in RANK_KEYS]
        return keys + LABEL_RANKING_KEYS

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        labels = _read_labels(cfg)
        name = cfg.files["gold"]
        frame = read_reference_table(cfg, "gold", ["id", "labels"] + ([cfg.usage_column] if cfg.usage_column else []))
        ids = reference_ids(frame, name)
        line = np.arange(len(frame)) + 2
        tokens = _encode_labels(frame["labels"], labels)
        bad = tokens.first(tokens.codes < 0, line)
        if bad is not None:
            raise ReferenceDataError("%s: %r is not in %s." % (where(name, int(line[bad.row]), unit=ids[bad.row],
                                                                    column="labels"), bad.text, cfg.files["labels"]))
        bad = tokens.first(tokens.duplicated(len(labels)), line)
        if bad is not None:
            raise ReferenceDataError("%s: label %r is listed twice." % (
                where(name, int(line[bad.row]), unit=ids[bad.row], column="labels"), bad.text))
        if "grades" in frame.columns:
            values, counts = _numbers(frame["grades"])
            wrong = np.flatnonzero(counts != tokens.counts)
            if len(wrong):
                i = int(wrong[0])
                raise ReferenceDataError("%s: %d grades for %d labels." % (
                    where(name, int(line[i]), unit=ids[i], column="grades"), counts[i], tokens.counts[i]))
            bad_grade = ~(np.isfinite(values) & (values >= 0) & (values <= 30) & (values == np.round(values)))
            if bad_grade.any():
                j = int(np.flatnonzero(bad_grade)[0])
                i = int(tokens.row[j])
                raise ReferenceDataError("%s: grade %r is not an integer in [0, 30]." % (
                    where(name, int(line[i]), unit=ids[i], column="grades"),
                    _token_text(frame["grades"], i, int(tokens.position[j]))))
            grade_of_token = values.astype(np.int64)
        else:
            grade_of_token = np.ones(len(tokens.codes), dtype=np.int64)
        grades = np.zeros((len(frame), len(labels)), dtype=np.int16)
        grades[tokens.row, tokens.codes] = grade_of_token
        max_grade = max(1, int(grades.max())) if grades.size else 1
        cap = cfg.options["err_max_grade"]
        if cap is not None and max_grade > cap:
            raise ReferenceDataError("%s has grade %d, above options.err_max_grade %d; raise err_max_grade."
                                     % (name, max_grade, cap))
        units = ids.to_numpy(dtype=object)
        usage = frame[cfg.usage_column].to_numpy(dtype=object) if cfg.usage_column else None
        return MultilabelReference(units=units, strata=_strata(grades > 0, labels), usage=usage,
                                   notes=_reference_notes(grades > 0, labels, name), labels=tuple(labels),
                                   grades=grades, max_grade=max_grade)

    def public_reference(self, folder, cfg):
        """Units from the public ``test_public.csv`` (id,text) and the class names from ``labels.txt``: no answers."""
        frame = read_public_table(folder, PUBLIC_INPUTS, ["id"])
        if frame is None:
            return None
        labels = _read_labels(cfg)
        units = frame["id"].str.strip().to_numpy(dtype=object)
        return MultilabelReference(units=units, strata=np.full(len(units), "(none)"), labels=tuple(labels),
                                   grades=np.zeros((len(units), len(labels)), dtype=np.int16))

    # -- submission --------------------------------------------------------------------------
    def load_submission(self, files, ref, cfg):
        file, columns = _with_columns(files["submission"])
        threshold = cfg.options["set_threshold"]
        if threshold is not None and "scores" not in columns:
            raise SubmissionError("%s: this task keeps the labels with score >= %s, so the file needs a scores "
                                  "column; write the header id,labels,scores and one score per label."
                                  % (where(file.name, 1), threshold))
        frame, line = read_submission_table(file, columns)
        name, file = file.name, None  # the raw bytes are not needed any more
        ids = frame["id"].str.strip()
        empty = np.flatnonzero((ids == "").to_numpy())
        if len(empty):
            raise SubmissionError("%s is empty; every row needs the id of a test sample."
                                  % where(name, int(line[empty[0]]), column="id"))
        check_ids(ids, line, ref.units, name)
        ids = ids.to_numpy(dtype=object)
        n_classes = len(ref.labels)

        tokens = _encode_labels(frame["labels"], ref.labels)
        bad = tokens.first(tokens.codes < 0, line)
        if bad is not None:
            raise SubmissionError("%s: %s" % (where(name, int(line[bad.row]), unit=ids[bad.row], column="labels"),
                                              _unknown_label_hint(bad, ref.labels)))
        bad = tokens.first(tokens.duplicated(n_classes), line)
        if bad is not None:
            raise SubmissionError("%s: label %r is listed twice (position %d); list each label at most once."
                                  % (where(name, int(line[bad.row]), unit=ids[bad.row], column="labels"),
                                     bad.text, bad.position + 1))
        scores = None
        if "scores" in columns:
            scores = _read_scores(frame["scores"], tokens, line, ids, name)
        # rows are checked in file order first, so that every row problem comes before a missing id
        position = positions_of(ids, ref.units, name)
        sub = _build_submission(tokens, scores, len(frame), n_classes, cfg.options)
        return MultilabelSubmission(ranked=sub.ranked[position], predicted=sub.predicted[position],
                                    ranked_scores=None if scores is None else sub.ranked_scores[position])

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, units, cfg):
        opts = cfg.options
        beta = float(opts["beta"]) if opts["beta"] is not None else 1.0
        rows = pd.Index(ref.units).isin(pd.Index(units))
        grades = ref.grades[rows]
        gold = grades > 0
        counts = ml.count_sets(sub.predicted[rows], gold)
        mp, mr, mf = ml.micro(counts)
        mask = ml.class_mask(counts, opts["classes"])
        cp, cr, cf1, macro_f1, macro_fb = ml.class_averaged(counts, mask, beta)
        samples = ml.per_sample(counts, beta)
        rule = opts["both_empty"]
        mean = lambda v: ml.sample_mean(v, samples.both_empty, rule)  # noqa: E731
        scores = {"micro_f1": mf, "micro_precision": mp, "micro_recall": mr, "class_avg_f1": cf1,
                  "class_avg_precision": cp, "class_avg_recall": cr, "macro_f1": macro_f1,
                  "sample_avg_f1": mean(samples.f1), "sample_avg_precision": mean(samples.precision),
                  "sample_avg_recall": mean(samples.recall)}
        if opts["beta"] is not None:
            scores.update(micro_fbeta=float(ml.micro(counts, beta)[2]), macro_fbeta=macro_fb,
                          sample_avg_fbeta=mean(samples.fbeta))

        ranked = sub.ranked[rows]
        list_empty = (ranked[:, 0] < 0) if ranked.shape[1] else np.ones(len(ranked), dtype=bool)
        ranked_both_empty = list_empty & ~gold.any(axis=1)
        g_max = opts["err_max_grade"] if opts["err_max_grade"] is not None else ref.max_grade
        rank_rows = []
        for k in _ks(opts["k"]):  # one pass per cutoff
            at = ranking.grades_at_ranks(ranked, grades, k)
            values = (ranking.average_precision(at, grades, k, opts["map_denominator"]),
                      ranking.ndcg(at, grades, k, opts["ndcg_gain"]), ranking.err(at, g_max))
            row = [ml.sample_mean(v, ranked_both_empty, rule) for v in values]
            scores.update(zip([t % k for t in RANK_KEYS], row))
            rank_rows.append([k] + row)

        listed = label_ranking.Listed.from_ranked(
            ranked, None if sub.ranked_scores is None else sub.ranked_scores[rows])
        lrap, coverage, loss = label_ranking.per_sample(listed, gold)
        class_ap = label_ranking.per_class_ap(listed, gold)
        average = lambda v: float(v.mean()) if len(v) else 0.0  # noqa: E731
        scores.update(label_ranking_avg_precision=average(lrap), coverage_error=average(coverage),
                      label_ranking_loss=average(loss), macro_ap=average(class_ap[mask]))

        sections = [
            _averages_section(scores, mask, opts),
            _class_section(ref.labels, counts, mask, class_ap),
            _ranking_section(rank_rows, opts, g_max),
            _label_ranking_section(scores, mask, opts, sub.ranked_scores is not None),
            _sizes_section(counts, samples.both_empty, ranked_both_empty, rule),
        ]
        summary = "%d samples, %d classes; predicted set: %s." % (int(rows.sum()), len(ref.labels),
                                                                 _set_rule(opts))
        return Result(scores, sections, summary)


# -- reading ---------------------------------------------------------------------------------
def _read_labels(cfg):
    name = cfg.files["labels"]
    text = normalise_newlines(decode_text(read_reference_bytes(cfg, "labels"), name, ReferenceDataError))
    labels = [l.strip() for l in text.split("\n") if l.strip()]
    if not labels:
        raise ReferenceDataError("%s lists no label; write one class name per line." % name)
    for i, label in enumerate(labels):
        if len(label.split()) != 1 or "\0" in label:
            raise ReferenceDataError("%s: label %r contains white space; class names are single words." % (name, label))
    seen = pd.Index(labels)
    if seen.duplicated().any():
        raise ReferenceDataError("%s lists %r twice." % (name, seen[seen.duplicated()][0]))
    return labels


def _with_columns(file):
    """The file (read once) and its columns: with or without ``scores``, judged from the header."""
    data = file.read_bytes()
    try:  # the header line alone is enough; a cut inside a multi-byte character falls back to all
        header = decode_text(data[:max(data.find(b"\n"), 0) or len(data)], file.name, SubmissionError)
    except SubmissionError:
        header = decode_text(data, file.name, SubmissionError)
    header = normalise_newlines(header).split("\n", 1)[0]
    names = [h.strip().strip('"').lstrip("\ufeff").lower() for h in header.split(",")]
    columns = SCORED_COLUMNS if "scores" in names else COLUMNS
    return SubmittedFile(file.name, lambda: data), columns


@dataclass
class _Token:
    row: int
    position: int
    text: str


@dataclass
class _Tokens:
    """Space-separated labels of every row: class code (-1 unknown), row and position of each token."""

    codes: np.ndarray
    counts: np.ndarray
    row: np.ndarray
    position: np.ndarray
    column: pd.Series

    def duplicated(self, n_classes):
        key = self.row.astype(np.int64) * (n_classes + 1) + self.codes + 1
        order = np.argsort(key, kind="stable")
        dup = np.zeros(len(key), dtype=bool)
        dup[order[1:]] = key[order[1:]] == key[order[:-1]]
        return dup

    def first(self, flags, line):
        """The flagged token on the earliest file line (then the earliest position), or None."""
        hits = np.flatnonzero(flags)
        if not len(hits):
            return None
        j = int(hits[np.lexsort((self.position[hits], line[self.row[hits]]))[0]])
        row, pos = int(self.row[j]), int(self.position[j])
        return _Token(row, pos, split_tokens(self.column.iloc[row])[pos])


def _encode_labels(column, labels):
    enc = encode(column.tolist(), list(labels))
    counts = enc.counts.astype(np.int64)
    row = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    position = (np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)).astype(np.int32)
    return _Tokens(enc.codes.astype(np.int32), counts, row, position, column)


def _token_counts(strings):
    """Tokens in each string, cut as ``encode`` cuts labels (at every byte <= 32), on one joined buffer.

    >>> _token_counts(["1 2", "", "  3\t4  5 ", "6\x0b7"]).tolist()
    [2, 0, 3, 2]
    """
    buf = np.frombuffer("\0".join(strings).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    is_sep = buf <= 32
    starts = np.flatnonzero(~is_sep & np.concatenate(([True], is_sep[:-1])))
    rows = np.searchsorted(np.flatnonzero(buf == 0), starts, side="right")
    return np.bincount(rows, minlength=len(strings)).astype(np.int64)


def _numbers(column):
    """(values, count per row) of space-separated numbers; a token that is not a number is NaN.

    The tokens go one per line through pandas' C number parser; only when some
    token is not a plain number does the slower per-token conversion run.

    >>> v, c = _numbers(pd.Series(["0.5 1e-3", "", "x inf"]))
    >>> v.tolist(), c.tolist()
    ([0.5, 0.001, nan, inf], [2, 0, 2])
    """
    strings = column.tolist()
    counts = _token_counts(strings)
    if not counts.sum():
        return np.zeros(0), counts
    lines = "\n".join(strings).replace(" ", "\n").replace("\t", "\n").replace("\r", "\n")
    values = None
    if not any(c in lines for c in _OTHER_CONTROLS):  # else a line could hold two tokens
        values = _parse_lines(lines)
    if values is None or len(values) != counts.sum():
        values = pd.to_numeric(pd.Series(split_tokens(" ".join(strings)), dtype=object),
                               errors="coerce").to_numpy(dtype=float)
    return values, counts


_OTHER_CONTROLS = [chr(c) for c in range(32) if chr(c) not in "\t\n\r"]


def _parse_lines(lines):
    """One float per non-blank line through pandas' C parser, or None when some line is not a number."""
    try:
        return pd.read_csv(io.StringIO(lines), header=None, names=["v"], dtype=np.float64, sep="\t",
                           quoting=csv.QUOTE_NONE, na_filter=False, skip_blank_lines=True,
                           engine="c")["v"].to_numpy()
    except ValueError:  # includes pandas' ParserError
        return None


def _token_text(column, row, position):
    return split_tokens(column.iloc[row])[position]


def _read_scores(column, tokens, line, ids, name):
    values, counts = _numbers(column)
    wrong = np.flatnonzero(counts != tokens.counts)
    if len(wrong):
        i = int(wrong[np.argmin(line[wrong])])
        raise SubmissionError("%s: %d scores for %d labels; give one score per label, in the order of the labels, "
                              "separated by spaces." % (where(name, int(line[i]), unit=ids[i], column="scores"),
                                                        counts[i], tokens.counts[i]))
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        j = int(bad[np.lexsort((tokens.position[bad], line[tokens.row[bad]]))[0]])
        i = int(tokens.row[j])
        raise SubmissionError("%s: score %d is %r, which is not a finite number; write plain decimals such as 0.25."
                              % (where(name, int(line[i]), unit=ids[i], column="scores"), tokens.position[j] + 1,
                                 clip(_token_text(column, i, int(tokens.position[j])))))
    return values


def _build_submission(tokens, scores, n_rows, n_classes, opts):
    """Dense rank and set matrices; with scores, a stable sort by decreasing score inside each row."""
    codes, row, position = tokens.codes, tokens.row, tokens.position
    if scores is not None and (np.diff(scores)[row[1:] == row[:-1]] > 0).any():
        order = np.lexsort((-scores, row))  # stable: equal scores keep the listed order
        codes, scores = codes[order], scores[order]
    depth = int(tokens.counts.max()) if n_rows else 0
    ranked = np.full((n_rows, depth), -1, dtype=np.int16)
    ranked[row, position] = codes
    ranked_scores = None
    if scores is not None:
        ranked_scores = np.full((n_rows, depth), np.nan)
        ranked_scores[row, position] = scores
    keep = np.ones(len(codes), dtype=bool)
    if opts["set_top_k"] is not None:
        keep &= position < opts["set_top_k"]
    if opts["set_threshold"] is not None:
        keep &= scores >= opts["set_threshold"]
    predicted = np.zeros((n_rows, n_classes), dtype=bool)
    predicted[row[keep], codes[keep]] = True
    return MultilabelSubmission(ranked=ranked, predicted=predicted, ranked_scores=ranked_scores)


def _unknown_label_hint(bad, labels):
    for sep in (",", ";", "|", "\uff0c"):
        if sep in bad.text:
            return ("%r is not a label; separate the labels with single spaces, not %r." % (clip(bad.text), sep))
    shown = ", ".join(labels[:8]) + (", ..." if len(labels) > 8 else "")
    return ("label %d is %r, which is not a label of this task; use only the %d class names of the task (%s), "
            "spelled exactly." % (bad.position + 1, clip(bad.text), len(labels), shown))


def _strata(gold, labels):
    """Each sample's rarest gold label (by count in the whole gold; ties: the first class), or '(none)'.

    These are the strata of the board split.

    >>> _strata(np.array([[1, 1], [1, 0], [0, 0]], bool), ["a", "b"]).tolist()
    ['b', 'a', '(none)']
    """
    freq = gold.sum(axis=0)
    rarest = np.full(len(gold), -1, dtype=np.int64)
    for c in np.lexsort((-np.arange(len(freq)), -freq)):  # one pass per class, the rarest written last
        rarest[gold[:, c]] = c
    names = np.asarray(list(labels) + ["(none)"], dtype=object)
    return names[rarest].astype(str)


def _reference_notes(gold, labels, name):
    notes = []
    absent = [labels[c] for c in np.flatnonzero(gold.sum(axis=0) == 0)]
    if absent:
        notes.append("%s: %d class(es) of the label list have no gold sample: %s." % (name, len(absent), ", ".join(absent)))
    empty = int((~gold.any(axis=1)).sum())
    if empty:
        notes.append("%s: %d sample(s) have no gold label (see option both_empty)." % (name, empty))
    return notes


# -- report ----------------------------------------------------------------------------------
def _set_rule(opts):
    parts = []
    if opts["set_top_k"] is not None:
        parts.append("the first %d labels of each list" % opts["set_top_k"])
    if opts["set_threshold"] is not None:
        parts.append("labels with score >= %s" % opts["set_threshold"])
    return " and ".join(parts) if parts else "every listed label"


def _averages_section(scores, mask, opts):
    rows = [
        ["micro (pooled counts; ML-GCN OP/OR/OF1)", scores["micro_precision"], scores["micro_recall"],
         scores["micro_f1"]],
        ["class-averaged C-P / C-R, C-F1 = 2 CP CR / (CP + CR)", scores["class_avg_precision"],
         scores["class_avg_recall"], scores["class_avg_f1"]],
        ["macro F1 (mean of per-class F1)", "", "", scores["macro_f1"]],
        ["sample-averaged (mean over samples)", scores["sample_avg_precision"], scores["sample_avg_recall"],
         scores["sample_avg_f1"]],
    ]
    if opts["beta"] is not None:
        rows.append(["F-beta, beta = %s: micro / macro / sample-averaged" % opts["beta"],
                     scores["micro_fbeta"], scores["macro_fbeta"], scores["sample_avg_fbeta"]])
    note = ("Class averages cover %d class(es) (rule %s). A ratio with a zero denominator is 0; a sample with "
            "no gold label and no predicted label scores by rule %s." % (int(mask.sum()), opts["classes"],
                                                                          opts["both_empty"]))
    return report.Section("Set metrics", [report.Table(["average", "precision", "recall", "F1"], rows),
                                          report.Text(note, "note")])


def _class_section(labels, counts, mask, class_ap):
    p, r, f1, _ = ml.per_class(counts)
    rows = [[labels[c], int(counts.gold_class[c]), int(counts.pred_class[c]), int(counts.tp_class[c]),
             float(p[c]), float(r[c]), float(f1[c]), float(class_ap[c]), "yes" if mask[c] else "no"]
            for c in range(len(labels))]
    return report.Section("Per class", [report.Table(
        ["class", "gold", "predicted", "correct", "precision", "recall", "F1", "average precision",
         "in class averages"], rows)])


def _label_ranking_section(scores, mask, opts, has_scores):
    rows = [["label ranking average precision (higher is better)", scores["label_ranking_avg_precision"]],
            ["coverage error (labels to go down the ranking to find every gold label; lower is better)",
             scores["coverage_error"]],
            ["label ranking loss (share of wrongly ordered gold/other pairs; lower is better)",
             scores["label_ranking_loss"]],
            ["macro average precision (mean over %d classes, rule %s)" % (int(mask.sum()), opts["classes"]),
             scores["macro_ap"]]]
    note = ("scikit-learn's definitions on the score matrix: %s; a label not listed is below every listed label "
            "of every sample, tied with the other unlisted ones. Tied scores stay tied here (the ranked metrics "
            "above break ties by the listed order). A sample with no gold label scores 1, 0 and 0 on the first "
            "three (as scikit-learn); a class with no gold sample has average precision 0."
            % ("the submitted scores" if has_scores else "no scores column, so the label at position p (from 0) "
                                                         "scores -p"))
    return report.Section("Label ranking (scikit-learn)", [report.Table(["measure", "value"], rows),
                                                           report.Text(note, "note")])


def _ranking_section(rows, opts, g_max):
    note = ("AP@k divides by %s; nDCG gain %s, discount log2(rank + 1); ERR with g_max = %d. The ranking is the "
            "list order (by decreasing score when scores are given; equal scores keep the listed order); a sample "
            "with no relevant label scores 0 unless its list is empty too (rule %s)."
            % ("|relevant|" if opts["map_denominator"] == "relevant" else "min(k, |relevant|)",
               "2^g - 1" if opts["ndcg_gain"] == "exponential" else "g (linear)", g_max, opts["both_empty"]))
    return report.Section("Ranked metrics", [report.Table(["k", "MAP@k", "nDCG@k", "ERR@k"], rows),
                                             report.Text(note, "note")])


def _sizes_section(counts, set_both_empty, list_both_empty, rule):
    n = len(counts.gold_sample)
    rows = [
        ["samples", n],
        ["gold labels per sample (mean)", float(counts.gold_sample.mean()) if n else 0.0],
        ["predicted labels per sample (mean)", float(counts.pred_sample.mean()) if n else 0.0],
        ["samples with no gold label", int((counts.gold_sample == 0).sum())],
        ["samples with an empty predicted set", int((counts.pred_sample == 0).sum())],
        ["empty gold and empty set (rule %s)" % rule, int(set_both_empty.sum())],
        ["empty gold and empty list (ranked metrics)", int(list_both_empty.sum())],
    ]
    return report.Section("Set sizes", [report.Table(["what", "value"], rows)])


FAMILY = Multilabel()
