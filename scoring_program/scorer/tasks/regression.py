"""Regression: one real number per test id, scored by error and correlation measures.

Files (gold and submission alike): ``id,value`` with a header, comma- or TAB-separated (judged from the
header); the gold may have more columns. Every test id needs exactly one row; a value is one number as
pandas' C parser reads it (``2``, ``-0.5``, ``1e-3``); an empty cell, NaN, an infinity or anything else is
refused with its line.

For the units of a board, with gold y, prediction p and error e = p - y:

- MSE = Σe²/n, RMSE = √MSE, MAE = Σ|e|/n, median absolute error = the median of |e|;
- RMSLE = √(Σ(log(1 + p) - log(1 + y))²/n), only when the organizer asks (option ``rmsle``: every value >= 0
  then);
- MAPE = Σ|e| / max(|y|, eps) / n (scikit-learn's floor eps = 2.2e-16: a zero gold gives a huge term);
- sMAPE = Σ 2|e| / (|y| + |p|) / n, a fraction in [0, 2]; gold and prediction both 0 follow ``smape_zero``;
- R² = 1 - Σe² / Σ(y - ȳ)² (constant gold: 1 if every e = 0, else 0);
- Pearson's r, Spearman's rho (r of the average ranks) and Kendall's tau-b; 0 for a constant column.

Every key but the median, Spearman and Kendall (which rank the units all together) is one formula of the
sums of a per-unit table (``unit_scores``), so its bootstrap interval and paired tests resample units.

>>> import types
>>> cfg = types.SimpleNamespace(options={"rmsle": True, "smape_zero": "zero", "value_range": None})
>>> y, p = np.array([3.0, -0.5, 2.0, 7.0]), np.array([2.5, 0.0, 2.0, 8.0])
>>> columns = _groups(y, p, cfg)
>>> sums = {g: column_sums(GROUP_COLUMNS[g].ordered(columns[g])) for g in columns}
>>> {k: round(float(v), 4) for k, v in FAMILY.unit_scores("squared", sums["squared"], cfg).items()}
{'mse': 0.375, 'rmse': 0.6124}
>>> round(float(FAMILY.unit_scores("r2", sums["r2"], cfg)["r2"]), 4)   # scikit-learn's example
0.9486
"""
from dataclasses import dataclass

import numpy as np

from .. import advice, digests, report
from ..report import charts
from ..config import Check, Option
from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics import regression as rg
from ..metrics.prf import safe_div
from ..problems import Message
from ..tables import indexed_units, check_reference_ids, match_ids, missing_ids, read_public_units, reference_table
from ..tables import unit_index
from ..bytelevel.tokens import numbers
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units
from ._per_unit import Each, Ones, Schema, column_sums, group_sums

COLUMNS = ("id", "value")
# leaderboard order; the first is the default primary key
KEYS = ("rmse", "mae", "mse", "rmsle", "median_ae", "mape", "smape", "r2", "pearson", "spearman", "kendall")
LOWER_IS_BETTER = ("rmse", "mae", "mse", "rmsle", "median_ae", "mape", "smape")
# keys of each per-unit table; the others (median_ae, spearman, kendall) are no sum over units
GROUPS = {"squared": ("mse", "rmse"), "absolute": ("mae",), "log": ("rmsle",), "percentage": ("mape",),
          "symmetric": ("smape",), "r2": ("r2",), "pearson": ("pearson",)}
# each group's per-unit table: 1 per unit (``units``; sMAPE: 1 per unit it counts) and the unit's term; for R² the
# gold u = y - c (c the board's shift) and u², for Pearson u and v (the gold and the prediction each on its own
# scale), u², v² and uv
GROUP_COLUMNS = {"squared": Schema("units", "squared_error"), "absolute": Schema("units", "absolute_error"),
                 "log": Schema("units", "squared_log_error"), "percentage": Schema("units", "percentage_error"),
                 "symmetric": Schema("counted", "symmetric_error"), "r2": Schema("units", "u", "uu", "squared_error"),
                 "pearson": Schema("units", "u", "uu", "v", "vv", "uv")}
QUANTILES = 10           # the report's residual table: groups of units by gold decile
POINTS_MAX = 500         # up to this many units the scatter draws each one; above, a grid of counts
GRID = 24                # cells per axis of that grid
SWAP_ROWS = 100          # rows looked at to tell swapped columns
# the largest magnitude of a value: the squares and the sums of squares of up to 4e7 units stay within doubles
MAX_MAGNITUDE = 1e150
NOTE_IDS = 20


def _range_ok(value):
    return value is None or (isinstance(value, list) and len(value) == 2
                             and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
                             and all(np.isfinite(v) for v in value) and value[0] < value[1])


