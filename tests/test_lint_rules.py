"""Every rule of python3 -m organizer check is declared once (organizer/lint_rules.py) and breaks once here.

Each case below damages the shipped competition (its built bundle, or a copy of its folder) in one way and
expects the rule's code among the problems check reports; the rules of a feedback phase on the dev set damage a
competition made by ``organizer new --feedback dev``. A rule without a case fails the suite, as does a
code the linter flags without declaring it.
"""
import datetime as dt
import re
import shutil

import pytest
import yaml

from helpers import ROOT
from organizer import bundle, check
from organizer import lint_rules
from organizer.lint_rules import ERROR, FIELDS, RULES, WARNING
from organizer.inputs import OrganizerError
from bundle_shared import PUBLIC_ANSWERS, board_a_answers_only, built, dev_feedback_competition, members

NOW = dt.datetime(2026, 11, 25, 12, 0)
CASES = {}


def case(code, fmt="v1", now=NOW, dev=False):
    """Register the edit that breaks rule ``code`` (``dev``: in the bundle of a competition whose feedback phase
    scores the dev set)."""
    def register(edit):
        CASES[code] = (fmt, now, edit, dev)
        return edit
    return register


@pytest.fixture(scope="module")
def dev_folder(tmp_path_factory):
    return dev_feedback_competition(tmp_path_factory.mktemp("dev_feedback"))


class Bundle:
    """A built bundle's entries and its parsed competition.yaml, to damage before zipping it again."""

    def __init__(self, fmt, source=ROOT):
        self.source = source   # the competition folder it was built from
        self.entries = members(built(source, fmt))
        self.comp = yaml.safe_load(self.entries["competition.yaml"])
        self.raw = None   # competition.yaml's bytes as given, instead of self.comp (None: no competition.yaml)

    def nested(self, name):
        return members(self.entries[name])

    def put(self, name, entries):
        self.entries[name] = bundle.zip_bytes(entries)

    def edit(self, name, member, old, new):
        inner = self.nested(name)
        assert old in inner[member], (name, member, old)
        inner[member] = inner[member].replace(old, new)
        self.put(name, inner)

    def config(self, board, old, new):
        self.edit("reference_data_%s.zip" % board, "config.yaml", old, new)

    def write(self, path):
        entries = dict(self.entries)
        entries.pop("competition.yaml")
        if self.raw is not None:
            entries["competition.yaml"] = self.raw
        elif self.comp is not None:
            entries["competition.yaml"] = yaml.safe_dump(self.comp, allow_unicode=True).encode("utf-8")
        path.write_bytes(bundle.zip_bytes(entries))
        return path


def _codes(problems):
    return [p.code for p in problems]


# -- the zip and competition.yaml ---------------------------------------------------------------------------
@case("zip-no-yaml")
def _(b):
    b.entries["nested/competition.yaml"] = yaml.safe_dump(b.comp).encode("utf-8")
    b.comp = None   # no competition.yaml at the root


@case("zip-first-yaml")
def _(b):
    b.entries["a_notes.yaml"] = b"x: 1\n"


@case("zip-second-yaml")
def _(b):
    b.entries["pages/notes.yaml"] = b"x: 1\n"


@case("yaml-invalid")
def _(b):
    b.raw = b"title: [unclosed\n"


@case("not-mapping")
def _(b):
    b.comp["phases"][1] = "phase one"


@case("title-missing")
def _(b):
    del b.comp["title"]


@case("title-long")
def _(b):
    b.comp["title"] = "题" * 101


@case("v2-title-long", "v2")
def _(b):
    b.comp["title"] = "t" * 257


@case("v2-title-portable", "v2")
def _(b):
    b.comp["title"] = "t" * 101


@case("docker-image-missing")
def _(b):
    del b.comp["competition_docker_image"]


@case("docker-image-old")
def _(b):
    b.comp["competition_docker_image"] = "codalab/codalab-legacy:py3"


@case("docker-image-unknown")
def _(b):
    b.comp["competition_docker_image"] = "myorg/scorer:1"


# -- CodaLab v1 competition.yaml -----------------------------------------------------------------------------
@case("v1-competition-field")
def _(b):
    b.comp["version"] = 1


@case("v1-html-missing")
def _(b):
    del b.comp["html"]


@case("v1-page-missing")
def _(b):
    del b.comp["html"]["data"]


@case("page-not-in-bundle")
def _(b):
    b.comp["html"]["terms"] = "nowhere.html"


@case("page-empty")
def _(b):
    b.entries[b.comp["html"]["terms"]] = b"  \n"


@case("image-missing")
def _(b):
    del b.comp["image"]


@case("image-not-in-bundle")
def _(b):
    b.comp["image"] = "nowhere.png"


@case("v1-phases-missing")
def _(b):
    b.comp["phases"] = {}


@case("v1-phase-field")
def _(b):
    b.comp["phases"][1]["colour"] = "green"


