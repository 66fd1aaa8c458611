"""Single-label classification: one class per item, binary or multi-class, as labels or as probabilities.

Reference data: ``labels.txt`` (the class names, one per line: the declared
class order) and ``gold.csv`` with columns ``id,label``.

Submission: one CSV, either ``id,label`` (one class name per row) or ``id``
followed by one column per class, named by the class names in any order.
Option ``submission`` says which the competition asks for:

- ``labels``: the label keys only. A file of per-class columns is taken too
  (any scores): the label of a row is its highest column, ties to the class
  declared first.
- ``probabilities``: the label keys (from that highest column) and the
  probability keys; an ``id,label`` file is refused (it has no probabilities
  to score), so every scores file holds every key. Every row must be
  probabilities: values in [0, 1] summing to 1 within ``SUM_TOLERANCE``
  (option ``probability_rows: sum_to_1``), or, where the organizer chooses
  ``rescale``, non-negative values each row divided by its sum (Kaggle's
  multi-class log loss). Log loss reads each row divided by its sum in both,
  so a row within the tolerance gains nothing by summing to more than 1.

Label keys are functions of the per-class counts gold, predicted and right
(``metrics.confusion``) and of the summed ordinal distance (squared, or
absolute with ``ordinal_weights: linear``); log loss
and top-k accuracy are means over items; ROC AUC and average precision rank
all items at once (``metrics.class_scores``) and have no interval. No two keys
are one quantity by definition (``leaderboard_keys``).

>>> FAMILY.leaderboard_keys({"submission": "probabilities", "top_k": 3})[-4:]
['log_loss', 'roc_auc', 'average_precision', 'top_k_accuracy']
"""
import dataclasses
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from .. import advice, digests, report
from ..config import NOT_ALLOWED, Check, Option
from ..errors import ConfigError, ReferenceDataError, SubmissionError, clip
from ..metrics import class_scores
from ..metrics import confusion as cm
from ..metrics.averages import class_mean
from ..metrics.kappa import cohen_kappa, weighted_kappa
from ..metrics.prf import safe_div
from ..problems import Message
from ..tables import match_ids, missing_ids, public_table, read_reference_bytes, reference_table, reference_units
from ..tables import header_names
from ..textio import decode as decode_text, normalise_newlines
from ..bytelevel.tokens import coded, numbers
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units
from ._per_unit import PER_CLASS, Each, Ones, Schema, Tally

COLUMNS = ("id", "label")
# every label key the formula gives (``unit_scores``); ``leaderboard_keys`` writes those that are no other's repeat
LABEL_KEYS = ["f1", "precision", "recall", "accuracy", "balanced_accuracy", "macro_f1", "macro_precision",
              "macro_recall", "micro_f1", "micro_precision", "micro_recall", "weighted_f1", "weighted_precision",
              "weighted_recall", "cohen_kappa", "quadratic_weighted_kappa", "linear_weighted_kappa", "mcc"]
PROBABILITY_KEYS = ["log_loss", "roc_auc", "average_precision", "top_k_accuracy"]


@dataclass(frozen=True)
class OrdinalWeights:
    """The weights of the weighted kappa (option ``ordinal_weights``): w = |o_i - o_j|^power on the scale."""

    power: int
    column: str     # the per-item column of |o(gold) - o(pred)|^power
    key: str


ORDINAL_WEIGHTS = {"quadratic": OrdinalWeights(2, "squared_distance", "quadratic_weighted_kappa"),
                   "linear": OrdinalWeights(1, "absolute_distance", "linear_weighted_kappa")}
# the per-item tables: an item's class one-hot (gold, predicted, right if it is right) in the scale order of the
# classes and its weighted distance on that scale (per ``ordinal_weights``); an item's log loss or top-k hit,
# summed over the items
LABEL_COLUMNS = {name: Schema(("gold", PER_CLASS), ("predicted", PER_CLASS), ("right", PER_CLASS), weights.column)
                 for name, weights in ORDINAL_WEIGHTS.items()}
ITEM_COLUMNS = {"log_loss": Schema("items", "total"), "top_k": Schema("items", "total")}
MAX_K = 1000
SUM_TOLERANCE = 0.01    # a probability row may sum to 1 within this (rounded decimals); beyond, it is refused
SHOWN_CLASSES = 8       # class names quoted in a message
LOST_ROWS = 10          # confusions listed where points are lost


def _optional(test):
    return lambda v: v is None or (not isinstance(v, bool) and test(v))


