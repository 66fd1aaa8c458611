"""Extractive question answering: exact match and F1 of one answer string per question against its gold answers.

Files:

- gold (``gold.json``, the organizer's): a JSON list of objects ``{"id": "...", "answers": ["...", ...]}``, the
  several gold answers of a question; an empty list marks an unanswerable question (SQuAD 2.0);
- public test inputs (``test_public.json``, the kit's): a JSON list of ``{"id", "context", "question"}``: the
  passage is what the kit's warnings compare answers with;
- submission: ``predictions.json``, one JSON object ``{id: answer}`` as the official SQuAD scripts read it
  (``""``: no answer), or ``predictions.csv`` with the header ``id,answer``; with option
  ``no_answer_probabilities``, ``na_probs.json`` as well, ``{id: probability that there is no answer}``.

Option ``rules`` picks the official formula (every one per question, the question's best gold answer for each
measure; the keys are 100 times the means over the board's questions):

- ``squad_v2`` (SQuAD 2.0's evaluate-v2.0.py): lower-case, ASCII punctuation and the articles a/an/the removed,
  whitespace tokens; EM = equal token lists, F1 over the common tokens (``metrics.squad``); an empty answer
  is right exactly on an unanswerable question; keys ``f1``, ``exact`` and the same over the answerable
  (``has_ans_*``) and unanswerable (``no_ans_*``) questions; with no-answer probabilities, a question whose
  probability exceeds ``na_prob_thresh`` is answered empty, and ``best_f1``, ``best_exact`` and their
  thresholds are the script's best-threshold keys (computed on the board's questions, no interval);
- ``squad_v1.1`` (evaluate-v1.1.py): the same normalisation, every question answerable, keys ``f1``, ``exact``;
- ``cmrc2018`` (CMRC 2018's script): Chinese and English punctuation removed, F1 over the longest common
  substring of Chinese characters and word tokens (``metrics.cmrc``); keys ``f1``, ``exact`` and ``average``
  (their mean, the script's AVERAGE).

A question with no entry in the submission scores 0 on both measures (as the v1.1 and CMRC scripts count it;
SQuAD 2.0's script leaves it out of its totals instead: docs/qa.md). Per question, the table behind the keys
(``QUESTION_COLUMNS``) holds exact and F1 (0..1), whether the question is answerable, and exact and F1 again on
answerable questions only, so every key but the best-threshold ones is a formula of its column sums and the
primary key's interval resamples questions.

>>> from scorer.tasks._per_unit import column_sums
>>> cols = question_table(np.array([1, 1, 0]), np.array([1.0, 1.0, 0.5]), np.array([True, False, True]))
>>> sums = column_sums(QUESTION_COLUMNS.ordered(cols))
>>> {k: round(float(v), 4) for k, v in FAMILY.unit_scores("questions", sums, None).items() if "f1" in k}
{'f1': 83.3333, 'has_ans_f1': 75.0, 'no_ans_f1': 100.0}
"""
import os
from dataclasses import dataclass
import itertools
from typing import Any, Optional

import numpy as np

from .. import advice, digests, report
from ..config import BOOLEAN, NOT_ALLOWED, Option, number_in
from ..bytelevel.cells import Cells
from ..errors import ConfigError, ReferenceDataError, SubmissionError, clip
from ..metrics import cmrc, squad
from ..problems import Message
from ..tables import check_reference_ids, indexed_units, read_reference_bytes, unit_index
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units, kept_codes
from ._per_unit import Each, Ones, Schema
from ._texts_io import _Pairs, kind, parse_texts, per_unit, read_json, read_texts, reference_json

RULES = ("squad_v2", "squad_v1.1", "cmrc2018")
KEYS = {"squad_v2": ["f1", "exact", "has_ans_f1", "has_ans_exact", "no_ans_f1", "no_ans_exact"],
        "squad_v1.1": ["f1", "exact"], "cmrc2018": ["f1", "exact", "average"]}
