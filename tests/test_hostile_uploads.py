"""The hostile corpus (hostile_corpus.py) against score.py: every case ends as it must, and says so in one line.

For every malformed upload, broken configuration or broken reference set: the exact exit code, exactly one
stderr line without a traceback and with the case's key words, no scores file left in OUTPUT (an earlier
run's are put there first), an escaped page, quoted values cut short, no invisible or reordering character
on stderr. Reference-data cases run in CodaLab v1's layout, where the details go to OUTPUT/private/ and
are checked there. Shape-only variants of a valid upload score exactly as the upload itself.
"""
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from helpers import SCORE, as_platform, read_scores, score_in_process, write_files
from hostile_corpus import DEMO, HOSTILE, all_cases, all_shapes, board_config, sample

from organizer.layout import reference_files  # noqa: E402

CASES = all_cases()
SHAPES = all_shapes()
STALE = "score: 0.9999999999\n"
MAX_LINE = 600
_INVISIBLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


def build_input(tmp_path, case_or_family, files=None, board="A"):
    family = case_or_family if isinstance(case_or_family, str) else case_or_family.family
    case = None if isinstance(case_or_family, str) else case_or_family
    base = tmp_path / "input"
    ref = base / "ref"
    ref.mkdir(parents=True)
    for path in reference_files(DEMO[family] / "reference_data"):
        shutil.copy(path, ref / path.name)
    config = board_config(family, board)
    if case is not None and case.config is not None:
        case.config(config)
    (ref / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    if case is not None and case.raw_config is not None:
        (ref / "config.yaml").write_bytes(case.raw_config)
    if case is not None and case.reference is not None:
        case.reference(ref)
    res = base / "res"
    res.mkdir()
    if case is not None and case.res_setup is not None:
        case.res_setup(res)
    else:
        write_files(res, files if files is not None else (case.files if case and case.files is not None
                                                          else sample(family)))
    return base


def test_the_corpus_is_large_enough():
    uploads = [c for c in CASES if c.code == 1]
    broken = [c for c in CASES if c.code == 2]
    assert len({c.id for c in CASES}) == len(CASES)
    assert len(uploads) >= 150 and len(broken) >= 40, (len(uploads), len(broken))
    assert {c.family for c in uploads} == set(DEMO) == {c.family for c in broken}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_case_ends_with_its_exit_code_and_one_clear_line(tmp_path, case):
    inp = build_input(tmp_path, case)
    if case.code == 2 and case.reference is not None:
        as_platform(inp, "codalab_v1")  # reference details are the organizer's: private/ there
    out = tmp_path / "output"
    out.mkdir()
    (out / "scores.txt").write_text(STALE, encoding="utf-8")           # an earlier run's, in a reused OUTPUT
    (out / "scores.json").write_text('{"score": 0.99}\n', encoding="utf-8")
    if case.subprocess:
        proc = subprocess.run([sys.executable, str(SCORE), str(inp), str(out)], capture_output=True, text=True,
                              timeout=120, cwd=str(tmp_path), errors="surrogateescape")
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    else:
        code, stdout, stderr = score_in_process(inp, out)
    lines = [l for l in stderr.splitlines() if l.strip()]
    assert code == case.code, (code, stderr)
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    line = lines[0]
    assert len(line) < MAX_LINE, line[:300]
    assert not _INVISIBLE.search(line), line
    assert not (out / "scores.txt").exists() and not (out / "scores.json").exists()
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<img" not in page and "\u202e" not in page
    details = line
    if case.code == 2 and case.reference is not None:
        assert "reference data of this phase is invalid" in line
        details = (out / "private" / "organizer_error.txt").read_text(encoding="utf-8")
    for word in case.words:
        assert word in details, (word, details)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_a_valid_upload_in_another_shape_scores_exactly_the_same(tmp_path, shape):
    plain = build_input(tmp_path / "plain", shape.family)
    other = build_input(tmp_path / "shape", shape.family, shape.files)
    code1, _, err1 = score_in_process(plain, tmp_path / "plain" / "out")
    code2, _, err2 = score_in_process(other, tmp_path / "shape" / "out")
    assert code1 == 0 and code2 == 0, (err1, err2)
    assert read_scores(tmp_path / "plain" / "out") == read_scores(tmp_path / "shape" / "out")


def test_an_output_folder_that_cannot_be_written_is_one_line_exit_3(tmp_path):
    inp = build_input(tmp_path, "keywords")
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    for out in (blocker, blocker / "output", "/proc/version/output"):
        proc = subprocess.run([sys.executable, str(SCORE), str(inp), str(out)], capture_output=True, text=True)
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        assert proc.returncode == 3 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "output folder" in lines[0]


def test_hostile_strings_reach_stderr_and_the_page_only_escaped(tmp_path):
    name = "a%s.txt" % HOSTILE.replace("/", "_")
    inp = build_input(tmp_path, "keywords", {name: b"x"})
    code, _, err = score_in_process(inp, tmp_path / "out")
    assert code == 1 and "\\u202e\\u200b" in err and "\u202e" not in err
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in page and "<script" not in page


@pytest.mark.parametrize("method", ["stored", "deflated", "bzip2", "lzma"])
def test_a_zip_member_is_unpacked_no_further_than_its_directory_says(tmp_path, method):
    import zipfile
    from hostile_corpus import _lying, zip_of
    from scorer.discovery import list_files
    from scorer.errors import SubmissionError
    from scorer.limits import check_size

    method = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2,
              "lzma": zipfile.ZIP_LZMA}[method]
    data = b"id,keywords\n" + b"k" * 50000 + b"\n"
    (tmp_path / "upload.zip").write_bytes(zip_of({"s.csv": data}, method))
    found, = list_files(str(tmp_path))
    assert found.read_bytes() == data and check_size({"s": found}, 10 ** 6)["s"].read_bytes() == data
    (tmp_path / "upload.zip").write_bytes(_lying(zip_of({"s.csv": data}, method)))
    found, = list_files(str(tmp_path))
    for file, words in ((found, "unpacks to more than the 1000 B"),   # the offline check: no cap
                        (check_size({"s": found}, 10 ** 6)["s"], "this phase's cap of 976.6 KB")):
        with pytest.raises(SubmissionError) as refused:
            file.read_bytes()
        assert words in refused.value.text("en") and "upload.zip/s.csv" in refused.value.text("zh")


