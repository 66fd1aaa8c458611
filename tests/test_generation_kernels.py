"""Generation kernels (BLEU, chrF, chrF++, ROUGE, exact match, length ratio) against sacreBLEU 2.x and rouge-score
0.1.2, independent implementations run here as oracles, on seeded corpora with edge cases: empty hypotheses,
hypotheses shorter than every n-gram order, Unicode punctuation, full-width characters, HTML entities, newlines,
Chinese text and several references of different lengths. Every key must agree to 1e-9.
"""
import random
import sys

import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
nltk_porter = pytest.importorskip("nltk.stem.porter")

from scorer.metrics import bleu, chrf, porter, rouge, text_norm  # noqa: E402
from scorer.metrics.ngrams import flat_references  # noqa: E402

SEED = 20240610
N_CASES = 220
TOL = 1e-9
WORDS = ("the a cat dog sat on mat running runs caresses ponies relational generalizations Paris 3.5 1,000 "
         "5-3 U.S. don't (x) x! 'q' \"hi\" e-mail &amp; &quot; <skipped> ... -- 中 文 好 。 ， 《书》 ＡＢＣ "
         "１２３ ！ — … é İ K ω").split()
EXTRAS = ("", " ", "\u3000", "\n", ".", ",", "\t", "a.", ".5", "5.", "-\n")


def _segment(rng):
    k = rng.choice([0, 0, 1, 2, 3, 4, 6, 10, 18])
    text = " ".join(rng.choice(WORDS) for _ in range(k))
    if rng.random() < 0.3:
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(EXTRAS) + text[at:]
    return text


def make_case(index):
    """A corpus: hypotheses and, per hypothesis, 1 to 3 references (some empty, of different lengths)."""
    rng = random.Random("%d/%d" % (SEED, index))
    n = rng.randint(1, 12)
    hyps = [_segment(rng) for _ in range(n)]
    refs = [[_segment(rng) for _ in range(rng.choice([1, 1, 2, 3]))] for _ in range(n)]
    if index % 7 == 0:
        refs = [[h] + r for h, r in zip(hyps, refs)]   # some hypotheses equal a reference
    return hyps, refs


def _streams(refs):
    """sacreBLEU's reference streams: one per reference slot, None where a segment has fewer."""
    most = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(most)]


CASES = [make_case(i) for i in range(N_CASES)]


@pytest.mark.parametrize("tokenizer", ["13a", "zh", "char"])
def test_bleu_equals_sacrebleu(tokenizer):
    for hyps, refs in CASES:
        metric = sacrebleu.metrics.BLEU(tokenize=tokenizer)
        expected = metric.corpus_score(hyps, _streams(refs))
        seg = metric._extract_corpus_statistics(hyps, _streams(refs))
        stats = bleu.statistics(hyps, refs, tokenizer=tokenizer)
        table = np.column_stack([stats[c] for c in bleu.STAT_COLUMNS])
        assert table.tolist() == [list(map(int, s)) for s in seg]
        sums = {k: v.sum() for k, v in stats.items()}
        assert abs(float(bleu.bleu(sums)) - expected.score) <= TOL
        assert abs(float(bleu.length_ratio(sums)) - expected.ratio) <= TOL
        assert abs(float(bleu.brevity_penalty(sums)) - expected.bp) <= TOL


def test_bleu_lowercase_equals_sacrebleu():
    for hyps, refs in CASES[:60]:
        expected = sacrebleu.metrics.BLEU(lowercase=True).corpus_score(hyps, _streams(refs)).score
        stats = bleu.statistics(hyps, refs, lowercase=True)
        assert abs(float(bleu.bleu({k: v.sum() for k, v in stats.items()})) - expected) <= TOL


