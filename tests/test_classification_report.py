"""The classification report's numbers against scikit-learn: the per-class table, the confusion matrix (one heat
map of the counts) and the most frequent confusions, on a hand-made board of three classes (one of them never
predicted, one predicted but never gold in a four-class task); each table of the page once."""
import numpy as np
import pytest
import yaml
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

from scorer.api import Competition
from scorer.tasks import classification as C

CLASSES = ["cat", "dog", "bird", "fish"]
GOLD = ["cat"] * 5 + ["dog"] * 3 + ["bird"] * 2
PRED = ["cat", "cat", "cat", "dog", "fish", "dog", "cat", "cat", "cat", "dog"]


@pytest.fixture(scope="module")
def sections(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    (base / "ref").mkdir()
    (base / "res").mkdir()
    (base / "ref" / "labels.txt").write_text("\n".join(CLASSES) + "\n", encoding="utf-8")
    ids = ["u%02d" % i for i in range(len(GOLD))]
    (base / "ref" / "gold.csv").write_text("id,label\n" + "".join("%s,%s\n" % r for r in zip(ids, GOLD)))
    (base / "res" / "s.csv").write_text("id,label\n" + "".join("%s,%s\n" % r for r in zip(ids, PRED)))
    raw = {"task": "classification", "board": "all"}
    (base / "ref" / "config.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    comp = Competition.open(str(base / "ref"))
    result = comp.score(comp.read_submission(str(base / "res")), "all")
    return {s.title.key: s for s in result.report_sections()}


def table(section, k=0):
    return [b for b in section.blocks if hasattr(b, "rows") and hasattr(b, "headers")][k]


def name(cell):
    return cell if isinstance(cell, str) else cell.key


def test_per_class_table(sections):
    rows = table(sections[C.CLASS_TITLE.key]).rows
    p, r, f, support = precision_recall_fscore_support(GOLD, PRED, labels=CLASSES, zero_division=0)
    matrix = confusion_matrix(GOLD, PRED, labels=CLASSES)
    # classes by gold count, largest first, ties in the declared order: cat 5, dog 3, bird 2, fish 0
    assert [row[0] for row in rows] == ["cat", "dog", "bird", "fish"]
    for row in rows:
        c = CLASSES.index(row[0])
        assert row[1:4] == [support[c], matrix[:, c].sum(), matrix[c, c]]
        assert row[4:7] == pytest.approx([p[c], r[c], f[c]], abs=1e-12)


def test_per_class_table_names_the_class_each_is_most_often_taken_for(sections):
    rows = table(sections[C.CLASS_TITLE.key]).rows
    matrix = confusion_matrix(GOLD, PRED, labels=CLASSES)
    for row in rows:
        c = CLASSES.index(row[0])
        off = matrix[c].copy()
        off[c] = 0
        # the most frequent wrong prediction of the class (first declared on ties), none when never wrong
        assert row[-1] == (CLASSES[int(np.argmax(off))] if off.any() else "")
    assert [row[-1] for row in rows] == ["dog", "cat", "cat", ""]   # bird: cat and dog once each: cat first


def test_the_confusion_matrix_is_one_heat_map_of_the_counts(sections):
    from scorer import report

    blocks = sections[C.MATRIX_TITLE.key].blocks
    assert len(blocks) == 1 and isinstance(blocks[0], report.Heatmap)   # each table once: no counts or shares tables
    heat = blocks[0]
    assert heat.rows == heat.columns == ["cat", "dog", "bird", "fish"]   # by gold count, ties in declared order
    assert heat.matrix == confusion_matrix(GOLD, PRED, labels=heat.rows).tolist()


def test_each_table_of_the_page_once(sections):
    """The scores table holds every key: no section repeats them in a table of its own, and the confusions are
    the heat map's counts, listed once by frequency."""
    from scorer import report

    tables = [b for s in sections.values() for b in s.blocks if isinstance(b, report.Table)]
    assert len(tables) == 2   # per class, and the most frequent confusions
    assert set(sections) == {C.HOW_TITLE.key, C.CLASS_TITLE.key, C.MATRIX_TITLE.key, C.LOST_TITLE.key}


def test_the_most_frequent_confusions(sections):
    pairs = table(sections[C.LOST_TITLE.key]).rows
    matrix = confusion_matrix(GOLD, PRED, labels=CLASSES)
    # the most frequent confusions, by count, ties in the declared order of (gold, predicted): worked by hand,
    # dog -> cat twice (u06, u07), then cat -> dog, cat -> fish, bird -> cat, bird -> dog once each
    errors = len(GOLD) - int(np.trace(matrix))
    expected_pairs = sorted(((-matrix[g, p], g, p) for g in range(len(CLASSES)) for p in range(len(CLASSES))
                             if g != p and matrix[g, p]))
    assert [row[:3] for row in pairs] == [[CLASSES[g], CLASSES[p], -n] for n, g, p in expected_pairs] == [
        ["dog", "cat", 2], ["cat", "dog", 1], ["cat", "fish", 1], ["bird", "cat", 1], ["bird", "dog", 1]]
    assert [row[3] for row in pairs] == pytest.approx([row[2] / errors for row in pairs], abs=1e-12)