def test_a_zip_member_whose_data_ends_early_is_a_damaged_zip(tmp_path):
    import zipfile
    from hostile_corpus import zip_of
    from scorer.discovery import list_files
    from scorer.errors import SubmissionError

    import struct
    data = bytearray(zip_of({"s.csv": bytes(range(256)) * 400}, zipfile.ZIP_DEFLATED))
    for sig, compressed_at in ((b"PK\x03\x04", 18), (b"PK\x01\x02", 20)):  # the stream said half as long
        at = data.find(sig)
        struct.pack_into("<I", data, at + compressed_at, struct.unpack_from("<I", data, at + compressed_at)[0] // 2)
    (tmp_path / "upload.zip").write_bytes(bytes(data))
    found, = list_files(str(tmp_path))
    with pytest.raises(SubmissionError) as refused:
        found.read_bytes()
    assert "cannot be read from the zip" in refused.value.text("en")


def test_a_keyword_of_megabytes_scores_as_any_other_keyword_outside_the_gold(tmp_path):
    from hostile_corpus import as_csv, sample_table
    name, header, rows = sample_table("keywords")
    row = next(i for i, r in enumerate(rows) if r[1])
    scored = {}
    for label, extra in (("long", "k" * (3 << 20)), ("short", "no-such-keyword")):
        changed = [list(r) for r in rows]
        changed[row][1] += "_" + extra
        inp = build_input(tmp_path / label, "keywords", {name: as_csv(header, changed)})
        code, _, err = score_in_process(inp, tmp_path / label / "out")
        assert code == 0, err
        scored[label] = read_scores(tmp_path / label / "out")
    assert scored["long"] == scored["short"]
