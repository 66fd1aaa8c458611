"""Text generation (translation, summarisation, titles, captions): one text per id against one or more references.

Files:

- gold (``gold.csv``, the organizer's): ``id,reference`` with a header (comma or TAB); an id with several
  references has one row per reference (every row of an id is one of its references, in file order);
- public test inputs (``test_public.csv``): ``id`` and the source columns (whatever the system reads); the kit
  warns of a hypothesis that copies one of them;
- submission: ``predictions.csv`` (``id,text``), ``predictions.jsonl`` (one ``{"id", "text"}`` per line) or
  ``predictions.json`` (one object ``{id: text}``): the form is the name's ending (``_texts_io``).

Keys (0..100 but ``length_ratio``), each the formula of its reference implementation from column sums over the
segments of the board, a Units group per measure (``SCHEMAS``: BLEU's keys from BLEU's counts alone, and so on),
so the primary key's interval is the paired bootstrap of the MT literature (segments resampled, their counts
summed) of that measure's columns:

- ``bleu``: corpus BLEU as sacreBLEU 2.x (tokenizer ``bleu_tokenizer``: 13a, zh or char; exponential smoothing;
  the brevity penalty over the corpus; ``metrics.bleu``); ``length_ratio``: hypothesis over reference tokens;
- ``chrf``, ``chrf_pp``: chrF and chrF++ (character 6-grams, β = 2; chrF++ adds word 2-grams; ``metrics.chrf``);
- ``rouge1_f`` ... ``rougelsum_r``: ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum F, P and R as rouge-score 0.1.2
  scores each segment (the reference of highest F; ``rouge_tokenizer`` default or chinese, ``rouge_stem``),
  times 100 and averaged over segments (``metrics.rouge``);
- ``exact_match``: the share of hypotheses equal to one of their references (surrounding whitespace ignored).

A test id without a hypothesis is scored as an empty hypothesis (the kit warns, naming it). ``lowercase``
lower-cases BLEU's and chrF's texts (sacreBLEU's ``-lc``). The page shows each measure's signature as sacreBLEU
prints it.

>>> from scorer.tasks._per_unit import column_sums
>>> columns = segment_columns(["the cat sat on the mat"], ["the cat sat on a mat"], np.array([0]), OPTIONS_DEFAULT)
>>> sums = column_sums(SCHEMAS["bleu"].ordered(columns["bleu"]))
>>> round(float(FAMILY.unit_scores("bleu", sums, None)["bleu"]), 6)   # 100 (5/6 * 3/5 * 2/4 * 1/3) ** (1/4)
53.728497
"""
from dataclasses import dataclass
from typing import Any, List, Optional

import numpy as np

from .. import advice, background, digests, report
from ..bytelevel.grouping import factorize
from ..config import BOOLEAN, Option
from ..errors import ReferenceDataError, clip
from ..metrics import bleu, chrf, rouge, text_norm
from ..problems import Message
from ..tables import check_reference_ids, indexed_units, public_table, reference_table, reference_units
from .base import Contract, Reference, Result, SubmissionFile, TaskFamily, UnitFile, Units
from ._per_unit import Each, Ones, Schema
from ._texts_io import parse_texts, per_unit, read_texts

CHRF_COLUMNS = chrf.stat_columns()
CHRFPP_COLUMNS = chrf.stat_columns(word_order=chrf.CHRF_PLUS_PLUS_WORD_ORDER)
ROUGE_COLUMNS = rouge.stat_columns()
# Each measure's keys are one formula of its own per-segment columns, so each measure is a Units group of its
# own: an interval (or the Ladder's paired test) of a key resamples the columns of its measure and no other.
# BLEU's counts (sacreBLEU's order); chrF's and chrF++'s counts of the best reference; a segment's row (1) with
# ROUGE's per-segment P, R, F of each type, and with its exact match (1/0)
SCHEMAS = {"bleu": Schema(("bleu", len(bleu.STAT_COLUMNS))), "chrf": Schema(("chrf", len(CHRF_COLUMNS))),
           "chrf_pp": Schema(("chrf_pp", len(CHRFPP_COLUMNS))),
           "rouge": Schema("segments", ("rouge", len(ROUGE_COLUMNS))), "exact": Schema("segments", "exact")}
# the one table of every measure that the program saved before the groups above (66 columns, as the Ladder's best
# counts): each group's columns are found in it by name (``saved_table``)
SINGLE_TABLE = Schema("segments", ("bleu", len(bleu.STAT_COLUMNS)), ("chrf", len(CHRF_COLUMNS)),
                      ("chrf_pp", len(CHRFPP_COLUMNS)), ("rouge", len(ROUGE_COLUMNS)), "exact")