BEST_KEYS = ["best_f1", "best_exact", "best_f1_thresh", "best_exact_thresh"]
# a question's row: 1; its EM and F1 (0..1); answerable (1/0); EM and F1 where answerable, else 0
QUESTION_COLUMNS = Schema("questions", "exact", "f1", "answerable", "exact_answerable", "f1_answerable")
PASSAGE_SHOWN = 10

UNIT = Message("qa.unit", "questions", "问题")
TITLE = Message("qa.report.title", "Extractive question answering", "抽取式问答")
ANSWER = Message("qa.answer", "answer", "答案")
PROBABILITY = Message("qa.probability", "no-answer probability", "无答案概率")
KEY_LABELS = {
    "f1": Message("qa.key.f1", "F1", "F1"),
    "exact": Message("qa.key.exact", "Exact match", "完全匹配（EM）"),
    "average": Message("qa.key.average", "Average of EM and F1", "EM 与 F1 的平均"),
    "has_ans_f1": Message("qa.key.has_ans_f1", "F1 (answerable questions)", "F1（有答案的问题）"),
    "has_ans_exact": Message("qa.key.has_ans_exact", "Exact match (answerable questions)", "完全匹配（有答案的问题）"),
    "no_ans_f1": Message("qa.key.no_ans_f1", "F1 (unanswerable questions)", "F1（无答案的问题）"),
    "no_ans_exact": Message("qa.key.no_ans_exact", "Exact match (unanswerable questions)", "完全匹配（无答案的问题）"),
    "best_f1": Message("qa.key.best_f1", "Best F1 (best threshold)", "最佳 F1（最佳无答案阈值）"),
    "best_exact": Message("qa.key.best_exact", "Best exact match (best threshold)", "最佳完全匹配（最佳无答案阈值）"),
    "best_f1_thresh": Message("qa.key.best_f1_thresh", "Threshold of the best F1", "最佳 F1 的阈值"),
    "best_exact_thresh": Message("qa.key.best_exact_thresh", "Threshold of the best EM", "最佳完全匹配的阈值"),
}
RULE_TEXTS = {
    "squad_v2": Message("qa.rules.squad_v2", "SQuAD 2.0 (evaluate-v2.0.py): lower-cased, ASCII punctuation and the "
                        "articles a/an/the removed, split at whitespace; F1 over the common tokens; an empty answer "
                        "is right exactly on an unanswerable question; no-answer threshold {thresh}.",
                        "SQuAD 2.0 官方评测脚本：转为小写，去掉 ASCII 标点和冠词 a/an/the，按空白切分；F1 "
                        "按共同词计算；空答案仅在无答案的问题上算对；无答案阈值 {thresh}。"),
    "squad_v1.1": Message("qa.rules.squad_v1.1", "SQuAD 1.1 (evaluate-v1.1.py): lower-cased, ASCII punctuation and "
                          "the articles a/an/the removed, split at whitespace; F1 over the common tokens.",
                          "SQuAD 1.1 官方评测脚本：转为小写，去掉 ASCII 标点和冠词 a/an/the，按空白切分；F1 "
                          "按共同词计算。"),
    "cmrc2018": Message("qa.rules.cmrc2018", "CMRC 2018 (cmrc2018_evaluate.py): lower-cased and stripped, Chinese "
                        "and English punctuation removed; each Chinese character one token, other runs cut into "
                        "words; F1 over the longest common substring of tokens.",
                        "CMRC 2018 官方评测脚本：转为小写并去掉首尾空白，去掉中英文标点；每个汉字为一个"
                        "词，其余连续字符切分为单词；F1 按最长公共子串计算。"),
}
RULE_NAMES = {"squad_v2": "SQuAD 2.0", "squad_v1.1": "SQuAD 1.1", "cmrc2018": "CMRC 2018"}
NO_THRESHOLD = Message("qa.rules.no_threshold", "1 (no probabilities given)", "1（未提供概率）")
RULES_TITLE = Message("qa.report.rules_title", "How answers are compared", "答案的比较方式")
SUMMARY = Message("qa.summary", "{n} questions on this board ({answerable} answerable, {unanswerable} unanswerable); "
                  "rules {rules}.", "本榜单 {n} 个问题（{answerable} 个有答案，{unanswerable} 个无答案）；规则 {rules}。")
