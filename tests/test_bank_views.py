"""The bank report's partial-match views against the nervaluate package, on the real gold with damaged predictions.

nervaluate reads tag lists conlleval-style, so the report's conlleval rows are
compared with nervaluate given the tag lists; the strict-IOB2 rows with
nervaluate given the entities seqeval decodes under strict IOB2 (its dict
input): like with like. Every count and P/R/F1 must agree (to 1e-9), and each
strict view must have the scored entity precision and recall.
"""
import pytest
from nervaluate import Evaluator
from seqeval.scheme import IOB2, Tokens

from bank_data import TYPES, gold_csv, perturb, real_gold, submission_csv
from helpers import make_input

NERVALUATE = {"strict (boundaries and type)": "strict", "exact boundaries (any type)": "exact",
              "partial overlap (half credit)": "partial", "type (any overlap, same type)": "ent_type"}
CASES = {
    "moved boundaries": dict(moved=0.3),
    "re-typed entities": dict(retyped=0.3),
    "stray I- tags": dict(stray=0.03),
    "everything at once": dict(moved=0.15, dropped=0.1, retyped=0.15, stray=0.02, spurious=0.02),
}


@pytest.fixture(scope="module")
def gold():
    """(ids, texts, tag lists, classes) of the real gold: the tests that take it skip without the public data."""
    return real_gold()


def _family_result(tmp_path, gold, pred_tags, scheme):
    from scorer.api import Competition

    ids, texts, gold_tags, gold_classes = gold
    config = "task: bank_comments\nboard: all\noptions: {scheme: %s}\n" % scheme
    base = make_input(tmp_path, {"config.yaml": config, "gold.csv": gold_csv(ids, texts, gold_tags, gold_classes)},
                      {"submission.csv": submission_csv(ids, pred_tags, gold_classes)})
    comp = Competition.open(str(base / "ref"))
    return comp.score(comp.read_submission(str(base / "res")), "all")


def _en(value):
    """A report cell as the English page shows it (texts may be Messages), numbers as they are."""
    from scorer.report import words
    return value if isinstance(value, (int, float)) else words(value)


def _view_rows(result):
    section = next(s for s in result.report_sections() if _en(s.title).startswith("Partial-match views"))
    table = section.blocks[0]
    return [dict(zip(map(_en, table.headers), map(_en, row))) for row in table.rows]


def _iob2_entities(tag_lists):
    """Per document, nervaluate dicts of the entities seqeval finds under strict IOB2 (end inclusive)."""
    out = []
    for tags in tag_lists:
        entities = Tokens(tags, IOB2).entities if tags else []
        out.append([{"label": e.tag, "start": e.start, "end": e.end - 1} for e in entities])
    return out


def _assert_same(rows, decoding, expected):
    chosen = [r for r in rows if r["decoding"].startswith(decoding)]
    assert len(chosen) == 4, [r["decoding"] for r in rows]
    for row in chosen:
        theirs = expected[NERVALUATE[row["view"]]]
        for key in ("correct", "incorrect", "partial", "missed", "spurious"):
            assert row[key] == getattr(theirs, key), (row["view"], key, row[key], getattr(theirs, key))
        for key, attr in (("precision", "precision"), ("recall", "recall"), ("F1", "f1")):
            assert abs(row[key] - getattr(theirs, attr)) <= 1e-9, (row["view"], key)


@pytest.mark.parametrize("case", sorted(CASES))
def test_views_equal_nervaluate_on_real_gold(tmp_path, gold, case):
    gold_tags = gold[2]
    pred_tags, _ = perturb(gold_tags, gold[3], seed=100 + sorted(CASES).index(case), **CASES[case])
    result = _family_result(tmp_path, gold, pred_tags, "iob2")
    rows = _view_rows(result)
    conll = Evaluator(gold_tags, pred_tags, tags=list(TYPES), loader="list").evaluate()["overall"]
    _assert_same(rows, "conlleval", conll)
    iob2 = Evaluator(_iob2_entities(gold_tags), _iob2_entities(pred_tags), tags=list(TYPES),
                     loader="dict").evaluate()["overall"]
    _assert_same(rows, "strict IOB2", iob2)
    strict = next(r for r in rows if r["decoding"].startswith("strict IOB2") and r["view"].startswith("strict"))
    assert abs(strict["precision"] - result.scores["ner_precision"]) <= 1e-12
    assert abs(strict["recall"] - result.scores["ner_recall"]) <= 1e-12