ROUGE_KEYS = {"rouge1": "rouge1", "rouge2": "rouge2", "rougeL": "rougel", "rougeLsum": "rougelsum"}
ROUGE_SCORE_KEYS = tuple("%s_%s" % (name, m) for name in ROUGE_KEYS.values() for m in ("f", "p", "r"))
GROUP_KEYS = {"bleu": ("bleu", "length_ratio"), "chrf": ("chrf",), "chrf_pp": ("chrf_pp",), "rouge": ROUGE_SCORE_KEYS,
              "exact": ("exact_match",)}
KEYS = ("bleu", "chrf", "chrf_pp") + ROUGE_SCORE_KEYS + ("exact_match", "length_ratio")
OPTIONS_DEFAULT = {"bleu_tokenizer": "13a", "lowercase": False, "rouge_tokenizer": "default", "rouge_stem": False}
SHOWN = 10

UNIT = Message("generation.unit", "segments", "条")
TITLE = Message("generation.report.title", "Text generation", "文本生成")
TEXT = Message("generation.text", "text", "文本")
KEY_LABELS = {
    "bleu": Message("generation.key.bleu", "BLEU", "BLEU"),
    "chrf": Message("generation.key.chrf", "chrF", "chrF"),
    "chrf_pp": Message("generation.key.chrf_pp", "chrF++", "chrF++"),
    "exact_match": Message("generation.key.exact_match", "Exact match (%)", "完全匹配（%）"),
    "length_ratio": Message("generation.key.length_ratio", "Length ratio (hyp/ref)", "长度比（生成/参考）"),
}
for _type, _key in ROUGE_KEYS.items():
    _name = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum"}[_type]
    for _m, (_en, _zh) in (("f", ("F", "F")), ("p", ("precision", "精确率")), ("r", ("recall", "召回率"))):
        KEY_LABELS["%s_%s" % (_key, _m)] = Message("generation.key.%s_%s" % (_key, _m), "%s %s" % (_name, _en),
                                                   "%s %s" % (_name, _zh))
SUMMARY = Message("generation.summary", "{n} segments on this board, {refs} references; BLEU {bleu}, chrF {chrf}.",
                  "本榜单 {n} 条，参考文本 {refs} 条；BLEU {bleu}，chrF {chrf}。")
SIGNATURE_TITLE = Message("generation.report.signature", "Signatures", "签名")
SIGNATURE_NOTE = Message("generation.report.signature_note", "Each measure with its settings, written as sacreBLEU "
                         "writes its signature; BLEU, chrF and chrF++ equal sacreBLEU 2.6.0's, ROUGE rouge-score "
                         "0.1.2's (times 100, the mean over segments).",
                         "各项指标及其设置，按 sacreBLEU 签名的写法给出；BLEU、chrF 和 chrF++ 与 sacreBLEU 2.6.0 "
                         "的结果一致，ROUGE 与 rouge-score 0.1.2 一致（乘以 100，按条平均）。")
SEGMENTS_TITLE = Message("generation.report.segments", "Segments", "各条生成文本")
WHAT = Message("generation.report.what", "what", "项目")
COUNT = Message("generation.report.count", "count", "数量")
SEGMENT_ROWS = (Message("generation.report.on_board", "segments on this board", "本榜单的条数"),
                Message("generation.report.references", "references", "参考文本"),
                Message("generation.report.absent", "no hypothesis in the submission (scored as empty)",
                        "提交中没有对应文本（按空文本计分）"),
                Message("generation.report.empty", "empty hypotheses", "空的生成文本"),
                Message("generation.report.exact", "hypotheses equal to a reference", "与某条参考文本相同"))
BLEU_TITLE = Message("generation.report.bleu", "BLEU: n-gram precisions and lengths", "BLEU：N 元组精确率与长度")
BLEU_HEADERS = (Message("generation.report.order", "n", "阶数"),
                Message("generation.report.matches", "matching n-grams", "匹配的 N 元组"),
                Message("generation.report.totals", "hypothesis n-grams", "生成文本的 N 元组"),
                Message("generation.report.precision", "precision (%)", "精确率（%）"))
