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

>>> FAMILY.leaderboard_keys({"k": [1, 5], "beta": None})[-7:-4]
['map_at_5', 'ndcg_at_5', 'err_at_5']
"""
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from .. import advice, background, digests, report
from ..config import Check, Option
from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics import label_ranking
from ..metrics.averages import CLASS_RULES, class_mask, class_mean
from ..metrics import multilabel as ml
from ..metrics import ranking
from ..metrics.prf import prf, safe_div
from ..problems import Message
from ..tables import (match_ids, missing_ids, public_table, read_reference_bytes, reference_table,
                      reference_units)
from ..textio import decode as decode_text, normalise_newlines
from ..bytelevel.tokens import coded, numbers, uncoded
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units
from ._per_unit import PER_CLASS, Each, Ones, Schema

COLUMNS = ("id", "labels")
MAX_K = 1000

UNKNOWN_LABEL = Message("multilabel.unknown_label", "{where}: label {pos} is {token}, which is not a label of this "
                        "task; use only the {n} class names of the task ({shown}), spelled exactly.",
                        "{where}：第 {pos} 个标签 {token} 不是本任务的标签；只能使用本任务的 {n} 个类别名（{shown}），拼写须完全一致。")
LABEL_SEPARATOR = Message("multilabel.label_separator", "{where}: {token} is not a label; separate the labels with "
                          "single spaces, not {sep}.", "{where}：{token} 不是标签；标签之间请用单个空格分隔，不要用 {sep}。")
REPEATED_LABEL = Message("multilabel.repeated_label", "{where}: label {token} is listed twice (position {pos}); list "
                         "each label at most once.", "{where}：标签 {token} 出现了两次（第 {pos} 个）；每个标签最多写一次。")
SCORE_COUNT = Message("multilabel.score_count", "{where}: {given} scores for {n} labels; give one score per label, in "
                      "the order of the labels, separated by spaces.",
                      "{where}：{n} 个标签却给了 {given} 个分数；每个标签一个分数，顺序与标签相同，用空格分隔。")
BAD_SCORE = Message("multilabel.bad_score", "{where}: score {pos} is {token}, which is not a finite number; write "
                    "plain decimals such as 0.25.", "{where}：第 {pos} 个分数 {token} 不是有限的数；请写普通小数，例如 0.25。")
NEEDS_SCORES = Message("multilabel.needs_scores", "{where}: this task keeps the labels with score >= {threshold}, so "
                       "the file needs a scores column; write the header id,labels,scores and one score per label.",
                       "{where}：本任务只保留分数 >= {threshold} 的标签，因此文件需要 scores 列；请写表头 id,labels,scores，"
                       "每个标签一个分数。")
UNIT = Message("multilabel.unit", "samples", "样本")
CLASS_CHART = Message("multilabel.report.class_chart", "Precision and recall per class, classes sorted by gold count",
                      "各类别的精确率和召回率，按标准答案中的数量排序")
CLASS_CHART_CUT = Message("multilabel.report.class_chart_cut", "The {shown} classes with the most gold labels of {n}; "
                          "the table has them all.", "显示标准答案标签最多的 {shown} 个类别（共 {n} 个）；表中列出全部类别。")
CHART_CLASSES = 30
ADVICE_SAME = Message("multilabel.advice_same", "all {n} rows list the same labels ({labels}): every sample gets the "
                      "same answer, which scores like a constant guess. Predict the labels of each sample.",
                      "全部 {n} 行列出的标签都相同（{labels}）：每个样本得到同一个答案，得分相当于常数猜测。请为每个样本分别预测标签。")
ADVICE_NO_LABEL = Message("multilabel.advice_no_label", "no row lists any label: every set measure will be 0 (a sample "
                          "whose gold has no label is the only one that can score). List the labels of each sample.",
                          "没有任何一行列出标签：所有集合指标都将为 0（只有金标准无标签的样本可能得分）。请为每个样本列出标签。")
ADVICE_BELOW = Message("multilabel.advice_below", "no score reaches {threshold}, so every predicted set is empty (this "
                       "task keeps the labels with score >= {threshold}) and every set measure will be 0. Give the "
                       "labels you predict a score of at least {threshold}.",
                       "没有任何分数达到 {threshold}，因此每个预测集合都为空（本任务只保留分数 >= {threshold} 的标签），"
                       "所有集合指标都将为 0。请给预测的标签至少 {threshold} 的分数。")
ADVICE_RANGE = Message("multilabel.advice_range", "{n} row(s) have scores outside [0, 1]: {ids}. This task keeps the "
                       "labels with score >= {threshold}, read as probabilities; write probabilities (for example "
                       "the sigmoid of a logit), not raw scores.",
                       "有 {n} 行的分数超出 [0, 1]：{ids}。本任务把分数当作概率，只保留分数 >= {threshold} 的标签；"
                       "请写概率（例如对 logit 取 sigmoid），不要写原始分数。")
GOLD_UNKNOWN = Message("reference.multilabel_unknown", "{where}: {token!r} is not in {labels}.", None)
GOLD_TWICE = Message("reference.multilabel_twice", "{where}: label {token!r} is listed twice.", None)
GOLD_GRADE_COUNT = Message("reference.multilabel_grade_count", "{where}: {given} grades for {n} labels.", None)
GOLD_GRADE = Message("reference.multilabel_grade", "{where}: grade {token!r} is not an integer in [0, 30].", None)
GOLD_ABOVE_CAP = Message("reference.multilabel_above_cap", "{file} has grade {grade}, above options.err_max_grade "
                         "{cap}; raise err_max_grade.", None)
NO_LABELS = Message("reference.multilabel_no_labels", "{file} lists no label; write one class name per line.", None)
LABEL_SPACE = Message("reference.multilabel_label_space", "{file}: label {label!r} contains white space; class names "
                      "are single words.", None)
LABEL_TWICE = Message("reference.multilabel_label_twice", "{file} lists {label!r} twice.", None)


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
                                        "null (the largest grade in the scored board's gold) or an integer in [1, 30]"),
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
    "classes": Option("gold_or_predicted", CLASS_RULES, "which classes the class averages cover"),
    "both_empty": Option("zero", ml.BOTH_EMPTY_RULES,
                         "what a sample with empty gold and empty prediction scores in sample averages: 0, 1, "
                         "or left out (skip)"),
}

SET_KEYS = ["micro_f1", "micro_precision", "micro_recall", "class_avg_f1", "class_avg_precision",
            "class_avg_recall", "macro_f1", "sample_avg_f1", "sample_avg_precision", "sample_avg_recall"]
FBETA_KEYS = ["micro_fbeta", "macro_fbeta", "sample_avg_fbeta"]
# the keys of the per-sample counts and of the per-class counts (those of F-beta only with option beta)
SET_GROUP_KEYS = ("micro_f1", "micro_precision", "micro_recall", "sample_avg_f1", "sample_avg_precision",
                  "sample_avg_recall", "micro_fbeta", "sample_avg_fbeta")
CLASS_GROUP_KEYS = ("class_avg_f1", "class_avg_precision", "class_avg_recall", "macro_f1", "macro_fbeta")
RANK_KEYS = ("map_at_%d", "ndcg_at_%d", "err_at_%d")
# scikit-learn's label ranking measures and macro average precision, on the score matrix (lower is better for
# coverage_error and label_ranking_loss)
LABEL_RANKING_KEYS = ["label_ranking_avg_precision", "coverage_error", "label_ranking_loss", "macro_ap"]
# the per-sample tables: a sample's set counts (tp, predicted, gold), whether both sets are empty and its P, R, F1,
# F-beta; its labels per class (tp, predicted, gold: one column per class each); its AP, nDCG, ERR at a cutoff;
# its label-ranking measures. ``samples`` is 1 per sample (its sum counts them)
SET_COLUMNS = Schema("samples", "both_empty", "tp", "predicted", "gold", "precision", "recall", "f1", "fbeta")
CLASS_COLUMNS = Schema(("tp", PER_CLASS), ("predicted", PER_CLASS), ("gold", PER_CLASS))
RANKED_COLUMNS = Schema("samples", "both_empty", "ap", "ndcg", "err")
LABEL_RANKING_COLUMNS = Schema("samples", "lrap", "coverage", "loss")


SUMMARY = Message("multilabel.summary", "{n} samples, {classes} classes; predicted set: {rule}.",
                  "{n} 个样本，{classes} 个类别；预测集合：{rule}。")
TITLE = Message("multilabel.report.title", "Multi-label classification", "多标签分类")
RULE_TOP = Message("multilabel.report.rule_top", "the first {k} labels of each list", "每个列表的前 {k} 个标签")
RULE_THRESHOLD = Message("multilabel.report.rule_threshold", "labels with score >= {threshold}",
                         "分数 >= {threshold} 的标签")
RULE_BOTH = Message("multilabel.report.rule_both", "{top} and {threshold}", "{top}中{threshold}")
RULE_ALL = Message("multilabel.report.rule_all", "every listed label", "列出的全部标签")
# the values of options ``classes`` and ``both_empty`` as the page names them (the Chinese page describes them)
CLASS_RULE_NAMES = {
    "gold_or_predicted": Message("multilabel.report.classes_gold_or_predicted", "gold_or_predicted",
                                 "标准答案或预测中出现的类别"),
    "all": Message("multilabel.report.classes_all", "all", "全部类别"),
    "gold": Message("multilabel.report.classes_gold", "gold", "标准答案中出现的类别"),
}
BOTH_EMPTY_NAMES = {"zero": Message("multilabel.report.both_empty_zero", "zero", "记 0 分"),
                    "one": Message("multilabel.report.both_empty_one", "one", "记 1 分"),
                    "skip": Message("multilabel.report.both_empty_skip", "skip", "不计入平均")}
SET_TITLE = Message("multilabel.report.set_title", "Set metrics", "集合指标")
AVERAGE_HEADER = Message("multilabel.report.average", "average", "平均方式")
AVERAGE_ROWS = (
    Message("multilabel.report.micro", "micro (pooled counts; ML-GCN OP/OR/OF1)",
            "微平均（合并计数；即 ML-GCN 的 OP/OR/OF1）"),
    Message("multilabel.report.class_avg", "class-averaged C-P / C-R, C-F1 = 2 CP CR / (CP + CR)",
            "按类别平均的 C-P / C-R，C-F1 = 2 CP CR / (CP + CR)"),
    Message("multilabel.report.macro", "macro F1 (mean of per-class F1)", "宏平均 F1（各类别 F1 的平均值）"),
    Message("multilabel.report.sample_avg", "sample-averaged (mean over samples)", "样本平均（对各样本取平均）"),
)
FBETA_ROW = Message("multilabel.report.fbeta", "F-beta, beta = {beta}: micro / macro / sample-averaged",
                    "Fβ（β = {beta}）：微平均 / 宏平均 / 样本平均")
SET_NOTE = Message(
    "multilabel.report.set_note", "Class averages cover {n} class(es) (rule {classes}). A ratio with a zero "
    "denominator is 0; a sample with no gold label and no predicted label scores by rule {both_empty}.",
    "类别平均覆盖 {n} 个类别（规则：{classes}）。分母为 0 的比值记为 0；标准答案和预测都没有标签的样本{both_empty}。")
CLASS_TITLE = Message("multilabel.report.class_title", "Per class", "各类别")
CLASS_HEADERS = (Message("multilabel.report.class", "class", "类别"),
                 Message("multilabel.report.gold", "gold", "标准答案"),
                 Message("multilabel.report.predicted", "predicted", "预测"),
                 Message("multilabel.report.correct", "correct", "正确"),
                 report.SERIES_PRECISION, report.SERIES_RECALL, report.SERIES_F1,
                 Message("multilabel.report.class_ap", "average precision", "平均精度（AP）"),
                 Message("multilabel.report.in_averages", "in class averages", "计入类别平均"))
YES = Message("multilabel.report.yes", "yes", "是")
NO = Message("multilabel.report.no", "no", "否")
RANKED_TITLE = Message("multilabel.report.ranked_title", "Ranked metrics", "排序指标")
RANKED_HEADERS = (Message("multilabel.report.k", "k", "K"), Message("multilabel.report.map_k", "MAP@k", "MAP@K"),
                  Message("multilabel.report.ndcg_k", "nDCG@k", "nDCG@K"),
                  Message("multilabel.report.err_k", "ERR@k", "ERR@K"))
MAP_DENOMINATOR_NAMES = {"relevant": Message("multilabel.report.map_relevant", "|relevant|", "相关标签数"),
                         "min_k_relevant": Message("multilabel.report.map_min_k", "min(k, |relevant|)",
                                                   "K 与相关标签数中的较小者")}
GAIN_NAMES = {"exponential": Message("multilabel.report.gain_exponential", "2^g - 1", "2^等级 - 1"),
              "linear": Message("multilabel.report.gain_linear", "g (linear)", "等级（线性）")}
RANKED_NOTE = Message(
    "multilabel.report.ranked_note", "AP@k divides by {denominator}; nDCG gain {gain}, discount log2(rank + 1); ERR "
    "with g_max = {g_max}. The ranking is the list order (by decreasing score when scores are given; equal scores "
    "keep the listed order); a sample with no relevant label scores 0 unless its list is empty too (rule "
    "{both_empty}).",
    "AP@K 的分母：{denominator}；nDCG 增益：{gain}，折扣：(排名 + 1) 以 2 为底的对数；ERR 的最高等级："
    "{g_max}。排序即列表顺序（给出分数时按分数从高到低，分数相同的保持列出的顺序）；没有相关标签的样本得 0 分，"
    "除非其列表也为空（此时{both_empty}）。")
LABEL_RANKING_TITLE = Message("multilabel.report.label_ranking_title", "Label ranking (scikit-learn)",
                              "标签排序（scikit-learn）")
MEASURE_HEADERS = (Message("multilabel.report.measure", "measure", "指标"), report.VALUE)
LABEL_RANKING_ROWS = (
    Message("multilabel.report.lrap", "label ranking average precision (higher is better)",
            "标签排序平均精度（越高越好）"),
    Message("multilabel.report.coverage", "coverage error (labels to go down the ranking to find every gold label; "
            "lower is better)", "覆盖误差（沿排序向下找到全部标准答案标签所需经过的标签数；越低越好）"),
    Message("multilabel.report.ranking_loss", "label ranking loss (share of wrongly ordered gold/other pairs; lower "
            "is better)", "排序损失（标准答案标签与其他标签组成的标签对中顺序颠倒的比例；越低越好）"),
)
MACRO_AP_ROW = Message("multilabel.report.macro_ap", "macro average precision (mean over {n} classes, rule {classes})",
                       "宏平均精度（对 {n} 个类别取平均，规则：{classes}）")
LABEL_RANKING_NOTE = Message(
    "multilabel.report.label_ranking_note", "scikit-learn's definitions on the score matrix: {matrix}; a label not "
    "listed is below every listed label of every sample, tied with the other unlisted ones. Tied scores stay tied "
    "here (the ranked metrics above break ties by the listed order). A sample with no gold label scores 1, 0 and 0 "
    "on the first three (as scikit-learn); a class with no gold sample has average precision 0.",
    "按 scikit-learn 的定义在分数矩阵上计算（{matrix}）；每个样本中未列出的标签排在所有已列出的标签之后，未列出的"
    "标签彼此并列。分数相同的标签在这里保持并列（上文的排序指标按列出的顺序区分并列）。没有标准答案标签的样本在前三项"
    "上分别得 1、0 和 0（与 scikit-learn 相同）；没有标准答案样本的类别平均精度为 0。")
MATRIX_SCORES = Message("multilabel.report.matrix_scores", "the submitted scores", "使用提交的分数")
MATRIX_POSITIONS = Message("multilabel.report.matrix_positions", "no scores column, so the label at position p "
                           "(from 0) scores -p", "提交没有 scores 列，因此位置 p（从 0 起）的标签分数记为 -p")
SIZES_TITLE = Message("multilabel.report.sizes_title", "Set sizes", "集合大小")
WHAT = Message("multilabel.report.what", "what", "项目")
SIZE_ROWS = (
    Message("multilabel.report.samples", "samples", "样本数"),
    Message("multilabel.report.gold_per_sample", "gold labels per sample (mean)", "每个样本的标准答案标签数（平均）"),
    Message("multilabel.report.predicted_per_sample", "predicted labels per sample (mean)", "每个样本的预测标签数（平均）"),
    Message("multilabel.report.no_gold", "samples with no gold label", "没有标准答案标签的样本"),
    Message("multilabel.report.empty_set", "samples with an empty predicted set", "预测集合为空的样本"),
)
BOTH_EMPTY_SET_ROW = Message("multilabel.report.both_empty_set", "empty gold and empty set (rule {both_empty})",
                             "标准答案为空且预测集合为空（规则：{both_empty}）")
BOTH_EMPTY_LIST_ROW = Message("multilabel.report.both_empty_list", "empty gold and empty list (ranked metrics)",
                              "标准答案为空且列表为空（排序指标）")
NOTE_ABSENT = Message("multilabel.note.absent", "{file}: {n} class(es) of the label list have no gold sample: {labels}.",
                      "{file}：标签列表中有 {n} 个类别没有标准答案样本：{labels}。")
NOTE_EMPTY = Message("multilabel.note.empty", "{file}: {n} sample(s) have no gold label (see option both_empty).",
                     "{file}：有 {n} 个样本没有标准答案标签（见选项 both_empty）。")


@dataclass
class MultilabelContract(Contract):
    labels: Tuple[str, ...] = ()  # the class names (public: the task's vocabulary)


@dataclass
class MultilabelReference(Reference):
    grades: np.ndarray = None     # (n_samples, n_classes) gold grade, 0 = not relevant


@dataclass
class ParsedMultilabel:
    """A submission's table, its labels coded and the numbers of its scores column, not yet checked against the
    samples."""

    table: object
    labels: Tuple[str, ...]       # the class names the labels were coded against
    tokens: object                # the labels column's tokens (tokens.Tokens), coded
    scores: Optional[Tuple[np.ndarray, np.ndarray]]  # (every score, scores per row); None: no scores column


@dataclass
class MultilabelSubmission:
    ranked: np.ndarray            # (n_samples, depth) class code at each rank, -1 past the list end
    predicted: np.ndarray         # (n_samples, n_classes) bool: the predicted set
    ranked_scores: Optional[np.ndarray] = None  # (n_samples, depth) score at each rank; None: no scores column


# each score key's name on the page where the competition's columns give none
# ({k}: the cut-off of a ranked key)
KEY_LABELS = {
    "micro_f1": Message("multilabel.key.micro_f1", "Micro F1 (pooled)", "微平均 F1（合并计数）"),
    "micro_precision": Message("multilabel.key.micro_precision", "Micro precision", "微平均精确率"),
    "micro_recall": Message("multilabel.key.micro_recall", "Micro recall", "微平均召回率"),
    "class_avg_f1": Message("multilabel.key.class_avg_f1", "C-F1 (2 CP CR / (CP + CR))", "C-F1（2 CP CR / (CP + CR)）"),
    "class_avg_precision": Message("multilabel.key.class_avg_precision", "C-P (class-averaged)", "C-P（按类别平均）"),
    "class_avg_recall": Message("multilabel.key.class_avg_recall", "C-R (class-averaged)", "C-R（按类别平均）"),
    "macro_f1": Message("multilabel.key.macro_f1", "Macro F1 (mean per-class F1)", "宏平均 F1（各类别 F1 的平均）"),
    "sample_avg_f1": Message("multilabel.key.sample_avg_f1", "Sample-averaged F1", "按样本平均 F1"),
    "sample_avg_precision": Message("multilabel.key.sample_avg_precision", "Sample-averaged precision",
                                    "按样本平均精确率"),
    "sample_avg_recall": Message("multilabel.key.sample_avg_recall", "Sample-averaged recall", "按样本平均召回率"),
    "micro_fbeta": Message("multilabel.key.micro_fbeta", "Micro F-beta", "微平均 Fβ"),
    "macro_fbeta": Message("multilabel.key.macro_fbeta", "Macro F-beta", "宏平均 Fβ"),
    "sample_avg_fbeta": Message("multilabel.key.sample_avg_fbeta", "Sample-averaged F-beta", "按样本平均 Fβ"),
    "map_at_{k}": Message("multilabel.key.map_at_k", "MAP@{k}", "MAP@{k}"),
    "ndcg_at_{k}": Message("multilabel.key.ndcg_at_k", "nDCG@{k}", "nDCG@{k}"),
    "err_at_{k}": Message("multilabel.key.err_at_k", "ERR@{k}", "ERR@{k}"),
    "label_ranking_avg_precision": Message("multilabel.key.label_ranking_avg_precision", "Label ranking AP",
                                           "标签排序 AP"),
    "coverage_error": Message("multilabel.key.coverage_error", "Coverage error (lower is better)",
                              "覆盖误差（越低越好）"),
    "label_ranking_loss": Message("multilabel.key.label_ranking_loss", "Ranking loss (lower is better)",
                                  "排序损失（越低越好）"),
    "macro_ap": Message("multilabel.key.macro_ap", "Macro AP", "宏平均 AP"),
}


class Multilabel(TaskFamily):
    name = "multilabel"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    lower_is_better = ("coverage_error", "label_ranking_loss")
    reference_files = {"gold": "gold.csv", "labels": "labels.txt"}
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS, optional=("scores",)),)
    unit_files = {"gold": UnitFile("csv", "id", ("id", "labels", "grades"))}   # labels.txt holds the class names, which the kit has too
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
        table = reference_table(cfg, "gold", ["id", "labels"] + ([cfg.usage_column] if cfg.usage_column else []))
        ids, units = reference_units(table)
        line = table.line
        tokens = coded(table.cells("labels"), labels)

        def at(j, column="labels"):
            i = int(tokens.row[j])
            return dict(file=name, line=int(line[i]), unit=ids.text(i), column=column)

        bad = tokens.first_per_row(tokens.codes < 0)
        if bad:
            j = bad[min(bad)]
            raise ReferenceDataError(GOLD_UNKNOWN.at(**at(j), token=tokens.text(j), labels=cfg.files["labels"]))
        bad = tokens.first_per_row(tokens.duplicated())
        if bad:
            j = bad[min(bad)]
            raise ReferenceDataError(GOLD_TWICE.at(**at(j), token=tokens.text(j)))
        if "grades" in table.columns:
            values, counts = numbers(table.cells("grades"))
            wrong = np.flatnonzero(counts != tokens.counts)
            if len(wrong):
                i = int(wrong[0])
                raise ReferenceDataError(GOLD_GRADE_COUNT.at(name, int(line[i]), unit=ids.text(i), column="grades",
                                                             given=int(counts[i]), n=int(tokens.counts[i])))
            bad_grade = ~(np.isfinite(values) & (values >= 0) & (values <= 30) & (values == np.round(values)))
            if bad_grade.any():
                j = int(np.flatnonzero(bad_grade)[0])
                grades_tokens = uncoded(table.cells("grades"))
                raise ReferenceDataError(GOLD_GRADE.at(**at(j, "grades"), token=grades_tokens.text(j)))
            grade_of_token = values.astype(np.int64)
        else:
            grade_of_token = np.ones(len(tokens.codes), dtype=np.int64)
        grades = np.zeros((len(table), len(labels)), dtype=np.int8)  # grades are integers in [0, 30]
        grades[tokens.row, tokens.codes] = grade_of_token
        max_grade = max(1, int(grades.max())) if grades.size else 1
        cap = cfg.options["err_max_grade"]
        if cap is not None and max_grade > cap:
            raise ReferenceDataError(GOLD_ABOVE_CAP(file=name, grade=max_grade, cap=cap))
        usage = table.cells(cfg.usage_column).to_objects() if cfg.usage_column else None
        return MultilabelReference(MultilabelContract(units, tuple(labels)), strata=lambda: _strata(grades > 0, labels),
                                   usage=usage, notes=_reference_notes(grades > 0, labels, name, cfg.language), grades=grades)

    def public_contract(self, folder, cfg):
        """Units from the public ``test_public.csv`` (id,text) and the class names from ``labels.txt``: no answers."""
        table = public_table(folder, self.public_inputs, ["id"])
        if table is None:
            return None
        return MultilabelContract(reference_units(table)[1], tuple(_read_labels(cfg)))

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        # encoding, emptiness, separator, columns: in that order, then the scores column the threshold needs
        table = self.submission_file().read(files["submission"], SubmissionError)
        threshold = cfg.options["set_threshold"]
        if threshold is not None and "scores" not in table.columns:
            raise SubmissionError(NEEDS_SCORES.at(table.name, 1, threshold=threshold))
        # the scores are read on a second thread while the labels are coded (the class names are public: labels.txt)
        scores = background.start(numbers, table.cells("scores")) if "scores" in table.columns else None
        labels = tuple(_read_labels(cfg))
        tokens = coded(table.cells("labels"), labels)
        return ParsedMultilabel(table, labels, tokens, None if scores is None else scores.result())

    def read_submission(self, parsed, contract, cfg, problems):
        table, numbers_read = parsed.table, parsed.scores
        parsed.table = None  # taken: the file's bytes go as soon as every message is made
        line, name = table.line, table.name
        position = match_ids(table, "id", contract.units, problems)
        ids = table.cells("id").strip()
        labels = contract.labels
        tokens = parsed.tokens if parsed.labels == labels else coded(table.cells("labels"), labels)
        parsed.tokens = None

        def at(j, column="labels"):
            i = int(tokens.row[j])
            return dict(file=name, line=int(line[i]), unit=ids.text(i) or None, column=column)

        def unknown(j):
            quoted = clip(tokens.text(j, limit=40))   # from the token's first bytes: a long one is not copied
            for sep in (",", ";", "|", "\uff0c"):
                if tokens.holds(j, sep):
                    return LABEL_SEPARATOR.at(**at(j), token=repr(quoted), sep=repr(sep))
            shown = ", ".join(labels[:8]) + (", ..." if len(labels) > 8 else "")
            return UNKNOWN_LABEL.at(**at(j), pos=int(tokens.position[j]) + 1, token=repr(quoted), n=len(labels),
                                    shown=shown)

        first_unknown = tokens.first_per_row(tokens.codes < 0)
        problems.add_rows(list(first_unknown), line, lambda i: unknown(first_unknown[i]))
        first_twice = tokens.first_per_row(tokens.duplicated() & (tokens.codes >= 0))
        problems.add_rows(list(first_twice), line, lambda i: REPEATED_LABEL.at(
            **at(first_twice[i]), token=repr(tokens.text(first_twice[i])), pos=int(tokens.position[first_twice[i]]) + 1))
        scores = None
        if numbers_read is not None:
            scores = _checked_scores(numbers_read, table.cells("scores"), tokens, line, ids, name, problems)
            table.forget("scores")
        missing_ids(table, contract.units, position, problems)
        if problems:
            return None
        n_rows = len(table)
        tokens.column = None  # every message is made: the file's bytes can go before the matrices are built
        del table, ids
        sub = _build_submission(tokens, scores, n_rows, len(labels), cfg.options)
        if np.array_equal(position, np.arange(n_rows)):  # rows already in the order of the units
            return sub
        order = np.argsort(position)
        return MultilabelSubmission(ranked=sub.ranked[order], predicted=sub.predicted[order],
                                    ranked_scores=None if scores is None else sub.ranked_scores[order])

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def take(self, sub, contract, positions):
        return MultilabelSubmission(ranked=sub.ranked[positions], predicted=sub.predicted[positions],
                                    ranked_scores=None if sub.ranked_scores is None else sub.ranked_scores[positions])

    def advice(self, sub, contract, cfg):
        """Every row the same, no label at all, no score at the threshold, scores that are no probabilities."""
        found = []
        ranked = sub.ranked
        listed = (ranked >= 0).any(axis=1) if ranked.shape[1] else np.zeros(len(ranked), dtype=bool)
        threshold = cfg.options["set_threshold"]
        if not listed.any():
            return [ADVICE_NO_LABEL()]
        if len(ranked) >= 2 and (ranked == ranked[0]).all():
            names = " ".join(contract.labels[c] for c in ranked[0] if c >= 0)
            found.append(ADVICE_SAME(n=advice.count(len(ranked)), labels=repr(clip(names, 60))))
        if threshold is not None and not sub.predicted.any():
            found.append(ADVICE_BELOW(threshold=threshold))
        if threshold is not None and 0 <= threshold <= 1 and sub.ranked_scores is not None:
            scores = sub.ranked_scores
            outside = ((scores < 0) | (scores > 1)).any(axis=1)  # NaN (past the list's end) compares False
            if outside.any():
                found.append(ADVICE_RANGE(n=advice.count(outside.sum()),
                                          ids=advice.ids(advice.units_where(contract.units, outside)),
                                          threshold=threshold))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        opts = cfg.options
        beta = float(opts["beta"]) if opts["beta"] is not None else 1.0
        rows = mask
        on_board = (lambda a: a) if rows.all() else (lambda a: a[rows])  # noqa: E731  (board all: no copies)
        grades = on_board(ref.grades)
        gold = grades > 0
        ranked = on_board(sub.ranked)
        n = len(gold)
        # scikit-learn's label ranking measures, on other threads while the set and ranked metrics are computed
        listed = label_ranking.Listed.from_ranked(ranked, None if sub.ranked_scores is None
                                                  else on_board(sub.ranked_scores))
        by_sample = background.start(label_ranking.per_sample, listed, gold)
        by_class = background.start(label_ranking.per_class_ap, listed, gold)
        predicted = on_board(sub.predicted)
        tp_sample = (predicted & gold).sum(axis=1, dtype=np.int64)
        pred_sample, gold_sample = predicted.sum(axis=1, dtype=np.int64), gold.sum(axis=1, dtype=np.int64)
        samples = ml.per_sample(tp_sample, pred_sample, gold_sample, beta)
        n_classes = gold.shape[1]
        units = [Units("sets", SET_GROUP_KEYS, SET_COLUMNS,
                       {"samples": Ones(n), "both_empty": Each(samples.both_empty), "tp": Each(tp_sample),
                        "predicted": Each(pred_sample), "gold": Each(gold_sample), "precision": Each(samples.precision),
                        "recall": Each(samples.recall), "f1": Each(samples.f1), "fbeta": Each(samples.fbeta)}, n),
                 Units("classes", CLASS_GROUP_KEYS, CLASS_COLUMNS,
                       {"tp": Each(lambda: predicted & gold, n_classes), "predicted": Each(predicted),
                        "gold": Each(gold)}, n)]

        list_empty = (ranked[:, 0] < 0) if ranked.shape[1] else np.ones(len(ranked), dtype=bool)
        ranked_both_empty = list_empty & ~gold.any(axis=1)
        # a default from the scored rows only: a board's score never depends on another board's gold
        g_max = opts["err_max_grade"] if opts["err_max_grade"] is not None else max(1, int(grades.max(initial=0)))
        for k in _ks(opts["k"]):  # one pass per cutoff
            ap, ndcg, err = _ranked_measures(ranked, grades, k, opts, g_max)
            units.append(Units("ranking@%d" % k, tuple(t % k for t in RANK_KEYS), RANKED_COLUMNS,
                               {"samples": Ones(n), "both_empty": Each(ranked_both_empty), "ap": Each(ap),
                                "ndcg": Each(ndcg), "err": Each(err)}, n))
        lrap, coverage, loss = by_sample.result()
        units.append(Units("label_ranking", tuple(LABEL_RANKING_KEYS[:3]), LABEL_RANKING_COLUMNS,
                           {"samples": Ones(n), "lrap": Each(lrap), "coverage": Each(coverage), "loss": Each(loss)}, n))
        keys = self.leaderboard_keys(opts)
        units = [Units(g.name, tuple(k for k in g.keys if k in keys), g.schema, g.columns, g.n) for g in units]
        scores, sums = self.reduce(units, cfg)
        per_class = CLASS_COLUMNS.read(sums["classes"])
        tp_class, pred_class, gold_class = (per_class[name].astype(np.int64) for name in ("tp", "predicted", "gold"))
        mask = class_mask(pred_class, gold_class, opts["classes"])
        class_ap = by_class.result()
        # macro AP ranks the samples of each class against each other: no sum over samples, its own formula here
        scores["macro_ap"] = float(class_mean(class_ap, mask))
        scores = {k: scores[k] for k in keys}

        sections = [
            _averages_section(scores, mask, opts),
            _class_section(ref.contract.labels, (tp_class, pred_class, gold_class), mask, class_ap),
            _ranking_section([[k] + [scores[t % k] for t in RANK_KEYS] for k in _ks(opts["k"])], opts, g_max),
            _label_ranking_section(scores, mask, opts, sub.ranked_scores is not None),
            _sizes_section(gold_sample, pred_sample, samples.both_empty, ranked_both_empty, opts["both_empty"]),
        ]
        summary = SUMMARY(n=int(rows.sum()), classes=len(ref.contract.labels), rule=_set_rule(opts))
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """Every key of a group from its sums read by name (``SET_COLUMNS``, ``CLASS_COLUMNS``,
        ``RANKED_COLUMNS``, ``LABEL_RANKING_COLUMNS``), with the kernels of ``metrics.multilabel``."""
        opts = cfg.options
        rule = opts["both_empty"]
        beta = float(opts["beta"]) if opts["beta"] is not None else 1.0
        if group == "sets":
            s = SET_COLUMNS.read(sums)
            n, empty, tp, pred, gold = s["samples"], s["both_empty"], s["tp"], s["predicted"], s["gold"]
            mean = lambda name: ml.sample_mean(s[name], n, empty, rule)  # noqa: E731
            mp, mr, mf = prf(tp, pred, gold)
            return {"micro_f1": mf, "micro_precision": mp, "micro_recall": mr, "sample_avg_precision": mean("precision"),
                    "sample_avg_recall": mean("recall"), "sample_avg_f1": mean("f1"),
                    "micro_fbeta": prf(tp, pred, gold, beta)[2], "sample_avg_fbeta": mean("fbeta")}
        if group == "classes":
            s = CLASS_COLUMNS.read(sums)
            tp, pred, gold = s["tp"], s["predicted"], s["gold"]
            cp, cr, cf1, macro_f1, macro_fb = ml.class_averaged(tp, pred, gold, class_mask(pred, gold, opts["classes"]),
                                                                beta)
            return {"class_avg_f1": cf1, "class_avg_precision": cp, "class_avg_recall": cr, "macro_f1": macro_f1,
                    "macro_fbeta": macro_fb}
        if group.startswith("ranking@"):
            k = int(group.split("@")[1])
            s = RANKED_COLUMNS.read(sums)
            return {t % k: ml.sample_mean(s[name], s["samples"], s["both_empty"], rule)
                    for t, name in zip(RANK_KEYS, ("ap", "ndcg", "err"))}
        if group == "label_ranking":
            s = LABEL_RANKING_COLUMNS.read(sums)
            return dict(zip(LABEL_RANKING_KEYS[:3], (safe_div(s[name], s["samples"]) for name in ("lrap", "coverage",
                                                                                                  "loss"))))
        raise KeyError(group)

    def unit_answers(self, ref, sub):
        """Each sample's ranked list (labels by rank, with their scores) and predicted set."""
        n = len(ref.units)
        row, rank = np.nonzero(sub.ranked >= 0)
        listed = [rank, sub.ranked[row, rank].astype(np.int64)]
        if sub.ranked_scores is not None:
            listed.append(sub.ranked_scores[row, rank])
        set_row, set_class = np.nonzero(sub.predicted)
        return digests.combine(digests.per_unit(row, n, *listed), digests.per_unit(set_row, n, set_class))


