"""Bank comments: entities (BIO per character) + sentiment class (CCF BDCI 2021).

Submission: ``id,BIO_anno,class``, one space-separated tag per character of the
comment, class 0 (negative), 1 (positive) or 2 (neutral).

- S1 = micro F1 over entity mentions (document, start, end, type), decoded with
  the configured scheme (``iob2`` strict by default, or ``conlleval``);
- S2 = Cohen's kappa on class (see ``metrics.kappa`` for the degenerate cases);
- S = w * S1 + (1 - w) * S2 with w = 0.5.

Leaderboard keys: score, ner_f1, kappa, ner_precision, ner_recall, class_accuracy.
"""
from dataclasses import dataclass

import numpy as np

from .. import advice, digests, report
from ..bytelevel.cells import Cells
from ..bytelevel.grouping import Index
from ..config import Check, Option, number_in
from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics.confusion import accuracy as class_accuracy, margins
from ..metrics.kappa import cohen_kappa
from ..metrics.prf import prf
from ..metrics.entity_views import VIEWS, views
from ..metrics.spans import CONLLEVAL, SCHEMES, Segments, Spans, TagSet, match, search_sorted, segments
from ..problems import Message
from ..tables import Table, match_ids, missing_ids, public_table, reference_table, reference_units
from ..bytelevel.tagcodes import Encoded, encode_cells, token_text
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units, segment_order
from ._per_unit import Schema, Tally, TallyAt

CLASSES = ("0", "1", "2")
SUMMARY = Message("bank.summary", "{n} comments, {chars} characters; entities decoded as {scheme}.",
                  "{n} 条评论，{chars} 个字符；实体解码方式：{scheme}。")
CLASS_NAMES = (Message("bank.class.0", "0 negative", "0 负面"), Message("bank.class.1", "1 positive", "1 正面"),
               Message("bank.class.2", "2 neutral", "2 中性"))
CLASS_ALIASES = {"0": 0, "1": 1, "2": 2, "0.0": 0, "1.0": 1, "2.0": 2}
# a comment's row: its entities right, predicted and gold, and its (gold, predicted) class cell one-hot (gold * 3 +
# predicted), the sums of which are the class confusion matrix
COMMENT_COLUMNS = Schema("right", "predicted", "gold", ("class_cell", len(CLASSES) ** 2))
TYPES = ("BANK", "PRODUCT", "COMMENTS_N", "COMMENTS_ADJ")
COLUMNS = ("id", "BIO_anno", "class")

BAD_CLASS = Message("bank.bad_class", "{where}: {value} is not a class; use 0 (negative), 1 (positive) or 2 (neutral).",
                    "{where}：{value} 不是合法的类别；请使用 0（负面）、1（正面）或 2（中性）。")
BAD_TAG = Message("bank.bad_tag", "{where}: tag {pos} is {token}, which is not a tag ({count} unknown tag(s) in this "
                  "row); use only {tags}.", "{where}：第 {pos} 个标签 {token} 不是合法标签（本行共 {count} 个非法标签）；只能使用 {tags}。")
TAG_COUNT = Message("bank.tag_count", "{where}: {given} tags for a comment of {length} characters; give exactly one tag "
                    "per character, separated by spaces.",
                    "{where}：评论有 {length} 个字符，却给出了 {given} 个标签；每个字符恰好一个标签，用空格分隔。")
UNIT = Message("bank.unit", "comments", "评论")
TYPE_CHART = Message("bank.report.type_f1", "F1 per entity type (strict matching), types sorted by gold count",
                     "各实体类型的 F1（严格匹配），按标准答案中的数量排序")
CLASS_CHART = Message("bank.report.class_matrix", "Sentiment class: gold rows, predicted columns",
                      "情感类别：行为标准答案，列为预测")
ADVICE_ONE_CLASS = Message("bank.advice_one_class", "all {n} rows have class {value}: Cohen's kappa, {weight} of the "
                           "score, will be 0 unless the gold has one class too. Predict the class of each comment.",
                           "全部 {n} 行的类别都是 {value}：除非金标准也只有一个类别，否则 Cohen's kappa（占总分的 {weight}）"
                           "将为 0。请为每条评论分别预测类别。")