OPTIONS = {
    "rmsle": Option(False, Check(lambda v: isinstance(v, bool), "true or false"),
                    "false: no RMSLE key, any real value; true: RMSLE is a key, so every value must be >= 0 (a "
                    "negative prediction is refused, a negative gold value is a configuration error)"),
    "smape_zero": Option("zero", ("zero", "skip"),
                         "a unit whose gold and prediction are both 0 (sMAPE's 0/0): zero: it scores 0 (an exact "
                         "prediction); skip: it is left out of the sMAPE mean"),
    "value_range": Option(None, Check(_range_ok, "null or [low, high] with low < high, finite"),
                          "the range every gold value lies in, as the pages tell participants (null: not stated); "
                          "a gold value outside it is a configuration error, and the kit warns about predictions "
                          "outside it"),
}

UNIT = Message("regression.unit", "units", "样本")
TITLE = Message("regression.report.title", "Regression", "回归")
EMPTY_VALUE = Message("regression.empty_value", "{where} is empty; write one number for every id.",
                      "{where} 为空；每个 id 都要写一个数。")
TWO_VALUES = Message("regression.two_values", "{where} holds {count} numbers ({value}); write exactly one number "
                     "per row.", "{where} 含有 {count} 个数（{value}）；每行只能写一个数。")
NOT_A_NUMBER = Message("regression.not_a_number", "{where}: {value} is not a number; write a plain decimal such as "
                       "3.25 or -1e-3{hint}.", "{where}：{value} 不是数；请写普通的小数，例如 3.25 或 -1e-3{hint}。")
DECIMAL_COMMA = Message("regression.decimal_comma", " (with a dot as the decimal mark, not a comma)",
                        "（小数点用句点，不要用逗号）")
NOT_FINITE = Message("regression.not_finite", "{where}: {value} is not a finite number; predict a real number for "
                     "every id (a NaN or an infinity usually means the model failed on that row).",
                     "{where}：{value} 不是有限的数；请为每个 id 预测一个实数（出现非数或无穷大，通常说明模型在这一行出错了）。")
TOO_LARGE = Message("regression.too_large", "{where}: {value} is too large to score (its square overflows); predict "
                    "values between -1e150 and 1e150.", "{where}：{value} 太大，无法计分（其平方会溢出）；请预测介于 "
                    "-1e150 与 1e150 之间的值。")
NEGATIVE = Message("regression.negative", "{where}: {value} is negative, but this task scores RMSLE, which takes "
                   "log(1 + value): predict values >= 0 (for example clip the predictions at 0).",
                   "{where}：{value} 是负数，但本任务计算 RMSLE（取 1 + 值 的对数）：请预测 >= 0 的值（例如把预测值截断到 0）。")
SWAPPED = Message("regression.swapped", "{where}: the column id holds {id} and the column value holds {value}, a test "
                  "id: the columns look swapped; write each row as id then value, under the header id,value.",
                  "{where}：id 列是 {id}，value 列却是测试 id {value}：两列似乎写反了；请按先 id 后 value 的顺序写每一行，"
                  "表头为 id,value。")
ADVICE_SAME = Message("regression.advice_same", "all {n} rows give the same value ({value}): R² will be 0 or less, and "
                      "Pearson, Spearman and Kendall are written as 0 for a constant prediction. Predict each id.",
                      "全部 {n} 行给出的值都相同（{value}）：R² 将不大于 0，常数预测的皮尔逊、斯皮尔曼和肯德尔"
                      "相关系数都记为 0。请为每个 id 分别预测。")
ADVICE_IDS = Message("regression.advice_ids", "every value is itself a test id (for example {value}): the columns may "
                     "be swapped; the header is id,value, and each row gives the id first.",
                     "每个值本身都是一个测试 id（例如 {value}）：两列可能写反了；表头为 id,value，每行先写 id。")
ADVICE_SCALE = Message("regression.advice_scale", "{share} of the predictions lie outside {low} to {high}, the range "
                       "of this task's values (yours: {min} to {max}): they look like another scale (normalised, "
                       "logged, or other units). Predict on the scale of the task's values.",
                       "有 {share} 的预测值落在本任务取值范围 {low} 到 {high} 之外（你的预测：{min} 到 {max}）："
                       "它们似乎是另一种尺度（归一化、取对数或换了单位）。请按本任务取值的尺度预测。")
ADVICE_OUTSIDE = Message("regression.advice_outside", "{n} prediction(s) lie outside {low} to {high}, the range of this "
                         "task's values: {ids}. Moving each to the nearest end of the range can only lower its error.",
                         "有 {n} 个预测值落在本任务取值范围 {low} 到 {high} 之外：{ids}。把它们移到范围内最近的一端只会"
                         "减小误差。")
