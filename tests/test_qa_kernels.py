"""SQuAD and CMRC 2018 kernels against what the official evaluation scripts computed (tests/fixtures/qa_official.json,
recorded by tests/record_qa_official.py on the cases of tests/qa_cases.py: seeded predictions for the public data
in ../shared/data/qa and hand-made edge cases). Every number must agree to 1e-9, question by question and in total.
Beyond those cases, SQuAD's kernels are held to a plain restatement of the official functions (``PlainSquad``), and
CMRC's cleaning and columns to the script's (``PlainCmrc``), on generated strings made to catch the batch's
shortcuts: articles and punctuation where two answers meet, characters whose lower case is longer or depends on the
next character, separators inside the answers, empty answers, long answers full of repeated words, Chinese
characters between English runs. The tables the batch reads instead of ``re`` and ``str.split`` are held to them on
every code point.
"""
import collections
import json
import re
import string

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helpers import ROOT, shared
from qa_cases import CMRC_FILES, SCENARIOS, SQUAD_FILE, cmrc_edge, cmrc_predictions, punkt_free, questions, \
    squad_edge, squad_predictions
from scorer.metrics import cmrc, squad

FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "qa_official.json").read_text(encoding="utf-8"))
TOL = 1e-9


class PlainSquad:
    """SQuAD's official functions restated in plain Python, one answer at a time: ``normalize_answer`` (both
    scripts), EM, and F1 as evaluate-v2.0.py (``compute_f1``: an empty side scores 1 only against an empty side)
    and evaluate-v1.1.py (``f1_score``: no common token scores 0) compute them."""

    ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)

    @classmethod
    def normalize(cls, text):
        text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
        return " ".join(cls.ARTICLES.sub(" ", text).split())

    @classmethod
    def f1(cls, gold, pred, version="v2.0"):
        g, p = cls.normalize(gold).split(), cls.normalize(pred).split()
        if version == "v2.0" and (not g or not p):
            return float(g == p)
        same = sum((collections.Counter(g) & collections.Counter(p)).values())
        if not same:
            return 0.0
        precision, recall = same / len(p), same / len(g)
        return 2 * precision * recall / (precision + recall)

    @classmethod
    def question(cls, golds, pred, version="v2.0"):
        """(EM, F1) of one question: its best gold answer for each (v2.0: the gold answers that normalise to
        nothing dropped, none left: the empty answer)."""
        if version == "v2.0":
            golds = [g for g in golds if cls.normalize(g)] or [""]
        return (max(int(cls.normalize(g) == cls.normalize(pred)) for g in golds),
                max(cls.f1(g, pred, version) for g in golds))


# pieces of answers where a shortcut over a batch would show: articles (any case), ASCII and other punctuation,
# every kind of whitespace, word characters that are not letters, characters whose lower case is two characters
# (İ) or depends on what follows (Σ), case-ignorable marks between them, the batch separators themselves
PIECES = ("a", "an", "the", "A", "An", "THE", "aN", "t", "h", "e", "n", "x", "1", "²", "½", "_", ".", ",", "-", "'",
          "«", "»", "·", "–", "。", " ", "  ", "\t", "\n", "\x0b", "\x1c", "\x1f", "\x85", "\xa0", "\u3000", "\u2028",
          "é", "E\u0301", "İ", "Σ", "ς", "ΑΣ", "ß", "ﬃ", "\u212a", "\u212b", "\u00ad", "\u0301", "\x00", "\x01",
          "\x7f", "\ue000", "\U0001F600", "中", "\ud800")
answers = st.one_of(st.lists(st.sampled_from(PIECES), max_size=8).map("".join), st.text(max_size=8))
# answers of many tokens, most of them repeated (the repeats of a long answer are counted otherwise)
long_answers = st.lists(st.sampled_from(("x", "y", "Y.", "z", "the", "ΑΣ")), max_size=40).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(answers, max_size=8), st.booleans())
def test_squad_tokens_of_a_batch_are_each_answers_own(texts, every_separator_taken):
    """The batch's tokens of every string are normalize_answer(string).split(), also when the strings hold every
    character the batch could join them by (each string is then lower-cased alone)."""
    from scorer.metrics.text_norm import _SEPARATORS
    if every_separator_taken:
        texts = texts + ["".join(_SEPARATORS)]
    tokens = squad.normalised_tokens(texts)
    assert len(tokens) == len(texts)
    for i, text in enumerate(texts):
        assert tokens.strings(i) == PlainSquad.normalize(text).split(), (text, tokens.strings(i))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(answers | long_answers, st.lists(answers | long_answers, max_size=3)), max_size=8),
       st.sampled_from(squad.VERSIONS))
