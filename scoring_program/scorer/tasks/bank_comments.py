"""Bank comments: entities (BIO per character) + sentiment class (CCF BDCI 2021).

Submission: ``id,BIO_anno,class``, one space-separated tag per character of the
comment, class 0 (negative), 1 (positive) or 2 (neutral).

- S1 = micro F1 over entity mentions (document, start, end, type), decoded with
  the configured scheme (``iob2`` strict by default, or ``conlleval``);
- S2 = Cohen's kappa on class (see ``metrics.kappa`` for the degenerate cases);
- S = w * S1 + (1 - w) * S2 with w = 0.5.

Leaderboard keys: score, ner_f1, kappa, ner_precision, ner_recall, class_accuracy.
"""
from dataclasses import dataclass, field
from typing import List

import numpy as np
import pandas as pd

from .. import report
from ..config import Check, Option, number_in
from ..errors import ReferenceDataError, SubmissionError, clip, where
from ..metrics.kappa import confusion, kappa_from_confusion
from ..metrics.prf import prf
from ..metrics.entity_views import VIEWS, views
from ..metrics.spans import CONLLEVAL, SCHEMES, Spans, TagSet, decode, match, stray_inside
from ..tabular import (align_ids, read_public_table, read_reference_table, read_submission_table, reference_ids,
                       strip_cells)
from ..tagcodes import encode, split_tokens
from .base import Reference, Result, TaskFamily

CLASSES = ("0", "1", "2")
CLASS_NAMES = ("0 negative", "1 positive", "2 neutral")
CLASS_ALIASES = {"0": 0, "1": 1, "2": 2, "0.0": 0, "1.0": 1, "2.0": 2}
TYPES = ("BANK", "PRODUCT", "COMMENTS_N", "COMMENTS_ADJ")
COLUMNS = ("id", "BIO_anno", "class")


def _type_list(value):
    return (isinstance(value, list) and len(value) > 0 and len(set(value)) == len(value)
            and all(isinstance(v, str) and v and v.replace("_", "").isalnum() for v in value))


@dataclass
class BankReference(Reference):
    tagset: TagSet = None
    codes: np.ndarray = None      # tag codes of every document, in reference order
    lengths: np.ndarray = None    # characters (tags) per document
    classes: np.ndarray = None    # class code per document


@dataclass
class BankSubmission:
    codes: np.ndarray
    classes: np.ndarray
    warnings: List[str] = field(default_factory=list)


