"""ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score 0.1.2 computes them, per segment.

Tokens (``TOKENIZERS``):

- ``default``: rouge-score's own: the text lower-cased (``str.lower``), every run of characters other than
  ``a-z0-9`` is a separator, and with ``stem`` each token longer than 3 characters is replaced by its Porter
  stem (``porter.py``, NLTK's variant, which rouge-score uses). Any other character, Chinese included, is lost.
- ``chinese``: our rule for texts in Chinese, which rouge-score cannot score (it drops every non-ASCII
  character): after lower-casing, each run of ``a-z0-9`` is a token as above (stemmed likewise when asked) and
  every other character that is a letter or a digit to Python (``str.isalnum``: Chinese characters, kana,
  hangul, accented and full-width letters and digits) is a token of its own; punctuation, symbols and spaces
  separate and are dropped. It is rouge-score's computation on those tokens (the tests run rouge-score with
  this tokenizer).

Per pair of texts (the hypothesis, one reference), with |X| the token count and X's n-grams counted with
multiplicity:

- ROUGE-N: overlap = sum_g min(count in hypothesis, count in reference); P = overlap / max(#hyp n-grams, 1),
  R = overlap / max(#ref n-grams, 1);
- ROUGE-L: LCS = the longest common subsequence of the two token sequences; P = LCS / |hyp|,
  R = LCS / |ref| (0 when either is empty);
- ROUGE-Lsum: texts split into sentences at newlines (empty lines dropped); for each reference sentence r,
  U(r) = the union of the positions of r in the common subsequence that rouge-score reads out of r against
  each hypothesis sentence; hits = sum over token types t of min(occurrences of t at those positions over all
  reference sentences, occurrences of t in the hypothesis); P = hits / |hyp|, R = hits / |ref|;

and F = 2PR / (P + R) (0 when P + R = 0). With several references, each measure takes the reference of
highest F (the first on a tie), as rouge-score's ``score_multi``.

Per segment the columns are ``<type>_precision``, ``<type>_recall``, ``<type>_fmeasure`` for each type
(``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum``); a corpus score is the mean of a column over segments.

Reference: Lin, "ROUGE: A Package for Automatic Evaluation of Summaries", ACL 2004 workshop; Google Research
rouge-score 0.1.2 (``rouge_scorer.py``, ``tokenize.py``).

>>> cols = statistics(["The cat sat on the mat."], [["the cat was on the mat"]], types=("rouge1", "rougeL"))
>>> [round(float(cols[k][0]), 6) for k in ("rouge1_precision", "rouge1_recall", "rougeL_fmeasure")]
[0.833333, 0.833333, 0.833333]
"""
import numpy as np

from . import lcs, porter
from .ngrams import (best_reference, check_references, flat_references, lookup, matches_per_reference, ngram_codes,
                     sorted_matches)
from .prf import prf
from .text_norm import recode, spans, to_texts, tokens_of

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
MEASURES = ("precision", "recall", "fmeasure")
_NEWLINE = 0x0A


def stat_columns(types=TYPES):
    return tuple("%s_%s" % (t, m) for t in types for m in MEASURES)


def _ascii_word(cp):
    return ((cp >= 0x61) & (cp <= 0x7A)) | ((cp >= 0x30) & (cp <= 0x39))


def _alnum_others(cp):
    """Non-ASCII code points that are letters or digits to Python (each distinct one asked once)."""
    out = np.zeros(len(cp), dtype=bool)
    wide = np.flatnonzero(cp >= 0x80)
    if len(wide):
        distinct, inverse = np.unique(cp[wide], return_inverse=True)
        alnum = np.array([chr(int(c)).isalnum() for c in distinct], dtype=bool)
        out[wide] = alnum[inverse]
    return out


def _default_spans(texts):
    return spans(texts, _ascii_word(texts.cp))


def _chinese_spans(texts):
    cp = texts.cp
    word = _ascii_word(cp)
    starts, ends = spans(texts, word)
    single = np.flatnonzero(_alnum_others(cp))
    all_starts = np.concatenate([starts, single])
    order = np.argsort(all_starts, kind="stable")
    return all_starts[order], np.concatenate([ends, single + 1])[order]


TOKENIZERS = {"default": _default_spans, "chinese": _chinese_spans}


def tokenize(strings, tokenizer="default", stem=False):
    """(Tokens, the line of each token within its text, the Texts): rouge-score's tokens of each string."""
    texts = to_texts([s.lower() for s in strings])
    starts, ends = TOKENIZERS[tokenizer](texts)
    tokens = tokens_of(texts, starts, ends)
    if stem:
        words = tokens.vocabulary()
        ascii_only = [w.isascii() for w in words]
        tokens = recode(tokens, [porter.stem(w) if a and len(w) > 3 else w for w, a in zip(words, ascii_only)])
    newline = np.cumsum(texts.cp == _NEWLINE)
    before_text = np.concatenate(([0], newline))[texts.offsets[:-1]]
    owner = np.repeat(np.arange(len(texts), dtype=np.int64), np.diff(tokens.offsets))
    line = (np.concatenate(([0], newline))[starts] - before_text[owner]) if len(starts) else owner
    return tokens, line