def test_views_tell_apart_what_they_should(tmp_path, gold):
    """Re-typed entities: exact and partial still find them, strict does not; moved ones: type and partial do."""
    pred_tags, _ = perturb(gold[2], gold[3], seed=7, retyped=0.3, moved=0.3)
    rows = {r["view"]: r for r in _view_rows(_family_result(tmp_path, gold, pred_tags, "conlleval"))}
    assert len(rows) == 4  # scheme conlleval: one decoding only
    assert rows["exact boundaries (any type)"]["F1"] > rows["strict (boundaries and type)"]["F1"] + 0.1
    assert rows["type (any overlap, same type)"]["F1"] > rows["strict (boundaries and type)"]["F1"] + 0.1
    assert rows["partial overlap (half credit)"]["F1"] > rows["exact boundaries (any type)"]["F1"]


def _random_tags(rng, n, long_entities):
    out = []
    while len(out) < n:
        roll = rng.random()
        if roll < 0.4:
            out.append("O")
        elif roll < 0.7:
            kind = rng.choice(TYPES)
            length = rng.randint(1, 150 if long_entities and rng.random() < 0.2 else 4)
            out += ["B-" + kind] + ["I-" + kind] * (length - 1)
        else:
            out.append(rng.choice(("B-", "I-")) + rng.choice(TYPES))
    return out[:n]


def test_views_equal_nervaluate_on_random_tag_lists_with_long_entities():
    """Entities over 100 tokens: a prediction sharing under 1 % of one is not its candidate (nervaluate's rule)."""
    import random

    import numpy as np

    from scorer.metrics.entity_views import views
    from scorer.metrics.spans import CONLLEVAL, TagSet, decode

    code = {t: k for k, t in enumerate(TagSet(TYPES).tags)}
    rng = random.Random(11)
    compared = 0
    for trial in range(150):
        lengths = [rng.randint(1, 400 if trial % 3 == 0 else 40) for _ in range(rng.randint(1, 6))]
        gold = [_random_tags(rng, n, trial % 3 == 0) for n in lengths]
        pred = [_random_tags(rng, n, trial % 3 == 0) for n in lengths]
        doc_start = np.zeros(sum(lengths), dtype=bool)
        doc_start[np.cumsum([0] + lengths[:-1])] = True
        ours = views(*(decode(np.array([code[t] for doc in side for t in doc]), doc_start, CONLLEVAL)
                       for side in (gold, pred)))
        theirs = Evaluator(gold, pred, tags=list(TYPES), loader="list").evaluate()["overall"]
        for view, name in (("strict", "strict"), ("exact", "exact"), ("partial", "partial"), ("type", "ent_type")):
            o, t = ours[view], theirs[name]
            assert (o.correct, o.incorrect, o.partial, o.missed, o.spurious) == \
                (t.correct, t.incorrect, t.partial, t.missed, t.spurious), (trial, view)
            assert all(abs(a - b) <= 1e-12 for a, b in zip(o.prf(), (t.precision, t.recall, t.f1)))
            compared += 1
    assert compared == 600


@pytest.mark.parametrize("gold_length", [100, 101, 200])
def test_a_candidate_shares_at_least_one_percent_of_the_gold_entity(gold_length):
    """One shared token is exactly 1% of a 100-token entity (a candidate: nervaluate's min_overlap_percentage,
    met with equality) and less than 1% of a 101- or 200-token one (not a candidate: missed and spurious)."""
    import numpy as np
    from scorer.metrics.entity_views import views
    from scorer.metrics.spans import Spans

    gold = Spans(np.array([0]), np.array([gold_length]), np.array([0]))
    pred = Spans(np.array([gold_length - 1]), np.array([gold_length + 3]), np.array([0]))
    ours = views(gold, pred)
    theirs = Evaluator([[{"label": "X", "start": 0, "end": gold_length - 1}]],
                       [[{"label": "X", "start": gold_length - 1, "end": gold_length + 2}]], tags=["X"],
                       loader="dict").evaluate()["overall"]
    for view, name in (("strict", "strict"), ("exact", "exact"), ("partial", "partial"), ("type", "ent_type")):
        got = ours[view]
        expected = theirs[name]
        assert (got.correct, got.incorrect, got.partial, got.missed, got.spurious) == \
            (expected.correct, expected.incorrect, expected.partial, expected.missed, expected.spurious), view
