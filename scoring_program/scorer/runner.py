"""One scoring run of score.py: INPUT/ref and INPUT/res in, the platform's files in OUTPUT.

What a participant can reach (scores.txt, scores.json, detailed_results.html,
stdout, stderr) depends only on the submission and the scored board. Files
for the organizer go to OUTPUT/private/, and only where the platform keeps
that folder from participants (``hosts.private_is_hidden``).
"""
import os
import traceback
from dataclasses import dataclass

from . import hosts, report
from .api import Competition, ordered_keys, ordered_scores, reference_dir, submission_dir
from .outputs import write_scores, write_text

PRIVATE_DIR = "private"  # CodaLab v1 zips it as private_output.zip, for the competition creator only
PRIVATE_FAILURE = "private_failure.txt"
# every file a run may write in private/ (cleared at the start of a run, as the scores are)
PRIVATE_FILES = ("scores.txt", "scores.json", "detailed_results.html", "board_B_scores.txt", "board_B_scores.json",
                 "reference_notes.txt", "organizer_error.txt", "traceback.txt", PRIVATE_FAILURE)
SEALED_VALUE = -1.0      # every leaderboard key of a sealed board while its phase runs


@dataclass
class RunResult:
    board: str
    scores: dict
    summary: str
    sealed: bool = False


def run(input_dir, output_dir):
    """Score INPUT into OUTPUT and return what was scored; raises ScoringError subclasses."""
    comp = Competition.open(reference_dir(input_dir))
    submission = comp.read_submission(submission_dir(input_dir))
    private = os.path.join(output_dir, PRIVATE_DIR) if hosts.private_is_hidden(input_dir) else None
    if comp.cfg.report == "sealed":
        return _run_sealed(comp, submission, output_dir, private)
    cfg = comp.cfg
    result = comp.score(submission)
    scores = ordered_scores(result.scores, cfg.primary_key)
    _write_outputs(output_dir, comp, result, scores)
    if private:
        # Notes quote the gold; board-B scores are the hidden board. Nothing here may change what the
        # participant sees, so a failure is only recorded for the organizer.
        notes = comp.reference.notes
        if notes and (cfg.private_output or hosts.organizer_run()):
            write_text(os.path.join(private, "reference_notes.txt"), "\n".join(notes) + "\n")
        if cfg.private_output and cfg.board == "A":
            _privately(private, lambda: write_scores(private, comp.scores(submission, "B"), prefix="board_B_"))
    return RunResult(cfg.board, scores, result.summary)


def _write_outputs(output_dir, comp, result, scores):
    cfg = comp.cfg
    write_scores(output_dir, scores)
    title = "%s: board %s" % (comp.family.title, cfg.board)
    sections = [report.Section("Scores", [report.Scores(scores, cfg.primary_key)])] + list(result.sections)
    write_text(os.path.join(output_dir, "detailed_results.html"), report.render(title, sections, result.summary))


def _run_sealed(comp, submission, output_dir, private):
    """Placeholders where participants look; the real scores and report in ``private`` (or nowhere)."""
    cfg = comp.cfg
    placeholders = {key: SEALED_VALUE for key in ordered_keys(comp.family.leaderboard_keys(cfg.options),
                                                               cfg.primary_key)}
    write_scores(output_dir, placeholders)
    summary = ("Submission received and valid (checked against all %d test items). Board %s is sealed: its scores "
               "and report are shown when the organizers reveal it." % (len(comp.reference.units), cfg.board))
    write_text(os.path.join(output_dir, "detailed_results.html"),
               report.sealed_page("%s: board %s" % (comp.family.title, cfg.board), cfg.board, SEALED_VALUE, summary))
    if private:
        def real():
            result = comp.score(submission)
            _write_outputs(private, comp, result, ordered_scores(result.scores, cfg.primary_key))
        _privately(private, real)
    return RunResult(cfg.board, placeholders, summary, sealed=True)


def _privately(private, work):
    """Run ``work`` (which writes into ``private``); a failure is written there, never raised."""
    try:
        work()
    except Exception:  # noqa: BLE001  the visible outcome must not depend on hidden data
        write_text(os.path.join(private, PRIVATE_FAILURE), traceback.format_exc())