def _class_name(value):
    """A class name as an option gives it: a string, or an integer that YAML read from ``1``."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _names_list(value):
    """A list of distinct class names (strings, or integers that YAML read from digits)."""
    names = [_class_name(v) for v in value] if isinstance(value, list) else None
    return names is not None and all(isinstance(v, str) for v in names) and len(set(names)) == len(names)


OPTIONS = {
    "submission": Option("labels", ("labels", "probabilities"),
                         "labels: the label keys only (a file of one column per class is read as its highest column "
                         "per row); probabilities: one probability column per class, the label keys from the highest "
                         "one and the probability keys too (an id,label file is refused)"),
    "probability_rows": Option("sum_to_1", ("sum_to_1", "rescale"),
                               "with submission probabilities: sum_to_1: every value in [0, 1] and every row summing "
                               "to 1 within 0.01, else the file is refused; rescale: every value >= 0, each row "
                               "divided by its sum before scoring (Kaggle's multi-class log loss)"),
    "average": Option("macro", Check(lambda v: v in ("macro", "weighted", "binary"),
                                     "macro, weighted or binary (micro precision, recall and F1 of one class per "
                                     "item all equal accuracy: rank by primary_key accuracy)"),
                      "the averaging of the keys precision, recall and f1: macro (classes in the gold or the "
                      "prediction), weighted (by gold count) or binary (the positive class; two classes only)"),
    "positive_class": Option(None, Check(_optional(lambda v: isinstance(_class_name(v), str) and _class_name(v) != ""),
                                         "null (the second class of labels.txt) or a class name"),
                             "two classes only: the class of average binary, ROC AUC and average precision"),
    "ordinal_order": Option(None, Check(_optional(_names_list),
                                        "null (the classes have no order) or a list of every class name, lowest "
                                        "first (three classes or more)"),
                            "the order of ordinal classes (ratings, grades): with it, the weighted kappa on that "
                            "scale (the key quadratic_weighted_kappa, or linear_weighted_kappa with ordinal_weights "
                            "linear); without it, no such key"),
    "ordinal_weights": Option("quadratic", ("quadratic", "linear"),
                              "with ordinal_order: the weights of its weighted kappa, quadratic (the key "
                              "quadratic_weighted_kappa) or linear (the key linear_weighted_kappa)"),
    "log_loss_eps": Option(None, Check(_optional(lambda v: isinstance(v, (int, float)) and 0 < v < 0.5),
                                       "null (the float64 machine epsilon, 2.2e-16) or a number in (0, 0.5)"),
                           "log loss clips each probability to [eps, 1 - eps]"),
    "top_k": Option(None, Check(_optional(lambda v: isinstance(v, int) and 2 <= v <= MAX_K),
                                "null (no such key) or an integer from 2 to %d, below the number of classes" % MAX_K),
                    "with submission probabilities: k of the key top_k_accuracy (the gold class is among the k "
                    "highest probabilities of its row)"),
}

UNIT = Message("classification.unit", "items", "样本")
TITLE = Message("classification.report.title", "Single-label classification", "单标签分类")
UNKNOWN_CLASS = Message("classification.unknown_class", "{where}: {value} is not a class of this task; write one of "
                        "the {n} class names ({shown}), spelled exactly.",
                        "{where}：{value} 不是本任务的类别；请写 {n} 个类别名之一（{shown}），拼写须完全一致。")
EMPTY_LABEL = Message("classification.empty_label", "{where} is empty; give every row the class you predict ({shown}).",
                      "{where} 为空；每一行都要给出预测的类别（{shown}）。")
SEVERAL_LABELS = Message("classification.several_labels", "{where}: {value} holds {count} words; give exactly one "
                         "class per row.", "{where}：{value} 含有 {count} 个词；每行只能给一个类别。")
BAD_PROBABILITY = Message("classification.bad_probability", "{where}: {value} is not a finite number; write the "
                          "probability of the class as a plain decimal such as 0.25.",
                          "{where}：{value} 不是有限的数；请把该类别的概率写成普通小数，例如 0.25。")
UNKNOWN_COLUMN = Message("classification.unknown_column", "{where}: column {column_name} is not a class of this task; "
                         "write id,label, or id and one probability column per class named exactly as in labels.txt "
                         "({shown}).",
                         "{where}：列 {column_name} 不是本任务的类别；请写 id,label，或写 id 加每个类别一列概率，列名与类别名完全一致"
                         "（{shown}）。")
MISSING_COLUMN = Message("classification.missing_column", "{where}: there is no column for class {name}; write id and "
                         "one probability column for each of the {n} classes ({shown}).",
                         "{where}：缺少类别 {name} 的列；请写 id 加 {n} 个类别各一列概率（{shown}）。")
NEEDS_PROBABILITIES = Message("classification.needs_probabilities", "{where}: this task scores probabilities, so an "
                              "id,label file cannot be scored; write the header id,{header} and each row's probability "
                              "of every class.",
                              "{where}：本任务对概率评分，因此无法对 id,label 文件评分；请写表头 id,{header}，每行给出每个类别的概率。")
ADVICE_SAME = Message("classification.advice_same", "all {n} rows predict the same class ({value}): that scores like "
                      "a constant guess (balanced accuracy 1/{classes} at best, kappa 0). Predict the class of each "
                      "item.",
                      "全部 {n} 行都预测同一个类别（{value}）：得分相当于常数猜测（平衡准确率至多为 1/{classes}，kappa 为 "
                      "0）。请为每个样本分别预测类别。")
NOT_A_PROBABILITY = Message("classification.not_a_probability", "{where}: {value} is not a probability (outside [0, "
                            "1]); write each class's probability as a number from 0 to 1, each row summing to 1 "
                            "(percentages divided by 100; a model's raw scores through a softmax).",
                            "{where}：{value} 不是概率（不在 [0, 1] 之内）；请把每个类别的概率写成 0 到 1 之间的数，每行之和为 1"
                            "（百分数要除以 100；模型的原始分数要先经过 softmax）。")
ROW_SUM = Message("classification.row_sum", "{where}: the row's probabilities sum to {total}, not 1; each row must sum "
                  "to 1 within {tolerance}: divide each row by its sum (or write more decimals).",
                  "{where}：该行概率之和为 {total}，不是 1；每行之和与 1 的差须在 {tolerance} 之内：请把每行除以该行之和"
                  "（或多写几位小数）。")
NEGATIVE_SCORE = Message("classification.negative_score", "{where}: {value} is negative; this task divides each row "
                         "by its sum, so every value must be 0 or more (a probability, or a score that is not "
                         "negative).", "{where}：{value} 是负数；本任务把每行除以该行之和，因此每个值都必须不小于 0"
                         "（概率，或非负的分数）。")
ZERO_ROW = Message("classification.zero_row", "{where}: every value of the row is 0; this task divides each row by "
                   "its sum, so give at least one class a value above 0.",
                   "{where}：该行的值全为 0；本任务把每行除以该行之和，因此至少要有一个类别的值大于 0。")
ADVICE_ORDER = Message("classification.advice_order", "the probability columns are in another order ({found}) than "
                       "labels.txt ({declared}). Columns are read by their names; check that each column holds the "
                       "probability of the class it names (a model's own class order may differ from labels.txt).",
                       "概率列的顺序（{found}）与 labels.txt（{declared}）不同。各列按列名读取；请确认每一列确实是其列名所示类别的"
                       "概率（模型自身的类别顺序可能与 labels.txt 不同）。")
GOLD_UNKNOWN = Message("reference.classification_unknown", "{where}: {value} is not a class of {labels}.", None)
GOLD_EMPTY = Message("reference.classification_empty", "{where} is empty; every item needs its gold class.", None)
GOLD_SEVERAL = Message("reference.classification_several", "{where}: {value} holds {count} words; give one class per "
                       "item.", None)
NO_CLASSES = Message("reference.classification_few_classes", "{file} lists {n} class(es); a classification task needs "
                     "at least two, one name per line.", None)
CLASS_SHAPE = Message("reference.classification_class_shape", "{file}: class {name!r} holds white space, a comma or a "
                      "quote; class names are single words that can head a CSV column.", None)
CLASS_TWICE = Message("reference.classification_class_twice", "{file} lists {name!r} and {other!r}, which a CSV header "
                      "cannot tell apart (column names are compared ignoring case); give distinct names.", None)
CLASS_RESERVED = Message("reference.classification_class_reserved", "{file}: class {name!r} is also the name of a "
                         "submission column (id, label); rename the class.", None)
NOTE_ABSENT = Message("classification.note.absent", "{file}: {n} class(es) of labels.txt have no gold item: {labels}.",
                      "{file}：labels.txt 中有 {n} 个类别没有标准答案样本：{labels}。")

SUMMARY = Message("classification.summary", "{n} items, {classes} classes; {source}.", "{n} 个样本，{classes} 个类别；{source}。")
SOURCE_LABELS = Message("classification.report.source_labels", "the submitted labels", "使用提交的类别")
SOURCE_ARGMAX = Message("classification.report.source_argmax", "each row's label is its highest probability (ties: "
                        "the class listed first in labels.txt)", "每行的类别取概率最高的类别（并列时取类别列表中靠前的类别）")
HOW_TITLE = Message("classification.report.how_title", "How the scores are computed", "成绩的计算方法")
AVERAGE_NAMES = {
    "macro": Message("classification.report.macro", "the mean over the {n} classes that occur in the gold or in the "
                     "prediction on this board (macro)", "对本榜单的标准答案或预测中出现的 {n} 个类别取平均（宏平均）"),
    "weighted": Message("classification.report.weighted", "the mean over the classes weighted by their gold count "
                        "(weighted)", "按各类别标准答案数量加权的平均（加权平均）"),
    "binary": Message("classification.report.binary", "those of class {name} (binary)", "类别 {name} 的值（二分类）"),
}
AVERAGES_NOTE = Message(
    "classification.report.averages_note", "Precision, recall and F1 are {average}. Per class, a precision or recall "
    "whose denominator is 0 is 0, and F1 = 2 correct / (predicted + gold). With one class per item, the micro "
    "averages and the weighted recall all equal accuracy, so they are not listed again.",
    "精确率、召回率和 F1 为{average}。对每个类别，分母为 0 的精确率或召回率记为 0，F1 = 2 × 正确数 / (预测数 + 标准答案数)。"
    "每个样本只有一个类别时，微平均和加权召回率都等于准确率，因此不再重复列出。")
AGREEMENT_NOTE = Message(
    "classification.report.agreement_note", "Balanced accuracy is the mean recall over the classes with a gold item. "
    "A kappa is 1 when every item has one and the same gold and predicted class (perfect agreement; scikit-learn "
    "gives NaN there); the Matthews correlation is 0 when all gold or all predicted items are in one class.",
    "平衡准确率是对有标准答案样本的类别的召回率取平均。当所有样本的标准答案和预测都是同一个类别时，kappa 记为 1（完全一致；"
    "scikit-learn 此时不给出数值）；当标准答案或预测全部属于同一类别时，马修斯相关系数记为 0。")
QWK_NOTE = Message("classification.report.qwk_note", "The quadratic-weighted kappa places the classes on the scale "
                   "{scale}.", "二次加权 kappa 按以下顺序排列类别：{scale}。")
LWK_NOTE = Message("classification.report.lwk_note", "The linear-weighted kappa places the classes on the scale "
                   "{scale}; a disagreement weighs the number of steps between its gold and its predicted class.",
                   "线性加权 kappa 按以下顺序排列类别：{scale}；每个不一致按其标准答案与预测类别之间相隔的级数加权。")
ROWS_CHECKED = Message("classification.report.rows_checked", "Every probability lies in [0, 1] and every row sums to 1 "
                       "within {tolerance}; log loss reads each row divided by its sum, so a row that sums to a "
                       "little more than 1 gains nothing.",
                       "每个概率都在 [0, 1] 之内，每行之和与 1 的差在 {tolerance} 之内；计算对数损失时每行先除以该行之和，"
                       "因此和略大于 1 的行不会因此得分更高。")
ROWS_RESCALED = Message("classification.report.rows_rescaled", "Each row was divided by its sum before scoring (as "
                        "Kaggle's multi-class log loss does), so every row is scored as probabilities that sum to 1.",
                        "评分前每行都已除以该行之和（与 Kaggle 的多类对数损失相同），因此每行都按和为 1 的概率评分。")
PROBABILITY_NOTE = Message(
    "classification.report.probability_note", "Log loss clips each probability to [{eps}, 1 - {eps}]. {ranking} A "
    "score with no such class is 0.",
    "对数损失把每个概率截断到 [{eps}, 1 - {eps}]。{ranking}没有这样的类别时记为 0。")
RANKING_BINARY = Message("classification.report.ranking_binary", "ROC AUC and average precision are those of class "
                         "{name} against the other.", "ROC AUC 和平均精度为类别 {name} 对另一类的值。")
RANKING_MULTI = Message("classification.report.ranking_multi", "ROC AUC is the mean one-vs-rest AUC of the classes "
                        "that have both gold items and other items on this board, average precision that of the "
                        "classes with gold items.",
                        "ROC AUC 是本榜单中既有该类别样本又有其他样本的类别的一对其余 AUC 的平均值，平均精度是有该类别样本的"
                        "类别的平均值。")
TOP_K_NOTE = Message("classification.report.top_k_note", "In top-{k} accuracy, equal probabilities rank the class "
                     "listed first in labels.txt higher.", "计算前 {k} 类准确率时，概率相同的类别以类别列表中靠前的排名更高。")
CLASS_TITLE = Message("classification.report.class_title", "Per class", "各类别")
CLASS = Message("classification.report.class", "class", "类别")
MOSTLY_AS = Message("classification.report.mostly_as", "most often predicted instead", "最常被误判为")
CLASS_HEADERS = (CLASS, report.GOLD, report.PREDICTED, report.CORRECT,
                 report.SERIES_PRECISION, report.SERIES_RECALL, report.SERIES_F1)
SCORE_HEADERS = (Message("classification.report.class_auc", "ROC AUC", "ROC AUC"),
                 Message("classification.report.class_ap", "average precision", "平均精度"))
CLASS_CAPTION = Message("classification.report.class_caption", "Classes by their gold count. Missed items of a class: "
                        "gold - correct; false ones: predicted - correct.",
                        "类别按标准答案数量排序。某类别漏判的样本数 = 标准答案数 - 正确数；误判为该类别的样本数 = 预测数 - 正确数。")
NOT_DEFINED = Message("classification.report.not_defined", "n/a", "无")
MATRIX_TITLE = Message("classification.report.matrix_title", "Confusion matrix", "混淆矩阵")
MATRIX_CHART = Message("classification.report.matrix_chart", "Confusion matrix: the count of each (gold, predicted) "
                       "pair; shade: its share of the gold row, so the diagonal's shade is the class's recall",
                       "混淆矩阵：每个（标准答案，预测）组合的计数；灰度：占标准答案行的比例，对角线的灰度即该类别的召回率")
LOST_TITLE = Message("classification.report.lost_title", "Most frequent confusions", "最常见的混淆")
PAIR_HEADERS = (report.GOLD, report.PREDICTED, report.COUNT,
                Message("classification.report.error_share", "share of the errors", "占全部错误的比例"))
PAIR_CAPTION = Message("classification.report.pair_caption", "The {shown} most frequent confusions of {n} errors.",
                       "全部 {n} 个错误中最常见的 {shown} 种混淆。")
NO_ERROR = Message("classification.report.no_error", "Every item of this board is predicted right.",
                   "本榜单的每个样本都预测正确。")


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "f1": Message("classification.key.f1", "F1", "F1"),
    "precision": Message("classification.key.precision", "Precision", "精确率"),
    "recall": Message("classification.key.recall", "Recall", "召回率"),
    "accuracy": Message("classification.key.accuracy", "Accuracy", "准确率"),
    "balanced_accuracy": Message("classification.key.balanced_accuracy", "Balanced accuracy", "平衡准确率"),
    "macro_f1": Message("classification.key.macro_f1", "Macro F1", "宏平均 F1"),
    "macro_precision": Message("classification.key.macro_precision", "Macro precision", "宏平均精确率"),
    "macro_recall": Message("classification.key.macro_recall", "Macro recall", "宏平均召回率"),
    "micro_f1": Message("classification.key.micro_f1", "Micro F1", "微平均 F1"),
    "micro_precision": Message("classification.key.micro_precision", "Micro precision", "微平均精确率"),
    "micro_recall": Message("classification.key.micro_recall", "Micro recall", "微平均召回率"),
    "weighted_f1": Message("classification.key.weighted_f1", "Weighted F1", "加权 F1"),
    "weighted_precision": Message("classification.key.weighted_precision", "Weighted precision", "加权精确率"),
    "weighted_recall": Message("classification.key.weighted_recall", "Weighted recall", "加权召回率"),
    "cohen_kappa": Message("classification.key.cohen_kappa", "Cohen's kappa", "Cohen kappa 系数"),
    "quadratic_weighted_kappa": Message("classification.key.qwk", "Quadratic-weighted kappa", "二次加权 kappa"),
    "linear_weighted_kappa": Message("classification.key.lwk", "Linear-weighted kappa", "线性加权 kappa"),
    "mcc": Message("classification.key.mcc", "MCC", "马修斯相关系数"),
    "log_loss": Message("classification.key.log_loss", "Log loss (lower is better)", "对数损失（越低越好）"),
    "roc_auc": Message("classification.key.roc_auc", "ROC AUC", "ROC AUC"),
    "average_precision": Message("classification.key.average_precision", "Average precision", "平均精度"),
    "top_k_accuracy": Message("classification.key.top_k_accuracy", "Top-{k} accuracy", "前 {k} 类准确率"),
}


@dataclass(frozen=True)
class Classes:
    """The declared classes, and what the options make of them."""

    names: Tuple[str, ...]
    positive: int                 # the class of average binary, binary ROC AUC and AP (two classes), else -1
    scale: np.ndarray             # the classes in the order of the counts' table (code of each place)

    @property
    def place(self):
        """The place of each class code on the table's scale (the inverse of ``scale``)."""
        place = np.empty(len(self.names), dtype=np.int64)
        place[self.scale] = np.arange(len(self.names))
        return place


