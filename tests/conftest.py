import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring_program"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the organizer package
