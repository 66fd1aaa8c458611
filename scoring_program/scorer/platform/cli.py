"""The platform contract: arguments, exit codes, and what reaches stdout and stderr.

stderr is shown to participants on every platform (even in hidden phases), so a
failure prints exactly one line there. A bug of ours prints a short line; its
traceback goes to OUTPUT/private/ on CodaLab v1 (private_output.zip, kept out of
the participant's output.zip), and nowhere on other platforms, where the
organizer reproduces it with the organizer tools.
"""
import os
import sys

from .. import i18n, report
from ..config import language_of
from ..errors import OutputError, ReferenceDataError, ScoringError, printable
from ..outputs import OUTPUT_FILES, format_number, write_text
from ..problems import Message
from . import hosts
from .runner import PRIVATE_DIR, PRIVATE_FILES, run

SAID_SCORED = Message("run.scored", "Scored board {board}. {summary}", "已评测榜单 {board}。{summary}")
SAID_PLACEHOLDERS = Message("run.placeholders", "The scores written are placeholders until the board is revealed.",
                            "榜单公布之前，写出的成绩只是占位值。")
FAILED_TITLE = Message("run.failed", "Scoring failed", "评测失败")
SAID_WROTE = Message("run.wrote", "Wrote {files}", "已写出 {files}")

ORGANIZER_ERROR = "organizer_error.txt"
TRACEBACK = "traceback.txt"
HIDDEN_REFERENCE = Message(
    "run.reference_hidden",
    "the reference data of this phase is invalid, so no submission can be scored until the organizers fix it; "
    "{details}",
    "本阶段的参考数据有误，组织者修正之前无法为任何提交评分；{details}")
INTERNAL = Message("run.internal", "the scoring program failed unexpectedly ({error}); {details}",
                   "评分程序意外出错（{error}）；{details}")
IN_PRIVATE = Message("run.details_private", "they have the details in the private output ({path}).",
                     "详细信息在组织者的私有输出中（{path}）。")
CANNOT_PREPARE = Message("output.cannot_prepare", "cannot prepare the output folder {path} ({reason}); the platform "
                         "must give the scoring program an empty, writable folder.",
                         "无法准备输出目录 {path}（{reason}）；平台须为评分程序提供一个空的、可写的目录。")
REPRODUCE = Message("run.details_reproduce", "they see the details by scoring any submission with the organizer "
                    "tools (python3 -m organizer score).",
                    "组织者用组织者工具（python3 -m organizer score）为任一提交评分即可看到详细信息。")

CODABENCH_INPUT = hosts.CODABENCH_INPUT
CODABENCH_OUTPUT = "/app/output"
USAGE = "usage: score.py INPUT OUTPUT   (INPUT holds ref/ and res/; scores are written to OUTPUT)"


def main(argv):
    _escape_streams()
    if len(argv) == 1 and argv[0] in ("-h", "--help"):
        _say(USAGE)
        return 0
    args = [a for a in argv if a != ""]  # v1 splits on single spaces: a double space gives ''
    if not args and os.path.isdir(CODABENCH_INPUT):
        args = [CODABENCH_INPUT, CODABENCH_OUTPUT]
    if len(args) != 2:
        _say(USAGE, sys.stderr)
        return 2
    input_dir, output_dir = (os.path.abspath(a) for a in args)
    return run_once(input_dir, output_dir)[0]


def run_once(input_dir, output_dir, competition=None):
    """One run of score.py on absolute INPUT and OUTPUT paths: (its exit code, the runner's RunResult or None), having
    printed what score.py prints.

    ``competition``: INPUT/ref's Competition, opened already (the organizer's re-scoring opens it once for every
    submission it scores); the run is otherwise the same, to the byte.
    """
    private = hosts.private_kept_apart(input_dir)
    try:
        prepare_output(output_dir)
        outcome = run(input_dir, output_dir, competition)
    except ScoringError as exc:
        lang = language_of(input_dir)
        message = exc.text(lang)
        if isinstance(exc, ReferenceDataError) and not hosts.organizer_run():
            # such messages may quote the gold; participants read stderr and the page on every platform
            details = _for_organizer(output_dir, private, ORGANIZER_ERROR, exc.text("en") + "\n")
            message = HIDDEN_REFERENCE(details=details).text(lang)
        return _fail(output_dir, exc.who, message, exc.exit_code, lang), None
    except Exception as exc:  # a bug of ours: short line for everyone, details for the organizer
        import traceback  # only on a failure: importing it costs more than some whole runs' reading
        details = _for_organizer(output_dir, private, TRACEBACK, traceback.format_exc())
        lang = language_of(input_dir)
        return _fail(output_dir, "internal error", INTERNAL(error=type(exc).__name__, details=details).text(lang), 3,
                     lang), None
    lang = outcome.language
    if outcome.sealed:
        _say(outcome.summary)
        _say(SAID_PLACEHOLDERS().text(lang))
    else:
        _say(SAID_SCORED(board=outcome.board, summary=outcome.summary).text(lang))
        for key, value in outcome.scores.items():
            _say("  %s: %s" % (key, format_number(value)))
    _say(SAID_WROTE(files=", ".join(os.path.join(output_dir, f) for f in OUTPUT_FILES)).text(lang))
    return 0, outcome


def prepare_output(output_dir):
    """Create OUTPUT (or fail with one line) and remove what an earlier run of ours left there.

    A reused OUTPUT must not keep the scores of an earlier run when this one
    fails. detailed_results.html is rewritten, not removed: the CodaLab v1
    worker creates it beforehand and uploads it whenever it changes.
    """
    try:
        os.makedirs(output_dir, exist_ok=True)
        for name in OUTPUT_FILES[:2]:
            path = os.path.join(output_dir, name)
            if os.path.lexists(path):
                os.remove(path)
        private = os.path.join(output_dir, PRIVATE_DIR)
        for name in PRIVATE_FILES:
            path = os.path.join(private, name)
            if os.path.lexists(path):
                os.remove(path)
    except OSError as exc:
        raise OutputError(CANNOT_PREPARE(path=output_dir, reason=exc.strerror or type(exc).__name__))


def _escape_streams():
    """stdout/stderr never fail on a character: whatever the locale, unencodable ones are escaped."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):  # not a TextIOWrapper (tests capture it): nothing to do
            pass


def _say(text, stream=None):
    print(printable(text), file=stream or sys.stdout)


def _for_organizer(output_dir, private, name, details):
    """Keep ``details`` where only the organizer reads them; the Problem that ends the participant's sentence."""
    if private:
        try:
            write_text(os.path.join(output_dir, PRIVATE_DIR, name), details)
            return IN_PRIVATE(path="%s/%s" % (PRIVATE_DIR, name))
        except ScoringError:  # OUTPUT is not writable: say how to get the details instead
            pass
    return REPRODUCE()


def _fail(output_dir, who, message, exit_code, lang):
    """The page and the one stderr line of a failed run; returns its exit code."""
    try:
        write_text(os.path.join(output_dir, "detailed_results.html"),
                   report.error_page(FAILED_TITLE, i18n.who_text(who, lang), message, lang))
    except ScoringError:  # OUTPUT is not writable: the one line on stderr says what failed
        pass
    _say(i18n.error_line(who, message, lang), sys.stderr)
    return exit_code
