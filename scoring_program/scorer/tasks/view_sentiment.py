"""View-sentiment pairs: which views (car brands, models) a sentence talks about, and with what opinion.

Files (gold and submission alike): ``SentenceId,View,Opinion`` with a header,
comma- or TAB-separated (judged from the header). Opinions are ``pos``,
``neu``, ``neg`` or ``正面``, ``中性``, ``负面`` (option ``opinion_labels``).
SentenceIds are text: ``028171`` and ``28171`` are different sentences.

The reference data also holds ``sentences.csv`` (column ``SentenceId``), the
list of every test sentence: sentences without any gold view exist, and a
submission may have no row for a sentence (no view predicted there).

The unit of a board is the sentence. A (SentenceId, View) key is a pair, never
a concatenated string. With G the gold keys and R the submitted ones:

- tn = |R & G| (views found), fn1 = |G| - tn (views missed), fn2 = |R| - tn (spurious views);
- tp = found views with the right opinion (the diagonal of the 3x3 table), fp = tn - tp;
- P = tp / (tp + fp + fn2), R = tp / (tp + fn1), F1 = 2PR / (P + R);
- view extraction: P = tn / |R|, R = tn / |G|, F1.

Leaderboard keys: f1, precision, recall, view_f1, view_precision, view_recall.
"""
from dataclasses import dataclass

import numpy as np

from .. import advice, background, digests, report
from ..config import Check, Option
from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics.prf import prf
from ..metrics.sets import NORMALISATIONS, code_cells
from ..metrics.ties import run_starts
from ..problems import Message
from ..bytelevel.cells import Cells
from ..bytelevel.grouping import Index, factorize, group_keys
from ..tables import check_reference_ids, indexed_units, match_ids, read_public_units, reference_table, unit_index
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units, kept_codes
from ._per_unit import Schema, Tally

COLUMNS = ("SentenceId", "View", "Opinion")
CLASSES = ("pos", "neu", "neg")
# a sentence's row (the source document's terms): its (view, opinion) pairs found with the right opinion (tp), found
# with a wrong one (fp), its gold views not found (fn1) and its predicted views that are no gold view (fn2)
SENTENCE_COLUMNS = Schema("tp", "fp", "fn1", "fn2")
LABEL_SETS = {
    "en": {"pos": 0, "neu": 1, "neg": 2},
    "zh": {"正面": 0, "中性": 1, "负面": 2},
}
LABEL_SETS["either"] = dict(LABEL_SETS["en"], **LABEL_SETS["zh"])
LABEL_HELP = {"en": Message("views.labels_en", "pos, neu or neg", "pos、neu 或 neg"),
              "zh": Message("views.labels_zh", "正面, 中性 or 负面", "正面、中性或负面"),
              "either": Message("views.labels_either", "pos, neu or neg (or 正面, 中性, 负面)",
                                "pos、neu 或 neg（或 正面、中性、负面）")}
EMPTY_VIEW = Message("views.empty_view", "{where}: the View is empty; write one row per predicted view, or no row for "
                     "a sentence without views.", "{where}：View 为空；每个预测的视角写一行，没有视角的句子不写行。")
BAD_OPINION = Message("views.bad_opinion", "{where}: {value} is not an opinion; use {labels}.",
                      "{where}：{value} 不是合法的情感；请使用 {labels}。")
REPEATED = Message("views.repeated", "{where}: SentenceId {id}, View {view} is given again (first at line {first}); "
                   "give each view of a sentence exactly once, with one opinion.",
                   "{where}：SentenceId {id}、View {view} 重复出现（第一次在第 {first} 行）；每个句子的每个视角只写一次，只给一个情感。")
CONFLICTING = Message("views.conflicting", "{where}: SentenceId {id}, View {view} is given with another opinion (first "
                      "at line {first}); give each view of a sentence exactly once, with one opinion.",
                      "{where}：SentenceId {id}、View {view} 以不同的情感再次出现（第一次在第 {first} 行）；"
                      "每个句子的每个视角只写一次，只给一个情感。")
