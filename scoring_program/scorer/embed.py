"""Scoring in-process for hosts that call a function instead of running score.py (EvalAI, Kaggle).

The same steps as ``runner.run`` (config, reference, boards, submission,
score) but several boards at once and nothing written: the caller gets plain
``{board: {key: float}}`` dicts, the primary key first. Errors are the usual
ScoringError subclasses, so a host adapter decides who sees which message.
"""
from .boards import load_boards
from .config import load_config
from .discovery import find_files
from .runner import ordered_scores
from .tasks import families


def score_boards(ref_dir, res_dir, boards=("A", "B")):
    """Scores of the submission in ``res_dir`` on each of ``boards`` (``all`` allowed)."""
    registry = families()
    cfg = load_config(ref_dir, registry)
    family = registry[cfg.task]
    ref = family.load_reference(cfg)
    assignment = load_boards(cfg, ref)
    slots = {s: cfg.files[s] for s in family.submission_slots}
    sub = family.load_submission(find_files(res_dir, slots, family.required_slots), ref, cfg)
    out = {}
    for board in boards:
        result = family.score(ref, sub, assignment.units_of(board), cfg)
        out[board] = {k: float(v) for k, v in ordered_scores(result.scores, cfg.primary_key).items()}
    return out
