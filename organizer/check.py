"""Lint a competition folder or a built bundle zip offline, with the rules the platforms' unpackers apply.

    python3 -m organizer check COMPETITION_DIR_OR_BUNDLE.zip [...]

Prints every problem (ERROR or WARNING, with where it is) and exits 1 if there
is any error. A folder is first bundled in memory exactly as python3 -m organizer bundle
does, then checked like a zip, plus the folder-only rule (no loose .yaml beside
competition.yaml).

Platform rules (docs/organizers.md lists them with their sources):
- CodaLab v1 (CompetitionDefBundle.unpack): competition.yaml is the first entry
  whose name contains ".yaml", so it must be the only one; top-level and phase
  keys must be model fields (others crash the upload); html needs overview,
  evaluation, terms and data; every phase needs reference_data; label <= 50
  and description <= 1000 characters; numeric_format is clamped to 1..10.
- Codabench (v1 importer and v2 unpacker): image and terms are required;
  column keys <= 36 characters, unique; phases in date order (one ends before
  the next starts); only the first leaderboard is attached to phases; computed
  v1 columns are not translated; v2 needs ``leaderboards`` (plural).
- Column labels: CodaLab v1 ``SubmissionScoreDef.label`` <= 50 characters,
  Codabench ``Column.title`` <= 36 (its v1 importer copies the label there).
- Ours: every column key is written by the scoring program for the phase's task
  (the family's leaderboard_keys with the options of the phase's config.yaml;
  the primary score's interval keys only when the config writes them, so they
  stay out of the leaderboard unless the organizer adds both);
  no colon in keys; the docker image has python3 and our pinned packages; each
  phase's reference zip has config.yaml whose board matches the phase, names
  files that are there, and loads.
- The Ladder (config feedback.ladder): a warning, since the platforms give
  the scoring program no submission history today.
- Hidden board: a phase that scores board B (or all units while a split exists)
  must be sealed (``report: sealed``): Codabench's v1 importer ignores
  ``leaderboard_management_mode`` and attaches every phase to the one
  leaderboard, and both platforms serve detailed results to other users.
- Starting kit: its sample submission scores on every phase's reference data,
  its public test ids are the gold's ids, its dev set loads with its own
  config, and no kit file names a path of the organizers' repository.
"""
import argparse
import datetime as dt
import io
import re
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import yaml
from .bundle import REFERENCE_ZIP, as_datetime, build_v1, build_v2
from scorer.api import Competition, NoOfflineCheck, Task
from scorer.config import INTERVAL_SUFFIXES, find_config, load_config, read_raw
from scorer.errors import ScoringError
from scorer.published import publish
from scorer.tasks import families
from .inputs import OrganizerError, Parser, kind_of

COMPETITION_KEYS = {
    "title", "description", "image", "url_redirect", "has_registration", "start_date", "end_date", "published",
    "force_submission_to_leaderboard", "disallow_leaderboard_modifying", "enable_medical_image_viewer",
    "enable_detailed_results", "show_datasets_from_yaml", "reward", "allow_teams",
    "enable_per_submission_metadata", "allow_public_submissions", "enable_forum", "anonymous_leaderboard",
    "enable_teams", "require_team_approval", "competition_docker_image", "hide_top_three", "hide_chart",
    "allow_organizer_teams", "html", "phases", "leaderboard", "admin_names",
}
PHASE_KEYS = {
    "phasenumber", "label", "description", "start_date", "max_submissions", "max_submissions_per_day",
    "is_scoring_only", "scoring_program", "reference_data", "input_data", "ingestion_program", "public_data",
    "starting_kit", "datasets", "color", "execution_time_limit", "auto_migration", "leaderboard_management_mode",
    "force_best_submission_to_leaderboard", "max_submission_size", "phase_never_ends",
    "delete_submissions_except_best_and_last", "scoring_program_docker_image", "default_docker_image",
    "disable_custom_docker_image", "ingestion_program_docker_image",
}
PAGES = ("overview", "evaluation", "terms", "data")
COLORS = {"white", "orange", "yellow", "green", "blue", "purple"}
MODES = {"default", "hide_results"}
GOOD_IMAGES = {"codalab/codalab-legacy:py312"}
OLD_IMAGES = {"codalab/codalab-legacy:latest": "Python 2.7", "codalab/codalab-legacy:py3": "python3 3.6, pandas 0.22",
              "codalab/codalab-legacy": "Python 2.7"}
TITLE_MAX = 100       # CodaLab v1 Competition.title (apps/web/models.py) and EvalAI Challenge.title: max_length=100
V2_TITLE_MAX = 256    # Codabench Competition.title (src/apps/competitions/models.py)
SEALED_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last")   # what the reveal can change
KEY_MAX = 36          # Codabench Column.key; v1 allows 50
COLUMN_TITLE_MAX = 36  # Codabench Column.title (src/apps/leaderboards/models.py)
COLUMN_LABEL_MAX = 50  # CodaLab v1 SubmissionScoreDef.label (apps/web/models.py)
LABEL_MAX = 50
DESCRIPTION_MAX = 1000
SHELL_CHARS = set("|&;<>`\"'()*?")
V2_COMPUTATIONS = {"sum", "avg", "min", "max"}
V2_RULES = {"Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last", "Force_Latest_Multiple", "Force_Best"}


