"""View-sentiment pairs: hand-worked counters, the real gold against a real system output, boards."""
import csv
from collections import Counter

import pandas as pd
import pytest

from helpers import as_platform, make_input, read_scores, run_score, shared

SENTENCES = "SentenceId\n001\n002\n003\n1\n12\n"
GOLD = ("SentenceId\tView\tOpinion\n"
        "001\t大众\tpos\n"
        "001\t宝马\tneu\n"
        "002\t奥迪\tneg\n"
        "003\t丰田\tneu\n"
        "1\t2号\tpos\n")
# tp: 001 大众, 002 奥迪; fp: 001 宝马 (pos for neu); fn2: 002 本田 and 12 号;
# fn1: 003 丰田 and 1 2号. With the source's str(id) + View key, "12"+"号" would equal "1"+"2号".
PRED = ("SentenceId,View,Opinion\n"
        "001,大众,pos\n"
        "001,宝马,pos\n"
        "002,奥迪,neg\n"
        "002,本田,neu\n"
        "12,号,pos\n")


def config(board="all", **options):
    text = "task: view_sentiment\nboard: %s\nprivate_output: true\n" % board  # the notes are checked
    if board != "all":
        text += "boards: {file: boards.csv}\n"
    if options:
        text += "options: {%s}\n" % ", ".join("%s: %s" % kv for kv in options.items())
    return text


def score(tmp_path, gold, pred, sentences=SENTENCES, name="input", extra_ref=None, **cfg):
    ref = {"config.yaml": config(**cfg), "gold.csv": gold, "sentences.csv": sentences}
    ref.update(extra_ref or {})
    inp = as_platform(make_input(tmp_path, ref, {"result.csv": pred}, name=name), "codalab_v1")  # notes in private/
    out = tmp_path / (name + "_out")
    proc = run_score(inp, out)
    assert proc.returncode == 0, proc.stderr
    return read_scores(out), out


def test_every_counter_by_hand(tmp_path):
    scores, out = score(tmp_path, GOLD, PRED)
    tp, fp, fn1, fn2 = 2, 1, 2, 2
    p, r = tp / (tp + fp + fn2), tp / (tp + fn1)                     # 2/5, 2/4
    assert scores["precision"] == pytest.approx(0.4, abs=1e-9) == pytest.approx(p)
    assert scores["recall"] == pytest.approx(0.5, abs=1e-9) == pytest.approx(r)
    assert scores["f1"] == pytest.approx(4 / 9, abs=1e-9)
    assert scores["view_precision"] == pytest.approx(3 / 5, abs=1e-9)  # 3 views found of 5 predicted
    assert scores["view_recall"] == pytest.approx(3 / 5, abs=1e-9)     # of 5 gold views
    assert scores["view_f1"] == pytest.approx(3 / 5, abs=1e-9)
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    for row in ("<td class=\"t\">tp: views found with the right opinion</td><td>2</td>",
                "<td class=\"t\">fp: views found with a wrong opinion</td><td>1</td>",
                "<td class=\"t\">fn1: gold views missed</td><td>2</td>",
                "<td class=\"t\">fn2: predicted views that are no gold view</td><td>2</td>",
                # gold rows, predicted columns, both by gold count (pos 2, neu 2, neg 1), then the views not
                # found (fn1: 1 2号 pos, 003 丰田 neu) and the row total; the spurious views (fn2: 002 本田 neu,
                # 12 号 pos) are a row of their own
                "<td class=\"t\">pos</td><td>1</td><td>0</td><td>0</td><td>1</td><td>2</td>",
                "<td class=\"t\">neu</td><td>1</td><td>0</td><td>0</td><td>1</td><td>2</td>",
                "<td class=\"t\">neg</td><td>0</td><td>0</td><td>1</td><td>0</td><td>1</td>",
                "<td class=\"t\">(no gold view)</td><td>1</td><td>1</td><td>0</td><td class=\"t\"></td><td>2</td>",
                "<td class=\"t\">predicted total</td><td>3</td><td>1</td><td>1</td><td class=\"t\"></td><td class=\"t\"></td>"):
        assert row in page, row


def to_chinese(text):
    for en, zh in (("pos", "正面"), ("neu", "中性"), ("neg", "负面")):
        text = text.replace(",%s\n" % en, ",%s\n" % zh).replace("\t%s\n" % en, "\t%s\n" % zh)
    return text


def test_tab_and_comma_and_chinese_labels_give_the_same_scores(tmp_path):
    base, _ = score(tmp_path, GOLD, PRED, name="comma")
    tab, _ = score(tmp_path, GOLD, PRED.replace(",", "\t"), name="tab")
    chinese, _ = score(tmp_path, to_chinese(GOLD), to_chinese(PRED), name="zh", opinion_labels="zh")
    upper, _ = score(tmp_path, GOLD, PRED.replace(",pos", ",POS"), name="upper")
    assert base == tab == chinese == upper