GOLD_VALUE = Message("reference.regression_value", "{where}: {value} is not a finite number; every gold value must "
                     "be one.", None)
GOLD_COUNT = Message("reference.regression_count", "{where} holds {count} numbers; a gold value is one number.", None)
GOLD_LARGE = Message("reference.regression_large", "{where}: {value} is beyond 1e150 in magnitude, where squared "
                     "errors overflow; rescale the values.", None)
GOLD_NEGATIVE = Message("reference.regression_negative", "{where}: {value} is negative, so RMSLE (log(1 + value)) "
                        "cannot score it; set options.rmsle: false, or correct the gold.", None)
GOLD_RANGE = Message("reference.regression_range", "{where}: {value} is outside options.value_range [{low}, {high}]; "
                     "widen the range or correct the gold.", None)
GOLD_REPEATED = Message("reference.regression_repeated", "{file} repeats id {id}.", None)
NOTE_ZERO_GOLD = Message("regression.note.zero_gold", "{file}: {n} gold value(s) are 0, where MAPE divides by eps "
                         "(2.2e-16), so one error there outweighs all others; prefer sMAPE or another key as the "
                         "primary one. First ids: {ids}",
                         "{file}：有 {n} 个标准答案值为 0，MAPE 在这些样本上除以 2.2e-16，任何误差都会压倒其余样本；"
                         "主指标请选用 SMAPE 或其他指标。前几个 id：{ids}")

SUMMARY = Message("regression.summary", "{n} units on this board; error = prediction - gold; RMSLE {rmsle}; sMAPE "
                  "with gold and prediction both 0: {smape_zero}.",
                  "本榜单 {n} 个样本；误差 = 预测值 - 标准答案；RMSLE：{rmsle}；标准答案与预测值都为 0 时的 SMAPE："
                  "{smape_zero}。")
RMSLE_ON = Message("regression.summary.rmsle_on", "scored (values >= 0)", "计分（值均 >= 0）")
RMSLE_OFF = Message("regression.summary.rmsle_off", "not scored", "不计分")
SMAPE_NAMES = {"zero": Message("regression.summary.smape_zero", "scores 0", "记 0 分"),
               "skip": Message("regression.summary.smape_skip", "left out", "不计入平均")}
WHAT = Message("regression.report.what", "what", "项目")
ERRORS_TITLE = Message("regression.report.errors_title", "Errors", "误差")
ERROR_ROWS = (
    Message("regression.report.units", "units on this board", "本榜单的样本"),
    Message("regression.report.mean_gold", "mean gold", "标准答案均值"),
    Message("regression.report.mean_prediction", "mean prediction", "预测均值"),
    Message("regression.report.mean_error", "mean error (prediction - gold; > 0: too high on average)",
            "平均误差（预测值 - 标准答案；> 0 表示平均偏高）"),
    Message("regression.report.over", "units predicted too high", "预测偏高的样本"),
    Message("regression.report.under", "units predicted too low", "预测偏低的样本"),
    Message("regression.report.exact", "units predicted exactly", "预测完全准确的样本"),
    Message("regression.report.largest", "largest absolute error", "最大绝对误差"),
)
QUANTILE_TITLE = Message("regression.report.quantile_title", "Errors by gold value", "按标准答案取值分组的误差")
QUANTILE_HEADERS = (Message("regression.report.group", "group", "分组"),
                    Message("regression.report.gold_range", "gold from / to", "标准答案范围"),
                    Message("regression.report.group_units", "units", "样本数"),
                    Message("regression.report.group_gold", "mean gold", "标准答案均值"),
                    Message("regression.report.group_prediction", "mean prediction", "预测均值"),
                    Message("regression.report.group_error", "mean error", "平均误差"),
                    Message("regression.report.group_mae", "MAE", "MAE"),
                    Message("regression.report.group_rmse", "RMSE", "RMSE"))
QUANTILE_NOTE = Message("regression.report.quantile_note", "Units sorted by their gold value and cut into {k} groups "
                        "of about equal size (tenths). A mean error far from 0 in the lowest or highest groups is the "
                        "usual sign of predictions pulled toward the mean.",
                        "按标准答案值排序后分成约等大的 {k} 组（十分位）。最低或最高组的平均误差明显偏离 0，通常说明预测"
                        "被拉向了均值。")
QUANTILE_MERGED = Message("regression.report.quantile_merged", "Units sorted by their gold value and cut into "
                          "tenths, equal gold values kept in one group: the {n} units share {distinct} distinct gold "
                          "values, so the tenths make {k} groups, of unequal size. A mean error far from 0 in the "
                          "lowest or highest groups is the usual sign of predictions pulled toward the mean.",
                          "按标准答案值排序后分成十分位，标准答案相同的样本留在同一组：这 {n} 个样本只有 {distinct} 个"
                          "不同的标准答案值，因此十分位只分出 {k} 组，大小不等。最低或最高组的平均误差明显偏离 0，通常"
                          "说明预测被拉向了均值。")