BLEU_NOTE = Message("generation.report.bleu_note", "Hypothesis tokens {hyp:,}, reference tokens {ref:,} (the "
                    "reference closest in length for each segment); length ratio {ratio:.4f}, brevity penalty "
                    "{bp:.4f}.", "生成文本 {hyp:,} 个词，参考文本 {ref:,} 个词（每条取长度最接近的参考）；长度比 "
                    "{ratio:.4f}，长度惩罚 {bp:.4f}。")
BLEU_CHART = Message("generation.report.bleu_chart", "BLEU's n-gram precisions (%)", "BLEU 的 N 元组精确率（%）")
ROUGE_CHART = Message("generation.report.rouge_chart", "ROUGE F, precision and recall (%)",
                      "ROUGE 的 F 值、精确率与召回率（%）")
ROUGE_TITLE = Message("generation.report.rouge", "ROUGE", "ROUGE")
ROUGE_HEADERS = (Message("generation.report.measure", "measure", "指标"), Message("generation.report.f", "F", "F"),
                 Message("generation.report.p", "precision", "精确率"), Message("generation.report.r", "recall", "召回率"))

GOLD_EMPTY_ID = Message("reference.generation.no_reference", "{file} has no reference row for id {id}.", None)
NOTE_EMPTY_REFERENCE = Message("generation.note.empty_reference", "{file} has {n} empty reference(s) (first ids: "
                               "{ids}); an empty reference has no n-gram, so only an empty hypothesis matches it.",
                               "{file} 有 {n} 条空的参考文本（前几个 id：{ids}）；空参考文本没有 N 元组，只有空的生成文本"
                               "与之匹配。")
ADVICE_ABSENT = Message("generation.advice_absent", "{n} test id(s) have no text, so each is scored as an empty "
                        "hypothesis: {ids}. Write one text for every id of the test inputs.",
                        "有 {n} 个测试 id 没有文本，每个都按空文本计分：{ids}。请为测试输入中的每个 id 写一条文本。")
ADVICE_EMPTY = Message("generation.advice_empty", "{n} text(s) are empty, which score 0 on every measure: {ids}.",
                       "有 {n} 条文本为空，在所有指标上都得 0 分：{ids}。")
ADVICE_COPIED = Message("generation.advice_copied", "{n} text(s) copy their source from the test inputs ({column}) "
                        "word for word: {ids}. Generate the output; a copied source scores low.",
                        "有 {n} 条文本逐字照抄了测试输入中的源文本（{column}）：{ids}。请生成输出；照抄源文本得分很低。")
ADVICE_SAME = Message("generation.advice_same", "all {n} texts are the same ({value}); generate the text of each id.",
                      "全部 {n} 条文本都相同（{value}）；请为每个 id 分别生成文本。")


@dataclass
class GenerationContract(Contract):
    sources: Optional[Any] = None    # {column: the text of each unit} of the public inputs, or None


@dataclass
class GenerationReference(Reference):
    references: List[str] = None     # every reference text, by unit in file order
    owner: np.ndarray = None         # the unit of each reference


@dataclass
class GenerationSubmission:
    texts: np.ndarray                # per unit: the hypothesis ("" where absent)
    present: np.ndarray              # per unit: the submission has a text for it