def test_padded_ids_are_text(tmp_path):
    sentences = "SentenceId\n028171\n28171\n"
    gold = "SentenceId,View,Opinion\n028171,大众,pos\n28171,大众,neg\n"
    scores, _ = score(tmp_path, gold, "SentenceId,View,Opinion\n028171,大众,pos\n", sentences=sentences)
    assert scores["precision"] == 1.0 and scores["recall"] == 0.5  # 28171 is another sentence


def test_repeated_gold_keys_count_once_and_any_listed_opinion_is_right(tmp_path):
    gold = ("SentenceId,View,Opinion\n001,大众,pos\n001,大众,neg\n"   # conflicting repeat
            "002,奥迪,neu\n002,奥迪,neu\n")                           # identical repeat
    pred = "SentenceId,View,Opinion\n001,大众,neg\n002,奥迪,pos\n"
    scores, out = score(tmp_path, gold, pred)
    # 2 gold views (not 4), both found: tp = 1 (neg is listed for 001 大众), fp = 1
    assert scores["view_recall"] == 1.0 and scores["view_precision"] == 1.0
    assert scores["precision"] == pytest.approx(0.5) and scores["recall"] == pytest.approx(1 / 1)
    notes = (out / "private" / "reference_notes.txt").read_text(encoding="utf-8")
    assert "2 (SentenceId, View) key(s) more than once (4 rows)" in notes


def test_identical_repeated_rows_merge_only_when_configured(tmp_path):
    pred = PRED + "001,大众,pos\n"
    merged, out = score(tmp_path, GOLD, pred, repeated_rows="merge_identical")
    plain, _ = score(tmp_path, GOLD, PRED, name="plain")
    assert merged == plain
    assert "1 row(s) repeated an earlier row exactly" in (out / "detailed_results.html").read_text(encoding="utf-8")


def test_a_sentence_without_rows_is_no_error_and_nothing_predicted_scores_zero(tmp_path):
    scores, _ = score(tmp_path, GOLD, "SentenceId,View,Opinion\n003,宝马,neu\n")
    assert scores == {k: 0.0 for k in scores}


def test_a_board_is_scored_on_its_sentences_only(tmp_path):
    boards = "id,board\n001,A\n002,B\n003,A\n1,B\n12,B\n"
    a, _ = score(tmp_path, GOLD, PRED, name="a", board="A", extra_ref={"boards.csv": boards})
    # by hand on sentences 001 and 003: gold 大众 宝马 丰田; predicted 大众 (right) 宝马 (wrong)
    assert a["precision"] == pytest.approx(1 / 2) and a["recall"] == pytest.approx(1 / (1 + 1))
    assert a["view_precision"] == 1.0 and a["view_recall"] == pytest.approx(2 / 3)
    b, _ = score(tmp_path, GOLD, PRED, name="b", board="B", extra_ref={"boards.csv": boards})
    # sentences 002, 1, 12: gold 奥迪 2号; predicted 奥迪 (right) 本田 号 (spurious)
    assert b["precision"] == pytest.approx(1 / 3) and b["recall"] == pytest.approx(1 / 2)


def test_board_a_outputs_say_nothing_of_board_b_rows(tmp_path):
    sentences = "SentenceId\nS01\nS02\nS03\nS04\nS05\n"
    gold = ("SentenceId\tView\tOpinion\nS01\t可见甲\tpos\nS02\t可见乙\tneu\n"
            "S04\t隐藏丙\tneg\nS05\t隐藏丁\tneu\nS05\t隐藏戊\tpos\n")
    pred = ("SentenceId\tView\tOpinion\nS01\t可见甲\tpos\nS03\t可见己\tneu\n"
            "S04\t隐藏丙\tpos\nS05\t隐藏庚\tneg\n")
    boards = "id,board\nS01,A\nS02,A\nS03,A\nS04,B\nS05,B\n"
    inp = make_input(tmp_path, {"config.yaml": config(board="A"), "gold.csv": gold, "sentences.csv": sentences,
                                "boards.csv": boards}, {"result.csv": pred})
    out = tmp_path / "out"
    proc = run_score(inp, out)
    assert proc.returncode == 0, proc.stderr
    texts = [proc.stdout, proc.stderr] + [(out / f).read_text(encoding="utf-8")
                                          for f in ("scores.txt", "scores.json", "detailed_results.html")]
    for text in texts:
        for secret in ("S04", "S05", "隐藏"):
            assert secret not in text
    assert "可见" not in "".join(texts)  # no row content at all, only counts


# -- the real gold against a real system output ------------------------------------------------

def _rows(path, sep):
    frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)
    return list(zip(frame["SentenceId"], frame["View"], frame["Opinion"]))


def independent_counts(gold_rows, pred_rows):
    """The document's definitions on Python sets of (SentenceId, View) tuples."""
    gold_keys = {(s, v) for s, v, _ in gold_rows}
    pred_keys = {(s, v) for s, v, _ in pred_rows}
    gold_pairs = {(s, v, o) for s, v, o in gold_rows}
    pred_pairs = {(s, v, o) for s, v, o in pred_rows}
    tn = len(gold_keys & pred_keys)
    tp = len(gold_pairs & pred_pairs)
    return {"tp": tp, "fp": tn - tp, "fn1": len(gold_keys) - tn, "fn2": len(pred_keys) - tn,
            "gold": len(gold_keys), "pred": len(pred_keys), "repeats": Counter((s, v) for s, v, _ in pred_rows)}