UNIT = Message("views.unit", "sentences", "句子")
MATRIX_CHART = Message("views.report.matrix", "Opinions: gold rows, predicted columns (views found, missed and "
                       "spurious)", "情感：行为标准答案，列为预测（找到的、漏掉的和多余的视角）")
NOT_FOUND = Message("views.report.not_found", "(not found)", "（未找到）")
NO_GOLD_VIEW = Message("views.report.no_gold_view", "(no gold view)", "（非标准视角）")
MATRIX_CAPTION = Message("views.report.matrix_caption", "Rows: the gold opinion; columns: the submitted opinion. "
                         "The diagonal is tp; (not found) is fn1, (no gold view) is fn2.",
                         "行：标准答案情感；列：提交的情感。对角线为 tp；（未找到）为 fn1，（非标准视角）为 fn2。")
ADVICE_JOINED = Message("views.advice_joined", "{share} of the rows have a View holding {found}: several views look "
                        "joined in one row, which counts as one view that matches none. Write one row per view "
                        "(SentenceId, View, Opinion).",
                        "{share} 的行的 View 含有 {found}：似乎把多个视角写在了同一行，这只算作一个不匹配任何视角的视角。"
                        "请每个视角写一行（SentenceId, View, Opinion）。")
GOLD_TWICE = Message("reference.views_twice", "{file} lists SentenceId {id} twice.", None)
GOLD_UNLISTED = Message("reference.views_unlisted", "{where}: SentenceId {id} is not in {listing}; list every test "
                        "sentence there.", None)
GOLD_EMPTY_VIEW = Message("reference.views_empty_view", "{where}: the View is empty.", None)
GOLD_OPINION = Message("reference.views_opinion", "{where}: opinion {value!r} is not {labels} (options.opinion_labels "
                       "is {choice}).", None)
NOTE_LINES = 50
TITLE = Message("views.title", "View-sentiment pairs", "视角-情感对")
COUNTS = Message("views.report.counts", "Counts", "计数")
COUNT_ROWS = (
    ("tp", Message("views.report.tp", "tp: views found with the right opinion", "tp：找到且情感正确的视角")),
    ("fp", Message("views.report.fp", "fp: views found with a wrong opinion", "fp：找到但情感错误的视角")),
    ("fn1", Message("views.report.fn1", "fn1: gold views missed", "fn1：未找到的标准答案视角（漏判）")),
    ("fn2", Message("views.report.fn2", "fn2: predicted views that are no gold view",
                    "fn2：不在标准答案中的预测视角（多判）")),
    ("tn", Message("views.report.found", "views found (tp + fp)", "找到的视角（tp + fp）")),
    ("gold", Message("views.report.gold", "gold views", "标准答案视角")),
    ("predicted", Message("views.report.predicted", "predicted views", "预测视角")),
)
COUNTS_NOTE = Message("views.report.counts_note", "P = tp / (tp + fp + fn2); R = tp / (tp + fn1); view P = (tp + fp) "
                      "/ predicted; view R = (tp + fp) / gold.",
                      "P = tp / (tp + fp + fn2)；R = tp / (tp + fn1)；视角 P = (tp + fp) / 预测视角数；"
                      "视角 R = (tp + fp) / 标准答案视角数。")
OPINIONS = Message("views.report.opinions", "Opinions of the views found", "找到的视角的情感")
GOLD_TOTAL = Message("views.report.gold_total", "gold total", "标准答案合计")
PREDICTED_TOTAL = Message("views.report.predicted_total", "predicted total", "预测合计")
OPINION_NAMES = {"pos": Message("views.opinion.pos", "pos", "正面"), "neu": Message("views.opinion.neu", "neu", "中性"),
                 "neg": Message("views.opinion.neg", "neg", "负面")}