RANKED_BLOCK = 1 << 16  # samples whose ranked measures are computed at once: the temporaries stay small
TOKEN_BLOCK = 1 << 20   # listed labels put in the predicted sets at once


def _ranked_measures(ranked, grades, k, opts, g_max):
    """(AP@k, nDCG@k, ERR@k) of every sample, a block of samples at a time (each is a function of its own row)."""
    n = len(ranked)
    out = [np.empty(n) for _ in range(3)]
    for a in range(0, n, RANKED_BLOCK):
        block, block_grades = ranked[a:a + RANKED_BLOCK], grades[a:a + RANKED_BLOCK]
        at = ranking.grades_at_ranks(block, block_grades, k)
        out[0][a:a + RANKED_BLOCK] = ranking.average_precision(at, block_grades, k, opts["map_denominator"])
        out[1][a:a + RANKED_BLOCK] = ranking.ndcg(at, block_grades, k, opts["ndcg_gain"])
        out[2][a:a + RANKED_BLOCK] = ranking.err(at, g_max)
    return out


# -- reading ---------------------------------------------------------------------------------
def _read_labels(cfg):
    name = cfg.files["labels"]
    text = normalise_newlines(decode_text(read_reference_bytes(cfg, "labels"), name, ReferenceDataError))
    labels = [l.strip() for l in text.split("\n") if l.strip()]
    if not labels:
        raise ReferenceDataError(NO_LABELS(file=name))
    for label in labels:
        if len(label.split()) != 1 or "\0" in label:
            raise ReferenceDataError(LABEL_SPACE(file=name, label=label))
    seen = set()
    for label in labels:  # the first label written a second time
        if label in seen:
            raise ReferenceDataError(LABEL_TWICE(file=name, label=label))
        seen.add(label)
    return labels