def test_squad_columns_are_each_questions_own(questions, version):
    """EM and F1 of every question, from the batch, equal the official functions run on that question alone."""
    if version == "v1.1":
        questions = [(pred, golds or [pred]) for pred, golds in questions]
    preds = [pred for pred, _ in questions]
    golds = [g for _, gs in questions for g in gs]
    owner = np.repeat(np.arange(len(questions)), [len(gs) for _, gs in questions]).astype(np.int64)
    cols = squad.question_columns(preds, golds, owner, version)
    for i, (pred, gs) in enumerate(questions):
        exact, f1 = PlainSquad.question(gs, pred, version)
        assert cols["exact"][i] == exact and abs(cols["f1"][i] - f1) <= 1e-12, (pred, gs, cols["f1"][i], f1)


def _flat(data):
    ids, golds, owner = [], [], []
    for i, (qid, _, texts, _) in enumerate(questions(data)):
        ids.append(qid)
        golds.extend(texts)
        owner.extend([i] * len(texts))
    return ids, golds, np.array(owner, dtype=np.int64)


def squad_keys(data, preds, probs):
    """The script's keys (with the no-answer probabilities) from our per-question columns."""
    ids, golds, owner = _flat(data)
    texts = [preds.get(q, "") for q in ids]
    cols = squad.question_columns(texts, golds, owner, "v2.0", na_probs=[probs[q] for q in ids])
    raw = squad.question_columns(texts, golds, owner, "v2.0")
    has = cols["has_answer"].astype(bool)
    out = {}
    for prefix, rows in (("", np.ones(len(ids), bool)), ("HasAns_", has), ("NoAns_", ~has)):
        if rows.any():
            out[prefix + "exact"], out[prefix + "f1"] = squad.scores(cols["exact"][rows].sum(), cols["f1"][rows].sum(),
                                                                    rows.sum())
            out[prefix + "total"] = int(rows.sum())
    position = {q: i for i, q in enumerate(ids)}
    order = [position[q] for q in probs]
    answered = np.array([bool(t) for t in texts])
    for name in ("exact", "f1"):
        best, thresh = squad.best_threshold(raw[name], has, answered, [probs[q] for q in ids], order=order)
        out["best_" + name], out["best_%s_thresh" % name] = best, thresh
    return out, dict(zip(ids, zip(raw["exact"].tolist(), raw["f1"].tolist())))


def squad_case(name):
    if name == "edge":
        return squad_edge()
    data = json.loads(shared("qa", SQUAD_FILE).read_text(encoding="utf-8"))
    preds, probs = squad_predictions(data, name)
    return data, preds, probs


@pytest.mark.parametrize("name", SCENARIOS + ("edge",))
def test_squad_v2_matches_the_official_script(name):
    data, preds, probs = squad_case(name)
    recorded = FIXTURE["squad"][name]
    keys, raw = squad_keys(data, preds, probs)
    for qid, (exact, f1) in recorded["raw"].items():
        assert raw[qid][0] == exact and abs(raw[qid][1] - f1) <= TOL, (qid, raw[qid], exact, f1)
    for key, value in recorded["with_na_probs"].items():
        assert abs(keys[key] - value) <= TOL, (key, keys[key], value)
    for key, value in recorded["plain"].items():   # without probabilities: the same keys, no best_*
        assert abs(keys[key] - value) <= TOL, (key, keys[key], value)


def test_squad_v11_normalisation_differs_only_where_v20_drops_answers():
    """v1.1 keeps gold answers that normalise to nothing and gives F1 0 to two empty token lists."""
    cols = squad.question_columns(["", "the"], ["the", "a cat"], [0, 1], "v1.1")
    assert cols["exact"].tolist() == [1, 0] and cols["f1"].tolist() == [0.0, 0.0]
    cols = squad.question_columns(["", "the"], ["the", "a cat"], [0, 1], "v2.0")
    assert cols["exact"].tolist() == [1, 0] and cols["f1"].tolist() == [1.0, 0.0]