REPEATED_TITLE = Message("views.report.repeated", "Repeated rows", "重复的行")
REPEATED_NOTE = Message("views.report.repeated_note", "{n} row(s) repeated an earlier row exactly (same SentenceId, View "
                        "and Opinion) and were counted once (options.repeated_rows is merge_identical).",
                        "{n} 行与前面某行完全相同（SentenceId、View 和 Opinion 都相同），只计一次"
                        "（options.repeated_rows 为 merge_identical）。")


def _steps(value):
    return isinstance(value, list) and len(set(value)) == len(value) and all(v in NORMALISATIONS for v in value)


SUMMARY_NORMALISED = Message(
    "view.summary.normalised", "{n} sentences, {gold} gold views, {pred} predicted views; opinions {labels}; views "
    "compared after {steps}.",
    "{n} 个句子，标准答案 {gold} 个视角，预测 {pred} 个视角；情感标签 {labels}；视角经 {steps} 处理后比较。")
SUMMARY_EXACT = Message(
    "view.summary.exact", "{n} sentences, {gold} gold views, {pred} predicted views; opinions {labels}; views "
    "compared exactly as written.",
    "{n} 个句子，标准答案 {gold} 个视角，预测 {pred} 个视角；情感标签 {labels}；视角按原文逐字比较。")


@dataclass
class ViewReference(Reference):
    views: Index = None                # distinct gold views (normalised), an exact grouping.Index
    key_sentence: np.ndarray = None    # sentence code of each distinct gold key, keys sorted
    keys: np.ndarray = None            # sorted int64 codes sentence * n_views + view
    accepted: np.ndarray = None        # (n_keys, 3) bool: opinions the gold lists for the key
    first: np.ndarray = None           # the first opinion the gold lists for the key


@dataclass
class ParsedViews:
    """A submission's table with its views and opinions coded, not yet checked against the sentences."""

    table: object
    view_code: np.ndarray              # code of each row's view (normalised) into ``views``
    views: object                      # the distinct views, cells.Cells
    opinion: np.ndarray                # class code of each row's opinion, -1 where it is none


@dataclass
class ViewSubmission:
    sentence: np.ndarray               # sentence code of each (distinct) submitted pair
    view_code: np.ndarray              # its view, as a code into ``views``
    views: object                      # the distinct submitted views (normalised), as written: cells.Cells
    opinion: np.ndarray                # class code 0 pos, 1 neu, 2 neg
    merged_sentence: np.ndarray = None  # sentence codes of identical repeated rows counted once

    @property
    def view(self):
        """The view of each pair (normalised), as written: cells.Cells."""
        return self.views[self.view_code]


# each score key's name on the page where the competition's columns give none
KEY_LABELS = {
    "f1": Message("view.key.f1", "F1 (view + opinion)", "F1（视角 + 情感）"),
    "precision": Message("view.key.precision", "P = tp / (tp + fp + fn2)", "P = tp / (tp + fp + fn2)"),
    "recall": Message("view.key.recall", "R = tp / (tp + fn1)", "R = tp / (tp + fn1)"),
    "view_f1": Message("view.key.view_f1", "View extraction F1", "视角抽取 F1"),
    "view_precision": Message("view.key.view_precision", "View extraction precision", "视角抽取精确率"),
    "view_recall": Message("view.key.view_recall", "View extraction recall", "视角抽取召回率"),
}