@dataclass
class ClassificationContract(Contract):
    classes: Tuple[str, ...] = ()     # the class names (public: labels.txt ships in the kit)


@dataclass
class ClassificationReference(Reference):
    gold: np.ndarray = None           # the gold class code of each item
    classes: Classes = None


@dataclass
class ParsedClassification:
    """A submission's table with its labels coded or its probability columns read, not yet checked per row."""

    table: object
    classes: Tuple[str, ...]
    header: Tuple[str, ...]           # the columns as the file names them, in its order
    tokens: object = None             # the label column's tokens (labels form)
    proba: Optional[list] = None             # a (rows,) array per class, file order (probabilities form)
    first_bad: Optional[np.ndarray] = None   # per row, the first class whose cell is not one finite number; -1


@dataclass
class ClassificationSubmission:
    pred: np.ndarray                  # the predicted class code of each unit (contract order)
    # (units, classes) in the declared class order, as submitted (rows divided by their sums with probability_rows
    # rescale); None: labels
    proba: Optional[np.ndarray] = None
    header: Tuple[str, ...] = ()


class Classification(TaskFamily):
    name = "classification"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    lower_is_better = ("log_loss",)
    reference_files = {"gold": "gold.csv", "labels": "labels.txt"}
    # the labels form; the probabilities form is id and one column per class of labels.txt (``_form``)
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS),)
    unit_files = {"gold": UnitFile("csv", "id", COLUMNS)}   # labels.txt holds the class names, which the kit has too
    options = OPTIONS

    def leaderboard_keys(self, options):
        """The keys no other key equals by definition: f1, precision and recall of the option ``average``, then
        accuracy, balanced accuracy and the other averaging's P, R, F1 but those that are accuracy with one
        class per item (every micro average, the weighted recall), the kappas (the weighted one, quadratic or
        linear, with a declared order) and MCC; with probabilities, log loss, ROC AUC, AP and top-k accuracy
        (with ``top_k``).

        >>> FAMILY.leaderboard_keys({})
        ['f1', 'precision', 'recall', 'accuracy', 'balanced_accuracy', 'weighted_f1', 'weighted_precision', 'cohen_kappa', 'mcc']
        >>> FAMILY.leaderboard_keys({"average": "weighted", "ordinal_order": ["a", "b", "c"]})[:4]
        ['f1', 'precision', 'accuracy', 'balanced_accuracy']
        >>> FAMILY.leaderboard_keys({"ordinal_order": ["a", "b", "c"], "ordinal_weights": "linear"})[-3:]
        ['cohen_kappa', 'linear_weighted_kappa', 'mcc']
        """
        average = options.get("average", "macro")
        keys = ["f1", "precision"] + ([] if average == "weighted" else ["recall"]) + ["accuracy", "balanced_accuracy"]
        for other in ("macro", "weighted"):
            if other != average:
                keys += ["%s_f1" % other, "%s_precision" % other] + (["macro_recall"] if other == "macro" else [])
        weighted = ORDINAL_WEIGHTS[options.get("ordinal_weights", "quadratic")].key
        keys += ["cohen_kappa"] + ([weighted] if options.get("ordinal_order") is not None else [])
        keys.append("mcc")
        if options.get("submission", "labels") == "probabilities":
            keys += ["log_loss", "roc_auc", "average_precision"]
            keys += ["top_k_accuracy"] if options.get("top_k") is not None else []
        return keys

    def key_label(self, key, options=None):
        """The page's label of ``key``; top-k accuracy carries its k (``Top-3 accuracy``)."""
        if key == "top_k_accuracy":
            k = (options or {}).get("top_k")
            return KEY_LABELS[key](k=k if k is not None else "k")
        return super().key_label(key, options)

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        classes = read_classes(cfg)
        name = cfg.files["gold"]
        table = reference_table(cfg, "gold", list(COLUMNS) + ([cfg.usage_column] if cfg.usage_column else []))
        ids, units = reference_units(table)
        tokens = coded(table.cells("label"), classes.names)
        codes = _row_codes(tokens)
        bad = np.flatnonzero(codes < 0)
        if len(bad):
            i = int(bad[0])
            where = dict(file=name, line=int(table.line[i]), unit=ids.text(i), column="label")
            count = int(tokens.counts[i])
            value = repr(clip(table.cells("label").text(i)))
            raise ReferenceDataError(GOLD_EMPTY.at(**where) if count == 0 else GOLD_SEVERAL.at(
                **where, value=value, count=count) if count > 1 else GOLD_UNKNOWN.at(
                **where, value=value, labels=cfg.files["labels"]))
        usage = table.cells(cfg.usage_column).to_objects() if cfg.usage_column else None
        names = np.asarray(classes.names, dtype=object)
        notes = []
        absent = np.flatnonzero(np.bincount(codes, minlength=len(names)) == 0)
        if len(absent):
            notes.append(NOTE_ABSENT(file=name, n=len(absent), labels=", ".join(names[absent])).text(cfg.language))
        return ClassificationReference(ClassificationContract(units, classes.names), strata=lambda: names[codes],
                                       usage=usage, notes=notes, gold=codes, classes=classes)

    def public_contract(self, folder, cfg):
        """Units from the public ``test_public.csv`` and the class names from ``labels.txt``: no answers."""
        table = public_table(folder, self.public_inputs, ["id"])
        if table is None:
            return None
        return ClassificationContract(reference_units(table)[1], read_classes(cfg).names)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        given = files["submission"]
        data = given.read_bytes()
        file = dataclasses.replace(given, read_bytes=lambda: data)   # read once, whatever the form
        classes = read_classes(cfg).names
        header = header_names(data, file.name, SubmissionError)
        declared = self.submission_file()
        if _form(header, classes, cfg, file.name) == "labels":
            table = declared.read(file, SubmissionError)
            return ParsedClassification(table, classes, tuple(header), tokens=coded(table.cells("label"), classes))
        table = dataclasses.replace(declared, columns=("id",) + classes).read(file, SubmissionError)
        proba, first_bad = _probability_columns(table, classes)
        return ParsedClassification(table, classes, tuple(header), proba=proba, first_bad=first_bad)

    def read_submission(self, parsed, contract, cfg, problems):
        table = parsed.table
        parsed.table = None   # taken: the file's bytes go as soon as every message is made
        if parsed.proba is not None and parsed.classes == contract.classes and not (parsed.first_bad >= 0).any():
            # every probability read, none wrong: the rows' messages need their ids and lines only
            table = table.keeping(("id",))
        position = match_ids(table, "id", contract.units, problems)
        classes = contract.classes
        if parsed.classes != classes:   # a contract of other classes than the parse knew: parse again
            again = (dict(tokens=coded(table.cells("label"), classes)) if parsed.tokens is not None else
                     dict(zip(("proba", "first_bad"), _probability_columns(table, classes))))
            parsed = ParsedClassification(table, classes, parsed.header, **again)
        if parsed.tokens is not None:
            pred, proba = _checked_labels(table, parsed.tokens, classes, problems), None
        else:
            rows = cfg.options["probability_rows"] if cfg.options["submission"] == "probabilities" else None
            proba = _checked_probabilities(table, parsed.proba, parsed.first_bad, classes, problems, position,
                                           len(contract.units), rows)
            parsed.proba = parsed.first_bad = None
            pred = None
        missing_ids(table, contract.units, position, problems)
        if problems:
            return None
        small = np.int16 if len(classes) < 2 ** 15 else np.int32
        if proba is not None:   # already in the order of the units
            return ClassificationSubmission(pred=first_highest(proba, small), proba=proba, header=parsed.header)
        pred = pred.astype(small)
        if not np.array_equal(position, np.arange(len(position))):   # rows in the order of the units
            pred = pred[np.argsort(position)]
        return ClassificationSubmission(pred=pred, proba=None, header=parsed.header)

    def take(self, sub, contract, positions):
        return ClassificationSubmission(pred=sub.pred[positions], header=sub.header,
                                        proba=None if sub.proba is None else sub.proba[positions])

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def advice(self, sub, contract, cfg):
        """One class on every row; probability columns in another order than labels.txt. (Rows that are no
        probabilities are refused, or rescaled where the organizer chose so: no warning can say more.)"""
        found = []
        classes = contract.classes
        if len(sub.pred) >= 2 and (sub.pred == sub.pred[0]).all():
            found.append(ADVICE_SAME(n=advice.count(len(sub.pred)), value=repr(classes[int(sub.pred[0])]),
                                     classes=len(classes)))
        if sub.proba is not None:
            written = tuple(c for c in sub.header if c in classes)
            if written != tuple(classes):
                found.append(ADVICE_ORDER(found=",".join(written), declared=",".join(classes)))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        opts = cfg.options
        classes = ref.classes
        width = len(classes.names)
        gold = ref.gold if mask.all() else ref.gold[mask]
        pred = (sub.pred if mask.all() else sub.pred[mask]).astype(np.int64)
        n = len(gold)
        place = classes.place
        gold_place, pred_place = place[gold], place[pred]
        right = gold == pred
        keys = self.leaderboard_keys(opts)
        # an item's row of the label keys is fixed by its (gold, predicted) pair: the interval builds a row per pair
        weights = opts["ordinal_weights"]
        units = [Units("labels", tuple(k for k in LABEL_KEYS if k in keys), LABEL_COLUMNS[weights],
                       label_columns(gold_place, pred_place, right, width, ORDINAL_WEIGHTS[weights]), n,
                       code=gold_place * width + pred_place)]
        ranking = None
        probabilities = opts["submission"] == "probabilities"
        if probabilities:
            proba = sub.proba if mask.all() else sub.proba[mask]
            eps = _eps(opts)
            units.append(Units("log_loss", ("log_loss",), ITEM_COLUMNS["log_loss"],
                               {"items": Ones(n), "total": Each(class_scores.log_loss(proba, gold, eps))}, n))
            if opts["top_k"] is not None:
                units.append(Units("top_k", ("top_k_accuracy",), ITEM_COLUMNS["top_k"],
                                   {"items": Ones(n), "total": Each(class_scores.top_k_hits(proba, gold, opts["top_k"]))},
                                   n))
            ranking = ranking_scores(proba, gold, classes)
        scores, sums = self.reduce(units, cfg)
        if ranking is not None:
            scores.update(ranking.scores)
        scores = {k: scores[k] for k in keys}
        counts = np.bincount(gold * width + pred, minlength=width * width).reshape(width, width)
        sections = [_how_section(counts, classes, opts),
                    _class_section(counts, classes, ranking), _matrix_section(counts, classes),
                    _lost_section(counts, classes)]
        summary = SUMMARY(n=n, classes=width, source=(SOURCE_LABELS if sub.proba is None else SOURCE_ARGMAX)())
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """labels: the keys of the counts gold, predicted and right per class in the table's scale order and
        the summed ordinal distance of ``ordinal_weights`` (``metrics.confusion``, ``metrics.kappa``); log_loss
        and top_k: the mean over the items of the per-item values."""
        opts = cfg.options
        if group in ITEM_COLUMNS:
            s = ITEM_COLUMNS[group].read(sums)
            return {"log_loss" if group == "log_loss" else "top_k_accuracy": safe_div(s["total"], s["items"])}
        if group != "labels":
            raise KeyError(group)
        s = LABEL_COLUMNS[opts["ordinal_weights"]].read(sums)
        weights = ORDINAL_WEIGHTS[opts["ordinal_weights"]]
        gold, pred, right = s["gold"], s["predicted"], s["right"]
        out = {}
        for average in ("macro", "micro", "weighted"):
            p, r, f = cm.averaged(right, pred, gold, average)
            out.update({"%s_precision" % average: p, "%s_recall" % average: r, "%s_f1" % average: f})
        # two classes sit on the table's scale as (other, positive): binary is the second
        p, r, f = cm.averaged(right, pred, gold, opts["average"], positive=1)
        out.update(precision=p, recall=r, f1=f, accuracy=cm.accuracy(right, gold),
                   balanced_accuracy=cm.balanced_accuracy(right, gold), cohen_kappa=cohen_kappa(right, gold, pred),
                   mcc=cm.matthews(right, gold, pred))
        out[weights.key] = weighted_kappa(s[weights.column], gold, pred, np.arange(gold.shape[-1]), weights.power)
        return out

    def unit_answers(self, ref, sub):
        """Each item's predicted class and, with probabilities, its row of them."""
        pred = digests.element_hashes(sub.pred.astype(np.int64))
        return pred if sub.proba is None else digests.combine(pred, digests.rows(sub.proba))