def statistics(hypotheses, references, reference_segment=None, types=TYPES, tokenizer="default", stem=False):
    """The per-segment columns of ``stat_columns(types)`` (float arrays), as the module describes."""
    hypotheses = list(hypotheses)
    n = len(hypotheses)
    ref_texts, ref_seg = flat_references(references, reference_segment)
    check_references(ref_seg, n)
    n_refs = len(ref_texts)
    tokens, line = tokenize(hypotheses + ref_texts, tokenizer, stem)
    lengths = tokens.lengths()
    out = {}
    orders = sorted({int(t[5:]) for t in types if t[5:].isdigit()})
    if orders:
        counts = sorted_matches(tokens.codes, tokens.offsets, ref_seg, max(orders))
        if counts is None:   # keys too wide for one sort: each order coded on its own
            counts = []
            for owner, gram in ngram_codes(tokens.codes, tokens.offsets, max(orders)):
                is_hyp = owner < n
                counts.append(matches_per_reference((owner[is_hyp], gram[is_hyp]), (owner[~is_hyp] - n, gram[~is_hyp]),
                                                    ref_seg, n_refs))
        for order in orders:
            overlap = counts[order - 1][0]
            hyp_total = np.maximum(lengths[:n][ref_seg] - order + 1, 0)
            ref_total = np.maximum(lengths[n:] - order + 1, 0)
            p, r, f = prf(overlap, np.maximum(hyp_total, 1), np.maximum(ref_total, 1))
            _keep_best(out, "rouge%d" % order, p, r, f, ref_seg, n)
    hits, common = summary_hits(tokens, line, ref_seg, n) if "rougeLsum" in types else (None, None)
    if "rougeL" in types:
        hyp_len, ref_len = lengths[ref_seg], lengths[n:]
        if common is None:
            common = lcs.subsequence_lengths(tokens.codes, tokens.offsets[n:-1], ref_len, tokens.offsets[ref_seg],
                                             hyp_len)
        both = (hyp_len > 0) & (ref_len > 0)
        p, r, f = prf(np.where(both, common, 0), np.where(both, hyp_len, 0), np.where(both, ref_len, 0))
        _keep_best(out, "rougeL", p, r, f, ref_seg, n)
    if "rougeLsum" in types:
        hyp_len, ref_len = lengths[ref_seg], lengths[n:]
        both = (hyp_len > 0) & (ref_len > 0)
        p, r, f = prf(np.where(both, hits, 0), np.where(both, hyp_len, 0), np.where(both, ref_len, 0))
        _keep_best(out, "rougeLsum", p, r, f, ref_seg, n)
    return {name: out[name] for name in stat_columns(types)}


def _keep_best(out, name, p, r, f, ref_seg, n):
    best = best_reference(f, ref_seg, n)
    out[name + "_precision"], out[name + "_recall"], out[name + "_fmeasure"] = p[best], r[best], f[best]


def summary_hits(tokens, line, ref_seg, n):
    """Per reference text: (ROUGE-Lsum's hits against the hypothesis of its segment (the module's rule), and the
    length of their longest common subsequence (ROUGE-L's) when every text is one sentence, else None: the
    tables of the sentences are then those of the texts)."""
    n_refs = len(ref_seg)
    counts = np.diff(tokens.offsets)
    owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    # sentences: (text, line) groups of consecutive tokens
    new = np.ones(len(owner), dtype=bool)
    new[1:] = (owner[1:] != owner[:-1]) | (line[1:] != line[:-1])
    sent_start = np.flatnonzero(new)
    sent_len = np.diff(np.concatenate([sent_start, [len(owner)]]))
    sent_text = owner[sent_start]
    hyp_sent = np.flatnonzero(sent_text < n)
    ref_sent = np.flatnonzero(sent_text >= n)
    # every (reference sentence, hypothesis sentence) pair of a segment
    ref_of_sent = sent_text[ref_sent] - n
    seg_of_ref_sent = ref_seg[ref_of_sent]
    hyp_by_seg = np.bincount(sent_text[hyp_sent], minlength=n)
    hyp_first = np.concatenate(([0], np.cumsum(hyp_by_seg)))[:-1]
    reps = hyp_by_seg[seg_of_ref_sent]
    pair_ref = np.repeat(ref_sent, reps)
    pair_hyp = hyp_sent[np.repeat(hyp_first[seg_of_ref_sent], reps)
                        + np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps)]
    if len(sent_start) == int((counts > 0).sum()):
        # one sentence per text that has tokens: the union is one LCS path, whose tokens the clipping below keeps
        # every one of (a path uses a position of each text at most once), so the hits are the LCS's length
        common = np.zeros(n_refs, dtype=np.int64)
        common[sent_text[pair_ref] - n] = lcs.subsequence_lengths(tokens.codes, sent_start[pair_ref],
                                                                 sent_len[pair_ref], sent_start[pair_hyp],
                                                                 sent_len[pair_hyp])
        return common, common
    pair, pos, pair_common = lcs.backtrack_positions(tokens.codes, sent_start[pair_ref], sent_len[pair_ref],
                                                     sent_start[pair_hyp], sent_len[pair_hyp])
    common = None
    # union over hypothesis sentences: distinct token positions of each reference
    taken = np.unique(sent_start[pair_ref[pair]] + pos)
    taken_ref = owner[taken] - n
    code = tokens.codes
    width = int(code.max()) + 1 if len(code) else 1
    # occurrences of each token type at the taken positions, per reference, against the hypothesis's count
    key_u = taken_ref * width + code[taken]
    u_key, u_count = np.unique(key_u, return_counts=True)
    hyp_tokens = np.flatnonzero(owner < n)
    h_key, h_count = np.unique(owner[hyp_tokens] * width + code[hyp_tokens], return_counts=True)
    u_ref = u_key // width
    c = lookup(h_key, h_count, ref_seg[u_ref] * width + u_key % width)
    return np.bincount(u_ref, weights=np.minimum(u_count, c), minlength=n_refs).astype(np.int64), common