@case("v1-field")
def _(b):
    b.comp["phases"][1]["max_submissions"] = "five"


@case("v1-phasenumber")
def _(b):
    del b.comp["phases"][1]["phasenumber"]


@case("v1-phasenumber-repeated")
def _(b):
    b.comp["phases"][2]["phasenumber"] = 1


@case("v1-phase-label-long")
def _(b):
    b.comp["phases"][1]["label"] = "l" * 51


@case("v1-phase-description-long")
def _(b):
    b.comp["phases"][1]["description"] = "d" * 1001


@case("v1-start-date")
def _(b):
    b.comp["phases"][2]["start_date"] = "someday"


@case("v1-color")
def _(b):
    b.comp["phases"][1]["color"] = "teal"


@case("v1-leaderboard-mode")
def _(b):
    b.comp["phases"][1]["leaderboard_management_mode"] = "hidden"


@case("v1-phase-file-missing")
def _(b):
    del b.comp["phases"][1]["scoring_program"]


@case("phase-file-not-in-bundle")
def _(b):
    b.comp["phases"][1]["starting_kit"] = "kit.zip"


@case("v1-phase-dataset")
def _(b):
    b.comp["phases"][1]["input_data"] = "some-dataset-key"


@case("v1-first-auto-migration")
def _(b):
    b.comp["phases"][1]["auto_migration"] = True


@case("v1-phase-order")
def _(b):
    b.comp["phases"][2]["start_date"] = dt.date(2026, 10, 1)


@case("v1-phase-gap")
def _(b):
    b.comp["phases"][2]["start_date"] = b.comp["phases"][1]["start_date"] + dt.timedelta(days=1)


@case("v1-kit-unnamed")
def _(b):
    for phase in b.comp["phases"].values():
        del phase["starting_kit"]


@case("v1-force-best-sealed")
def _(b):
    b.comp["phases"][2]["force_best_submission_to_leaderboard"] = True


@case("v1-leaderboards-extra")
def _(b):
    b.comp["leaderboard"]["leaderboards"]["Other"] = {"label": "other", "rank": 2}


@case("v1-leaderboard-missing")
def _(b):
    del b.comp["leaderboard"]


@case("v1-leaderboards-missing")
def _(b):
    b.comp["leaderboard"]["leaderboards"] = {}


@case("v1-columns-missing")
def _(b):
    b.comp["leaderboard"]["columns"] = {}


@case("v1-column-label-missing")
def _(b):
    del b.comp["leaderboard"]["columns"]["kappa"]["label"]


@case("v1-column-leaderboard")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["leaderboard"] = {"label": "elsewhere"}


@case("v1-numeric-format")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["numeric_format"] = "four"


@case("v1-numeric-format-clamped")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["numeric_format"] = 12


@case("column-sort")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["sort"] = "up"


def _computed(b, computed):
    board = b.comp["leaderboard"]["columns"]["score"]["leaderboard"]
    b.comp["leaderboard"]["columns"]["mean"] = {"label": "mean", "leaderboard": board, "rank": 9,
                                                "computed": computed}


@case("v1-computed")
def _(b):
    _computed(b, {"operation": "Median", "fields": "score"})


@case("v1-computed-field")
def _(b):
    _computed(b, {"operation": "Avg", "fields": "score, nothing"})


@case("v1-computed-codabench")
def _(b):
    _computed(b, {"operation": "Avg", "fields": "score, kappa"})


def _column(b, key, **fields):
    board = b.comp["leaderboard"]["columns"]["score"]["leaderboard"]
    b.comp["leaderboard"]["columns"][key] = dict({"label": "x", "leaderboard": board, "rank": 9}, **fields)


@case("key-colon")
def _(b):
    _column(b, "a:b")


@case("key-long")
def _(b):
    _column(b, "k" * 37)


@case("key-blank")
def _(b):
    _column(b, " kappa2")


@case("label-long-v1")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["label"] = "x" * 51


@case("label-long-codabench")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["label"] = "x" * 37


# -- the scoring program ---------------------------------------------------------------------------------------
def _program(b, changes):
    inner = b.nested("scoring_program.zip")
    for name, data in changes.items():
        if data is None:
            inner.pop(name)
        else:
            inner[name] = data
    b.put("scoring_program.zip", inner)


@case("zip-nested-bad")
def _(b):
    b.entries["scoring_program.zip"] = b"not a zip"


@case("program-no-metadata")
def _(b):
    _program(b, {"metadata": None})


@case("program-metadata-yaml")
def _(b):
    _program(b, {"metadata": None, "metadata.yaml": b.nested("scoring_program.zip")["metadata"]})


@case("program-file-missing")
def _(b):
    _program(b, {"score.py": None})


@case("program-pycache")
def _(b):
    _program(b, {"scorer/__pycache__/api.cpython-311.pyc": b"\0"})


