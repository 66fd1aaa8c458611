"""Corpus BLEU as sacreBLEU 2.x computes it, from per-segment counts.

Per segment (one hypothesis, one or more references; ``statistics``), the columns ``STAT_COLUMNS``:

- ``hyp_len``: tokens of the hypothesis;
- ``ref_len``: the reference length closest to ``hyp_len`` (on a tie, the shorter one), sacreBLEU's rule;
- ``matches_n`` (n = 1..4): the hypothesis's n-grams, each counted at most as often as it occurs in the one
  reference that holds it most often (clipping against several references);
- ``totals_n``: the hypothesis's n-grams.

Corpus BLEU (``bleu``) is a function of the column sums over segments, so a bootstrap that resamples segments
and sums their rows gets the score of each resample from the same formula (sacreBLEU's paired bootstrap does
the same): with c = sys_len, r = ref_len summed,

    BP = 1 if c >= r, exp(1 - r / c) if 0 < c < r, 0 if c = 0
    p_n = 100 m_n / t_n, or 100 / (2^k t_n) for the k-th order with m_n = 0 (exponential smoothing, "exp")
    BLEU = BP * exp(sum_n log p_n / 4)

and BLEU = 0 when no n-gram matches or some order has no n-gram at all (sacreBLEU's ``compute_bleu``). The
length ratio is c / r (0 when r = 0). Scores are on sacreBLEU's 0..100 scale.

Reference: Papineni et al., "BLEU: a method for automatic evaluation of machine translation", ACL 2002; Post,
"A Call for Clarity in Reporting BLEU Scores", WMT 2018 (sacreBLEU); smoothing method 3 of Chen and Cherry,
WMT 2014.

>>> stats = statistics(["the cat sat on the mat"], [["the cat sat on a mat"]])
>>> [int(stats[k][0]) for k in ("hyp_len", "ref_len", "matches_1", "matches_4", "totals_4")]
[6, 6, 5, 1, 3]
>>> round(float(bleu({k: v.sum() for k, v in stats.items()})), 6)   # 100 (5/6 * 3/5 * 2/4 * 1/3) ** (1/4)
53.728497
"""
import numpy as np

from .ngrams import check_references, clipped_matches, flat_references, ngram_codes, sorted_matches
from .text_norm import TOKENIZERS, tokenize

MAX_ORDER = 4
STAT_COLUMNS = (("hyp_len", "ref_len") + tuple("matches_%d" % n for n in range(1, MAX_ORDER + 1))
                + tuple("totals_%d" % n for n in range(1, MAX_ORDER + 1)))
_NO_LOG = -9999999999.0   # sacreBLEU's log of a zero precision (its my_log)


def statistics(hypotheses, references, reference_segment=None, tokenizer="13a", lowercase=False):
    """The per-segment columns of ``STAT_COLUMNS`` (int64 arrays), hypotheses and references tokenized by
    ``tokenizer`` (one of text_norm.TOKENIZERS) after lower-casing when ``lowercase``.

    ``references``: one sequence of texts per hypothesis, or a flat sequence with ``reference_segment`` (the
    hypothesis of each). Every hypothesis needs at least one reference (an empty text is a reference of length 0).
    """
    if tokenizer not in TOKENIZERS:
        raise ValueError("unknown tokenizer %r" % (tokenizer,))
    hypotheses = list(hypotheses)
    n = len(hypotheses)
    ref_texts, ref_seg = flat_references(references, reference_segment)
    check_references(ref_seg, n)
    tokens = tokenize(hypotheses + ref_texts, tokenizer, lowercase)
    lengths = tokens.lengths()
    hyp_len, ref_lens = lengths[:n], lengths[n:]
    out = {"hyp_len": hyp_len.astype(np.int64), "ref_len": closest_length(hyp_len, ref_lens, ref_seg)}
    counts = sorted_matches(tokens.codes, tokens.offsets, ref_seg, MAX_ORDER, clipped=True)
    if counts is None:   # keys too wide for one sort: each order coded on its own
        counts = []
        for owner, code in ngram_codes(tokens.codes, tokens.offsets, MAX_ORDER):
            is_hyp = owner < n
            counts.append((None, clipped_matches((owner[is_hyp], code[is_hyp]), (owner[~is_hyp] - n, code[~is_hyp]),
                                                 ref_seg, n)))
    for order, (_, clipped) in enumerate(counts, 1):
        out["matches_%d" % order] = clipped
        out["totals_%d" % order] = np.maximum(hyp_len - order + 1, 0).astype(np.int64)
    return {k: out[k] for k in STAT_COLUMNS}


def closest_length(hyp_len, ref_lens, ref_seg):
    """Per segment, the reference length closest to the hypothesis's, the shorter on a tie.

    >>> closest_length(np.array([5, 5]), np.array([3, 7, 4, 6]), np.array([0, 0, 1, 1])).tolist()
    [3, 4]
    """
    width = int(ref_lens.max()) + 1 if len(ref_lens) else 1
    key = np.abs(hyp_len[ref_seg] - ref_lens) * width + ref_lens
    best = np.full(len(hyp_len), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(best, ref_seg, key)
    return best % width


def bleu(sums, max_order=MAX_ORDER):
    """Corpus BLEU (0..100) from column sums (a mapping column -> array of any shape; the module's formula)."""
    sys_len = np.asarray(sums["hyp_len"], dtype=float)
    correct = [np.asarray(sums["matches_%d" % n], dtype=float) for n in range(1, max_order + 1)]
    total = [np.asarray(sums["totals_%d" % n], dtype=float) for n in range(1, max_order + 1)]
    bp = brevity_penalty(sums)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        smooth = np.ones_like(sys_len)
        log_sum = np.zeros_like(sys_len)
        some_missing = np.zeros(sys_len.shape, dtype=bool)
        for c, t in zip(correct, total):
            some_missing |= t == 0
            smooth = np.where(c == 0, smooth * 2, smooth)
            p = np.where(c == 0, 100.0 / (smooth * t), 100.0 * c / t)
            log_sum = log_sum + np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), _NO_LOG)
        score = bp * np.exp(log_sum / max_order)
    any_correct = sum(correct) > 0
    return np.where(any_correct & ~some_missing, score, 0.0)


def length_ratio(sums):
    """Hypothesis tokens over reference tokens (sacreBLEU's ``ratio``), 0 when there is no reference token."""
    sys_len = np.asarray(sums["hyp_len"], dtype=float)
    ref_len = np.asarray(sums["ref_len"], dtype=float)
    return np.divide(sys_len, ref_len, out=np.zeros(np.broadcast(sys_len, ref_len).shape), where=ref_len != 0)


def brevity_penalty(sums):
    """BLEU's brevity penalty over the summed lengths."""
    sys_len = np.asarray(sums["hyp_len"], dtype=float)
    ref_len = np.asarray(sums["ref_len"], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)