class ViewSentiment(TaskFamily):
    name = "view_sentiment"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    reference_files = {"gold": "gold.csv", "sentences": "sentences.csv"}
    submission_files = (SubmissionFile("submission", "*.csv", COLUMNS, separators=(",", "\t")),)
    unit_files = {"gold": UnitFile("csv", "SentenceId", COLUMNS), "sentences": UnitFile("csv", "SentenceId", ("SentenceId",))}
    options = {
        "opinion_labels": Option("either", tuple(LABEL_SETS),
                                 "the opinion names accepted, in gold and submission alike: en (pos/neu/neg), zh "
                                 "(正面/中性/负面) or either"),
        "repeated_rows": Option("reject", ("reject", "merge_identical"),
                                "a (SentenceId, View) given twice is refused (reject); with merge_identical, rows "
                                "repeating an earlier row exactly are counted once (the report says how many). Two "
                                "different opinions for one view are refused either way"),
        "view_normalisation": Option([], Check(_steps, "a list of distinct steps among %s" % ", ".join(NORMALISATIONS)),
                                     "views are compared exactly as written unless steps are given (applied in the order "
                                     "strip, nfkc, casefold)"),
    }

    def leaderboard_keys(self, options):
        return ["f1", "precision", "recall", "view_f1", "view_precision", "view_recall"]

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        labels = LABEL_SETS[cfg.options["opinion_labels"]]
        steps = cfg.options["view_normalisation"]
        # the sentence listing is read on a second thread while the gold is read and coded; the listing's
        # errors come first, then the gold's, in the order of the checks below
        listing = background.start(_sentence_ids, cfg)
        try:
            name = cfg.files["gold"]
            gold = reference_table(cfg, "gold", list(COLUMNS))
            view_code, distinct = code_cells(gold.cells("View"), steps)
            opinion = _opinions(gold.cells("Opinion"), labels)
        except BaseException:
            listing.result()
            raise
        unit_ids = listing.result()
        sentence = unit_index(unit_ids).get_indexer(gold.cells("SentenceId").strip())
        if (sentence < 0).any():
            i = int(np.flatnonzero(sentence < 0)[0])
            raise ReferenceDataError(GOLD_UNLISTED.at(name, i + 2, id=gold.cells("SentenceId").text(i),
                                                      listing=cfg.files["sentences"]))
        empty = distinct.lengths()[view_code] == 0
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise ReferenceDataError(GOLD_EMPTY_VIEW.at(name, i + 2, column="View"))
        if (opinion < 0).any():
            i = int(np.flatnonzero(opinion < 0)[0])
            choice = cfg.options["opinion_labels"]
            raise ReferenceDataError(GOLD_OPINION.at(name, i + 2, column="Opinion", value=gold.cells("Opinion").text(i),
                                                     labels=LABEL_HELP[choice](), choice=choice))

        row_key = sentence.astype(np.int64)
        row_key *= max(len(distinct), 1)
        row_key += view_code
        del view_code
        keys, first_row, inverse = _distinct_keys(row_key)
        del row_key
        notes = _repeat_notes(gold, inverse, name)
        del gold  # the views are coded, their distinct values copied: the gold's bytes can go
        accepted = np.zeros((len(keys), len(CLASSES)), dtype=bool)
        accepted[inverse, opinion] = True
        del inverse
        views = Index(distinct)
        key_sentence = sentence[first_row].astype(np.int64)
        return ViewReference(Contract(unit_ids), strata=lambda: _strata(key_sentence, accepted, len(unit_ids)),
                             notes=notes, views=views, key_sentence=key_sentence, keys=keys, accepted=accepted,
                             first=opinion[first_row])

    def public_contract(self, folder, cfg):
        """The SentenceIds of the public ``test_public.csv`` (SentenceId, Content): no views, no opinions."""
        units = read_public_units(folder, self.public_inputs, "SentenceId")
        return None if units is None else Contract(units)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        table = self.submission_file().read(files["submission"], SubmissionError)
        view_code, views = code_cells(table.cells("View"), cfg.options["view_normalisation"])
        opinion = _opinions(table.cells("Opinion"), LABEL_SETS[cfg.options["opinion_labels"]])
        return ParsedViews(table, view_code, views, opinion)

    def read_submission(self, parsed, contract, cfg, problems):
        table, view_code, views, opinion = parsed.table, parsed.view_code, parsed.views, parsed.opinion
        parsed.table = None  # taken: the file's bytes can go once every message is made
        name, line = table.name, table.line
        sentence = match_ids(table, "SentenceId", contract.units, problems, what="SentenceId", repeats="allow")
        ids = table.cells("SentenceId").strip()

        def at(i, column):
            return dict(file=name, line=int(line[i]), unit=ids.text(i) or None, column=column)

        problems.add_rows(np.flatnonzero(views.lengths()[view_code] == 0), line,
                          lambda i: EMPTY_VIEW.at(**at(i, "View")))
        choice = cfg.options["opinion_labels"]
        written = table.cells("Opinion")
        problems.add_rows(np.flatnonzero(opinion < 0), line,
                          lambda i: BAD_OPINION.at(**at(i, "Opinion"), value=repr(clip(written.text(i))),
                                                   labels=LABEL_HELP[choice]()))
        if (sentence >= 0).all():  # every id known: a row's id is its sentence's, and the file can go
            id_code, units = sentence, contract.units
            id_text = lambda i: units[sentence[i]]  # noqa: E731
            del table, written, ids
        else:  # equal ids are grouped as written
            id_code, id_text = factorize(ids)[0], ids.text
        keep = _repeats(id_code, id_text, view_code, views, opinion, line, name, cfg.options["repeated_rows"],
                        problems)
        if problems:
            return None
        return ViewSubmission(sentence=sentence[keep], view_code=view_code[keep], views=views, opinion=opinion[keep],
                              merged_sentence=sentence[~keep])

    def take(self, sub, contract, positions):
        code = kept_codes(positions, len(contract.units))
        sentence = code[sub.sentence]
        kept = sentence >= 0
        merged = None
        if sub.merged_sentence is not None:
            merged = code[sub.merged_sentence]
            merged = merged[merged >= 0].astype(sub.merged_sentence.dtype)
        return ViewSubmission(sentence=sentence[kept].astype(sub.sentence.dtype), view_code=sub.view_code[kept],
                              views=sub.views, opinion=sub.opinion[kept], merged_sentence=merged)

    # -- advice (validate.py and the page: never a score) --------------------------------------
    def advice(self, sub, contract, cfg):
        """Several views joined in one View cell."""
        found, held = advice.most_common_separator(sub.view)
        if found is not None and held > 0.5:
            return [ADVICE_JOINED(share=advice.share(held), found=repr(found))]
        return []

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        on_board = mask
        gold_in = on_board[ref.key_sentence]
        keys, accepted, first = ref.keys[gold_in], ref.accepted[gold_in], ref.first[gold_in]
        pred_in = on_board[sub.sentence]
        view_code = ref.views.get_indexer(sub.views)[sub.view_code[pred_in]]  # -1: the view is no gold view at all
        pred_keys = np.where(view_code >= 0, sub.sentence[pred_in] * max(len(ref.views), 1) + view_code, -1)
        pred_opinion = sub.opinion[pred_in]

        if len(keys):
            position = np.minimum(np.searchsorted(keys, pred_keys), len(keys) - 1)
            found = (pred_keys >= 0) & (keys[position] == pred_keys)
        else:
            position, found = np.zeros(len(pred_keys), dtype=np.int64), np.zeros(len(pred_keys), dtype=bool)
        g = position[found]
        op = pred_opinion[found]
        right = accepted[g, op]
        gold_opinion = np.where(right, op, first[g])
        n_classes = len(CLASSES)
        missed = np.ones(len(keys), dtype=bool)
        missed[g] = False
        # gold rows (the 3 opinions, then views that are no gold view), predicted columns (then views not found)
        table = np.zeros((n_classes + 1, n_classes + 1), dtype=np.int64)
        table[:n_classes, :n_classes] = np.bincount(gold_opinion * n_classes + op,
                                                    minlength=n_classes ** 2).reshape(n_classes, n_classes)
        table[:n_classes, n_classes] = np.bincount(first[missed], minlength=n_classes)
        table[n_classes, :n_classes] = np.bincount(pred_opinion[~found], minlength=n_classes)

        # per sentence of the board: tp (found, right opinion), fp (found, wrong opinion), fn1 (gold view
        # missed), fn2 (spurious view)
        board = np.cumsum(on_board) - 1   # sentence code -> row of the board's table
        n = int(on_board.sum())
        sentence = board[sub.sentence[pred_in]]
        found_at = sentence[found]
        units = [Units("sentences", tuple(self.leaderboard_keys(cfg.options)), SENTENCE_COLUMNS,
                       {"tp": Tally(found_at[right], n), "fp": Tally(found_at[~right], n),
                        "fn1": Tally(board[ref.key_sentence[gold_in]][missed], n), "fn2": Tally(sentence[~found], n)},
                       n)]
        scores, sums = self.reduce(units, cfg)
        summed = SENTENCE_COLUMNS.read(sums["sentences"])
        tp, fp, fn1, fn2 = (int(summed[name]) for name in ("tp", "fp", "fn1", "fn2"))
        counts = {"tp": tp, "fp": fp, "fn1": fn1, "fn2": fn2, "tn": tp + fp, "gold": len(keys),
                  "predicted": len(pred_keys)}

        merged = int(on_board[sub.merged_sentence].sum()) if sub.merged_sentence is not None else 0
        sections = [_count_section(counts), _table_section(table, counts)]
        if merged:
            sections.append(report.Section(REPEATED_TITLE, [report.Text(REPEATED_NOTE(n=merged), "note")]))
        steps = cfg.options["view_normalisation"]
        # the option's values are the organizer's words: the page names the labels and steps themselves
        summary = (SUMMARY_NORMALISED if steps else SUMMARY_EXACT)(
            n=n, gold=len(keys), pred=len(pred_keys), labels=LABEL_HELP[cfg.options["opinion_labels"]](),
            steps=advice.steps(steps))
        return Result(scores, sections, summary, units)

    def unit_scores(self, group, sums, cfg):
        """P = tp / (tp + fp + fn2), R = tp / (tp + fn1), F1 = 2PR / (P + R); views found tn = tp + fp:
        view P = tn / (tn + fn2), view R = tn / (tn + fn1), view F1 (the source formula's terms)."""
        s = SENTENCE_COLUMNS.read(sums)
        tp, fp, fn1, fn2 = s["tp"], s["fp"], s["fn1"], s["fn2"]
        precision, recall, f1 = prf(tp, tp + fp + fn2, tp + fn1)
        view_p, view_r, view_f = prf(tp + fp, tp + fp + fn2, tp + fp + fn1)
        return {"f1": f1, "precision": precision, "recall": recall,
                "view_f1": view_f, "view_precision": view_p, "view_recall": view_r}

    def unit_answers(self, ref, sub):
        """Each sentence's set of (view, opinion) pairs."""
        return digests.per_unit(sub.sentence, len(ref.units), sub.view.to_objects(), sub.opinion)