# -- the classes -------------------------------------------------------------------------------
def read_classes(cfg):
    """The classes of ``labels.txt``, checked with the options that name classes (exit 2 on either)."""
    name = cfg.files["labels"]
    text = normalise_newlines(decode_text(read_reference_bytes(cfg, "labels"), name, ReferenceDataError))
    names = [line.strip() for line in text.split("\n") if line.strip()]
    if len(names) < 2:
        raise ReferenceDataError(NO_CLASSES(file=name, n=len(names)))
    seen = {}
    for label in names:
        if len(label.split()) != 1 or set(label) & set(',"\0'):
            raise ReferenceDataError(CLASS_SHAPE(file=name, name=label))
        if label.lower() in COLUMNS:
            raise ReferenceDataError(CLASS_RESERVED(file=name, name=label))
        if label.lower() in seen:
            raise ReferenceDataError(CLASS_TWICE(file=name, name=seen[label.lower()], other=label))
        seen[label.lower()] = label
    opts = cfg.options
    shown = ", ".join(names[:SHOWN_CLASSES]) + (", ..." if len(names) > SHOWN_CLASSES else "")
    two = len(names) == 2

    def refuse(key, value, allowed):
        raise ConfigError(NOT_ALLOWED(key="options." + key, value=clip(repr(value), 80), allowed=allowed))

    if opts["average"] == "binary" and not two:
        refuse("average", "binary", "macro or weighted: %s lists %d classes, binary needs two" % (name, len(names)))
    if opts["submission"] != "probabilities":   # an option no key of a labels competition reads is no silent no-op
        for key in ("probability_rows", "log_loss_eps", "top_k"):
            if opts[key] != OPTIONS[key].default:
                default = OPTIONS[key].default
                refuse(key, opts[key], "%s (the default) unless submission is probabilities"
                       % ("null" if default is None else default))
    if opts["top_k"] is not None and opts["top_k"] >= len(names):
        refuse("top_k", opts["top_k"], "null or an integer from 2 to %d: %s lists %d classes, and every gold class "
               "is among the %d highest of its row" % (len(names) - 1, name, len(names), opts["top_k"]))
    positive = opts["positive_class"]
    if positive is not None and (not two or _class_name(positive) not in names):
        refuse("positive_class", positive, ("null or a class of %s (%s)" % (name, shown)) if two else
               "null: %s lists %d classes, a positive class needs two" % (name, len(names)))
    order = opts["ordinal_order"]
    if order is not None and two:   # the quadratic-weighted kappa of two classes is Cohen's kappa, already a key
        refuse("ordinal_order", order, "null: %s lists two classes, whose quadratic-weighted kappa is Cohen's "
               "kappa (the key cohen_kappa)" % name)
    if order is not None and sorted(map(_class_name, order)) != sorted(names):
        refuse("ordinal_order", order, "null or a list of every class of %s (%s), each once" % (name, shown))
    if order is None and opts["ordinal_weights"] != OPTIONS["ordinal_weights"].default:   # weights of no key
        refuse("ordinal_weights", opts["ordinal_weights"], "quadratic (the default) unless ordinal_order is set")
    if two:
        code = 1 if positive is None else names.index(_class_name(positive))
        return Classes(tuple(names), code, np.array([1 - code, code]))
    scale = np.arange(len(names)) if order is None else np.array([names.index(_class_name(c)) for c in order])
    return Classes(tuple(names), -1, scale)


