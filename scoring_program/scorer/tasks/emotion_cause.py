"""Emotion-cause pairs in conversations (SemEval-2024 Task 3, ECAC), scored as the official CodaLab scorer.

Submission: ``Subtask_1_pred.json`` and/or ``Subtask_2_pred.json`` (zipped or not),
each a JSON list with every test conversation and its ``emotion-cause_pairs``:
``["3_joy", "2_0_5"]`` (subtask 1: emotion utterance 3 feels joy, caused by
tokens [0, 5) of utterance 2) or ``["3_joy", "2"]`` (subtask 2).

- Subtask 1: strict (all fields equal), proportional (token overlap with the
  best gold span) and fuzzy (any overlap) matching; for each, P/R/F1 averaged
  over the six emotions with the gold share of each as weight (``weighted_*``)
  and micro (``strict_*``, ``Proportional_*``, ``fuzzy_*``). Primary:
  ``weighted_strict_f1``.
- Subtask 2: pair P/R/F1 (``*_pair``) and weighted P/R/F1 (``weighted_*``,
  primary ``weighted_f1``).

Option ``mode``: ``official`` scores what the official scorer scores (numbers
read with int(), no range checks: see ``_ecac_official``) and reproduces its
numbers to the last digit (``+1e-8`` in every denominator; proportional
matching may count a gold span once per prediction that matches it); ``clean``
validates strictly, divides exactly and credits each gold span at most once. Predicted ``neutral`` pairs are ignored and
duplicate pairs removed in both modes. Option ``subtasks`` (``both``, ``1``,
``2``) chooses what a phase scores; in ``both``, a subtask whose file is
absent scores 0 on all its keys.
"""
import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np
from ..bytelevel.lazy import pandas as pd

from .. import digests, report
from ..errors import ReferenceDataError, SubmissionError
from ..metrics.cause_spans import Pairs, fuzzy_hits, proportional, strict_hits
from ..metrics.emotion_prf import OFFICIAL_EPSILON, emotion_scores
from ..config import Option
from ..problems import Message
from ._ecac_io import EMOTIONS, Submitted, conversation_id, read_conversations, read_gold_pairs, read_json, read_submission
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units, kept_codes
from ._per_unit import Schema, Tally

SUBTASK1_KEYS = [
    "weighted_strict_precision", "weighted_strict_recall", "weighted_strict_f1",
    "weighted_Proportional_precision", "weighted_Proportional_recall", "weighted_Proportional_f1",
    "strict_precision", "strict_recall", "strict_f1",
    "Proportional_precision", "Proportional_recall", "Proportional_f1",
    "weighted_fuzzy_precision", "weighted_fuzzy_recall", "weighted_fuzzy_f1",
    "fuzzy_precision", "fuzzy_recall", "fuzzy_f1",
]
SUBTASK2_KEYS = ["precision_pair", "recall_pair", "f1_pair", "weighted_precision", "weighted_recall", "weighted_f1"]
PRIMARY = {"1": "weighted_strict_f1", "2": "weighted_f1", "both": "weighted_strict_f1"}
SLOT = {1: "subtask1", 2: "subtask2"}
GOLD = {1: "subtask1_gold", 2: "subtask2_gold"}
N_EMOTIONS = len(EMOTIONS)
GOLD_NO_USAGE = Message("reference.ecac_usage", "the ECAC gold is JSON and has no usage column; use boards: "
                        "{{file: boards.csv}}.", None)
GOLD_ABSENT = Message("reference.ecac_absent", "the gold file {file} named in config.yaml is not in the reference data.",
                      None)
GOLD_DIFFERENT = Message("reference.ecac_different", "{first} and {second} hold different conversations; both "
                         "subtasks must score the same ones.", None)
NO_SUBTASK_FILE = Message("ecac.no_subtask_file", "this phase scores subtask {subtask}; the submission has no {file}.",
                          "本阶段评测子任务 {subtask}；提交中没有 {file}。")
PUBLIC_INPUTS = "Subtask_1_test.json"  # the released test conversations, without pairs


UNIT = Message("ecac.unit", "conversations", "对话")
SUBTASK_TITLE = Message("ecac.report.subtask", "Subtask {subtask}", "子任务 {subtask}")
ABSENT_SCORED_ZERO = Message("ecac.report.no_file", "No {file} in the submission: every subtask {subtask} score is 0.",
                             "提交中没有 {file}：子任务 {subtask} 的各项成绩均为 0。")