QUESTIONS_TITLE = Message("qa.report.questions", "Questions", "问题")
QUESTION_HEADERS = (Message("qa.report.which", "questions", "问题"), Message("qa.report.count", "count", "数量"),
                    Message("qa.report.exact", "exact match", "完全匹配"), Message("qa.report.f1", "F1", "F1"),
                    Message("qa.report.empty", "answered empty", "给出空答案"),
                    Message("qa.report.absent", "no entry", "未作答"))
QUESTION_ROWS = (Message("qa.report.all", "all", "全部"), Message("qa.report.answerable", "answerable", "有答案"),
                 Message("qa.report.unanswerable", "unanswerable", "无答案"))
QUESTIONS_CHART = Message("qa.report.questions_chart", "Exact match and F1 (%) by kind of question",
                          "按问题类型的完全匹配与 F1（%）")
SERIES_EXACT = Message("qa.report.series_exact", "exact match", "完全匹配")
QUESTION_NOTE = Message("qa.report.questions_note", "Scores in percent. A question with no entry in the submission "
                        "scores 0.", "分数为百分数。提交中没有条目的问题得 0 分。")
BEST_TITLE = Message("qa.report.best", "Best no-answer threshold", "最佳无答案阈值")
BEST_HEADERS = (Message("qa.report.measure", "measure", "指标"), Message("qa.report.best_score", "best score", "最佳分数"),
                Message("qa.report.threshold", "threshold", "阈值"))
BEST_NOTE = Message("qa.report.best_note", "The score if every question whose no-answer probability exceeds the "
                    "threshold were answered empty, at the threshold that maximises it on this board (SQuAD 2.0's "
                    "best_f1 and best_exact).", "若无答案概率超过阈值的问题都给出空答案时的分数，取本榜单上使其最大"
                    "的阈值（SQuAD 2.0 的 best_f1 和 best_exact）。")

GOLD_NOT_LIST = Message("reference.qa.not_list", "{file} must be a JSON list of objects {{\"id\": ..., \"answers\": "
                        "[...]}}; it holds a JSON {kind}.", None)
GOLD_ENTRY = Message("reference.qa.entry", "{file} entry {n}: {what}; each entry is {{\"id\": \"...\", \"answers\": "
                     "[\"...\", ...]}} (an empty list: unanswerable).", None)
GOLD_REPEATED = Message("reference.qa.repeated", "{file} repeats id {id}.", None)
GOLD_NO_ANSWER = Message("reference.qa.no_answer", "{file}: question {id} has no gold answer, but rules {rules} need "
                         "one for every question (only squad_v2 has unanswerable questions).", None)
PUBLIC_ENTRY = Message("reference.qa.public_entry", "{file} entry {n}: {what}; each entry is {{\"id\": \"...\", "
                       "\"context\": \"...\", \"question\": \"...\"}}.", None)
PROBS_NEED_V2 = "false: no-answer probabilities are SQuAD 2.0's (rules squad_v2)"

NO_PROBS = Message("qa.no_probs", "the submission has no na_probs.json: this competition scores no-answer "
                   "probabilities; add na_probs.json, {{question id: probability that it has no answer}}, beside "
                   "{file}.", "提交中没有 na_probs.json：本竞赛需要无答案概率；请在 {file} 旁边加上 na_probs.json，"
                   "内容为 {{问题 id: 该问题无答案的概率}}。")
PROBS_NOT_OBJECT = Message("qa.probs_not_object", "{file} holds a JSON {kind}, not one object {{question id: "
                           "probability}}; write json.dump({{id: probability, ...}}).",
                           "{file} 是一个 JSON {kind}，而不是对象 {{问题 id: 概率}}；请写 json.dump({{id: 概率, ...}})。")
