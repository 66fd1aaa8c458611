"""A regression competition end to end: made by ``organizer new`` from public data, linted, bundled and scored; the
kit's warnings; the demo competition.

Public data: ../shared/data has no data set with a numeric target, so one is derived, honestly: the CSL
abstracts of ``keywords/csl_kg`` (dev.tsv and test.tsv: task, abstract + title, the author keywords joined by
``_``), and as the target the number of keywords the authors gave each abstract. The inputs are the abstract
and its length in characters; the count is a real property of each paper, read from its own row. The lines
that make the gold and the ``organizer new`` command are docs/organizers.md's, run as written; nothing of the
data is copied into the project: they write into a temporary folder.
"""
import csv
import os
import re
import shlex
import subprocess
import sys
import zipfile

import numpy as np
import pandas as pd
import pytest

from bundle_shared import says_board_a_answers_only
from helpers import ROOT, SHARED_DATA, organizer, read_scores, run_score
from organizer.phase_data import assemble_input
from scorer.kit import check, report_lines

CSL = SHARED_DATA / "keywords" / "csl_kg"
DEMO = ROOT / "examples" / "regression"


def docs_lines():
    """(the python block, the ``organizer new`` command as argv) of the regression recipe in docs/organizers.md."""
    text = (ROOT / "docs" / "organizers.md").read_text(encoding="utf-8")
    start = text.index("## 1. Start a competition")
    section = text[start:text.index("\n## ", start + 1)]
    [block] = [b for b in re.findall(r"```python\n(.*?)```", section, re.S) if "cslcount" in b]
    [command] = [l.strip() for l in section.splitlines() if l.strip().startswith("python3 -m organizer new regression ")]
    return block, shlex.split(command)


@pytest.fixture(scope="module")
def csl_competition(tmp_path_factory):
    """The docs' lines run as written, from a folder laid out like the project root (../shared beside it)."""
    if not (CSL / "test.tsv").exists() or not (CSL / "dev.tsv").exists():
        pytest.skip("the CSL keyword data is not in %s (shared/ beside the project)" % CSL)
    base = tmp_path_factory.mktemp("csl")
    (base / "shared").symlink_to(SHARED_DATA.parent, target_is_directory=True)
    project = base / "project"
    project.mkdir()
    block, argv = docs_lines()
    proc = subprocess.run([sys.executable, "-c", block], cwd=str(project), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable] + argv[1:], cwd=str(project), capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert says_board_a_answers_only(proc.stdout), proc.stdout
    read = lambda split: pd.read_csv(project / "out" / ("cslcount_%s.csv" % split), dtype={"id": str})  # noqa: E731
    test, dev = read("test"), read("dev")
    # the target is the number of keywords of each row, counted here from the source file
    source = pd.read_csv(CSL / "test.tsv", sep="\t", header=None, dtype=str, keep_default_na=False,
                         quoting=csv.QUOTE_NONE)
    assert test["value"].tolist() == [len([w for w in k.split("_") if w]) for k in source[2]]
    return project / argv[6], test, dev


