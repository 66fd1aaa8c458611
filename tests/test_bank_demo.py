"""The shipped demos' board splits are what the board command makes from its seed: organizers rely on that."""
import shutil

from helpers import ROOT, organizer


def test_board_split_regenerates_identically(tmp_path):
    copy = tmp_path / "competition"
    (copy / "reference_data").mkdir(parents=True)
    for name in ("gold.csv", "board_A.yaml", "board_B.yaml"):
        shutil.copy2(ROOT / "reference_data" / name, copy / "reference_data" / name)
    proc = organizer("boards", copy)
    assert proc.returncode == 0, proc.stderr
    assert (copy / "reference_data" / "boards.csv").read_bytes() == (ROOT / "reference_data" / "boards.csv").read_bytes()
    # per class (the strata): 40% on board A, whole comments; the table sums to 2000 and 3000
    assert proc.stdout.splitlines()[-1].split() == ["all", "2000", "3000"]


def test_an_existing_split_is_kept_unless_forced(tmp_path):
    copy = tmp_path / "competition"
    shutil.copytree(ROOT / "reference_data", copy / "reference_data")
    (copy / "reference_data" / "boards.csv").write_text("id,board\n", encoding="utf-8")
    proc = organizer("boards", copy, "--seed", "7")
    assert proc.returncode == 2 and "--force" in proc.stderr and proc.stderr.count("\n") == 1
    assert (copy / "reference_data" / "boards.csv").read_text(encoding="utf-8") == "id,board\n"
    assert organizer("boards", copy, "--seed", "7", "--force").returncode == 0
    assert len((copy / "reference_data" / "boards.csv").read_text(encoding="utf-8").splitlines()) == 5001


def test_every_demo_split_regenerates_identically(tmp_path):
    """The strata are computed only when the split asks for them (Reference.unit_strata): the same split."""
    for demo in sorted(p for p in (ROOT / "examples").iterdir() if (p / "reference_data" / "boards.csv").exists()):
        copy = tmp_path / demo.name
        shutil.copytree(demo / "reference_data", copy / "reference_data")
        (copy / "reference_data" / "boards.csv").unlink()
        proc = organizer("boards", copy)
        assert proc.returncode == 0, proc.stderr
        assert ((copy / "reference_data" / "boards.csv").read_bytes()
                == (demo / "reference_data" / "boards.csv").read_bytes()), demo.name
