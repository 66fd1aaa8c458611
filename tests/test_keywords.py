"""Keyword sets: the document's worked example, scikit-learn on the real CSL keywords, boards."""
import csv
import unicodedata

import numpy as np
import pandas as pd
import pytest

from helpers import make_input, read_scores, run_score, shared

KEYS = ["macro_f1", "macro_precision", "macro_recall", "f1_of_macro_pr", "micro_f1", "micro_precision",
        "micro_recall"]


def config(board="all", **options):
    text = "task: keywords\nboard: %s\n" % board
    if board != "all":
        text += "boards: {file: boards.csv}\n"
    if options:
        text += "options: {%s}\n" % ", ".join("%s: %s" % kv for kv in options.items())
    return text


def score(tmp_path, gold, pred, name="input", extra_ref=None, **cfg):
    ref = {"config.yaml": config(**cfg), "gold.csv": gold}
    ref.update(extra_ref or {})
    inp = make_input(tmp_path, ref, {"prediction.csv": pred}, name=name)
    out = tmp_path / (name + "_out")
    proc = run_score(inp, out)
    assert proc.returncode == 0, proc.stderr
    return read_scores(out), out


# The source document: answer {1: {'你好,小米'}, 2: {'铅笔', '自动'}}, predict {1: {'小米'}, 2: {'气球', '自动'}}
DOC_GOLD = 'id,keywords\n1,"你好,小米"\n2,铅笔_自动\n'
DOC_PRED = "id,keywords\n1,小米\n2,气球_自动\n"


def test_document_example_in_legacy_mode(tmp_path):
    scores, _ = score(tmp_path, DOC_GOLD, DOC_PRED, mode="legacy")
    assert scores["micro_precision"] == pytest.approx(1 / 3, abs=1e-9)
    assert scores["micro_recall"] == pytest.approx(1 / 3, abs=1e-9)
    assert scores["macro_precision"] == pytest.approx(0.25, abs=1e-9)
    assert scores["macro_recall"] == pytest.approx(0.25, abs=1e-9)
    # per sample F: 0 and 2*1/(2+2) = 0.5
    assert scores["macro_f1"] == pytest.approx(0.25, abs=1e-9)
    assert scores["micro_f1"] == pytest.approx(1 / 3, abs=1e-9)


def test_missing_and_empty_predictions_count_as_zero_by_default_and_are_skipped_in_legacy(tmp_path):
    gold = DOC_GOLD + "3,钢笔_墨水\n4,纸张\n"
    pred = DOC_PRED + "4,\n"                     # 3 has no row, 4 an empty cell
    default, _ = score(tmp_path, gold, pred, name="all")
    # samples: (c, |G|, |P|) = (0, 1, 1), (1, 2, 2), (0, 2, 0), (0, 1, 0)
    assert default["macro_precision"] == pytest.approx((0 + 0.5 + 0 + 0) / 4, abs=1e-9)
    assert default["macro_recall"] == pytest.approx((0 + 0.5 + 0 + 0) / 4, abs=1e-9)
    assert default["macro_f1"] == pytest.approx((0 + 0.5 + 0 + 0) / 4, abs=1e-9)
    assert default["micro_precision"] == pytest.approx(1 / 3, abs=1e-9)
    assert default["micro_recall"] == pytest.approx(1 / 6, abs=1e-9)
    assert default["micro_f1"] == pytest.approx(2 * (1 / 3) * (1 / 6) / (1 / 3 + 1 / 6), abs=1e-9)
    legacy, _ = score(tmp_path, gold, pred, name="legacy", mode="legacy")
    assert legacy["micro_recall"] == pytest.approx(1 / 3, abs=1e-9)  # the document rewards silence
    assert legacy["macro_recall"] == pytest.approx(0.25, abs=1e-9)


def test_the_two_macro_f1_definitions(tmp_path):
    gold = "id,keywords\na,x\nb,p_q_r_s\n"
    pred = "id,keywords\na,x_y\nb,p\n"
    scores, _ = score(tmp_path, gold, pred)
    # a: c 1, |P| 2, |G| 1 -> P 1/2, R 1, F 2/3;  b: c 1, |P| 1, |G| 4 -> P 1, R 1/4, F 2/5
    assert scores["macro_f1"] == pytest.approx((2 / 3 + 2 / 5) / 2, abs=1e-9)          # mean F = 8/15
    mean_p, mean_r = (1 / 2 + 1) / 2, (1 + 1 / 4) / 2                                # 3/4 and 5/8
    assert scores["f1_of_macro_pr"] == pytest.approx(2 * mean_p * mean_r / (mean_p + mean_r), abs=1e-9)  # 15/22
    assert abs(scores["f1_of_macro_pr"] - scores["macro_f1"]) > 0.1


def test_repeated_keywords_count_once_and_empty_pieces_are_no_keyword(tmp_path):
    scores, _ = score(tmp_path, "id,keywords\na,x_y\n", "id,keywords\na,x_x__z_\n")
    # P = {x, z}: c = 1, |P| = 2, |G| = 2
    assert scores["micro_precision"] == 0.5 and scores["micro_recall"] == 0.5