QUANTILE_CHART = Message("regression.report.quantile_chart", "MAE and RMSE of each group of gold values",
                         "各标准答案取值分组的 MAE 和 RMSE")
SERIES_MAE = Message("regression.report.series_mae", "MAE", "MAE")
SERIES_RMSE = Message("regression.report.series_rmse", "RMSE", "RMSE")
SCATTER_TITLE = Message("regression.report.scatter_title", "Prediction against gold", "预测值与标准答案")
SCATTER_CHART = Message("regression.report.scatter_chart", "Prediction (up) against gold (across)",
                        "预测值（纵轴）与标准答案（横轴）")
SCATTER_POINTS = Message("regression.report.scatter_points", "One dot per unit; the line is prediction = gold.{outside}",
                         "每个点是一个样本；斜线为预测值 = 标准答案。{outside}")
SCATTER_GRID = Message("regression.report.scatter_grid", "{n} units counted in a {g} x {g} grid; a darker cell holds "
                       "more units (shade by the logarithm of the count); the line is prediction = gold.{outside}",
                       "{n} 个样本按 {g}×{g} 的网格计数；格子越深样本越多（按计数的对数着色）；斜线为预测值 = "
                       "标准答案。{outside}")
SCATTER_OUTSIDE = Message("regression.report.scatter_outside", " The axes span the gold values; {n} prediction(s) "
                          "outside them are drawn at the edge.",
                          "坐标轴覆盖标准答案的取值范围；有 {n} 个超出范围的预测值画在边上。")
AXIS_GOLD = Message("regression.report.axis_gold", "gold", "标准答案")
AXIS_PREDICTION = Message("regression.report.axis_prediction", "prediction", "预测值")
RANK_TITLE = Message("regression.report.rank_title", "Correlations", "相关系数")
RANK_ROWS = (Message("regression.report.pearson", "Pearson's r (linear)", "皮尔逊相关系数（线性）"),
             Message("regression.report.spearman", "Spearman's rho (ranks, ties averaged)",
                     "斯皮尔曼相关系数（秩，并列取平均秩）"),
             Message("regression.report.kendall", "Kendall's tau-b (pairs, ties corrected)",
                     "肯德尔 τb 相关系数（成对比较，校正并列）"))
RANK_NOTE = Message("regression.report.rank_note", "A correlation with a constant column (every gold or every "
                    "prediction the same) is undefined; it is written as 0. Ties: {gold_ties} unit(s) share their "
                    "gold value with another, {pred_ties} share their prediction.",
                    "若某一列为常数（所有标准答案或所有预测值都相同），相关系数没有定义，记为 0。并列：{gold_ties} 个样本"
                    "的标准答案与其他样本相同，{pred_ties} 个样本的预测值与其他样本相同。")


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "rmse": Message("regression.key.rmse", "RMSE", "均方根误差 RMSE"),
    "mae": Message("regression.key.mae", "MAE", "平均绝对误差 MAE"),
    "mse": Message("regression.key.mse", "MSE", "均方误差 MSE"),
    "rmsle": Message("regression.key.rmsle", "RMSLE", "均方根对数误差 RMSLE"),
    "median_ae": Message("regression.key.median_ae", "Median absolute error", "绝对误差中位数"),
    "mape": Message("regression.key.mape", "MAPE", "平均绝对百分比误差 MAPE"),
    "smape": Message("regression.key.smape", "sMAPE", "对称平均绝对百分比误差 SMAPE"),
    "r2": Message("regression.key.r2", "R²", "决定系数 R²"),
    "pearson": Message("regression.key.pearson", "Pearson r", "皮尔逊相关系数"),
    "spearman": Message("regression.key.spearman", "Spearman rho", "斯皮尔曼相关系数"),
    "kendall": Message("regression.key.kendall", "Kendall tau-b", "肯德尔 τb 相关系数"),
}

@dataclass
class RegressionReference(Reference):
    values: np.ndarray = None      # the gold value of each unit, reference order


