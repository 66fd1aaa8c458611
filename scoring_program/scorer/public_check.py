"""Checking a submission's format offline, against the public test inputs only (no gold labels).

The starting kit's validate.py calls ``check``: it finds the submitted file the
way the platform will, builds the family's public reference (for example the
ids and text lengths of test_public.csv) and asks the family for *every*
problem, not just the first. Nothing here reads a gold file.

>>> kit_task_config({"task": "t", "board": "A", "boards": {"file": "b.csv"}, "language": "zh"})
{'task': 't', 'language': 'zh', 'board': 'all'}
"""
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import List

from . import i18n
from .config import parse_config
from .discovery import find_files
from .errors import ScoringError, SubmissionError
from .tasks import families


@dataclass
class CheckResult:
    problems: List[str] = field(default_factory=list)
    units: int = 0
    language: str = "en"
    fatal: bool = False   # the check itself could not run (no inputs, no family support)


def kit_task_config(raw):
    """A board config reduced to what does not depend on the board split."""
    out = {k: v for k, v in raw.items() if k not in ("board", "boards")}
    out["board"] = "all"
    return out


def check(submission, public_dir, raw_config):
    """All format problems of ``submission`` (a file, a folder or a zip) against ``public_dir``."""
    registry = families()
    try:
        cfg = parse_config(kit_task_config(raw_config), registry, ref_dir=public_dir)
    except ScoringError as exc:
        return CheckResult([exc.message], fatal=True)
    lang = cfg.language
    family = registry[cfg.task]
    try:
        ref = family.public_reference(public_dir, cfg)
    except ScoringError as exc:
        return CheckResult([exc.message], language=lang, fatal=True)
    if ref is None:
        return CheckResult([i18n.text("no_check", lang, task=cfg.task)], language=lang, fatal=True)
    slots = {s: cfg.files[s] for s in family.submission_slots}
    with _as_res_dir(submission) as res_dir:
        try:
            files = find_files(res_dir, slots, family.required_slots)
        except SubmissionError as exc:
            return CheckResult([exc.message], len(ref.units), lang)
        problems = family.submission_problems(files, ref, cfg)
    return CheckResult(list(problems), len(ref.units), lang)


class _as_res_dir:
    """A folder is used as res/; a file (or zip) is placed alone in a temporary res/."""

    def __init__(self, submission):
        self.submission = submission
        self.tmp = None

    def __enter__(self):
        if os.path.isdir(self.submission):
            return self.submission
        self.tmp = tempfile.mkdtemp(prefix="validate-")
        shutil.copy(self.submission, os.path.join(self.tmp, os.path.basename(self.submission)))
        return self.tmp

    def __exit__(self, *exc):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return False