def _eps(opts):
    return float(np.finfo(np.float64).eps) if opts["log_loss_eps"] is None else float(opts["log_loss_eps"])


# -- reading -----------------------------------------------------------------------------------
def _form(header, classes, cfg, name):
    """``labels`` or ``probabilities``: which form the header names; a class column that is no class, a class
    with no column, or labels where probabilities are needed is the participant's error."""
    shown = ", ".join(classes[:SHOWN_CLASSES]) + (", ..." if len(classes) > SHOWN_CLASSES else "")
    lowered = [c.lower() for c in header]
    probabilities = cfg.options["submission"] == "probabilities"
    if len(header) <= 1:   # no separator found: the table reader says so, proposing the header this task asks for
        return "probabilities" if probabilities else "labels"
    if "label" in lowered:
        if probabilities:
            raise SubmissionError(NEEDS_PROBABILITIES.at(name, 1, header=",".join(classes)))
        return "labels"
    for column in header:
        # an unnamed column (pandas' index: '' or 'Unnamed: 0') is the table reader's to name, with how to fix it
        if column.lower() != "id" and column not in classes and column and not column.lower().startswith("unnamed"):
            raise SubmissionError(UNKNOWN_COLUMN.at(name, 1, column_name=repr(clip(column)), shown=shown))
    for label in classes:
        if label not in header:
            raise SubmissionError(MISSING_COLUMN.at(name, 1, name=repr(label), n=len(classes), shown=shown))
    return "probabilities"


