"""The built bundle's scoring program run exactly as the CodaLab v1 and Codabench workers run it.

v1 (competitions-v1-compute-worker, worker.py): program and reference data
unzipped into run/program and run/input/ref, the participant's zip (wrapping
folder, __MACOSX, .DS_Store and all) into run/input/res, the command read from
program/metadata, variables substituted in the worker's order, split on single
spaces, no shell, cwd = run/.

Codabench (compute_worker.py): metadata.yaml or metadata, variables replaced
by the /app paths (emulated under a temp dir), the string split as docker-py
does (shlex), cwd = the program folder, and input/res holding the worker's own
``metadata`` YAML file. ``python3`` is this interpreter in both.
"""
import shlex
import subprocess
import io
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, read_scores
from test_bundle_shared import (bank_oracle, board_ids, built, comp_id, competitions, members, phases,
                                sample_submission)
import bundle  # noqa: E402

CASES = [(c, i) for c in competitions() for i in range(len(phases(c)))]


def unzip(data, target):
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(target)
    return target


def participant_zip(files):
    """How people zip on a Mac: a wrapping folder, __MACOSX resource forks and .DS_Store."""
    entries = {}
    for name, data in files.items():
        entries["my_submission/" + name] = data
        entries["__MACOSX/my_submission/._" + name] = b"\x00\x05\x16\x07junk"
    entries["my_submission/.DS_Store"] = b"\x00\x00\x00\x01Bud1"
    return bundle.zip_bytes(entries)


def _python(argv):
    return [sys.executable if argv[0] == "python3" else argv[0]] + argv[1:]


def run_v1(base, root, phase, submission):
    run = base / "run"
    unzip(root[phase["scoring_program"]], run / "program")
    unzip(root[phase["reference_data"]], run / "input" / "ref")
    unzip(submission, run / "input" / "res")
    (run / "input" / "metadata").write_text("ref: https://x/ref.zip\nres: https://x/res.zip\n"
                                            "submitted-by: someone\ncompetition-phase: 1\n", encoding="utf-8")
    (run / "output").mkdir()
    (run / "output" / "detailed_results.html").write_text("", encoding="utf-8")  # the worker pre-creates it
    (run / "temp").mkdir()
    command = yaml.safe_load((run / "program" / "metadata").read_text(encoding="utf-8"))["command"]
    commands = command if isinstance(command, list) else [command]
    for cmd in commands:
        cmd = cmd.replace("$program", str(run / "program")).replace("$predictions", str(run / "input" / "res")) \
            .replace("$input", str(run / "input")).replace("$output", str(run / "output")) \
            .replace("$tmp", str(run / "temp")).replace("$shared", str(base / "shared"))
        proc = subprocess.run(_python(cmd.split(" ")), cwd=str(run), capture_output=True, text=True, timeout=600)
        if proc.returncode:
            break
    return proc, run / "output"


def run_codabench(base, root, phase, submission):
    app = base / "app"
    unzip(root[phase["scoring_program"]], app / "program")
    unzip(root[phase["reference_data"]], app / "input" / "ref")
    unzip(submission, app / "input" / "res")   # a results submission becomes the prediction step's output
    (app / "input" / "res" / "metadata").write_text(
        "exitCode: 0\nelapsedTime: 0.1\ningestionExitCode: 0\ningestionElapsedTime: 0.1\n", encoding="utf-8")
    (app / "output").mkdir()
    (app / "shared").mkdir()
    program = app / "program"
    meta = program / "metadata.yaml" if (program / "metadata.yaml").exists() else program / "metadata"
    command = yaml.load(meta.read_text(encoding="utf-8"), Loader=yaml.FullLoader).get("command")
    for old, new in (("$input", app / "input"), ("$output", app / "output"), ("$program", app / "program"),
                     ("$ingestion_program", app / "program"), ("$hidden", app / "input" / "ref"),
                     ("$shared", app / "shared"), ("$submission_program", app / "ingested_program"),
                     ("$tmp", app / "output"), ("$predictions", app / "input" / "res")):
        command = command.replace(old, str(new))
    proc = subprocess.run(_python(shlex.split(command)), cwd=str(program), capture_output=True, text=True,
                          timeout=600)
    return proc, app / "output"


def both(tmp_path, competition, index, files):
    root = members(built(competition))
    phase = phases(competition)[index]
    submission = participant_zip(files)
    v1 = run_v1(tmp_path / "v1", root, phase, submission)
    cb = run_codabench(tmp_path / "cb", root, phase, submission)
    return v1, cb


def columns(competition):
    comp = bundle.load_yaml(Path(competition) / "competition.yaml")
    return {k for k, c in comp["leaderboard"]["columns"].items() if not c.get("computed")}


@pytest.mark.parametrize("competition,index", CASES, ids=lambda v: comp_id(v) if isinstance(v, Path) else str(v))
def test_both_workers_give_the_same_scores_txt(tmp_path, competition, index):
    sample = sample_submission(competition)
    if sample is None:
        pytest.skip("no sample submission in %s/starting_kit" % competition)
    (proc1, out1), (proc2, out2) = both(tmp_path, competition, index, sample)
    assert proc1.returncode == 0, proc1.stderr
    assert proc2.returncode == 0, proc2.stderr
    assert (out1 / "scores.txt").read_bytes() == (out2 / "scores.txt").read_bytes()
    assert (out1 / "scores.json").read_bytes() == (out2 / "scores.json").read_bytes()
    v1_scores = read_scores(out1)                                   # v1: split on the one colon, float()
    codabench = yaml.load((out2 / "scores.txt").read_text(encoding="utf-8"), Loader=yaml.Loader)
    assert v1_scores == codabench and all(isinstance(v, float) for v in codabench.values())
    assert set(v1_scores) == columns(competition)
    assert not (out1 / "metadata").exists() and not (out2 / "metadata").exists()
    assert [p.name for p in out1.glob("*.html")] == ["detailed_results.html"]


@pytest.mark.parametrize("board", ["A", "B"])
def test_the_demo_scores_equal_seqeval_and_sklearn_on_each_board(tmp_path, board):
    index = [bundle.REFERENCE_ZIP.match(p["reference_data"]).group(1) for p in phases(ROOT)].index(board)
    sample = ROOT / "starting_kit" / "sample_submission.csv"
    (proc, out), _ = both(tmp_path, ROOT, index, {sample.name: sample.read_bytes()})
    assert proc.returncode == 0, proc.stderr
    ours = read_scores(out)
    expected = bank_oracle(ROOT / "reference_data" / "gold.csv", sample, board_ids(ROOT, board))
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_a_participant_error_reads_the_same_on_both_workers(tmp_path, competition):
    (proc1, _), (proc2, _) = both(tmp_path, competition, 0, {"readme.txt": b"nothing to score here\n"})
    assert proc1.returncode == proc2.returncode == 1
    line1 = [l for l in proc1.stderr.splitlines() if l.strip()]
    line2 = [l for l in proc2.stderr.splitlines() if l.strip()]
    assert len(line1) == 1 and line1 == line2 and "Traceback" not in proc1.stderr