@dataclass(frozen=True)
class Problem:
    level: str   # "ERROR" or "WARNING"
    where: str
    message: str

    def __str__(self):
        return "%s %s: %s" % (self.level, self.where, self.message)


class Report:
    def __init__(self, now=None):
        self.problems = []
        self.now = now or dt.datetime.now()   # the dates of the phases are checked against it

    def error(self, where, message):
        self.problems.append(Problem("ERROR", where, message))

    def warn(self, where, message):
        self.problems.append(Problem("WARNING", where, message))


# -- entry points -------------------------------------------------------------------------------------
def check_path(path, fmt=None, now=None):
    """Problems of a folder (bundled in memory first) or of a bundle zip (its phase dates seen at ``now``)."""
    path = Path(path)
    report = Report(now)
    if path.is_dir():
        _check_folder(path, report)
        try:
            data = build_v2(path) if fmt == "v2" else build_v1(path)
        except (SystemExit, OrganizerError) as exc:
            report.error(str(path), "cannot be bundled: %s" % exc)
            return report.problems
        except (yaml.YAMLError, OSError, KeyError, ValueError, TypeError) as exc:
            report.error(str(path), "cannot be bundled: %s" % " ".join(str(exc).split())[:300])
            return report.problems
        _check_zip(data, report)
    else:
        kind = kind_of(path)
        if kind is not None:
            report.error(str(path), "is %s; give a competition folder or a bundle zip" % (
                "not there" if kind == "missing" else kind))
            return report.problems
        try:
            data = path.read_bytes()
        except OSError as exc:
            report.error(str(path), "cannot be read (%s)" % exc)
            return report.problems
        _check_zip(data, report)
    return report.problems


def has_errors(problems):
    return any(p.level == "ERROR" for p in problems)


def print_problems(problems, label, stream=None):
    stream = stream or sys.stdout
    for problem in problems:
        print(problem, file=stream)
    errors = sum(p.level == "ERROR" for p in problems)
    print("%s: %d error(s), %d warning(s)" % (label, errors, len(problems) - errors), file=stream)


def _check_folder(folder, report):
    if not (folder / "competition.yaml").is_file():
        report.error(str(folder), "no competition.yaml")
    loose = sorted(p.name for p in folder.iterdir()
                   if p.is_file() and p.suffix in (".yaml", ".yml") and p.name != "competition.yaml")
    for name in loose:
        report.error("%s/%s" % (folder.name, name), "a loose .yaml beside competition.yaml; CodaLab takes the first "
                     "entry whose name contains '.yaml' as the competition definition: move it into a data folder")


