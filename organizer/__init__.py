"""The organizer's tools, one command: ``python3 -m organizer <subcommand>`` (``python3 -m organizer -h``).

The scoring engine is scoring_program/ (what is uploaded to the platforms, so it
stays self-contained); this package puts it on the import path, here and only
here, so that every tool uses the engine through one module (``scorer.public``).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "scoring_program"
SCORE = PROGRAM / "score.py"
if str(PROGRAM) not in sys.path:
    sys.path.insert(0, str(PROGRAM))
