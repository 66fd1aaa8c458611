"""Exact match and F1 of extractive answers, as the official SQuAD v1.1 and v2.0 evaluation scripts compute them.

Normalisation (both versions): lower-case (``str.lower``), remove ASCII punctuation (``string.punctuation``),
replace the words ``a``, ``an``, ``the`` (between word boundaries, Unicode word characters) by a space,
split at whitespace (``normalised_tokens``: the official functions' tokens, from arrays of code points). EM of
a prediction and a gold answer: equal normalised token sequences; F1: with s = sum_t min(count in prediction,
count in gold) (``common_tokens``), P = s / |prediction|, R = s / |gold|, F1 = 2PR / (P + R) (0 when s = 0).
Each question takes its best gold answer for each measure.

- ``v1.1``: every gold answer counts; a question needs one.
- ``v2.0``: gold answers that normalise to nothing are dropped and a question left with none is unanswerable
  (its only gold answer is the empty string); an empty prediction or gold gives F1 = 1 when both are empty, else
  0. HasAns / NoAns: the question has a gold answer in the data at all (the script's ``bool(qa['answers'])``).
  With no-answer probabilities, a question whose probability exceeds the threshold (default 1.0) is taken as
  answered empty: it scores 1 if unanswerable, else 0.

Per question (``question_columns``): ``exact`` and ``f1`` (0..1), ``has_answer`` (1/0) and ``predicted``
(1 when the submission answers it; the kernel scores a missing prediction 0, as v1.1 does: v2.0's script
leaves it out of ``exact`` and ``f1`` and fails on the HasAns/NoAns split). Keys from the column sums
(``scores``): exact = 100 sum exact / n, f1 likewise, HasAns_* and NoAns_* over those questions only.
``best_threshold`` gives v2.0's best_exact / best_f1 and their thresholds (no sum over questions: computed once).

Reference: Rajpurkar et al., "SQuAD: 100,000+ Questions for Machine Comprehension of Text", EMNLP 2016;
Rajpurkar, Jia and Liang, "Know What You Don't Know", ACL 2018; the official evaluate-v1.1.py and
evaluate-v2.0.py.

>>> cols = question_columns(["The Normans", "", "1066 AD"], ["Normans", "in 1066"], [0, 2])
>>> cols["exact"].tolist(), [round(v, 4) for v in cols["f1"].tolist()], cols["has_answer"].tolist()
([1, 1, 0], [1.0, 1.0, 0.5], [1, 0, 1])
"""
import string

import numpy as np

from ..bytelevel.grouping import group_keys
from .prf import prf
from .text_norm import Tokens, code_spans, codepoints, joined_apart, separator_positions

VERSIONS = ("v1.1", "v2.0")
PUNCTUATION = str.maketrans("", "", string.punctuation)
COLUMNS = ("exact", "f1", "has_answer", "predicted")
_SPACE, _WORD = 1, 2
# per ASCII code point: whitespace to str.split(), a word character to ``re`` (``\w`` of a str pattern:
# str.isalnum() or "_"); other code points are asked when they occur
_ASCII_CLASS = np.array([_SPACE * chr(c).isspace() + _WORD * (chr(c).isalnum() or c == 0x5F) for c in range(128)],
                        dtype=np.uint8)


def char_classes(cp):
    """Per code point: ``_SPACE`` (whitespace to ``str.split()``), ``_WORD`` (``re``'s word character) or 0.

    >>> char_classes(codepoints("a_1 é·\u3000")).tolist()
    [2, 2, 2, 1, 2, 0, 1]
    """
    if cp.dtype == np.uint8 and (not len(cp) or cp.max() < 128):
        return _ASCII_CLASS[cp]
    out = _ASCII_CLASS[np.minimum(cp, 127)]
    high = np.flatnonzero(cp >= 128)
    if len(high):
        values, which = np.unique(cp[high], return_inverse=True)
        chars = [chr(c) for c in values.tolist()]
        table = np.array([_SPACE * c.isspace() + _WORD * c.isalnum() for c in chars], dtype=np.uint8)
        out[high] = table[which]
    return out