@case("program-metadata-bad")
def _(b):
    _program(b, {"metadata": b"\xff\xfe"})


@case("program-command-missing")
def _(b):
    _program(b, {"metadata": b"command: ''\n"})


@case("program-command-spaces")
def _(b):
    _program(b, {"metadata": b"command: python3 $program/score.py  $input $output\n"})


@case("program-command-python3")
def _(b):
    _program(b, {"metadata": b"command: python $program/score.py $input $output\n"})


@case("program-command-shell")
def _(b):
    _program(b, {"metadata": b"command: python3 $program/score.py $input $output > log\n"})


@case("program-command-args")
def _(b):
    _program(b, {"metadata": b"command: python3 $program/score.py $input\n"})


# -- the reference data --------------------------------------------------------------------------------------
@case("reference-no-config")
def _(b):
    inner = b.nested("reference_data_A.zip")
    inner.pop("config.yaml")
    b.put("reference_data_A.zip", inner)


@case("reference-board-unnamed")
def _(b):
    b.entries["phase_one.zip"] = b.entries.pop("reference_data_A.zip")
    b.comp["phases"][1]["reference_data"] = "phase_one.zip"


@case("reference-config")
def _(b):
    b.config("A", b"primary_key: score", b"primary_key: nothing")


@case("reference-board")
def _(b):
    b.config("A", b"board: A", b"board: B")


@case("reference-file-missing")
def _(b):
    b.config("A", b"gold: gold.csv", b"gold: missing.csv")


@case("reference-unloadable")
def _(b):
    inner = b.nested("reference_data_A.zip")
    inner["gold.csv"] = b"nothing,of,the,kind\n1,2,3,4\n"
    b.put("reference_data_A.zip", inner)


@case("reference-whole-gold")
def _(b):
    b.config("A", b"public_inputs: public\n", b"boards:\n  file: boards.csv\n")
    inner = b.nested("reference_data_A.zip")   # the whole gold's config names no board_units either
    inner["config.yaml"] = re.sub(rb"board_units:\n(  .*\n)+", b"", inner["config.yaml"])
    inner["boards.csv"] = (ROOT / "reference_data" / "boards.csv").read_bytes()
    b.put("reference_data_A.zip", inner)


@case("reference-sealed-answers")
def _(b):
    inner = b.nested("reference_data_B.zip")
    inner["gold.csv"] = b.nested("reference_data_A.zip")["gold.csv"]
    b.put("reference_data_B.zip", inner)


@case("column-not-written")
def _(b):
    _column(b, "bogus_metric")


@case("ladder-no-history")
def _(b):
    b.config("A", b"language: zh\n", b"language: zh\nfeedback:\n  ladder: fixed\n")


@case("primary-not-first")
def _(b):
    b.comp["leaderboard"]["columns"]["kappa"]["rank"] = 0


# -- the hidden board and the dates ---------------------------------------------------------------------------
@case("board-b-unsealed")
def _(b):
    b.config("B", b"report: sealed", b"report: full")


@case(PUBLIC_ANSWERS, dev=True)
def _(b):
    # the final phase of every test item unsealed, with its answers: they would show while it runs
    b.config("all", b"report: sealed", b"report: full")
    inner = b.nested("reference_data_all.zip")
    inner["gold.csv"] = (b.source / "reference_data" / "gold.csv").read_bytes()
    b.put("reference_data_all.zip", inner)


@case("sealed-v1-hide-results")
def _(b):
    b.comp["phases"][2]["leaderboard_management_mode"] = "default"


@case("sealed-v2-output-zip", "v2")
def _(b):
    b.comp["phases"][1]["hide_score_output"] = False


@case("sealed-v2-logs-hidden", "v2")
def _(b):
    b.comp["phases"][1]["hide_output"] = True


@case("v2-sealed-rule", "v2")
def _(b):
    b.comp["leaderboards"][0]["submission_rule"] = "Force_Latest_Multiple"


@pytest.mark.parametrize("sorting, refused", [("desc", False), ("asc", True)])
def test_force_best_is_refused_on_a_sealed_phase_only_when_a_placeholder_would_stay_best(tmp_path, sorting, refused):
    """Under Force_Best Codabench shows each team's best row: a re-run's real score beats the sealed -1 when the
    primary column sorts desc, and never when it sorts asc (organizer/reveal_codabench.py)."""
    b = Bundle("v2")
    board = b.comp["leaderboards"][0]
    board["submission_rule"] = "Force_Best"
    min(board["columns"], key=lambda c: c["index"])["sorting"] = sorting
    problems = check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)
    assert ("v2-sealed-rule" in _codes(problems)) == refused, [str(p) for p in problems]


@case("v2-private-output", "v2")
def _(b):
    b.config("A", b"language: zh\n", b"language: zh\nprivate_output: true\n")


