"""Every classification key against scikit-learn, on seeded random cases and on the edge cases by name.

Each case writes labels.txt, gold.csv and a submission (``id,label`` or one probability column per class, the
columns shuffled), scores it through the engine (files -> read -> score) and compares every key with
scikit-learn computed here on the same items, to 1e-9. The edges come up in the generator on purpose (one
class in the gold, classes absent from the gold, ties in the probabilities, one predicted class, a single
item, two classes and more) and have tests of their own below.

Where the project decides otherwise than scikit-learn (docs/classification.md, "Decisions"), the oracle
is scikit-learn on the question the project answers, said at each place:

- a kappa scikit-learn leaves undefined (NaN: every item has one and the same gold and predicted class) is
  1.0 here;
- a ROC AUC scikit-learn leaves undefined (NaN: the board's gold has one class) is 0.0 here, and one-vs-rest
  AUC and AP average the classes that have gold items (where scikit-learn's multi-class call returns NaN or
  refuses): the oracle is then scikit-learn's binary AUC and AP of each such class, averaged here;
- log loss: each row divided by its sum before clipping (Kaggle's multi-class log loss; scikit-learn >= 1.5 does
  not divide, which is the same for a row summing to 1), the sum's additions in the declared class order, then
  clipped at eps (``log_loss_eps``; scikit-learn >= 1.5 has no eps and clips at the machine epsilon): the oracle
  gets the rows so divided and clipped;
- ``probability_rows: rescale``: every probability key of the rows divided by their sums (the same division);
- with ``submission: labels`` a file of per-class columns may hold any scores (negative, rows off 1): only the
  labels of its rows are scored;
- top-k ties: scikit-learn ranks the later of two equal columns first, the project the class declared first;
  the oracle gets the classes renumbered in reverse declared order.

Which keys are written is the rule of docs/classification.md ("Scores"), restated in ``written_keys``: no key that
another equals by definition.
"""
import warnings

import numpy as np
import pytest
import yaml
from sklearn.metrics import (accuracy_score, average_precision_score, balanced_accuracy_score, cohen_kappa_score,
                             log_loss, matthews_corrcoef, precision_recall_fscore_support, roc_auc_score,
                             top_k_accuracy_score)

from scorer.api import Competition

EXACT = 1e-9
CASES_PER_SEED = 10
SEEDS = range(24)   # 240 random cases
NAMES = ["neg", "pos", "Neutral", "b_2", "k9", "zeta", "\u4e2d\u6027", "x-1"]


