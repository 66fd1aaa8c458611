"""One post-score policy (scorer/publish/policy.py) for every caller: score.py, the EvalAI adapter and the organizer's
Ladder publish the same values of the same submission on the same board: rounded on board A when the config
says so, the Ladder's released values of a first submission, placeholders on a sealed board."""
import importlib.util
import io
import shutil
from contextlib import redirect_stdout

import pytest
import yaml

from helpers import ROOT, read_scores_json
from organizer.phase_data import assemble_reference
from scorer.publish import ladder
from scorer.platform.runner import run

KEYWORDS = ROOT / "examples" / "keywords"
SAMPLE = KEYWORDS / "starting_kit" / "sample_submission.csv"


def evalai():
    spec = importlib.util.spec_from_file_location("evalai_main", ROOT / "adapters" / "evalai" / "evaluation_script" /
                                                  "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def phase(tmp_path, board, **config):
    ref = assemble_reference(KEYWORDS / "reference_data", board, tmp_path / "in" / "ref")
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw.update(config)
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    (tmp_path / "in" / "res").mkdir()
    shutil.copy(SAMPLE, tmp_path / "in" / "res" / SAMPLE.name)
    return ref


def both(tmp_path, board, **config):
    """(what score.py writes, what the EvalAI adapter gives the board's split) for the sample submission."""
    ref = phase(tmp_path, board, **config)
    run(str(tmp_path / "in"), str(tmp_path / "out"))
    with redirect_stdout(io.StringIO()):
        split = evalai().evaluate(str(ref), str(SAMPLE), "phase")["result"][0]
    return read_scores_json(tmp_path / "out"), split["public_split" if board == "A" else "private_split"]


def test_rounded_board_a_values_are_the_same_for_score_py_and_evalai(tmp_path):
    exact, _ = both(tmp_path / "exact", "A")
    written, split = both(tmp_path / "rounded", "A", feedback={"round_to": 2})
    assert written == split == {k: round(v, 2) for k, v in exact.items()}
    assert any(round(v, 2) != v for v in exact.values())   # the rounding did something


def test_the_ladder_releases_a_first_submission_alike_everywhere(tmp_path):
    exact, _ = both(tmp_path / "exact", "A")
    written, split = both(tmp_path / "ladder", "A", feedback={"ladder": "fixed", "ladder_step": 0.05})
    released = {k: ladder.rounded(v, 0.05) for k, v in exact.items()}   # Algorithm 1: rounded to the step
    assert written == split == pytest.approx(released, abs=1e-12)


def test_a_sealed_board_publishes_placeholders_everywhere(tmp_path):
    written, split = both(tmp_path, "B")
    assert set(written.values()) == set(split.values()) == {-1.0} and list(written) == list(split)
