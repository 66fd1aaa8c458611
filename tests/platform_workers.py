"""The CodaLab v1 and Codabench compute workers, step by step as their source does them, on local folders.

CodaLab v1, competitions-v1-compute-worker @0453401, worker.py:
- ``get_bundle``: every bundle is extracted with ``ZipFile.extractall``; when the result is a single
  folder holding a ``metadata`` file, that folder replaces the bundle dir (``_find_only_folder_with_metadata``);
  then every ``*.zip`` at the top of the bundle dir is extracted into a folder named after it, and kept.
- the input bundle is ``input.txt`` made by codalab-competitions apps/web/tasks.py (``score``): a YAML
  ``metadata`` file in INPUT with ref/res URLs, ``submitted-by``, ``competition-phase``, ... .
- its ``history`` key names ``history.txt``, a metadata bundle (not a zip): ``get_bundle`` makes
  INPUT/history/, copies the file there as ``metadata`` and fetches each of its keys into a folder of that
  name. tasks.py once listed every earlier finished submission of the participant there as
  ``%03d/%03d/output/: <its private_output.zip>`` (phase, submission number); since commit 57e625b
  (2017-02-19) the list is empty. ``run_v1(history=...)`` lays out either.
- ``run``: ``output/detailed_results.html`` is created empty before the program runs; the command from
  program/metadata has ``$program``, ``$predictions``, ``$input``, ``$output``, ``$tmp``, ``$shared``
  replaced and is split on single spaces (no shell); cwd is the run folder. After it:
  private_output.zip = the whole output folder (``make_archive``) if ``output/private`` exists, then
  ``output/private`` is removed and output.zip = the rest.

Codabench, codalab/codabench @c7dbc75, compute_worker/compute_worker.py:
- prediction step of a results submission: the upload is extracted (``_get_bundle``, ``extractall``)
  into the program folder; it has no metadata, so ``_run_program_directory`` copies it into the
  output folder (``shutil.copytree``); ``push_output`` writes ``output/metadata`` (exitCode,
  elapsedTime, ...) and ``_put_dir`` zips the folder (``make_archive``): the prediction result.
- scoring step: program -> /app/program, reference -> /app/input/ref, prediction result ->
  /app/input/res (``prepare``), each with ``extractall``; the command from metadata.yaml or metadata
  has the variables of ``replace_legacy_metadata_command`` replaced and runs with cwd /app/program;
  ``push_output`` adds ``output/metadata`` and the whole output folder becomes the scoring result zip.

Paths under /app are emulated below a temp folder. ``python3`` is this interpreter.
"""
import io
import os
import shlex
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict

import yaml


@dataclass
class WorkerRun:
    """What one scoring run leaves: the process, and the files by who may read them."""

    returncode: int
    stdout: str
    stderr: str
    scores_txt: str                                            # what the site parses into the leaderboard
    detailed_results: bytes                                    # what the site serves as the detailed results
    output_zip: Dict[str, bytes] = field(default_factory=dict)  # v1 output.zip / Codabench scoring result
    private_zip: Dict[str, bytes] = field(default_factory=dict)  # v1 private_output.zip (creator only)


def _extract(data, target):
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(target)


def _zip_folder(folder):
    """``shutil.make_archive(..., 'zip', folder)`` read back as {name: bytes}."""
    archive = shutil.make_archive(str(folder) + "_zipped", "zip", str(folder))
    with zipfile.ZipFile(archive) as z:
        found = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    os.remove(archive)
    return found


def _python(argv):
    return [sys.executable if argv[0] == "python3" else argv[0]] + argv[1:]


# -- CodaLab v1 ------------------------------------------------------------------------------------
def _only_folder_with_metadata(path):
    """worker.py ``_find_only_folder_with_metadata``."""
    names = os.listdir(path)
    if len(names) > 2 and "metadata" in names:
        return None
    for name in names:
        folder = os.path.join(path, name)
        if os.path.isdir(folder) and "metadata" in os.listdir(folder):
            return folder
    return None


def v1_get_bundle(data, bundle_path):
    """worker.py ``get_bundle`` for a .zip bundle: extract, flatten a lone metadata folder, extract inner zips."""
    bundle_path = Path(bundle_path)
    _extract(data, bundle_path)
    folder = _only_folder_with_metadata(bundle_path)
    if folder:
        tmp = Path(str(bundle_path) + "_tmp")
        shutil.copytree(folder, tmp)
        shutil.rmtree(bundle_path)
        shutil.move(str(tmp), str(bundle_path))
    for inner in sorted(bundle_path.glob("*.zip")):
        with zipfile.ZipFile(inner) as z:
            z.extractall(os.path.splitext(str(inner))[0])
    return bundle_path


