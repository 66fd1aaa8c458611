"""validate.py's warnings for classification: one class on every row, probability columns in another order than
labels.txt. Each file stays valid (the platform scores it, exit 0), and the warning says what is wrong and how to
fix it; a clean file has none. (Rows that are no probabilities are no warning: a probabilities competition refuses
them, a labels competition reads only each row's highest column.)"""
import numpy as np
import pandas as pd
from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score

from helpers import ROOT
from test_kit_warnings import platform_scores, validate, warnings_of, write

DEMO = ROOT / "examples" / "classification"
CLASSES = (DEMO / "starting_kit" / "labels.txt").read_text(encoding="utf-8").split()
IDS = pd.read_csv(DEMO / "starting_kit" / "test_public.csv", dtype=str, keep_default_na=False)["id"].tolist()


def probability_rows(columns, proba, decimals=3):
    return ["%s,%s" % (i, ",".join("%.*f" % (decimals, v) for v in row)) for i, row in zip(IDS, proba[:, columns])]


def model(seed=0):
    """Probabilities of every test item, rows summing to 1."""
    raw = np.random.default_rng(seed).random((len(IDS), len(CLASSES))) + 0.05
    return raw / raw.sum(axis=1, keepdims=True)


def test_one_class_on_every_row_is_a_warning_and_scores_as_a_constant_guess(tmp_path):
    path = write(tmp_path, "same.csv", "id,label", ["%s,good" % i for i in IDS])
    lines, code = validate("classification", path)
    assert code == 0 and lines[0].startswith("same.csv: valid"), lines
    assert warnings_of(lines) == [
        "all 4,000 rows predict the same class ('good'): that scores like a constant guess (balanced accuracy "
        "1/5 at best, kappa 0). Predict the class of each item."]
    # what the warning says, by scikit-learn on board A's items: balanced accuracy 1/5 (every class has gold
    # items there), kappa 0
    gold = pd.read_csv(DEMO / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)
    boards = pd.read_csv(DEMO / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    y = gold.loc[gold["id"].isin(set(boards.loc[boards["board"] == "A", "id"])), "label"]
    scores = platform_scores("classification", path, tmp_path)
    assert scores["balanced_accuracy"] == round(balanced_accuracy_score(y, ["good"] * len(y)), 4) == 0.2
    assert scores["cohen_kappa"] == round(cohen_kappa_score(y, ["good"] * len(y)), 4) == 0


def test_a_clean_probability_file_has_no_warning():
    lines, code = validate("classification", DEMO / "starting_kit" / "sample_submission.csv")
    assert code == 0 and len(lines) == 1, lines


def test_clean_probabilities_in_the_declared_order_have_no_warning(tmp_path):
    path = write(tmp_path, "clean.csv", "id," + ",".join(CLASSES), probability_rows(range(len(CLASSES)), model()))
    lines, code = validate("classification", path)
    assert code == 0 and len(lines) == 1, lines   # three decimals: a row sums to 1 within 0.005


def test_scores_that_are_no_probabilities_are_no_problem_where_labels_are_scored(tmp_path):
    """The demo scores labels: a file of per-class columns counts by each row's highest one, so rows off 1 or
    negative scores are neither a problem nor a warning (a probabilities competition refuses them:
    tests/test_classification_probabilities.py)."""
    proba = model()
    proba[:3] *= 2            # three rows summing to 2
    proba[10:12] -= 0.5       # two rows with negative values, summing to -1.5
    path = write(tmp_path, "scores.csv", "id," + ",".join(CLASSES), probability_rows(range(len(CLASSES)), proba))
    lines, code = validate("classification", path)
    assert code == 0 and len(lines) == 1 and "no problems found" in lines[0], lines
    platform_scores("classification", path, tmp_path)


def test_columns_in_another_order_than_labels_txt_are_a_warning(tmp_path):
    order = list(range(len(CLASSES)))[::-1]
    header = "id," + ",".join(CLASSES[c] for c in order)
    path = write(tmp_path, "reversed.csv", header, probability_rows(order, model()))
    lines, code = validate("classification", path)
    assert code == 0 and warnings_of(lines) == [
        "the probability columns are in another order (%s) than labels.txt (%s). Columns are read by their "
        "names; check that each column holds the probability of the class it names (a model's own class order "
        "may differ from labels.txt)." % (",".join(CLASSES[::-1]), ",".join(CLASSES))], lines
    # read by name: the same numbers under the declared order score the same
    same = write(tmp_path, "declared.csv", "id," + ",".join(CLASSES), probability_rows(range(len(CLASSES)), model()))
    assert platform_scores("classification", path, tmp_path / "r") == platform_scores("classification", same,
                                                                                       tmp_path / "d")


def test_id_problems_of_a_probability_file_are_those_of_a_label_file(tmp_path):
    """Once every probability is read, only the ids and lines of the file are kept for its messages: an unknown
    id (line 4), an id given again (line 5, first on line 2) and a test item with no row are reported on the
    same lines, with the same ids, as in a label file with those rows."""
    ids = IDS[:-1]                      # the last test item has no row
    ids[2], ids[3] = "nope", ids[0]     # line 4: no test item; line 5: the id of line 2 again
    proba = model()[:len(ids)]
    rows = ["%s,%s" % (i, ",".join("%.3f" % v for v in row)) for i, row in zip(ids, proba)]
    by_proba, code = validate("classification", write(tmp_path, "p.csv", "id," + ",".join(CLASSES), rows))
    assert code == 1
    by_label, code = validate("classification", write(tmp_path, "p.csv", "id,label", ["%s,good" % i for i in ids]))
    assert code == 1
    assert by_proba == by_label
    problems = " ".join(by_proba)
    assert "line 4" in problems and "'nope'" in problems and "line 5" in problems and IDS[-1] in problems
