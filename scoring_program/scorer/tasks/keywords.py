"""Keyword / tag sets: per-sample precision and recall of a predicted set against the gold set.

Files (gold and submission alike): ``id,keywords`` with a header, comma- or
TAB-separated (judged from the header); the keywords of a sample are one cell
joined by ``keyword_separator`` (``_`` by default, as in the CSL data).
Within a cell a keyword written twice counts once, and empty pieces are no keyword.

For every gold sample i, with G the gold set and P the predicted one:
c = |G & P|, P_i = c/|P|, R_i = c/|G|, F_i = 2c/(|P|+|G|) (0 where a denominator is 0).

- macro (per-sample average, scikit-learn ``average='samples'``): the means of P_i, R_i, F_i
  (``macro_f1`` is the mean of the per-sample F1);
- ``f1_of_macro_pr``: the other "macro F1" in use, 2PR/(P+R) of the two means P and R;
- micro (pooled counts): P = sum c / sum |P|, R = sum c / sum |G|, F1 = 2PR/(P+R).

By default every gold sample of the board counts: a sample with no row, or an
empty cell, scores 0. ``mode: legacy`` keeps only the samples that have a
non-empty prediction and a non-empty gold set, as the source document's code does.

>>> from scorer.bytelevel.cells import Cells
>>> from scorer.tasks._per_unit import column_sums
>>> gold = code_items(Cells.from_strings(["你好,小米", "铅笔_自动"]), "_", [])
>>> pred = code_items(Cells.from_strings(["小米", "气球_自动"]), "_", [])
>>> c, g, p = coded_overlap_counts(*gold, *pred, 2)
>>> both = np.ones(2, dtype=bool)
>>> sums = column_sums(SAMPLE_COLUMNS.ordered(sample_columns(c, g, p, both, both)))
>>> float(FAMILY.unit_scores("samples", sums, None)["micro_precision"])  # the document's example: 1/3
0.3333333333333333
"""
from dataclasses import dataclass

import numpy as np

from .. import advice, digests, report
from ..config import Check, Option
from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics.prf import f_beta, prf, safe_div
from ..metrics.sets import NORMALISATIONS, code_items, coded_overlap_counts
from ..problems import Message
from ..bytelevel.grouping import factorize
from ..tables import check_reference_ids, indexed_units, match_ids, read_public_units, reference_table
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units, kept_codes
from ._per_unit import Each, Schema, group_sums

COLUMNS = ("id", "keywords")
KEYS = ["macro_f1", "macro_precision", "macro_recall", "f1_of_macro_pr", "micro_f1", "micro_precision",
        "micro_recall"]
NOTE_LINES = 50
UNIT = Message("keywords.unit", "samples", "样本")
SIZE_TITLE = Message("keywords.report.sizes", "By gold-set size", "按标准答案关键词数分组")
SIZE_CHART = Message("keywords.report.size_chart", "Mean per-sample precision, recall and F1 by the number of gold "
                     "keywords", "按标准答案关键词数分组的样本平均精确率、召回率和 F1")
SIZE_HEADERS = (Message("keywords.report.size", "gold keywords", "标准关键词数"),
                Message("keywords.report.samples", "samples", "样本数"),
                Message("keywords.report.mean_p", "mean precision", "平均精确率"),
                Message("keywords.report.mean_r", "mean recall", "平均召回率"),
                Message("keywords.report.mean_f1", "mean F1", "平均 F1"),
                Message("keywords.report.right", "right / gold keywords", "正确 / 标准关键词"))
SIZE_NOTE = Message("keywords.report.size_note", "Counted samples only (see the mode above); sizes of {top} and "
                    "more are one group.", "仅统计计入平均的样本（见上文的模式）；{top} 个及以上合为一组。")
