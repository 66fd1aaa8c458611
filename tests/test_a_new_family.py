"""A new family is one new file in scorer/tasks/: nothing else changes (docs/architecture.md).

The scoring program is copied to a temporary folder, a toy family (one label per id, scored by accuracy)
is written into the copy's tasks/ folder, and the copy's score.py scores it on both boards and refuses a
wrong label with one line, exactly as for the shipped families.
"""
import shutil
import subprocess
import sys

import pytest

from helpers import PROGRAM, make_input, read_scores

TOY = '''"""A toy task: one label (a or b) per id, scored by accuracy."""
from dataclasses import dataclass

import numpy as np

from ..errors import SubmissionError
from ..problems import Message
from ..tables import match_ids, missing_ids, read_table, reference_table, reference_units
from .base import Contract, Reference, Result, TaskFamily

NOT_A_LABEL = Message("toy.not_a_label", "{where}: {value} is not a label; use a or b.",
                      "{where}：{value} 不是标签；请用 a 或 b。")


@dataclass
class ToyReference(Reference):
    labels: np.ndarray = None


class Toy(TaskFamily):
    name = "toy"
    title = "Toy labels"
    default_files = {"gold": "gold.csv", "submission": "*.csv"}

    def leaderboard_keys(self, options):
        return ["accuracy"]

    def load_reference(self, cfg):
        table = reference_table(cfg, "gold", ["id", "label"])
        _, units = reference_units(table)
        labels = table.cells("label").to_objects()
        return ToyReference(Contract(units), strata=labels, labels=labels)

    def read_submission(self, files, contract, cfg, problems):
        table = read_table(files["submission"], ("id", "label"), SubmissionError)
        position = match_ids(table, "id", contract.units, problems)
        labels = table.cells("label").strip().to_objects()
        problems.add_rows(np.flatnonzero(~np.isin(labels, ["a", "b"])), table.line, lambda i: NOT_A_LABEL.at(
            table.name, int(table.line[i]), column="label", value=repr(labels[i])))
        missing_ids(table, contract.units, position, problems)
        if problems:
            return None
        answers = np.empty(len(contract.units), dtype=object)
        answers[position] = labels
        return answers

    def score(self, reference, submission, mask, cfg):
        right = (reference.labels == submission)[mask]
        return Result({"accuracy": float(right.mean()) if len(right) else 0.0})


FAMILY = Toy()
'''
GOLD = "id,label\n1,a\n2,b\n3,a\n4,b\n"
BOARDS = "id,board\n1,A\n2,A\n3,B\n4,B\n"


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    copy = tmp_path_factory.mktemp("program") / "scoring_program"
    shutil.copytree(PROGRAM, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "scorer" / "tasks" / "toy.py").write_text(TOY, encoding="utf-8")
    return copy / "score.py"


def run(program, tmp_path, name, board, submission):
    inp = make_input(tmp_path, {"config.yaml": "task: toy\nboard: %s\nboards: {file: boards.csv}\n" % board,
                                "gold.csv": GOLD, "boards.csv": BOARDS}, {"s.csv": submission}, name)
    out = tmp_path / (name + "_out")
    proc = subprocess.run([sys.executable, str(program), str(inp), str(out)], capture_output=True, text=True)
    return proc, out


def test_a_toy_family_scores_both_boards(program, tmp_path):
    submission = "id,label\n1,a\n2,b\n3,b\n4,b\n"   # board A: both right; board B: id 3 wrong, id 4 right
    for board, accuracy in (("A", 1.0), ("B", 0.5)):
        proc, out = run(program, tmp_path, board, board, submission)
        assert proc.returncode == 0, proc.stderr
        assert read_scores(out) == {"accuracy": accuracy}


def test_a_toy_family_refuses_a_wrong_label_in_one_line(program, tmp_path):
    proc, _ = run(program, tmp_path, "bad", "A", "id,label\n1,a\n2,c\n3,a\n4,b\n")
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert proc.returncode == 1 and len(lines) == 1
    assert "s.csv line 3, column label: 'c' is not a label; use a or b." in lines[0]