def test_bleu_of_resampled_segments_is_sacrebleu_on_those_segments():
    """The bootstrap draws segments and sums their rows: the score of the sums is sacreBLEU's on the drawn corpus."""
    rng = np.random.default_rng(SEED)
    hyps, refs = [], []
    for h, r in CASES[:40]:
        hyps += h
        refs += r
    stats = bleu.statistics(hyps, refs)
    for _ in range(5):
        draw = rng.integers(0, len(hyps), len(hyps))
        expected = sacrebleu.metrics.BLEU().corpus_score([hyps[i] for i in draw], _streams([refs[i] for i in draw]))
        assert abs(float(bleu.bleu({k: v[draw].sum() for k, v in stats.items()})) - expected.score) <= TOL


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_equals_sacrebleu(word_order):
    for hyps, refs in CASES:
        metric = sacrebleu.metrics.CHRF(word_order=word_order)
        expected = metric.corpus_score(hyps, _streams(refs)).score
        seg = metric._extract_corpus_statistics(hyps, _streams(refs))
        stats = chrf.statistics(hyps, refs, word_order=word_order)
        table = np.column_stack([stats[c] for c in chrf.stat_columns(word_order=word_order)])
        assert table.tolist() == [list(map(int, s)) for s in seg]
        assert abs(float(chrf.chrf({k: v.sum() for k, v in stats.items()}, word_order=word_order)) - expected) <= TOL


def test_chrf_options_equal_sacrebleu():
    for hyps, refs in CASES[:60]:
        for kwargs in ({"lowercase": True}, {"whitespace": True}, {"char_order": 4, "beta": 1}):
            expected = sacrebleu.metrics.CHRF(**kwargs).corpus_score(hyps, _streams(refs)).score
            stats = chrf.statistics(hyps, refs, **kwargs)
            order = kwargs.get("char_order", chrf.CHAR_ORDER)
            got = chrf.chrf({k: v.sum() for k, v in stats.items()}, char_order=order, beta=kwargs.get("beta", 2))
            assert abs(float(got) - expected) <= TOL, kwargs


def _rouge_oracle(scorer, hyps, refs):
    out = []
    for h, r in zip(hyps, refs):
        out.append(scorer.score_multi(r, h) if len(r) > 1 else scorer.score(r[0], h))
    return out


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_equals_rouge_score(stem):
    scorer = rouge_scorer.RougeScorer(list(rouge.TYPES), use_stemmer=stem)
    for hyps, refs in CASES:
        stats = rouge.statistics(hyps, refs, stem=stem)
        for i, expected in enumerate(_rouge_oracle(scorer, hyps, refs)):
            for kind in rouge.TYPES:
                for measure, value in zip(rouge.MEASURES, expected[kind]):
                    assert abs(stats["%s_%s" % (kind, measure)][i] - value) <= TOL, (kind, measure, hyps[i], refs[i])


class ChineseRule:
    """The ``chinese`` ROUGE rule written plainly for rouge-score's ``tokenizer=`` hook, one character at a time:
    lower-cased, a run of a-z0-9 is one token (Porter-stemmed by NLTK, as rouge-score, when longer than 3 and
    asked), any other character that is a letter or digit to Python is a token of its own, everything else
    separates."""

    def __init__(self, stem):
        self.stemmer = nltk_porter.PorterStemmer() if stem else None

    def tokenize(self, text):
        tokens, word = [], ""
        for ch in text.lower() + " ":
            if ch.isascii() and (ch.isdigit() or "a" <= ch <= "z"):
                word += ch
                continue
            if word:
                tokens.append(self.stemmer.stem(word) if self.stemmer and len(word) > 3 else word)
                word = ""
            if not ch.isascii() and ch.isalnum():
                tokens.append(ch)
        return tokens


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_chinese_rule_is_rouge_score_on_those_tokens(stem):
    scorer = rouge_scorer.RougeScorer(list(rouge.TYPES), tokenizer=ChineseRule(stem))
    for hyps, refs in CASES[:120]:
        stats = rouge.statistics(hyps, refs, tokenizer="chinese", stem=stem)
        for i, expected in enumerate(_rouge_oracle(scorer, hyps, refs)):
            for kind in rouge.TYPES:
                for measure, value in zip(rouge.MEASURES, expected[kind]):
                    assert abs(stats["%s_%s" % (kind, measure)][i] - value) <= TOL, (kind, hyps[i], refs[i])


def test_rouge_chinese_scores_chinese_text():
    stats = rouge.statistics(["我爱北京"], [["我爱上海"]], types=("rouge1",), tokenizer="chinese")
    assert stats["rouge1_fmeasure"].tolist() == [0.5]   # 2 of 4 characters on each side
    stats = rouge.statistics(["我爱北京"], [["我爱上海"]], types=("rouge1",))
    assert stats["rouge1_fmeasure"].tolist() == [0.0]   # rouge-score's own tokens: none