def _row_codes(tokens):
    """The class code of each row whose cell holds exactly one known class name; -1 for any other row."""
    counts = tokens.counts
    if len(tokens.codes) == len(counts) and (counts == 1).all():
        return tokens.codes.astype(np.int64)
    first = np.cumsum(counts) - counts
    codes = np.full(len(counts), -1, dtype=np.int64)
    one = counts == 1
    codes[one] = tokens.codes[first[one]]
    return codes


def _checked_labels(table, tokens, classes, problems):
    """The class code of every row; an empty cell, several words or an unknown class is a problem."""
    codes = _row_codes(tokens)
    bad = np.flatnonzero(codes < 0)
    if not len(bad):
        return codes
    ids, line, cells = table.cells("id").strip(), table.line, table.cells("label")
    shown = ", ".join(classes[:SHOWN_CLASSES]) + (", ..." if len(classes) > SHOWN_CLASSES else "")

    def problem(i):
        where = dict(file=table.name, line=int(line[i]), unit=ids.text(i) or None, column="label")
        count = int(tokens.counts[i])
        if count == 0:
            return EMPTY_LABEL.at(**where, shown=shown)
        value = repr(clip(cells.text(i)))
        if count > 1:
            return SEVERAL_LABELS.at(**where, value=value, count=count)
        return UNKNOWN_CLASS.at(**where, value=value, n=len(classes), shown=shown)

    problems.add_rows(bad, line, problem)
    return codes