SIZE_TOP = 6
# a sample's row: counted (1; 0 for a sample mode legacy leaves out), its P_i, R_i and F_i, and its keywords right
# (|G & P|), gold (|G|) and predicted (|P|), all 0 where not counted
SAMPLE_COLUMNS = Schema("counted", "precision", "recall", "f1", "right", "gold", "predicted")
ADVICE_MISSING = Message("keywords.advice_missing", "{n} test id(s) have no row, so each of them scores 0: {ids}. "
                         "Write one row for every id of the test inputs.",
                         "有 {n} 个测试 id 没有对应的行，每个都得 0 分：{ids}。请为测试输入中的每个 id 写一行。")
ADVICE_EMPTY = Message("keywords.advice_empty", "{n} row(s) have no keyword, so each of them scores 0: {ids}. Give at "
                       "least one keyword per document.",
                       "有 {n} 行没有任何关键词，每行都得 0 分：{ids}。请为每个文档至少给一个关键词。")
ADVICE_SEPARATOR = Message("keywords.advice_separator", "every row holds a single keyword, and {share} of them contain "
                           "{found}: the keywords look joined by {found}, but this task joins them with {sep}, so each "
                           "row counts as one long keyword. Join the keywords of a row with {sep}.",
                           "每行都只有一个关键词，其中 {share} 含有 {found}：关键词似乎用 {found} 连接，但本任务用 {sep} "
                           "连接关键词，因此每行只算作一个很长的关键词。请用 {sep} 连接同一行的关键词。")
ADVICE_SAME = Message("keywords.advice_same", "all {n} rows give the same keywords ({value}): a document scores only "
                      "what its own keywords share with these. Predict the keywords of each document.",
                      "全部 {n} 行给出的关键词都相同（{value}）：每个文档只能得到与这些词重合部分的分数。请为每个文档分别预测关键词。")
GOLD_REPEATED = Message("reference.keywords_repeated", "{file} repeats id {id}.", None)
NOTE_EMPTY_GOLD = Message(
    "keywords.note.empty_gold", "{file} has {n} sample(s) with no gold keyword; under mode 'all' they score 0 whatever "
    "is predicted, under mode 'legacy' they are skipped. First ones: {ids}",
    "{file} 有 {n} 个样本没有标准答案关键词；模式 'all' 下无论预测什么都得 0 分，模式 'legacy' 下不计入。前几个：{ids}")

TITLE = Message("keywords.report.title", "Keyword sets", "关键词集合")
# the values of option ``mode`` as the page names them (the Chinese page describes them instead)
MODE_NAMES = {"all": Message("keywords.report.mode_all", "all", "全部样本"),
              "legacy": Message("keywords.report.mode_legacy", "legacy", "原文档规则")}
WHAT = Message("keywords.report.what", "what", "项目")
SAMPLES_TITLE = Message("keywords.report.samples_title", "Samples", "样本")
SAMPLE_ROWS = (
    Message("keywords.report.on_board", "samples on this board", "本榜单的样本"),
    Message("keywords.report.counted", "samples counted in the averages", "计入平均的样本"),
    Message("keywords.report.no_row", "no row in the submission", "提交文件中没有对应的行"),
    Message("keywords.report.empty_row", "a row with no keyword", "有行但没有关键词"),
    Message("keywords.report.all_right", "all keywords right and none missing (F = 1)",
            "关键词全部正确且无遗漏（F = 1）"),
    Message("keywords.report.some_right", "some keywords right (0 < F < 1)", "部分关键词正确（0 < F < 1）"),
    Message("keywords.report.none_right", "keywords predicted, none right", "预测了关键词，但无一正确"),
    Message("keywords.report.gold_empty", "gold set empty", "标准答案关键词集合为空"),
)
MODE_NOTES = {
    "legacy": Message("keywords.report.legacy_note", "mode legacy: only samples with a non-empty prediction and a "
                      "non-empty gold set are counted, as in the source document.",
                      "模式“原文档规则”：只计入预测非空且标准答案关键词集合非空的样本，与原文档的做法相同。"),
    "all": Message("keywords.report.all_note", "mode all: every sample of the board counts; a missing row or an "
                   "empty cell scores 0.", "模式“全部样本”：本榜单的每个样本都计入；缺少的行或空单元格得 0 分。"),
}
KEYWORDS_TITLE = Message("keywords.report.keywords_title", "Keywords in the counted samples (micro counts)",
                         "计分样本中的关键词数（微平均计数）")