# -- the answers in a private scoring image -------------------------------------------------------------------
PRIVATE_TAG = "registry.example.org/team/answers:1"
QUEUE = "80dfd1db-d95e-4007-a641-a44b51b744fe"


def _into_image(b, board, folder=None):
    """Board ``board``'s phase reads its answers from the image: answers_dir named, gold.csv taken out."""
    b.config(board, b"public_inputs: public\n", b"public_inputs: public\nanswers_dir: %s\n"
             % (folder or "/opt/competition/answers/%s" % board).encode())
    inner = b.nested("reference_data_%s.zip" % board)
    inner.pop("gold.csv", None)
    b.put("reference_data_%s.zip" % board, inner)


def _private(b):
    b.comp["competition_docker_image"] = PRIVATE_TAG
    b.comp["queue"] = QUEUE


@case("answers-image-public")
def _(b):
    _into_image(b, "A")
    _into_image(b, "B")
    b.comp["queue"] = QUEUE   # the public image is the only fault


@case("answers-image-queue")
def _(b):
    _into_image(b, "A")
    _into_image(b, "B")
    b.comp["competition_docker_image"] = PRIVATE_TAG


@case("answers-image-mixed")
def _(b):
    _private(b)
    _into_image(b, "B")   # board A's phase still holds board A's answers


@case("answers-in-zip")
def _(b):
    _private(b)
    b.config("A", b"public_inputs: public\n", b"public_inputs: public\nanswers_dir: /opt/competition/answers/A\n")
    _into_image(b, "B")


@case("answers-dir-board")
def _(b):
    _private(b)
    _into_image(b, "A", "/opt/competition/answers/B")
    _into_image(b, "B")


@case("answers-image-ingestion")
def _(b):
    _private(b)
    _into_image(b, "A")
    _into_image(b, "B")
    b.comp["phases"][1]["ingestion_program"] = "scoring_program.zip"


@case("answers-not-checked")
def _(b):
    _private(b)
    _into_image(b, "A")
    _into_image(b, "B")


@case("v1-queue")
def _(b):
    b.comp["queue"] = QUEUE


@case("phase-ended", now=dt.datetime(2027, 2, 10))
def _(b):
    pass


@case("final-phase-open")
def _(b):
    del b.comp["end_date"]


# -- the starting kit ---------------------------------------------------------------------------------------
KIT = "starting_kit/"   # the kit zip's one folder


def _kit(b, changes, top=KIT):
    """The kit zip with ``changes`` ({path inside the kit: bytes, or None to remove}), its files in folder ``top``."""
    inner = {name[len(KIT):]: data for name, data in b.nested("starting_kit.zip").items()}
    for name, data in changes.items():
        if data is None:
            inner.pop(name)
        else:
            inner[name] = data
    b.put("starting_kit.zip", {top + name: data for name, data in inner.items()})


def _kit_file(b, name):
    return b.nested("starting_kit.zip")[KIT + name]


@case("kit-repository-path")
def _(b):
    _kit(b, {"README.md": _kit_file(b, "README.md") + b"\nSee tools/demo.sh\n"})


@case("kit-no-folder")
def _(b):
    _kit(b, {}, top="")


@case("kit-dev-tool")
def _(b):
    _kit(b, {name: None for name in ("dev/config.yaml", "dev/gold.csv", "dev/sample_prediction.csv")})


@case("kit-no-sample")
def _(b):
    _kit(b, {"sample_submission.csv": None})


@case("kit-sample-refused")
def _(b):
    _kit(b, {"sample_submission.csv": b"nothing,of,the,kind\n"})


@case("kit-sample-crash")
def _(b):
    pass   # publish raises a bug (the monkeypatch in the test)


@case("kit-public-unloadable")
def _(b):
    _kit(b, {"test_public.csv": b"\0\0\0"})


@case("kit-no-public")
def _(b):
    _kit(b, {"test_public.csv": None})