class Generation(TaskFamily):
    name = "generation"
    title = TITLE
    unit_noun = UNIT
    key_labels = KEY_LABELS
    reference_files = {"gold": "gold.csv"}
    submission_files = (SubmissionFile("predictions", "predictions.*", ("id", "text"), separators=(",", "\t"),
                                       fullwidth=False),)
    unit_files = {"gold": UnitFile("csv", "id", ("id", "reference"))}
    options = {
        "bleu_tokenizer": Option("13a", ("13a", "zh", "char"), "sacreBLEU's tokenizer of BLEU: 13a (its default, "
                                 "for languages written with spaces), zh (Chinese characters one by one), char"),
        "lowercase": Option(False, BOOLEAN, "lower-case hypotheses and references before BLEU and chrF (sacreBLEU's "
                            "-lc); ROUGE always lower-cases"),
        "rouge_tokenizer": Option("default", ("default", "chinese"), "default: rouge-score's own (a-z0-9 runs; it "
                                  "drops every other character); chinese: every other letter or digit, Chinese "
                                  "characters included, is a token of its own"),
        "rouge_stem": Option(False, BOOLEAN, "Porter-stem tokens longer than 3 characters before ROUGE (rouge-score's "
                             "use_stemmer, for English)"),
    }

    def leaderboard_keys(self, options):
        return list(KEYS)

    # -- reference ---------------------------------------------------------------------------
    def load_reference(self, cfg):
        name = cfg.files["gold"]
        gold = reference_table(cfg, "gold", ["id", "reference"])
        ids = gold.cells("id").strip()
        check_reference_ids(ids, name)
        codes, first = factorize(ids, ordered=True)
        units, _ = indexed_units(ids[first])
        references = gold.cells("reference").tolist()
        notes = []
        empty = np.flatnonzero(np.fromiter((not r.strip() for r in references), dtype=bool, count=len(references)))
        if len(empty):
            notes.append(NOTE_EMPTY_REFERENCE(file=name, n=len(empty), ids=", ".join(
                units[int(codes[i])] for i in empty[:SHOWN])).text(cfg.language))
        n_refs = np.bincount(codes, minlength=len(units))
        strata = lambda: np.where(n_refs > 1, "several", "one").astype(object)  # noqa: E731
        return GenerationReference(Contract(units), strata=strata, notes=notes, references=references,
                                   owner=codes.astype(np.int64))

    def public_contract(self, folder, cfg):
        """The ids of the public ``test_public.csv`` and its other columns (the sources), never a reference."""
        table = public_table(folder, self.public_inputs, ["id"])
        if table is None:
            return None
        _, units = reference_units(table, "id")
        sources = {c: table.cells(c).tolist() for c in table.columns if c != "id"}
        return GenerationContract(units, sources=sources or None)

    # -- submission --------------------------------------------------------------------------
    def parse_submission(self, files, cfg):
        return parse_texts(files["predictions"], "text", TEXT())

    def read_submission(self, parsed, contract, cfg, problems):
        entries = read_texts(parsed, contract.units, problems, TEXT())
        if problems:
            return None
        texts, present = per_unit(entries, len(contract.units))
        return GenerationSubmission(texts, present)

    def take(self, sub, contract, positions):
        positions = np.asarray(positions, dtype=np.int64)
        return GenerationSubmission(sub.texts[positions], sub.present[positions])

    # -- advice ------------------------------------------------------------------------------
    def advice(self, sub, contract, cfg):
        """Ids without a text, empty texts, texts that copy a source column of the public inputs, one text for all."""
        found = []
        if not sub.present.all():
            shown = advice.units_where(contract.units, ~sub.present)
            found.append(ADVICE_ABSENT(n=advice.count(len(shown)), ids=advice.ids(shown)))
        stripped = np.array([t.strip() for t in sub.texts], dtype=object)
        empty = sub.present & (stripped == "")
        if empty.any():
            shown = advice.units_where(contract.units, empty)
            found.append(ADVICE_EMPTY(n=advice.count(len(shown)), ids=advice.ids(shown)))
        for column, texts in (getattr(contract, "sources", None) or {}).items():
            source = np.array([t.strip() for t in texts], dtype=object)
            copied = sub.present & ~empty & (stripped == source)
            if copied.any():
                shown = advice.units_where(contract.units, copied)
                found.append(ADVICE_COPIED(n=advice.count(len(shown)), ids=advice.ids(shown), column=column))
        given = stripped[sub.present & ~empty]
        if len(given) >= 2 and (given == given[0]).all():
            found.append(ADVICE_SAME(n=advice.count(len(given)), value=repr(clip(given[0], 60))))
        return found

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, mask, cfg):
        q = np.flatnonzero(mask)
        rank = np.full(len(mask), -1, dtype=np.int64)
        rank[q] = np.arange(len(q))
        kept = rank[ref.owner] >= 0
        references = [r for r, k in zip(ref.references, kept.tolist()) if k]
        owner = rank[ref.owner][kept]
        hypotheses = sub.texts[q].tolist()
        columns = segment_columns(hypotheses, references, owner, cfg.options)
        units = [Units(group, GROUP_KEYS[group], schema, columns[group], len(q)) for group, schema in SCHEMAS.items()]
        scores, sums = self.reduce(units, cfg)
        n_refs = np.bincount(owner, minlength=len(q))
        summary = SUMMARY(n=advice.count(len(q)), refs=advice.count(len(references)), bleu="%.2f" % scores["bleu"],
                          chrf="%.2f" % scores["chrf"])
        stats = dict(zip(bleu.STAT_COLUMNS, SCHEMAS["bleu"].read(sums["bleu"])["bleu"]))
        sections = [
            report.Section(SIGNATURE_TITLE, [report.Text(line) for line in signatures(cfg.options, n_refs)]
                           + [report.Text(SIGNATURE_NOTE, "note")]),
            _segments_section(sub, q, columns["exact"]["exact"], len(references)),
            _bleu_section(stats),
            _rouge_section(scores),
        ]
        return Result({key: scores[key] for key in KEYS}, sections, summary, units)

    def saved_table(self, group, table):
        """A group's table saved by a program before the per-measure groups (the 66 columns of ``SINGLE_TABLE``)
        is that group's columns of it, by name; any other table as it is."""
        table = np.asarray(table)
        try:
            layout = SINGLE_TABLE.layout(table.shape[1])
        except (IndexError, ValueError):   # not that table: this program's own, or one the Ladder refuses by shape
            return table
        return np.column_stack([table[:, layout[name]] for name in SCHEMAS[group].names])

    def unit_scores(self, group, sums, cfg):
        """BLEU and length ratio (group ``bleu``), chrF, chrF++ by their corpus formulas of the summed counts; ROUGE
        P, R, F and exact match as 100 times the mean of their per-segment values."""
        s = SCHEMAS[group].read(sums)
        if group in ("bleu", "chrf", "chrf_pp"):
            names = {"bleu": bleu.STAT_COLUMNS, "chrf": CHRF_COLUMNS, "chrf_pp": CHRFPP_COLUMNS}[group]
            counts = {name: s[group][..., k] for k, name in enumerate(names)}
            if group == "bleu":
                return {"bleu": bleu.bleu(counts), "length_ratio": bleu.length_ratio(counts)}
            word_order = chrf.CHRF_PLUS_PLUS_WORD_ORDER if group == "chrf_pp" else chrf.WORD_ORDER
            return {group: chrf.chrf(counts, word_order=word_order)}
        n = s["segments"]
        mean = lambda total: 100.0 * np.divide(total, n, out=np.zeros(np.shape(n)), where=n > 0)  # noqa: E731
        if group == "exact":
            return {"exact_match": mean(s["exact"])}
        out = {}
        for k, name in enumerate(ROUGE_COLUMNS):
            kind, measure = name.rsplit("_", 1)
            out["%s_%s" % (ROUGE_KEYS[kind], measure[0])] = mean(s["rouge"][..., k])
        return out

    def unit_answers(self, ref, sub):
        """Each segment's hypothesis, "" and absent told apart."""
        n = len(sub.texts)
        return digests.per_unit(np.arange(n), n, sub.texts.astype(str), sub.present)


