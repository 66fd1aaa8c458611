"""python3 -m organizer bundle and python3 -m organizer check on every competition we ship, and on broken copies."""
import csv
import datetime as dt
import json
import os
import shutil
import io
import zipfile

import pytest
import yaml

from helpers import ROOT
from helpers import organizer
from organizer import bundle
from organizer import check as check_bundle
from organizer.phase_data import phase_entries
from scorer.tasks import families
from bundle_shared import (PUBLIC_ANSWERS, board_a_answers_only, built, comp_id, competitions, members, phases,
                           says_board_a_answers_only)

COMPETITIONS = competitions()


def run_tool(script, *args):
    return organizer(script, *args)


@pytest.mark.parametrize("competition", COMPETITIONS, ids=comp_id)
def test_v1_layout_nested_zips_at_their_roots(competition):
    root = members(built(competition))
    assert [n for n in root if ".yaml" in n] == ["competition.yaml"]
    comp = yaml.safe_load(root["competition.yaml"])
    for page in ("overview", "evaluation", "terms", "data"):
        assert comp["html"][page] in root
    assert comp["image"] in root
    program = members(root["scoring_program.zip"])
    assert {"metadata", "score.py", "scorer/__init__.py"} <= set(program)
    assert not [n for n in program if "__pycache__" in n or n.endswith(".pyc")]
    reference_dir = competition / "reference_data"
    for spec in phases(competition):
        name = spec["reference_data"]
        board = bundle.REFERENCE_ZIP.match(name).group(1)
        ref = members(root[name])
        own = yaml.safe_load((reference_dir / ("board_%s.yaml" % board)).read_text(encoding="utf-8"))
        config = yaml.safe_load(ref["config.yaml"])
        # the board's config without its split, the title and labels of competition.yaml, the public inputs' folder
        # and the size cap
        assert {k: v for k, v in own.items() if k != "boards"} == {k: v for k, v in config.items() if k in own}
        assert config["title"] == comp["title"]
        assert config["columns"] == {k: c["label"] for k, c in comp["leaderboard"]["columns"].items()}
        assert config["public_inputs"] == "public" and config["max_submission_mb"] >= 16
        family = families()[own["task"]]
        files = dict(family.default_files, **(own.get("files") or {}))
        per_unit = {files[s] for s in family.unit_files}
        shared = {f for s, f in files.items() if s not in family.submission_slots and s not in family.unit_files
                  and (reference_dir / f).is_file()}
        expected = {"config.yaml", "public/" + family.public_inputs} | shared
        if own.get("report") != "sealed":  # a sealed board's phase holds no answer at all
            expected |= {f for f in per_unit if (reference_dir / f).is_file()}
        assert set(ref) == expected, name
        assert ref["public/" + family.public_inputs] == (competition / "starting_kit" / family.public_inputs).read_bytes()
    kit = members(root["starting_kit.zip"])
    assert {name.split("/", 1)[0] for name in kit} == {"starting_kit"}   # it unzips into one folder
    kit = {name[len("starting_kit/"):]: data for name, data in kit.items()}
    assert {"validate.py", "kit_config.yaml", "scoring_program/score.py", "requirements.txt"} <= set(kit)
    has_dev = (competition / "starting_kit" / "dev" / "config.yaml").is_file()
    # score_local.py scores the dev set: a kit without one does not get it, nor does its requirements.txt name it
    assert ("score_local.py" in kit) == has_dev == (b"score_local.py" in kit["requirements.txt"]), competition
    # the title and column labels, as every phase's config.yaml gets them
    assert yaml.safe_load(kit["kit_config.yaml"])["title"] == comp["title"]
    assert yaml.safe_load(kit["kit_config.yaml"])["columns"] == config["columns"]