@settings(max_examples=300, deadline=None)
@given(st.lists(answers | st.lists(st.sampled_from(PIECES + cmrc.PUNCTUATION + ("北京", "ΑΣ ")), max_size=6).map("".join),
                max_size=8), st.booleans())
def test_cmrc_cleaning_of_a_batch_is_each_answers_own(texts, every_separator_taken):
    """CMRC's cleaning of a batch gives every string's own: ``s.lower().strip()`` without the script's marks."""
    from scorer.metrics.text_norm import _SEPARATORS
    if every_separator_taken:
        texts = texts + ["".join(_SEPARATORS)]
    cleaned = cmrc._cleaned(texts)
    assert len(cleaned) == len(texts)
    for i, text in enumerate(texts):
        assert cleaned.text(i) == "".join(c for c in text.lower().strip() if c not in cmrc.PUNCTUATION), text



class PlainCmrc:
    """The CMRC 2018 script's functions restated in plain Python, one answer at a time: ``mixed_segmentation``
    (``rm_punc=True``: lower-cased, stripped, the marks of ``sp_char`` skipped, each character of U+4E00..U+9FA5
    a token, the runs between them cut by NLTK's word tokenizer, here ``cmrc.word_tokens``, checked on its own
    against the recorded cases), ``find_lcs`` (the table of common suffix lengths), ``calc_f1_score`` and
    ``calc_em_score``."""

    MARKS = set(c for c in cmrc.PUNCTUATION if len(c) == 1)

    @classmethod
    def segments(cls, text):
        out, run = [], ""
        for ch in text.lower().strip():
            if ch in cls.MARKS:
                continue
            if "\u4e00" <= ch <= "\u9fa5":
                out.extend(cmrc.word_tokens(run) if run else [])
                run = ""
                out.append(ch)
            else:
                run += ch
        return out + (cmrc.word_tokens(run) if run else [])

    @staticmethod
    def lcs(a, b):
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        longest = 0
        for i in range(len(a)):
            for j in range(len(b)):
                if a[i] == b[j]:
                    table[i + 1][j + 1] = table[i][j] + 1
                    longest = max(longest, table[i + 1][j + 1])
        return longest

    @classmethod
    def question(cls, golds, pred):
        """(EM, F1) of one question: its best gold answer for each."""
        f1s = []
        for gold in golds:
            g, p = cls.segments(gold), cls.segments(pred)
            common = cls.lcs(g, p)
            precision, recall = (common / len(p), common / len(g)) if common else (0.0, 0.0)
            f1s.append(2 * precision * recall / (precision + recall) if common else 0.0)
        bare = [''.join(c for c in t.lower().strip() if c not in cls.MARKS) for t in golds + [pred]]
        return max(int(b == bare[-1]) for b in bare[:-1]), max(f1s)


# Chinese characters, runs of other characters between them (English words, digits, spaces of every kind), the
# script's marks (full-width and ASCII) that vanish from both sides, case and repeats
CMRC_PIECES = ("北", "京", "大学", "中国", "约", "人", "一", "，", "。", "：", "？", "「", "」", "（", "）", "－", "……",
               "-", "_", "/", "+", "=", "~", " ", "\u3000", "\xa0", "\t", "1", "1,000", "3.5", "The", "the", "ABC",
               "abc", "'s", '"', "(", ")", ".", "é", "ΑΣ", "İ", "\x00", "\ue000", "\ue00f", "\ud800")
cmrc_answers = st.lists(st.sampled_from(CMRC_PIECES), max_size=12).map("".join) | st.text(max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(cmrc_answers, st.lists(cmrc_answers, min_size=1, max_size=3)), max_size=8), st.booleans())
def test_cmrc_columns_are_each_questions_own(questions, every_separator_taken):
    """CMRC's EM and F1 of every question, from the batch (cleaning, segmentation in piece order, longest common
    substring), equal the script's functions run on that question alone."""
    from scorer.metrics.text_norm import _SEPARATORS
    if every_separator_taken and questions:
        questions[0] = (questions[0][0] + "".join(_SEPARATORS), questions[0][1])
    preds = [pred for pred, _ in questions]
    golds = [g for _, gs in questions for g in gs]
    owner = np.repeat(np.arange(len(questions)), [len(gs) for _, gs in questions]).astype(np.int64)
    cols = cmrc.question_columns(preds, golds, owner)
    for i, (pred, gs) in enumerate(questions):
        exact, f1 = PlainCmrc.question(gs, pred)
        assert cols["exact"][i] == exact and abs(cols["f1"][i] - f1) <= 1e-12, (pred, gs, cols["f1"][i], f1)