def test_new_makes_a_competition_from_public_data_that_lints_bundles_and_scores(csl_competition, tmp_path):
    out, test, dev = csl_competition
    public = pd.read_csv(out / "starting_kit" / "test_public.csv", dtype=str, keep_default_na=False)
    assert list(public.columns) == ["id", "text", "length"]        # no value in the kit
    assert list(pd.read_csv(out / "reference_data" / "gold.csv").columns) == ["id", "value"]
    yaml_text = (out / "competition.yaml").read_text(encoding="utf-8")
    assert "rmse:" in yaml_text and "sort: asc" in yaml_text and "kendall:" in yaml_text
    bundle = tmp_path / "csl.zip"
    proc = organizer("bundle", out, bundle)
    assert proc.returncode == 0 and "0 error(s)" in proc.stdout, proc.stdout + proc.stderr
    assert "reference_data_A.zip" in zipfile.ZipFile(bundle).namelist()
    # the baseline: a least-squares line on the dev set's best numeric column (the length)
    sample = pd.read_csv(out / "starting_kit" / "sample_submission.csv", dtype={"id": str})
    x, y = dev["length"].to_numpy(float), dev["value"].to_numpy(float)
    slope, intercept = np.polyfit(x, y, 1)
    expected = intercept + slope * test["length"].to_numpy(float)
    assert np.allclose(sample["value"].to_numpy(), np.maximum(expected, 0), rtol=1e-5)
    proc = organizer("score", out, "A", out / "starting_kit" / "sample_submission.csv", tmp_path / "A")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "A" / "output")
    # the oracle on board A's units, from the files
    from sklearn.metrics import root_mean_squared_error
    boards = pd.read_csv(out / "reference_data" / "boards.csv", dtype=str)
    on_a = set(boards.loc[boards["board"] == "A", "id"])
    gold = test.set_index("id")["value"]
    pred = sample.set_index("id")["value"]
    ids = [i for i in test["id"] if i in on_a]
    assert scores["rmse"] == pytest.approx(root_mean_squared_error(gold[ids], pred[ids]), abs=1e-9)
    proc = organizer("score", out, "B", out / "starting_kit" / "sample_submission.csv", tmp_path / "B")
    assert proc.returncode == 0 and set(read_scores(tmp_path / "B" / "output").values()) == {-1.0}


def test_the_kit_scores_its_dev_set_and_warns_about_another_scale(csl_competition, tmp_path):
    out, test, _ = csl_competition
    kit = out / "starting_kit"
    config = dict(task="regression", board="A", language="en", options={"value_range": [0, 40]})
    scaled = tmp_path / "scaled.csv"
    pd.DataFrame({"id": test["id"], "value": test["value"] / 100.0}).to_csv(scaled, index=False)
    lines, code = report_lines(check(str(scaled), str(kit), config), scaled.name)
    assert code == 0, lines
    # 0.02 to 0.2 all lie within [0, 40]: no scale warning; the same values * 100 + 40 do not
    far = tmp_path / "far.csv"
    pd.DataFrame({"id": test["id"], "value": test["value"] * 10.0 + 41}).to_csv(far, index=False)
    lines, code = report_lines(check(str(far), str(kit), config), far.name)
    assert code == 0 and any("100% of the predictions lie outside 0 to 40" in l for l in lines), lines