def _checked_scores(read, column, tokens, line, ids, name, problems):
    """The score of every label token (``read``: the scores column's numbers and their count per row); a row with
    the wrong count or a non-finite score is a problem."""
    values, counts = read

    def at(i):
        return dict(file=name, line=int(line[i]), unit=ids.text(i) or None, column="scores")

    wrong = np.flatnonzero(counts != tokens.counts)
    problems.add_rows(wrong, line, lambda i: SCORE_COUNT.at(**at(i), given=int(counts[i]), n=int(tokens.counts[i])))
    if len(wrong):
        return None  # the scores of those rows cannot be paired with their labels
    if np.isfinite(values).all():
        return values
    score_tokens = uncoded(column)
    first_bad = score_tokens.first_per_row(~np.isfinite(values))
    problems.add_rows(list(first_bad), line, lambda i: BAD_SCORE.at(
        **at(i), pos=int(score_tokens.position[first_bad[i]]) + 1,
        token=repr(clip(score_tokens.text(first_bad[i], limit=40)))))
    return values


def _build_submission(tokens, scores, n_rows, n_classes, opts):
    """Dense rank and set matrices; with scores, a stable sort by decreasing score inside each row."""
    codes, row, position = tokens.codes, tokens.row, tokens.position
    rising = scores is not None and len(scores) > 1 and ((scores[1:] > scores[:-1]) & (row[1:] == row[:-1])).any()
    if rising:
        order = np.lexsort((-scores, row))  # stable: equal scores keep the listed order
        codes, scores = codes[order], scores[order]
    depth = int(tokens.counts.max()) if n_rows else 0
    if n_rows and len(codes) == n_rows * depth:  # every row lists as many labels: the tokens are the matrix
        ranked = codes.reshape(n_rows, depth).astype(np.int16, copy=False)
        ranked_scores = None if scores is None else scores.reshape(n_rows, depth)
    else:
        ranked = np.full((n_rows, depth), -1, dtype=np.int16)
        ranked[row, position] = codes
        ranked_scores = None
        if scores is not None:
            ranked_scores = np.full((n_rows, depth), np.nan)
            ranked_scores[row, position] = scores
    predicted = np.zeros((n_rows, n_classes), dtype=bool)
    cells = predicted.reshape(-1)
    for a in range(0, len(codes), TOKEN_BLOCK):  # a block of tokens at a time: no index array as long as them all
        block = slice(a, a + TOKEN_BLOCK)
        at = row[block].astype(np.int64)
        at *= n_classes
        at += codes[block]
        keep = np.ones(len(at), dtype=bool)
        if opts["set_top_k"] is not None:
            keep &= position[block] < opts["set_top_k"]
        if opts["set_threshold"] is not None:
            keep &= scores[block] >= opts["set_threshold"]
        cells[at if keep.all() else at[keep]] = True
    return MultilabelSubmission(ranked=ranked, predicted=predicted, ranked_scores=ranked_scores)


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
    return names[rarest]  # the few names, shared (a fixed-width copy would take a row's worth of bytes each)