ADVICE_NO_ENTITY = Message("bank.advice_no_entity", "every tag is O, so no entity is predicted: the entity F1, {weight} "
                           "of the score, will be 0. Tag the entities with B-<type> and I-<type>.",
                           "所有标签都是 O，没有预测任何实体：实体 F1（占总分的 {weight}）将为 0。请用 B-<类型> 和 I-<类型> 标注实体。")
TITLE = Message("bank.title", "Bank comments: entities + sentiment", "银行评论：实体 + 情感")
SCHEME_TEXT = {
    "iob2": Message("bank.scheme.iob2", "strict IOB2: an entity starts only at B-X and continues over I-X of the same "
                    "type", "严格 IOB2：实体只从 B-X 开始，并延续到其后同类型的 I-X"),
    "conlleval": Message("bank.scheme.conlleval", "conlleval chunking: an I-X that continues nothing starts an entity "
                         "too", "conlleval 分块：不延续任何实体的 I-X 也开始一个实体"),
}
ENTITIES = Message("bank.report.entities", "Entities (S1)", "实体（S1）")
ENTITY_TYPE = Message("bank.report.type", "type", "类型")
ALL_MICRO = Message("bank.report.all_micro", "all (micro)", "全部（微平均）")
LOST = Message("bank.report.lost", "Where entity points are lost", "实体得分在哪里丢失")
LOST_ROWS = (
    Message("bank.report.lost.correct", "correct (same span, same type)", "正确（边界相同，类型相同）"),
    Message("bank.report.lost.type", "right span, wrong type", "边界正确，类型错误"),
    Message("bank.report.lost.bounds", "right type, wrong boundaries", "类型正确，边界错误"),
    Message("bank.report.lost.both", "wrong type and boundaries (overlaps a gold entity)",
            "类型和边界都错（与某个标准答案实体重叠）"),
    Message("bank.report.lost.spurious", "spurious (overlaps no gold entity)", "多余（不与任何标准答案实体重叠）"),
    Message("bank.report.lost.missed", "missed gold entities (no predicted entity overlaps them)",
            "漏掉的标准答案实体（没有任何预测实体与之重叠）"),
    Message("bank.report.lost.stray", "I- tags that continue no entity (ill-formed under IOB2)",
            "不延续任何实体的 I- 标签（在 IOB2 下不合规）"),
)
SCHEME_NOTE = Message("bank.report.scheme_note", "Scheme {name}: {description}.", "标注方案 {name}：{description}。")
VIEWS_TITLE = Message("bank.report.views", "Partial-match views (nervaluate)", "部分匹配视角（nervaluate）")
VIEW_HEADERS = (Message("bank.report.view", "view", "视角"), Message("bank.report.decoding", "decoding", "解码方式"),
                report.CORRECT, Message("bank.report.incorrect", "incorrect", "错误"),
                Message("bank.report.partial", "partial", "部分正确"), Message("bank.report.missed", "missed", "漏掉"),
                Message("bank.report.spurious", "spurious", "多余"))
VIEW_NAMES = {
    "strict": Message("bank.view.strict", "strict (boundaries and type)", "严格（边界和类型）"),
    "exact": Message("bank.view.exact", "exact boundaries (any type)", "边界完全相同（类型不限）"),
    "partial": Message("bank.view.partial", "partial overlap (half credit)", "部分重叠（记一半分）"),
    "type": Message("bank.view.type", "type (any overlap, same type)", "类型（有重叠且类型相同）"),
}
DECODING_IOB2 = Message("bank.decoding.iob2", "strict IOB2 (as scored)", "严格 IOB2（计分所用）")
DECODING_CONLL_SCORED = Message("bank.decoding.conll_scored", "conlleval (as scored; as nervaluate reads tags)",
                                "conlleval（计分所用；即 nervaluate 读取标签的方式）")
DECODING_CONLL = Message("bank.decoding.conll", "conlleval (as nervaluate reads tags)",
                         "conlleval（nervaluate 读取标签的方式）")