# -- a case --------------------------------------------------------------------------------------------------
def random_case(rng):
    """(classes, gold codes, submission, options): submission is ('labels', codes) or ('probabilities', matrix)."""
    width = int(rng.choice([2, 2, 3, 4, 5, 8]))
    classes = [str(c) for c in rng.permutation(NAMES)[:width]]
    n = int(rng.choice([1, 2, 3, 5, 10, 30, 80]))
    kind = rng.integers(6)
    present = width if kind else 1                       # one kind in six: a single class in the gold
    if kind == 1 and width > 2:
        present = int(rng.integers(2, width))             # some classes absent from the gold
    gold = rng.choice(rng.permutation(width)[:present], size=n)
    options = {"average": str(rng.choice(["macro", "weighted"] + (["binary"] if width == 2 else [])))}
    if width == 2 and rng.random() < 0.5:
        options["positive_class"] = classes[int(rng.integers(2))]
    if width > 2 and rng.random() < 0.5:
        options["ordinal_order"] = [classes[c] for c in rng.permutation(width)]
        if rng.random() < 0.5:
            options["ordinal_weights"] = "linear"
    if rng.random() < 0.4:
        style = rng.integers(5)
        if style == 4:   # a file of raw scores in a labels competition: only each row's label counts
            return classes, gold, ("probabilities", rng.normal(0, 3, size=(n, width))), dict(options,
                                                                                            submission="labels")
        codes = (gold.copy() if style == 0 else np.full(n, rng.integers(width)) if style == 1
                 else np.where(rng.random(n) < 0.6, gold, rng.integers(width, size=n)))
        return classes, gold, ("labels", codes), dict(options, submission="labels")
    if width > 2 and rng.random() < 0.5:
        options["top_k"] = int(rng.integers(2, width))
    if rng.random() < 0.3:
        options["log_loss_eps"] = float(rng.choice([1e-15, 1e-7, 0.01]))
    style = rng.integers(6)
    if style == 0:     # a coarse grid: many ties within rows and between items
        proba = rng.integers(0, 4, size=(n, width)).astype(float)
        proba[proba.sum(axis=1) == 0, 0] = 1.0
        proba /= proba.sum(axis=1, keepdims=True)
    elif style == 1:   # every row the same
        proba = np.tile(rng.dirichlet(np.ones(width)), (n, 1))
    elif style == 2:   # non-negative scores that are no probabilities, rescaled by the organizer's choice
        proba = np.abs(rng.normal(0.5, 0.6, size=(n, width)))
        proba[proba.sum(axis=1) == 0, 0] = 1.0
        options["probability_rows"] = "rescale"
    elif style == 3:   # one-hot rows, some of them right
        proba = np.eye(width)[np.where(rng.random(n) < 0.5, gold, rng.integers(width, size=n))]
    elif style == 4:   # rounded to 2 decimals: rows off 1 by less than the tolerance
        proba = rng.dirichlet(np.ones(width), size=n) + 0.8 * np.eye(width)[gold]
        proba = np.round(proba / proba.sum(axis=1, keepdims=True), 2)
        proba[np.abs(proba.sum(axis=1) - 1) > 0.0099] = np.eye(width)[0]   # (the tolerance: 0.01)
    else:              # a model that leans towards the gold
        proba = rng.dirichlet(np.ones(width), size=n) + 0.8 * np.eye(width)[gold]
        proba /= proba.sum(axis=1, keepdims=True)
    if style != 2 and rng.random() < 0.25:
        options["probability_rows"] = "rescale"   # probabilities rescaled too: nothing changes but the last bits
    return classes, gold, ("probabilities", proba), dict(options, submission="probabilities")


def written_keys(options, width):
    """docs/classification.md: f1, precision, recall (not with weighted: its recall is accuracy), accuracy, balanced
    accuracy, the other averaging's P/R/F1 but the weighted recall, the kappas (with an order, the quadratic one
    or, with ordinal_weights linear, the linear one), MCC; with probabilities log loss, ROC AUC, AP and top-k accuracy (with top_k)."""
    average = options["average"]
    keys = {"f1", "precision", "accuracy", "balanced_accuracy", "cohen_kappa", "mcc"}
    keys |= set() if average == "weighted" else {"recall"}
    keys |= set() if average == "macro" else {"macro_f1", "macro_precision", "macro_recall"}
    keys |= set() if average == "weighted" else {"weighted_f1", "weighted_precision"}
    weighted = "%s_weighted_kappa" % options.get("ordinal_weights", "quadratic")
    keys |= {weighted} if options.get("ordinal_order") else set()
    if options["submission"] == "probabilities":
        keys |= {"log_loss", "roc_auc", "average_precision"} | ({"top_k_accuracy"} if options.get("top_k") else set())
    return keys


def divided(proba):
    """Each row divided by its sum, the columns added in the declared order (the documented additions)."""
    total = proba[:, 0].copy()
    for k in range(1, proba.shape[1]):
        total += proba[:, k]
    return proba / total[:, None]