def _reference_notes(gold, labels, name, lang):
    """Notes for the organizer on the gold, in the competition's language."""
    notes = []
    absent = [labels[c] for c in np.flatnonzero(gold.sum(axis=0) == 0)]
    if absent:
        notes.append(NOTE_ABSENT(file=name, n=len(absent), labels=", ".join(absent)).text(lang))
    empty = int((~gold.any(axis=1)).sum())
    if empty:
        notes.append(NOTE_EMPTY(file=name, n=empty).text(lang))
    return notes


# -- report ----------------------------------------------------------------------------------
def _set_rule(opts):
    """The rule of the predicted set, a Problem written in the page's language.

    >>> _set_rule({"set_top_k": 2, "set_threshold": 0.5}).text("en")
    'the first 2 labels of each list and labels with score >= 0.5'
    """
    top, threshold = opts["set_top_k"], opts["set_threshold"]
    if top is not None and threshold is not None:
        return RULE_BOTH(top=RULE_TOP(k=top), threshold=RULE_THRESHOLD(threshold=threshold))
    if top is not None:
        return RULE_TOP(k=top)
    if threshold is not None:
        return RULE_THRESHOLD(threshold=threshold)
    return RULE_ALL()


def _averages_section(scores, mask, opts):
    micro, class_avg, macro, sample_avg = AVERAGE_ROWS
    rows = [
        [micro, scores["micro_precision"], scores["micro_recall"], scores["micro_f1"]],
        [class_avg, scores["class_avg_precision"], scores["class_avg_recall"], scores["class_avg_f1"]],
        [macro, "", "", scores["macro_f1"]],
        [sample_avg, scores["sample_avg_precision"], scores["sample_avg_recall"], scores["sample_avg_f1"]],
    ]
    if opts["beta"] is not None:
        rows.append([FBETA_ROW(beta=opts["beta"]), scores["micro_fbeta"], scores["macro_fbeta"],
                     scores["sample_avg_fbeta"]])
    note = SET_NOTE(n=int(mask.sum()), classes=CLASS_RULE_NAMES[opts["classes"]](),
                    both_empty=BOTH_EMPTY_NAMES[opts["both_empty"]]())
    headers = [AVERAGE_HEADER, report.SERIES_PRECISION, report.SERIES_RECALL, report.SERIES_F1]
    return report.Section(SET_TITLE, [report.Table(headers, rows), report.Text(note, "note")])