def test_exact_match_and_corpus_ties():
    for hyps, refs in CASES:
        texts, seg = flat_references(refs)
        expected = [int(any(h.strip() == r.strip() for r in rs)) for h, rs in zip(hyps, refs)]
        assert text_norm.exact_matches(hyps, texts, seg).tolist() == expected


ADVERSARIAL = list("a5.,-( \n&;'9") + ["&quot;", "&amp;", "<skipped>", "中", "，", "\u3000", "\u2014", "Ａ", "\x1c",
                                       "é", "-\n", "\t", "\u2001", "\U00020000", "\u2a6d", "\u2fa1", "\u00a0"]


@pytest.mark.parametrize("name", ["13a", "zh", "char"])
def test_tokenizers_equal_sacrebleus_on_adversarial_strings(name):
    """Runs of points, commas, digits and hyphens at every position, next to spaces, Chinese and isolated marks."""
    from sacrebleu.metrics.bleu import _get_tokenizer
    reference = _get_tokenizer(name)()
    rng = random.Random(SEED)
    strings = ["".join(rng.choice(ADVERSARIAL) for _ in range(rng.randint(0, 14))) for _ in range(6000)]
    tokens = text_norm.tokenize(strings, name)
    for i, s in enumerate(strings):
        assert tokens.strings(i) == reference(s.rstrip()).split(), repr(s)


def test_chinese_table_is_sacrebleus_over_every_code_point():
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
    cp = np.arange(0x110000)
    ours = text_norm.in_ranges(cp, text_norm.ZH_RANGES)
    theirs = np.array([TokenizerZh._is_chinese_char.__wrapped__(chr(c)) for c in range(0x110000)])
    assert (ours == theirs).all()


def test_space_table_is_str_split_over_every_code_point():
    cp = np.arange(0x110000)
    assert (text_norm.is_space(cp) == np.array([chr(c).isspace() for c in range(0x110000)])).all()


def test_porter_equals_nltk():
    stemmer = nltk_porter.PorterStemmer()
    rng = random.Random(SEED)
    parts = ["", "y", "e", "s", "ss", "ies", "ied", "eed", "ed", "ing", "at", "bl", "iz", "ll", "alli", "logi",
             "fulli", "bli", "ational", "tion", "ness", "ful", "ion", "ement", "ize", "ate", "ous", "ive", "er"]
    stems = ["a", "b", "tr", "oat", "hop", "fil", "cry", "sky", "agr", "gener", "relat", "y", "ay", "by", "yoy",
             "syzyg", "feed", "crys", "st", "sion", "tt", "1990", "x2"]
    words = {rng.choice(stems) + rng.choice(parts) + rng.choice(parts) for _ in range(30000)}
    words |= {w.lower() for w in WORDS if w.isascii() and w.isalpha()}
    words |= set(porter.IRREGULAR)
    for word in sorted(w for w in words if len(w) > 3):
        assert porter.stem(word) == stemmer.stem(word), word


def test_statistics_refuse_a_hypothesis_without_reference():
    with pytest.raises(ValueError):
        bleu.statistics(["a", "b"], ["x"], reference_segment=[0])


def test_rouge_lsum_on_summaries_of_several_sentences():
    """Summaries of 1 to 4 lines whose sentences repeat words: the hits of one reference sentence may use hypothesis
    tokens another one used, and rouge-score's counts cap them."""
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    rng = random.Random(SEED + 1)
    small = ["a", "b", "c", "a b", "b a", "c a", "a a"]
    hyps, refs = [], []
    for _ in range(300):
        hyps.append("\n".join(rng.choice(small) for _ in range(rng.randint(1, 4))))
        refs.append(["\n".join(rng.choice(small) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 2))])
    stats = rouge.statistics(hyps, refs, types=("rougeLsum",))
    for i, expected in enumerate(_rouge_oracle(scorer, hyps, refs)):
        for measure, value in zip(rouge.MEASURES, expected["rougeLsum"]):
            assert abs(stats["rougeLsum_" + measure][i] - value) <= TOL, (hyps[i], refs[i])
    assert rouge.statistics(["a"], [["a\na"]], types=("rougeLsum",))["rougeLsum_precision"].tolist() == [1.0]