class Regression(TaskFamily):
    name = "regression"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    lower_is_better = LOWER_IS_BETTER
    reference_files = {"gold": "gold.csv"}
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS, separators=(",", "\t")),)
    unit_files = {"gold": UnitFile("csv", "id", COLUMNS)}
    options = OPTIONS

    def leaderboard_keys(self, options):
        return [k for k in KEYS if k != "rmsle" or options.get("rmsle", False)]

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        name = cfg.files["gold"]
        gold = reference_table(cfg, "gold", list(COLUMNS))
        ids = gold.cells("id").strip()
        check_reference_ids(ids, name)
        units, repeat = indexed_units(ids)
        if repeat is not None:
            raise ReferenceDataError(GOLD_REPEATED(file=name, id=ids.text(repeat)))
        column = gold.cells("value")
        values, counts = numbers(column)
        line = gold.line

        def at(i):
            return dict(file=name, line=int(line[i]), unit=ids.text(i), column="value")

        wrong = np.flatnonzero(counts != 1)
        if len(wrong):
            i = int(wrong[0])
            if counts[i] == 0:
                raise ReferenceDataError(GOLD_VALUE.at(**at(i), value=repr(column.text(i))))
            raise ReferenceDataError(GOLD_COUNT.at(**at(i), count=int(counts[i])))
        bad = np.flatnonzero(~np.isfinite(values))
        if len(bad):
            i = int(bad[0])
            raise ReferenceDataError(GOLD_VALUE.at(**at(i), value=repr(clip(column.text(i).strip()))))
        large = np.flatnonzero(np.abs(values) > MAX_MAGNITUDE)
        if len(large):
            i = int(large[0])
            raise ReferenceDataError(GOLD_LARGE.at(**at(i), value=clip(column.text(i).strip())))
        opts = cfg.options
        if opts["rmsle"] and (values < 0).any():
            i = int(np.flatnonzero(values < 0)[0])
            raise ReferenceDataError(GOLD_NEGATIVE.at(**at(i), value=column.text(i).strip()))
        if opts["value_range"] is not None:
            low, high = opts["value_range"]
            outside = np.flatnonzero((values < low) | (values > high))
            if len(outside):
                i = int(outside[0])
                raise ReferenceDataError(GOLD_RANGE.at(**at(i), value=column.text(i).strip(), low=low, high=high))
        notes = []
        zero = np.flatnonzero(values == 0)
        if len(zero):
            notes.append(NOTE_ZERO_GOLD(file=name, n=len(zero), ids=", ".join(
                units[int(i)] for i in zero[:NOTE_IDS])).text(cfg.language))
        return RegressionReference(Contract(units), strata=lambda: _strata(values), notes=notes, values=values)

    def public_contract(self, folder, cfg):
        """The ids of the public ``test_public.csv``: no values."""
        units = read_public_units(folder, self.public_inputs, "id")
        return None if units is None else Contract(units)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        table = self.submission_file().read(files["submission"], SubmissionError)
        values, counts = numbers(table.cells("value"))
        # (the table, each row's number, the count of numbers per row where some row has other than one)
        return table, values, (None if (counts == 1).all() else counts)

    def read_submission(self, parsed, contract, cfg, problems):
        table, values, counts = parsed
        name, line = table.name, table.line
        _check_swapped(table, contract.units)
        position = match_ids(table, "id", contract.units, problems)
        column = table.cells("value")

        def at(i):   # a problem's place (the ids are stripped for the few rows named, not kept for all)
            return dict(file=name, line=int(line[i]), unit=table.cells("id")[np.array([i])].strip().text(0) or None,
                        column="value")

        if counts is not None:
            one = counts == 1
            per_row = np.full(len(counts), np.nan)
            per_row[one] = values[(np.cumsum(counts) - counts)[one]]
            problems.add_rows(np.flatnonzero(counts == 0), line, lambda i: EMPTY_VALUE.at(**at(i)))
            problems.add_rows(np.flatnonzero(counts > 1), line, lambda i: TWO_VALUES.at(
                **at(i), count=int(counts[i]), value=repr(clip(column.text(i).strip()))))
            values = per_row
            checked = one
        else:
            checked = np.ones(len(values), dtype=bool)
        problems.add_rows(np.flatnonzero(checked & ~np.isfinite(values)), line,
                          lambda i: _not_a_number(column.text(i).strip(), at(i)))
        problems.add_rows(np.flatnonzero((values > MAX_MAGNITUDE) | (values < -MAX_MAGNITUDE)), line,
                          lambda i: TOO_LARGE.at(**at(i), value=repr(clip(column.text(i).strip()))))
        if cfg.options["rmsle"]:
            problems.add_rows(np.flatnonzero(values < 0), line, lambda i: NEGATIVE.at(
                **at(i), value=clip(column.text(i).strip())))
        missing_ids(table, contract.units, position, problems)
        if problems:
            return None
        out = np.empty(len(contract.units))
        out[position] = values
        return out

    def take(self, sub, contract, positions):
        return sub[positions]

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def advice(self, sub, contract, cfg):
        """Every value the same, every value a test id, predictions outside the declared range of the values."""
        found = []
        n = len(sub)
        if n >= 2 and (sub == sub[0]).all():
            found.append(ADVICE_SAME(n=advice.count(n), value=_number(sub[0])))
        elif n >= 2:   # values that read as test ids (17.0 as "17"): written where the ids go, and back
            as_ids = [_number(v) for v in sub[:SWAP_ROWS]]
            if (unit_index(contract.units).get_indexer(_cells(as_ids)) >= 0).all():
                found.append(ADVICE_IDS(value=as_ids[0]))
        span = cfg.options["value_range"]
        if span is not None and n:
            low, high = span
            outside = (sub < low) | (sub > high)
            share = outside.mean()
            if share > 0.5:
                found.append(ADVICE_SCALE(share=advice.share(share), low=_number(low), high=_number(high),
                                          min=_number(sub.min()), max=_number(sub.max())))
            elif outside.any():
                found.append(ADVICE_OUTSIDE(n=advice.count(outside.sum()), low=_number(low), high=_number(high),
                                            ids=advice.ids(advice.units_where(contract.units, outside))))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        everything = bool(mask.all())
        y = ref.values if everything else ref.values[mask]
        p = sub if everything else sub[mask]
        n = len(y)
        columns = _groups(y, p, cfg)
        keys = self.leaderboard_keys(cfg.options)
        units = [Units(group, tuple(k for k in GROUPS[group] if k in keys), GROUP_COLUMNS[group], columns[group], n)
                 for group in GROUPS if any(k in keys for k in GROUPS[group])]
        scores, _ = self.reduce(units, cfg)
        scores["median_ae"] = float(np.median(np.abs(p - y))) if n else 0.0
        ry, rp = (rg.Ranking(y), rg.Ranking(p)) if n else (None, None)   # one sort of each, shared
        scores["spearman"] = rg.spearman_of(ry, rp) if n else 0.0
        scores["kendall"] = rg.kendall_of(ry, rp) if n else 0.0
        scores = {k: scores[k] for k in keys}
        summary = SUMMARY(n=n, rmsle=(RMSLE_ON if cfg.options["rmsle"] else RMSLE_OFF)(),
                          smape_zero=SMAPE_NAMES[cfg.options["smape_zero"]]())
        return Result(scores, lambda: _sections(y, p, scores, ry, rp, columns), summary, units)

    def unit_scores(self, group, sums, cfg):
        """Each group's keys from its column sums read by name (``GROUP_COLUMNS``, ``group_scores``)."""
        return group_scores(group, GROUP_COLUMNS[group].read(sums))

    def unit_answers(self, ref, sub):
        """Each unit's submitted value (its 64-bit pattern: 0.1 and 0.1000001 differ)."""
        n = len(ref.units)
        return digests.per_unit(np.arange(n), n, np.ascontiguousarray(sub, dtype=np.float64).view(np.uint64))


