"""The classification report's numbers against scikit-learn: the per-class table, the confusion matrix (counts
and row-normalised shares) and where points are lost, on a hand-made board of three classes (one of them
never predicted, one predicted but never gold in a four-class task)."""
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


def test_confusion_matrix_counts_and_row_shares(sections):
    section = sections[C.MATRIX_TITLE.key]
    counts, shares = table(section, 0).rows, table(section, 1).rows
    order = [row[0] for row in counts[:-1]]
    assert order == ["cat", "dog", "bird", "fish"]
    labels = order
    expected = confusion_matrix(GOLD, PRED, labels=labels)
    for i, row in enumerate(counts[:-1]):
        assert row[1:-1] == expected[i].tolist() and row[-1] == expected[i].sum()
    assert counts[-1][1:] == expected.sum(axis=0).tolist() + [len(GOLD)]   # the predicted totals
    with np.errstate(invalid="ignore"):
        normalised = np.nan_to_num(confusion_matrix(GOLD, PRED, labels=labels, normalize="true"))
    for i, row in enumerate(shares):   # fish has no gold item: its row is 0 (scikit-learn: NaN, 0 by nan_to_num)
        assert row[0] == labels[i] and row[1:] == pytest.approx(normalised[i].tolist(), abs=1e-12)


def test_where_points_are_lost(sections):
    section = sections[C.LOST_TITLE.key]
    by_class, pairs = table(section, 0).rows, table(section, 1).rows
    p, r, f, support = precision_recall_fscore_support(GOLD, PRED, labels=CLASSES, zero_division=0)
    matrix = confusion_matrix(GOLD, PRED, labels=CLASSES)
    seen = [c for c in range(len(CLASSES)) if support[c] or matrix[:, c].sum()]   # the macro average's classes
    # by the macro F1 each costs, largest first: bird and fish (F1 0), then dog, then cat
    expected = sorted((c for c in seen if f[c] < 1), key=lambda c: (f[c], c))
    assert [row[0] for row in by_class] == [CLASSES[c] for c in expected] == ["bird", "fish", "dog", "cat"]
    for row in by_class:
        c = CLASSES.index(row[0])
        off = matrix[c].copy()
        off[c] = 0
        assert row[1:3] == pytest.approx([f[c], (1 - f[c]) / len(seen)], abs=1e-12)
        assert row[3:5] == [support[c] - matrix[c, c], matrix[:, c].sum() - matrix[c, c]]
        assert row[5] == (CLASSES[int(np.argmax(off))] if off.any() else "")
    # the most frequent confusions, by count, ties in the declared order of (gold, predicted): worked by hand,
    # dog -> cat twice (u06, u07), then cat -> dog, cat -> fish, bird -> cat, bird -> dog once each
    errors = len(GOLD) - int(np.trace(matrix))
    expected_pairs = sorted(((-matrix[g, p], g, p) for g in range(len(CLASSES)) for p in range(len(CLASSES))
                             if g != p and matrix[g, p]))
    assert [row[:3] for row in pairs] == [[CLASSES[g], CLASSES[p], -n] for n, g, p in expected_pairs] == [
        ["dog", "cat", 2], ["cat", "dog", 1], ["cat", "fish", 1], ["bird", "cat", 1], ["bird", "dog", 1]]
    assert [row[3] for row in pairs] == pytest.approx([row[2] / errors for row in pairs], abs=1e-12)