NOT_SCORED_TITLE = Message("ecac.report.not_scored", "Not scored", "未计分")
# each names its mode itself: the option's value is the organizer's English word
SUMMARY_CLEAN = Message("ecac.summary.clean", "{n} conversations; mode clean (exact division, each gold span "
                        "credited once).", "{n} 段对话；精确模式（精确除法，每个标准答案片段只计一次）。")
SUMMARY_OFFICIAL = Message("ecac.summary.official", "{n} conversations; mode official (the official scorer's rules, "
                           "+1e-8 in every denominator).",
                           "{n} 段对话；官方模式（官方评测脚本的规则，每个分母加 1e-8）。")
NOT_THIS_PHASE = Message("ecac.report.not_this_phase", "{file} was not scored: this phase scores subtask {subtask} only.",
                         "{file} 未计分：本阶段只评测子任务 {subtask}。")
PER_EMOTION_TITLE = Message("ecac.report.per_emotion", "Subtask {subtask}: per emotion", "子任务 {subtask}：各情绪")
SAME_SPAN_TITLE = Message("ecac.report.same_span", "Subtask {subtask}: emotions of pairs at the same utterances "
                          "and span", "子任务 {subtask}：话语和片段相同的情绪-原因对的情绪")
SAME_UTTERANCES_TITLE = Message("ecac.report.same_utterances", "Subtask {subtask}: emotions of pairs at the same "
                                "utterances", "子任务 {subtask}：话语相同的情绪-原因对的情绪")
NONE_CAPTION = Message("ecac.report.none_caption", "(none) row: predictions where no gold pair is; (none) column: "
                       "gold pairs nobody predicted.",
                       "（无）行：没有对应标准答案对的预测；（无）列：没有被预测到的标准答案对。")
PAIRS_READ = Message("ecac.report.pairs_read", "{read} pairs read, {duplicates} duplicates removed, {neutral} "
                     "neutral pairs ignored (neutral is not scored).",
                     "读入 {read} 个情绪-原因对，去除 {duplicates} 个重复，忽略 {neutral} 个 neutral 对（neutral 不计分）。")
UNKNOWN_SKIPPED = Message("ecac.report.unknown_skipped", "{n} conversations not in the test set were skipped.",
                          "跳过了 {n} 段不在测试集中的对话。")
TITLE = Message("ecac.title", "Emotion-cause pairs in conversations", "对话中的情绪-原因对")
EMOTION_HEADERS = (Message("ecac.report.emotion", "emotion", "情绪"), Message("ecac.report.weight", "weight", "权重"),
                   Message("ecac.report.gold_pairs", "gold pairs", "标准答案对数"), report.PREDICTED,
                   Message("ecac.report.correct_strict", "correct (strict)", "正确（严格）"))
PART_NAMES = {"strict": Message("ecac.part.strict", "strict", "严格"),
              "proportional": Message("ecac.part.proportional", "proportional", "按比例"),
              "fuzzy": Message("ecac.part.fuzzy", "fuzzy", "模糊"), "pair": Message("ecac.part.pair", "pair", "情绪-原因对")}
PART_HEADERS = (Message("ecac.report.part_p", "{part} P", "{part} P"), Message("ecac.report.part_r", "{part} R", "{part} R"),
                Message("ecac.report.part_f1", "{part} F1", "{part} F1"))
AVERAGES = (("weighted_", Message("ecac.report.weighted", "weighted", "加权平均")),
            ("micro_", Message("ecac.report.micro", "micro", "微平均")))
NO_PAIR = Message("ecac.report.none", "(none)", "（无）")
ODD_PAIRS = Message("ecac.report.odd", "Scored as the official scorer scores them (mode clean would refuse them): of "
                    "the pairs scored, {parts}.", "以下各对按官方评分程序的方式计分（clean 模式会拒绝它们）：在计分的对中，{parts}。")
ODD_OUTSIDE = Message("ecac.report.odd_outside", "{n} name an utterance outside their conversation",
                      "{n} 对指向其对话之外的语句")