def _sentence_ids(cfg):
    """The stripped SentenceIds of the sentence listing, as UnitIds (each checked: not empty, listed once)."""
    listing = reference_table(cfg, "sentences", ["SentenceId"])
    units = listing.cells("SentenceId").strip()
    check_reference_ids(units, cfg.files["sentences"], "SentenceId")
    unit_ids, repeat = indexed_units(units)
    if repeat is not None:
        raise ReferenceDataError(GOLD_TWICE(file=cfg.files["sentences"], id=units.text(repeat)))
    return unit_ids


def _opinions(cells, labels):
    """Class code per cell (-1 if not a label); case and surrounding spaces do not matter.

    Cells spelled exactly as a label are coded at once; the others as ``labels.get(text.strip().lower(), -1)``,
    without a Python string per cell (``_loose_opinions``).

    >>> from scorer.bytelevel.cells import Cells
    >>> _opinions(Cells.from_strings(["pos", " NEG", "x", "neu", "\u3000Pos ", "正面"]), LABEL_SETS["either"]).tolist()
    [0, 2, -1, 1, 0, 0]
    """
    spellings = list(labels)
    index = Index(Cells.from_strings(spellings))
    code_of = np.array([labels[s] for s in spellings] + [-1], dtype=np.int8)   # -1 reads the last
    codes = code_of[index.get_indexer(cells)]
    other = np.flatnonzero(codes < 0)
    if len(other):
        codes[other] = _loose_opinions(cells[other], labels, index, code_of)
    return codes