@pytest.mark.parametrize("competition", COMPETITIONS, ids=comp_id)
def test_a_board_phase_holds_the_answers_of_its_own_units_only(competition):
    """Each per-unit file of board A's phase and of the revealed board B's lists the units of that board, read
    here with the csv and json modules (not the engine) against boards.csv."""
    from scorer.tasks import families

    reference_dir = competition / "reference_data"
    with open(reference_dir / "boards.csv", encoding="utf-8", newline="") as fh:
        boards = {row["id"].strip(): row["board"].strip() for row in csv.DictReader(fh)}
    own = bundle.load_yaml(reference_dir / "board_A.yaml")
    family = families()[own["task"]]
    files = dict(family.default_files, **(own.get("files") or {}))
    for board, reveal in (("A", False), ("B", True)):
        entries = phase_entries(competition, board, reveal)
        for slot, rule in family.unit_files.items():
            if files[slot] not in entries:
                continue
            text = entries[files[slot]].decode("utf-8")
            if rule.form == "json":
                ids = {str(conv[rule.key]) for conv in json.loads(text)}
            else:
                delimiter = "\t" if text.split("\n", 1)[0].count("\t") > text.split("\n", 1)[0].count(",") else ","
                ids = {row[rule.key].strip() for row in csv.DictReader(io.StringIO(text), delimiter=delimiter)}
            assert ids and {boards[i] for i in ids} == {board}, (board, slot)
            if slot in ("sentences", "subtask1_gold") or (slot == "gold" and "sentences" not in family.unit_files):
                # every unit of the board has its row (view-sentiment's gold lists the sentences with views only)
                assert ids == {i for i, b in boards.items() if b == board}, (board, slot)


@pytest.mark.parametrize("competition", COMPETITIONS, ids=comp_id)
def test_kit_carries_no_reference_file(competition):
    """No gold file named by the board config, nor the board split, is shipped to participants."""
    from scorer.config import parse_config
    from scorer.tasks import families

    kit = members(members(built(competition))["starting_kit.zip"])
    reference = competition / "reference_data"
    cfg = parse_config(bundle.load_yaml(reference / "board_A.yaml"), families(), ref_dir=str(reference))
    family = families()[cfg.task]
    # reference files may also be public (a label list); the answers are the files named *gold*
    names = [f for slot, f in cfg.files.items() if slot not in family.submission_slots
             and "gold" in (slot + f).lower()] + [cfg.boards_file]
    secret = {(reference / n).read_bytes() for n in names if n and (reference / n).is_file()}
    assert secret
    assert not [n for n, data in kit.items() if data in secret]


def test_same_folder_same_bytes_whatever_the_timestamps(tmp_path):
    copy = tmp_path / "comp"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "out", "tests", "examples"))
    first = bundle.build_v1(copy)
    for path in copy.rglob("*"):
        os.utime(path, (1_700_000_000, 1_700_000_000))
    (copy / "scoring_program" / "__pycache__").mkdir(exist_ok=True)
    (copy / "scoring_program" / "__pycache__" / "x.cpython-312.pyc").write_bytes(b"junk")
    assert bundle.build_v1(copy) == first
    assert bundle.build_v2(copy) == bundle.build_v2(copy)
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert [i.filename for i in archive.infolist()] == sorted(archive.namelist())
        assert {i.date_time for i in archive.infolist()} == {bundle.FIXED_TIME}


@pytest.mark.parametrize("competition", COMPETITIONS, ids=comp_id)
def test_v2_definition_follows_the_codabench_schema(competition):
    root = members(built(competition, "v2"))
    comp = yaml.safe_load(root["competition.yaml"])
    assert comp["version"] == 2 and comp["image"] in root and root[comp["terms"]].strip()
    assert all(root[p["file"]].strip() for p in comp["pages"])
    tasks = {t["index"]: t for t in comp["tasks"]}
    for task in tasks.values():
        assert task["scoring_program"] in root and task["reference_data"] in root
    starts = [p["start"] for p in comp["phases"]]
    for earlier, later in zip(comp["phases"], comp["phases"][1:]):
        assert earlier["start"] < earlier["end"] < later["start"]
    assert starts == sorted(starts) and all(t in tasks for p in comp["phases"] for t in p["tasks"])
    for board in comp["leaderboards"]:
        keys = [c["key"] for c in board["columns"]]
        assert len(set(keys)) == len(keys) and all(len(k) <= 36 and ":" not in k for k in keys)
        assert sorted(c["index"] for c in board["columns"]) == list(range(len(keys)))