KEYWORD_HEADER = Message("keywords.report.keywords", "keywords", "关键词数")
KEYWORD_ROWS = (Message("keywords.report.gold_keywords", "gold keywords", "标准答案关键词"),
                Message("keywords.report.predicted_keywords", "predicted keywords", "预测关键词"),
                Message("keywords.report.right_keywords", "right (in both)", "正确（两者都有）"))


def _separator(value):
    return isinstance(value, str) and value != "" and not set(value) & set("\t\r\n\"")


def _steps(value):
    return isinstance(value, list) and len(set(value)) == len(value) and all(v in NORMALISATIONS for v in value)


SUMMARY_NORMALISED = Message(
    "keywords.summary.normalised", "{n} samples on this board, {counted} counted (mode {mode}); keywords joined by "
    "{separator}, compared after {steps}.",
    "本榜单 {n} 个样本，计分 {counted} 个（模式：{mode}）；关键词以 {separator} 分隔，经{steps}后比较。")
SUMMARY_EXACT = Message(
    "keywords.summary.exact", "{n} samples on this board, {counted} counted (mode {mode}); keywords joined by "
    "{separator}, compared exactly as written (no normalisation).",
    "本榜单 {n} 个样本，计分 {counted} 个（模式：{mode}）；关键词以 {separator} 分隔，按原文逐字比较（不做规范化）。")


@dataclass
class KeywordReference(Reference):
    rows: np.ndarray = None    # sample code of each gold keyword
    codes: np.ndarray = None   # each gold keyword as a code into ``distinct``
    distinct: object = None    # the distinct gold keywords (normalised), cells.Cells

    @property
    def items(self):
        """The gold keywords (normalised), cells.Cells."""
        return self.distinct[self.codes]


@dataclass
class KeywordSubmission:
    rows: np.ndarray           # sample code of each predicted keyword
    codes: np.ndarray          # each predicted keyword as a code into ``distinct``, in order of first appearance
    distinct: object           # the distinct predicted keywords (normalised), cells.Cells
    present: np.ndarray        # per sample: the submission has a row for it

    @property
    def items(self):
        """The predicted keywords (normalised), cells.Cells."""
        return self.distinct[self.codes]


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "macro_f1": Message("keywords.key.macro_f1", "Macro F1 (mean per sample)", "宏平均 F1（按样本平均）"),
    "macro_precision": Message("keywords.key.macro_precision", "Macro precision", "宏平均精确率"),
    "macro_recall": Message("keywords.key.macro_recall", "Macro recall", "宏平均召回率"),
    "f1_of_macro_pr": Message("keywords.key.f1_of_macro_pr", "F1 of macro P and R", "宏平均 P 与 R 的 F1"),
    "micro_f1": Message("keywords.key.micro_f1", "Micro F1 (pooled)", "微平均 F1（合并计数）"),
    "micro_precision": Message("keywords.key.micro_precision", "Micro precision", "微平均精确率"),
    "micro_recall": Message("keywords.key.micro_recall", "Micro recall", "微平均召回率"),
}