def write_case(folder, classes, gold, submission, options, rng=None):
    folder.mkdir(parents=True)
    (folder / "ref").mkdir()
    (folder / "res").mkdir()
    (folder / "ref" / "labels.txt").write_text("\n".join(classes) + "\n", encoding="utf-8")
    ids = ["u%03d" % i for i in range(len(gold))]
    (folder / "ref" / "gold.csv").write_text(
        "id,label\n" + "".join("%s,%s\n" % (i, classes[g]) for i, g in zip(ids, gold)), encoding="utf-8")
    form, values = submission
    order = np.arange(len(gold)) if rng is None else rng.permutation(len(gold))   # rows in any order
    if form == "labels":
        text = "id,label\n" + "".join("%s,%s\n" % (ids[i], classes[values[i]]) for i in order)
    else:
        columns = np.arange(len(classes)) if rng is None else rng.permutation(len(classes))
        text = "id," + ",".join(classes[c] for c in columns) + "\n" + "".join(
            ids[i] + "," + ",".join(repr(float(values[i, c])) for c in columns) + "\n" for i in order)
    (folder / "res" / "submission.csv").write_text(text, encoding="utf-8")
    raw = {"task": "classification", "board": "all",
           "files": {"gold": "gold.csv", "labels": "labels.txt", "submission": "*.csv"}, "options": options}
    (folder / "ref" / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")


def ours(folder):
    comp = Competition.open(str(folder / "ref"))
    return comp.score(comp.read_submission(str(folder / "res")), "all").scores


# -- scikit-learn on the same items ------------------------------------------------------------------------------
def oracle(classes, gold, submission, options):
    """Every key as scikit-learn computes it (with the adjustments the module docstring lists)."""
    width = len(classes)
    names = np.asarray(classes, dtype=object)
    form, values = submission
    if form == "probabilities" and options.get("probability_rows") == "rescale":
        values = divided(values)
    codes = values if form == "labels" else np.argmax(values, axis=1)   # numpy: the first highest column
    y, p = names[gold], names[codes]
    positive = options.get("positive_class") or classes[1]
    out = {"accuracy": accuracy_score(y, p), "balanced_accuracy": balanced_accuracy_score(y, p),
           "mcc": matthews_corrcoef(y, p)}
    for average in ("macro", "micro", "weighted"):
        pr, rc, f, _ = precision_recall_fscore_support(y, p, average=average, zero_division=0)
        out.update({average + "_precision": pr, average + "_recall": rc, average + "_f1": f})
    if options["average"] == "binary":
        pr, rc, f, _ = precision_recall_fscore_support(y, p, average="binary", pos_label=positive,
                                                       labels=[c for c in classes if c != positive] + [positive],
                                                       zero_division=0)
        out.update(precision=pr, recall=rc, f1=f)
    else:
        out.update({k: out["%s_%s" % (options["average"], k)] for k in ("precision", "recall", "f1")})
    one_class = len(set(y)) == 1 and set(y) == set(p)
    kappa = cohen_kappa_score(y, p)
    out["cohen_kappa"] = 1.0 if one_class else kappa                    # scikit-learn: NaN there
    order = options.get("ordinal_order") or classes
    qwk = cohen_kappa_score(y, p, weights="quadratic", labels=order)
    out["quadratic_weighted_kappa"] = 1.0 if one_class else qwk
    lwk = cohen_kappa_score(y, p, weights="linear", labels=order)
    out["linear_weighted_kappa"] = 1.0 if one_class else lwk
    assert np.isnan(kappa) == one_class and np.isnan(qwk) == one_class and np.isnan(lwk) == one_class
    if options["submission"] == "probabilities":
        out.update(probability_oracle(classes, gold, values, options, positive))
    return out


def probability_oracle(classes, gold, proba, options, positive):
    width = len(classes)
    names = np.asarray(classes, dtype=object)
    y = names[gold]
    eps = options.get("log_loss_eps") or np.finfo(float).eps
    by_name = np.argsort(names)   # scikit-learn's probability columns are the labels in sorted order
    out = {"log_loss": log_loss(y, np.clip(divided(proba), eps, 1 - eps)[:, by_name], labels=list(names[by_name]))}
    if options.get("top_k"):
        # renumber the classes in reverse declared order, so that scikit-learn's tie rule is the project's
        out["top_k_accuracy"] = top_k_accuracy_score(width - 1 - gold, proba[:, ::-1], k=options["top_k"],
                                                     labels=list(range(width)))
    present = np.bincount(gold, minlength=width) > 0
    if width == 2:
        c = classes.index(positive)
        auc = roc_auc_score(gold == c, proba[:, c]) if present.all() else np.nan
        out["roc_auc"] = 0.0 if np.isnan(auc) else auc   # scikit-learn: NaN
        out["average_precision"] = average_precision_score(gold == c, proba[:, c])
        return out
    normalised = np.allclose(proba.sum(axis=1), 1.0, rtol=np.sqrt(np.finfo(float).eps)) and (proba >= 0).all()
    if present.all() and normalised:
        out["roc_auc"] = roc_auc_score(y, proba[:, by_name], multi_class="ovr", labels=list(names[by_name]))
    else:   # per class, as scikit-learn's one-vs-rest does, over the classes that both occur and do not
        defined = [c for c in range(width) if 0 < (gold == c).sum() < len(gold)]
        auc = {c: roc_auc_score(gold == c, proba[:, c]) for c in defined}
        out["roc_auc"] = np.mean(list(auc.values())) if auc else 0.0
    if present.all():
        out["average_precision"] = average_precision_score(gold, proba)   # multi-class: the codes are sorted
    else:
        out["average_precision"] = np.mean([average_precision_score(gold == c, proba[:, c])
                                            for c in range(width) if present[c]])
    return out


def as_read(folder, classes, n):
    """The submitted numbers as the program reads them: pandas' C parser (docs: a value is read as pandas reads a
    float column), rows put back in the items' order."""
    import pandas as pd

    frame = pd.read_csv(folder / "res" / "submission.csv", dtype={"id": str}).set_index("id")
    return frame.loc[["u%03d" % i for i in range(n)], classes].to_numpy(dtype=float)


def check(folder, case):
    classes, gold, submission, options = case
    if submission[0] == "probabilities":   # what the file says, as read (a 17-digit value may read an ulp away)
        submission = ("probabilities", as_read(folder, classes, len(gold)))
    got = ours(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = oracle(classes, gold, submission, options)
    assert set(got) == written_keys(options, len(classes)), sorted(set(got) ^ written_keys(options, len(classes)))
    for key, value in got.items():
        assert abs(value - float(expected[key])) <= EXACT, (key, value, float(expected[key]), options)
    return got


@pytest.mark.parametrize("seed", SEEDS)
def test_every_key_equals_sklearn_on_random_cases(tmp_path, seed):
    for k in range(CASES_PER_SEED):
        case = random_case(np.random.default_rng([seed, k]))
        write_case(tmp_path / str(k), *case, rng=np.random.default_rng([seed, k, 1]))
        check(tmp_path / str(k), case)


def test_the_random_cases_cover_every_edge():
    """The generator above does reach each edge the scores must survive, often."""
    seen = {"binary": 0, "multi-class": 0, "one gold class": 0, "absent class": 0, "single item": 0,
            "constant prediction": 0, "tied probabilities": 0, "rows off 1": 0, "labels": 0, "probabilities": 0}
    for seed in SEEDS:
        for k in range(CASES_PER_SEED):
            classes, gold, (form, values), options = random_case(np.random.default_rng([seed, k]))
            codes = values if form == "labels" else np.argmax(values, axis=1)
            seen["binary" if len(classes) == 2 else "multi-class"] += 1
            seen["one gold class"] += len(set(gold)) == 1
            seen["absent class"] += len(set(gold)) < len(classes)
            seen["single item"] += len(gold) == 1
            seen["constant prediction"] += len(set(codes)) == 1
            seen[form] += 1
            if form == "probabilities":
                seen["tied probabilities"] += any(len(set(row)) < len(row) for row in values)
                seen["rows off 1"] += not np.allclose(values.sum(axis=1), 1)
    assert min(seen.values()) >= 10, seen


# -- the edges by name ----------------------------------------------------------------------------------------
def run_case(tmp_path, classes, gold, submission, options):
    case = (classes, np.asarray(gold), submission, options)
    write_case(tmp_path / "case", *case)
    return check(tmp_path / "case", case)


def test_one_class_in_the_gold_and_the_prediction_is_perfect_agreement(tmp_path):
    got = run_case(tmp_path, ["a", "b", "c"], [1, 1, 1], ("labels", np.array([1, 1, 1])),
                   {"average": "macro", "submission": "labels", "ordinal_order": ["a", "b", "c"]})
    assert got["cohen_kappa"] == got["quadratic_weighted_kappa"] == 1.0 and got["mcc"] == 0.0


def test_ties_in_probabilities_go_to_the_class_declared_first(tmp_path):
    # labels a, b, a (each row's first highest column): all wrong; top 2 of the rows: (a, b), (b, c), (a, b), so
    # the gold b, c, c is among them on the first two rows only (c ties with b on the third and comes after it)
    proba = np.array([[0.4, 0.4, 0.2], [0.2, 0.4, 0.4], [0.5, 0.25, 0.25]])
    got = run_case(tmp_path, ["a", "b", "c"], [1, 2, 2], ("probabilities", proba),
                   {"average": "macro", "submission": "probabilities", "top_k": 2})
    assert got["accuracy"] == 0.0 and got["top_k_accuracy"] == pytest.approx(2 / 3)


def test_a_single_item(tmp_path):
    got = run_case(tmp_path, ["a", "b"], [0], ("probabilities", np.array([[0.3, 0.7]])),
                   {"average": "binary", "submission": "probabilities", "positive_class": "a"})
    assert got["roc_auc"] == 0.0   # one gold class: no AUC (scikit-learn: NaN)


def test_a_class_absent_from_the_gold_is_left_out_of_one_vs_rest(tmp_path):
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.5, 0.4, 0.1], [0.2, 0.2, 0.6]])
    got = run_case(tmp_path, ["a", "b", "c"], [0, 2, 0, 2], ("probabilities", proba),
                   {"average": "macro", "submission": "probabilities"})
    assert got["roc_auc"] == 1.0 and got["average_precision"] == 1.0   # b has no gold item: not averaged