def demo_lines(name, rows, tmp_path, config=None):
    path = tmp_path / name
    path.write_text("id,value\n" + "".join("%s,%s\n" % r for r in rows), encoding="utf-8")
    import yaml
    cfg = yaml.safe_load((DEMO / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    cfg.update(config or {})
    return report_lines(check(str(path), str(DEMO / "starting_kit"), cfg), name)


def demo_ids():
    return pd.read_csv(DEMO / "starting_kit" / "test_public.csv", dtype=str)["id"].tolist()


def test_kit_warns_about_a_constant_prediction(tmp_path):
    lines, code = demo_lines("same.csv", [(i, "1500") for i in demo_ids()], tmp_path)
    assert code == 0 and any("all 2,000 rows give the same value (1500)" in l for l in lines), lines


def test_kit_warns_about_predictions_outside_the_stated_range(tmp_path):
    ids = demo_ids()
    rows = [(i, "-5" if k < 3 else "100") for k, i in enumerate(ids)]
    lines, code = demo_lines("outside.csv", rows, tmp_path, {"options": {"value_range": [0, 20000], "rmsle": False}})
    expected = "3 prediction(s) lie outside 0 to 20000, the range of this task's values: %s." % ", ".join(ids[:3])
    assert code == 0 and any(expected in l for l in lines), lines


def test_swapped_columns_are_named_by_the_kit_and_by_the_platform(tmp_path):
    ids = demo_ids()
    lines, code = demo_lines("swapped.csv", [("%d" % (k + 1), i) for k, i in enumerate(ids)], tmp_path)
    assert code == 1 and any("look swapped" in l for l in lines), lines


def test_the_demo_is_what_its_generator_writes(tmp_path):
    out = tmp_path / "regression"
    proc = organizer("demo", "regression", "--out", out)
    assert proc.returncode == 0, proc.stderr
    for path in sorted(p for p in DEMO.rglob("*") if p.is_file()):
        rel = path.relative_to(DEMO)
        if rel.name == "competition.yaml":   # its comments name the folder it was written to
            continue
        assert (out / rel).read_bytes() == path.read_bytes(), rel


def test_the_demo_lints_and_scores_both_boards(tmp_path):
    proc = organizer("check", DEMO)
    assert proc.returncode == 0 and says_board_a_answers_only(proc.stdout), proc.stdout
    sample = DEMO / "starting_kit" / "sample_submission.csv"
    for board, reveal in (("A", False), ("B", True)):
        inp = assemble_input(DEMO / "reference_data", board, sample, tmp_path / board / "input", reveal)
        proc = run_score(inp, tmp_path / board / "output")
        assert proc.returncode == 0, proc.stderr
        scores = read_scores(tmp_path / board / "output")
        assert 0.5 < scores["r2"] < 1 and scores["rmse"] > 0


def test_kit_warns_when_every_value_is_a_test_id(tmp_path):
    """Numeric ids written in the value column too (the columns swapped, then written back under id,value)."""
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "test_public.csv").write_text("id,x\n" + "".join("%d,0\n" % i for i in range(1, 41)), encoding="utf-8")
    config = dict(task="regression", board="A", language="en")
    path = tmp_path / "ids.csv"
    path.write_text("id,value\n" + "".join("%d,%d\n" % (i, 41 - i) for i in range(1, 41)), encoding="utf-8")
    lines, code = report_lines(check(str(path), str(kit), config), path.name)
    assert code == 0 and any("every value is itself a test id (for example 40)" in l for l in lines), lines
    path.write_text("id,value\n" + "".join("%d,%d.5\n" % (i, 41 - i) for i in range(1, 41)), encoding="utf-8")
    lines, code = report_lines(check(str(path), str(kit), config), path.name)
    assert code == 0 and not any("test id" in l for l in lines), lines


GOLD = "id,value\n1,0.5\n2,3\n3,0\n4,7.25\n5,2\n"


def _new_in_process(tmp_path, monkeypatch, capsys, gold, *extra, default_rmsle=False):
    """organizer new regression in this process with the engine's RMSLE default set as given; (exit code, stdout,
    options.rmsle of board A)."""
    import yaml
    from organizer import new
    from scorer.tasks import families

    options = families()["regression"].options
    monkeypatch.setitem(options, "rmsle", options["rmsle"].__class__(default_rmsle, options["rmsle"].allowed,
                                                                      options["rmsle"].doc))
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "gold.csv").write_text(gold, encoding="utf-8")
    code = new.main(["regression", str(tmp_path / "gold.csv"), str(tmp_path / "out"), "--title", "T", "--no-check"]
                    + list(extra))
    said = capsys.readouterr().out
    board = yaml.safe_load((tmp_path / "out" / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    return code, said, board["options"]["rmsle"]


NOTE = "every gold value is 0 or more, so RMSLE (log(1 + value)) could be scored too: add --option rmsle=true"


def test_new_says_rmsle_can_be_turned_on_for_a_target_that_is_never_negative(tmp_path, monkeypatch, capsys):
    code, said, rmsle = _new_in_process(tmp_path, monkeypatch, capsys, GOLD)
    assert code == 0 and rmsle is False and NOTE in said


def test_new_says_nothing_of_rmsle_when_the_organizer_chose(tmp_path, monkeypatch, capsys):
    code, said, rmsle = _new_in_process(tmp_path, monkeypatch, capsys, GOLD, "--option", "rmsle=false")
    assert code == 0 and rmsle is False and "RMSLE" not in said
    code, said, rmsle = _new_in_process(tmp_path / "on", monkeypatch, capsys, GOLD, "--option", "rmsle=true")
    assert code == 0 and rmsle is True and "RMSLE" not in said


def test_new_turns_rmsle_off_for_a_negative_target_and_says_why(tmp_path, monkeypatch, capsys):
    code, said, rmsle = _new_in_process(tmp_path, monkeypatch, capsys, GOLD.replace("3,0", "3,-0.5"),
                                        default_rmsle=True)
    assert code == 0 and rmsle is False and "holds negative values, so RMSLE (log(1 + value)) cannot be scored" in said
    assert NOTE not in said
