"""The platform contract: arguments, exit codes, and what reaches stdout and stderr.

stderr is shown to participants on every platform (even in hidden phases), so a
failure prints exactly one line there. A bug of ours prints a short line; its
traceback goes to OUTPUT/private/ where only the organizer can download it
(CodaLab v1), and nowhere on other platforms, where the organizer reproduces it
with the organizer tools.
"""
import os
import sys
import traceback

from . import hosts, i18n, report
from .errors import OutputError, ReferenceDataError, ScoringError, printable
from .outputs import OUTPUT_FILES, format_number, write_text
from .runner import PRIVATE_DIR, PRIVATE_FILES, run

ORGANIZER_ERROR = "organizer_error.txt"
TRACEBACK = "traceback.txt"
REFERENCE_ERROR = ("the reference data of this phase is invalid, so no submission can be scored until the "
                   "organizers fix it; ")
INTERNAL_ERROR = "the scoring program failed unexpectedly (%s); "
IN_PRIVATE = "they have the details in the private output (%s/%s)."
REPRODUCE = "they see the details by scoring any submission with the organizer tools (tools/score_board.py)."

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
    private = hosts.private_is_hidden(input_dir)
    try:
        prepare_output(output_dir)
        outcome = run(input_dir, output_dir)
    except ScoringError as exc:
        message = exc.message
        if isinstance(exc, ReferenceDataError) and not hosts.organizer_run():
            # such messages may quote the gold; participants read stderr and the page on every platform
            message = REFERENCE_ERROR + _for_organizer(output_dir, private, ORGANIZER_ERROR, exc.message + "\n")
        _fail_page(output_dir, exc.who, message)
        _say(i18n.error_line(exc.who, message, i18n.language_of(input_dir)), sys.stderr)
        return exc.exit_code
    except Exception as exc:  # a bug of ours: short line for everyone, details for the organizer
        message = INTERNAL_ERROR % type(exc).__name__ + _for_organizer(output_dir, private, TRACEBACK,
                                                                        traceback.format_exc())
        _fail_page(output_dir, "internal error", message)
        _say("ERROR (internal error): " + message, sys.stderr)
        return 3
    if outcome.sealed:
        _say(outcome.summary)
        _say("The scores written are placeholders until the board is revealed.")
    else:
        _say("Scored board %s. %s" % (outcome.board, outcome.summary))
        for key, value in outcome.scores.items():
            _say("  %s: %s" % (key, format_number(value)))
    _say("Wrote %s" % ", ".join(os.path.join(output_dir, f) for f in OUTPUT_FILES))
    return 0


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
        raise OutputError("cannot prepare the output folder %s (%s); the platform must give the scoring program "
                          "an empty, writable folder." % (output_dir, exc.strerror or type(exc).__name__))


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
    """Keep ``details`` where only the organizer reads them; the end of the participant's sentence says where."""
    if private:
        try:
            write_text(os.path.join(output_dir, PRIVATE_DIR, name), details)
            return IN_PRIVATE % (PRIVATE_DIR, name)
        except ScoringError:  # OUTPUT is not writable: say how to get the details instead
            pass
    return REPRODUCE


def _fail_page(output_dir, kind, message):
    try:
        write_text(os.path.join(output_dir, "detailed_results.html"),
                   report.error_page("Scoring failed", kind, message))
    except ScoringError:  # OUTPUT is not writable: the one line on stderr says what failed
        pass