class BankComments(TaskFamily):
    name = "bank_comments"
    title = "Bank comments: entities + sentiment"
    default_files = {"gold": "gold.csv", "submission": "*.csv"}
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
        frame = read_reference_table(cfg, "gold", needed)
        ids = reference_ids(frame, name)
        bad_class = ~strip_cells(frame["class"]).isin(CLASS_ALIASES)
        if bad_class.any():
            i = int(np.flatnonzero(bad_class)[0])
            raise ReferenceDataError("%s: class %r is not 0, 1 or 2." % (where(name, i + 2, unit=ids[i]),
                                                                         frame["class"][i]))
        tagset = TagSet(tuple(cfg.options["entity_types"]))
        enc = encode(frame["BIO_anno"].tolist(), tagset.tags)
        if (enc.codes < 0).any():
            row, pos = enc.locate(int(np.flatnonzero(enc.codes < 0)[0]))
            raise ReferenceDataError("%s: tag %d is not one of %s." % (where(name, row + 2, unit=ids[row], column="BIO_anno"),
                                                                      pos + 1, " ".join(tagset.tags)))
        if "text" in frame.columns:
            text_len = frame["text"].str.len().to_numpy()
            wrong = np.flatnonzero(text_len != enc.counts)
            if len(wrong):
                i = int(wrong[0])
                raise ReferenceDataError("%s: %d tags for a text of %d characters."
                                         % (where(name, i + 2, unit=ids[i], column="BIO_anno"), enc.counts[i], text_len[i]))
        codes = enc.codes
        classes = strip_cells(frame["class"]).map(CLASS_ALIASES).to_numpy(dtype=np.int64)
        units = ids.to_numpy(dtype=object)
        notes = _ill_formed_notes(codes, enc.counts, units, tagset, cfg.options["scheme"], name)
        usage = frame[cfg.usage_column].to_numpy(dtype=object) if cfg.usage_column else None
        return BankReference(units=units, strata=classes.astype(str), usage=usage, notes=notes,
                             tagset=tagset, codes=codes, lengths=enc.counts, classes=classes)

    # -- submission --------------------------------------------------------------------------
    def load_submission(self, files, ref, cfg):
        file = files["submission"]
        frame, line = read_submission_table(file, COLUMNS)
        ids = strip_cells(frame["id"])
        empty = np.flatnonzero((ids == "").to_numpy())
        if len(empty):
            raise SubmissionError("%s is empty; every row needs the id of a test comment."
                                  % where(file.name, int(line[empty[0]]), column="id"))
        position = align_ids(ids, line, ref.units, file.name)
        if not np.array_equal(position, np.arange(len(position))):  # rows in another order than the gold
            frame, line, ids = frame.iloc[position].reset_index(drop=True), line[position], ids.iloc[position]
        ids = ids.to_numpy()

        cls = strip_cells(frame["class"])
        bad = np.flatnonzero(~cls.isin(CLASS_ALIASES).to_numpy())
        if len(bad):
            i = int(bad[np.argmin(line[bad])])
            raise SubmissionError("%s: %r is not a class; use 0 (negative), 1 (positive) or 2 (neutral)."
                                  % (where(file.name, int(line[i]), unit=ids[i], column="class"), clip(cls[i])))

        enc = encode(frame["BIO_anno"].tolist(), ref.tagset.tags)
        unknown = np.flatnonzero(enc.codes < 0)
        if len(unknown):
            row, pos = enc.locate(int(unknown[0]))
            token = split_tokens(frame["BIO_anno"][row])[pos]
            raise SubmissionError("%s: tag %d is %r, which is not a tag; use only %s."
                                  % (where(file.name, int(line[row]), unit=ids[row], column="BIO_anno"),
                                     pos + 1, clip(token), ", ".join(ref.tagset.tags)))
        wrong = np.flatnonzero(enc.counts != ref.lengths)
        if len(wrong):
            i = int(wrong[np.argmin(line[wrong])])
            raise SubmissionError("%s: %d tags for a comment of %d characters; give exactly one tag per "
                                  "character, separated by spaces."
                                  % (where(file.name, int(line[i]), unit=ids[i], column="BIO_anno"),
                                     enc.counts[i], ref.lengths[i]))
        return BankSubmission(codes=enc.codes, classes=cls.map(CLASS_ALIASES).to_numpy(dtype=np.int64))

    # -- offline format check (starting kit) --------------------------------------------------
    def public_reference(self, folder, cfg):
        """Units and text lengths from the public ``test_public.csv`` (id,text): no labels."""
        return _public_reference(folder, cfg)

    def submission_problems(self, files, ref, cfg):
        """Every problem of the submission, one line each, in file-line order."""
        return _all_problems(files["submission"], ref, cfg)

    # -- score -------------------------------------------------------------------------------
    def score(self, ref, sub, units, cfg):
        scheme = SCHEMES[cfg.options["scheme"]]
        doc_mask = pd.Index(ref.units).isin(pd.Index(units))
        lengths = ref.lengths[doc_mask]
        token_mask = np.repeat(doc_mask, ref.lengths)
        gold_codes, pred_codes = ref.codes[token_mask], sub.codes[token_mask]
        doc_start = np.zeros(len(gold_codes), dtype=bool)
        doc_start[(np.cumsum(lengths) - lengths)[lengths > 0]] = True

        gold = decode(gold_codes, doc_start, scheme)
        pred = decode(pred_codes, doc_start, scheme)
        gold_hit, pred_hit = match(gold, pred)
        n_types = len(ref.tagset.types)
        tp_t = np.bincount(pred.type[pred_hit], minlength=n_types)
        pred_t = np.bincount(pred.type, minlength=n_types)
        gold_t = np.bincount(gold.type, minlength=n_types)
        p, r, f1 = prf(tp_t.sum(), pred_t.sum(), gold_t.sum())

        matrix = confusion(ref.classes[doc_mask], sub.classes[doc_mask], len(CLASSES))
        kappa = kappa_from_confusion(matrix)
        accuracy = float(np.trace(matrix) / matrix.sum()) if matrix.sum() else 0.0
        w = float(cfg.options["ner_weight"])
        scores = {"score": w * f1 + (1.0 - w) * kappa, "ner_f1": f1, "kappa": kappa,
                  "ner_precision": p, "ner_recall": r, "class_accuracy": accuracy}

        stray = len(stray_inside(pred_codes, doc_start))
        decodings = [(scheme, gold, pred)]
        if scheme is not CONLLEVAL:  # nervaluate reads tag lists conlleval-style: show its numbers too
            decodings.append((CONLLEVAL, decode(gold_codes, doc_start, CONLLEVAL),
                              decode(pred_codes, doc_start, CONLLEVAL)))
        sections = [
            _entity_section(ref.tagset.types, tp_t, pred_t, gold_t),
            _error_section(gold, pred, gold_hit, pred_hit, stray, scheme),
            _views_section(decodings, scheme),
            _class_section(matrix, kappa, accuracy),
        ]
        summary = "%d comments, %d characters; entities decoded as %s." % (
            int(doc_mask.sum()), int(lengths.sum()), scheme.description)
        return Result(scores, sections, summary)