def test_constant_predictions_score_as_scikit_learn_says(tmp_path):
    run_case(tmp_path, ["a", "b", "c", "d"], [0, 1, 2, 3, 3], ("labels", np.array([3] * 5)),
             {"average": "weighted", "submission": "labels"})


def test_the_ordinal_order_changes_only_the_quadratic_kappa(tmp_path):
    gold, pred = [0, 0, 1, 2, 2, 1, 0], np.array([2, 0, 1, 2, 0, 0, 1])
    first = run_case(tmp_path / "1", ["a", "b", "c"], gold, ("labels", pred),
                     {"average": "macro", "submission": "labels", "ordinal_order": ["a", "b", "c"]})
    second = run_case(tmp_path / "2", ["a", "b", "c"], gold, ("labels", pred),
                      {"average": "macro", "submission": "labels", "ordinal_order": ["b", "a", "c"]})
    assert first["quadratic_weighted_kappa"] != second["quadratic_weighted_kappa"]
    assert {k: v for k, v in first.items() if k != "quadratic_weighted_kappa"} == \
        {k: v for k, v in second.items() if k != "quadratic_weighted_kappa"}
    # without a declared order the classes have none: no such key
    assert "quadratic_weighted_kappa" not in run_case(tmp_path / "3", ["a", "b", "c"], gold, ("labels", pred),
                                                      {"average": "macro", "submission": "labels"})