def _probability_columns(table, classes):
    """(columns, first_bad): the probability column of each class (declared order) as a (rows,) array in file
    order, and per row the first class whose cell is not one finite number, -1 for none. Kept apart (not one
    matrix) so that putting them in the units' order can let each go once placed."""
    n = len(table)
    columns = [None] * len(classes)
    first_bad = np.full(n, -1, dtype=np.int32)
    for k in range(len(classes) - 1, -1, -1):   # the last assignment is the first class
        v, counts = numbers(table.cells(classes[k]))
        one = counts == 1
        if len(v) != n or not one.all():   # a cell of no number or of several: 0 there (a problem)
            first = np.cumsum(counts) - counts
            column = np.zeros(n)
            column[one] = v[first[one]]
            v = column
        first_bad[~one | ~np.isfinite(v)] = k
        columns[k] = v
    return columns, first_bad


def _checked_probabilities(table, columns, first_bad, classes, problems, position, n_units, rows=None):
    """The (units, classes) matrix (column-major: each class's column in one piece), row i of the file at
    ``position[i]``, or None after a problem: a cell that is not one finite number (``first_bad``), a row of no
    unit (``position`` -1, the caller's problem), or, with ``rows`` (the option ``probability_rows``; None: any
    scores), a row that is no probabilities (``_row_problems``). With ``rescale`` each row is divided by its sum.
    Each of ``columns`` is let go once placed: the file's numbers are held twice one column at a time, not
    whole."""
    bad = np.flatnonzero(first_bad >= 0)
    if len(bad):
        ids, line = table.cells("id").strip(), table.line
        problems.add_rows(bad, line, lambda i: BAD_PROBABILITY.at(
            table.name, int(line[i]), unit=ids.text(i) or None, column=classes[first_bad[i]],
            value=repr(clip(table.cells(classes[first_bad[i]]).text(i)))))
        return None
    total = None
    if rows is not None:
        total = _row_sums(columns)
        _row_problems(table, columns, total, classes, problems, rows)
    if problems or (position < 0).any():
        return None
    aligned = len(position) == n_units and np.array_equal(position, np.arange(n_units))
    proba = np.zeros((n_units, len(classes)), order="F")   # a unit with no row is the caller's problem
    for k in range(len(classes)):
        column = columns[k] / total if rows == "rescale" else columns[k]
        if aligned:
            proba[:, k] = column
        else:
            proba[position, k] = column
        columns[k] = None
    return proba


def _row_sums(columns):
    """Each row's sum, the columns added in the declared class order (the documented order of the additions)."""
    total = columns[0].copy()
    for column in columns[1:]:
        total += column
    return total


def _row_problems(table, columns, total, classes, problems, rows):
    """Rows that are no probabilities. ``sum_to_1``: a value outside [0, 1] (the first such class of the row),
    else a row whose sum is more than SUM_TOLERANCE from 1. ``rescale``: a negative value, else a row of zeros."""
    n = len(total)
    first = np.full(n, -1, dtype=np.int32)
    for k in range(len(classes) - 1, -1, -1):   # the last assignment is the first class
        column = columns[k]
        outside = (column < 0) | (column > 1) if rows == "sum_to_1" else column < 0
        first[outside] = k
    if rows == "sum_to_1":
        # a row written to sum to 0.99 exactly passes: its float sum is 0.99 give or take a rounding
        off = (first < 0) & (np.abs(total - 1.0) > SUM_TOLERANCE + 1e-12)
    else:
        off = (first < 0) & (total <= 0)
    if not (first >= 0).any() and not off.any():
        return
    ids, line = table.cells("id").strip(), table.line

    def value_problem(i):
        c = classes[first[i]]
        message = NOT_A_PROBABILITY if rows == "sum_to_1" else NEGATIVE_SCORE
        return message.at(table.name, int(line[i]), unit=ids.text(i) or None, column=c,
                          value="%.6g" % columns[first[i]][i])   # the number read (only the ids' cells are kept)

    def row_problem(i):
        where = dict(file=table.name, line=int(line[i]), unit=ids.text(i) or None)
        if rows == "sum_to_1":
            return ROW_SUM.at(**where, total="%.6g" % total[i], tolerance="%g" % SUM_TOLERANCE)
        return ZERO_ROW.at(**where)

    problems.add_rows(np.flatnonzero(first >= 0), line, value_problem)
    problems.add_rows(np.flatnonzero(off), line, row_problem)


