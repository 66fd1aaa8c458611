"""Hand-worked cases for the shared kernels: entity decoding, kappa, P/R/F, tag codes, score text; the weighted
kappa against scikit-learn."""
import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from scorer.metrics.confusion import margins
from scorer.metrics.kappa import cohen_kappa as kappa_of, weighted_kappa
from scorer.metrics.prf import prf, safe_div
from scorer.metrics.spans import CONLLEVAL, IOB2, TagSet, decode, match, segments
from scorer.outputs import format_number, scores_txt
from scorer.bytelevel.tagcodes import encode

TAGS = TagSet(("PER", "LOC", "ORG"))


def spans_of(tag_docs, scheme):
    flat = [t for doc in tag_docs for t in doc]
    codes = encode([" ".join(flat)], TAGS.tags).codes.astype(np.int64)
    starts = np.zeros(len(flat), dtype=bool)
    starts[np.cumsum([0] + [len(d) for d in tag_docs[:-1]])] = True
    s = decode(codes, starts, scheme)
    return [(int(a), int(b), TAGS.types[t]) for a, b, t in zip(s.start, s.end, s.type)]


def test_strict_and_conlleval_decoding_worked_by_hand():
    doc = ["O", "I-PER", "I-PER", "O", "B-LOC", "I-PER", "O", "B-ORG", "B-ORG"]
    # strict: the orphan I-PER run starts nothing; B-LOC ends where I-PER begins
    assert spans_of([doc], IOB2) == [(4, 5, "LOC"), (7, 8, "ORG"), (8, 9, "ORG")]
    # conlleval: an I- that continues nothing starts a chunk
    assert spans_of([doc], CONLLEVAL) == [(1, 3, "PER"), (4, 5, "LOC"), (5, 6, "PER"), (7, 8, "ORG"), (8, 9, "ORG")]


def test_an_entity_never_crosses_a_document_boundary():
    assert spans_of([["B-PER", "I-PER"], ["I-PER", "O"]], IOB2) == [(0, 2, "PER")]
    assert spans_of([["B-PER", "I-PER"], ["I-PER", "O"]], CONLLEVAL) == [(0, 2, "PER"), (2, 3, "PER")]


def test_stray_inside_positions():
    codes = encode(["O I-PER B-LOC I-LOC I-ORG"], TAGS.tags).codes.astype(np.int64)
    starts = np.array([True, False, False, False, False])
    assert segments(codes, starts).stray().tolist() == [1, 4]


def test_match_needs_same_start_end_and_type():
    gold = spans_of([["B-PER", "I-PER", "O", "B-LOC"]], IOB2)
    pred = spans_of([["B-PER", "I-PER", "O", "B-ORG"]], IOB2)
    assert gold == [(0, 2, "PER"), (3, 4, "LOC")] and pred == [(0, 2, "PER"), (3, 4, "ORG")]
    codes_g = encode(["B-PER I-PER O B-LOC"], TAGS.tags).codes.astype(np.int64)
    codes_p = encode(["B-PER I-PER O B-ORG"], TAGS.tags).codes.astype(np.int64)
    start = np.array([True, False, False, False])
    g_hit, p_hit = match(decode(codes_g, start, IOB2), decode(codes_p, start, IOB2))
    assert g_hit.tolist() == [True, False] and p_hit.tolist() == [True, False]


def cohen_kappa(gold, pred, n_classes):
    """Kappa of two label lists: their confusion counts, made here with plain Python."""
    matrix = np.zeros((n_classes, n_classes))
    for g, p in zip(gold, pred):
        matrix[g, p] += 1
    return float(kappa_of(*margins(matrix)))


def test_kappa_worked_by_hand():
    # gold 0 0 1 1, pred 0 0 1 2: Po = 3/4, Pe = (2*2 + 2*1 + 0*1)/16 = 6/16, kappa = (12/16 - 6/16)/(10/16) = 0.6
    assert cohen_kappa([0, 0, 1, 1], [0, 0, 1, 2], 3) == pytest.approx(0.6, abs=1e-12)
    # the seed's formula: all wrong with balanced marginals gives a negative kappa
    assert cohen_kappa([0, 1], [1, 0], 3) == pytest.approx(-1.0, abs=1e-12)


def test_kappa_degenerate_cases_are_defined():
    assert cohen_kappa([], [], 3) == 0.0
    assert cohen_kappa([2, 2, 2], [2, 2, 2], 3) == 1.0       # one shared label: perfect agreement
    assert cohen_kappa([2, 2, 2], [1, 1, 1], 3) == 0.0       # Pe = 0, Po = 0
    assert np.isfinite(kappa_of(*margins(np.zeros((3, 3)))))