def _loose_opinions(cells, labels, index, code_of):
    """``labels.get(text.strip().lower(), -1)`` for each cell: stripped as cells; an ASCII one lowered byte by byte
    and looked up; the distinct short other ones by Python. A text whose lower case is a label has no more
    characters than the label (lowering never joins characters), so a longer cell is none, whatever its case."""
    out = np.full(len(cells), -1, dtype=np.int8)
    stripped = cells.strip()
    short = np.flatnonzero(stripped.lengths() <= 4 * max(len(label) for label in labels))   # 4 bytes a character
    if not len(short):
        return out
    compact = stripped[short].compact()
    high = np.zeros(len(compact.buf) + 1, dtype=np.int64)   # bytes above 0x7F before each offset
    np.cumsum(compact.buf >= 0x80, out=high[1:])
    plain = high[compact.end] == high[compact.start]
    lowered = compact.buf + ((compact.buf >= 65) & (compact.buf <= 90)).astype(np.uint8) * np.uint8(32)
    rows = np.flatnonzero(plain)
    out[short[rows]] = code_of[index.get_indexer(Cells(lowered, compact.start[rows], compact.end[rows]))]
    rows = np.flatnonzero(~plain)
    if len(rows):
        spelling, first = factorize(compact[rows])
        mapped = np.array([labels.get(compact.text(rows[k]).lower(), -1) for k in first.tolist()], dtype=np.int8)
        out[short[rows]] = mapped[spelling]
    return out


