"""Lets the organizer tools import the engine from scoring_program/ (which must stay self-contained)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "scoring_program"
SCORE = PROGRAM / "score.py"
if str(PROGRAM) not in sys.path:
    sys.path.insert(0, str(PROGRAM))