@pytest.mark.parametrize("power,weights", [(1, "linear"), (2, "quadratic")])
def test_weighted_kappa_of_stacked_margins_equals_scikit_learn(power, weights):
    """Stacks of random confusion matrices (classes absent from one side or both, one class on both sides, no
    item), the classes placed on a shuffled scale: the kernel on the stack's margins and summed distances, each
    matrix against scikit-learn's ``cohen_kappa_score`` on its items with ``labels`` in scale order (its NaN where
    both sides hold one class is 1.0 here, 0.0 where there is no item)."""
    rng = np.random.default_rng(33)
    for width in (2, 3, 5, 8):
        counts = rng.integers(0, 6, size=(4, 6, width, width)) * (rng.random((4, 6, width, width)) < 0.6)
        counts[0, 0] = 0                                      # no item
        counts[0, 1] = 0
        counts[0, 1, 1, 1] = 7                                # one class on both sides
        counts[0, 2, :, 0] = 0                                # a class never predicted
        counts[0, 3, 0, :] = counts[0, 3, :, 0] = 0            # a class on neither side
        position = rng.permutation(width)                     # class c's place on the scale
        distance = np.abs(position[:, None] - position[None, :]) ** power
        got = weighted_kappa((counts * distance).sum(axis=(-2, -1)), counts.sum(axis=-1), counts.sum(axis=-2),
                             position, power)
        assert got.shape == (4, 6)
        for at in np.ndindex(4, 6):
            gold, pred = np.nonzero(counts[at])
            items = counts[at][gold, pred]
            y, p = np.repeat(gold, items), np.repeat(pred, items)
            if not len(y):
                want = 0.0
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = cohen_kappa_score(y, p, labels=np.argsort(position), weights=weights)
                want = 1.0 if math.isnan(want) else want
            assert abs(float(got[at]) - want) <= 1e-12, (width, at, float(got[at]), want)


def test_prf_zero_division_is_zero_never_nan():
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert prf(0, 5, 0) == (0.0, 0.0, 0.0)
    assert safe_div(np.array([1, 2]), np.array([0, 4])).tolist() == [0.0, 0.5]
    # F1 = 2PR/(P+R): P = 3/4, R = 3/5 -> 2*0.45/1.35 = 2/3
    assert prf(3, 4, 5)[2] == pytest.approx(2 / 3, abs=1e-15)


def test_tag_codes_tolerate_spacing_and_flag_unknown_tags():
    enc = encode(["B-PER  I-PER ", "", "O\tX-PER O", "B-PERSON"], TAGS.tags)
    assert enc.counts.tolist() == [2, 0, 3, 1]
    assert enc.codes.tolist() == [1, 2, 0, -1, 0, -1]
    assert enc.locate(3) == (2, 1)


def test_scores_are_fixed_point_and_finite():
    assert format_number(1e-12) == "0.0000000000"
    assert format_number(-0.0) == "0.0000000000"
    assert format_number(2.5e-5) == "0.0000250000"
    assert scores_txt({"a": 0.5, "b": -0.25}) == "a: 0.5000000000\nb: -0.2500000000\n"
    with pytest.raises(ValueError):
        format_number(float("nan"))


def test_decoding_in_chunks_between_documents_gives_the_spans_of_one_pass(monkeypatch):
    import scorer.metrics.spans as spans
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = int(rng.integers(1, 3000))
        codes = rng.integers(0, 7, n).astype(np.int8)
        doc_start = rng.random(n) < rng.choice([0.002, 0.05, 0.5])
        doc_start[0] = True
        whole = [(decode(codes, doc_start, s), segments(codes, doc_start).stray()) for s in (IOB2, CONLLEVAL)]
        monkeypatch.setattr(spans, "CHUNK", int(rng.integers(1, 200)))
        for (one, stray), scheme in zip(whole, (IOB2, CONLLEVAL)):
            chunked = decode(codes, doc_start, scheme)
            assert [a.tolist() for a in (chunked.start, chunked.end, chunked.type)] == \
                [a.tolist() for a in (one.start, one.end, one.type)]
            assert segments(codes, doc_start).stray().tolist() == stray.tolist()
        monkeypatch.undo()


def test_partial_match_views_in_pieces_add_up_to_the_views_of_one_pass(monkeypatch):
    import scorer.metrics.entity_views as entity_views
    rng = np.random.default_rng(11)
    for _ in range(60):
        n = int(rng.integers(1, 600))
        gold = rng.integers(0, 7, n)
        pred = np.where(rng.random(n) < rng.choice([0.1, 0.5, 0.9]), rng.integers(0, 7, n), gold)
        doc_start = rng.random(n) < 0.05
        doc_start[0] = True
        g, p = decode(gold, doc_start, CONLLEVAL), decode(pred, doc_start, CONLLEVAL)
        whole = entity_views.views(g, p)
        monkeypatch.setattr(entity_views, "CHUNK", int(rng.integers(1, 20)))
        assert entity_views.views(g, p) == whole
        monkeypatch.undo()