CHUNK = 1000   # segments whose n-grams are coded at once: memory bounded, the hash tables kept in cache


def segment_columns(hypotheses, references, owner, options):
    """{group: {name: column}}: the per-segment columns of each group of ``SCHEMAS`` for ``hypotheses`` and the
    flat ``references`` (``owner``: the hypothesis of each), computed ``CHUNK`` segments at a time (a segment's
    counts are its own: the n-gram codes of one chunk need not be comparable with another's)."""
    owner = np.asarray(owner, dtype=np.int64)
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(0, max(len(hypotheses), 1) + CHUNK, CHUNK))
    starts = range(0, max(len(hypotheses), 1), CHUNK)
    table = {}

    def fill(chunks):
        for k in chunks:
            start, these = starts[k], order[bounds[k]:bounds[k + 1]]
            part = _chunk_columns(hypotheses[start:start + CHUNK], [references[i] for i in these.tolist()],
                                  owner[these] - start, options)
            if not table:   # filled chunk by chunk: never the chunks and their concatenation at once
                table.update({name: np.empty((len(hypotheses),) + column.shape[1:], dtype=column.dtype)
                              for name, column in part.items()})
            for name, column in part.items():
                table[name][start:start + len(column)] = column

    fill([0])   # the first chunk gives the table its columns
    # the others on two threads (numpy lets go of the interpreter lock in its loops), each writing rows of its own
    # chunks only: the same table whichever finishes first
    other = background.start(fill, range(2, len(starts), 2))
    fill(range(1, len(starts), 2))
    other.result()
    return {"bleu": {"bleu": Each(table["bleu"])}, "chrf": {"chrf": Each(table["chrf"])},
            "chrf_pp": {"chrf_pp": Each(table["chrf_pp"])},
            "rouge": {"segments": Ones(len(hypotheses)), "rouge": Each(table["rouge"])},
            "exact": {"segments": Ones(len(hypotheses)), "exact": Each(table["exact"])}}


