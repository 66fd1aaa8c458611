"""EvalAI adapter over the same scoring engine as score.py.

EvalAI's worker calls, in-process::

    evaluate(test_annotation_file, user_submission_file, phase_codename, submission_metadata=...)

``test_annotation_file`` is the host's annotation upload: a zip (or folder) of
one phase's reference data, i.e. gold file(s), boards.csv and config.yaml (a
raw reference_data/ with board_A.yaml is accepted too). ``user_submission_file``
is the participant's upload as-is (a file or a zip). Every evaluation scores
both boards and returns them as EvalAI dataset splits: board A under
``public_split`` (shown), board B under ``private_split`` (keep that split's
visibility at 1, host only, until the end). ``submission_result``, which the
participant can read, holds board A only.

Split codenames can be changed with ``SPLITS`` or ``split_codenames={"A": ..., "B": ...}``.
A participant mistake raises ValueError with the same one-line message score.py
prints; organizer mistakes raise RuntimeError.
"""
import os
import shutil
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SPLITS = {"A": "public_split", "B": "private_split"}


def _engine():
    """The engine copied beside this file (the built evaluation_script.zip), or the project's one."""
    for folder in (HERE, os.path.join(HERE, os.pardir, os.pardir, os.pardir, "scoring_program")):
        if os.path.isfile(os.path.join(folder, "scorer", "__init__.py")):
            folder = os.path.abspath(folder)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            return
    raise RuntimeError("the scoring engine (scorer/) is not beside evaluation_script/main.py")


def _unpack(path, target):
    """A folder is copied; a zip is extracted (a single wrapping folder is stepped into); a file is copied."""
    if os.path.isdir(path):
        shutil.copytree(path, target)
        return target
    os.makedirs(target)
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            archive.extractall(target)
    else:
        shutil.copy(path, os.path.join(target, os.path.basename(path)))
    return target


def _reference_dir(folder):
    entries = [e for e in os.listdir(folder) if not e.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and os.path.isdir(os.path.join(folder, entries[0])):
        folder = os.path.join(folder, entries[0])
    if not os.path.isfile(os.path.join(folder, "config.yaml")):
        boards = sorted(e for e in os.listdir(folder) if e.startswith("board_") and e.endswith(".yaml"))
        if not boards:
            raise RuntimeError("the annotation file has no config.yaml (nor board_A.yaml)")
        shutil.copy(os.path.join(folder, boards[0]), os.path.join(folder, "config.yaml"))
    return folder


def evaluate(test_annotation_file, user_submission_file, phase_codename, **kwargs):
    _engine()
    from scorer.api import Competition
    from scorer.errors import SubmissionError, ScoringError

    splits = dict(SPLITS, **(kwargs.get("split_codenames") or {}))
    tmp = tempfile.mkdtemp(prefix="evalai-")
    try:
        ref_dir = _reference_dir(_unpack(test_annotation_file, os.path.join(tmp, "ref")))
        res_dir = os.path.join(tmp, "res")
        os.makedirs(res_dir)
        shutil.copy(user_submission_file, os.path.join(res_dir, os.path.basename(user_submission_file)))
        try:
            comp = Competition.open(ref_dir)
            submission = comp.read_submission(res_dir)
            scores = {board: comp.scores(submission, board) for board in splits}
        except SubmissionError as exc:
            raise ValueError(exc.message) from None
        except ScoringError as exc:
            raise RuntimeError("%s: %s" % (exc.who, exc.message)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result = [{splits[board]: scores[board]} for board in splits]
    first = next(iter(splits))
    return {"result": result, "submission_result": dict(scores[first])}