def first_highest(proba, dtype=np.int64):
    """The first column holding each row's highest value: ties go to the class declared first (what
    ``np.argmax(proba, axis=1)`` gives for finite values), a column at a time, so that a column-major matrix
    is not copied row by row.

    >>> first_highest(np.array([[0.2, 0.5, 0.3], [0.4, 0.2, 0.4], [0.0, -0.0, 0.0]])).tolist()
    [1, 0, 0]
    """
    best = proba[:, 0].copy()
    pred = np.zeros(len(proba), dtype=dtype)
    for k in range(1, proba.shape[1]):
        column = proba[:, k]
        higher = column > best   # strictly: an equal value does not take the row from an earlier class
        pred[higher] = k
        np.maximum(best, column, out=best)
    return pred


# -- the per-unit table and the ranking scores ------------------------------------------------------
def label_columns(gold_place, pred_place, right, width, weights):
    """The per-item table of the label keys (``LABEL_COLUMNS``): gold, predicted and right one-hot over the
    classes in scale order, and the distance between the gold and the predicted place to the power of the
    ``weights`` (squared or absolute)."""
    n = len(gold_place)
    distance = np.abs(gold_place - pred_place)
    return {"gold": Tally(None, n, gold_place, width), "predicted": Tally(None, n, pred_place, width),
            "right": Tally(None, n, gold_place, width, weight=right.astype(np.float64)),
            weights.column: Each(lambda: distance ** weights.power, 1)}


@dataclass
class Ranking:
    scores: dict
    auc: np.ndarray       # per class (declared order), NaN where undefined
    ap: np.ndarray


def ranking_scores(proba, gold, classes):
    """ROC AUC (the macro one-vs-rest mean; two classes: the positive class's) and average precision."""
    width = len(classes.names)
    support = np.bincount(gold, minlength=width)
    auc, ap = np.full(width, np.nan), np.full(width, np.nan)
    todo = [classes.positive] if width == 2 else [c for c in range(width) if support[c] > 0]
    for c in todo:
        auc[c], ap[c] = class_scores.auc_and_ap(gold == c, proba[:, c])
    if width == 2:
        value = 0.0 if np.isnan(auc[classes.positive]) else float(auc[classes.positive])
        return Ranking({"roc_auc": value,
                        "average_precision": 0.0 if np.isnan(ap[classes.positive]) else float(ap[classes.positive])},
                       auc, ap)
    # the macro means over the classes where each is defined (AUC: a positive and a negative; AP: a positive)
    return Ranking({"roc_auc": float(class_mean(auc, ~np.isnan(auc))),
                    "average_precision": float(class_mean(ap, ~np.isnan(ap)))}, auc, ap)


# -- report ---------------------------------------------------------------------------------------
def _average_name(average, classes, counts):
    if average == "binary":
        return AVERAGE_NAMES["binary"](name=classes.names[classes.positive])
    if average == "macro":
        return AVERAGE_NAMES["macro"](n=int(((counts.sum(axis=0) > 0) | (counts.sum(axis=1) > 0)).sum()))
    return AVERAGE_NAMES[average]()


def _how_section(counts, classes, opts):
    """What the scores table needs said, once: the averaging, the kappas' rules and scale, the probabilities'."""
    texts = [AVERAGES_NOTE(average=_average_name(opts["average"], classes, counts)), AGREEMENT_NOTE()]
    if opts["ordinal_order"] is not None:
        note = LWK_NOTE if opts["ordinal_weights"] == "linear" else QWK_NOTE
        texts.append(note(scale=clip(" < ".join(classes.names[c] for c in classes.scale), 200)))
    if opts["submission"] == "probabilities":
        texts.append(ROWS_RESCALED() if opts["probability_rows"] == "rescale" else
                     ROWS_CHECKED(tolerance="%g" % SUM_TOLERANCE))
        ranking = (RANKING_BINARY(name=classes.names[classes.positive]) if len(classes.names) == 2 else
                   RANKING_MULTI())
        texts.append(PROBABILITY_NOTE(eps="%.3g" % _eps(opts), ranking=ranking))
        if opts["top_k"] is not None:
            texts.append(TOP_K_NOTE(k=opts["top_k"]))
    return report.Section(HOW_TITLE, [report.Text(t, "note") for t in texts])


def _class_section(counts, classes, ranking):
    """One row per class, by gold count: its counts, P, R, F1 (AUC and AP with probabilities) and the class its
    items are most often taken for."""
    gold, pred, right = counts.sum(axis=1), counts.sum(axis=0), np.diag(counts)
    p, r, f = cm.per_class(right, pred, gold)
    order = report.by_support(gold)
    names = classes.names
    off = counts - np.diag(right)
    instead = np.argmax(off, axis=1)   # the most frequent wrong prediction of each gold class (first on ties)

    def score(v):
        return NOT_DEFINED if np.isnan(v) else float(v)

    rows = []
    for c in order:
        row = [names[c], int(gold[c]), int(pred[c]), int(right[c]), float(p[c]), float(r[c]), float(f[c])]
        if ranking is not None:
            row += [score(ranking.auc[c]), score(ranking.ap[c])]
        rows.append(row + [names[instead[c]] if off[c, instead[c]] else ""])
    headers = list(CLASS_HEADERS) + (list(SCORE_HEADERS) if ranking is not None else []) + [MOSTLY_AS]
    return report.Section(CLASS_TITLE, [report.Table(headers, rows, caption=CLASS_CAPTION)], per_class=True)


def _matrix_section(counts, classes):
    """The confusion matrix once: a heat map carrying every count, shaded by its share of the gold row."""
    order = report.by_support(counts.sum(axis=1))
    names = [classes.names[c] for c in order]
    shown = counts[np.ix_(order, order)]
    return report.Section(MATRIX_TITLE, [report.Heatmap(MATRIX_CHART, names, names, shown.tolist())], per_class=True)


def _lost_section(counts, classes):
    """The most frequent confusions (gold, predicted), by count."""
    names = classes.names
    gold, right = counts.sum(axis=1), np.diag(counts)
    errors = int(gold.sum() - right.sum())
    if not errors:
        return report.Section(LOST_TITLE, [report.Text(NO_ERROR())], per_class=True)
    flat = (counts - np.diag(right)).ravel()
    cells = [int(k) for k in np.lexsort((np.arange(len(flat)), -flat)) if flat[k] > 0][:LOST_ROWS]
    width = len(names)
    pair_rows = [[names[k // width], names[k % width], int(flat[k]), float(flat[k] / errors)] for k in cells]
    return report.Section(LOST_TITLE, [
        report.Table(list(PAIR_HEADERS), pair_rows, caption=PAIR_CAPTION(shown=len(pair_rows), n=errors)),
    ], per_class=True)


FAMILY = Classification()