def _class_section(labels, counts, mask, class_ap):
    tp, n_pred, n_gold = counts
    p, r, f1 = prf(tp, n_pred, n_gold)
    order = report.by_support(n_gold)
    rows = [[labels[c], int(n_gold[c]), int(n_pred[c]), int(tp[c]),
             float(p[c]), float(r[c]), float(f1[c]), float(class_ap[c]), YES if mask[c] else NO]
            for c in order]
    shown = order[:CHART_CLASSES]
    blocks = [report.Table(list(CLASS_HEADERS), rows),
              report.Bars(CLASS_CHART, [labels[c] for c in shown],
                          [(report.SERIES_PRECISION, [float(p[c]) for c in shown]),
                           (report.SERIES_RECALL, [float(r[c]) for c in shown])],
                          caption=CLASS_CHART_CUT(shown=len(shown), n=len(labels)) if len(shown) < len(labels) else "")]
    return report.Section(CLASS_TITLE, blocks, per_class=True)


def _label_ranking_section(scores, mask, opts, has_scores):
    values = [scores["label_ranking_avg_precision"], scores["coverage_error"], scores["label_ranking_loss"]]
    rows = [[label, value] for label, value in zip(LABEL_RANKING_ROWS, values)]
    rows.append([MACRO_AP_ROW(n=int(mask.sum()), classes=CLASS_RULE_NAMES[opts["classes"]]()), scores["macro_ap"]])
    note = LABEL_RANKING_NOTE(matrix=(MATRIX_SCORES if has_scores else MATRIX_POSITIONS)())
    return report.Section(LABEL_RANKING_TITLE, [report.Table(list(MEASURE_HEADERS), rows),
                                                report.Text(note, "note")])