def test_linear_weights_change_only_the_weighted_kappa(tmp_path):
    """gold a a b c c b a, predicted c a b c a a b on a < b < c: distances 2 0 0 0 2 1 1, O = 6; margins gold
    and predicted (3, 2, 2), sum_ij |i - j| gold_i pred_j = 3 (1*2 + 2*2) + 2 (1*3 + 1*2) + 2 (2*3 + 1*2) = 44,
    E = 44/7: linear kappa 1 - 6 / (44/7) = 1/22, worked by hand (the other keys as with quadratic weights)."""
    gold, pred = [0, 0, 1, 2, 2, 1, 0], np.array([2, 0, 1, 2, 0, 0, 1])
    options = {"average": "macro", "submission": "labels", "ordinal_order": ["a", "b", "c"]}
    quadratic = run_case(tmp_path / "1", ["a", "b", "c"], gold, ("labels", pred), options)
    linear = run_case(tmp_path / "2", ["a", "b", "c"], gold, ("labels", pred), dict(options, ordinal_weights="linear"))
    assert linear["linear_weighted_kappa"] == pytest.approx(1 / 22, abs=1e-12)
    assert "quadratic_weighted_kappa" not in linear and "linear_weighted_kappa" not in quadratic
    assert {k: v for k, v in linear.items() if k != "linear_weighted_kappa"} == \
        {k: v for k, v in quadratic.items() if k != "quadratic_weighted_kappa"}