def article_chars(cp, classes):
    """The positions of the code points of SQuAD's articles: ``re.sub(r"\\b(a|an|the)\\b", " ", text)`` replaces
    exactly the maximal runs of word characters that are ``a``, ``an`` or ``the`` (\\b on both sides: the run
    begins after a non-word character or the start and ends before one or the end; of the alternatives the one
    that ends at the run's end matches), so these are the runs found. ``classes``: ``char_classes(cp)``.

    >>> cp = codepoints("a bat an·the them")
    >>> article_chars(cp, char_classes(cp)).tolist()
    [0, 6, 7, 9, 10, 11]
    """
    n = len(cp)

    def is_word(positions):   # a word character there (False past either end)
        inside = (positions >= 0) & (positions < n)
        return inside & (classes[np.clip(positions, 0, max(n - 1, 0))] == _WORD)

    def holds(positions, k, code):   # the code point k after each position is ``code``
        return (positions + k < n) & (cp[np.minimum(positions + k, max(n - 1, 0))] == code)

    runs = []
    for letters in ("a", "an", "the"):
        first = np.flatnonzero(cp == ord(letters[0]))
        first = first[~is_word(first - 1)]   # a run begins there
        for k in range(1, len(letters)):
            first = first[holds(first, k, ord(letters[k]))]
        first = first[~is_word(first + len(letters))]   # and ends after the article
        runs.append(first[:, None] + np.arange(len(letters)))
    return np.sort(np.concatenate([r.ravel() for r in runs])) if n else np.zeros(0, dtype=np.int64)


def normalised_tokens(strings):
    """Tokens of SQuAD's ``normalize_answer`` of each string, split at whitespace: lower-cased, ASCII punctuation
    removed, the articles a/an/the removed, split at whitespace.

    The strings are joined by a separator none of them holds, lower-cased and stripped of punctuation in one
    call each, then cut into tokens as arrays of code points; the same tokens as text by text, because the
    separator is a control or private-use character: neither cased nor case-ignorable (so ``lower`` reads each
    text's final sigma as at a text's end), no punctuation, no word character (so no article run crosses it),
    not whitespace, never a token's part. Where every separator is taken, each text is lower-cased alone and the
    texts joined by a space.

    >>> tokens = normalised_tokens(["The Cat's hat!", "", "an  Apple-a-day", "ΑΣ"])
    >>> [tokens.strings(i) for i in range(4)]
    [['cats', 'hat'], [], ['appleaday'], ['ας']]
    """
    strings = list(strings)
    text, sep = joined_apart(strings)
    if sep is not None:
        text = text.lower().translate(PUNCTUATION)
        cp = np.frombuffer(text.encode("ascii"), dtype=np.uint8) if text.isascii() else codepoints(text)
        del text
        at, starts = separator_positions(cp, sep, len(strings))
    else:
        texts = [s.lower().translate(PUNCTUATION) for s in strings]
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        cp = codepoints(" ".join(texts))
        starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1])).astype(np.int64)
        at = starts[1:] - 1
    classes = char_classes(cp)
    keep = classes != _SPACE
    keep[at] = False
    keep[article_chars(cp, classes)] = False
    del classes, at
    edge = np.empty(len(keep) + 1, dtype=bool)   # where a run of kept code points begins or ends
    if len(keep):
        np.not_equal(keep[1:], keep[:-1], out=edge[1:-1])
        edge[0], edge[-1] = keep[0], keep[-1]
    del keep
    edges = np.flatnonzero(edge) if len(edge) > 1 else np.zeros(0, dtype=np.int64)
    del edge
    first, last = edges[0::2], edges[1::2]
    codes, distinct = code_spans(cp, first, last)
    offsets = np.append(np.searchsorted(first, starts), len(first)).astype(np.int64) if len(strings) else \
        np.zeros(1, dtype=np.int64)
    made, spelled = [], (first[distinct], last[distinct])   # the spans of one token of each code: all it keeps
    del first, last, edges

    def vocabulary():   # made once, when first asked
        if not made:
            made.append([cp[s:e].astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
                         for s, e in zip(spelled[0].tolist(), spelled[1].tolist())])
        return made[0]

    return Tokens(codes, offsets, vocabulary)


