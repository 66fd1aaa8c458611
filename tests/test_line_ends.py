"""One reading of line ends in every family: CR (old Mac exports), LF and CRLF each end a line, as an editor shows
them, also mixed in one file (tables.read_table and tables.header_names, the shared reader).

For each of the seven shipped competitions the sample submission is written with each kind of line end and
scored on board A: every scores file and page is byte-identical to the LF file's. And a refused row is named on
the same line whatever ends the lines (the CSV families; an emotion-cause file is JSON, where line ends are
white space and no message counts lines).
"""
import re
from pathlib import Path

import pytest

from bundle_shared import comp_id, competitions, sample_submission
from helpers import run_score
from organizer.phase_data import assemble_input

ENDS = {"LF": b"\n", "CR": b"\r", "CRLF": b"\r\n"}


def with_ends(data, kind):
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    if kind == "mixed":   # CR, LF and CRLF in turn
        ends = [b"\r", b"\n", b"\r\n"]
        return b"".join(line + ends[k % 3] for k, line in enumerate(lines[:-1])) + lines[-1]
    return ENDS[kind].join(lines)


def run(competition, files, folder):
    sub = folder / "sub"
    for name, data in files.items():
        (sub / name).parent.mkdir(parents=True, exist_ok=True)
        (sub / name).write_bytes(data)
    inp = assemble_input(Path(competition) / "reference_data", "A", sub, folder / "input")
    proc = run_score(inp, folder / "out")
    outputs = {p.name: p.read_bytes() for p in sorted((folder / "out").iterdir()) if p.is_file()}
    return proc, outputs


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_every_family_reads_cr_lf_and_crlf_alike(competition, tmp_path):
    sample = sample_submission(competition)
    assert all(b"\r" not in data for data in sample.values())
    base, expected = run(competition, sample, tmp_path / "LF")
    assert base.returncode == 0, base.stderr
    for kind in ("CR", "CRLF", "mixed"):
        proc, outputs = run(competition, {n: with_ends(d, kind) for n, d in sample.items()}, tmp_path / kind)
        assert proc.returncode == 0, (kind, proc.stderr)
        assert outputs == expected, kind


CSV_FAMILIES = [c for c in competitions() if any(n.endswith(".csv") for n in sample_submission(c))]


@pytest.mark.parametrize("competition", CSV_FAMILIES, ids=comp_id)
def test_a_refused_row_is_named_on_the_same_line_whatever_ends_the_lines(competition, tmp_path):
    name, data = next((n, d) for n, d in sample_submission(competition).items() if n.endswith(".csv"))
    lines = data.split(b"\n")
    first = lines[3].split(b"\t" if b"\t" in lines[0] else b",")[0]
    lines[3] = lines[3].replace(first, b"no_such_id", 1)   # the third data row: file line 4
    broken = b"\n".join(lines)
    found = set()
    for kind in ("LF", "CR", "CRLF", "mixed"):
        proc, _ = run(competition, {name: with_ends(broken, kind)}, tmp_path / kind)
        assert proc.returncode == 1, (kind, proc.stderr)
        found.add(re.sub(r"\s+", " ", proc.stderr.strip()))
    assert len(found) == 1, found
    line = found.pop()
    assert ("line 4" in line or "第 4 行" in line), line   # the Chinese demos say it in Chinese