@pytest.mark.parametrize("competition", COMPETITIONS, ids=comp_id)
def test_check_passes_the_folder_and_both_built_bundles(competition, tmp_path):
    v1, v2 = tmp_path / "v1.zip", tmp_path / "v2.zip"
    v1.write_bytes(built(competition))
    v2.write_bytes(built(competition, "v2"))
    proc = run_tool("check", competition, v1, v2)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 error(s)" in proc.stdout


def test_bundle_cli_writes_what_the_library_builds(tmp_path):
    proc = run_tool("bundle", ROOT, tmp_path / "b.zip")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "b.zip").read_bytes() == built(ROOT)
    # what was written comes first, then what the linter says of it, then the next steps
    lines = proc.stdout.splitlines()
    assert lines[0] == "wrote %s (v1)" % (tmp_path / "b.zip") and says_board_a_answers_only(proc.stdout), proc.stdout
    summary = lines.index("%s: 0 error(s), 1 warning(s)" % (tmp_path / "b.zip"))
    assert lines[summary + 1] == "Next:", proc.stdout


def test_a_bundle_with_errors_is_written_and_said_to_have_them(tmp_path):
    copy = broken_copy(tmp_path)
    _edit(copy / "competition.yaml", "competition_docker_image: codalab/codalab-legacy:py312",
          "competition_docker_image: codalab/codalab-legacy:py3")
    out = tmp_path / "b.zip"
    proc = run_tool("bundle", copy, out)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and out.is_file(), proc.stdout
    assert lines[0] == "wrote %s (v1)" % out and "[docker-image-old]" in lines[1], lines
    assert lines[-1] == "%s has errors (above): fix them before uploading it" % out, lines


# -- the linter finds every problem at once --------------------------------------------------------------
def broken_copy(tmp_path):
    copy = tmp_path / "comp"
    copy.mkdir()
    for name in ("competition.yaml", "logo.png"):
        shutil.copy(ROOT / name, copy / name)
    for name in ("pages", "reference_data", "starting_kit"):
        shutil.copytree(ROOT / name, copy / name)
    return copy


def test_every_problem_is_reported_with_exit_1(tmp_path):
    copy = broken_copy(tmp_path)
    comp = yaml.safe_load((copy / "competition.yaml").read_text(encoding="utf-8"))
    comp["version"] = 1.5                                            # not a Competition field
    del comp["html"]["data"]                                         # v1 asserts it
    comp["competition_docker_image"] = "codalab/codalab-legacy:py3"  # python3 3.6, old pandas
    comp["phases"][2]["start_date"] = dt.date(2025, 12, 1)           # before phase 1
    comp["phases"][1]["colour"] = "green"                            # not a phase field
    board = comp["leaderboard"]["leaderboards"]["Results"]
    comp["leaderboard"]["columns"]["bogus_metric"] = {"label": "x", "leaderboard": board, "rank": 9}
    comp["leaderboard"]["columns"]["a:b"] = {"label": "y", "leaderboard": board, "rank": 10}
    comp["leaderboard"]["columns"]["k" * 40] = {"label": "z", "leaderboard": board, "rank": 11}
    comp["leaderboard"]["columns"]["score"]["numeric_format"] = "four"
    (copy / "competition.yaml").write_text(yaml.safe_dump(comp), encoding="utf-8")
    (copy / "extra.yaml").write_text("a: 1\n", encoding="utf-8")
    text = (copy / "reference_data" / "board_B.yaml").read_text(encoding="utf-8")
    (copy / "reference_data" / "board_B.yaml").write_text(text.replace("board: B", "board: A"), encoding="utf-8")

    proc = run_tool("check", copy)
    out = proc.stdout
    assert proc.returncode == 1, out
    expected = ["extra.yaml", "competition.yaml: version", "html.data", "codalab-legacy:py3",
                "phases.2.start_date", "phases.1.colour", "column bogus_metric", "'a:b' has a colon",
                "characters; Codabench allows at most 36", "numeric_format", "reference_data_B.zip/config.yaml: board is A"]
    for fragment in expected:
        assert fragment in out, (fragment, out)
    assert out.count("ERROR") >= len(expected)