def _ill_formed_notes(codes, lengths, units, tagset, scheme_name, name):
    doc_start = np.zeros(len(codes), dtype=bool)
    doc_start[(np.cumsum(lengths) - lengths)[lengths > 0]] = True
    stray = stray_inside(codes, doc_start)
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


def _entity_section(types, tp, n_pred, n_gold):
    rows = []
    for k, name in enumerate(types):
        p, r, f = prf(tp[k], n_pred[k], n_gold[k])
        rows.append([name, int(n_gold[k]), int(n_pred[k]), int(tp[k]), p, r, f])
    p, r, f = prf(tp.sum(), n_pred.sum(), n_gold.sum())
    rows.append(["all (micro)", int(n_gold.sum()), int(n_pred.sum()), int(tp.sum()), p, r, f])
    return report.Section("Entities (S1)", [report.Table(
        ["type", "gold", "predicted", "correct", "precision", "recall", "F1"], rows)])


def _first_overlap(spans: Spans, others: Spans):
    """Index in ``others`` of a span overlapping each span of ``spans`` (-1 if none); ``others`` sorted, disjoint."""
    if not len(others):
        return np.full(len(spans), -1)
    k = np.searchsorted(others.end, spans.start, side="right")
    inside = k < len(others)
    k_safe = np.minimum(k, len(others) - 1)
    hit = inside & (others.start[k_safe] < spans.end)
    return np.where(hit, k_safe, -1)


def _error_section(gold, pred, gold_hit, pred_hit, stray, scheme):
    wrong = ~pred_hit
    j = _first_overlap(Spans(pred.start[wrong], pred.end[wrong], pred.type[wrong]), gold)
    has = j >= 0
    js = np.where(has, j, 0)
    same_span = has & (gold.start[js] == pred.start[wrong]) & (gold.end[js] == pred.end[wrong])
    same_type = has & (gold.type[js] == pred.type[wrong])
    missed = (_first_overlap(gold, pred) < 0).sum() if len(gold) else 0
    rows = [
        ["correct (same span, same type)", int(pred_hit.sum())],
        ["right span, wrong type", int((same_span & ~same_type).sum())],
        ["right type, wrong boundaries", int((same_type & ~same_span).sum())],
        ["wrong type and boundaries (overlaps a gold entity)", int((has & ~same_span & ~same_type).sum())],
        ["spurious (overlaps no gold entity)", int((~has).sum())],
        ["missed gold entities (no predicted entity overlaps them)", int(missed)],
        ["I- tags that continue no entity (ill-formed under IOB2)", int(stray)],
    ]
    note = ("Scheme %s: %s." % (scheme.name, scheme.description))
    return report.Section("Where entity points are lost", [report.Table(["what", "count"], rows), report.Text(note, "note")])


VIEW_NAMES = {"strict": "strict (boundaries and type)", "exact": "exact boundaries (any type)",
              "partial": "partial overlap (half credit)", "type": "type (any overlap, same type)"}


def _decoding_name(scheme, scored):
    if scheme is not CONLLEVAL:
        return "strict IOB2 (as scored)"
    return "conlleval (as scored; as nervaluate reads tags)" if scheme is scored else \
        "conlleval (as nervaluate reads tags)"


def _views_section(decodings, scored):
    rows = []
    for scheme, gold, pred in decodings:
        found = views(gold, pred)
        name = _decoding_name(scheme, scored)
        for view in VIEWS:
            c = found[view]
            rows.append([VIEW_NAMES[view], name, c.correct, c.incorrect, c.partial, c.missed, c.spurious]
                        + list(c.prf()))
    note = ("The views of the nervaluate package (1.2): each predicted entity is correct, incorrect, partial or "
            "spurious, each gold entity left over is missed; a prediction takes at most one gold entity sharing "
            "at least 1 %% of its tokens. Strict: same boundaries and type (its precision and recall are those of "
            "the scored entities under the same decoding). Exact: same boundaries, any type. Partial: the exact "
            "matching, overlaps counted half. Type: an overlap of the same type is correct, of another type "
            "incorrect. nervaluate decodes tag lists conlleval-style (an I- tag that continues nothing starts an "
            "entity), so its own numbers are the conlleval rows; the scored decoding here is %s."
            % scored.description)
    return report.Section("Partial-match views (nervaluate)", [report.Table(
        ["view", "decoding", "correct", "incorrect", "partial", "missed", "spurious", "precision", "recall",
         "F1"], rows), report.Text(note, "note")])