def test_a_competition_made_with_linear_weights_scores_and_says_them(tmp_path):
    """``organizer new --option ordinal_weights=linear`` on the demo's data: the leaderboard column, the pages and
    the kit's README name the linear-weighted kappa, and the kit's sample scores on each board what scikit-learn's
    ``cohen_kappa_score(weights="linear")`` gives on that board's items, the page's note naming the weights."""
    import pandas as pd

    from helpers import ROOT, organizer, read_scores_json

    demo = ROOT / "examples" / "classification"
    scale = ["terrible", "poor", "okay", "good", "excellent"]
    gold = pd.read_csv(demo / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)
    public = pd.read_csv(demo / "starting_kit" / "test_public.csv", dtype=str, keep_default_na=False)
    public.merge(gold, on="id").to_csv(tmp_path / "gold.csv", index=False)
    comp = tmp_path / "comp"
    proc = organizer("new", "classification", tmp_path / "gold.csv", comp, "--title", "Ratings", "--no-check",
                     "--labels", demo / "reference_data" / "labels.txt", "--option",
                     "ordinal_order=[%s]" % ",".join(scale), "--option", "ordinal_weights=linear")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "linear_weighted_kappa:" in (comp / "competition.yaml").read_text(encoding="utf-8")
    for page in (comp / "pages" / "evaluation.html", comp / "starting_kit" / "README.md"):
        text = page.read_text(encoding="utf-8")
        assert "linear-weighted kappa" in text and "quadratic" not in text, page
        # the fragment joins the sentence with its own space (a stripped one read "kappa**and the")
        assert ("**Cohen's kappa** and the **linear-weighted kappa**" in text if page.suffix == ".md"
                else "kappa</b> and the <b>linear-weighted" in text), page
    sample = comp / "starting_kit" / "sample_submission.csv"
    predicted = pd.read_csv(sample, dtype=str, keep_default_na=False).set_index("id")["label"]
    boards = pd.read_csv(comp / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    for board in ("A", "B"):
        proc = organizer("score", comp, board, sample, tmp_path / board, "--reveal")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        got = read_scores_json(tmp_path / board / "output")
        assert "quadratic_weighted_kappa" not in got
        on = gold[gold["id"].isin(set(boards.loc[boards["board"] == board, "id"]))]
        want = cohen_kappa_score(on["label"], predicted[on["id"]], weights="linear", labels=scale)
        assert abs(got["linear_weighted_kappa"] - want) <= 1e-9, (board, got["linear_weighted_kappa"], want)
        page = (tmp_path / board / "output" / "detailed_results.html").read_text(encoding="utf-8")
        assert "The linear-weighted kappa places the classes on the scale" in page


@pytest.mark.parametrize("order", ["C", "F"])
def test_the_label_of_a_probability_row_is_its_first_highest_column(order):
    """A row's label is its first highest column (ties: the class declared first), as numpy's argmax gives it,
    whatever the matrix's layout; values on a coarse grid so that rows hold ties, signed zeros among them."""
    from scorer.tasks.classification import first_highest
    rng = np.random.default_rng(4)
    for width in (2, 3, 7):
        proba = np.round(rng.random((5000, width)) * 4) / 4 * rng.choice([-1.0, 1.0], size=(5000, width))
        proba = np.asarray(proba, order=order)
        assert np.array_equal(first_highest(proba), np.argmax(np.ascontiguousarray(proba), axis=1))
