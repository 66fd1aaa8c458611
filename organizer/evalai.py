"""Build the EvalAI pieces of a competition: the evaluation script and the annotation file.

    python3 -m organizer evalai COMPETITION_DIR OUT_DIR

Writes OUT_DIR/evaluation_script.zip (adapters/evalai/evaluation_script with
the scoring engine copied beside main.py, files at the zip root, as EvalAI
expects) and OUT_DIR/test_annotations.zip (the competition's reference data
with board_A.yaml as config.yaml: the adapter scores both boards from it).
Both zips are deterministic. Name them in challenge_config.yaml
(evaluation_script, test_annotation_file) and link the split codenames
public_split / private_split to the phase (private_split visibility 1).
"""
import argparse
import sys
from pathlib import Path

from . import ROOT
from .bundle import folder_entries, program_dir, reference_zip, zip_bytes

SCRIPT = ROOT / "adapters" / "evalai" / "evaluation_script"


def evaluation_script_zip(competition):
    entries = folder_entries(SCRIPT)
    engine = folder_entries(program_dir(competition) / "scorer", "scorer/")
    entries.update(engine)
    return zip_bytes(entries)


def build(competition, out_dir, board="A"):
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "evaluation_script.zip").write_bytes(evaluation_script_zip(competition))
    (out_dir / "test_annotations.zip").write_bytes(reference_zip(competition, board))
    return out_dir / "evaluation_script.zip", out_dir / "test_annotations.zip"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m organizer evalai", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("out")
    args = parser.parse_args(argv)
    for path in build(args.competition, args.out):
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