# -- the per-unit tables ---------------------------------------------------------------------------------
def group_scores(group, s):
    """A group's keys from its sums ``s`` (read by name): MSE = Σe²/n, RMSE = √MSE; MAE, MAPE, the mean term
    (√ of it for RMSLE); sMAPE over the units it counts; R² from (n, Σu, Σu², Σe²), u = y - c (c: a shift of the
    board's gold, the same for every submission); Pearson from (n, Σu, Σu², Σv, Σv², Σuv), u and v the gold and
    the prediction each on its own scale (``standard_scale``)."""
    if group == "squared":
        mse = safe_div(s["squared_error"], s["units"])
        return {"mse": mse, "rmse": np.sqrt(mse)}
    if group == "absolute":
        return {"mae": safe_div(s["absolute_error"], s["units"])}
    if group == "log":
        return {"rmsle": np.sqrt(safe_div(s["squared_log_error"], s["units"]))}
    if group == "percentage":
        return {"mape": safe_div(s["percentage_error"], s["units"])}
    if group == "symmetric":
        return {"smape": safe_div(s["symmetric_error"], s["counted"])}
    if group == "r2":
        return {"r2": rg.r2_from_sums(s["units"], s["u"], s["uu"], s["squared_error"])}
    if group == "pearson":
        return {"pearson": rg.pearson_from_sums(s["units"], s["u"], s["uu"], s["v"], s["vv"], s["uv"])}
    raise KeyError(group)


def _shift(y):
    """The gold's shift c for the centred sums of R²: its mean (its one value when constant, so that the centred
    gold is exactly 0). It depends on the board's gold only, so the per-unit tables of two submissions can be
    swapped unit by unit (paired tests)."""
    if not len(y):
        return 0.0
    first = y[0]
    return float(first) if (y == first).all() else float(np.mean(y))