ODD_ZERO = Message("ecac.report.odd_zero", "{n} have the span 0_0 (where the official scorer puts a gold span it cannot "
                   "find, so it can match one)", "{n} 对的片段为 0_0（官方评分程序把找不到的标准答案片段记为 0_0，因此它们可能与之匹配）")
ODD_EMPTY = Message("ecac.report.odd_empty", "{n} have an empty or reversed span (start >= end; a reversed span's "
                    "negative length is added to the proportional precision denominator)",
                    "{n} 对的片段为空或反向（start >= end；反向片段的负长度会计入按比例精确率的分母）")
ODD_BEYOND = Message("ecac.report.odd_beyond", "{n} have a span reaching outside the utterance",
                     "{n} 对的片段超出了语句范围")
ODD_SEPARATOR = Message("ecac.report.odd_separator", "; ", "；")
F1_CHART = Message("ecac.report.f1_chart", "Subtask {subtask}: F1 per emotion, emotions sorted by gold pairs",
                   "子任务 {subtask}：各情绪的 F1，按标准答案中的情绪-原因对数排序")
MATRIX_CHART = Message("ecac.report.matrix", "Subtask {subtask}: emotions of pairs at the same position, gold rows, "
                       "predicted columns", "子任务 {subtask}：相同位置上情绪-原因对的情绪，行为标准答案，列为预测")
# the per-emotion counts of each subtask, in the column order of its per-conversation table (7 columns each)
# a conversation's row, per emotion (a block of seven columns each): its gold pairs, its predictions strictly right,
# its predictions, the tokens credited to its predictions (proportional), its predicted and gold span lengths (the
# proportional denominators) and its predictions fuzzily right
BLOCKS = {1: ("gold", "strict", "pred", "prop_num", "prop_pred", "prop_gold", "fuzzy"),
          2: ("gold", "strict", "pred")}
SUBTASK_COLUMNS = {subtask: Schema(*((name, N_EMOTIONS) for name in names)) for subtask, names in BLOCKS.items()}
ADVICE_ABSENT = Message("emotion_cause.advice_absent", "there is no {file}: every subtask {subtask} score will be 0. "
                        "Add {file} to the zip if you have predictions for subtask {subtask}.",
                        "没有 {file}：子任务 {subtask} 的所有分数都将为 0。如有子任务 {subtask} 的预测，请把 {file} 放进 zip。")
ADVICE_NO_PAIR = Message("emotion_cause.advice_no_pair", "{file} has no pair in any conversation: every subtask "
                         "{subtask} score will be 0. List the emotion-cause pairs you find.",
                         "{file} 的所有对话都没有任何配对：子任务 {subtask} 的所有分数都将为 0。请列出找到的情绪-原因配对。")
ADVICE_NEUTRAL = Message("emotion_cause.advice_neutral", "every pair of {file} has the emotion neutral, which is never "
                         "scored: every subtask {subtask} score will be 0. Give each pair one of {emotions}.",
                         "{file} 的所有配对的情绪都是 neutral，而 neutral 从不计分：子任务 {subtask} 的所有分数都将为 0。"
                         "请为每个配对给出 {emotions} 之一。")


def _subtasks(options):
    return {"1": (1,), "2": (2,), "both": (1, 2)}[options["subtasks"]]


@dataclass
class EcacContract(Contract):
    convs: object = None          # the test conversations: ids, utterances, tokens per utterance

    def mismatch(self, public, positions):
        for i, k in enumerate(positions.tolist()):  # a conversation at a time: test sets hold thousands
            if self.convs.texts[i] != public.convs.texts[k]:
                n, m = len(self.convs.texts[i]), len(public.convs.texts[k])
                return i, ("%d utterances in the gold, %d in the public inputs" % (n, m) if n != m else
                           "the texts of its utterances differ")
        return None


@dataclass
class EcacReference(Reference):
    gold: Dict[int, Pairs] = field(default_factory=dict)


