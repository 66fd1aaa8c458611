"""One scoring run: config -> reference -> boards -> submission -> scores -> outputs.

What a participant can reach (scores.txt, scores.json, detailed_results.html,
stdout, stderr) depends only on the submission and the scored board. Files
for the organizer go to OUTPUT/private/, and only where the platform keeps
that folder from participants (``hosts.private_is_hidden``).
"""
import os
import traceback
from dataclasses import dataclass

from . import hosts, report
from .boards import load_boards
from .config import load_config
from .discovery import find_files
from .limits import check_size, reference_bytes, submission_cap
from .outputs import write_scores, write_text
from .tasks import families

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


def reference_dir(input_dir):
    return os.path.join(input_dir, "ref")


def submission_dir(input_dir):
    return os.path.join(input_dir, "res")


@dataclass
class Prepared:
    """Everything read and validated, ready to score any board."""

    cfg: object
    family: object
    ref: object
    boards: object
    sub: object

    def score(self, board):
        return self.family.score(self.ref, self.sub, self.boards.units_of(board), self.cfg)


def prepare(ref_dir, res_dir):
    """Read and validate config, reference, boards and submission, in that order."""
    registry = families()
    cfg = load_config(ref_dir, registry)
    family = registry[cfg.task]
    ref = family.load_reference(cfg)
    boards = load_boards(cfg, ref)
    slots = {s: cfg.files[s] for s in family.submission_slots}
    files = find_files(res_dir, slots, family.required_slots)
    check_size(files, submission_cap(cfg.max_submission_mb, reference_bytes(cfg, slots)))
    sub = family.load_submission(files, ref, cfg)
    return Prepared(cfg, family, ref, boards, sub)


def run(input_dir, output_dir):
    """Score INPUT into OUTPUT and return what was scored; raises ScoringError subclasses."""
    prepared = prepare(reference_dir(input_dir), submission_dir(input_dir))
    private = os.path.join(output_dir, PRIVATE_DIR) if hosts.private_is_hidden(input_dir) else None
    if prepared.cfg.report == "sealed":
        return _run_sealed(prepared, output_dir, private)
    cfg, ref = prepared.cfg, prepared.ref
    result = prepared.score(cfg.board)
    scores = ordered_scores(result.scores, cfg.primary_key)
    _write_outputs(output_dir, prepared, result, scores)
    if private:
        # Notes quote the gold; board-B scores are the hidden board. Nothing here may change what the
        # participant sees, so a failure is only recorded for the organizer.
        if ref.notes and (cfg.private_output or hosts.organizer_run()):
            write_text(os.path.join(private, "reference_notes.txt"), "\n".join(ref.notes) + "\n")
        if cfg.private_output and cfg.board == "A":
            _privately(private, lambda: write_scores(private, ordered_scores(prepared.score("B").scores,
                                                                                cfg.primary_key), prefix="board_B_"))
    return RunResult(cfg.board, scores, result.summary)


def _write_outputs(output_dir, prepared, result, scores):
    cfg = prepared.cfg
    write_scores(output_dir, scores)
    title = "%s: board %s" % (prepared.family.title, cfg.board)
    sections = [report.Section("Scores", [report.Scores(scores, cfg.primary_key)])] + list(result.sections)
    write_text(os.path.join(output_dir, "detailed_results.html"), report.render(title, sections, result.summary))


def _run_sealed(prepared, output_dir, private):
    """Placeholders where participants look; the real scores and report in ``private`` (or nowhere)."""
    cfg, family = prepared.cfg, prepared.family
    placeholders = {key: SEALED_VALUE for key in ordered_keys(family.leaderboard_keys(cfg.options), cfg.primary_key)}
    write_scores(output_dir, placeholders)
    summary = ("Submission received and valid (checked against all %d test items). Board %s is sealed: its scores "
               "and report are shown when the organizers reveal it." % (len(prepared.ref.units), cfg.board))
    write_text(os.path.join(output_dir, "detailed_results.html"),
               report.sealed_page("%s: board %s" % (family.title, cfg.board), cfg.board, SEALED_VALUE, summary))
    if private:
        def real():
            result = prepared.score(cfg.board)
            _write_outputs(private, prepared, result, ordered_scores(result.scores, cfg.primary_key))
        _privately(private, real)
    return RunResult(cfg.board, placeholders, summary, sealed=True)


def _privately(private, work):
    """Run ``work`` (which writes into ``private``); a failure is written there, never raised."""
    try:
        work()
    except Exception:  # noqa: BLE001  the visible outcome must not depend on hidden data
        write_text(os.path.join(private, PRIVATE_FAILURE), traceback.format_exc())


def ordered_keys(keys, primary):
    """The leaderboard keys with the primary one first."""
    return [primary] + [k for k in keys if k != primary]


def ordered_scores(scores, primary):
    """The primary key first, then the family's order; every value a plain float."""
    ordered = {primary: float(scores[primary])}
    ordered.update((k, float(v)) for k, v in scores.items() if k != primary)
    return ordered
