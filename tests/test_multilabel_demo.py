"""The shipped multi-label demo competition, and what a board-A run may depend on."""
import filecmp

import pandas as pd
import pytest
import yaml

from helpers import ROOT, organizer, read_scores

DEMO = ROOT / "examples" / "multilabel"
SAMPLE = DEMO / "starting_kit" / "sample_submission.csv"
OUTPUTS = ("scores.txt", "scores.json", "detailed_results.html")


def _score_board(board, submission, out):
    """The board as the organizer sees it once revealed (board B is sealed while its phase runs)."""
    proc = organizer("score", DEMO, board, submission, out, "--reveal")
    assert proc.returncode == 0, proc.stderr
    return out / "output"


@pytest.mark.parametrize("board", ["A", "B"])
def test_demo_boards_score_with_the_leaderboard_keys(tmp_path, board):
    out = _score_board(board, SAMPLE, tmp_path / board)
    scores = read_scores(out)
    columns = yaml.safe_load((DEMO / "competition.yaml").read_text(encoding="utf-8"))["leaderboard"]["columns"]
    # every column, in order, primary (micro_f1) first; then keys the leaderboard does not show
    assert list(scores)[:len(columns)] == list(columns)
    assert list(scores)[len(columns):] == ["label_ranking_avg_precision", "coverage_error", "label_ranking_loss",
                                           "macro_ap"]
    assert all(len(k) <= 36 and ":" not in k for k in scores)
    # the primary key against scikit-learn: the predicted set is every listed topic with score >= 0.5
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    boards = pd.read_csv(DEMO / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    ids = set(boards.loc[boards["board"] == board, "id"])
    gold = pd.read_csv(DEMO / "reference_data" / "gold.csv", dtype=str, keep_default_na=False).set_index("id")
    pred = pd.read_csv(SAMPLE, dtype=str, keep_default_na=False).set_index("id")
    order = sorted(ids)
    predicted = [[l for l, s in zip(pred.at[i, "labels"].split(), pred.at[i, "scores"].split()) if float(s) >= 0.5]
                 for i in order]
    binarizer = MultiLabelBinarizer(classes=(DEMO / "reference_data" / "labels.txt").read_text().split())
    expected = f1_score(binarizer.fit_transform([gold.at[i, "labels"].split() for i in order]),
                        binarizer.transform(predicted), average="micro", zero_division=0)
    assert scores["micro_f1"] == pytest.approx(expected, abs=1e-9)


def test_board_a_outputs_ignore_board_b_rows(tmp_path):
    boards = pd.read_csv(DEMO / "reference_data" / "boards.csv", dtype=str, keep_default_na=False)
    hidden = set(boards.loc[boards["board"] == "B", "id"])
    sample = pd.read_csv(SAMPLE, dtype=str, keep_default_na=False)
    changed = sample.copy()
    on_b = changed["id"].isin(hidden)
    changed.loc[on_b, "labels"] = "praise billing"  # another answer on every board-B row...
    changed.loc[on_b, "scores"] = "0.99 0.98"
    changed.loc[on_b.to_numpy().nonzero()[0][::2], ["labels", "scores"]] = ""  # ...or none at all
    other = tmp_path / "changed.csv"
    changed.to_csv(other, index=False, lineterminator="\n")

    first = _score_board("A", SAMPLE, tmp_path / "first")
    second = _score_board("A", other, tmp_path / "second")
    for name in OUTPUTS:
        assert filecmp.cmp(first / name, second / name, shallow=False), name
    final_a = _score_board("B", SAMPLE, tmp_path / "b1")
    final_b = _score_board("B", other, tmp_path / "b2")
    assert read_scores(final_a) != read_scores(final_b)  # the change is visible where it belongs