@case("kit-ids")
def _(b):
    public = _kit_file(b, "test_public.csv")
    _kit(b, {"test_public.csv": public.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n"})


@case("kit-dev")
def _(b):
    dev = _kit_file(b, "dev/config.yaml")
    _kit(b, {"dev/config.yaml": dev.replace(b"primary_key: score", b"primary_key: nothing")})


@case("dev-phase-kit", dev=True)
def _(b):
    inner = b.nested("reference_data_dev.zip")
    inner["gold.csv"] = inner["gold.csv"].rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n"   # one dev item less
    b.put("reference_data_dev.zip", inner)


@case("dev-phase-test-items", dev=True)
def _(b):
    inner = b.nested("reference_data_dev.zip")
    test = (b.source / "reference_data" / "gold.csv").read_bytes()
    inner["gold.csv"] += test.split(b"\n")[1] + b"\n"   # a test item and its answer
    b.put("reference_data_dev.zip", inner)


# -- Codabench v2 competition.yaml ---------------------------------------------------------------------------
@case("v2-field", "v2")
def _(b):
    b.comp["phases"][0]["execution_time_limit"] = "10 minutes"


@case("v2-image", "v2")
def _(b):
    b.comp["image"] = "nowhere.png"


@case("v2-terms", "v2")
def _(b):
    del b.comp["terms"]


@case("v2-pages-missing", "v2")
def _(b):
    b.comp["pages"] = []


@case("v2-page", "v2")
def _(b):
    b.comp["pages"][0]["file"] = "nowhere.html"


@case("v2-registration", "v2")
def _(b):
    del b.comp["registration_auto_approve"]


@case("v2-leaderboard-singular", "v2")
def _(b):
    b.comp["leaderboard"] = b.comp.pop("leaderboards")


@case("v2-leaderboards-missing", "v2")
def _(b):
    b.comp["leaderboards"] = []


@case("v2-columns-missing", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"] = []


@case("v2-submission-rule", "v2")
def _(b):
    b.comp["leaderboards"][0]["submission_rule"] = "Anything"


@case("v2-index-repeated", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"][1]["index"] = 0


@case("v2-key-repeated", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"][1]["key"] = "score"


@case("v2-column-title-missing", "v2")
def _(b):
    del b.comp["leaderboards"][0]["columns"][1]["title"]


@case("v2-column-title-long", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"][1]["title"] = "t" * 37


@case("v2-precision", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"][1]["precision"] = 11


@case("v2-computation", "v2")
def _(b):
    b.comp["leaderboards"][0]["columns"].append({"title": "mean", "key": "mean", "index": 9, "computation": "avg",
                                                  "computation_indexes": [9]})


@case("v2-leaderboards-extra", "v2")
def _(b):
    b.comp["leaderboards"].append(dict(b.comp["leaderboards"][0], key="other"))


@case("v2-task-index", "v2")
def _(b):
    b.comp["tasks"][1]["index"] = 0


@case("v2-task-program", "v2")
def _(b):
    del b.comp["tasks"][0]["scoring_program"]


@case("v2-tasks-missing", "v2")
def _(b):
    b.comp["tasks"] = []


@case("v2-phases-missing", "v2")
def _(b):
    b.comp["phases"] = []


@case("v2-start", "v2")
def _(b):
    del b.comp["phases"][1]["start"]


@case("v2-end-required", "v2")
def _(b):
    del b.comp["phases"][0]["end"]


@case("v2-end-order", "v2")
def _(b):
    b.comp["phases"][1]["end"] = b.comp["phases"][1]["start"]


@case("v2-phase-order", "v2")
def _(b):
    b.comp["phases"][1]["start"] = b.comp["phases"][0]["end"]   # the boundary: Codabench refuses equal dates too


@case("v2-phase-task", "v2")
def _(b):
    b.comp["phases"][1]["tasks"] = [7]


@case("v2-phase-tasks", "v2")
def _(b):
    del b.comp["phases"][1]["tasks"]


# -- the cases that need a folder or a path ------------------------------------------------------------------
FOLDER_CASES = ("folder-no-yaml", "folder-loose-yaml", "folder-unbundlable", "path-not-bundle", "path-unreadable",
                "zip-bad")


def folder_problems(code, tmp_path, monkeypatch):
    copy = tmp_path / "comp"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "out", "tests", "__pycache__"))
    if code == "folder-no-yaml":
        (copy / "competition.yaml").unlink()
    elif code == "folder-loose-yaml":
        (copy / "notes.yaml").write_text("a: 1\n", encoding="utf-8")
    elif code == "folder-unbundlable":
        (copy / "reference_data" / "board_A.yaml").unlink()
    elif code == "path-not-bundle":
        return check.check_path(tmp_path / "nothing.zip", now=NOW)
    elif code == "path-unreadable":
        path = tmp_path / "bundle.zip"
        path.write_bytes(built(ROOT))
        monkeypatch.setattr(type(path), "read_bytes", lambda self: (_ for _ in ()).throw(PermissionError(13, "no")))
        return check.check_path(path, now=NOW)
    elif code == "zip-bad":
        (tmp_path / "bundle.zip").write_bytes(b"PK not really")
        return check.check_path(tmp_path / "bundle.zip", now=NOW)
    return check.check_path(copy, now=NOW)


def test_every_rule_has_a_case_and_every_case_a_rule():
    assert sorted(set(CASES) | set(FOLDER_CASES)) == sorted(RULES)
    assert not set(CASES) & set(FOLDER_CASES)


def test_the_linter_flags_declared_rules_only_and_every_declared_rule():
    source = (ROOT / "organizer" / "check.py").read_text(encoding="utf-8")
    flagged = set(re.findall(r'\.flag\(\s*"([a-z0-9-]+)"', source))
    # the table of fields names the rule each field's wrong value breaks; check.py flags it for them
    flagged |= {f.rule for f in FIELDS} | {f.code for f in FIELDS if f.code}
    assert flagged == set(RULES)


def test_every_rule_says_where_it_comes_from():
    for rule in RULES.values():
        assert rule.level in (ERROR, WARNING) and rule.summary and rule.source and rule.message, rule.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.code), rule.code
        assert rule.platform in ("CodaLab v1", "Codabench", "CodaLab v1, Codabench", "CodaLab v1, EvalAI", "ours"), \
            rule.code


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_rule_breaks(code, tmp_path, monkeypatch, request):
    fmt, now, edit, dev = CASES[code]
    b = Bundle(fmt, request.getfixturevalue("dev_folder") if dev else ROOT)
    edit(b)
    if code == "kit-sample-crash":
        monkeypatch.setattr(check, "publish", lambda comp, submission: 1 / 0)
    problems = check.check_path(b.write(tmp_path / "bundle.zip"), now=now)
    assert code in _codes(problems), "\n".join(map(str, problems))
    for problem in problems:
        if problem.code == code:
            assert problem.level == RULES[code].level
            assert str(problem).endswith("[%s]" % code)


@pytest.mark.parametrize("code", FOLDER_CASES)
def test_each_path_rule_breaks(code, tmp_path, monkeypatch):
    problems = folder_problems(code, tmp_path, monkeypatch)
    assert code in _codes(problems), "\n".join(map(str, problems))


@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_the_shipped_bundle_breaks_no_rule(fmt, tmp_path):
    """Nothing to say but that board A's phase holds board A's answers, which Codabench serves to anyone."""
    problems = check.check_path(Bundle(fmt).write(tmp_path / "bundle.zip"), now=NOW)
    assert board_a_answers_only(problems), [str(p) for p in problems]


@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_a_bundle_whose_feedback_phase_scores_the_dev_set_breaks_no_rule(fmt, tmp_path, dev_folder):
    assert check.check_path(Bundle(fmt, dev_folder).write(tmp_path / "bundle.zip"), now=NOW) == []


def test_a_rule_message_is_its_template_filled():
    rule = RULES["key-long"]
    assert rule.text(key="k" * 37, length=37, limit=36) == \
        "column key '%s' is 37 characters; Codabench allows at most 36" % ("k" * 37)


def test_a_misspelt_field_gets_the_field_it_resembles(tmp_path):
    b = Bundle("v1")
    b.comp["phases"][1]["max_submission_per_day"] = b.comp["phases"][1].pop("max_submissions_per_day")
    b.comp["enddate"] = b.comp.pop("end_date")
    b.comp["version"] = 1
    problems = {p.where: p.message for p in check.check_path(b.write(tmp_path / "b.zip"), now=NOW)}
    assert problems["competition.yaml: phases.1.max_submission_per_day"].endswith(
        "the upload would crash; did you mean max_submissions_per_day?")
    assert problems["competition.yaml: enddate"].endswith("(Competition(**fields)); did you mean end_date?")
    assert problems["competition.yaml: version"].endswith("; Codabench v2 keys need --format v2")


# -- every field of competition.yaml has its type and range (organizer/lint_rules.py FIELDS) ------------------------
def _holder(comp, scope):
    """The mapping of the built competition.yaml where a field of ``scope`` is, and how check names it."""
    if scope == lint_rules.COMPETITION:
        return comp, "competition.yaml: "
    if scope == lint_rules.PHASE:
        return comp["phases"][1], "competition.yaml: phases.1."
    board = comp["leaderboard"] if "leaderboard" in comp else None
    if scope == lint_rules.LEADERBOARD:
        name = next(iter(board["leaderboards"]))
        return board["leaderboards"][name], "competition.yaml: leaderboard.leaderboards.%s." % name
    if scope == lint_rules.COLUMN:
        return board["columns"]["kappa"], "competition.yaml: leaderboard.columns.kappa."
    if scope == lint_rules.V2_COMPETITION:
        return comp, "competition.yaml: "
    lists = {lint_rules.V2_PHASE: ("phases", 1), lint_rules.V2_TASK: ("tasks", 1), lint_rules.V2_PAGE: ("pages", 0),
             lint_rules.V2_BOARD: ("leaderboards", 0)}
    if scope in lists:
        key, i = lists[scope]
        return comp[key][i], "competition.yaml: %s[%d]." % (key, i)
    column = comp["leaderboards"][0]["columns"][1]
    return column, "competition.yaml: leaderboards[0].columns.%s." % column["key"]


def _field_case(field, value, tmp_path):
    b = Bundle("v2" if field.scope.startswith("v2") else "v1")
    holder, prefix = _holder(b.comp, field.scope)
    holder[field.name] = value
    if field.scope == lint_rules.V2_COLUMN:   # check names a column by its key
        prefix = "competition.yaml: leaderboards[0].columns.%s." % holder["key"]
    return {(p.code, p.where) for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)}, prefix


WRONG_TYPE = {"a mapping of keys": "text", "a list": "text"}


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: "%s.%s" % (f.scope, f.name))
def test_each_field_of_the_wrong_type_is_flagged(field, tmp_path):
    value = WRONG_TYPE.get(field.kind.what, {"not": "a value"})
    found, prefix = _field_case(field, value, tmp_path)
    assert (field.rule, prefix + field.name) in found, sorted(found)


@pytest.mark.parametrize("field", [f for f in FIELDS if f.kind.outside is not None],
                         ids=lambda f: "%s.%s" % (f.scope, f.name))
def test_each_field_out_of_its_range_is_flagged(field, tmp_path):
    found, prefix = _field_case(field, field.kind.outside, tmp_path)
    assert (field.code or field.rule, prefix + field.name) in found, sorted(found)


def test_the_values_of_the_shipped_competitions_are_in_range():
    for fmt in ("v1", "v2"):
        comp = Bundle(fmt).comp
        scopes = lint_rules.V1_SCOPES if fmt == "v1" else [f.scope for f in FIELDS if f.scope.startswith("v2")]
        for scope in set(scopes):
            holder, _ = _holder(comp, scope)
            for field in lint_rules.FIELDS_OF[scope].values():
                if field.name in holder:
                    assert field.kind.problem(holder[field.name]) is None, (fmt, scope, field.name)


@pytest.mark.parametrize("key, value, says", [
    ("max_submissions", "five", "'five' is not a whole number from 1"),
    ("max_submissions_per_day", -3, "-3 is not a whole number from 1"),
    ("execution_time_limit", "10 minutes", "'10 minutes' is not a whole number from 1 (seconds)"),
])
def test_the_limits_of_a_phase_are_whole_numbers_and_v2_copies_none_that_is_not(key, value, says, tmp_path):
    copy = tmp_path / "comp"
    shutil.copytree(ROOT / "examples" / "keywords", copy)
    comp = yaml.safe_load((copy / "competition.yaml").read_text(encoding="utf-8"))
    comp["phases"][1][key] = value
    (copy / "competition.yaml").write_text(yaml.safe_dump(comp, allow_unicode=True), encoding="utf-8")
    problems = [p for p in check.check_path(copy, now=NOW) if p.code == "v1-field"]
    assert [p.where for p in problems] == ["competition.yaml: phases.1.%s" % key] and says in problems[0].message
    with pytest.raises(OrganizerError, match="phases.1.%s: %s" % (key, re.escape(says))):
        bundle.build_v2(copy)


# -- every limit holds at its value and breaks one past it ---------------------------------------------------------
# A platform's max_length is a number of characters that fits: Django's MaxLengthValidator refuses len(value) >
# max_length, so 100 characters of a CharField(max_length=100) are stored and 101 are not (a CJK character counts
# one, as in len()); a whole number's range holds both its ends.
LIMITED = [f for f in FIELDS if f.kind.limit is not None]


def _ends(kind):
    """(values at the ends of ``kind``'s range, values one past them)."""
    if kind.what.startswith("text"):
        return ["x" * kind.limit, "题" * kind.limit], ["x" * (kind.limit + 1), "题" * (kind.limit + 1)]
    low = kind.outside + 1   # a whole number's first value out of range is the one below it
    return [low, kind.limit], [low - 1, kind.limit + 1]


@pytest.mark.parametrize("field", LIMITED, ids=lambda f: "%s.%s" % (f.scope, f.name))
def test_each_limit_holds_at_its_value_and_breaks_one_past_it(field):
    inside, outside = _ends(field.kind)
    assert [field.kind.problem(v) for v in inside] == [None, None]
    assert [field.kind.problem(v) for v in outside] == ["range", "range"]


def _fields_case(fmt, values, tmp_path):
    """check on the shipped bundle with each field of ``values`` set to its value: the (code, where) it flags and
    where it names each field."""
    b = Bundle(fmt)
    for field, value in values.items():
        _holder(b.comp, field.scope)[0][field.name] = value
    where = {}
    for field in values:
        holder, prefix = _holder(b.comp, field.scope)
        if field.scope == lint_rules.V2_COLUMN:   # check names a column by its key
            prefix = "competition.yaml: leaderboards[0].columns.%s." % holder["key"]
        where[field] = prefix + field.name
    problems = check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)
    return {(p.code, p.where) for p in problems}, where


@pytest.mark.parametrize("end", ["low", "high", "past high"])
@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_the_linter_takes_every_field_at_the_ends_of_its_range_and_flags_it_one_past_the_high_end(fmt, end, tmp_path):
    """End to end (one check of a bundle holding every limited field of the format at once): at each end of its
    range no field is flagged; one past the high end each is (one past the low end: the test above)."""
    fields = [f for f in LIMITED if f.scope.startswith("v2") == (fmt == "v2")]
    if end == "low":
        fields = [f for f in fields if not f.kind.what.startswith("text")]   # text's low end is the empty text
    pick = {"low": lambda f: _ends(f.kind)[0][0], "high": lambda f: _ends(f.kind)[0][-1],
            "past high": lambda f: _ends(f.kind)[1][-1]}[end]
    found, where = _fields_case(fmt, {f: pick(f) for f in fields}, tmp_path)
    for f in fields:
        flagged = (f.code or f.rule, where[f]) in found
        assert flagged == (end == "past high"), (f.scope, f.name, end, sorted(found))


def _labels(b, lengths):
    """The shipped v1 leaderboard's columns relabelled with labels of ``lengths`` characters, in order; their
    keys."""
    columns = b.comp["leaderboard"]["columns"]
    keys = list(columns)[:len(lengths)]
    for key, n in zip(keys, lengths):
        columns[key]["label"] = "L" * n
    return keys


def test_a_v1_column_label_is_flagged_for_codabench_from_37_characters_and_for_v1_from_51(tmp_path):
    """Codabench's Column.title holds 36 characters, CodaLab v1's SubmissionScoreDef.label 50: a label of 36
    passes both, 37 and 50 only v1 (label-long-codabench), 51 neither (label-long-v1, which says it all)."""
    b = Bundle("v1")
    keys = _labels(b, [36, 37, 50, 51])
    found = {(p.code, p.where) for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)}
    where = ["competition.yaml: leaderboard.columns.%s.label" % k for k in keys]
    assert [("label-long-codabench", w) in found for w in where] == [False, True, True, False]
    assert [("label-long-v1", w) in found for w in where] == [False, False, False, True]