def _ranking_section(rows, opts, g_max):
    note = RANKED_NOTE(denominator=MAP_DENOMINATOR_NAMES[opts["map_denominator"]](),
                       gain=GAIN_NAMES[opts["ndcg_gain"]](), g_max=g_max,
                       both_empty=BOTH_EMPTY_NAMES[opts["both_empty"]]())
    return report.Section(RANKED_TITLE, [report.Table(list(RANKED_HEADERS), rows), report.Text(note, "note")])


def _sizes_section(gold_sample, pred_sample, set_both_empty, list_both_empty, rule):
    n = len(gold_sample)
    values = [n, float(gold_sample.mean()) if n else 0.0, float(pred_sample.mean()) if n else 0.0,
              int((gold_sample == 0).sum()), int((pred_sample == 0).sum())]
    rows = [[label, value] for label, value in zip(SIZE_ROWS, values)]
    rows += [[BOTH_EMPTY_SET_ROW(both_empty=BOTH_EMPTY_NAMES[rule]()), int(set_both_empty.sum())],
             [BOTH_EMPTY_LIST_ROW, int(list_both_empty.sum())]]
    return report.Section(SIZES_TITLE, [report.Table([WHAT, MEASURE_HEADERS[1]], rows)])


FAMILY = Multilabel()