def _repeats(id_code, id_text, view_code, views, opinion, line, name, rule, problems):
    """Rows to keep; a (SentenceId, View) given twice is a problem, unless identical rows may be merged.

    ``id_code``: equal codes for equal SentenceIds; ``id_text(i)``: row i's SentenceId, for messages.
    """
    key = id_code.astype(np.int64)
    key *= max(len(views), 1)
    key += view_code
    ordered = np.sort(key, kind="stable")  # rows usually come in sentence order: runs that timsort merges
    if not (ordered[1:] == ordered[:-1]).any():  # no pair given twice: the usual file
        return np.ones(len(key), dtype=bool)
    del ordered
    code, first = group_keys(key)
    del key
    pair = _Groups(code, first)
    first_row = pair.first[pair.code]
    repeated_key = first_row != np.arange(len(first_row))
    if not repeated_key.any():
        return np.ones(len(first_row), dtype=bool)
    # identical rows: the same (SentenceId, View) and the same opinion earlier
    rows = np.flatnonzero(np.bincount(pair.code)[pair.code] > 1)
    identical = np.zeros(len(first_row), dtype=bool)
    triple = pair.code[rows] * (len(CLASSES) + 1) + opinion[rows] + 1
    identical[rows] = True
    identical[rows[np.unique(triple, return_index=True)[1]]] = False
    offending = repeated_key & ~identical if rule == "merge_identical" else repeated_key
    if offending.any():
        first = line[first_row]  # rows are in file order: a pair's first row has its smallest line
        problems.add_rows(np.flatnonzero(offending), line, lambda i: (REPEATED if identical[i] else CONFLICTING).at(
            name, int(line[i]), id=clip(id_text(i)), view=repr(clip(views.text(view_code[i]))), first=int(first[i])))
    return ~identical


@dataclass
class _Groups:
    code: np.ndarray
    first: np.ndarray


