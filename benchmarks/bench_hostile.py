#!/usr/bin/env python3
"""How fast, and in how little memory, the worst uploads are refused or scored (whole score.py process).

    python3 benchmarks/bench_hostile.py [--only WORD ...] [--program PATH]

Each upload is scored on board A of a shipped competition, as a platform runs it, with that phase's size cap
(20 times the public inputs, at least 16 MiB: scoring_program/scorer/limits.py) unless the row says otherwise:

- bank comments: a zip bomb (a 1 MB zip whose member inflates to 1 GiB), a plain file ten times the cap, the
  same file zipped, a 3 GiB sparse file; a zip whose directory says its member holds 1 KB while it inflates
  to 1 GiB; the sample with a 4 MB id; and the valid sample, scored;
- keywords: the sample with one keyword of 16 MB (scored);
- multi-label, the cap raised to 256 MB: the sample whose first score is written with 200 MB of digits,
  0.694 followed by zeros (scored, as 0.694).

Targets: every row in under 2 s and under 300 MB. ``--program`` times another copy of scoring_program/ (an
older one, to compare); ``--only`` keeps the rows whose label holds one of the words.
"""
import argparse
import os
import shutil
import struct
import sys
import tempfile
import zipfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import SCORE, run_measured, table  # noqa: E402
from organizer.phase_data import assemble_reference  # noqa: E402

BANK = ROOT
KEYWORDS = ROOT / "examples" / "keywords"
MULTILABEL = ROOT / "examples" / "multilabel"
MB = 2 ** 20


def sample_of(competition):
    return competition / "starting_kit" / "sample_submission.csv"


