"""What a run imports: only the family it scores, and nothing a valid file does not need.

Start-up is a fixed cost of every submission (a third of a small run's time);
these tests fail when a module-level import brings back what the run never
uses: another family's module and metrics, pandas, traceback, zipfile.
"""
import json
import subprocess
import sys

import pytest

from helpers import PROGRAM, ROOT

# family -> the shipped competition of that family
DEMOS = {"bank_comments": ROOT}
DEMOS.update({family: ROOT / "examples" / family
              for family in ("classification", "emotion_cause", "keywords", "multilabel", "regression",
                             "view_sentiment")})


def sample_of(competition):
    kit = competition / "starting_kit"
    return kit / "submission" if (kit / "submission").is_dir() else kit / "sample_submission.csv"


_PROBE = r"""
import json, os, runpy, sys
sys.argv = ["score.py", sys.argv[1], sys.argv[2]]
sys.path.insert(0, %r)
os._exit = sys.exit  # score.py ends with os._exit: here the probe must go on to print what was imported
try:
    runpy.run_path(%r, run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported(input_dir, output_dir):
    probe = _PROBE % (str(PROGRAM), str(PROGRAM / "score.py"))
    proc = subprocess.run([sys.executable, "-c", probe, str(input_dir), str(output_dir)], capture_output=True,
                          text=True, check=True)
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    assert found["code"] in (0, None), proc.stderr
    return set(found["modules"])


@pytest.mark.parametrize("family", sorted(DEMOS))
def test_a_run_imports_its_family_only(tmp_path, family):
    from organizer.phase_data import assemble_input
    competition = DEMOS[family]
    input_dir = assemble_input(competition / "reference_data", "A", sample_of(competition), tmp_path / "input")
    modules = imported(input_dir, tmp_path / "out")
    families = {m.rsplit(".", 1)[1] for m in modules if m.startswith("scorer.tasks.") and m != "scorer.tasks.base"
                and not m.startswith("scorer.tasks._")}  # a family's own helper modules
    assert families == {family}
    if family != "emotion_cause":   # its JSON reader works on pandas Series (conversations, not millions of rows)
        assert "pandas" not in modules
        assert "zipfile" not in modules   # the submissions here are plain files (pandas itself imports zipfile)
    assert "traceback" not in modules