PROB_NOT_NUMBER = Message("qa.prob_not_number", "{where}: the no-answer probability is a JSON {kind} ({value}), not "
                          "a finite number; write a number such as 0.25.",
                          "{where}：无答案概率是 JSON {kind}（{value}），不是有限数字；请写一个数字，例如 0.25。")
PROB_UNKNOWN = Message("qa.prob_unknown", "{where}: id {id} is not in the test set; use the ids of the test inputs.",
                       "{where}：id {id} 不在测试集中；请使用测试输入中的 id。")
PROB_TWICE = Message("qa.prob_twice", "{where}: id {id} is given twice; keep one probability per id.",
                     "{where}：id {id} 出现了两次；每个 id 只保留一个概率。")
PROB_MISSING = Message("qa.prob_missing", "{file}: {n} answered question(s) have no no-answer probability ({ids}); "
                       "give one for every question of {predictions}.",
                       "{file}：{n} 个已作答的问题没有无答案概率（{ids}）；请为 {predictions} 中的每个问题给出概率。")

ADVICE_ABSENT = Message("qa.advice_absent", "{n} question(s) have no entry, so each scores 0 even where there is no "
                        "answer: {ids}. Give every question an entry; write \"\" for a question you find unanswerable.",
                        "有 {n} 个问题没有条目，每个都得 0 分（即使该问题无答案）：{ids}。请为每个问题写一项；认为无答案的"
                        "问题写 \"\"。")
ADVICE_ALL_EMPTY = Message("qa.advice_all_empty", "all {n} answers are empty: only unanswerable questions can score. "
                           "Give the span of the passage that answers each question.",
                           "全部 {n} 个答案都为空：只有无答案的问题能得分。请给出段落中回答每个问题的片段。")
ADVICE_EMPTY = Message("qa.advice_empty", "{n} answer(s) are empty, but every question of this task has an answer "
                       "(rules {rules}), so each scores 0: {ids}.",
                       "有 {n} 个答案为空，但本任务（规则 {rules}）的每个问题都有答案，因此每个都得 0 分：{ids}。")
ADVICE_LONGER = Message("qa.advice_longer", "{n} answer(s) are longer than their passage: {ids}. An extractive "
                        "answer is a short span copied from the question's passage (test_public.json), not the "
                        "passage or more.", "有 {n} 个答案比对应的段落还长：{ids}。抽取式答案是从问题所属段落"
                        "（test_public.json）中复制的一个短片段，而不是整个段落或更多内容。")
ADVICE_SAME = Message("qa.advice_same", "all {n} answers are the same ({value}); give the answer of each question.",
                      "全部 {n} 个答案都相同（{value}）；请为每个问题分别作答。")


def _check_keys(options):
    if options.get("no_answer_probabilities") and options.get("rules", "squad_v2") != "squad_v2":
        raise ConfigError(NOT_ALLOWED(key="options.no_answer_probabilities", value="true", allowed=PROBS_NEED_V2))


@dataclass
class QAContract(Contract):
    passages: Optional[Any] = None     # the passage of each unit (public inputs), or None


@dataclass
class QAReference(Reference):
    answers: Any = None                # every gold answer (str), questions in order
    owner: np.ndarray = None           # the question of each gold answer
    answerable: np.ndarray = None      # per question: it has a gold answer


@dataclass
class QASubmission:
    answers: np.ndarray                # per unit: the answer ("" where absent)
    present: np.ndarray                # per unit: the submission has an entry
    probs: Optional[np.ndarray] = None     # per unit: the no-answer probability (nan where none)
    order: Optional[np.ndarray] = None     # the units of the probabilities file, in its order