def standard_scale(x):
    """(centre, scale) that put a column on a scale of its own: x -> (x - centre) / scale lies in [-1, 1] with
    mean 0 (up to rounding), whatever the column's magnitude (5e7 or 1e-300: no square under- or overflows).
    A constant column (every value equal, exactly) gives (its value, 1), so that it becomes exactly 0.

    >>> standard_scale(np.array([5e7, 5e7 + 2, 5e7 + 4])), standard_scale(np.array([3.0, 3.0]))
    ((50000002.0, 2.0), (3.0, 1.0))
    """
    if not len(x):
        return 0.0, 1.0
    first = x[0]
    if (x == first).all():
        return float(first), 1.0
    centre = float(np.mean(x))
    return centre, float(np.max(np.abs(x - centre)))


def _groups(y, p, cfg):
    """{group: its per-unit columns} (the column values made when asked, none kept between).

    Pearson's columns are the gold and the prediction each on its own scale (``standard_scale``): r does not
    change under x -> (x - c) / s with s > 0, and the sums of squares and products then lose nothing to the
    columns' magnitudes or offsets. The gold's scale is the same for every submission; the prediction's is its
    own, so a paired test swaps units of two submissions as the correlation sees them."""
    n = len(y)
    shift = _shift(y)
    (gc, gs), (pc, ps) = standard_scale(y), standard_scale(p)
    e2 = lambda: np.square(p - y)                    # noqa: E731
    u = lambda: (y - gc) / gs                        # noqa: E731
    v = lambda: (p - pc) / ps                        # noqa: E731
    groups = {"squared": {"units": Ones(n), "squared_error": Each(e2, 1)},
              "absolute": {"units": Ones(n), "absolute_error": Each(lambda: np.abs(p - y), 1)},
              "percentage": {"units": Ones(n), "percentage_error": Each(lambda: rg.percentage_errors(y, p), 1)},
              "r2": {"units": Ones(n), "u": Each(lambda: y - shift, 1), "uu": Each(lambda: np.square(y - shift), 1),
                     "squared_error": Each(e2, 1)},
              "pearson": {"units": Ones(n), "u": Each(u, 1), "uu": Each(lambda: np.square(u()), 1), "v": Each(v, 1),
                          "vv": Each(lambda: np.square(v()), 1), "uv": Each(lambda: u() * v(), 1)}}
    if cfg.options["rmsle"]:
        groups["log"] = {"units": Ones(n), "squared_log_error": Each(lambda: rg.log_errors(y, p), 1)}
    skip = cfg.options["smape_zero"] == "skip"
    counted = (lambda: rg.symmetric_errors(y, p)[1]) if skip else None
    groups["symmetric"] = {"counted": Each(counted, 1) if skip else Ones(n),
                           "symmetric_error": Each(lambda: rg.symmetric_errors(y, p)[0], 1)}
    return groups


def _strata(values):
    """Board strata: each unit's gold decile ('0' to '9'; equal values share one), so that both boards span the
    values alike.

    >>> _strata(np.array([5.0, 1.0, 5.0, 3.0])).tolist()
    ['5', '0', '5', '2']
    """
    return np.array([str(k) for k in range(QUANTILES)], dtype=object)[_deciles(values)]


def _deciles(values, ranking=None):
    """Each value's group of ``QUANTILES`` about equal groups by rank; equal values take the group of the first."""
    n = len(values)
    if not n:
        return np.zeros(0, dtype=np.int64)
    return (ranking or rg.Ranking(values)).first() * QUANTILES // n


# -- reading ---------------------------------------------------------------------------------------------
def _not_a_number(text, place):
    lowered = text.lower().lstrip("+-")
    if lowered in ("nan", "inf", "infinity"):
        return NOT_FINITE.at(**place, value=repr(clip(text)))
    return NOT_A_NUMBER.at(**place, value=repr(clip(text)), hint=DECIMAL_COMMA() if "," in text else "")


def _check_swapped(table, units):
    """SubmissionError when the first rows' id cells are no test ids while their value cells are: the columns were
    written value first under the header id,value."""
    ids = table.cells("id")[:SWAP_ROWS].strip()
    values = table.cells("value")[:SWAP_ROWS].strip()
    index = unit_index(units)
    if not len(ids) or (index.get_indexer(ids) >= 0).any():
        return
    if (index.get_indexer(values) >= 0).all():
        raise SubmissionError(SWAPPED.at(table.name, int(table.line[0]), id=repr(clip(ids.text(0))),
                                         value=repr(clip(values.text(0)))))


def _cells(texts):
    from ..bytelevel.cells import Cells
    return Cells.from_strings(texts)


def _number(value):
    """A value as a person writes it: 3, 2.5, 1e-07 (up to 6 significant digits)."""
    return "%.6g" % float(value)


# -- the report --------------------------------------------------------------------------------------------
def _sections(y, p, scores, ry, rp, columns):
    e = p - y
    n = len(y)
    return [_errors_section(y, p, e), _quantile_section(y, p, e, ry, columns), _scatter_section(y, p),
            _rank_section(scores, ry, rp)] if n else [_errors_section(y, p, e)]