def test_word_characters_and_spaces_are_python_s_on_every_code_point():
    """SQuAD's article rule reads ``\\w`` and ``str.split()``'s whitespace from a table: on every code point it
    agrees with ``re`` (a word character) and ``str.isspace``."""
    cp = np.arange(0x110000, dtype=np.int64)
    classes = squad.char_classes(cp)
    word = re.compile(r"\w")
    chars = [chr(c) for c in range(0x110000)]
    assert (classes == np.array([squad._SPACE * ch.isspace() + squad._WORD * bool(word.match(ch)) for ch in chars],
                                dtype=np.uint8)).all()


def test_the_separators_change_nothing_around_them():
    """A batch is joined by a separator: it is no space, no word character, no punctuation, and lower-casing
    reads each text as alone next to it (a final sigma before it, a capital sigma after it)."""
    from scorer.metrics.text_norm import _SEPARATORS
    for sep in _SEPARATORS:
        assert not sep.isspace() and not re.match(r"\w", sep) and sep not in string.punctuation
        for left, right in (("ΑΣ", "Α"), ("Α", "ΣΑ"), ("ΑΣ\u0301", "\u0301Α"), ("İ", "Σ"), ("the", "a")):
            assert (left + sep + right).lower() == left.lower() + sep + right.lower(), (sep, left, right)

def _cmrc_case(key):
    if key == "edge":
        data, preds = cmrc_edge()
        return data, preds
    name, scenario = key.rsplit("/", 1)
    data, _ = punkt_free(json.loads(shared("qa", name).read_text(encoding="utf-8")))
    return data, cmrc_predictions(data, scenario)


@pytest.mark.parametrize("key", ["%s/%s" % (f, s) for f in CMRC_FILES for s in SCENARIOS] + ["edge"])
def test_cmrc2018_matches_the_official_script(key):
    data, preds = _cmrc_case(key)
    recorded = FIXTURE["cmrc"][key]
    ids, golds, owner = _flat(data)
    ids = [q.strip() for q in ids]
    cols = cmrc.question_columns([preds.get(q, "") for q in ids], golds, owner,
                                 predicted=[q in preds for q in ids])
    for i, qid in enumerate(ids):
        if qid in recorded["per_question"]:
            exact, f1 = recorded["per_question"][qid]
            assert cols["exact"][i] == exact and abs(cols["f1"][i] - f1) <= TOL, (qid, preds[qid], cols["f1"][i], f1)
    n = len(ids)
    assert n == recorded["TOTAL"] and n - int(cols["predicted"].sum()) == recorded["SKIP"]
    assert abs(100.0 * cols["f1"].sum() / n - recorded["F1"]) <= TOL
    assert abs(100.0 * cols["exact"].sum() / n - recorded["EM"]) <= TOL
    average = (100.0 * cols["exact"].sum() / n + 100.0 * cols["f1"].sum() / n) * 0.5
    assert "%.3f" % average == recorded["printed"]["AVERAGE"]


def test_fixture_data_is_the_data_recorded():
    import hashlib
    assert hashlib.sha256(shared("qa", SQUAD_FILE).read_bytes()).hexdigest() == FIXTURE["squad_data_sha256"]
    for name in CMRC_FILES:
        assert hashlib.sha256(shared("qa", name).read_bytes()).hexdigest() == FIXTURE["cmrc_data_sha256"][name]


def test_best_threshold_follows_the_file_order_of_tied_probabilities():
    """Two questions tied at 0.5: the script walks them in the probabilities file's order, so the running score can
    peak between them (a threshold no prediction can realise); worked by hand."""
    raw = np.array([1.0, 0.0])          # q0 answerable and right; q1 unanswerable but answered
    has = np.array([True, False])
    answered = np.array([True, True])
    # order q0, q1: 1 + 1 = 2 (start: one unanswerable) then 2 - 1 = 1 -> best 2 of 2 at 0.5
    assert squad.best_threshold(raw, has, answered, [0.5, 0.5], order=[0, 1]) == (100.0, 0.5)
    # order q1, q0: 1 - 1 = 0, then 0 + 1 = 1: never above the start -> best 1 of 2 at 0.0
    assert squad.best_threshold(raw, has, answered, [0.5, 0.5], order=[1, 0]) == (50.0, 0.0)