class QA(TaskFamily):
    name = "qa"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    reference_files = {"gold": "gold.json"}
    submission_files = (SubmissionFile("predictions", "predictions.*", ("id", "answer"), separators=(",", "\t"),
                                       fullwidth=False),
                        SubmissionFile("na_probs", "na_probs.json"))
    required_slots = ("predictions",)
    public_inputs = "test_public.json"
    unit_files = {"gold": UnitFile("json", "id")}
    options = {
        "rules": Option("squad_v2", RULES, "which official scorer's normalisation and keys: squad_v2 (SQuAD 2.0, "
                        "unanswerable questions), squad_v1.1, cmrc2018 (Chinese, longest common substring F1)"),
        "no_answer_probabilities": Option(False, BOOLEAN, "squad_v2 only: the submission adds na_probs.json "
                                          "({id: probability of no answer}); adds the best-threshold keys"),
        "na_prob_thresh": Option(1.0, number_in(0, 1), "squad_v2 with probabilities: a question whose no-answer "
                                 "probability exceeds this is answered empty (the script's default 1.0)"),
    }

    def leaderboard_keys(self, options):
        _check_keys(options)
        rules = options.get("rules", "squad_v2")
        return list(KEYS[rules]) + (list(BEST_KEYS) if options.get("no_answer_probabilities") else [])

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        name = cfg.files["gold"]
        entries = _entries(reference_json(read_reference_bytes(cfg, "gold"), name), name, GOLD_NOT_LIST)
        ids, answers, owner = _gold_answers(entries, name)
        cells = Cells.from_strings(ids)
        check_reference_ids(cells, name)
        units, repeat = indexed_units(cells)
        if repeat is not None:
            raise ReferenceDataError(GOLD_REPEATED(file=name, id=ids[repeat]))
        answerable = np.bincount(owner, minlength=len(ids)) > 0
        rules = cfg.options["rules"]
        if rules != "squad_v2" and not answerable.all():
            raise ReferenceDataError(GOLD_NO_ANSWER(file=name, id=ids[int(np.argmin(answerable))], rules=rules))

        def strata():   # made only when the organizer's board split asks for them
            return np.where(answerable, "answerable", "unanswerable").astype(object)

        return QAReference(QAContract(units), strata=strata, answers=answers, owner=owner, answerable=answerable)

    def public_contract(self, folder, cfg):
        """The question ids and passages of the public ``test_public.json``: no answers."""
        path = os.path.join(folder, self.public_inputs)
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as fh:
            data = fh.read()
        entries = _entries(reference_json(data, self.public_inputs), self.public_inputs, GOLD_NOT_LIST)
        ids, passages = [], []
        for n, fields in enumerate(entries, start=1):
            if not isinstance(fields.get("id"), str) or not isinstance(fields.get("context", ""), str):
                raise ReferenceDataError(PUBLIC_ENTRY(file=self.public_inputs, n=n,
                                                      what="its \"id\" or \"context\" is no string"))
            ids.append(fields["id"].strip())
            passages.append(fields.get("context"))
        cells = Cells.from_strings(ids)
        check_reference_ids(cells, self.public_inputs)
        units, repeat = indexed_units(cells)
        if repeat is not None:
            raise ReferenceDataError(GOLD_REPEATED(file=self.public_inputs, id=ids[repeat]))
        return QAContract(units, passages=passages if all(p is not None for p in passages) else None)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        predictions = parse_texts(files["predictions"], "answer", ANSWER())
        probs = files.get("na_probs")
        if cfg.options["no_answer_probabilities"] and probs is not None:
            value = read_json(probs.read_bytes(), probs.name, SubmissionError)
            if not isinstance(value, _Pairs):
                raise SubmissionError(PROBS_NOT_OBJECT(file=probs.name, kind=kind(value)))
            probs = (probs.name, value)
        else:
            probs = None
        return predictions, probs, files["predictions"].name

    def read_submission(self, parsed, contract, cfg, problems):
        predictions, probs, name = parsed
        entries = read_texts(predictions, contract.units, problems, ANSWER())
        n = len(contract.units)
        if cfg.options["no_answer_probabilities"] and probs is None:
            problems.add(NO_PROBS(file=name))
            return None
        values = order = None
        if probs is not None:
            values, order = _probabilities(probs, contract.units, problems)
        if problems:
            return None
        answers, present = per_unit(entries, n)
        if values is not None:
            absent = present & np.isnan(values)
            if absent.any():
                shown = advice.units_where(contract.units, absent)
                problems.add(PROB_MISSING(file=probs[0], n=advice.count(len(shown)), ids=advice.ids(shown),
                                          predictions=name))
                return None
        return QASubmission(answers, present, values, order)

    def take(self, sub, contract, positions):
        positions = np.asarray(positions, dtype=np.int64)
        order = None
        if sub.order is not None:
            codes = kept_codes(positions, len(contract.units))[sub.order]
            order = codes[codes >= 0]
        return QASubmission(sub.answers[positions], sub.present[positions],
                            None if sub.probs is None else sub.probs[positions], order)

    # -- advice ------------------------------------------------------------------------------
    def advice(self, sub, contract, cfg):
        """Questions without an entry, every answer empty (or empty answers where every question has one), answers
        longer than their passage, every answer the same."""
        found = []
        if not sub.present.all():
            shown = advice.units_where(contract.units, ~sub.present)
            found.append(ADVICE_ABSENT(n=advice.count(len(shown)), ids=advice.ids(shown)))
        given = sub.answers[sub.present]
        empty = sub.present & (sub.answers == "")
        if len(given) and empty[sub.present].all():
            found.append(ADVICE_ALL_EMPTY(n=advice.count(len(given))))
            return found
        if empty.any() and cfg.options["rules"] != "squad_v2":
            shown = advice.units_where(contract.units, empty)
            found.append(ADVICE_EMPTY(n=advice.count(len(shown)), ids=advice.ids(shown),
                                      rules=RULE_NAMES[cfg.options["rules"]]))
        passages = getattr(contract, "passages", None)
        if passages is not None:
            answer_len = np.fromiter(map(len, sub.answers), dtype=np.int64, count=len(sub.answers))
            passage_len = np.fromiter(map(len, passages), dtype=np.int64, count=len(passages))
            longer = sub.present & (answer_len > passage_len) & (answer_len > 0)
            if longer.any():
                shown = advice.units_where(contract.units, longer)
                found.append(ADVICE_LONGER(n=advice.count(len(shown)), ids=advice.ids(shown)))
        if len(given) >= 2 and given[0] != "" and (given == given[0]).all():
            found.append(ADVICE_SAME(n=advice.count(len(given)), value=repr(clip(given[0], 60))))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        rules = cfg.options["rules"]
        q = np.flatnonzero(mask)
        cols, raw = question_scores(ref, sub, q, cfg)
        answerable = ref.answerable[q]
        keys = tuple(KEYS[rules])
        units = [Units("questions", keys, QUESTION_COLUMNS, question_table(cols["exact"], cols["f1"], answerable),
                       len(q))]
        scores, _ = self.reduce(units, cfg)
        best = None
        if cfg.options["no_answer_probabilities"]:
            best = _best(raw, answerable, sub, q)
            scores.update(best)
        scores = {key: scores[key] for key in self.leaderboard_keys(cfg.options)}
        summary = SUMMARY(n=advice.count(len(q)), answerable=advice.count(answerable.sum()),
                          unanswerable=advice.count((~answerable).sum()), rules=RULE_NAMES[rules])
        sections = [_questions_section(cols, answerable, sub.answers[q], sub.present[q], rules),
                    report.Section(RULES_TITLE, [report.Text(RULE_TEXTS[rules](
                        thresh="%g" % cfg.options["na_prob_thresh"] if cfg.options["no_answer_probabilities"]
                        else NO_THRESHOLD()))])]
        if best is not None:
            sections.append(report.Section(BEST_TITLE, [report.Table(list(BEST_HEADERS), [
                ["F1", best["best_f1"], best["best_f1_thresh"]],
                ["EM", best["best_exact"], best["best_exact_thresh"]]], caption=BEST_NOTE)]))
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """Over the questions: exact = 100 sum EM / n, f1 = 100 sum F1 / n; has_ans_* over the answerable ones,
        no_ans_* over the others (the sums less the answerable ones'); average = (exact + f1) / 2."""
        if group != "questions":
            raise KeyError(group)
        s = QUESTION_COLUMNS.read(sums)
        exact, f1 = squad.scores(s["exact"], s["f1"], s["questions"])
        has_exact, has_f1 = squad.scores(s["exact_answerable"], s["f1_answerable"], s["answerable"])
        no_exact, no_f1 = squad.scores(s["exact"] - s["exact_answerable"], s["f1"] - s["f1_answerable"],
                                       s["questions"] - s["answerable"])
        return {"f1": f1, "exact": exact, "average": (exact + f1) * 0.5, "has_ans_f1": has_f1,
                "has_ans_exact": has_exact, "no_ans_f1": no_f1, "no_ans_exact": no_exact}

    def unit_answers(self, ref, sub):
        """Each question's answer (and no-answer probability), "" and absent told apart."""
        n = len(sub.answers)
        columns = [sub.answers.astype(str), sub.present]
        if sub.probs is not None:
            columns.append(np.nan_to_num(sub.probs, nan=-1.0))
        return digests.per_unit(np.arange(n), n, *columns)