VIEWS_NOTE = Message(
    "bank.report.views_note",
    "The views of the nervaluate package (1.2): each predicted entity is correct, incorrect, partial or "
    "spurious, each gold entity left over is missed; a prediction takes at most one gold entity sharing "
    "at least 1 % of its tokens. Strict: same boundaries and type (its precision and recall are those of "
    "the scored entities under the same decoding). Exact: same boundaries, any type. Partial: the exact "
    "matching, overlaps counted half. Type: an overlap of the same type is correct, of another type "
    "incorrect. nervaluate decodes tag lists conlleval-style (an I- tag that continues nothing starts an "
    "entity), so its own numbers are the conlleval rows; the scored decoding here is {scheme}.",
    "nervaluate 软件包（1.2）的各视角：每个预测实体记为正确、错误、部分正确或多余，余下的标准答案实体记为漏掉；一个预测"
    "至多对应一个与之共享至少 1% 字符的标准答案实体。严格：边界和类型都相同（其精确率和召回率即同一解码方式下计分实体的"
    "精确率和召回率）。边界完全相同：边界相同，类型不限。部分重叠：按边界完全相同的方式匹配，重叠记一半分。类型：同类型的"
    "重叠记为正确，不同类型记为错误。nervaluate 按 conlleval 方式解码标签序列（不延续任何实体的 I- 标签也开始一个实体），"
    "因此它自己的数字是 conlleval 那几行；本页计分所用的解码方式为：{scheme}。")
CLASS_TITLE = Message("bank.report.classes", "Sentiment class (S2)", "情感类别（S2）")
PREDICTED_TOTAL = Message("bank.report.predicted_total", "predicted total", "预测合计")
GOLD_TOTAL = Message("bank.report.gold_total", "gold total", "标准答案合计")
KAPPA_CAPTION = Message("bank.report.kappa", "Cohen's kappa {kappa}, accuracy {accuracy}",
                        "Cohen's kappa {kappa}，准确率 {accuracy}")
GOLD_CLASS = Message("reference.bank_class", "{where}: class {value!r} is not 0, 1 or 2.", None)
GOLD_TAG = Message("reference.bank_tag", "{where}: tag {pos} is not one of {tags}.", None)
GOLD_LENGTH = Message("reference.bank_length", "{where}: {given} tags for a text of {length} characters.", None)


def _type_list(value):
    return (isinstance(value, list) and len(value) > 0 and len(set(value)) == len(value)
            and all(isinstance(v, str) and v and v.replace("_", "").isalnum() for v in value))


@dataclass
class BankContract(Contract):
    lengths: np.ndarray = None    # characters (so tags) per comment
    tagset: TagSet = None

    def mismatch(self, public, positions):
        wrong = np.flatnonzero(self.lengths != public.lengths[positions])
        if not len(wrong):
            return None
        i = int(wrong[0])
        return i, "%d tags in the gold for a text of %d characters" % (self.lengths[i], public.lengths[positions[i]])


@dataclass
class BankReference(Reference):
    codes: np.ndarray = None      # tag codes of every comment, concatenated in reference order
    classes: np.ndarray = None    # class code per comment
    segments: Segments = None     # the gold's tag segments (both schemes' entities), found once


@dataclass
class BankSubmission:
    codes: np.ndarray
    classes: np.ndarray


@dataclass
class ParsedBank:
    """A submission's table with its classes and tags coded, not yet checked against the comments."""

    table: Table
    classes: np.ndarray           # class code per row, -1 where it is none
    enc: Encoded                  # tag codes (-1: not a tag) and tags per row


def _tagset(cfg):
    return TagSet(tuple(cfg.options["entity_types"]))


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "score": Message("bank.key.score", "S: weighted S1 and S2", "S：S1 与 S2 加权"),
    "ner_f1": Message("bank.key.ner_f1", "S1: entity F1 (strict)", "S1：实体 F1（严格）"),
    "kappa": Message("bank.key.kappa", "S2: Cohen's kappa", "S2：Cohen's kappa"),
    "ner_precision": Message("bank.key.ner_precision", "Entity precision", "实体精确率"),
    "ner_recall": Message("bank.key.ner_recall", "Entity recall", "实体召回率"),
    "class_accuracy": Message("bank.key.class_accuracy", "Class accuracy", "类别准确率"),
}