def test_unknown_docker_image_is_only_a_warning(tmp_path):
    copy = broken_copy(tmp_path)
    text = (copy / "competition.yaml").read_text(encoding="utf-8")
    (copy / "competition.yaml").write_text(text.replace("codalab/codalab-legacy:py312", "myorg/scorer:1"),
                                           encoding="utf-8")
    problems = check_bundle.check_path(copy)
    assert [p.level for p in problems if "myorg/scorer:1" in p.message] == ["WARNING"]
    assert not check_bundle.has_errors(problems)


def test_zip_level_rules(tmp_path):
    root = members(built(ROOT))
    # a yaml that sorts before competition.yaml, and a program zipped with its folder
    root["a_notes.yaml"] = b"x: 1\n"
    program = members(root["scoring_program.zip"])
    root["scoring_program.zip"] = bundle.zip_bytes({"scoring_program/" + n: d for n, d in program.items()})
    ref = members(root["reference_data_A.zip"])
    ref["config.yaml"] = ref["config.yaml"].replace(b"gold: gold.csv", b"gold: missing.csv")
    root["reference_data_A.zip"] = bundle.zip_bytes(ref)
    path = tmp_path / "bad.zip"
    path.write_bytes(bundle.zip_bytes(root))
    out = "\n".join(str(p) for p in check_bundle.check_path(path))
    assert "the first .yaml entry is a_notes.yaml" in out
    assert "no metadata file at the root of the scoring program zip" in out
    assert "files.gold names missing.csv" in out


def test_bad_metadata_command_is_caught(tmp_path):
    root = members(built(ROOT))
    program = members(root["scoring_program.zip"])
    program["metadata"] = b"command: python $program/score.py  $input $output | tee log\n"
    root["scoring_program.zip"] = bundle.zip_bytes(program)
    path = tmp_path / "bad.zip"
    path.write_bytes(bundle.zip_bytes(root))
    out = "\n".join(str(p) for p in check_bundle.check_path(path))
    for fragment in ("double or trailing space", "must start with python3", "shell syntax"):
        assert fragment in out


# -- the hidden board, column labels, registration and the starting kit --------------------------------
def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_a_final_phase_that_would_show_board_b_is_refused(tmp_path, fmt):
    copy = broken_copy(tmp_path)
    _edit(copy / "reference_data" / "board_B.yaml", "report: sealed", "report: full")
    problems = check_bundle.check_path(copy, fmt)
    errors = [str(p) for p in problems if p.level == "ERROR"]
    assert len(errors) == 1 and "add 'report: sealed' to board_B.yaml" in errors[0], errors
    # a phase scoring every unit while a split exists shows board B too
    _edit(copy / "reference_data" / "board_B.yaml", "board: B", "board: all")
    _edit(copy / "competition.yaml", "reference_data_B.zip", "reference_data_all.zip")
    (copy / "reference_data" / "board_B.yaml").rename(copy / "reference_data" / "board_all.yaml")
    errors = [str(p) for p in check_bundle.check_path(copy, fmt) if p.level == "ERROR"]
    assert any("scores board all with report: full" in e for e in errors), errors


def test_a_sealed_v1_phase_without_hide_results_is_warned(tmp_path):
    copy = broken_copy(tmp_path)
    _edit(copy / "competition.yaml", "leaderboard_management_mode: hide_results", "leaderboard_management_mode: default")
    warnings = [str(p) for p in check_bundle.check_path(copy) if p.level == "WARNING"]
    assert any("should also use hide_results" in w for w in warnings), warnings


def test_v2_bundles_keep_the_logs_and_hide_the_output_zip_and_approve_registration():
    comp = yaml.safe_load(members(built(ROOT, "v2"))["competition.yaml"])
    v1 = bundle.load_yaml(ROOT / "competition.yaml")
    # Codabench's v1 importer makes registration_auto_approve = not has_registration (unpackers/v1.py)
    assert comp["registration_auto_approve"] is (not v1["has_registration"])
    for phase in comp["phases"]:
        assert phase["hide_score_output"] is True and phase["hide_output"] is False


