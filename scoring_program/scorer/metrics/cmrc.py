"""Exact match and F1 of Chinese extractive answers, as the official CMRC 2018 evaluation script computes them.

Both sides are lower-cased and stripped, then the punctuation marks of ``PUNCTUATION`` (Chinese and English,
the script's list) are removed. EM: the two strings are equal. F1: the text is cut into tokens, every Chinese
character (U+4E00..U+9FA5) one token and every run of other characters between them cut by NLTK's word
tokenizer (``word_tokens``); with L the length of the longest common *substring* (contiguous run of tokens)
of prediction and gold, P = L / |prediction|, R = L / |gold|, F1 = 2PR / (P + R), 0 when L = 0. A question
takes its best gold answer for each measure; EM and F1 of the set are 100 times their means over every
question (a question with no prediction scores 0), and the script's AVERAGE is their mean.

``word_tokens`` is NLTK 3.4.5's ``word_tokenize`` on one sentence (its improved Treebank rules,
``WORD_RULES``), with the script's Python 2 reading of ``\\d``, ``\\s``, ``\\S`` and ``\\b`` as ASCII classes.
Deliberate differences from the script (documented, rare in Chinese answers): the script first splits each run
into sentences with NLTK's English Punkt model, which is not available here; a run is one sentence here, so a
run holding an English sentence end (``.``, ``?`` or ``!`` then a space and more words) may be cut otherwise;
the script runs on Python 2, whose ``lower`` and ``strip`` differ from Python 3's on a few characters.

Per question (``question_columns``): ``exact`` (1/0), ``f1`` (0..1), ``predicted`` (1/0).

Reference: Cui et al., "A Span-Extraction Dataset for Chinese Machine Reading Comprehension", EMNLP-IJCNLP
2019; ymcui/cmrc2018 ``squad-style-data/cmrc2018_evaluate.py``.

>>> cols = question_columns(["北京大学", "约1,000人"], ["北京大学。", "1,000人"], [0, 1])
>>> cols["exact"].tolist(), [round(v, 4) for v in cols["f1"].tolist()]
([1, 0], [1.0, 0.8])
"""
import re

import numpy as np

from .lcs import substring_lengths
from .prf import prf
from .text_norm import Texts, code_spans, codepoints, in_ranges, is_space, joined_apart, separator_positions, \
    to_texts

# the script's sp_char; its "……" is two characters and so never equals one character: it removes nothing
PUNCTUATION = ("-", ":", "_", "*", "^", "/", "\\", "~", "`", "+", "=", "，", "。", "：", "？", "！", "“", "”",
               "；", "’", "《", "》", "……", "·", "、", "「", "」", "（", "）", "－", "～", "『", "』")