def _errors_section(y, p, e):
    n = len(y)
    values = [n, float(y.mean()) if n else 0.0, float(p.mean()) if n else 0.0, float(e.mean()) if n else 0.0,
              int((e > 0).sum()), int((e < 0).sum()), int((e == 0).sum()), float(np.abs(e).max()) if n else 0.0]
    rows = [[m, v] for m, v in zip(ERROR_ROWS, values)]
    return report.Section(ERRORS_TITLE, [report.Table([WHAT, report.VALUE], rows)])


def _quantile_section(y, p, e, ranking, columns):
    """The units by gold decile: their values, and their MAE and RMSE (the leaderboard's ``group_scores`` of each
    decile's sums)."""
    group = _deciles(y, ranking)
    k = QUANTILES
    count = np.bincount(group, minlength=k)
    total = lambda w: np.bincount(group, weights=w, minlength=k)  # noqa: E731
    low = np.full(k, np.inf)
    high = np.full(k, -np.inf)
    np.minimum.at(low, group, y)
    np.maximum.at(high, group, y)
    shown = np.flatnonzero(count)
    mean = lambda w: total(w)[shown] / count[shown]  # noqa: E731
    gold, pred, err = mean(y), mean(p), mean(e)
    by_decile = {name: group_scores(name, GROUP_COLUMNS[name].read(group_sums(
        GROUP_COLUMNS[name].ordered(columns[name]), len(y), group, k))) for name in ("absolute", "squared")}
    mae, rmse = by_decile["absolute"]["mae"][shown], by_decile["squared"]["rmse"][shown]
    # the groups shown, numbered 1, 2, ... as the table lists them: tied gold values can leave tenths empty
    names = ["%d" % (i + 1) for i in range(len(shown))]
    rows = [[names[i], "%s / %s" % (_number(low[g]), _number(high[g])), int(count[g]), float(gold[i]),
             float(pred[i]), float(err[i]), float(mae[i]), float(rmse[i])] for i, g in enumerate(shown)]
    top = float(max(rmse.max(), mae.max())) if len(shown) else 1.0
    caption = (QUANTILE_NOTE(k=len(shown)) if len(shown) == k else
               QUANTILE_MERGED(n=len(y), distinct=len(ranking.starts) if ranking is not None else
                               len(np.unique(y)), k=len(shown)))
    return report.Section(QUANTILE_TITLE, [
        report.Table(list(QUANTILE_HEADERS), rows, caption=caption),
        report.Bars(QUANTILE_CHART, names, [(SERIES_MAE, [float(v) for v in mae]),
                                            (SERIES_RMSE, [float(v) for v in rmse])], top=top or 1.0),
    ], per_class=True)


def _scatter_section(y, p):
    low, high = float(y.min()), float(y.max())
    if low == high:                              # a constant gold: a window around it
        pad = max(abs(low) * 0.5, 0.5)
        low, high = low - pad, high + pad
    ticks = charts.nice_ticks(low, high)[0]      # the square spans the gold values, stretched to round ticks
    low, high = ticks[0], ticks[-1]
    outside = int(((p < low) | (p > high)).sum())
    note = SCATTER_OUTSIDE(n=outside) if outside else ""
    clipped = np.clip(p, low, high)
    if len(y) <= POINTS_MAX:
        block = report.Scatter(SCATTER_CHART, low, high, AXIS_GOLD, AXIS_PREDICTION,
                               points=[(float(a), float(b)) for a, b in zip(y, clipped)],
                               caption=SCATTER_POINTS(outside=note))
    else:
        cell = lambda v: np.minimum(((v - low) / (high - low) * GRID).astype(np.int64), GRID - 1)  # noqa: E731
        counts = np.bincount(cell(clipped) * GRID + cell(y), minlength=GRID * GRID).reshape(GRID, GRID)
        block = report.Scatter(SCATTER_CHART, low, high, AXIS_GOLD, AXIS_PREDICTION, grid=counts.tolist(),
                               caption=SCATTER_GRID(n=len(y), g=GRID, outside=note))
    return report.Section(SCATTER_TITLE, [block], per_class=True)


def _rank_section(scores, ry, rp):
    values = [scores.get("pearson", 0.0), scores["spearman"], scores["kendall"]]
    rows = [[label, float(v)] for label, v in zip(RANK_ROWS, values)]
    note = RANK_NOTE(gold_ties=ry.tied_units(), pred_ties=rp.tied_units())
    return report.Section(RANK_TITLE, [report.Table([WHAT, report.VALUE], rows), report.Text(note, "note")])


FAMILY = Regression()