def same_sequences(tokens, left, right):
    """Per pair k: text ``left[k]`` and text ``right[k]`` hold the same token sequence (two empty ones too), the
    tokens of equal-length pairs compared position by position.

    >>> same_sequences(normalised_tokens(["x b", "b", "B", "", "the"]), np.array([0, 1, 3, 0]),
    ...                np.array([1, 2, 4, 0])).tolist()
    [False, True, True, True]
    """
    lengths = tokens.lengths()
    length = lengths[left]
    same = length == lengths[right]
    both = np.flatnonzero(same & (length > 0))
    if len(both):
        each = length[both]
        pair = np.repeat(np.arange(len(both), dtype=np.int64), each)
        within = np.arange(len(pair), dtype=np.int64) - np.repeat(np.cumsum(each) - each, each)
        differ = tokens.codes[tokens.offsets[left[both]][pair] + within] != \
            tokens.codes[tokens.offsets[right[both]][pair] + within]
        same[both[np.bincount(pair, weights=differ, minlength=len(both)) > 0]] = False
    return same


SHIFTS = 16   # texts of up to this many tokens find their repeated tokens by comparing shifted copies


def common_tokens(tokens, n, texts, questions):
    """Per pair k: sum over tokens c of min(count of c in text ``questions[k]`` (a prediction: texts 0..n-1 are
    the predictions), count of c in text ``texts[k]``) (SQuAD's ``num_same``).

    The (question, token) pairs of both sides are coded together once; the i-th repeat of a token in a gold text
    (i = 0, 1, ...) is common when the prediction holds that token more than i times, so a gold token counts
    when its repeat number is below the prediction's count: min(P, G) = #{i < G: i < P}. Repeat numbers come
    from comparing each gold text with itself shifted by 1..SHIFTS-1 tokens, or, in a longer text, from sorting
    its tokens.

    >>> t = normalised_tokens(["x y y z", "y", "y y q z", "y"])
    >>> common_tokens(t, 2, np.array([2, 3]), np.array([0, 0])).tolist()
    [3, 1]
    """
    codes, offsets = tokens.codes, tokens.offsets
    lengths = np.diff(offsets)
    n_pred = int(offsets[n])
    texts = np.asarray(texts, dtype=np.int64)
    gold_len = lengths[texts]
    pair = np.repeat(np.arange(len(texts), dtype=np.int64), gold_len)
    if not len(pair):
        return np.zeros(len(texts), dtype=np.int64)
    within = np.arange(len(pair), dtype=np.int64) - np.repeat(np.cumsum(gold_len) - gold_len, gold_len)
    width = int(codes.max()) + 1
    key = np.empty(n_pred + len(pair), dtype=np.int64)   # (question, token): the predictions', then the golds'
    np.multiply(np.repeat(np.arange(n, dtype=np.int64), lengths[:n]), width, out=key[:n_pred])
    key[:n_pred] += codes[:n_pred]
    np.multiply(np.asarray(questions, dtype=np.int64)[pair], width, out=key[n_pred:])
    within += offsets[texts][pair]
    key[n_pred:] += codes[within]
    del within
    group, first = group_keys(key)
    del key
    in_prediction = np.bincount(group[:n_pred], minlength=len(first))
    group = group[n_pred:]
    repeat = np.zeros(len(group), dtype=np.int64)
    for shift in range(1, min(int(gold_len.max()), SHIFTS)):
        repeat[shift:] += (group[shift:] == group[:-shift]) & (pair[shift:] == pair[:-shift])
    long = np.flatnonzero(gold_len[pair] > SHIFTS)
    if len(long):   # tokens of longer texts: sorted by (pair, group), the repeat number is the place in a run
        key = pair[long] * len(first) + group[long]
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.ones(len(key), dtype=bool)
        starts[1:] = key[1:] != key[:-1]
        place = np.arange(len(key), dtype=np.int64)
        repeat[long[order]] = place - np.maximum.accumulate(np.where(starts, place, 0))
    return np.bincount(pair, weights=repeat < in_prediction[group], minlength=len(texts)).astype(np.int64)


