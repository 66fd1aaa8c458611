"""The shipped bank demo is exactly what its seeded generator and the board command make."""
import shutil
import subprocess
import sys

from helpers import ROOT


def test_demo_data_regenerates_identically(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "demo_data" / "bank_comments.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    for rel in ("reference_data/gold.csv", "starting_kit/test_public.csv", "starting_kit/sample_submission.csv"):
        assert (tmp_path / rel).read_bytes() == (ROOT / rel).read_bytes(), rel


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
