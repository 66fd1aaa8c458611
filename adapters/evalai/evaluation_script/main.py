"""EvalAI adapter over the same scoring engine as score.py.

EvalAI's worker (scripts/workers/submission_worker.py, ``run_submission``) calls, in its own process::

    evaluate(test_annotation_file, user_submission_file, phase_codename, submission_metadata=...)

with sys.stdout and sys.stderr sent both to the worker's own streams and to the
submission's stdout and stderr files, which the participant can download
(apps/jobs/serializers.py, ``SubmissionSerializer``: ``stdout_file``,
``stderr_file``, ``submission_result_file``). An exception raised here has its
whole traceback written to that stderr file, so evaluate() never raises:

- a participant's mistake prints score.py's one line (``ERROR (submission
  error): ...``) on stderr and returns ``{}``; without ``"result"`` the worker
  marks the submission FAILED and keeps the stderr file;
- an organizer's mistake or a bug of ours prints one line that says so, without
  any detail, and writes the details to ``sys.__stderr__``: the worker's own
  stream, outside the submission's files, which only the challenge's hosts read
  (the worker logs: apps/challenges/views.py, ``get_worker_logs``, hosts only).

EvalAI stores each upload under a random name, ``<uuid4><extension>``
(apps/base/utils.py ``SubmissionArtifactFileName``), and the worker passes that
file (``extract_submission_data``); neither the file nor ``submission_metadata``
(``SubmissionSerializer``'s fields) keeps the name the participant uploaded. So a
message names such a file "your submitted file (.csv)" instead of the stored name,
which the participant never saw.

``test_annotation_file`` is a zip (or folder) of one phase's reference data, as
``python3 -m organizer bundle`` makes it: config.yaml, the public test inputs and
the answers of that phase's board only (none on a sealed board; a raw
reference_data/ with board_A.yaml is accepted too). The config's board decides
the EvalAI dataset split the scores go to: board A -> ``public_split``, board B
-> ``private_split`` (``SPLITS``, or ``split_codenames={"A": ..., "B": ...}``).
Each phase links the split of its board (``python3 -m organizer evalai`` writes
that challenge_config.yaml). A board whose config says ``report: sealed`` is not
scored: its split gets the placeholder -1 for every key (scorer/publish/policy.py),
and what the participant reads says only that the submission was received and is
valid. ``submission_result``, which the participant can read, holds the scores of
a board that is not sealed.
"""
import os
import re
import shutil
import sys
import tempfile
import traceback
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SPLITS = {"A": "public_split", "B": "private_split"}
STORED_NAME = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[^./\\]{1,16})?$")


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
    """A folder is copied; a zip is extracted; a file is copied."""
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
    """The folder holding config.yaml (a single wrapping folder is stepped into; board_A.yaml stands in)."""
    entries = [e for e in os.listdir(folder) if not e.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and os.path.isdir(os.path.join(folder, entries[0])):
        folder = os.path.join(folder, entries[0])
    if not os.path.isfile(os.path.join(folder, "config.yaml")):
        boards = sorted(e for e in os.listdir(folder) if e.startswith("board_") and e.endswith(".yaml"))
        if boards:
            shutil.copy(os.path.join(folder, boards[0]), os.path.join(folder, "config.yaml"))
    return folder


def _messages():
    """This adapter's two messages (declared once: the engine's registry refuses a key twice)."""
    from scorer.public import MESSAGES, Message

    if "evalai.worker_log" not in MESSAGES:
        Message("evalai.worker_log", "the organizers see the details in the challenge's EvalAI worker logs.",
                "组织者可在本挑战赛的 EvalAI worker 日志中查看详细信息。")
        Message("evalai.no_split", "config.yaml: board is {board}, which has no EvalAI dataset split; allowed: "
                "{allowed}.", "config.yaml：board 为 {board}，没有对应的 EvalAI 数据集划分；允许：{allowed}。")
        Message("evalai.your_file", "your submitted file ({ext})", "你提交的文件（{ext}）")
    return MESSAGES


def _say(stream, text):
    """``text`` on ``stream``, line by line, each line with its invisible characters escaped."""
    try:
        from scorer.public import printable
    except ImportError:   # the engine is missing: plain text
        printable = str
    for line in str(text).rstrip("\n").split("\n"):
        stream.write(printable(line) + "\n")
    stream.flush()


def evaluate(test_annotation_file, user_submission_file, phase_codename, **kwargs):
    """EvalAI's entry point: ``{"result": [{split: scores}], "submission_result": ...}``, or ``{}`` on failure."""
    try:
        _engine()
        from scorer.public import ReferenceDataError, ScoringError, error_line
    except Exception:  # the evaluation script itself is broken: only the host can fix it
        _say(sys.__stderr__, traceback.format_exc())
        _say(sys.stderr, "ERROR (internal error): the evaluation script cannot start; the organizers see the "
                         "details in the challenge's EvalAI worker logs.")
        return {}
    from scorer.public import HIDDEN_REFERENCE, INTERNAL

    messages = _messages()
    in_log = messages["evalai.worker_log"]
    tmp = tempfile.mkdtemp(prefix="evalai-")
    lang = "en"
    try:
        ref_dir = _reference_dir(_unpack(test_annotation_file, os.path.join(tmp, "ref")))
        lang = _language(ref_dir)
        return _score(ref_dir, user_submission_file, os.path.join(tmp, "res"), lang, messages,
                      dict(SPLITS, **(kwargs.get("split_codenames") or {})))
    except ReferenceDataError as exc:   # may quote the gold: the host reads it in the worker log
        _say(sys.__stderr__, "%s: %s" % (exc.who, exc.text("en")))
        _say(sys.stderr, error_line(exc.who, HIDDEN_REFERENCE(details=in_log()).text(lang), lang))
    except ScoringError as exc:         # the submission's or config.yaml's mistake: score.py's line
        # the worker's temporary folders mean nothing to a participant: the annotation file is named instead
        shown = exc.text(lang).replace(os.path.join(tmp, "ref"), os.path.basename(str(test_annotation_file)))
        shown = _participants_name(shown.replace(tmp, "."), user_submission_file, messages, lang)
        _say(sys.stderr, error_line(exc.who, shown, lang))
        if exc.kind != "submission":
            _say(sys.__stderr__, "%s: %s" % (exc.who, exc.text("en")))
    except Exception as exc:            # a bug of ours: a short line for the participant, the traceback in the log
        _say(sys.__stderr__, traceback.format_exc())
        _say(sys.stderr, error_line("internal error", INTERNAL(error=type(exc).__name__,
                                                                    details=in_log()).text(lang), lang))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {}


def _participants_name(text, submission_file, messages, lang):
    """``text`` with EvalAI's stored name of the submission (a UUID) said as the participant knows the file.

    >>> _participants_name("0f8fad5b-d9cb-469f-a165-70867728950e.csv line 2: x",
    ...                    "/w/0f8fad5b-d9cb-469f-a165-70867728950e.csv", _messages(), "en")
    'your submitted file (.csv) line 2: x'
    """
    stored = os.path.basename(str(submission_file))
    if not STORED_NAME.match(stored):
        return text
    ext = os.path.splitext(stored)[1] or "?"
    return text.replace(stored, messages["evalai.your_file"](ext=ext).text(lang))


def _language(ref_dir):
    """``language`` of the phase's config.yaml, or en (never raises: a broken config is reported when read)."""
    from scorer.public import LANGUAGES, find_config, read_raw
    try:
        raw = read_raw(find_config(ref_dir))
    except Exception:  # noqa: BLE001
        return "en"
    value = raw.get("language", "en") if isinstance(raw, dict) else "en"
    return value if value in LANGUAGES else "en"


def _score(ref_dir, submission_file, res_dir, lang, messages, splits):
    from scorer.public import SAID_SCORED, Competition, ConfigError, format_number, publish, report

    comp = Competition.open(ref_dir)
    cfg = comp.cfg
    if cfg.board not in splits:
        raise ConfigError(messages["evalai.no_split"](board=cfg.board, allowed=", ".join(splits)))
    os.makedirs(res_dir)
    shutil.copy(submission_file, os.path.join(res_dir, os.path.basename(submission_file)))
    # the split's values are the leaderboard keys (challenge_config.yaml's schema): no interval is drawn
    published = publish(comp, comp.read_submission(res_dir), interval=False)
    if published.sealed:   # nothing was scored: the split gets placeholders, the participant reads only this
        shown = report.SEALED_RECEIVED(n=len(comp.contract.units), board=cfg.board).text(lang)
        _say(sys.stdout, shown)
        visible = {"board": cfg.board, "status": shown}
    else:
        _say(sys.stdout, SAID_SCORED(board=cfg.board, summary=report.words(published.result.summary, lang)).text(lang))
        for key, value in published.scores.items():
            _say(sys.stdout, "  %s: %s" % (key, format_number(value)))
        visible = dict(published.scores)
    return {"result": [{splits[cfg.board]: published.scores}], "submission_result": visible}