def test_v2_without_registration_auto_approve_is_warned(tmp_path):
    root = members(built(ROOT, "v2"))
    comp = yaml.safe_load(root["competition.yaml"])
    del comp["registration_auto_approve"]
    root["competition.yaml"] = yaml.safe_dump(comp).encode("utf-8")
    path = tmp_path / "v2.zip"
    path.write_bytes(bundle.zip_bytes(root))
    warnings = [str(p) for p in check_bundle.check_path(path) if p.level == "WARNING"]
    assert any("registration_auto_approve" in w and "manual approval" in w for w in warnings), warnings


@pytest.mark.parametrize("length,limit", [(37, "Codabench (which imports v1 bundles) allows at most 36"),
                                          (51, "CodaLab v1 allows at most 50")])
def test_column_labels_longer_than_a_platform_allows_are_refused(tmp_path, length, limit):
    copy = broken_copy(tmp_path)
    _edit(copy / "competition.yaml", 'label: "类别准确率"', 'label: "%s"' % ("x" * length))
    errors = [str(p) for p in check_bundle.check_path(copy) if p.level == "ERROR"]
    assert len(errors) == 1 and limit in errors[0] and "class_accuracy.label" in errors[0], errors


def test_v2_column_titles_longer_than_36_are_refused(tmp_path):
    root = members(built(ROOT, "v2"))
    comp = yaml.safe_load(root["competition.yaml"])
    comp["leaderboards"][0]["columns"][0]["title"] = "t" * 37
    root["competition.yaml"] = yaml.safe_dump(comp).encode("utf-8")
    path = tmp_path / "v2.zip"
    path.write_bytes(bundle.zip_bytes(root))
    errors = [str(p) for p in check_bundle.check_path(path) if p.level == "ERROR"]
    assert any("Codabench allows at most 36" in e and ".title" in e for e in errors), errors