class Keywords(TaskFamily):
    name = "keywords"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    reference_files = {"gold": "gold.csv"}
    # keywords themselves hold full-width commas: only ids are checked for them
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS, separators=(",", "\t"), fullwidth=False),)
    unit_files = {"gold": UnitFile("csv", "id", COLUMNS)}
    options = {
        "keyword_separator": Option("_", Check(_separator, "a non-empty string without TAB, newline or quote"),
                                    "what joins the keywords of one sample inside its cell"),
        "normalisation": Option([], Check(_steps, "a list of distinct steps among %s" % ", ".join(NORMALISATIONS)),
                                "applied to every keyword (gold and prediction) in the order strip, NFKC (full-width "
                                "to half-width), casefold"),
        "mode": Option("all", ("all", "legacy"),
                       "all: every gold sample counts, a missing or empty prediction scores 0; legacy: only samples "
                       "with a non-empty prediction and a non-empty gold set count (the source document's rule; "
                       "see Which samples count)"),
    }

    def leaderboard_keys(self, options):
        return list(KEYS)

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        name = cfg.files["gold"]
        gold = reference_table(cfg, "gold", list(COLUMNS))
        ids = gold.cells("id").strip()
        check_reference_ids(ids, name)
        units, repeat = indexed_units(ids)
        if repeat is not None:
            raise ReferenceDataError(GOLD_REPEATED(file=name, id=ids.text(repeat)))
        rows, codes, distinct = _keyword_items(gold.cells("keywords"), cfg)
        size = np.bincount(rows, minlength=len(units))  # counts duplicates, good enough for strata
        notes = []
        empty = np.flatnonzero(size == 0)
        if len(empty):
            notes.append(NOTE_EMPTY_GOLD(file=name, n=len(empty), ids=", ".join(
                str(units[i]) for i in empty[:NOTE_LINES])).text(cfg.language))
        return KeywordReference(Contract(units), strata=lambda: _strata(rows, len(units)), notes=notes, rows=rows,
                                codes=codes, distinct=distinct)

    def public_contract(self, folder, cfg):
        """The sample ids of the public ``test_public.csv``: no keywords."""
        units = read_public_units(folder, self.public_inputs, "id")
        return None if units is None else Contract(units)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        table = self.submission_file().read(files["submission"], SubmissionError)
        return table, _keyword_items(table.cells("keywords"), cfg)

    def read_submission(self, parsed, contract, cfg, problems):
        table, (rows, codes, distinct) = parsed
        sample = match_ids(table, "id", contract.units, problems, fullwidth=True)
        if problems:
            return None
        present = np.zeros(len(contract.units), dtype=bool)
        present[sample] = True
        return KeywordSubmission(rows=sample.astype(rows.dtype)[rows], codes=codes, distinct=distinct, present=present)

    def take(self, sub, contract, positions):
        sample = kept_codes(positions, len(contract.units))[sub.rows]
        kept = sample >= 0
        return KeywordSubmission(rows=sample[kept].astype(sub.rows.dtype), codes=sub.codes[kept], distinct=sub.distinct,
                                 present=sub.present[positions])

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def advice(self, sub, contract, cfg):
        """Rows missing or empty (named by their public ids), another separator, every row the same."""
        found = []
        per_sample = np.bincount(sub.rows, minlength=len(contract.units))
        if not sub.present.all():
            missing = advice.units_where(contract.units, ~sub.present)
            found.append(ADVICE_MISSING(n=advice.count(len(missing)), ids=advice.ids(missing)))
        empty = sub.present & (per_sample == 0)
        if empty.any():
            empty = advice.units_where(contract.units, empty)
            found.append(ADVICE_EMPTY(n=advice.count(len(empty)), ids=advice.ids(empty)))
        filled = sub.present & (per_sample > 0)
        sep = cfg.options["keyword_separator"]
        if filled.any() and (per_sample[filled] == 1).all():
            other, held = advice.most_common_separator(sub.items, exclude=sep)
            if other is not None and held > 0.5:
                found.append(ADVICE_SEPARATOR(share=advice.share(held), found=repr(other), sep=repr(sep)))
                return found
        if filled.sum() >= 2 and _alike(sub, per_sample, filled):
            codes, first = factorize(sub.items, ordered=True)
            distinct = sub.items[first].tolist()
            pairs = np.unique(sub.rows.astype(np.int64) * max(len(distinct), 1) + codes)
            if len(pairs) == int(filled.sum()) * len(distinct):  # every filled row holds every keyword given
                value = clip(sep.join(map(str, distinct)), 60)
                found.append(ADVICE_SAME(n=advice.count(filled.sum()), value=repr(value)))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        on_board = mask
        # counted over every sample, then kept on the board: a sample's counts depend on its own rows only
        c, g, p = coded_overlap_counts(ref.rows, ref.codes, ref.distinct, sub.rows, sub.codes, sub.distinct,
                                       len(ref.units))
        for counts in (c, g, p):
            counts[~on_board] = 0
        legacy = cfg.options["mode"] == "legacy"
        counted = on_board & (p > 0) & (g > 0) if legacy else on_board
        columns = sample_columns(c, g, p, counted, on_board)
        units = [Units("samples", tuple(KEYS), SAMPLE_COLUMNS, columns, int(on_board.sum()))]
        scores, _ = self.reduce(units, cfg)
        sections = [_sample_section(c, g, p, columns["f1"].values(), sub.present, on_board, counted, legacy),
                    _keyword_section(c, g, p, counted),
                    _size_section(c, g, p, counted)]
        steps = cfg.options["normalisation"]
        summary = (SUMMARY_NORMALISED if steps else SUMMARY_EXACT)(
            n=int(on_board.sum()), counted=int(counted.sum()), mode=MODE_NAMES[cfg.options["mode"]](),
            separator=repr(cfg.options["keyword_separator"]), steps=advice.steps(steps))
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """Over the n counted samples: macro P, R, F1 = the sums of P_i, R_i, F_i over n; f1_of_macro_pr =
        2PR/(P+R) of those two; micro P = sum c / sum |P|, R = sum c / sum |G|, F1 = 2PR/(P+R)."""
        if group != "samples":
            raise KeyError(group)
        return sample_scores(SAMPLE_COLUMNS.read(sums))

    def unit_answers(self, ref, sub):
        """Each sample's set of keywords (a keyword written twice counts once, as in scoring)."""
        codes, first = factorize(sub.items)
        width = max(len(first), 1)
        pairs = np.unique(sub.rows.astype(np.int64) * width + codes)
        return digests.per_unit(pairs // width, len(ref.units), sub.items[first[pairs % width]].to_objects())


def sample_columns(c, g, p, counted, on_board):
    """The per-sample table of the board's samples (``SAMPLE_COLUMNS``): counted (1 or 0), then P_i, R_i, F_i
    (``prf``), |G & P|, |G|, |P| where counted and 0 elsewhere (the ratios made when asked: none kept between)."""
    w = counted[on_board]
    cb, gb, pb = (np.where(w, np.asarray(a, dtype=np.int64)[on_board], 0) for a in (c, g, p))
    ratio = lambda k: Each(lambda: prf(cb, pb, gb)[k], 1)  # noqa: E731
    return {"counted": Each(w), "precision": ratio(0), "recall": ratio(1), "f1": ratio(2), "right": Each(cb),
            "gold": Each(gb), "predicted": Each(pb)}


def sample_scores(s):
    """Every key from the sums of the per-sample table read by name (``s``: ``SAMPLE_COLUMNS.read``)."""
    n = s["counted"]
    macro_p, macro_r, macro_f = (safe_div(s[name], n) for name in ("precision", "recall", "f1"))
    micro_p, micro_r, micro_f = prf(s["right"], s["predicted"], s["gold"])
    return {"macro_f1": macro_f, "macro_precision": macro_p, "macro_recall": macro_r,
            "f1_of_macro_pr": f_beta(macro_p, macro_r), "micro_f1": micro_f, "micro_precision": micro_p,
            "micro_recall": micro_r}


def _strata(rows, n_units):
    """Board strata: each sample's number of gold keywords (repeats counted), 6 and more as one.

    >>> _strata(np.array([0, 0, 2]), 4).tolist()
    ['2', '0', '1', '0']
    """
    size = np.bincount(rows, minlength=n_units)
    return np.array([str(k) for k in range(6)] + ["6+"], dtype=object)[np.minimum(size, 6)]  # 7 shared str


def _keyword_items(cells, cfg):
    """(sample row, code) of every keyword of ``cells``, normalised, and the distinct keywords as Cells."""
    return code_items(cells, cfg.options["keyword_separator"], cfg.options["normalisation"])


def _sample_section(c, g, p, f, present, on_board, counted, legacy):
    """How many samples of the board are missing, empty, all right, partly right...: ``f`` is the per-sample F
    of the board's samples, the table's own column (0 where not counted, as ``prf`` gives there anyway)."""
    board = on_board
    counts = [int(board.sum()), int(counted.sum()), int((board & ~present).sum()),
              int((board & present & (p == 0)).sum()), int((f == 1).sum()),
              int(((f > 0) & (f < 1)).sum()), int((board & (p > 0) & (c == 0)).sum()),
              int((board & (g == 0)).sum())]
    rows = [[label, n] for label, n in zip(SAMPLE_ROWS, counts)]
    note = MODE_NOTES["legacy" if legacy else "all"]
    return report.Section(SAMPLES_TITLE, [report.Table([WHAT, SIZE_HEADERS[1]], rows), report.Text(note, "note")])


def _keyword_section(c, g, p, counted):
    rows = [[label, int(v[counted].sum())] for label, v in zip(KEYWORD_ROWS, (g, p, c))]
    return report.Section(KEYWORDS_TITLE, [report.Table([WHAT, KEYWORD_HEADER], rows)])


def _size_section(c, g, p, counted):
    """Samples grouped by their number of gold keywords: how the score varies with the size of the answer (the
    leaderboard's macro formula, ``sample_scores``, of each group's sums)."""
    c, g, p = (np.asarray(a, dtype=np.int64)[counted] for a in (c, g, p))
    size = np.minimum(g, SIZE_TOP)
    every = np.ones(len(c), dtype=bool)
    s = SAMPLE_COLUMNS.read(group_sums(SAMPLE_COLUMNS.ordered(sample_columns(c, g, p, every, every)), len(c), size,
                                       SIZE_TOP + 1))
    scores = sample_scores(s)
    n, right, gold = s["counted"], s["right"], s["gold"]
    mp, mr, mf = scores["macro_precision"], scores["macro_recall"], scores["macro_f1"]
    shown = [k for k in range(SIZE_TOP + 1) if n[k]]
    names = ["%d+" % k if k == SIZE_TOP else str(k) for k in shown]
    rows = [[names[i], int(n[k]), float(mp[k]), float(mr[k]), float(mf[k]), "%d / %d" % (right[k], gold[k])]
            for i, k in enumerate(shown)]
    return report.Section(SIZE_TITLE, [
        report.Table(list(SIZE_HEADERS), rows, caption=SIZE_NOTE(top=SIZE_TOP)),
        report.Bars(SIZE_CHART, names, [(report.SERIES_PRECISION, [float(mp[k]) for k in shown]),
                                        (report.SERIES_RECALL, [float(mr[k]) for k in shown]),
                                        (report.SERIES_F1, [float(mf[k]) for k in shown])]),
    ], per_class=True)


def _alike(sub, per_sample, filled):
    """Whether every filled row may hold the same keywords: as many of them, of as many bytes in all (two cheap
    passes that rule out nearly every file before its keywords are grouped)."""
    counts = per_sample[filled]
    if not (counts == counts[0]).all():
        return False
    size = np.bincount(sub.rows, weights=sub.items.lengths(), minlength=len(per_sample))[filled]
    return bool((size == size[0]).all())

FAMILY = Keywords()
