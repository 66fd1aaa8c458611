"""The kit's warnings reach the participant's page: a section of detailed_results.html, in the competition's
language, with the very lines validate.py prints for the file (family.advice of the whole file against every test
unit: nothing of the board split or of an answer), on board A, on the sealed board B and once revealed alike. The
exit code and the scores files never change because of a warning, nor because the warnings themselves failed.
"""
import html

import pytest
import yaml

from helpers import ROOT, as_platform, read_scores_json, score_in_process, warnings_section, write_files
from organizer.phase_data import assemble_reference
from scorer.kit import check

DEMOS = {"classification": ROOT / "examples" / "classification", "regression": ROOT / "examples" / "regression",
         "bank_comments": ROOT}


def constant_file(family):
    """A valid file that predicts one and the same answer for every item (each family's kit warns of it)."""
    kit = DEMOS[family] / "starting_kit"
    lines = (kit / "sample_submission.csv").read_text(encoding="utf-8").splitlines()
    if family == "classification":
        return "\n".join(["id,label"] + ["%s,good" % l.split(",")[0] for l in lines[1:]]) + "\n"
    if family == "regression":
        return "\n".join(["id,value"] + ["%s,1500" % l.split(",")[0] for l in lines[1:]]) + "\n"
    return "\n".join([lines[0]] + [l.rsplit(",", 1)[0] + ",1" for l in lines[1:]]) + "\n"   # bank: one class


def run(tmp_path, family, board, content, name, reveal=False, platform=None):
    base = tmp_path / name
    assemble_reference(DEMOS[family] / "reference_data", board, base / "in" / "ref", reveal)
    write_files(base / "in" / "res", {"submission.csv": content})
    if platform:
        as_platform(base / "in", platform)
    code, out, err = score_in_process(base / "in", base / "out")
    return code, err, base / "out"


def kit_warnings(tmp_path, family, content):
    path = tmp_path / "kit.csv"
    path.write_text(content, encoding="utf-8")
    config = yaml.safe_load((DEMOS[family] / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    lang = config.get("language", "en")
    return [w.text(lang) for w in check(str(path), str(DEMOS[family] / "starting_kit"), config).warnings], lang


def shown(out):
    return html.unescape(warnings_section((out / "detailed_results.html").read_text(encoding="utf-8"))
                         .replace("<wbr>", ""))


@pytest.mark.parametrize("family", sorted(DEMOS))
def test_the_kits_warnings_are_on_every_page_of_the_file(tmp_path, family):
    content = constant_file(family)
    expected, lang = kit_warnings(tmp_path, family, content)
    assert expected, "the kit warns of a constant file"
    sections = {}
    for board, reveal in (("A", False), ("B", False), ("B", True)):
        code, err, out = run(tmp_path, family, board, content, "%s%s" % (board, reveal), reveal)
        assert code == 0, err
        section = shown(out)
        assert all(w in section for w in expected), (board, reveal, section)
        title = "关于提交文件的提醒" if lang == "zh" else "Warnings about your file"
        assert title in (out / "detailed_results.html").read_text(encoding="utf-8")
        sections[board, reveal] = section
    assert len(set(sections.values())) == 1   # the same on every board: a function of the file alone


def test_a_warning_changes_no_score_and_no_exit_code(tmp_path, monkeypatch):
    """The scores files of a warned file are those of the same run without warnings (the family's advice
    turned off), byte for byte; and a failing advice leaves the run as it is, its traceback for the organizer."""
    from scorer.tasks.classification import FAMILY

    content = constant_file("classification")
    code, err, warned = run(tmp_path, "classification", "A", content, "warned", platform="codalab_v1")
    assert code == 0 and shown(warned), err
    monkeypatch.setattr(FAMILY, "advice", lambda *args: [])
    code, err, quiet = run(tmp_path, "classification", "A", content, "quiet", platform="codalab_v1")
    assert code == 0 and not shown(quiet), err

    def broken(*args):
        raise RuntimeError("a bug in the warnings")

    monkeypatch.setattr(FAMILY, "advice", broken)
    code, err, failed = run(tmp_path, "classification", "A", content, "failed", platform="codalab_v1")
    assert code == 0 and err == "" and not shown(failed)
    for name in ("scores.txt", "scores.json"):
        assert (warned / name).read_bytes() == (quiet / name).read_bytes() == (failed / name).read_bytes()
    assert (failed / "detailed_results.html").read_bytes() == (quiet / "detailed_results.html").read_bytes()
    assert "a bug in the warnings" in (failed / "private" / "advice_failure.txt").read_text(encoding="utf-8")
    assert read_scores_json(warned)["accuracy"] > 0


def test_a_clean_file_has_no_section(tmp_path):
    code, err, out = run(tmp_path, "classification", "A",
                         (DEMOS["classification"] / "starting_kit" / "sample_submission.csv").read_text(), "clean")
    assert code == 0 and not shown(out) and "Warnings about your file" not in \
        (out / "detailed_results.html").read_text(encoding="utf-8")
