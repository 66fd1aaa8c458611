"""Which platform runs us, and whether OUTPUT/private/ is kept apart from what participants download there.

Only one platform keeps a folder of the scoring output apart:

- CodaLab v1: the compute worker zips ``OUTPUT/private/`` into
  private_output.zip and removes it before building output.zip
  (competitions-v1-compute-worker, worker.py, ``run``); the web app's file view
  serves private_output.zip to the competition creator only
  (codalab-competitions, apps/web/models.py,
  ``CompetitionSubmission.get_file_for_download``), but its API gives the
  submitter a signed link to it (apps/api/views/competition_views.py,
  ``SubmissionScoreView.get``): the folder holds nothing but what concerns the
  board the phase scores (a phase's reference data holds no other answer). Its
  runs are recognised by
  ``INPUT/metadata``, the input bundle the site writes with
  ``competition-phase`` and ``submitted-by`` lines (apps/web/tasks.py,
  ``score``), which the worker unpacks into INPUT.
- Codabench: the whole OUTPUT folder becomes the scoring-result zip
  (compute_worker/compute_worker.py, ``push_output``), which participants may
  download unless the phase hides it (src/apps/api/serializers/submissions.py,
  ``get_scoring_result``). Its runs are recognised by INPUT mounted at
  ``/app/input`` (compute_worker.py, ``_run_program_directory``) or by the
  ``metadata`` file with ``exitCode`` its prediction step adds to res/
  (``push_output``).

Anything else is a local run (a participant's starting kit, a test). The
organizer tools set ``SCORER_ORGANIZER=1``: they run on the organizer's own
machine, where every detail may be shown.

>>> detect("/nonexistent/input")
'local'
"""
import os

import yaml

CODALAB_V1 = "codalab_v1"
CODABENCH = "codabench"
LOCAL = "local"
ORGANIZER_ENV = "SCORER_ORGANIZER"
CODABENCH_INPUT = "/app/input"
_V1_KEYS = ("competition-phase", "submitted-by", "competition-submission")
_METADATA_LIMIT = 1 << 16   # the platforms' metadata files are a few hundred bytes


def organizer_run():
    """True when an organizer tool runs the scorer on the organizer's machine."""
    return os.environ.get(ORGANIZER_ENV) == "1"


def detect(input_dir):
    """``codalab_v1``, ``codabench`` or ``local``: who made ``input_dir``."""
    meta = _mapping(os.path.join(input_dir, "metadata"))
    if any(key in meta for key in _V1_KEYS):
        return CODALAB_V1
    if os.path.abspath(input_dir) == CODABENCH_INPUT:
        return CODABENCH
    if "exitCode" in _mapping(os.path.join(input_dir, "res", "metadata")):
        return CODABENCH
    return LOCAL


def private_kept_apart(input_dir):
    """True where OUTPUT/private/ is kept out of the participant's output: CodaLab v1, or an organizer's own run."""
    return organizer_run() or detect(input_dir) == CODALAB_V1


def _mapping(path):
    """A small YAML mapping file as a dict; {} when absent, too large or not a mapping (never raises)."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _METADATA_LIMIT:
            return {}
        with open(path, "rb") as fh:
            value = yaml.safe_load(fh.read().decode("utf-8", "replace"))
    except (OSError, yaml.YAMLError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}
