#!/usr/bin/env python3
"""How fast, and in how little memory, the worst uploads are refused (whole score.py process).

    python3 benchmarks/bench_hostile.py

On the shipped bank competition's board A: a zip bomb (a 1 MB zip whose member inflates to 1 GB), a
plain file ten times the size cap, the same file zipped, and a 3 GB sparse file; beside them the valid
sample submission, scored. Targets: refused in under 2 s and under 300 MB. The cap is the default,
20 times the reference files, at least 16 MiB (scoring_program/scorer/limits.py).
"""
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import SCORE, run_measured, table  # noqa: E402
from organizer.phase_data import assemble_reference  # noqa: E402

SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"
MB = 2 ** 20


def zip_bomb(path, inflated):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("sample_submission.csv", "w", force_zip64=True) as member:
            chunk = b"0" * (8 * MB)
            for _ in range(inflated // len(chunk)):
                member.write(chunk)


def oversized(path, size):
    data = SAMPLE.read_bytes()
    header, body = data.split(b"\n", 1)
    with open(path, "wb") as fh:
        fh.write(header + b"\n")
        written = len(header) + 1
        while written < size:
            fh.write(body)
            written += len(body)


def main():
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.limits import submission_cap

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ref = assemble_reference(ROOT / "reference_data", "A", tmp / "ref")
        gold_bytes = sum(p.stat().st_size for p in ref.iterdir() if p.name != "config.yaml")
        cap = submission_cap(None, sum((ref / n).stat().st_size for n in ("gold.csv",)))
        cases = []
        bomb = tmp / "bomb.zip"
        zip_bomb(bomb, 1024 * MB)
        cases.append(("zip bomb: 1 GB inflated", bomb, 1024 * MB))
        big = tmp / "sample_submission.csv"
        oversized(big, 10 * cap)
        cases.append(("plain file, 10x the cap", big, big.stat().st_size))
        big_zip = tmp / "big.zip"
        with zipfile.ZipFile(big_zip, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(big, "sample_submission.csv")
        cases.append(("the same, zipped", big_zip, big.stat().st_size))
        sparse = tmp / "sparse" / "sample_submission.csv"
        sparse.parent.mkdir()
        with open(sparse, "wb") as fh:
            fh.truncate(3 * 1024 * MB)
        cases.append(("sparse file of 3 GB", sparse, 3 * 1024 * MB))
        cases.append(("valid sample (scored)", SAMPLE, SAMPLE.stat().st_size))
        for label, upload, inflated in cases:
            run = tmp / "run"
            if run.exists():
                shutil.rmtree(run)
            shutil.copytree(ref, run / "input" / "ref")
            (run / "input" / "res").mkdir()
            target = run / "input" / "res" / upload.name
            os.link(upload, target) if upload.stat().st_dev == run.stat().st_dev else shutil.copy(upload, target)
            result = run_measured([sys.executable, str(SCORE), str(run / "input"), str(run / "output")])
            rows.append([label, "%.1f" % (upload.stat().st_blocks * 512 / MB), "%.0f" % (inflated / MB),
                         result["rc"], "%.2f" % result["wall"], "%.0f" % result["peak_mib"]])
    print("Reference data: %.1f MB; default cap: %.0f MB. Targets for a refusal: under 2 s and 300 MB.\n"
          % (gold_bytes / MB, cap / MB))
    print(table(["upload", "on disk MB", "uncompressed MB", "exit", "wall s", "peak MiB"], rows))


if __name__ == "__main__":
    main()
