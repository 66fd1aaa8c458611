"""The emotion-cause demo competition: board A never depends on board B."""
import json

import pandas as pd

from helpers import ROOT, organizer, read_scores

DEMO = ROOT / "examples" / "emotion_cause"
SUBMISSION = DEMO / "starting_kit" / "submission"


def score_board(board, submission, out):
    """The board as the organizer sees it once revealed (board B is sealed while its phase runs)."""
    proc = organizer("score", DEMO, board, submission, out, "--reveal")
    assert proc.returncode == 0, proc.stderr
    return out / "output"


def test_board_a_outputs_ignore_board_b_conversations(tmp_path):
    boards = pd.read_csv(DEMO / "reference_data" / "boards.csv", dtype=str)
    hidden = set(boards["id"][boards["board"] == "B"])
    before = score_board("A", SUBMISSION, tmp_path / "before")
    changed = tmp_path / "changed"
    changed.mkdir()
    for name in ("Subtask_1_pred.json", "Subtask_2_pred.json"):
        convs = json.loads((SUBMISSION / name).read_text(encoding="utf-8"))
        for conv in convs:
            if str(conv["conversation_ID"]) in hidden:
                spurious = ["1_joy", "1_0_1"] if name.startswith("Subtask_1") else ["1_joy", "1"]
                conv["emotion-cause_pairs"] = conv["emotion-cause_pairs"][:1] * 3 + [spurious]
        (changed / name).write_text(json.dumps(convs), encoding="utf-8")
    after = score_board("A", changed, tmp_path / "after")
    for name in ("scores.txt", "scores.json", "detailed_results.html"):
        assert (before / name).read_bytes() == (after / name).read_bytes(), name
    html = (before / "detailed_results.html").read_text(encoding="utf-8")
    assert not any("conversation %s" % cid in html for cid in hidden)
    # and board B does see the change
    b_before = read_scores(score_board("B", SUBMISSION, tmp_path / "b1"))
    b_after = read_scores(score_board("B", changed, tmp_path / "b2"))
    assert b_before != b_after