def question_table(exact, f1, answerable):
    """The per-question columns of ``QUESTION_COLUMNS``."""
    answerable = np.asarray(answerable, dtype=bool)
    exact = np.asarray(exact, dtype=np.int64)
    f1 = np.asarray(f1, dtype=float)
    return {"questions": Ones(len(exact)), "exact": Each(exact), "f1": Each(f1),
            "answerable": Each(answerable.astype(np.int64)), "exact_answerable": Each(np.where(answerable, exact, 0)),
            "f1_answerable": Each(np.where(answerable, f1, 0.0))}


def question_scores(ref, sub, q, cfg):
    """(per-question columns after the no-answer threshold, the same before it (squad_v2 with probabilities, else
    None)) of the questions at positions ``q``."""
    rules = cfg.options["rules"]
    rank = np.full(len(ref.answerable), -1, dtype=np.int64)
    rank[q] = np.arange(len(q))
    kept = rank[ref.owner] >= 0 if len(ref.owner) else np.zeros(0, dtype=bool)
    golds = ref.answers if kept.all() else [a for a, k in zip(ref.answers, kept.tolist()) if k]
    owner = rank[ref.owner][kept]
    predictions = sub.answers[q].tolist()
    predicted = sub.present[q]
    if rules == "cmrc2018":
        return cmrc.question_columns(predictions, golds, owner, predicted=predicted), None
    version = "v2.0" if rules == "squad_v2" else "v1.1"
    if rules == "squad_v2" and cfg.options["no_answer_probabilities"]:
        probs = np.nan_to_num(sub.probs[q], nan=0.0)
        cols = squad.question_columns(predictions, golds, owner, version, predicted=predicted, na_probs=probs,
                                      na_prob_thresh=cfg.options["na_prob_thresh"])
        raw = squad.question_columns(predictions, golds, owner, version, predicted=predicted)
        return cols, raw
    return squad.question_columns(predictions, golds, owner, version, predicted=predicted), None


