"""Scoring in-process for hosts that call a function instead of running score.py (EvalAI, Kaggle).

The same steps as ``runner.run`` (config, reference, boards, submission,
score) but several boards at once and nothing written: the caller gets plain
``{board: {key: float}}`` dicts, the primary key first. Errors are the usual
ScoringError subclasses, so a host adapter decides who sees which message.
"""
from .runner import ordered_scores, prepare


def score_boards(ref_dir, res_dir, boards=("A", "B")):
    """Scores of the submission in ``res_dir`` on each of ``boards`` (``all`` allowed)."""
    prepared = prepare(ref_dir, res_dir)
    primary = prepared.cfg.primary_key
    return {board: {k: float(v) for k, v in ordered_scores(prepared.score(board).scores, primary).items()}
            for board in boards}