def _class_section(matrix, kappa, accuracy):
    rows = [[CLASS_NAMES[i]] + [int(v) for v in matrix[i]] + [int(matrix[i].sum())] for i in range(len(CLASSES))]
    rows.append(["predicted total"] + [int(v) for v in matrix.sum(axis=0)] + [int(matrix.sum())])
    return report.Section("Sentiment class (S2)", [
        report.Table(["gold \\ predicted"] + list(CLASS_NAMES) + ["gold total"], rows,
                     caption="Cohen's kappa %.4f, accuracy %.4f" % (kappa, accuracy)),
    ])


PUBLIC_INPUTS = "test_public.csv"


def _public_reference(folder, cfg):
    frame = read_public_table(folder, PUBLIC_INPUTS, ["id", "text"])
    if frame is None:
        return None
    units = frame["id"].str.strip().to_numpy(dtype=object)
    return BankReference(units=units, strata=np.zeros(len(units)).astype(str),
                         tagset=TagSet(tuple(cfg.options["entity_types"])),
                         lengths=frame["text"].str.len().to_numpy(dtype=np.int64))


def _all_problems(file, ref, cfg):
    """Every row-level problem at once (vectorised); file-level ones stop at the first."""
    from .. import i18n

    lang = cfg.language
    try:
        frame, line = read_submission_table(file, COLUMNS)
    except SubmissionError as exc:
        return [exc.message]
    ids = strip_cells(frame["id"])
    found = []  # (line, order, message)

    def at(i, column):
        return i18n.where(lang, file.name, int(line[i]), column=column, unit=ids[i] or None)

    empty = (ids == "").to_numpy()
    for i in np.flatnonzero(empty):
        found.append((line[i], 0, i18n.text("empty_id", lang, where=at(i, "id"))))
    dup = ids.duplicated().to_numpy() & ~empty
    first_line = pd.Series(line).groupby(ids.to_numpy()).transform("min").to_numpy()
    for i in np.flatnonzero(dup):
        found.append((line[i], 1, i18n.text("duplicate_id", lang, where=at(i, "id"), id=ids[i], first=first_line[i])))
    reference = pd.Index(ref.units)
    position = reference.get_indexer(ids)
    for i in np.flatnonzero((position < 0) & ~empty):
        found.append((line[i], 2, i18n.text("unknown_id", lang, where=at(i, "id"), id=repr(clip(ids[i])))))

    cls = strip_cells(frame["class"])
    for i in np.flatnonzero(~cls.isin(CLASS_ALIASES).to_numpy()):
        found.append((line[i], 3, i18n.text("bad_class", lang, where=at(i, "class"), value=repr(clip(cls[i])))))

    enc = encode(frame["BIO_anno"].tolist(), ref.tagset.tags)
    bad_token = np.flatnonzero(enc.codes < 0)
    if len(bad_token):
        ends = np.cumsum(enc.counts)
        row_of = np.searchsorted(ends, bad_token, side="right")
        rows, first, count = np.unique(row_of, return_index=True, return_counts=True)
        for row, k, n in zip(rows, first, count):  # one message per row, naming its first bad tag
            pos = int(bad_token[k] - (ends[row] - enc.counts[row]))
            token = split_tokens(frame["BIO_anno"][row])[pos]
            found.append((line[row], 4, i18n.text("bad_tag", lang, where=at(row, "BIO_anno"), pos=pos + 1,
                                                  token=repr(clip(token)), count=int(n),
                                                  tags=", ".join(ref.tagset.tags))))
    known = position >= 0
    expected = np.where(known, ref.lengths[np.maximum(position, 0)], enc.counts)
    for i in np.flatnonzero(known & (enc.counts != expected)):
        found.append((line[i], 5, i18n.text("tag_count", lang, where=at(i, "BIO_anno"), given=int(enc.counts[i]),
                                            length=int(expected[i]))))

    missing = reference[~reference.isin(pd.Index(ids))]
    found.sort(key=lambda item: (item[0], item[1]))
    problems = [message for _, _, message in found]
    if len(missing):
        shown = ", ".join(str(m) for m in missing[:20]) + (", ..." if len(missing) > 20 else "")
        problems.append(i18n.text("missing_ids", lang, file=file.name, n=len(missing), shown=shown))
    return problems


FAMILY = BankComments()