def _best(raw, answerable, sub, q):
    """The best-threshold keys of SQuAD 2.0 on the questions at ``q`` (the probabilities file's order kept)."""
    rank = np.full(len(sub.answers), -1, dtype=np.int64)
    rank[q] = np.arange(len(q))
    order = rank[sub.order] if sub.order is not None else np.arange(len(q))
    order = order[order >= 0]
    probs = np.nan_to_num(sub.probs[q], nan=0.0)
    predicted = sub.present[q]
    # the script walks the probabilities file: a question absent from it is never reached
    listed = np.zeros(len(q), dtype=bool)
    listed[order] = True
    answered = sub.answers[q] != ""
    out = {}
    for key in ("exact", "f1"):
        best, thresh = squad.best_threshold(np.asarray(raw[key], dtype=float), answerable, answered, probs,
                                            predicted=predicted & listed, order=order)
        out["best_" + key], out["best_%s_thresh" % key] = best, thresh
    return out


def _probabilities(probs, units, problems):
    """(no-answer probability per unit, nan where none; the units in the file's order) of na_probs.json."""
    name, pairs = probs
    index = unit_index(units)
    values = np.full(len(units), np.nan)
    keys = [k.strip() if isinstance(k, str) else "" for k, _ in pairs]
    position = np.asarray(index.get_indexer(Cells.from_strings(keys)), dtype=np.int64) if keys else \
        np.zeros(0, dtype=np.int64)
    order = []
    for i, (key, value) in enumerate(pairs):
        where = dict(file=name, unit=clip(keys[i] or str(key)))
        if position[i] < 0:
            problems.add(PROB_UNKNOWN.at(**where, id=repr(clip(keys[i]))))
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(float(value)):
            problems.add(PROB_NOT_NUMBER.at(**where, kind=kind(value), value=clip(repr(value), 40)))
            continue
        if not np.isnan(values[position[i]]):
            problems.add(PROB_TWICE.at(**where, id=repr(clip(keys[i]))))
            continue
        values[position[i]] = float(value)
        order.append(int(position[i]))
    return values, np.asarray(order, dtype=np.int64)