@dataclass
class EcacSubmission:
    pairs: Dict[int, Optional[object]]   # subtask -> Submitted, or None when its file is absent
    ignored: List[Any] = field(default_factory=list)  # notes (Problems) in the competition's language


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "weighted_strict_f1": Message("ecac.key.weighted_strict_f1", "S1 weighted strict F1", "子任务1 加权严格 F1"),
    "weighted_strict_precision": Message("ecac.key.weighted_strict_precision", "S1 weighted strict P", "子任务1 加权严格 P"),
    "weighted_strict_recall": Message("ecac.key.weighted_strict_recall", "S1 weighted strict R", "子任务1 加权严格 R"),
    "weighted_Proportional_precision": Message("ecac.key.weighted_proportional_precision", "S1 weighted proportional P",
                                               "子任务1 加权按比例 P"),
    "weighted_Proportional_recall": Message("ecac.key.weighted_proportional_recall", "S1 weighted proportional R",
                                            "子任务1 加权按比例 R"),
    "weighted_Proportional_f1": Message("ecac.key.weighted_proportional_f1", "S1 weighted proportional F1",
                                        "子任务1 加权按比例 F1"),
    "strict_precision": Message("ecac.key.strict_precision", "S1 strict P", "子任务1 严格 P"),
    "strict_recall": Message("ecac.key.strict_recall", "S1 strict R", "子任务1 严格 R"),
    "strict_f1": Message("ecac.key.strict_f1", "S1 strict F1", "子任务1 严格 F1"),
    "Proportional_precision": Message("ecac.key.proportional_precision", "S1 proportional P", "子任务1 按比例 P"),
    "Proportional_recall": Message("ecac.key.proportional_recall", "S1 proportional R", "子任务1 按比例 R"),
    "Proportional_f1": Message("ecac.key.proportional_f1", "S1 proportional F1", "子任务1 按比例 F1"),
    "weighted_fuzzy_precision": Message("ecac.key.weighted_fuzzy_precision", "S1 weighted fuzzy P", "子任务1 加权模糊 P"),
    "weighted_fuzzy_recall": Message("ecac.key.weighted_fuzzy_recall", "S1 weighted fuzzy R", "子任务1 加权模糊 R"),
    "weighted_fuzzy_f1": Message("ecac.key.weighted_fuzzy_f1", "S1 weighted fuzzy F1", "子任务1 加权模糊 F1"),
    "fuzzy_precision": Message("ecac.key.fuzzy_precision", "S1 fuzzy P", "子任务1 模糊 P"),
    "fuzzy_recall": Message("ecac.key.fuzzy_recall", "S1 fuzzy R", "子任务1 模糊 R"),
    "fuzzy_f1": Message("ecac.key.fuzzy_f1", "S1 fuzzy F1", "子任务1 模糊 F1"),
    "precision_pair": Message("ecac.key.precision_pair", "S2 pair P", "子任务2 配对 P"),
    "recall_pair": Message("ecac.key.recall_pair", "S2 pair R", "子任务2 配对 R"),
    "f1_pair": Message("ecac.key.f1_pair", "S2 pair F1", "子任务2 配对 F1"),
    "weighted_precision": Message("ecac.key.weighted_precision", "S2 weighted P", "子任务2 加权 P"),
    "weighted_recall": Message("ecac.key.weighted_recall", "S2 weighted R", "子任务2 加权 R"),
    "weighted_f1": Message("ecac.key.weighted_f1", "S2 weighted F1", "子任务2 加权 F1"),
}


