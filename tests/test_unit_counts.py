"""Per-unit counts: summed over a board they give the board's scores, summed over part of it they give that part's.

A family's keys are one formula (``unit_scores``) of the column sums of its per-unit table: the board's own
scores are that formula of the whole table's sums (``Units.sums``, read from the same column declarations
as the rows), and intervals and paired tests apply it to the sums of resampled rows. That is only right if
the rows of any set of units sum to what scoring that set gives: checked here for every family and every
key that has counts, on whole boards and on random halves (the half scored by ``score`` on its own mask),
under several options.
"""
import numpy as np
import pytest
import yaml

from organizer.phase_data import assemble_reference
from scorer.api import Competition
from test_review_determinism import DEMOS, sample_files, spoil_board_b

# (family, option overrides): the demo's own options first, then other rules that change the formulas
CASES = [
    ("bank_comments", {}), ("bank_comments", {"scheme": "conlleval", "ner_weight": 0.3}),
    ("view_sentiment", {}),
    ("keywords", {}), ("keywords", {"mode": "legacy"}),
    ("multilabel", {}), ("multilabel", {"both_empty": "skip", "classes": "all", "beta": 2, "k": [1, 5]}),
    ("multilabel", {"both_empty": "zero", "classes": "gold", "map_denominator": "min_k_relevant"}),
    ("emotion_cause", {}), ("emotion_cause", {"mode": "clean"}),
    ("regression", {}), ("regression", {"rmsle": False, "smape_zero": "skip"}),
    ("classification", {}), ("classification", {"average": "weighted",
                                                "ordinal_order": ["good", "okay", "excellent", "poor", "terrible"]}),
    ("qa", {}),
    ("generation", {}), ("generation", {"bleu_tokenizer": "char", "lowercase": True, "rouge_stem": True,
                                        "rouge_tokenizer": "chinese"}),
]


def competition(tmp_path, family, options, board="A"):
    ref = assemble_reference(DEMOS[family][0] / "reference_data", board, tmp_path / ("ref_" + board), reveal=True)
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw["options"] = dict(raw.get("options") or {}, **options)
    if options:
        raw.pop("columns", None)   # labels of the demo's keys: other options write other keys
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return Competition.open(str(ref))


def submission(tmp_path, comp, family, spoiled=False):
    files = sample_files(family)
    if spoiled:
        files = spoil_board_b(family, files)
    res = tmp_path / ("res_spoiled" if spoiled else "res")
    res.mkdir(exist_ok=True)
    for name, data in files.items():
        (res / name).write_bytes(data)
    return comp.read_submission(str(res))


@pytest.mark.parametrize("family,options", CASES, ids=lambda v: str(v).replace(" ", ""))
def test_summed_counts_give_the_scores_of_any_set_of_units(tmp_path, family, options):
    comp = competition(tmp_path, family, options)
    rng = np.random.default_rng(7)
    covered = set()
    for spoiled in (False, True):
        sub = submission(tmp_path, comp, family, spoiled)
        for board in ("A", "B"):
            mask = comp.boards.mask(board)
            result = comp.family.score(comp.reference, sub, mask, comp.cfg)
            half = mask & (rng.random(len(mask)) < 0.5)
            on_half = comp.family.score(comp.reference, sub, half, comp.cfg).scores
            for group in result.units:
                table = group.make()
                assert table.shape[0] == int(mask.sum())
                # the rows add up to the sums the scores come from, and every key is the formula of those sums
                np.testing.assert_allclose(table.sum(axis=0), group.sums(), rtol=1e-12, atol=1e-9)
                formula = comp.family.unit_scores(group.name, group.sums(), comp.cfg)
                assert all(result.scores[key] == float(formula[key]) for key in group.keys), group.name
                whole = comp.family.unit_scores(group.name, table.sum(axis=0), comp.cfg)
                part = comp.family.unit_scores(group.name, table[half[mask]].sum(axis=0), comp.cfg)
                for key in group.keys:   # relative too: a regression error is in the units of the data
                    assert float(whole[key]) == pytest.approx(result.scores[key], rel=1e-12, abs=1e-12), (group.name, key)
                    assert float(part[key]) == pytest.approx(on_half[key], rel=1e-12, abs=1e-12), (group.name, key)
                    covered.add(key)
    keys = comp.family.leaderboard_keys(comp.cfg.options)
    # every key has counts but those that rank all the units at once: multi-label macro AP (the samples of a
    # class against each other), regression's median absolute error, Spearman and Kendall
    assert covered == set(keys) - {"macro_ap", "median_ae", "spearman", "kendall"}


def test_stacked_sums_give_the_scores_of_each_row(tmp_path):
    """unit_scores on a stack of sums (what the bootstrap passes) equals it row by row."""
    for family, options in CASES:
        comp = competition(tmp_path / family / str(len(options)), family, options)
        sub = submission(tmp_path / family / str(len(options)), comp, family)
        result = comp.score(sub)
        rng = np.random.default_rng(3)
        for group in result.units:
            table = group.make()
            weights = rng.multinomial(len(table), np.full(len(table), 1.0 / len(table)), size=5)
            sums = weights @ table
            stacked = comp.family.unit_scores(group.name, sums, comp.cfg)
            for r in range(5):
                one = comp.family.unit_scores(group.name, sums[r], comp.cfg)
                for key in group.keys:
                    assert float(stacked[key][r]) == pytest.approx(float(one[key]), abs=1e-12), (family, key)


def test_bank_counts_by_hand():
    """Two comments worked by hand: one entity right and one spurious in the first; classes 0->0 and 1->2."""
    import types
    from scorer.tasks.bank_comments import FAMILY

    cfg = types.SimpleNamespace(options={"ner_weight": 0.5})
    # comment 1: tp 1, pred 2, gold 1, class cell (0, 0); comment 2: tp 0, pred 0, gold 1, cell (1, 2)
    table = np.zeros((2, 12))
    table[0, :3] = [1, 2, 1]
    table[0, 3 + 0] = 1
    table[1, :3] = [0, 0, 1]
    table[1, 3 + 1 * 3 + 2] = 1
    got = FAMILY.unit_scores("comments", table.sum(axis=0), cfg)
    # P = 1/2, R = 1/2, F1 = 1/2; accuracy 1/2; kappa: po = 1/2, pe = (1*1 + 1*0 + 0*1) / 4 = 1/4 -> 1/3
    assert float(got["ner_f1"]) == pytest.approx(0.5) and float(got["class_accuracy"]) == pytest.approx(0.5)
    assert float(got["kappa"]) == pytest.approx(1 / 3) and float(got["score"]) == pytest.approx(0.5 * 0.5 + 0.5 / 3)


def test_every_demo_result_names_the_unit_noun_in_both_languages():
    from scorer.tasks import families

    for family in families().values():
        texts = family.unit_noun.texts
        assert texts["en"] and texts["zh"] and texts["en"] != texts["zh"], family.name
