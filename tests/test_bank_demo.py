"""The shipped bank demo's board split is what the board command makes from its seed: organizers rely on that."""
import shutil
import subprocess
import sys

from helpers import ROOT


def test_board_split_regenerates_identically(tmp_path):
    copy = tmp_path / "competition"
    (copy / "reference_data").mkdir(parents=True)
    for name in ("gold.csv", "board_A.yaml", "board_B.yaml"):
        shutil.copy2(ROOT / "reference_data" / name, copy / "reference_data" / name)
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "make_boards.py"), str(copy)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "board A 2000, board B 3000" in proc.stdout
    assert (copy / "reference_data" / "boards.csv").read_bytes() == (ROOT / "reference_data" / "boards.csv").read_bytes()