class EmotionCause(TaskFamily):
    name = "emotion_cause"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    unit_files = {"subtask1_gold": UnitFile("json", "conversation_ID", canonical=conversation_id),
                  "subtask2_gold": UnitFile("json", "conversation_ID", canonical=conversation_id)}
    reference_files = {"subtask1_gold": "Subtask_1_gold.json", "subtask2_gold": "Subtask_2_gold.json"}
    submission_files = (SubmissionFile("subtask1", "Subtask_1_pred.json"), SubmissionFile("subtask2", "Subtask_2_pred.json"))
    required_slots = ()
    public_inputs = PUBLIC_INPUTS
    options = {
        "subtasks": Option("both", ("both", "1", "2"), "which subtasks the phase scores and which keys it writes (see below)"),
        "mode": Option("official", ("official", "clean"),
                       "official: the CodaLab scorer's numbers (+1e-8 denominators); clean: exact division, "
                       "each gold span credited at most once"),
        "unknown_conversations": Option("auto", ("auto", "error", "ignore"),
                                        "a submitted conversation that is not in the gold: refuse it (error), "
                                        "skip it as the official scorer does (ignore), or auto: ignore in mode "
                                        "official, error in mode clean"),
    }

    def leaderboard_keys(self, options):
        keys = []
        for subtask in _subtasks(options):
            keys += SUBTASK1_KEYS if subtask == 1 else SUBTASK2_KEYS
        primary = PRIMARY[options["subtasks"]]
        return [primary] + [k for k in keys if k != primary]

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        if cfg.usage_column:
            raise ReferenceDataError(GOLD_NO_USAGE())
        convs, gold, notes = None, {}, []
        for subtask in _subtasks(cfg.options):
            name = cfg.files[GOLD[subtask]]
            try:
                with open(cfg.path(GOLD[subtask]), "rb") as fh:
                    data = read_json(fh.read(), name, ReferenceDataError)
            except OSError:
                raise ReferenceDataError(GOLD_ABSENT(file=name))
            these = read_conversations(data, name)
            if convs is None:
                convs = these
            elif set(these.ids) != set(convs.ids):
                raise ReferenceDataError(GOLD_DIFFERENT(first=cfg.files[GOLD[1]], second=name))
            gold[subtask], found = read_gold_pairs(data, convs, name, subtask)
            notes += found
        first = gold[_subtasks(cfg.options)[0]]
        return EcacReference(EcacContract(convs.ids, convs), strata=lambda: _dominant_emotion(first, len(convs.ids)),
                             notes=notes, gold=gold)

    def public_contract(self, folder, cfg):
        """The conversations of the public ``Subtask_1_test.json`` (utterances, no pairs): enough to check
        conversation ids, utterance numbers and token spans of a submission offline."""
        path = os.path.join(folder, PUBLIC_INPUTS)
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as fh:
            convs = read_conversations(read_json(fh.read(), PUBLIC_INPUTS, ReferenceDataError), PUBLIC_INPUTS,
                                       with_pairs=False)
        return EcacContract(convs.ids, convs)

    # -- submission --------------------------------------------------------------------------
    def read_submission(self, files, contract, cfg, problems):
        """Every faulty pair of a file is a problem (the file's shape stops at its first one); official mode
        stops at the first pair the official scorer would fail on."""
        scored = _subtasks(cfg.options)
        pairs, ignored = {}, []
        for subtask in (1, 2):
            file = files.get(SLOT[subtask])
            if subtask not in scored:
                if file is not None:
                    ignored.append(NOT_THIS_PHASE(file=file.name, subtask=scored[0]))
                continue
            if file is None:
                if len(scored) == 1:
                    raise SubmissionError(NO_SUBTASK_FILE(subtask=subtask, file=cfg.files[SLOT[subtask]]))
                pairs[subtask] = None
                continue
            data = read_json(file.read_bytes(), file.name, SubmissionError)
            pairs[subtask] = read_submission(data, file.name, contract.convs, subtask, problems,
                                             _unknown_rule(cfg.options), official=cfg.options["mode"] == "official")
        if problems:
            return None
        return EcacSubmission(pairs, ignored)

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def take(self, sub, contract, positions):
        code = kept_codes(positions, len(contract.units))
        pairs = {}
        for subtask, submitted in sub.pairs.items():
            if submitted is None:
                pairs[subtask] = None
                continue
            conv, read = code[submitted.pairs.conv], code[submitted.read_conv]
            kept = submitted.pairs.take(conv >= 0)
            pairs[subtask] = Submitted(dataclasses.replace(kept, conv=conv[conv >= 0]), read[read >= 0],
                                       submitted.n_unknown_conversations)
        return EcacSubmission(pairs, sub.ignored)

    def advice(self, sub, contract, cfg):
        """A scored subtask without its file, without any pair, or with neutral pairs only."""
        found = []
        for subtask in _subtasks(cfg.options):
            submitted = sub.pairs.get(subtask)
            name = cfg.files[SLOT[subtask]]
            if submitted is None:
                found.append(ADVICE_ABSENT(file=name, subtask=subtask))
            elif not len(submitted.read_conv):
                found.append(ADVICE_NO_PAIR(file=name, subtask=subtask))
            elif not submitted.pairs.emotion.any():  # code 0 is neutral
                found.append(ADVICE_NEUTRAL(file=name, subtask=subtask, emotions=", ".join(EMOTIONS[1:])))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        clean = cfg.options["mode"] == "clean"
        epsilon = 0.0 if clean else OFFICIAL_EPSILON
        in_board = mask
        scores, sections, units = {}, [], []
        for subtask in _subtasks(cfg.options):
            gold = ref.gold[subtask]
            gold = gold.take(in_board[gold.conv])
            submitted = sub.pairs[subtask]
            if submitted is None:
                keys = SUBTASK1_KEYS if subtask == 1 else SUBTASK2_KEYS
                scores.update((k, 0.0) for k in keys)
                sections.append(report.Section(SUBTASK_TITLE(subtask=subtask), [report.Text(
                    ABSENT_SCORED_ZERO(file=cfg.files[SLOT[subtask]], subtask=subtask), "error")]))
                continue
            pred = submitted.pairs.take(in_board[submitted.pairs.conv])
            n_neutral = int((pred.emotion == 0).sum())
            counted = _subtask1(gold, pred, clean) if subtask == 1 else _subtask2(gold, pred)
            group = Units("subtask%d" % subtask, tuple(SUBTASK1_KEYS if subtask == 1 else SUBTASK2_KEYS),
                          SUBTASK_COLUMNS[subtask], _per_conversation(counted, subtask, in_board), int(in_board.sum()))
            found, sums = self.reduce([group], cfg)
            scores.update(found)
            table = _subtask_scores(subtask, SUBTASK_COLUMNS[subtask].read(sums[group.name]), epsilon)[1]
            table["position"] = POSITION[subtask]
            n_read = int(in_board[submitted.read_conv].sum())
            odd = "" if clean else _odd_pairs_note(pred, ref.contract.convs, subtask)
            sections += _sections(subtask, table, gold, pred, n_read, n_neutral, submitted.n_unknown_conversations,
                                  odd)
            units.append(group)
        for line in sub.ignored:
            sections.append(report.Section(NOT_SCORED_TITLE, [report.Text(line, "note")]))
        summary = (SUMMARY_CLEAN if clean else SUMMARY_OFFICIAL)(n=int(in_board.sum()))
        return Result({k: scores[k] for k in self.leaderboard_keys(cfg.options)}, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """A subtask's keys from its per-emotion sums read by name (``SUBTASK_COLUMNS``: seven columns each), as
        ``metrics.emotion_prf`` computes them."""
        subtask = int(group[-1])
        epsilon = 0.0 if cfg.options["mode"] == "clean" else OFFICIAL_EPSILON
        return _subtask_scores(subtask, SUBTASK_COLUMNS[subtask].read(sums), epsilon)[0]

    def unit_answers(self, ref, sub):
        """Each conversation's pairs of every subtask scored."""
        n = len(ref.units)
        parts = []
        for subtask in (1, 2):
            submitted = sub.pairs.get(subtask)
            if submitted is None:
                parts.append(np.zeros(n, dtype=np.uint64))
                continue
            q = submitted.pairs
            parts.append(digests.per_unit(q.conv, n, q.emo_utt, q.cause_utt, q.start, q.end, q.emotion))
        return digests.combine(*parts)


def _unknown_rule(options):
    """error or ignore: what to do with a submitted conversation that is not in the gold."""
    rule = options["unknown_conversations"]
    if rule == "auto":
        return "ignore" if options["mode"] == "official" else "error"
    return rule


POSITION = {1: ("conv", "emo_utt", "cause_utt", "start", "end"), 2: ("conv", "emo_utt", "cause_utt")}


def _subtask1(gold, pred, clean):
    """What each per-emotion count of subtask 1 sums: (conversation, emotion, weight) of the pairs it counts."""
    _, strict_pred = strict_hits(gold, pred)
    _, fuzzy_pred = fuzzy_hits(gold, pred)
    match = proportional(gold, pred, once=clean)
    return {"gold": (gold.conv, gold.emotion), "strict": (pred.conv[strict_pred], pred.emotion[strict_pred]),
            "pred": (pred.conv, pred.emotion), "prop_num": (pred.conv, pred.emotion, match.overlap),
            "prop_pred": (pred.conv, pred.emotion, pred.length),
            "prop_gold": (gold.conv, gold.emotion, gold.length * match.gold_count),
            "fuzzy": (pred.conv[fuzzy_pred], pred.emotion[fuzzy_pred])}


def _subtask2(gold, pred):
    _, hit = strict_hits(gold, pred)
    return {"gold": (gold.conv, gold.emotion), "strict": (pred.conv[hit], pred.emotion[hit]),
            "pred": (pred.conv, pred.emotion)}


def _subtask_scores(subtask, c, epsilon):
    """The keys of a subtask from its per-emotion counts ``c`` (read by name: (..., 7) each), and the parts the
    page shows."""
    if subtask == 1:
        strict = emotion_scores(c["strict"], c["pred"], c["gold"], c["gold"], epsilon)
        fuzzy = emotion_scores(c["fuzzy"], c["pred"], c["gold"], c["gold"], epsilon)
        prop = emotion_scores(c["prop_num"], c["prop_pred"], c["prop_gold"], c["gold"], epsilon)
        scores = {}
        for prefix, s in (("strict", strict), ("Proportional", prop), ("fuzzy", fuzzy)):
            scores.update({"weighted_%s_precision" % prefix: s["weighted_p"],
                           "weighted_%s_recall" % prefix: s["weighted_r"], "weighted_%s_f1" % prefix: s["weighted_f1"],
                           "%s_precision" % prefix: s["micro_p"], "%s_recall" % prefix: s["micro_r"],
                           "%s_f1" % prefix: s["micro_f1"]})
        return scores, {"scores": {"strict": strict, "proportional": prop, "fuzzy": fuzzy}, "counts": c}
    s = emotion_scores(c["strict"], c["pred"], c["gold"], c["gold"], epsilon)
    scores = {"precision_pair": s["micro_p"], "recall_pair": s["micro_r"], "f1_pair": s["micro_f1"],
              "weighted_precision": s["weighted_p"], "weighted_recall": s["weighted_r"], "weighted_f1": s["weighted_f1"]}
    return scores, {"scores": {"pair": s}, "counts": c}


def _per_conversation(counted, subtask, in_board):
    """The columns of a subtask's per-conversation table: each count of ``BLOCKS`` per emotion (seven columns)."""
    row = np.cumsum(in_board) - 1
    n = int(in_board.sum())
    return {name: Tally(row[counted[name][0]], n, counted[name][1], N_EMOTIONS,
                        counted[name][2] if len(counted[name]) > 2 else None) for name in BLOCKS[subtask]}


def _dominant_emotion(gold, n_convs):
    """Most frequent gold emotion of each conversation ('none' without pairs): the board strata."""
    table = np.zeros((n_convs, N_EMOTIONS), dtype=np.int64)
    np.add.at(table, (gold.conv, gold.emotion), 1)
    names = np.array(EMOTIONS, dtype=object)[table.argmax(axis=1)]
    names[table.sum(axis=1) == 0] = "none"
    return names


def emotion_confusion(gold, pred, position):
    """Counts of (gold emotion, predicted emotion) over pairs at the same position (utterances and span).

    Row 7 holds predictions at a position with no gold pair, column 7 gold pairs at a position
    with no prediction.
    """
    g = pd.DataFrame({f: getattr(gold, f) for f in position}).assign(g=gold.emotion)
    p = pd.DataFrame({f: getattr(pred, f) for f in position}).assign(p=pred.emotion)
    merged = g.merge(p, on=list(position), how="outer")
    gi = merged["g"].fillna(N_EMOTIONS).to_numpy(dtype=np.int64)
    pi = merged["p"].fillna(N_EMOTIONS).to_numpy(dtype=np.int64)
    table = np.zeros((N_EMOTIONS + 1, N_EMOTIONS + 1), dtype=np.int64)
    np.add.at(table, (gi, pi), 1)
    return table


def _odd_pairs_note(pred, convs, subtask):
    """What mode official scored although mode clean would refuse it, counted over ``pred``; "" if nothing."""
    n_utts = convs.n_utts[pred.conv]
    outside = (pred.emo_utt < 1) | (pred.emo_utt > n_utts) | (pred.cause_utt < 1) | (pred.cause_utt > n_utts)
    parts = []
    if outside.any():
        parts.append(ODD_OUTSIDE(n=int(outside.sum())))
    if subtask == 1:
        inside = ~outside
        tokens = np.zeros(len(pred), dtype=np.int64)
        tokens[inside] = convs.tokens_of(pred.conv[inside], pred.cause_utt[inside])
        zero = inside & (pred.start == 0) & (pred.end == 0)
        empty = inside & ~zero & (pred.start >= pred.end)
        beyond = inside & ~zero & ~empty & ((pred.start < 0) | (pred.end > tokens))
        for mask, what in ((zero, ODD_ZERO), (empty, ODD_EMPTY), (beyond, ODD_BEYOND)):
            if mask.any():
                parts.append(what(n=int(mask.sum())))
    if not parts:
        return ""
    return ODD_PAIRS(parts=_joined(parts))


class _joined:
    """Problems joined by the language's separator, as one field of another message."""

    def __init__(self, parts):
        self.parts = parts

    def text(self, lang="en"):
        return ODD_SEPARATOR().text(lang).join(p.text(lang) for p in self.parts)


def _sections(subtask, table, gold, pred, n_read, n_neutral, n_unknown, odd=""):
    counts = table["counts"]
    headers = list(EMOTION_HEADERS)
    parts = list(table["scores"].items())
    for name, _ in parts:
        headers += [header(part=PART_NAMES[name]) for header in PART_HEADERS]
    order = 1 + report.by_support(counts["gold"][1:])   # the six emotions by gold pairs (neutral is not scored)
    rows = []
    for j in order:
        row = [EMOTIONS[j], float(parts[0][1]["weights"][j - 1]), int(counts["gold"][j]), int(counts["pred"][j]),
               int(counts["strict"][j])]
        for _, s in parts:
            row += [float(s["p"][j - 1]), float(s["r"][j - 1]), float(s["f"][j - 1])]
        rows.append(row)
    for key, label in AVERAGES:
        row = [label, "", int(counts["gold"][1:].sum()), int(counts["pred"][1:].sum()), int(counts["strict"][1:].sum())]
        for _, s in parts:
            row += [s[key + "p"], s[key + "r"], s[key + "f1"]]
        rows.append(row)
    notes = [report.Text(PAIRS_READ(read=n_read, duplicates=n_read - len(pred), neutral=n_neutral), "note")]
    if n_unknown:
        notes.append(report.Text(UNKNOWN_SKIPPED(n=n_unknown), "note"))
    if odd:
        notes.append(report.Text(odd, "note"))
    matrix = emotion_confusion(gold, pred, table["position"])
    labels = list(EMOTIONS) + [NO_PAIR]
    # every emotion (neutral too: a pair can be predicted neutral) by gold count, then (none)
    shown = list(report.by_support(matrix[:N_EMOTIONS].sum(axis=1))) + [N_EMOTIONS]
    sorted_matrix = matrix[np.ix_(shown, shown)]
    names = [labels[i] for i in shown]
    conf_rows = [[names[i]] + [int(v) for v in sorted_matrix[i]] for i in range(len(names))]
    f1_series = [(PART_NAMES[name], [float(s["f"][j - 1]) for j in order]) for name, s in parts]
    # the counts and the first matching, then the other matchings beside the emotion: all 14 columns of
    # subtask 1 at once fit neither a laptop's width nor a printed page
    first = len(EMOTION_HEADERS) + len(PART_HEADERS)
    tables = [report.Table(headers[:first], [row[:first] for row in rows])]
    if len(headers) > first:
        tables.append(report.Table(headers[:1] + headers[first:], [row[:1] + row[first:] for row in rows]))
    return [
        report.Section(PER_EMOTION_TITLE(subtask=subtask),
                       tables + notes + [
                        report.Bars(F1_CHART(subtask=subtask), [EMOTIONS[j] for j in order], f1_series)],
                       per_class=True),
        report.Section((SAME_SPAN_TITLE if subtask == 1 else SAME_UTTERANCES_TITLE)(subtask=subtask), [
            report.Table([report.MATRIX_CORNER] + names, conf_rows, caption=NONE_CAPTION),
            report.Heatmap(MATRIX_CHART(subtask=subtask), names, names, sorted_matrix.tolist()),
        ], per_class=True),
    ]


FAMILY = EmotionCause()