# the marks removed, as a table by code point (its last entry, False, stands for every code point above)
_REMOVED = np.zeros(max(ord(c) for c in PUNCTUATION if len(c) == 1) + 2, dtype=bool)
_REMOVED[[ord(c) for c in PUNCTUATION if len(c) == 1]] = True
CHINESE = ((0x4E00, 0x9FA5),)
_A = re.ASCII
# NLTK 3.4.5 word_tokenize on one sentence: (pattern, replacement) in order; None marks where the text is padded
# with a space at each end
WORD_RULES = (
    (re.compile("([«“‘„]|[`]+)"), r" \1 "),
    (re.compile(r'^\"', _A), r"``"),
    (re.compile(r"(``)", _A), r" \1 "),
    (re.compile(r"([ \(\[{<])(\"|\'{2})", _A), r"\1 `` "),
    (re.compile(r"(?i)(\')(?!re|ve|ll|m|t|s|d)(\w)\b"), r"\1 \2"),
    (re.compile("([^\\.])(\\.)([\\]\\)}>\"\\'»”’ ]*)\\s*$"), r"\1 \2 \3 "),
    (re.compile(r"([:,])([^\d])", _A), r" \1 \2"),
    (re.compile(r"([:,])$", _A), r" \1 "),
    (re.compile(r"\.\.\.", _A), r" ... "),
    (re.compile(r"[;@#$%&]", _A), r" \g<0> "),
    (re.compile(r'([^\.])(\.)([\]\)}>"\']*)\s*$', _A), r"\1 \2\3 "),
    (re.compile(r"[?!]", _A), r" \g<0> "),
    (re.compile(r"([^'])' ", _A), r"\1 ' "),
    (re.compile(r"[\]\[\(\)\{\}\<\>]", _A), r" \g<0> "),
    (re.compile(r"--", _A), r" -- "),
    None,
    (re.compile("([»”’])"), r" \1 "),
    (re.compile(r'"', _A), " '' "),
    (re.compile(r"(\S)(\'\')", _A), r"\1 \2 "),
    (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') ", _A), r"\1 \2 "),
    (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", _A), r"\1 \2 "),
) + tuple((re.compile(p, _A), r" \1 \2 ") for p in (
    r"(?i)\b(can)(?#X)(not)\b", r"(?i)\b(d)(?#X)('ye)\b", r"(?i)\b(gim)(?#X)(me)\b", r"(?i)\b(gon)(?#X)(na)\b",
    r"(?i)\b(got)(?#X)(ta)\b", r"(?i)\b(lem)(?#X)(me)\b", r"(?i)\b(mor)(?#X)('n)\b", r"(?i)\b(wan)(?#X)(na)\s",
    r"(?i) ('t)(?#X)(is)\b", r"(?i) ('t)(?#X)(was)\b"))


def word_tokens(text):
    """NLTK 3.4.5's word tokens of one sentence (``WORD_RULES``).

    >>> word_tokens('he said "no", (see p. 3) cannot.')
    ['he', 'said', '``', 'no', "''", ',', '(', 'see', 'p.', '3', ')', 'can', 'not', '.']
    """
    for rule in WORD_RULES:
        if rule is None:
            text = " " + text + " "
        else:
            text = rule[0].sub(rule[1], text)
    return text.split()


def _cleaned(strings):
    """Texts lower-cased, stripped, the punctuation marks removed.

    The strings are lower-cased joined by a separator none of them holds (neither cased nor case-ignorable: each
    text's final sigma is read as at its end), then each text's whitespace at either end and the marks dropped
    from the code points; where every separator is taken, text by text.

    >>> texts = _cleaned(["  ΑΣ 北京。 ", "", "\u3000a - b"])
    >>> [texts.text(i) for i in range(len(texts))]
    ['ας 北京', '', 'a  b']
    """
    text, sep = joined_apart(strings)
    if sep is None:
        texts = to_texts([s.lower().strip() for s in strings])
        cp, starts = texts.cp, texts.offsets[:-1]
        keep = np.ones(len(cp), dtype=bool)
    else:
        cp = np.frombuffer(text.lower().encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        del text
        at, starts = separator_positions(cp, sep, len(strings))
        ends = np.append(at, len(cp)).astype(np.int64)
        solid = np.flatnonzero(~is_space(cp))   # the separators are no space: a text's own are found below it
        lo = np.searchsorted(solid, starts)   # the text's first character that is no space, if any
        hi = np.searchsorted(solid, ends) - 1   # its last
        some = np.flatnonzero(lo <= hi)
        inside = np.zeros(len(cp) + 1, dtype=np.int8)   # +1 where a text's kept part begins, -1 after it ends
        inside[solid[lo[some]]] = 1   # (a separator lies between one text's end and the next one's beginning)
        inside[solid[hi[some]] + 1] = -1
        keep = np.cumsum(inside[:-1], dtype=np.int8) > 0
        keep[at] = False
    keep &= ~_REMOVED[np.minimum(cp, len(_REMOVED) - 1)]
    if not len(strings):
        offsets = np.zeros(1, dtype=np.int64)
    elif not len(keep):
        offsets = np.zeros(len(strings) + 1, dtype=np.int64)
    else:
        kept = np.cumsum(keep)   # kept code points up to each one
        offsets = np.append(np.where(starts > 0, kept[np.maximum(starts - 1, 0)], 0), kept[-1]).astype(np.int64)
        del kept
    return Texts(cp[keep], offsets)


def segment(texts):
    """(token codes, offsets per text) of the script's ``mixed_segmentation`` of cleaned texts."""
    cp = texts.cp
    n_cp = len(cp)
    chinese = in_ranges(cp, CHINESE)
    first = np.zeros(n_cp + 1, dtype=bool)
    first[texts.offsets] = True
    other = ~chinese
    run_start = other.copy()
    run_start[1:] &= chinese[:-1] | first[1:n_cp]
    run_end = other.copy()
    run_end[:-1] &= chinese[1:] | first[1:n_cp]
    starts, ends = np.flatnonzero(run_start), np.flatnonzero(run_end) + 1
    run_codes, run_first = code_spans(cp, starts, ends)
    text = cp.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    vocabulary = {}
    run_tokens = [[vocabulary.setdefault(w, len(vocabulary)) for w in word_tokens(text[s:e])]
                  for s, e in zip(starts[run_first].tolist(), ends[run_first].tolist())]
    counts = np.fromiter(map(len, run_tokens), dtype=np.int64, count=len(run_tokens))
    flat = np.fromiter((c for tokens in run_tokens for c in tokens), dtype=np.int64, count=int(counts.sum()))
    flat += 0x110000   # word codes after every code point, which code the Chinese characters
    at = np.concatenate(([0], np.cumsum(counts)))
    # pieces in order of their first code point: a Chinese character (one token) or a run (its tokens)
    piece_start = np.flatnonzero(chinese | run_start)
    run_piece = np.flatnonzero(~chinese[piece_start])
    del chinese, first, other, run_start, run_end
    run_of = run_codes[np.searchsorted(starts, piece_start[run_piece])]   # the run's distinct-run number
    piece_len = np.ones(len(piece_start), dtype=np.int64)
    piece_len[run_piece] = counts[run_of]
    piece_from = np.full(len(piece_start), -1, dtype=np.int64)   # where a run's tokens begin in ``flat``
    piece_from[run_piece] = at[run_of]
    total = int(piece_len.sum())
    source = np.repeat(piece_from, piece_len)
    source += np.arange(total) - np.repeat(np.cumsum(piece_len) - piece_len, piece_len)   # -1: a character
    codes = np.where(source < 0, cp[np.repeat(piece_start, piece_len)], 0).astype(np.int64)
    if len(flat):
        words = np.flatnonzero(source >= 0)
        codes[words] = flat[source[words]]
    del source
    owner_piece = np.searchsorted(texts.offsets, piece_start, side="right") - 1
    per_text = np.bincount(owner_piece, weights=piece_len, minlength=len(texts)).astype(np.int64)
    return codes, np.concatenate(([0], np.cumsum(per_text))).astype(np.int64)


def question_columns(predictions, answers, answer_question, predicted=None):
    """Per question: ``exact``, ``f1`` and ``predicted`` (see the module); ``answers`` the gold texts,
    ``answer_question`` the question of each (every question needs one)."""
    predictions = list(predictions)
    n = len(predictions)
    answer_question = np.asarray(answer_question, dtype=np.int64)
    if n and (np.bincount(answer_question, minlength=n) == 0).any():
        raise ValueError("a question has no gold answer")
    texts = _cleaned(predictions + list(answers))
    lengths = np.diff(texts.offsets)
    same_text = np.full(len(texts), -1, dtype=np.int64)
    some = np.flatnonzero(lengths > 0)
    if len(some):
        same_text[some] = code_spans(texts.cp, texts.offsets[some], texts.offsets[some + 1])[0]
    exact_pair = (same_text[n:] == same_text[answer_question]).astype(np.int64)
    codes, offsets = segment(texts)
    tok_len = np.diff(offsets)
    common = substring_lengths(codes, offsets[n:-1], tok_len[n:], offsets[answer_question],
                               tok_len[answer_question])
    p_len, g_len = tok_len[answer_question].astype(float), tok_len[n:].astype(float)
    f1 = prf(common, p_len, g_len)[2]   # 2 P R / (P + R), as the official script computes it
    f1 = np.where(common == 0, 0.0, f1)
    exact = np.zeros(n, dtype=np.int64)
    np.maximum.at(exact, answer_question, exact_pair)
    best = np.zeros(n)
    np.maximum.at(best, answer_question, f1)
    predicted = np.ones(n, dtype=bool) if predicted is None else np.asarray(predicted, dtype=bool)
    return {"exact": np.where(predicted, exact, 0), "f1": np.where(predicted, best, 0.0),
            "predicted": predicted.astype(np.int64)}