def zip_bomb(path, inflated):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("sample_submission.csv", "w", force_zip64=True) as member:
            chunk = b"0" * (8 * MB)
            for _ in range(inflated // len(chunk)):
                member.write(chunk)


def lying_zip(path, inflated, declared=1024):
    """A zip whose one member inflates to ``inflated`` bytes while its local header and the central directory
    say ``declared``: a size check that trusts the directory lets it through."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("sample_submission.csv", "w") as member:
            chunk = b"0" * (8 * MB)
            for _ in range(inflated // len(chunk)):
                member.write(chunk)
    data = bytearray(path.read_bytes())
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):   # uncompressed size, both records
        at = data.find(signature)
        struct.pack_into("<I", data, at + size_at, declared)
    path.write_bytes(bytes(data))


def oversized(path, size):
    data = sample_of(BANK).read_bytes()
    header, body = data.split(b"\n", 1)
    with open(path, "wb") as fh:
        fh.write(header + b"\n")
        written = len(header) + 1
        while written < size:
            fh.write(body)
            written += len(body)


def with_first_cell(competition, path, column, make):
    """The competition's sample with cell ``column`` of its first row replaced by ``make(old)`` (bytes), written
    without holding a second copy of a long cell."""
    header, first, rest = sample_of(competition).read_bytes().split(b"\n", 2)
    fields = first.split(b",")
    at = header.split(b",").index(column)
    with open(path, "wb") as fh:
        fh.write(header + b"\n" + b",".join(fields[:at]) + (b"," if at else b""))
        for piece in make(fields[at]):
            fh.write(piece)
        fh.write((b"," if at + 1 < len(fields) else b"") + b",".join(fields[at + 1:]) + b"\n" + rest)


def repeated(head, byte, n):
    """``head`` then ``n`` times ``byte``, in pieces of 8 MB."""
    yield head
    piece = byte * (8 * MB)
    for _ in range(n // len(piece)):
        yield piece
    yield byte * (n % len(piece))


def cases(tmp):
    """(label, competition, cap in MB or None for the phase's, the upload, its uncompressed bytes), built lazily."""
    def bomb():
        zip_bomb(tmp / "bomb.zip", 1024 * MB)
        return tmp / "bomb.zip", 1024 * MB

    def big(cap):
        path = tmp / "big" / "sample_submission.csv"
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            oversized(path, 10 * cap)
        return path, path.stat().st_size

    def big_zip(cap):
        path, size = big(cap)
        with zipfile.ZipFile(tmp / "big.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(path, "sample_submission.csv")
        return tmp / "big.zip", size

    def sparse():
        path = tmp / "sparse" / "sample_submission.csv"
        path.parent.mkdir()
        with open(path, "wb") as fh:
            fh.truncate(3 * 1024 * MB)
        return path, 3 * 1024 * MB

    def lying():
        lying_zip(tmp / "lying.zip", 1024 * MB)
        return tmp / "lying.zip", 1024 * MB

    def long_cell(competition, column, make, name):
        path = tmp / name / "sample_submission.csv"
        path.parent.mkdir()
        with_first_cell(competition, path, column, make)
        return path, path.stat().st_size

    return [
        ("zip bomb: 1 GiB inflated", BANK, None, lambda cap: bomb()),
        ("plain file, 10x the cap", BANK, None, big),
        ("the same, zipped", BANK, None, big_zip),
        ("sparse file of 3 GiB", BANK, None, lambda cap: sparse()),
        ("zip saying 1 KB, inflating to 1 GiB", BANK, None, lambda cap: lying()),
        ("a 4 MB id", BANK, None, lambda cap: long_cell(BANK, b"id", lambda old: repeated(b"", b"7", 4 * 10 ** 6),
                                                        "long_id")),
        ("valid sample (scored)", BANK, None, lambda cap: (sample_of(BANK), sample_of(BANK).stat().st_size)),
        ("keywords: a 16 MB keyword (scored)", KEYWORDS, None, lambda cap: long_cell(
            KEYWORDS, b"keywords", lambda old: repeated(b"", b"k", 16 * 10 ** 6), "long_keyword")),
        ("multi-label: a score of 200 MB of digits (scored)", MULTILABEL, 256, lambda cap: long_cell(
            MULTILABEL, b"scores", lambda old: long_first_score(old, 200 * 10 ** 6), "long_number")),
    ]


def long_first_score(cell, digits):
    """The scores cell with its first score followed by zeros up to ``digits`` bytes (the same value)."""
    first, rest = cell.split(b" ", 1)
    yield from repeated(first, b"0", digits - len(first))
    yield b" " + rest


def reference(tmp, competition, cap_mb):
    """A phase's reference data of board A (the phase's cap, or ``cap_mb``); returns (folder, its cap in bytes)."""
    ref = tmp / ("ref_%s_%s" % (competition.name, cap_mb))
    if not ref.exists():
        assemble_reference(competition / "reference_data", "A", ref)
        config = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
        if cap_mb is not None:
            config["max_submission_mb"] = cap_mb
            (ref / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    config = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    return ref, int(config["max_submission_mb"] * MB)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", help="rows whose label holds one of these words")
    parser.add_argument("--program", type=Path, help="time this copy of scoring_program/ instead")
    args = parser.parse_args(argv)
    score = args.program / "score.py" if args.program else SCORE
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for label, competition, cap_mb, make in cases(tmp):
            if args.only and not any(word in label for word in args.only):
                continue
            ref, cap = reference(tmp, competition, cap_mb)
            upload, inflated = make(cap)
            run = tmp / "run"
            if run.exists():
                shutil.rmtree(run)
            shutil.copytree(ref, run / "input" / "ref")
            (run / "input" / "res").mkdir()
            target = run / "input" / "res" / upload.name
            os.link(upload, target) if upload.stat().st_dev == run.stat().st_dev else shutil.copy(upload, target)
            result = run_measured([sys.executable, str(score), str(run / "input"), str(run / "output")])
            said = (result["err"].strip().splitlines() or [""])[-1]
            rows.append([label, "%.0f" % (cap / MB), "%.1f" % (upload.stat().st_blocks * 512 / MB),
                         "%.0f" % (inflated / MB), result["rc"], "%.2f" % result["wall"], "%.0f" % result["peak_mib"],
                         (said[:70] + "...") if len(said) > 70 else said])
            print("done: %s" % label, file=sys.stderr)
    print("Targets: under 2 s and 300 MB each.%s\n" % (" Program: %s" % args.program if args.program else ""))
    print(table(["upload", "cap MB", "on disk MB", "uncompressed MB", "exit", "wall s", "peak MiB", "stderr"], rows))


if __name__ == "__main__":
    main()