def v1_history(history, folder):
    """INPUT/history/ from {(phase, submission number): private_output.zip bytes}; {} is today's empty list."""
    folder = Path(folder)
    folder.mkdir(parents=True)
    lines = ["%03d/%03d/output/: https://example.org/private_output_%d_%d.zip" % (p, n, p, n)
             for p, n in sorted(history)]
    (folder / "metadata").write_text("\n".join(lines), encoding="utf-8")
    for (p, n), data in sorted(history.items()):
        v1_get_bundle(data, folder / ("%03d/%03d/output/" % (p, n)))


def run_v1(base, program_zip, reference_zip, submission_zip, phase=2, submission=1, history=None, prepare=None):
    base = Path(base)
    run = base / "run"
    v1_get_bundle(program_zip, run / "program")
    inp = run / "input"
    inp.mkdir(parents=True)
    (inp / "metadata").write_text("ref: https://example.org/ref.zip\nres: https://example.org/res.zip\n"
                                  "history: https://example.org/h\nscores: https://example.org/s\n"
                                  "coopetition: https://example.org/c\nsubmitted-by: someone\n"
                                  "submitted-at: 2026-01-05T10:00:00\ncompetition-submission: %d\n"
                                  "competition-phase: %d\nautomatic-submission: False" % (submission, phase),
                                  encoding="utf-8")
    v1_history(history or {}, inp / "history")
    v1_get_bundle(reference_zip, inp / "ref")
    v1_get_bundle(submission_zip, inp / "res")
    if prepare is not None:   # a test's change to what the worker laid out
        prepare(inp)
    out = run / "output"
    out.mkdir()
    (out / "detailed_results.html").write_text("", encoding="utf-8")
    (run / "temp").mkdir()
    command = yaml.safe_load((run / "program" / "metadata").read_text(encoding="utf-8"))["command"]
    proc = None
    for cmd in command if isinstance(command, list) else [command]:
        cmd = cmd.replace("$program", str(run / "program")).replace("$predictions", str(inp / "res")) \
            .replace("$input", str(inp)).replace("$output", str(out)) \
            .replace("$tmp", str(run / "temp")).replace("$shared", str(base / "shared"))
        proc = subprocess.run(_python(cmd.split(" ")), cwd=str(run), capture_output=True, text=True, timeout=600)
        if proc.returncode:
            break
    private = {}
    if (out / "private").exists():
        private = _zip_folder(out)
        shutil.rmtree(out / "private")
    visible = _zip_folder(out)
    return WorkerRun(proc.returncode, proc.stdout, proc.stderr,
                     visible.get("scores.txt", b"").decode("utf-8"), visible.get("detailed_results.html", b""),
                     visible, private)


# -- Codabench -------------------------------------------------------------------------------------
def codabench_prediction_result(base, submission_zip):
    """The prediction step of a results submission: the zip the scoring step receives as res/."""
    base = Path(base)
    program, output = base / "predict" / "program", base / "predict" / "output"
    _extract(submission_zip, program)
    assert not (program / "metadata").exists() and not (program / "metadata.yaml").exists()
    shutil.copytree(program, output)
    (output / "metadata").write_text(yaml.dump({"exitCode": None, "elapsedTime": None, "ingestionExitCode": None,
                                                "ingestionElapsedTime": None}, default_flow_style=False),
                                     encoding="utf-8")
    archive = shutil.make_archive(str(base / "predict" / "prediction_result"), "zip", str(output))
    return Path(archive).read_bytes()


def run_codabench(base, program_zip, reference_zip, submission_zip):
    base = Path(base)
    app = base / "app"
    prediction = codabench_prediction_result(base, submission_zip)
    _extract(program_zip, app / "program")
    _extract(reference_zip, app / "input" / "ref")
    _extract(prediction, app / "input" / "res")
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
    out = app / "output"
    (out / "metadata").write_text(yaml.dump({"exitCode": proc.returncode, "elapsedTime": 0.1},
                                            default_flow_style=False), encoding="utf-8")
    result = _zip_folder(out)
    # push_scores: scores.json wins over scores.txt
    scores = result.get("scores.json") or result.get("scores.txt") or b""
    return WorkerRun(proc.returncode, proc.stdout, proc.stderr, scores.decode("utf-8"),
                     result.get("detailed_results.html", b""), result, {})


def participant_zip(files, folder="my_submission"):
    """How people zip on a Mac: a wrapping folder, __MACOSX resource forks and .DS_Store."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, data in sorted(files.items()):
            archive.writestr("%s/%s" % (folder, name), data)
            archive.writestr("__MACOSX/%s/._%s" % (folder, name), b"\x00\x05\x16\x07junk")
        archive.writestr("%s/.DS_Store" % folder, b"\x00\x00\x00\x01Bud1")
    return buf.getvalue()


def plain_zip(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return buf.getvalue()