def test_separator_and_normalisation_options(tmp_path):
    gold = "id\tkeywords\n1\tＡＢＣ;数据 挖掘\n2\tx\n"
    pred = "id\tkeywords\n1\tabc ; 数据 挖掘\n2\tX\n"
    plain, _ = score(tmp_path, gold, pred, name="plain", keyword_separator='";"')
    # no normalisation: "ＡＢＣ" != "abc ", "数据 挖掘" != " 数据 挖掘" and "x" != "X"
    assert plain["micro_precision"] == 0.0
    full, out = score(tmp_path, gold, pred, name="full", keyword_separator='";"',
                      normalisation="[strip, nfkc, casefold]")
    assert full == {k: 1.0 for k in KEYS}
    assert "after strip+nfkc+casefold" in (out / "detailed_results.html").read_text(encoding="utf-8")


def test_board_a_outputs_say_nothing_of_board_b_rows(tmp_path):
    gold = "id,keywords\nvis1,甲词_乙词\nvis2,丙词\nhid1,秘密一_秘密二\nhid2,秘密三\n"
    pred = "id,keywords\nvis1,甲词\nhid1,秘密一_猜测\nhid2,秘密三\n"
    boards = "id,board\nvis1,A\nvis2,A\nhid1,B\nhid2,B\n"
    inp = make_input(tmp_path, {"config.yaml": config(board="A"), "gold.csv": gold, "boards.csv": boards},
                     {"prediction.csv": pred})
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    texts = [proc.stdout, proc.stderr] + [(tmp_path / "out" / f).read_text(encoding="utf-8")
                                          for f in ("scores.txt", "scores.json", "detailed_results.html")]
    for text in texts:
        for secret in ("hid", "秘密", "猜测"):
            assert secret not in text
    scores = read_scores(tmp_path / "out")
    assert scores["macro_recall"] == pytest.approx((1 / 2 + 0) / 2)   # by hand: vis1 1 of 2, vis2 missing
    assert scores["micro_precision"] == 1.0



def sample_table(tmp_path, gold, pred, name, **options):
    """The report's table of samples (what each row counts) of scoring ``pred`` against ``gold``."""
    from scorer.api import Competition
    from scorer.tasks.keywords import SAMPLE_ROWS, SAMPLES_TITLE

    inp = make_input(tmp_path, {"config.yaml": config(**options), "gold.csv": gold}, {"prediction.csv": pred},
                     name=name)
    comp = Competition.open(str(inp / "ref"))
    result = comp.score(comp.read_submission(str(inp / "res")))
    section = next(s for s in result.sections if s.title is SAMPLES_TITLE)
    rows = section.blocks[0].rows
    assert [label for label, _ in rows] == list(SAMPLE_ROWS)
    return [n for _, n in rows]


def test_the_report_counts_samples_by_their_f_worked_by_hand(tmp_path):
    # (c, |P|, |G|) and F = 2c / (|P| + |G|): a (1, 1, 1) 1; b (1, 2, 2) 1/2; c (0, 1, 1) 0; d no row;
    # e empty; f gold empty, (0, 1, 0) 0; g (3, 3, 3) 1; h (2, 3, 2) 4/5
    gold = "id,keywords\na,x\nb,x_y\nc,x\nd,p_q\ne,q\nf,\ng,x_y_z\nh,m_n\n"
    pred = "id,keywords\na,x\nb,x_z\nc,y\ne,\nf,r\ng,z_y_x\nh,m_n_o\n"
    # on board, counted, no row, empty row, F = 1 (a, g), 0 < F < 1 (b, h), none right (c, f), gold empty (f)
    assert sample_table(tmp_path, gold, pred, "all") == [8, 8, 1, 1, 2, 2, 2, 1]
    # legacy counts only samples with a gold and a predicted keyword: a, b, c, g, h
    assert sample_table(tmp_path, gold, pred, "legacy", mode="legacy") == [8, 5, 1, 1, 2, 2, 2, 1]

# -- scikit-learn on the real CSL keywords -----------------------------------------------------

def csl_gold():
    frame = pd.read_csv(shared("keywords", "csl_kg", "test.tsv"), sep="\t", header=None, dtype=str,
                        keep_default_na=False, quoting=csv.QUOTE_NONE)
    ids = ["csl%04d" % i for i in range(len(frame))]
    # CSL splits some chemical names at their commas (" 2", " 4-三唑"); the table reader drops spaces at the
    # start of a cell, so surrounding spaces are taken off here to keep the oracle's sets equal to ours
    return ids, [set(k.strip() for k in cell.split("_") if k.strip()) for cell in frame[2]]


