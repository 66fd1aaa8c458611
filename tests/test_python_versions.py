"""The program must run on Python 3.9+ (platform images range from 3.9 to 3.12): checked statically."""
import subprocess
import sys
from pathlib import Path

from helpers import ROOT


def test_scoring_program_and_tools_need_at_most_python_3_9():
    targets = [str(ROOT / p) for p in ("scoring_program", "organizer", "adapters", "starting_kit") if (ROOT / p).exists()]
    proc = subprocess.run([str(Path(sys.executable).parent / "vermin"), "-t=3.9-", "--no-tips", "--violations",
                           "--eval-annotations"] + targets, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