def test_real_gold_against_real_system_output(tmp_path):
    folder = shared("view_sentiment")
    gold_path = folder / "alt_derrickcyt" / "train_label.csv"
    pred_path = folder / "alt_derrickcyt" / "simple_match_result_on_train.csv"
    c = independent_counts(_rows(gold_path, "\t"), _rows(pred_path, ","))
    # the committed result file's counts, as its source notes give them
    assert (c["tp"], c["fp"], c["fn1"], c["fn2"]) == (5460, 4805, 706, 1529)

    ref = {"config.yaml": config(repeated_rows="merge_identical"),
           "gold.csv": gold_path.read_bytes(), "sentences.csv": (folder / "Train.csv").read_bytes()}
    inp = as_platform(make_input(tmp_path, ref, {"result.csv": pred_path.read_bytes()}), "codalab_v1")
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "out")
    p = c["tp"] / (c["tp"] + c["fp"] + c["fn2"])
    r = c["tp"] / (c["tp"] + c["fn1"])
    tn = c["tp"] + c["fp"]
    assert scores["precision"] == pytest.approx(p, abs=1e-9)
    assert scores["recall"] == pytest.approx(r, abs=1e-9)
    assert scores["f1"] == pytest.approx(2 * p * r / (p + r), abs=1e-9)
    assert scores["view_precision"] == pytest.approx(tn / c["pred"], abs=1e-9)
    assert scores["view_recall"] == pytest.approx(tn / c["gold"], abs=1e-9)
    notes = (tmp_path / "out" / "private" / "reference_notes.txt").read_text(encoding="utf-8")
    assert "7 (SentenceId, View) key(s) more than once" in notes

    # the default refuses the output's 68 exact repeats: the first is named
    assert sum(n - 1 for n in c["repeats"].values()) == 68
    inp = make_input(tmp_path, dict(ref, **{"config.yaml": config()}), {"result.csv": pred_path.read_bytes()},
                     name="strict")
    proc = run_score(inp, tmp_path / "strict_out")
    assert proc.returncode == 1 and "is given again" in proc.stderr


def test_real_gold_against_itself_and_sklearn_confusion(tmp_path):
    """A damaged copy of the real gold: our 3x3 table equals scikit-learn's confusion matrix of the matches."""
    from sklearn.metrics import confusion_matrix

    folder = shared("view_sentiment")
    gold = pd.read_csv(folder / "Label.csv", sep="\t", dtype=str, keep_default_na=False)
    pred = gold.drop_duplicates(["SentenceId", "View"]).sample(frac=0.9, random_state=3).reset_index(drop=True)
    flip = pred.index % 7 == 0
    pred.loc[flip, "Opinion"] = pred.loc[flip, "Opinion"].map({"pos": "neg", "neg": "neu", "neu": "pos"})
    sentences = pd.concat([pd.read_csv(folder / f, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)
                           for f in ("Train.csv",)])[["SentenceId"]]
    sentences = pd.concat([sentences, gold[["SentenceId"]]]).drop_duplicates()
    ref = {"config.yaml": config(), "gold.csv": (folder / "Label.csv").read_bytes(),
           "sentences.csv": sentences.to_csv(index=False)}
    inp = make_input(tmp_path, ref, {"result.csv": pred.to_csv(index=False, sep="\t")})
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    # gold repeats are identical in Label.csv, so each key has one opinion
    first = gold.drop_duplicates(["SentenceId", "View"])
    joined = pred.merge(first, on=["SentenceId", "View"], suffixes=("_p", "_g"))
    # gold rows, predicted columns, classes by their number of gold views
    support = first["Opinion"].value_counts()
    order = sorted(["pos", "neu", "neg"], key=lambda c: (-support.get(c, 0), ["pos", "neu", "neg"].index(c)))
    matrix = confusion_matrix(joined["Opinion_g"], joined["Opinion_p"], labels=order)
    found = first.merge(pred[["SentenceId", "View"]], on=["SentenceId", "View"], how="left", indicator=True)
    missed = found.loc[found["_merge"] == "left_only", "Opinion"].value_counts()
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    for i, name in enumerate(order):
        row = "<td class=\"t\">%s</td>%s<td>%d</td><td>%d</td>" % (name, "".join("<td>%d</td>" % v for v in matrix[i]),
                                                       missed.get(name, 0), matrix[i].sum() + missed.get(name, 0))
        assert row in page, row
    assert page.index(">%s</td>" % order[0]) < page.index(">%s</td>" % order[2])
    scores = read_scores(tmp_path / "out")
    assert scores["view_precision"] == 1.0
    assert scores["view_recall"] == pytest.approx(len(pred) / len(first), abs=1e-9)
    assert scores["precision"] == pytest.approx(matrix.trace() / len(pred), abs=1e-9)