def perturb(gold_sets, seed):
    """Dropped, added, replaced keywords, empty rows and missing rows (None)."""
    rng = np.random.RandomState(seed)
    vocabulary = sorted(set().union(*gold_sets))
    out = []
    for keywords in gold_sets:
        roll = rng.rand()
        if roll < 0.05:
            out.append(None)
            continue
        if roll < 0.10:
            out.append(set())
            continue
        kept = {k for k in sorted(keywords) if rng.rand() > 0.3}
        replaced = {vocabulary[rng.randint(len(vocabulary))] for k in sorted(keywords) if rng.rand() < 0.15}
        added = {vocabulary[rng.randint(len(vocabulary))] for _ in range(rng.randint(0, 3))}
        out.append(kept | replaced | added)
    return out


def sklearn_scores(gold_sets, pred_sets):
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    pred_sets = [p if p is not None else set() for p in pred_sets]
    binarizer = MultiLabelBinarizer(sparse_output=True).fit(gold_sets + pred_sets)
    y_true, y_pred = binarizer.transform(gold_sets), binarizer.transform(pred_sets)
    out = {}
    for average, prefix in (("samples", "macro"), ("micro", "micro")):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        out.update({prefix + "_precision": p, prefix + "_recall": r, prefix + "_f1": f})
    # per-sample precision and recall: each sample is a "label" of the transposed matrices
    p_s, r_s, _, _ = precision_recall_fscore_support(y_true.T.tocsr(), y_pred.T.tocsr(), average=None,
                                                     zero_division=0)
    mean_p, mean_r = float(np.mean(p_s)), float(np.mean(r_s))
    out["f1_of_macro_pr"] = 2 * mean_p * mean_r / (mean_p + mean_r) if mean_p + mean_r else 0.0
    return out


def files(ids, gold_sets, pred_sets, sep=","):
    gold = pd.DataFrame({"id": ids, "keywords": ["_".join(sorted(g)) for g in gold_sets]})
    rows = [(i, "_".join(sorted(p))) for i, p in zip(ids, pred_sets) if p is not None]
    pred = pd.DataFrame(rows, columns=["id", "keywords"]).sample(frac=1.0, random_state=0)  # any row order
    return gold.to_csv(index=False), pred.to_csv(index=False, sep=sep)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_csl_against_sklearn(tmp_path, seed):
    ids, gold_sets = csl_gold()
    pred_sets = perturb(gold_sets, seed)
    gold, pred = files(ids, gold_sets, pred_sets, sep="\t" if seed % 2 else ",")
    ours, _ = score(tmp_path, gold, pred)
    expected = sklearn_scores(gold_sets, pred_sets)
    for key in KEYS:
        assert ours[key] == pytest.approx(expected[key], abs=1e-9), key
    assert ours["f1_of_macro_pr"] > ours["macro_f1"] + 1e-3  # the two definitions really differ here

    # legacy = sklearn on the samples with a non-empty prediction (CSL has no empty gold set)
    assert all(gold_sets)
    kept = [i for i, p in enumerate(pred_sets) if p]
    legacy, _ = score(tmp_path, gold, pred, name="legacy", mode="legacy")
    expected = sklearn_scores([gold_sets[i] for i in kept], [pred_sets[i] for i in kept])
    for key in KEYS:
        assert legacy[key] == pytest.approx(expected[key], abs=1e-9), key


def _shout(sets, seed):
    """Each keyword upper-cased after NFKC (half the time) and given a trailing space (a fifth); None stays."""
    rng = np.random.RandomState(seed)
    return [None if s is None else
            {(unicodedata.normalize("NFKC", k).upper() if rng.rand() < 0.5 else k) + (" " if rng.rand() < 0.2 else "")
             for k in sorted(s)} for s in sets]


def _normalised(sets):
    return [set() if s is None else {unicodedata.normalize("NFKC", k.strip()).casefold().strip() for k in s}
            for s in sets]


def test_csl_normalised_against_sklearn(tmp_path):
    ids, gold_sets = csl_gold()
    pred_sets = _shout(perturb(gold_sets, 7), seed=5)   # one prediction per gold sample, None = missing row
    assert len(pred_sets) == len(gold_sets) and any(p is None for p in pred_sets)
    gold, pred = files(ids, gold_sets, pred_sets)
    ours, _ = score(tmp_path, gold, pred, normalisation="[strip, nfkc, casefold]")
    expected = sklearn_scores(_normalised(gold_sets), _normalised(pred_sets))
    for key in KEYS:
        assert ours[key] == pytest.approx(expected[key], abs=1e-9), key
    plain, _ = score(tmp_path, gold, pred, name="plain")
    assert plain["micro_precision"] < ours["micro_precision"]
    # the gold itself, shouted, scores 1 once normalised: predictions sit beside their own gold sample
    gold, pred = files(ids, gold_sets, _shout(gold_sets, seed=6))
    same, _ = score(tmp_path, gold, pred, name="same", normalisation="[strip, nfkc, casefold]")
    assert same == {k: 1.0 for k in KEYS}


def test_gold_as_prediction_scores_one(tmp_path):
    ids, gold_sets = csl_gold()
    gold, pred = files(ids, gold_sets, gold_sets)
    scores, _ = score(tmp_path, gold, pred)
    assert scores == {k: 1.0 for k in KEYS}
