"""Specific malformed submissions found by tests/test_fuzz_submissions.py, kept as plain regression tests.

Each used to end in an IndexError (a bug of ours, exit 3) or to quote the wrong
token; each must be a one-line participant error naming the right token.
"""
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.errors import ScoringError  # noqa: E402
from scorer.platform.runner import run  # noqa: E402
from scorer.bytelevel.tagcodes import encode  # noqa: E402
from scorer.bytelevel.tokens import numbers  # noqa: E402
from helpers import split_tokens  # noqa: E402
from organizer.phase_data import assemble_reference  # noqa: E402

BANK = (ROOT, ROOT / "starting_kit" / "sample_submission.csv")
MULTILABEL = (ROOT / "examples" / "multilabel", ROOT / "examples" / "multilabel" / "starting_kit" / "sample_submission.csv")


def refused(tmp_path, demo, edit_first_row):
    """The participant error raised for the demo's sample with its first data row edited."""
    competition, sample = demo
    assemble_reference(competition / "reference_data", "A", tmp_path / "in" / "ref")
    lines = sample.read_text(encoding="utf-8").split("\n")
    lines[1] = edit_first_row(lines[1])
    (tmp_path / "in" / "res").mkdir(parents=True)
    (tmp_path / "in" / "res" / "submission.csv").write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ScoringError) as caught:
        run(str(tmp_path / "in"), str(tmp_path / "out"))
    assert caught.value.exit_code == 1 and "\n" not in caught.value.message
    return caught.value.message


def test_encode_cuts_at_every_character_up_to_u0020():
    text = "B-X\x01O\x0bI-X \u3000 O\x1fY"
    enc = encode([text], ["O", "B-X", "I-X"])
    assert len(split_tokens(text)) == int(enc.counts[0]) == 6
    assert split_tokens(text)[5] == "Y" and int(enc.codes[5]) == -1


def test_bank_control_character_before_a_bad_last_tag(tmp_path):
    # "O\x01X" at the end: encode sees an extra tag X at position 14; str.split() saw 13 tags (IndexError)
    message = refused(tmp_path, BANK, lambda row: row.rsplit(",", 1)[0] + "\x01X," + row.rsplit(",", 1)[1])
    assert "tag 14 is 'X'" in message


def test_bank_control_character_names_the_right_tag(tmp_path):
    message = refused(tmp_path, BANK, lambda row: row.replace(" I-BANK", "\x1fX", 1))
    assert "tag 2 is 'X'" in message


def test_multilabel_control_character_before_a_bad_last_label(tmp_path):
    message = refused(tmp_path, MULTILABEL, lambda row: row.replace(" shipping", " shipping\x01bogus", 1))
    assert "label 6 is 'bogus'" in message


def test_multilabel_unicode_space_inside_scores(tmp_path):
    # 4 labels and "a b\u3000c d e": the counted tokens (4) and the parsed values (5) used to disagree
    def edit(row):
        sid, labels, scores = row.split(",")
        return ",".join([sid, " ".join(labels.split()[:4]), scores.replace(" ", "\u3000", 1)])

    message = refused(tmp_path, MULTILABEL, edit)
    assert "line 2" in message and "score 1 is '0.694\\u30000.508'" in message


def test_multilabel_vertical_tab_inside_scores(tmp_path):
    def edit(row):
        sid, labels, scores = row.split(",")
        return ",".join([sid, " ".join(labels.split()[:4]), scores.replace(" ", "\x0b", 1)])

    message = refused(tmp_path, MULTILABEL, edit)
    assert "5 scores for 4 labels" in message


def test_numbers_agree_with_counts():
    values, counts = numbers(pd.Series(["0.5\x0b0.25", "1\u30002", "3"]))
    assert counts.tolist() == [2, 1, 1]
    assert values[:2].tolist() == [0.5, 0.25] and pd.isna(values[2]) and values[3] == 3.0