def _gold_answers(entries, name):
    """(the stripped question ids, every gold answer in question order, the question of each (int64)) of the
    gold's entries, else ReferenceDataError at the first entry whose id is no string or whose answers are no
    list of strings. The types are checked over every entry at once (json gives exact str and list; joining the
    answers and stripping the ids fail on anything else); an entry is looked at alone only to say which one is
    wrong."""
    qids = list(map(dict.get, entries, itertools.repeat("id")))
    golds = list(map(dict.get, entries, itertools.repeat("answers")))
    try:
        if not set(map(type, golds)) <= {list}:
            raise TypeError("an entry's answers are no list")
        answers = list(itertools.chain.from_iterable(golds))
        "".join(answers)
        ids = list(map(str.strip, qids))
    except TypeError:
        for n, (qid, entry_golds) in enumerate(zip(qids, golds), start=1):
            if not isinstance(qid, str):
                raise ReferenceDataError(GOLD_ENTRY(file=name, n=n, what="its \"id\" is no string"))
            if not isinstance(entry_golds, list) or not all(isinstance(g, str) for g in entry_golds):
                raise ReferenceDataError(GOLD_ENTRY(file=name, n=n, what="its \"answers\" is no list of strings"))
        raise   # not reached: the entry that failed is named above
    counts = np.fromiter(map(len, golds), dtype=np.int64, count=len(golds))
    return ids, answers, np.repeat(np.arange(len(qids), dtype=np.int64), counts)


def _entries(value, name, message):
    """The entries of a JSON list (each an object), else ReferenceDataError."""
    if not isinstance(value, list):
        raise ReferenceDataError(message(file=name, kind=kind(value).texts["en"]))
    if set(map(type, value)) <= {dict}:
        return value
    for n, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            raise ReferenceDataError(GOLD_ENTRY(file=name, n=n, what="it is a JSON %s, not an object"
                                                % kind(entry).texts["en"]))
    return value


def _questions_section(cols, answerable, answers, present, rules):
    rows = []
    groups = [(QUESTION_ROWS[0], np.ones(len(answerable), dtype=bool))]
    if rules == "squad_v2":
        groups += [(QUESTION_ROWS[1], answerable), (QUESTION_ROWS[2], ~answerable)]
    for label, rows_of in groups:
        n = int(rows_of.sum())
        exact, f1 = squad.scores(cols["exact"][rows_of].sum(), cols["f1"][rows_of].sum(), n)
        rows.append([label, n, float(exact), float(f1), int((present & (answers == ""))[rows_of].sum()),
                     int((~present)[rows_of].sum())])
    chart = report.Bars(QUESTIONS_CHART, [r[0] for r in rows], [(SERIES_EXACT, [r[2] for r in rows]),
                                                                (report.SERIES_F1, [r[3] for r in rows])],
                        top=100.0, digits=2)
    return report.Section(QUESTIONS_TITLE, [report.Table(list(QUESTION_HEADERS), rows, caption=QUESTION_NOTE,
                                                         digits=2), chart])


FAMILY = QA()