def _chunk_columns(hypotheses, references, owner, options):
    lower = options["lowercase"]
    n = len(hypotheses)
    if not n:
        return {"bleu": np.zeros((0, len(bleu.STAT_COLUMNS)), dtype=np.int64),
                "chrf": np.zeros((0, len(CHRF_COLUMNS)), dtype=np.int64),
                "chrf_pp": np.zeros((0, len(CHRFPP_COLUMNS)), dtype=np.int64),
                "rouge": np.zeros((0, len(ROUGE_COLUMNS))), "exact": np.zeros(0, dtype=np.int64)}
    b = bleu.statistics(hypotheses, references, owner, tokenizer=options["bleu_tokenizer"], lowercase=lower)
    c, cpp = chrf.statistics_both(hypotheses, references, owner, lowercase=lower)
    r = rouge.statistics(hypotheses, references, owner, tokenizer=options["rouge_tokenizer"],
                         stem=options["rouge_stem"])
    # counts of one segment's n-grams: 32 bits hold them (a segment is far below 2^31 characters), half the memory
    # of the kept table; they are summed in 64 bits (_per_unit.Each)
    return {"bleu": np.stack([b[k] for k in bleu.STAT_COLUMNS], axis=1).astype(np.int32),
            "chrf": np.stack([c[k] for k in CHRF_COLUMNS], axis=1).astype(np.int32),
            "chrf_pp": np.stack([cpp[k] for k in CHRFPP_COLUMNS], axis=1).astype(np.int32),
            "rouge": np.stack([r[k] for k in ROUGE_COLUMNS], axis=1),
            "exact": text_norm.exact_matches(hypotheses, references, owner)}


def signatures(options, n_refs):
    """sacreBLEU's signature of BLEU, chrF and chrF++ (its field names and values), and ROUGE's settings.

    >>> signatures(OPTIONS_DEFAULT, np.array([1, 1]))[0]
    'BLEU nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp'
    """
    nrefs = str(int(n_refs[0])) if len(n_refs) and (n_refs == n_refs[0]).all() else "var"
    case = "lc" if options["lowercase"] else "mixed"
    return ["BLEU nrefs:%s|case:%s|eff:no|tok:%s|smooth:exp" % (nrefs, case, options["bleu_tokenizer"]),
            "chrF2 nrefs:%s|case:%s|eff:yes|nc:6|nw:0|space:no" % (nrefs, case),
            "chrF2++ nrefs:%s|case:%s|eff:yes|nc:6|nw:2|space:no" % (nrefs, case),
            "ROUGE nrefs:%s|tok:%s|stem:%s|multi:best-f|agg:mean" % (nrefs, options["rouge_tokenizer"],
                                                                     "yes" if options["rouge_stem"] else "no")]


def _segments_section(sub, q, exact, n_refs):
    present = sub.present[q]
    empty = present & np.array([not t.strip() for t in sub.texts[q]], dtype=bool)
    counts = [len(q), n_refs, int((~present).sum()), int(empty.sum()), int(exact.values().sum())]
    return report.Section(SEGMENTS_TITLE, [report.Table([WHAT, COUNT], [[label, c] for label, c
                                                                       in zip(SEGMENT_ROWS, counts)])])


def _rouge_section(scores):
    kinds = (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", "rougel"), ("ROUGE-Lsum", "rougelsum"))
    rows = [[name, scores[key + "_f"], scores[key + "_p"], scores[key + "_r"]] for name, key in kinds]
    chart = report.Bars(ROUGE_CHART, [r[0] for r in rows], [(report.SERIES_F1, [r[1] for r in rows]),
                                                            (report.SERIES_PRECISION, [r[2] for r in rows]),
                                                            (report.SERIES_RECALL, [r[3] for r in rows])],
                        top=100.0, digits=2)
    return report.Section(ROUGE_TITLE, [report.Table(list(ROUGE_HEADERS), rows, digits=2), chart])


def _bleu_section(stats):
    rows = []
    for order in range(1, bleu.MAX_ORDER + 1):
        m, t = int(stats["matches_%d" % order]), int(stats["totals_%d" % order])
        rows.append([order, m, t, 100.0 * m / t if t else 0.0])
    ratio = float(bleu.length_ratio(stats))
    bp = float(bleu.brevity_penalty(stats))
    note = BLEU_NOTE(hyp=int(stats["hyp_len"]), ref=int(stats["ref_len"]), ratio=ratio, bp=bp)
    chart = report.Bars(BLEU_CHART, [str(r[0]) for r in rows], [(BLEU_HEADERS[3], [r[3] for r in rows])], top=100.0,
                        digits=2)
    return report.Section(BLEU_TITLE, [report.Table(list(BLEU_HEADERS), rows, caption=note, digits=2), chart])


FAMILY = Generation()