def question_columns(predictions, answers, answer_question, version="v2.0", predicted=None, na_probs=None,
                     na_prob_thresh=1.0):
    """Per question: the columns of ``COLUMNS``. ``predictions``: one string per question (anything where
    ``predicted`` is False); ``answers``: the gold answer texts, ``answer_question`` the question of each."""
    if version not in VERSIONS:
        raise ValueError("unknown SQuAD version %r" % (version,))
    predictions = list(predictions)
    n = len(predictions)
    answer_question = np.asarray(answer_question, dtype=np.int64)
    has_answer = np.bincount(answer_question, minlength=n) > 0
    if version == "v1.1" and not has_answer.all():
        raise ValueError("question %d has no gold answer (v1.1 needs one)" % int(np.argmin(has_answer)))
    tokens = normalised_tokens(predictions + list(answers))
    lengths = tokens.lengths()
    pred_len, gold_len = lengths[:n], lengths[n:]
    if version == "v2.0":   # gold answers that normalise to nothing are no answers; none left: the empty one
        kept = gold_len > 0
        empty_only = np.flatnonzero(np.bincount(answer_question[kept], minlength=n) == 0)
        gold_index = np.concatenate([np.flatnonzero(kept), np.full(len(empty_only), -1)])
        gold_question = np.concatenate([answer_question[kept], empty_only])
    else:
        gold_index = np.arange(len(answer_question))
        gold_question = answer_question
    real = gold_index >= 0
    g_len = np.where(real, gold_len[np.maximum(gold_index, 0)] if len(gold_len) else 0, 0)
    exact_pair = np.zeros(len(gold_question), dtype=np.int64)
    exact_pair[real] = same_sequences(tokens, gold_question[real], n + gold_index[real])
    exact_pair[~real] = pred_len[gold_question[~real]] == 0   # the empty answer: an empty prediction matches it
    same = np.zeros(len(gold_question), dtype=np.int64)   # the empty answer has no token in common
    same[real] = common_tokens(tokens, n, n + gold_index[real], gold_question[real])
    p_len = pred_len[gold_question].astype(float)
    f1 = prf(same, p_len, g_len)[2]   # 2 P R / (P + R), as the official script computes it
    f1 = np.where(same == 0, 0.0, f1)
    if version == "v2.0":
        either_empty = (p_len == 0) | (g_len == 0)
        f1 = np.where(either_empty, ((p_len == 0) & (g_len == 0)).astype(float), f1)
    exact = np.zeros(n, dtype=np.int64)
    np.maximum.at(exact, gold_question, exact_pair)
    best_f1 = np.zeros(n)
    np.maximum.at(best_f1, gold_question, f1)
    predicted = np.ones(n, dtype=bool) if predicted is None else np.asarray(predicted, dtype=bool)
    if na_probs is not None:
        empty = np.asarray(na_probs, dtype=float) > na_prob_thresh
        exact = np.where(empty, (~has_answer).astype(np.int64), exact)
        best_f1 = np.where(empty, (~has_answer).astype(float), best_f1)
    return {"exact": np.where(predicted, exact, 0), "f1": np.where(predicted, best_f1, 0.0),
            "has_answer": has_answer.astype(np.int64), "predicted": predicted.astype(np.int64)}


def scores(sums_exact, sums_f1, n):
    """100 * the mean of summed exact and F1 over ``n`` questions (0 when n = 0)."""
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    return (np.where(n > 0, 100.0 * np.asarray(sums_exact, dtype=float) / safe, 0.0),
            np.where(n > 0, 100.0 * np.asarray(sums_f1, dtype=float) / safe, 0.0))


def best_threshold(raw, has_answer, answered, na_probs, predicted=None, order=None):
    """(best score 0..100, its threshold): v2.0's ``find_best_thresh``. ``raw``: per-question EM or F1 before
    any threshold; ``answered``: the prediction is a non-empty string; ``order``: the questions in the order of
    the probabilities file (its ties keep that order; default: question order). Questions without a prediction
    are skipped and the score is over the predicted questions."""
    n = len(raw)
    predicted = np.ones(n, dtype=bool) if predicted is None else np.asarray(predicted, dtype=bool)
    order = np.arange(n) if order is None else np.asarray(order, dtype=np.int64)
    probs = np.asarray(na_probs, dtype=float)
    ranked = order[np.argsort(probs[order], kind="stable")]
    ranked = ranked[predicted[ranked]]
    diff = np.where(has_answer[ranked], raw[ranked], np.where(answered[ranked], -1, 0)).astype(float)
    start = float(np.count_nonzero(~np.asarray(has_answer, dtype=bool)))
    running = start + np.cumsum(diff) if len(diff) else np.zeros(0)
    best, threshold = start, 0.0
    if len(running):
        record = np.maximum.accumulate(np.concatenate(([start], running)))[:-1]
        rises = np.flatnonzero(running > record)
        if len(rises):
            last = rises[-1]
            best, threshold = float(running[last]), float(probs[ranked[last]])
    total = int(predicted.sum())
    return (100.0 * best / total if total else 0.0), threshold