def test_the_starting_kit_is_checked_as_a_participant_would_use_it(tmp_path):
    copy = broken_copy(tmp_path)
    assert not check_bundle.has_errors(check_bundle.check_path(copy))
    kit = copy / "starting_kit"
    # a sample submission that does not score, a dev set that does not load, and a README naming a repository path
    lines = (kit / "sample_submission.csv").read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].rsplit(",", 1)[0] + ",7"
    (kit / "sample_submission.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _edit(kit / "dev" / "config.yaml", "primary_key: score", "primary_key: nothing")
    with open(kit / "README.md", "a", encoding="utf-8") as fh:
        fh.write("\nScore it with python3 -m organizer score . A sample.csv out\n")
    errors = [str(p) for p in check_bundle.check_path(copy) if p.level == "ERROR"]
    expected = ["sample submission does not score on", "is not a class",
                "the dev set does not load with its own config.yaml: config.yaml: primary_key is 'nothing'",
                "README.md line", "names '-m organizer'"]
    for fragment in expected:
        assert any(fragment in e for e in errors), (fragment, errors)
    # every phase checks submissions against the kit's public inputs: they must list exactly the gold's units
    public = (kit / "test_public.csv").read_text(encoding="utf-8").splitlines()
    (kit / "test_public.csv").write_text("\n".join(public[:-1]) + "\n", encoding="utf-8")
    errors = [str(p) for p in check_bundle.check_path(copy) if p.level == "ERROR"]
    assert len(errors) == 1 and "cannot be bundled" in errors[0] and "1 unit(s) of the gold are not in the public " \
        "test inputs starting_kit/test_public.csv (first: %s)" % public[-1].split(",")[0] in errors[0], errors
    (kit / "test_public.csv").write_text("\n".join(public + [public[-1].replace(public[-1].split(",")[0], "x1", 1)])
                                         + "\n", encoding="utf-8")
    errors = [str(p) for p in check_bundle.check_path(copy) if p.level == "ERROR"]
    assert len(errors) == 1 and "lists 1 test item(s) that are not in the gold (first: x1)" in errors[0], errors


# -- what the platforms refuse, and the dates the reveal relies on ----------------------------------------
NOW = dt.datetime(2026, 11, 25, 12, 0)


def test_phases_that_have_ended_and_a_final_phase_without_an_end_are_warned(tmp_path):
    copy = broken_copy(tmp_path)
    for fmt in ("v1", "v2"):   # the shipped dates: nothing to say (but that board A's answers are public)
        assert board_a_answers_only(check_bundle.check_path(copy, fmt, now=NOW))
    # seen later: phase 1 ended on the day before phase 2 starts (Codabench's importer), phase 2 at end_date
    later = [str(p) for p in _dated(copy, dt.datetime(2027, 2, 10))]
    assert len(later) == 1 and "phases.1: ended on 2027-01-31" in later[0], later
    gone = [str(p) for p in _dated(copy, dt.datetime(2027, 3, 2))]
    assert len(gone) == 2 and "phases.2: ended on 2027-03-01" in gone[1], gone
    _edit(copy / "competition.yaml", "end_date: 2027-03-01", "end_date: null")
    for fmt in ("v1", "v2"):
        warnings = [str(p) for p in _dated(copy, NOW, fmt)]
        assert len(warnings) == 1 and "is the final phase and never ends: after the reveal" in warnings[0], warnings


def _dated(copy, now, fmt=None):
    """The warnings of ``copy`` seen at ``now``, but the one on board A's public answers, whatever the date."""
    return [p for p in check_bundle.check_path(copy, fmt, now=now) if p.level == "WARNING" and p.code != PUBLIC_ANSWERS]


def test_a_title_codalab_v1_and_evalai_refuse_is_an_error(tmp_path):
    copy = broken_copy(tmp_path)
    comp = bundle.load_yaml(copy / "competition.yaml")
    _edit(copy / "competition.yaml", 'title: "%s"' % comp["title"], 'title: "%s"' % ("题" * 101))
    errors = [str(p) for p in check_bundle.check_path(copy, now=NOW) if p.level == "ERROR"]
    assert len(errors) == 1 and "is 101 characters" in errors[0] and "at most 100" in errors[0], errors
    problems = [p for p in check_bundle.check_path(copy, "v2", now=NOW) if p.code != PUBLIC_ANSWERS]   # Codabench
    # alone takes up to 256
    assert [p.level for p in problems] == ["WARNING"] and "CodaLab v1 and EvalAI would not" in problems[0].message


def test_leaderboard_rules_the_reveal_cannot_change_are_refused_on_a_sealed_phase(tmp_path):
    copy = broken_copy(tmp_path)
    _edit(copy / "competition.yaml", "    leaderboard_management_mode: hide_results",
          "    leaderboard_management_mode: hide_results\n    force_best_submission_to_leaderboard: True")
    errors = [str(p) for p in check_bundle.check_path(copy, now=NOW) if p.level == "ERROR"]
    assert len(errors) == 1 and "force_best_submission_to_leaderboard: is set on a sealed phase" in errors[0], errors
    v2 = members(built(ROOT, "v2"))
    # Force_Best: the shipped primary column sorts desc, so a re-run's real score beats the sealed -1 row
    for rule, refused in (("Force_Best", False), ("Force_Latest_Multiple", True), ("Force_Last", False), ("Add", False)):
        comp = yaml.safe_load(v2["competition.yaml"])
        comp["leaderboards"][0]["submission_rule"] = rule
        entries = dict(v2, **{"competition.yaml": yaml.safe_dump(comp, allow_unicode=True).encode("utf-8")})
        path = tmp_path / ("v2_%s.zip" % rule)
        path.write_bytes(bundle.zip_bytes(entries))
        errors = [str(p) for p in check_bundle.check_path(path, now=NOW) if p.level == "ERROR"]
        assert bool(errors) == refused and all("no one may take one off, a superuser neither" in e for e in errors), (rule, errors)
