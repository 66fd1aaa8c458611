"""One scoring run: config -> reference -> boards -> submission -> scores -> outputs."""
import os
from dataclasses import dataclass

from . import report
from .boards import load_boards
from .config import load_config
from .discovery import find_files
from .outputs import write_scores, write_text
from .tasks import families

PRIVATE_DIR = "private"  # CodaLab v1 zips it as private_output.zip, for the competition creator only
ORGANIZER_ENV = "SCORER_ORGANIZER"  # set by the organizer tools: a local run, not a platform's


def organizer_run():
    """True when an organizer tool runs the scorer locally (never on a platform)."""
    return os.environ.get(ORGANIZER_ENV) == "1"


@dataclass
class RunResult:
    board: str
    scores: dict
    summary: str


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
    sub = family.load_submission(find_files(res_dir, slots, family.required_slots), ref, cfg)
    return Prepared(cfg, family, ref, boards, sub)


def run(input_dir, output_dir):
    """Score INPUT into OUTPUT and return what was scored; raises ScoringError subclasses."""
    prepared = prepare(reference_dir(input_dir), submission_dir(input_dir))
    cfg, family, ref = prepared.cfg, prepared.family, prepared.ref

    result = prepared.score(cfg.board)
    scores = ordered_scores(result.scores, cfg.primary_key)
    write_scores(output_dir, scores)
    title = "%s: board %s" % (family.title, cfg.board)
    sections = [report.Section("Scores", [report.Scores(scores, cfg.primary_key)])] + list(result.sections)
    write_text(os.path.join(output_dir, "detailed_results.html"), report.render(title, sections, result.summary))

    # Notes quote the gold, and on Codabench private/ is in the participants' output zip unless the
    # phase hides it: written only when asked for (CodaLab v1) or for an organizer's local run.
    if ref.notes and (cfg.private_output or organizer_run()):
        write_text(os.path.join(output_dir, PRIVATE_DIR, "reference_notes.txt"), "\n".join(ref.notes) + "\n")
    if cfg.private_output and cfg.board == "A":
        hidden = prepared.score("B")
        write_scores(os.path.join(output_dir, PRIVATE_DIR), ordered_scores(hidden.scores, cfg.primary_key),
                     prefix="board_B_")
    return RunResult(cfg.board, scores, result.summary)


def ordered_scores(scores, primary):
    """The primary key first, then the family's order; every value a plain float."""
    ordered = {primary: float(scores[primary])}
    ordered.update((k, float(v)) for k, v in scores.items() if k != primary)
    return ordered