def _strata(key_sentence, accepted, n_units):
    """Board strata per sentence: the set of gold opinions it has ("none", "neu", "neg+pos", ...), from the
    sentence of each distinct gold key and the opinions the gold gives it.

    >>> _strata(np.array([0, 0, 2]), np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]], bool), 4).tolist()
    ['pos+neg', 'none', 'neu', 'none']
    """
    mask = np.zeros(n_units, dtype=np.int64)
    for k in range(len(CLASSES)):  # one pass per opinion class
        mask |= (np.bincount(key_sentence[accepted[:, k]], minlength=n_units) > 0).astype(np.int64) << k
    names = np.array(["+".join(c for k, c in enumerate(CLASSES) if m >> k & 1) or "none" for m in range(8)],
                     dtype=object)
    return names[mask]


def _distinct_keys(row_key):
    """(the sorted distinct keys, the first row of each, the key of each row): ``np.unique(row_key,
    return_index=True, return_inverse=True)`` with fewer temporaries.

    >>> [a.tolist() for a in _distinct_keys(np.array([5, 2, 5, 9]))]
    [[2, 5, 9], [1, 0, 3], [1, 0, 1, 2]]
    """
    order = np.argsort(row_key, kind="stable")  # stable: each key's first row comes first
    keys = row_key[order]
    new = run_starts(keys)
    inverse = np.empty(len(order), dtype=np.int64)
    if new.all():  # no key given twice: the usual gold
        inverse[order] = np.arange(len(order))
        return keys, order, inverse
    group = np.cumsum(new)
    group -= 1
    inverse[order] = group
    return keys[new], order[new], inverse


def _repeat_notes(gold, inverse, name):
    """Organizer notes on gold rows that repeat a (SentenceId, View) key, and how they are scored."""
    if len(inverse) == 0 or int(inverse.max()) == len(inverse) - 1:  # as many keys as rows: none repeated
        return []
    repeated = np.bincount(inverse)[inverse] > 1
    if not repeated.any():
        return []
    rows = np.flatnonzero(repeated)
    n_keys = len(np.unique(inverse[rows]))
    notes = ["%s gives %d (SentenceId, View) key(s) more than once (%d rows). Each such key is scored as one "
             "gold view; a predicted opinion is right if it equals any opinion listed for the key (as the "
             "source formula does with sets), and the 3x3 table files a wrong one under the first listed "
             "opinion. The gold was not changed:" % (name, n_keys, len(rows))]
    columns = [gold.cells(c) for c in COLUMNS]
    for i in rows[:NOTE_LINES]:
        notes.append("  line %d: %s\t%s\t%s" % ((i + 2,) + tuple(c.text(i) for c in columns)))
    if len(rows) > NOTE_LINES:
        notes.append("  ... %d more rows" % (len(rows) - NOTE_LINES))
    return notes


def _count_section(c):
    rows = [[what, c[key]] for key, what in COUNT_ROWS]
    return report.Section(COUNTS, [report.Table([report.WHAT, report.COUNT], rows), report.Text(COUNTS_NOTE, "note")])


def _table_section(table, c):
    n = len(CLASSES)
    order = list(report.by_support(table[:n, :].sum(axis=1)))
    shown = table[np.ix_(order + [n], order + [n])]
    names = [OPINION_NAMES[CLASSES[i]] for i in order]
    head = [report.MATRIX_CORNER] + names + [NOT_FOUND, GOLD_TOTAL]
    rows = [[names[i]] + [int(v) for v in shown[i]] + [int(shown[i].sum())] for i in range(n)]
    rows.append([NO_GOLD_VIEW] + [int(v) for v in shown[n, :n]] + ["", int(shown[n].sum())])
    rows.append([PREDICTED_TOTAL] + [int(v) for v in shown[:, :n].sum(axis=0)] + ["", ""])
    return report.Section(OPINIONS, [
        report.Table(head, rows, caption=MATRIX_CAPTION),
        report.Heatmap(MATRIX_CHART, names + [NO_GOLD_VIEW], names + [NOT_FOUND], shown.tolist()),
    ], per_class=True)


FAMILY = ViewSentiment()
