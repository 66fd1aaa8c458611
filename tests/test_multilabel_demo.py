"""The shipped multi-label demo competition, and what a board-A run may depend on."""
import filecmp
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from helpers import ROOT, read_scores

DEMO = ROOT / "examples" / "multilabel"
SAMPLE = DEMO / "starting_kit" / "sample_submission.csv"
OUTPUTS = ("scores.txt", "scores.json", "detailed_results.html")


def _score_board(board, submission, out):
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "score_board.py"), str(DEMO), board,
                           str(submission), str(out)], capture_output=True, text=True, timeout=600)
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
    assert 0.2 < scores["micro_f1"] < 0.8  # the baseline is neither empty nor the gold


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


def test_shipped_demo_data_is_the_generator_output(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "demo_data" / "multilabel.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for name in ("reference_data/gold.csv", "reference_data/labels.txt", "starting_kit/labels.txt",
                 "starting_kit/test_public.csv", "starting_kit/sample_submission.csv", "logo.png"):
        assert filecmp.cmp(tmp_path / name, DEMO / name, shallow=False), name
    size = sum(p.stat().st_size for p in DEMO.rglob("*") if p.is_file())
    assert size < 1_000_000