# -- the zip ------------------------------------------------------------------------------------------
def _check_zip(data, report):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        report.error("bundle", "is not a zip file")
        return
    names = archive.namelist()
    yaml_names = [n for n in names if ".yaml" in n]
    if "competition.yaml" not in names:
        report.error("bundle", "competition.yaml is not at the root of the zip (found: %s)"
                     % (", ".join(yaml_names[:3]) or "no .yaml at all"))
        return
    if yaml_names[0] != "competition.yaml":
        report.error("bundle", "the first .yaml entry is %s, which CodaLab v1 would read as the competition "
                     "definition" % yaml_names[0])
    for extra in yaml_names:
        if extra != "competition.yaml":
            report.error("bundle/%s" % extra, "a second .yaml in the bundle; keep configs inside the nested zips")
    try:
        comp = yaml.safe_load(archive.read("competition.yaml").decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        report.error("competition.yaml", "is not valid UTF-8 YAML (%s)" % " ".join(str(exc).split())[:200])
        return
    if not isinstance(comp, dict):
        report.error("competition.yaml", "must be a mapping")
        return
    files = {n: archive.read(n) for n in names if not n.endswith("/")}
    if str(comp.get("version", "1")) == "2":
        _check_v2(comp, files, report)
    else:
        _check_v1(comp, files, report)


def _docker_image(image, where, report):
    if not image:
        report.error(where, "no docker image set; the platforms' defaults are old (CodaLab: Python 2.7, Codabench: "
                     "py37 with pandas 0.25); set codalab/codalab-legacy:py312")
    elif image in OLD_IMAGES:
        report.error(where, "%s has %s; the scoring program needs python3 with numpy 1.26.4, pandas 2.2.3, "
                     "PyYAML 6.0.2 (use codalab/codalab-legacy:py312)" % (image, OLD_IMAGES[image]))
    elif image not in GOOD_IMAGES:
        report.warn(where, "%s is not known to have python3 with numpy 1.26.4, pandas 2.2.3, PyYAML 6.0.2 "
                    "(codalab/codalab-legacy:py312 has them)" % image)


def _as_datetime(value):
    """The date, or None where it is no date (check reports it)."""
    try:
        return as_datetime(value)
    except ValueError:
        return None


def _check_title_length(title, report):
    if not title:
        report.error("competition.yaml: title", "is missing")
    elif len(str(title)) > TITLE_MAX:
        report.error("competition.yaml: title", "is %d characters; CodaLab v1 (Competition.title, apps/web/models.py) "
                     "and EvalAI (Challenge.title, apps/challenges/models.py) allow at most %d: the upload fails"
                     % (len(str(title)), TITLE_MAX))


def _check_dates(spans, report, sealed):
    """``spans``: (where, start, end or None) of each phase in order, ``end`` as the platforms end it; ``sealed``:
    whether some phase is sealed."""
    for i, (where, start, end) in enumerate(spans):
        if end is not None and end < report.now:
            report.warn(where, "ended on %s: Codabench's page refuses submissions to a phase that has ended "
                        "(submission_upload.tag) and CodaLab v1's API too (CompetitionPhase.is_active); move its "
                        "dates if participants should still submit" % end.date())
        if i == len(spans) - 1 and end is None:
            after = (": after the reveal anyone could go on submitting and read the revealed board's scores at once"
                     if sealed else "")
            report.warn(where, "is the final phase and never ends%s; give it an end (end_date in a v1 "
                        "competition.yaml, end in v2)" % after)


def _check_key(key, where, report):
    key = str(key)
    if ":" in key:
        report.error(where, "column key %r has a colon; scores.txt lines are split on the one colon" % key)
    if len(key) > KEY_MAX:
        report.error(where, "column key %r is %d characters; Codabench allows at most %d" % (key, len(key), KEY_MAX))
    if key != key.strip() or not key.strip():
        report.error(where, "column key %r is empty or has surrounding spaces" % key)


def _check_title(title, where, report):
    if len(title) > COLUMN_LABEL_MAX:
        report.error(where, "%r is %d characters; CodaLab v1 allows at most %d" % (title, len(title), COLUMN_LABEL_MAX))
    elif len(title) > COLUMN_TITLE_MAX:
        report.error(where, "%r is %d characters; Codabench (which imports v1 bundles) allows at most %d: shorten it"
                     % (title, len(title), COLUMN_TITLE_MAX))


def _check_v1(comp, files, report):
    for key in sorted(set(map(str, comp)) - COMPETITION_KEYS):
        report.error("competition.yaml: %s" % key, "is not a CodaLab v1 competition field; the upload would crash "
                     "(Competition(**fields)); Codabench v2 keys need --format v2")
    _check_title_length(comp.get("title"), report)
    html = comp.get("html")
    if not isinstance(html, dict):
        report.error("competition.yaml: html", "is missing; it must name the overview, evaluation, terms and data pages")
        html = {}
    for page in PAGES:
        if page not in html:
            report.error("competition.yaml: html.%s" % page, "is missing; CodaLab v1 requires it")
    for page, name in html.items():
        if str(name) not in files:
            report.error("competition.yaml: html.%s" % page, "%s is not at the root of the bundle" % name)
        elif not files[str(name)].strip():
            report.error("bundle/%s" % name, "is empty")
    image = comp.get("image")
    if not image:
        report.error("competition.yaml: image", "is missing; Codabench requires a logo")
    elif str(image) not in files:
        report.error("competition.yaml: image", "%s is not at the root of the bundle" % image)
    _docker_image(comp.get("competition_docker_image"), "competition.yaml: competition_docker_image", report)

    columns, leaderboards = _check_v1_leaderboard(comp.get("leaderboard"), report)
    phases = comp.get("phases")
    if not isinstance(phases, dict) or not phases:
        report.error("competition.yaml: phases", "is missing or empty")
        return
    ordered = []
    for number, spec in phases.items():
        where = "competition.yaml: phases.%s" % number
        if not isinstance(spec, dict):
            report.error(where, "must be a mapping")
            continue
        for key in sorted(set(map(str, spec)) - PHASE_KEYS):
            report.error("%s.%s" % (where, key), "is not a CodaLab v1 phase field; the upload would crash")
        if not isinstance(spec.get("phasenumber"), int):
            report.error("%s.phasenumber" % where, "is missing or not an integer")
        if len(str(spec.get("label", ""))) > LABEL_MAX:
            report.error("%s.label" % where, "is longer than %d characters" % LABEL_MAX)
        if len(str(spec.get("description", ""))) > DESCRIPTION_MAX:
            report.error("%s.description" % where, "is longer than %d characters" % DESCRIPTION_MAX)
        start = _as_datetime(spec.get("start_date")) if "start_date" in spec else None
        if start is None:
            report.error("%s.start_date" % where, "is missing or not a date")
        if "color" in spec and spec["color"] not in COLORS:
            report.error("%s.color" % where, "%r; allowed: %s" % (spec["color"], ", ".join(sorted(COLORS))))
        if "leaderboard_management_mode" in spec and spec["leaderboard_management_mode"] not in MODES:
            report.error("%s.leaderboard_management_mode" % where, "%r is silently replaced by 'default' (results "
                         "visible); allowed: default, hide_results" % spec["leaderboard_management_mode"])
        for key in ("scoring_program", "reference_data"):
            if not spec.get(key):
                report.error("%s.%s" % (where, key), "is missing")
        for key in ("scoring_program", "reference_data", "starting_kit", "input_data", "public_data",
                    "ingestion_program"):
            value = spec.get(key)
            if isinstance(value, str) and value.endswith(".zip") and value not in files:
                report.error("%s.%s" % (where, key), "%s is not in the bundle" % value)
            elif value and not str(value).endswith(".zip"):
                report.warn("%s.%s" % (where, key), "%r is not a .zip: CodaLab looks it up as an existing dataset"
                            % value)
        ordered.append((spec.get("phasenumber", 0) if isinstance(spec.get("phasenumber"), int) else 0, start, where, spec))
    ordered.sort(key=lambda item: item[0])
    numbers = [n for n, _, _, _ in ordered]
    if len(set(numbers)) != len(numbers):
        report.error("competition.yaml: phases", "phasenumber values repeat: %s" % numbers)
    if ordered and ordered[0][3].get("auto_migration"):
        report.warn(ordered[0][2] + ".auto_migration", "is forced to False on the first phase")
    for (_, previous, pwhere, _), (_, start, where, _) in zip(ordered, ordered[1:]):
        if previous and start and start <= previous:
            report.error(where + ".start_date", "must be later than the previous phase's start (%s); phases run in "
                         "phasenumber order" % previous.date())
        elif previous and start and start - previous <= dt.timedelta(days=1):
            report.warn(where + ".start_date", "Codabench ends the previous phase one day before this start, which "
                        "is not after that phase's own start")
    end_date = _as_datetime(comp["end_date"]) if comp.get("end_date") else None
    spans = []
    for k, (_, start, where, spec) in enumerate(ordered):
        following = ordered[k + 1][1] if k + 1 < len(ordered) else None
        # Codabench's v1 importer ends a phase one day before the next starts, and the last at end_date
        spans.append((where, start, following - dt.timedelta(days=1) if following else end_date))
    if not any(spec.get("starting_kit") for _, _, _, spec in ordered) and "starting_kit.zip" in files:
        report.warn("competition.yaml: phases", "starting_kit.zip is in the bundle but no phase names it "
                    "(starting_kit: starting_kit.zip); participants will not see it")

    loaded, sealed = [], []
    for _, _, where, spec in ordered:
        _check_program(files, spec.get("scoring_program"), where, report)
        cfg = _check_reference(files, spec.get("reference_data"), where, columns, report)
        if cfg is not None:
            loaded.append((where, spec.get("reference_data"), cfg))
            _check_sealed(cfg, where, report, spec.get("leaderboard_management_mode", "default"))
            if cfg.report == "sealed":
                sealed.append(cfg.board)
                if spec.get("force_best_submission_to_leaderboard"):
                    report.error(where + ".force_best_submission_to_leaderboard", "is set on a sealed phase: CodaLab "
                                 "v1 would keep each participant's best submission by the placeholder scores "
                                 "(apps/web/utils.py push_submission_to_leaderboard_if_best), and the reveal could "
                                 "not tell which one the participant meant; remove it")
    if all(start is not None for _, start, _ in spans):
        _check_dates(spans, report, bool(sealed))
    _check_starting_kit(files, [s.get("starting_kit") for _, _, _, s in ordered] + ["starting_kit.zip"], loaded,
                        report)
    if len(leaderboards) > 1:
        report.warn("competition.yaml: leaderboard.leaderboards", "Codabench attaches only the first leaderboard to "
                    "the phases of an imported bundle")


def _check_v1_leaderboard(board, report):
    """Validate the leaderboard block; returns ({key: column}, [labels])."""
    where = "competition.yaml: leaderboard"
    if not isinstance(board, dict):
        report.error(where, "is missing")
        return {}, []
    boards = board.get("leaderboards")
    if not isinstance(boards, dict) or not boards:
        report.error(where + ".leaderboards", "is missing or empty")
        boards = {}
    labels = [str((info or {}).get("label", name)) for name, info in boards.items()]
    columns = board.get("columns")
    if not isinstance(columns, dict) or not columns:
        report.error(where + ".columns", "is missing or empty")
        return {}, labels
    for key, col in columns.items():
        cw = "%s.columns.%s" % (where, key)
        _check_key(key, cw, report)
        if not isinstance(col, dict):
            report.error(cw, "must be a mapping")
            continue
        if not col.get("label"):
            report.error(cw + ".label", "is missing")
        else:
            _check_title(str(col["label"]), cw + ".label", report)
        owner = col.get("leaderboard")
        if not isinstance(owner, dict) or str(owner.get("label")) not in labels:
            report.error(cw + ".leaderboard", "must refer to one of the leaderboards (%s)" % ", ".join(labels))
        fmt = col.get("numeric_format", 2)
        if isinstance(fmt, bool) or not str(fmt).strip().isdigit():
            report.error(cw + ".numeric_format", "%r is not a whole number of decimals" % fmt)
        elif not 1 <= int(fmt) <= 10:
            report.warn(cw + ".numeric_format", "%s is clamped to 1..10" % fmt)
        if col.get("sort", "desc") not in ("asc", "desc"):
            report.error(cw + ".sort", "%r; allowed: asc, desc" % col.get("sort"))
        computed = col.get("computed")
        if computed:
            if not isinstance(computed, dict) or computed.get("operation") not in ("Max", "Avg", "MRR"):
                report.error(cw + ".computed", "operation must be Max, Avg or MRR")
            else:
                for field in str(computed.get("fields", "")).split(","):
                    if field.strip() not in columns:
                        report.error(cw + ".computed.fields", "%r is not a column" % field.strip())
            report.warn(cw + ".computed", "Codabench does not translate computed columns (it shows n/a)")
    return {str(k): v for k, v in columns.items() if isinstance(v, dict)}, labels


# -- nested zips --------------------------------------------------------------------------------------
def _open_nested(files, name, where, report):
    try:
        return zipfile.ZipFile(io.BytesIO(files[name]))
    except zipfile.BadZipFile:
        report.error(where, "%s is not a zip file" % name)
        return None


def _check_program(files, name, where, report):
    if not isinstance(name, str) or name not in files:
        return
    archive = _open_nested(files, name, where, report)
    if archive is None:
        return
    names = set(archive.namelist())
    meta = "metadata.yaml" if "metadata.yaml" in names else "metadata" if "metadata" in names else None
    pw = "%s/%s" % (name, meta or "metadata")
    if meta is None:
        report.error(pw, "no metadata file at the root of the scoring program zip (its files must not sit in a folder)")
        return
    if meta == "metadata.yaml":
        report.warn(pw, "CodaLab v1 reads only 'metadata' (no extension)")
    for needed in ("score.py", "scorer/__init__.py"):
        if needed not in names:
            report.error("%s/%s" % (name, needed), "is missing")
    if any("__pycache__" in n for n in names):
        report.warn(name, "contains __pycache__ folders")
    try:
        command = (yaml.safe_load(archive.read(meta).decode("utf-8")) or {}).get("command")
    except (yaml.YAMLError, UnicodeDecodeError, AttributeError):
        report.error(pw, "is not a YAML mapping with a command")
        return
    commands = command if isinstance(command, list) else [command]
    for cmd in commands:
        if not isinstance(cmd, str) or not cmd.strip():
            report.error(pw, "command is missing")
            continue
        argv = cmd.split(" ")
        if "" in argv:
            report.error(pw, "command %r has a double or trailing space; v1 splits on single spaces" % cmd)
        if argv[0] != "python3":
            report.error(pw, "command must start with python3 (python is Python 2 on older images): %r" % cmd)
        if set(cmd) & SHELL_CHARS:
            report.error(pw, "command %r uses shell syntax; the workers run it without a shell" % cmd)
        for var in ("$program/score.py", "$input", "$output"):
            if var not in argv:
                report.error(pw, "command %r does not pass %s as its own argument" % (cmd, var))


def _check_reference(files, name, where, columns, report, expected_board=None):
    """The phase's reference zip: config.yaml at the root, board, named files, loading, leaderboard keys."""
    if not isinstance(name, str) or name not in files:
        return
    archive = _open_nested(files, name, where, report)
    if archive is None:
        return
    rw = "%s/config.yaml" % name
    names = set(archive.namelist())
    if "config.yaml" not in names:
        report.error(rw, "is missing; the reference zip needs config.yaml at its root")
        return
    match = REFERENCE_ZIP.match(name)
    if expected_board is None and match:
        expected_board = match.group(1)
    if expected_board is None:
        report.warn(where, "%s does not say its board (name it reference_data_<BOARD>.zip)" % name)
    registry = families()
    with tempfile.TemporaryDirectory() as tmp:
        archive.extractall(tmp)
        try:
            cfg = load_config(tmp, registry)
        except ScoringError as exc:
            report.error(rw, exc.message)
            return None
        if expected_board is not None and cfg.board != expected_board:
            report.error(rw, "board is %s but this is the reference data of board %s" % (cfg.board, expected_board))
        family = registry[cfg.task]
        _check_answers_held(cfg, family, names, name, rw, report)
        for slot, file in cfg.files.items():
            if slot in family.submission_slots or (cfg.one_board and cfg.report == "sealed" and slot in family.unit_files):
                continue
            if file not in names:
                report.error(rw, "files.%s names %s, which is not in %s" % (slot, file, name))
        if cfg.boards_file and cfg.boards_file not in names:
            report.error(rw, "boards.file names %s, which is not in %s" % (cfg.boards_file, name))
        try:
            Competition.of(cfg)
        except ScoringError as exc:
            report.error(name, "the reference data does not load: %s" % exc.message)
        except Exception as exc:  # a broken reference must be reported, whatever it breaks
            report.error(name, "the reference data does not load (%s: %s)" % (type(exc).__name__, exc))
    written = family.leaderboard_keys(cfg.options) + cfg.intervals.keys(cfg.primary_key)
    shown = [k for k, c in columns.items() if not c.get("computed")]
    for key in shown:
        if key not in written:
            hint = ("; interval keys are written only with intervals: {in_scores: true} in config.yaml"
                    if key.endswith(INTERVAL_SUFFIXES) else "")
            report.error("%s: leaderboard column %s" % (where, key), "is never written by the scoring program for task "
                         "%s (it writes: %s); the column would show n/a%s" % (cfg.task, ", ".join(written), hint))
    if cfg.feedback.ladder != "none":
        report.warn("%s: config.yaml feedback.ladder" % where, "the Ladder continues a team's state through the "
                    "submission history the platform gives the scoring program; CodaLab v1 has sent an empty "
                    "history since codalab-competitions commit 57e625b (2017-02-19) and Codabench sends none, so "
                    "there each submission is scored as the team's first (the Ladder only rounds to its step); "
                    "keep the state with python3 -m organizer ladder instead (docs/report.md)")
    ranked = sorted(shown, key=lambda k: (columns[k].get("rank", columns[k].get("index", 10 ** 6)), k))
    if ranked and ranked[0] != cfg.primary_key:
        report.warn("%s: leaderboard" % where, "the first column is %s but config.yaml's primary_key is %s"
                    % (ranked[0], cfg.primary_key))
    return cfg


def _check_answers_held(cfg, family, names, name, where, report):
    """A phase's reference data holds the answers of its own board only, and none while that board is sealed:
    Codabench lists every phase's reference data in its public competition API and serves it to anyone
    (src/apps/api/serializers/tasks.py ``get_public_datasets``; src/apps/datasets/views.py ``download``)."""
    answers = sorted(cfg.files[s] for s in family.unit_files if cfg.files.get(s) in names)
    if not cfg.one_board:
        if cfg.board != "all" or cfg.boards_file or cfg.usage_column:
            report.error(where, "holds the whole gold and the board split (no public_inputs): the phase of board %s "
                         "would upload the answers of every board, which Codabench serves to anyone; build the "
                         "bundle with python3 -m organizer bundle (each phase gets its own board's answers only)"
                         % cfg.board)
    elif cfg.report == "sealed" and answers:
        report.error(where, "board %s is sealed, yet %s holds %s: answers that anyone could download while the phase "
                     "runs (Codabench serves every phase's reference data); a sealed phase's reference data holds the "
                     "config and the public inputs only" % (cfg.board, name, ", ".join(answers)))


def _hides_units(cfg):
    """True when the phase scores units of the hidden board: board B, or all of them while a split exists."""
    split = cfg.boards_file is not None or cfg.usage_column is not None
    return cfg.board == "B" or (cfg.board == "all" and split)


def _check_sealed(cfg, where, report, v1_mode=None, v2_phase=None):
    """A phase that scores the hidden board must not show its scores or report while it runs."""
    if not _hides_units(cfg):
        return
    if cfg.report != "sealed":
        report.error(where, "scores board %s with report: %s, so participants would see its scores and detailed "
                     "results while the phase runs (Codabench's v1 importer ignores leaderboard_management_mode, "
                     "and both platforms serve detailed results to other users): add 'report: sealed' to "
                     "board_%s.yaml and reveal the board after the phase (python3 -m organizer reveal)"
                     % (cfg.board, cfg.report, cfg.board))
    if v1_mode is not None and v1_mode != "hide_results":
        report.warn(where + ".leaderboard_management_mode", "a sealed phase on CodaLab v1 should also use hide_results "
                    "(hides stdout and the output zip from the submitter)")
    if v2_phase is not None and not v2_phase.get("hide_score_output"):
        report.warn(where + ".hide_score_output", "set it to True: the scoring output zip is not needed by "
                    "participants in a sealed phase")
    if v2_phase is not None and v2_phase.get("hide_output"):
        report.warn(where + ".hide_output", "is True: participants of this sealed phase cannot read their format "
                    "errors (the logs are hidden); a sealed board prints no score, so False is safe")


# -- the starting kit ---------------------------------------------------------------------------------
KIT_TEXT = (".md", ".txt", ".py", ".yaml", ".yml", ".html", ".htm", ".rst")
KIT_ENGINE = "scoring_program/"
# the top-level folders of a competition repository that a downloaded kit does not have
_REPO_PATH = re.compile(r"(?<![\w.-])(?:tools|organizer|examples|docs|tests|benchmarks|adapters|reference_data|pages)/"
                        r"[\w.*-]")
_REPO_WORDS = re.compile(r"\b(?:repository|project) root\b|-m organizer\b", re.IGNORECASE)


def _kit_entries(files, name):
    """{path inside the kit: bytes} of a kit given as a nested zip or as a folder of the bundle, or None."""
    if name.endswith(".zip"):
        if name not in files:
            return None
        try:
            with zipfile.ZipFile(io.BytesIO(files[name])) as archive:
                return {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}
        except zipfile.BadZipFile:
            return None
    prefix = name.rstrip("/") + "/"
    found = {n[len(prefix):]: data for n, data in files.items() if n.startswith(prefix)}
    return found or None


def _check_starting_kit(files, names, loaded, report):
    """What a participant who has only the kit needs: a sample that scores, the right ids, no repository paths."""
    for name in [n for n in names if isinstance(n, str)]:
        entries = _kit_entries(files, name)
        if entries is not None:
            break
    else:
        return
    for path, data in sorted(entries.items()):
        if path.startswith(KIT_ENGINE) or not path.lower().endswith(KIT_TEXT):
            continue
        text = data.decode("utf-8", "replace")
        found = _REPO_PATH.search(text) or _REPO_WORDS.search(text)
        if found:
            report.error("%s/%s line %d" % (name, path, text.count("\n", 0, found.start()) + 1),
                         "names %r, a path of the organizers' repository that participants do not have; describe "
                         "only what the kit holds" % found.group(0))
    with tempfile.TemporaryDirectory() as tmp:
        kit = Path(tmp) / "kit"
        for path, data in entries.items():
            (kit / path).parent.mkdir(parents=True, exist_ok=True)
            (kit / path).write_bytes(data)
        _check_kit_dev(kit, name, report)
        sample = _kit_sample(kit, Path(tmp) / "res")
        if sample is None:
            report.warn(name, "has no sample submission (sample_submission.* or a submission/ folder): participants "
                        "see no example of the format")
        seen = set()
        for where, ref_name, _ in loaded:
            if ref_name in seen or ref_name not in files:
                continue
            seen.add(ref_name)
            ref_dir = Path(tmp) / "ref" / str(len(seen))
            with zipfile.ZipFile(io.BytesIO(files[ref_name])) as archive:
                archive.extractall(ref_dir)
            _check_kit_against(kit, sample, ref_dir, "%s/%s" % (name, sample[1] if sample else ""), where,
                               ref_name, report)


def _kit_sample(kit, res):
    """(res folder holding the kit's sample submission, its name), or None."""
    found = sorted(p for p in kit.glob("sample_submission*") if p.is_file())
    folder = kit / "submission"
    if found:
        res.mkdir(parents=True)
        (res / found[0].name).write_bytes(found[0].read_bytes())
        return res, found[0].name
    if folder.is_dir() and any(p.is_file() for p in folder.rglob("*")):
        import shutil
        shutil.copytree(folder, res)
        return res, "submission/"
    return None


def _check_kit_against(kit, sample, ref_dir, sample_where, where, ref_name, report):
    try:
        comp = Competition.open(str(ref_dir))
    except ScoringError:
        return  # already reported by the reference check
    cfg = comp.cfg
    if sample is not None:
        try:
            publish(comp, comp.read_submission(str(sample[0])))
        except ScoringError as exc:
            report.error(sample_where, "the sample submission does not score on %s (%s): %s" % (where, ref_name,
                                                                                               exc.message))
        except Exception as exc:  # whatever breaks must be reported, not raised
            report.error(sample_where, "scoring the sample submission on %s fails (%s: %s)"
                         % (where, type(exc).__name__, exc))
    try:
        public = Task.public(str(kit), read_raw(find_config(str(ref_dir))))
    except ScoringError as exc:
        report.error(str(kit.name), "the public test inputs do not load: %s" % exc.message)
        return
    except NoOfflineCheck:
        report.warn("starting kit", "has no public test inputs (%s) for task %s, so participants cannot check their "
                    "files offline (validate.py)" % (comp.family.public_inputs, cfg.task))
        return
    phase_units = comp.contract.units if cfg.one_board else comp.reference.units
    kit_ids, gold_ids = set(map(str, public.contract.units)), set(map(str, phase_units))
    if kit_ids != gold_ids:
        only_kit, only_gold = sorted(kit_ids - gold_ids), sorted(gold_ids - kit_ids)
        report.error("starting kit", "its public test ids differ from those of %s: %d only in the kit%s, %d only "
                     "in the phase%s; the kit must list exactly the test items" % (
                         ref_name, len(only_kit), " (first: %s)" % only_kit[0] if only_kit else "",
                         len(only_gold), " (first: %s)" % only_gold[0] if only_gold else ""))


def _check_kit_dev(kit, name, report):
    dev = kit / "dev"
    if not (dev / "config.yaml").is_file():
        return
    try:
        Competition.open(str(dev))
    except ScoringError as exc:
        report.error("%s/dev" % name, "the dev set does not load with its own config.yaml: %s" % exc.message)


# -- v2 -------------------------------------------------------------------------------------------------
def _check_v2(comp, files, report):
    w = "competition.yaml"
    title = str(comp.get("title") or "")
    if not title:
        report.error(w + ": title", "is missing")
    elif len(title) > V2_TITLE_MAX:
        report.error(w + ": title", "is %d characters; Codabench allows at most %d (Competition.title)"
                     % (len(title), V2_TITLE_MAX))
    elif len(title) > TITLE_MAX:
        report.warn(w + ": title", "is %d characters: Codabench takes it, CodaLab v1 and EvalAI would not (at most %d)"
                    % (len(title), TITLE_MAX))
    image = comp.get("image")
    if not image or str(image) not in files:
        report.error(w + ": image", "is missing or not in the bundle")
    terms = comp.get("terms")
    if not terms or str(terms) not in files or not files[str(terms)].strip():
        report.error(w + ": terms", "is missing, not in the bundle, or empty")
    pages = comp.get("pages")
    if not isinstance(pages, list) or not pages:
        report.error(w + ": pages", "is missing (a list of {title, file})")
        pages = []
    for i, page in enumerate(pages):
        name = str((page or {}).get("file", ""))
        if name not in files or not files[name].strip():
            report.error("%s: pages[%d]" % (w, i), "%r is not in the bundle or is empty" % name)
    _docker_image(comp.get("docker_image"), w + ": docker_image", report)
    if "registration_auto_approve" not in comp:
        report.warn(w + ": registration_auto_approve", "is missing, so Codabench's default (False) applies: every "
                    "participant waits for manual approval; set it (a v1 bundle's has_registration: False means True)")
    if "leaderboard" in comp and "leaderboards" not in comp:
        report.error(w + ": leaderboard", "v2 needs 'leaderboards' (plural): a list")
    boards = comp.get("leaderboards")
    if not isinstance(boards, list) or not boards:
        report.error(w + ": leaderboards", "is missing or empty")
        boards = []
    columns = {}
    for b, board in enumerate(boards):
        bw = "%s: leaderboards[%d]" % (w, b)
        cols = (board or {}).get("columns") or []
        if not cols:
            report.error(bw, "has no columns")
        if board.get("submission_rule", "Add") not in V2_RULES:
            report.error(bw + ".submission_rule", "%r; allowed: %s" % (board.get("submission_rule"), ", ".join(sorted(V2_RULES))))
        indexes = [c.get("index") for c in cols]
        keys = [c.get("key") for c in cols]
        if len(set(indexes)) != len(indexes):
            report.error(bw, "column indexes repeat: %s" % indexes)
        if len(set(keys)) != len(keys):
            report.error(bw, "column keys repeat: %s" % keys)
        for c in cols:
            cw = "%s.columns.%s" % (bw, c.get("key"))
            _check_key(c.get("key", ""), cw, report)
            title = str(c.get("title", ""))
            if not title:
                report.error(cw + ".title", "is missing")
            elif len(title) > COLUMN_TITLE_MAX:
                report.error(cw + ".title", "%r is %d characters; Codabench allows at most %d"
                             % (title, len(title), COLUMN_TITLE_MAX))
            if c.get("sorting", "desc") not in ("asc", "desc"):
                report.error(cw + ".sorting", "%r; allowed: asc, desc" % c.get("sorting"))
            precision = c.get("precision", 2)
            if isinstance(precision, bool) or not isinstance(precision, int) or not 0 <= precision <= 10:
                report.error(cw + ".precision", "%r is not a whole number of decimals in 0..10" % precision)
            if c.get("computation"):
                refs = c.get("computation_indexes") or []
                if c["computation"] not in V2_COMPUTATIONS or not refs or c.get("index") in refs \
                        or any(r not in indexes for r in refs):
                    report.error(cw + ".computation", "needs sum|avg|min|max and computation_indexes of other columns")
        if b == 0:
            columns = {str(c.get("key")): dict(c, rank=c.get("index"), computed=c.get("computation")) for c in cols}
    if len(boards) > 1:
        report.warn(w + ": leaderboards", "only the first leaderboard is attached to the phases")

    tasks = {}
    for i, task in enumerate(comp.get("tasks") or []):
        tw = "%s: tasks[%d]" % (w, i)
        if "index" not in task or task["index"] in tasks:
            report.error(tw + ".index", "is missing or repeated")
        tasks[task.get("index")] = task
        program = task.get("scoring_program")
        if not program:
            report.error(tw + ".scoring_program", "is missing")
        elif str(program).endswith(".zip") and program not in files:
            report.error(tw + ".scoring_program", "%s is not in the bundle" % program)
    if not tasks:
        report.error(w + ": tasks", "is missing or empty")
    phases = comp.get("phases") or []
    if not phases:
        report.error(w + ": phases", "is missing or empty")
    previous_end = None
    loaded, spans, sealed = [], [], False
    for i, phase in enumerate(phases):
        pw = "%s: phases[%d]" % (w, i)
        start = _as_datetime(phase.get("start")) if phase.get("start") else None
        end = _as_datetime(phase.get("end")) if phase.get("end") else None
        if start is None:
            report.error(pw + ".start", "is missing or not a date")
        if end is None and i + 1 < len(phases):
            report.error(pw + ".end", "is required on every phase but the last")
        if start and end and end <= start:
            report.error(pw + ".end", "is not after the phase's start")
        if previous_end and start and start <= previous_end:
            report.error(pw + ".start", "must be after the previous phase's end (Codabench: 'Phases dates conflict')")
        previous_end = end
        spans.append((pw, start, end))
        for t in phase.get("tasks") or []:
            if t not in tasks:
                report.error(pw + ".tasks", "task %r is not defined" % t)
                continue
            task = tasks[t]
            _check_program(files, task.get("scoring_program"), pw, report)
            cfg = _check_reference(files, task.get("reference_data"), pw, columns, report)
            if cfg is not None:
                loaded.append((pw, task.get("reference_data"), cfg))
                _check_sealed(cfg, pw, report, v2_phase=phase)
                rule = (boards[0] if boards else {}).get("submission_rule", "Add")
                if cfg.report == "sealed":
                    sealed = True
                    if rule not in SEALED_RULES:
                        report.error("%s: leaderboards[0].submission_rule" % w, "is %s while %s is sealed: only a "
                                     "Codabench superuser can change such a leaderboard "
                                     "(SubmissionViewSet.submission_leaderboard_connection), so the reveal could not "
                                     "replace the placeholder rows; use %s" % (rule, pw, ", ".join(SEALED_RULES)))
                if cfg.private_output:
                    report.warn(pw, "config.yaml has private_output: true, which Codabench runs ignore (OUTPUT/private/ "
                                "is written on CodaLab v1 only)")
        if not phase.get("tasks"):
            report.error(pw + ".tasks", "is missing")
    if spans and all(start is not None for _, start, _ in spans):
        _check_dates(spans, report, sealed)
    _check_starting_kit(files, [p.get("starting_kit") for p in phases] + ["starting_kit.zip"], loaded, report)


def main(argv=None):
    parser = Parser(prog="python3 -m organizer check", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="competition folders or bundle zips")
    parser.add_argument("--format", choices=("v1", "v2"), default="v1", help="how a folder is bundled before checking")
    args = parser.parse_args(argv)
    status = 0
    for path in args.paths:
        problems = check_path(path, args.format)
        print_problems(problems, path)
        status = max(status, 1 if has_errors(problems) else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
