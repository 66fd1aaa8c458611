"""chrF and chrF++ as sacreBLEU 2.x computes them, from per-segment counts.

Character n-grams (orders 1..6) are taken over a text with its whitespace removed; chrF++ adds word n-grams
(orders 1..2) over its words, where a word of two characters or more that ends with an ASCII punctuation mark
is cut before it, else one that begins with one is cut after it (sacreBLEU's ``_remove_punctuation``).

Per segment, for each order (``stat_columns``): ``<kind>_hyp_<n>``, ``<kind>_ref_<n>``, ``<kind>_match_<n>``
(kind ``char`` or ``word``): the hypothesis's n-grams (0 when the reference has none of that order), the
reference's, and the matches sum_g min(count in hypothesis, count in reference); with several references, the
counts of the one whose own chrF is highest (the first on a tie), as sacreBLEU keeps them.

Corpus chrF (``chrf``) is a function of the column sums: with P_n = match_n / hyp_n and R_n = match_n / ref_n
over the orders where both hyp_n and ref_n are positive (k of them),

    P = sum P_n / k, R = sum R_n / k, chrF = 100 (1 + b^2) P R / (b^2 P + R), b = 2

and 0 when k = 0 or P + R = 0 (sacreBLEU's default, without eps smoothing). Scores are on the 0..100 scale.

Reference: Popović, "chrF: character n-gram F-score for automatic MT evaluation", WMT 2015; "chrF++: words
helping character n-grams", WMT 2017; sacreBLEU 2.x ``metrics/chrf.py``.

>>> stats = statistics(["ab c"], [["abc"]], char_order=2)
>>> [int(stats[k][0]) for k in ("char_hyp_1", "char_ref_1", "char_match_1", "char_hyp_2", "char_match_2")]
[3, 3, 3, 2, 2]
>>> float(chrf({k: v.sum() for k, v in stats.items()}, char_order=2))   # every n-gram of every order matches
100.0
"""
import numpy as np

from .ngrams import (best_reference, check_references, flat_references, matches_per_reference, ngram_codes,
                     sorted_matches)
from .text_norm import is_space, spans, to_texts, code_spans, token_offsets

CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2
CHRF_PLUS_PLUS_WORD_ORDER = 2
PUNCTUATION = frozenset(ord(c) for c in '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
_PUNCT_TABLE = np.zeros(128, dtype=bool)
_PUNCT_TABLE[list(PUNCTUATION)] = True


def stat_columns(char_order=CHAR_ORDER, word_order=WORD_ORDER):
    """The column names, in sacreBLEU's order: each character order, then each word order."""
    kinds = [("char", n) for n in range(1, char_order + 1)] + [("word", n) for n in range(1, word_order + 1)]
    return tuple("%s_%s_%d" % (kind, what, n) for kind, n in kinds for what in ("hyp", "ref", "match"))


def statistics(hypotheses, references, reference_segment=None, char_order=CHAR_ORDER, word_order=WORD_ORDER,
               beta=BETA, lowercase=False, whitespace=False):
    """The per-segment columns of ``stat_columns`` (int64 arrays). ``whitespace``: keep whitespace in the
    character n-grams (sacreBLEU's ``whitespace=True``); ``references`` as in ``ngrams.flat_references``."""
    table, ref_seg, n = _per_reference(hypotheses, references, reference_segment, char_order, word_order, lowercase,
                                       whitespace)
    return _best(table, ref_seg, n, char_order, word_order, beta)


def statistics_both(hypotheses, references, reference_segment=None, lowercase=False):
    """(chrF's columns, chrF++'s columns) with sacreBLEU's defaults, the character n-grams counted once: what
    ``statistics`` gives with word orders 0 and 2 (each keeps the counts of its own best reference)."""
    plus = CHRF_PLUS_PLUS_WORD_ORDER
    table, ref_seg, n = _per_reference(hypotheses, references, reference_segment, CHAR_ORDER, plus, lowercase, False)
    return _best(table, ref_seg, n, CHAR_ORDER, 0, BETA), _best(table, ref_seg, n, CHAR_ORDER, plus, BETA)


def _best(table, ref_seg, n, char_order, word_order, beta):
    names = stat_columns(char_order, word_order)
    best = best_reference(chrf(table, char_order, word_order, beta), ref_seg, n)
    return {name: table[name][best] for name in names}


def _per_reference(hypotheses, references, reference_segment, char_order, word_order, lowercase, whitespace):
    """({column: its value per reference text}, the segment of each reference, the number of segments)."""
    hypotheses = list(hypotheses)
    n = len(hypotheses)
    ref_texts, ref_seg = flat_references(references, reference_segment)
    check_references(ref_seg, n)
    strings = hypotheses + ref_texts
    if lowercase:
        strings = [s.lower() for s in strings]
    texts = to_texts(strings)
    per_ref = []   # per reference text: (hyp, ref, match) per order
    keep = np.ones(len(texts.cp), dtype=bool) if whitespace else ~is_space(texts.cp)
    chars = np.flatnonzero(keep)
    orders = [(texts.cp[chars], token_offsets(texts, chars), char_order)]
    if word_order:
        starts, ends = _words(texts)
        word_codes, _ = code_spans(texts.cp, starts, ends)
        orders.append((word_codes, token_offsets(texts, starts), word_order))
    for codes, offsets, max_order in orders:
        per_ref.extend(_order_counts(codes, offsets, ref_seg, n, max_order))
    names = stat_columns(char_order, word_order)
    return {name: per_ref[k // 3][k % 3] for k, name in enumerate(names)}, ref_seg, n


def _order_counts(codes, offsets, ref_seg, n, max_order):
    """Per order 1..max_order: (hypothesis n-grams where the reference has some, reference n-grams, matches), per
    reference text; all orders from one sort when the keys hold them (``ngrams.sorted_matches``)."""
    lengths = np.diff(offsets)
    hyp_len, ref_len = lengths[:n][ref_seg], lengths[n:]
    sorted_counts = sorted_matches(codes, offsets, ref_seg, max_order)
    if sorted_counts is None:
        sorted_counts = []
        for owner, gram in ngram_codes(codes, offsets, max_order):
            is_hyp = owner < n
            match, _ = matches_per_reference((owner[is_hyp], gram[is_hyp]), (owner[~is_hyp] - n, gram[~is_hyp]),
                                             ref_seg, len(ref_seg))
            sorted_counts.append((match, None))
    out = []
    for order, (match, _) in enumerate(sorted_counts, 1):
        ref_total = np.maximum(ref_len - order + 1, 0).astype(np.int64)
        hyp_total = np.maximum(hyp_len - order + 1, 0).astype(np.int64)
        out.append((np.where(ref_total > 0, hyp_total, 0), ref_total, match))
    return out


def _words(texts):
    """Word spans for chrF++: whitespace-separated words, a leading or trailing ASCII punctuation mark cut off."""
    starts, ends = spans(texts, ~is_space(texts.cp))
    long = ends - starts >= 2
    last, first = texts.cp[np.maximum(ends - 1, 0)], texts.cp[starts] if len(starts) else starts
    ends_punct = long & (last < 128) & _PUNCT_TABLE[np.where(last < 128, last, 0)]
    begins_punct = long & ~ends_punct & (first < 128) & _PUNCT_TABLE[np.where(first < 128, first, 0)]
    cut = np.where(ends_punct, ends - 1, np.where(begins_punct, starts + 1, -1))
    split = cut >= 0
    new_starts = np.concatenate([starts, cut[split]])
    new_ends = np.concatenate([np.where(split, cut, ends), ends[split]])
    order = np.argsort(new_starts, kind="stable")
    return new_starts[order], new_ends[order]


def chrf(sums, char_order=CHAR_ORDER, word_order=WORD_ORDER, beta=BETA):
    """chrF (0..100) from column sums (a mapping column -> array of any shape; the module's formula)."""
    factor = beta ** 2
    kinds = [("char", k) for k in range(1, char_order + 1)] + [("word", k) for k in range(1, word_order + 1)]
    first = np.asarray(sums["%s_hyp_%d" % kinds[0]], dtype=float)
    avg_prec, avg_rec = np.zeros_like(first), np.zeros_like(first)
    effective = np.zeros_like(first)
    for kind, k in kinds:
        n_hyp = np.asarray(sums["%s_hyp_%d" % (kind, k)], dtype=float)
        n_ref = np.asarray(sums["%s_ref_%d" % (kind, k)], dtype=float)
        n_match = np.asarray(sums["%s_match_%d" % (kind, k)], dtype=float)
        both = (n_hyp > 0) & (n_ref > 0)
        avg_prec = avg_prec + np.where(both, n_match / np.where(both, n_hyp, 1.0), 0.0)
        avg_rec = avg_rec + np.where(both, n_match / np.where(both, n_ref, 1.0), 0.0)
        effective = effective + both
    some = effective > 0
    avg_prec = np.where(some, avg_prec / np.where(some, effective, 1.0), 0.0)
    avg_rec = np.where(some, avg_rec / np.where(some, effective, 1.0), 0.0)
    positive = (avg_prec + avg_rec) != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (1 + factor) * avg_prec * avg_rec
        score = score / ((factor * avg_prec) + avg_rec)
    return np.where(positive, 100 * score, 0.0)