def test_a_column_key_of_36_characters_passes_and_37_is_flagged(tmp_path):
    b = Bundle("v1")
    _column(b, "k" * 36)
    _column(b, "q" * 37)
    found = {(p.code, p.where) for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)}
    assert ("key-long", "competition.yaml: leaderboard.columns.%s" % ("k" * 36)) not in found
    assert ("key-long", "competition.yaml: leaderboard.columns.%s" % ("q" * 37)) in found


@pytest.mark.parametrize("fmt, clamped", [(0, True), (1, False), (10, False), (11, True)])
def test_a_numeric_format_is_clamped_below_1_and_above_10(fmt, clamped, tmp_path):
    """CodaLab v1 shows min(10, max(1, int(numeric_format))) decimals (codalab-competitions c7ef5e2,
    apps/web/models.py, ``CompetitionPhase.format_value``): 1 and 10 are shown as written, 0 and 11 are not."""
    b = Bundle("v1")
    _column(b, "extra", numeric_format=fmt)
    found = {(p.code, p.where) for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW)}
    assert (("v1-numeric-format-clamped", "competition.yaml: leaderboard.columns.extra.numeric_format") in found) \
        == clamped, found

@pytest.mark.parametrize("fmt", ["v1", "v2"])
@pytest.mark.parametrize("now, ended", [(dt.datetime(2027, 1, 30, 23, 59, 59), False), (dt.datetime(2027, 1, 31), True)])
def test_a_phase_has_ended_at_its_end_itself(fmt, now, ended, tmp_path):
    """The first phase ends at 2027-01-31 00:00 (v2: its end; v1: the day before the next phase starts, as
    Codabench's importer ends it). Both platforms take a phase as open only while now is before its end, strictly
    (codabench c7dbc756, src/apps/competitions/models.py, ``Phase.is_active``: start < now() < end;
    codalab-competitions c7ef5e2, apps/web/models.py, ``CompetitionPhase.is_active``: now < the next phase's
    start): at its end itself it has ended."""
    b = Bundle(fmt)
    found = [p for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=now) if p.code == "phase-ended"]
    assert len(found) == ended, found

@pytest.mark.parametrize("length, codes", [(100, set()), (101, {"v2-title-portable"}),
                                           (256, {"v2-title-portable"}), (257, {"v2-title-long"})])
def test_a_v2_title_is_portable_up_to_100_characters_and_codabench_takes_256(length, codes, tmp_path):
    """CodaLab v1 and EvalAI store 100 characters of a title, Codabench 256."""
    b = Bundle("v2")
    b.comp["title"] = "题" * length
    found = {p.code for p in check.check_path(b.write(tmp_path / "bundle.zip"), now=NOW) if "title" in p.where}
    assert found == codes


@pytest.mark.parametrize("length, ok", [(100, True), (101, False)])
def test_the_evalai_title_holds_100_characters(length, ok):
    """EvalAI's Challenge.title and ChallengePhase.name: max_length=100 (organizer/evalai.py ``_title``)."""
    from organizer import evalai
    if ok:
        assert evalai._title("t" * length, "--title") == "t" * length
    else:
        with pytest.raises(SystemExit, match="must be 1 to 100 characters"):
            evalai._title("t" * length, "--title")
