"""Checking a submission's format offline, against the public test inputs only (no gold labels).

The starting kit's validate.py calls ``check``: it finds the submitted file the
way the platform will, builds the task's contract from the public test inputs
(for example the ids and text lengths of test_public.csv) and asks the family
for *every* problem, not just the first. Nothing here reads a gold file.
"""
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import List

from . import i18n
from .api import NoOfflineCheck, Task
from .errors import ScoringError, SubmissionError
from .tasks import families


@dataclass
class CheckResult:
    problems: List[str] = field(default_factory=list)
    units: int = 0
    language: str = "en"
    fatal: bool = False   # the check itself could not run (no inputs, no family support)


def check(submission, public_dir, raw_config):
    """All format problems of ``submission`` (a file, a folder or a zip) against ``public_dir``."""
    try:
        task = Task.public(public_dir, raw_config)
    except ScoringError as exc:
        return CheckResult([exc.text(_language(raw_config))], fatal=True)
    except NoOfflineCheck as missing:
        cfg = missing.cfg
        name = families()[cfg.task].public_inputs
        return CheckResult([i18n.text("no_public", cfg.language, name=name, folder=public_dir)],
                           language=cfg.language, fatal=True)
    units, lang = len(task.contract.units), task.cfg.language
    with _as_res_dir(submission) as res_dir:
        try:
            problems = task.problems(res_dir)
        except SubmissionError as exc:  # no file to check at all
            return CheckResult([exc.text(lang)], units, lang)
    return CheckResult([p.text(lang) for p in problems], units, lang)


def _language(raw_config):
    language = raw_config.get("language", "en") if isinstance(raw_config, dict) else "en"
    return language if language in i18n.LANGUAGES else "en"


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