class BankComments(TaskFamily):
    name = "bank_comments"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    reference_files = {"gold": "gold.csv"}
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS),)
    unit_files = {"gold": UnitFile("csv", "id", ("id", "text", "BIO_anno", "class"))}
    options = {
        "scheme": Option("iob2", tuple(SCHEMES), "how tags become entities: strict IOB2 or conlleval chunking"),
        "entity_types": Option(list(TYPES), Check(_type_list, "a non-empty list of distinct type names"),
                               "entity types; tags are O, B-<type>, I-<type>"),
        "ner_weight": Option(0.5, number_in(0.0, 1.0), "weight w of S1 in S = w*S1 + (1-w)*S2"),
    }

    def leaderboard_keys(self, options):
        return ["score", "ner_f1", "kappa", "ner_precision", "ner_recall", "class_accuracy"]

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        name = cfg.files["gold"]
        needed = ["id", "BIO_anno", "class"] + ([cfg.usage_column] if cfg.usage_column else [])
        table = reference_table(cfg, "gold", needed)
        ids, units = reference_units(table)
        classes = class_codes(table.cells("class").strip())
        if (classes < 0).any():
            i = int(np.flatnonzero(classes < 0)[0])
            raise ReferenceDataError(GOLD_CLASS.at(name, i + 2, unit=ids.text(i), value=table.cells("class").text(i)))
        tagset = _tagset(cfg)
        enc = encode_cells(table.cells("BIO_anno"), tagset.tags)
        if (enc.codes < 0).any():
            row, pos = enc.locate(int(np.flatnonzero(enc.codes < 0)[0]))
            raise ReferenceDataError(GOLD_TAG.at(name, row + 2, unit=ids.text(row), column="BIO_anno", pos=pos + 1,
                                                 tags=" ".join(tagset.tags)))
        if "text" in table.columns:
            text_len = table.char_lengths("text")
            wrong = np.flatnonzero(text_len != enc.counts)
            if len(wrong):
                i = int(wrong[0])
                raise ReferenceDataError(GOLD_LENGTH.at(name, i + 2, unit=ids.text(i), column="BIO_anno",
                                                        given=int(enc.counts[i]), length=int(text_len[i])))
        gold_segments = segments(enc.codes, _document_starts(enc.counts))
        notes = _ill_formed_notes(gold_segments.stray(), enc.codes, enc.counts, units, tagset, cfg.options["scheme"],
                                  name)
        usage = table.cells(cfg.usage_column).to_objects() if cfg.usage_column else None
        return BankReference(BankContract(units, enc.counts, tagset), strata=np.array(CLASSES)[classes], usage=usage,
                             notes=notes, codes=enc.codes, classes=classes, segments=gold_segments)

    def public_contract(self, folder, cfg):
        """Units and text lengths from the public ``test_public.csv`` (id,text): no labels."""
        table = public_table(folder, self.public_inputs, ["id", "text"])
        if table is None:
            return None
        return BankContract(reference_units(table)[1], table.char_lengths("text"), _tagset(cfg))

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        table = self.submission_file().read(files["submission"], SubmissionError)
        return ParsedBank(table, class_codes(table.cells("class").strip()),
                          encode_cells(table.cells("BIO_anno"), _tagset(cfg).tags))

    def read_submission(self, parsed, contract, cfg, problems):
        table, classes, enc = parsed.table, parsed.classes, parsed.enc
        name, line = table.name, table.line
        position = match_ids(table, "id", contract.units, problems)
        ids = table.cells("id").strip()

        def at(i, column):
            return dict(file=name, line=int(line[i]), unit=ids.text(i) or None, column=column)

        cls = table.cells("class").strip()
        problems.add_rows(np.flatnonzero(classes < 0), line,
                          lambda i: BAD_CLASS.at(**at(i, "class"), value=repr(clip(cls.text(i)))))

        tags = table.cells("BIO_anno")
        ends = np.cumsum(enc.counts)
        bad_token = np.flatnonzero(enc.codes < 0)
        row_of = np.searchsorted(ends, bad_token, side="right")
        rows, first, count = np.unique(row_of, return_index=True, return_counts=True)
        first_bad = dict(zip(rows.tolist(), zip(bad_token[first].tolist(), count.tolist())))

        def bad_tag(row):  # one problem per row, naming its first unknown tag
            k, n = first_bad[row]
            pos = int(k - (ends[row] - enc.counts[row]))
            token = clip(token_text(tags, row, pos, limit=40))   # from its first bytes only
            return BAD_TAG.at(**at(row, "BIO_anno"), pos=pos + 1, token=repr(token), count=n,
                              tags=", ".join(contract.tagset.tags))

        problems.add_rows(rows, line, bad_tag)
        known = position >= 0
        expected = np.where(known, contract.lengths[np.maximum(position, 0)], enc.counts)
        problems.add_rows(np.flatnonzero(known & (enc.counts != expected)), line,
                          lambda i: TAG_COUNT.at(**at(i, "BIO_anno"), given=int(enc.counts[i]), length=int(expected[i])))
        missing_ids(table, contract.units, position, problems)
        if problems:
            return None
        codes = enc.codes
        if not np.array_equal(position, np.arange(len(position))):  # rows in another order than the gold
            order = np.argsort(position)
            codes = codes[segment_order(enc.counts, order)]
            classes = classes[order]
        return BankSubmission(codes=codes, classes=classes)

    def take(self, sub, contract, positions):
        return BankSubmission(codes=sub.codes[segment_order(contract.lengths, positions)], classes=sub.classes[positions])

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def advice(self, sub, contract, cfg):
        """One class for every comment (kappa 0), no entity at all (entity F1 0)."""
        found = []
        w = float(cfg.options["ner_weight"])
        if len(sub.classes) >= 2 and (sub.classes == sub.classes[0]).all() and w < 1:
            found.append(ADVICE_ONE_CLASS(n=advice.count(len(sub.classes)), value=CLASSES[int(sub.classes[0])],
                                          weight=advice.share(1 - w)))
        if len(sub.codes) and not sub.codes.any() and w > 0:  # code 0 is O
            found.append(ADVICE_NO_ENTITY(weight=advice.share(w)))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        scheme = SCHEMES[cfg.options["scheme"]]
        doc_mask = mask
        lengths = ref.contract.lengths[doc_mask]
        if doc_mask.all():  # every comment: the codes as they are
            pred_codes, gold_segments = sub.codes, ref.segments
        else:
            pred_codes = sub.codes[np.repeat(doc_mask, ref.contract.lengths)]
            gold_segments = ref.segments.of_documents(doc_mask, ref.contract.lengths)
        pred_segments = segments(pred_codes, _document_starts(lengths))
        del pred_codes  # both schemes and the stray tags are read from the segments

        gold = gold_segments.entities(scheme)
        pred = pred_segments.entities(scheme)
        gold_hit, pred_hit = match(gold, pred)
        n_types = len(ref.contract.tagset.types)
        tp_t = np.bincount(pred.type[pred_hit], minlength=n_types)
        pred_t = np.bincount(pred.type, minlength=n_types)
        gold_t = np.bincount(gold.type, minlength=n_types)

        # per comment: entities right, predicted and gold (by their starts), then its (gold, predicted) class cell
        ends = np.cumsum(lengths)
        cell = (ref.classes[doc_mask] * len(CLASSES) + sub.classes[doc_mask]).astype(np.int8)   # 9 cells: a byte
        units = [Units("comments", tuple(self.leaderboard_keys(cfg.options)), COMMENT_COLUMNS,
                       {"right": TallyAt(pred.start, ends, keep=pred_hit), "predicted": TallyAt(pred.start, ends),
                        "gold": TallyAt(gold.start, ends), "class_cell": Tally(None, len(lengths), cell, len(CLASSES) ** 2)},
                       len(lengths))]
        scores, sums = self.reduce(units, cfg)
        matrix = _class_matrix(COMMENT_COLUMNS.read(sums["comments"])["class_cell"]).astype(np.int64)

        stray = len(pred_segments.stray())
        decodings = [(scheme, gold, pred)]
        if scheme is not CONLLEVAL:  # nervaluate reads tag lists conlleval-style: show its numbers too
            decodings.append((CONLLEVAL, gold_segments.entities(CONLLEVAL), pred_segments.entities(CONLLEVAL)))
        del gold_segments, pred_segments

        def sections():  # the partial-match views take time: built when the page is written
            return [_entity_section(ref.contract.tagset.types, tp_t, pred_t, gold_t, scores),
                    _error_section(gold, pred, gold_hit, pred_hit, stray, scheme),
                    _views_section(decodings, scheme),
                    _class_section(matrix, scores["kappa"], scores["class_accuracy"])]

        summary = SUMMARY(n=int(doc_mask.sum()), chars=int(lengths.sum()), scheme=SCHEME_TEXT[scheme.name])
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """S1 = micro F1 of the entity counts (right, predicted, gold), S2 = Cohen's kappa of the summed class
        cells, S = w S1 + (1 - w) S2; accuracy = the cells' trace over their total (0 without a comment)."""
        s = COMMENT_COLUMNS.read(sums)
        p, r, f1 = prf(s["right"], s["predicted"], s["gold"])
        right, gold, pred = margins(_class_matrix(s["class_cell"]))
        kappa = cohen_kappa(right, gold, pred)
        w = float(cfg.options["ner_weight"])
        return {"score": w * f1 + (1.0 - w) * kappa, "ner_f1": f1, "kappa": kappa, "ner_precision": p,
                "ner_recall": r, "class_accuracy": class_accuracy(right, gold)}

    def unit_answers(self, ref, sub):
        """Each comment's tags (with their positions) and class."""
        lengths = ref.contract.lengths
        doc = np.repeat(np.arange(len(lengths)), lengths)
        position = np.arange(len(doc)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        tags = digests.per_unit(doc, len(lengths), position, sub.codes)
        return digests.combine(tags, sub.classes)


def _class_matrix(cells):
    """The (gold, predicted) class cells (..., 9) as confusion matrices (..., 3, 3), gold rows."""
    return cells.reshape(cells.shape[:-1] + (len(CLASSES), len(CLASSES)))


def class_codes(cells):
    """The class of each (stripped) cell, -1 where it is none of CLASS_ALIASES.

    >>> from scorer.bytelevel.cells import Cells
    >>> class_codes(Cells.from_strings(["2", "1.0", "x", "0"])).tolist()
    [2, 1, -1, 0]
    """
    aliases = list(CLASS_ALIASES)
    found = Index(Cells.from_strings(aliases)).get_indexer(cells)   # one read of each cell's bytes
    return np.array([CLASS_ALIASES[a] for a in aliases] + [-1], dtype=np.int64)[found]  # -1 reads the last


def _document_starts(lengths):
    """True at the first tag of each comment, in the concatenated tags of comments of ``lengths`` tags."""
    doc_start = np.zeros(int(lengths.sum()), dtype=bool)
    doc_start[(np.cumsum(lengths) - lengths)[lengths > 0]] = True
    return doc_start


def _ill_formed_notes(stray, codes, lengths, units, tagset, scheme_name, name):
    if not len(stray):
        return []
    doc_of = np.searchsorted(np.cumsum(lengths), stray, side="right")
    offset = stray - (np.cumsum(lengths) - lengths)[doc_of]
    tags = tagset.tags
    notes = ["%s has %d ill-formed tag transition(s) (an I- tag that continues no entity); under scheme %s "
             "they are scored as the scheme says, the gold was not changed:" % (name, len(stray), scheme_name)]
    for k, doc, pos in zip(stray[:50], doc_of[:50], offset[:50]):  # at most 50 lines of notes
        before = tags[codes[k - 1]] if pos > 0 else "(start)"
        notes.append("  id %s, character %d: %s after %s" % (units[doc], pos + 1, tags[codes[k]], before))
    return notes


def _entity_section(types, tp, n_pred, n_gold, scores):
    rows, f1s = [], []
    order = report.by_support(n_gold)
    for k in order:
        p, r, f = prf(tp[k], n_pred[k], n_gold[k])
        rows.append([types[k], int(n_gold[k]), int(n_pred[k]), int(tp[k]), p, r, f])
        f1s.append(f)
    rows.append([ALL_MICRO, int(n_gold.sum()), int(n_pred.sum()), int(tp.sum()), scores["ner_precision"],
                 scores["ner_recall"], scores["ner_f1"]])
    return report.Section(ENTITIES, [
        report.Table([ENTITY_TYPE, report.GOLD, report.PREDICTED, report.CORRECT] + list(report.PRF_HEADERS), rows),
        report.Bars(TYPE_CHART, [types[k] for k in order], [(report.SERIES_F1, f1s)]),
    ], per_class=True)


def _first_overlap(spans: Spans, others: Spans):
    """Index in ``others`` of a span overlapping each span of ``spans`` (-1 if none); ``others`` sorted, disjoint."""
    if not len(others):
        return np.full(len(spans), -1)
    k = search_sorted(others.end, spans.start, side="right")
    inside = k < len(others)
    k_safe = np.minimum(k, len(others) - 1)
    hit = inside & (others.start[k_safe] < spans.end)
    return np.where(hit, k_safe, -1)


def _error_section(gold, pred, gold_hit, pred_hit, stray, scheme):
    wrong = ~pred_hit
    j = _first_overlap(Spans(pred.start[wrong], pred.end[wrong], pred.type[wrong]), gold)
    has = j >= 0
    if len(gold):
        js = np.where(has, j, 0)
        same_span = has & (gold.start[js] == pred.start[wrong]) & (gold.end[js] == pred.end[wrong])
        same_type = has & (gold.type[js] == pred.type[wrong])
    else:  # a board without any gold entity: every predicted one is spurious
        same_span = same_type = np.zeros(len(j), dtype=bool)
    missed = (_first_overlap(gold, pred) < 0).sum() if len(gold) else 0
    counts = [pred_hit.sum(), (same_span & ~same_type).sum(), (same_type & ~same_span).sum(),
              (has & ~same_span & ~same_type).sum(), (~has).sum(), missed, stray]
    rows = [[what, int(n)] for what, n in zip(LOST_ROWS, counts)]
    note = SCHEME_NOTE(name=scheme.name, description=SCHEME_TEXT[scheme.name])
    return report.Section(LOST, [report.Table([report.WHAT, report.COUNT], rows), report.Text(note, "note")])


def _decoding_name(scheme, scored):
    if scheme is not CONLLEVAL:
        return DECODING_IOB2
    return DECODING_CONLL_SCORED if scheme is scored else DECODING_CONLL


def _views_section(decodings, scored):
    rows = []
    for scheme, gold, pred in decodings:
        found = views(gold, pred)
        name = _decoding_name(scheme, scored)
        for view in VIEWS:
            c = found[view]
            rows.append([VIEW_NAMES[view], name, c.correct, c.incorrect, c.partial, c.missed, c.spurious]
                        + list(c.prf()))
    note = VIEWS_NOTE(scheme=SCHEME_TEXT[scored.name])
    return report.Section(VIEWS_TITLE, [report.Table(list(VIEW_HEADERS) + list(report.PRF_HEADERS), rows),
                                        report.Text(note, "note")])


def _class_section(matrix, kappa, accuracy):
    order = report.by_support(matrix.sum(axis=1))
    names = [CLASS_NAMES[i] for i in order]
    shown = matrix[np.ix_(order, order)]
    rows = [[names[i]] + [int(v) for v in shown[i]] + [int(shown[i].sum())] for i in range(len(order))]
    rows.append([PREDICTED_TOTAL] + [int(v) for v in shown.sum(axis=0)] + [int(shown.sum())])
    return report.Section(CLASS_TITLE, [
        report.Table([report.MATRIX_CORNER] + names + [GOLD_TOTAL], rows,
                     caption=KAPPA_CAPTION(kappa="%.4f" % kappa, accuracy="%.4f" % accuracy)),
        report.Heatmap(CLASS_CHART, names, names, shown.tolist()),
    ], per_class=True)


FAMILY = BankComments()
