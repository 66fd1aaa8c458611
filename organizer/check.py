"""Lint a competition folder or a built bundle zip offline, with the rules the platforms' unpackers apply.

    python3 -m organizer check COMPETITION_DIR_OR_BUNDLE.zip [...]

Prints every problem (ERROR or WARNING, with where it is) and exits 1 if there
is any error. A folder is first bundled in memory exactly as python3 -m organizer bundle
does, then checked like a zip, plus the folder-only rule (no loose .yaml beside
competition.yaml).

Every rule is declared once in organizer/lint_rules.py (its code, level, platform, source and message);
this module decides whether a rule is broken and where, and docs/organizers.md holds the table of the rules.
Each problem ends with its rule's code in brackets.
"""
import dataclasses
import datetime as dt
import difflib
import io
import re
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import yaml
from .bundle import REFERENCE_ZIP, as_datetime, build_v1, build_v2
from scorer.public import (INTERVAL_SUFFIXES, Competition, NoOfflineCheck, ScoringError, Task, families, find_config,
                           load_config, publish, read_raw)
from . import progress
from .answers_image import answers_folder, board_of_folder, image_problem, queue_problem
from .inputs import OrganizerError, Parser, existing_folder, kind_of
from .layout import DEV
from .lint_rules import (COLUMN, COMPETITION, FIELDS_OF, LEADERBOARD, PHASE, RULES, V2_BOARD, V2_COLUMN,
                         V2_COMPETITION, V2_PAGE, V2_PHASE, V2_TASK, field_problems, flag_fields)

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
GOOD_IMAGES = {"codalab/codalab-legacy:py312"}
OLD_IMAGES = {"codalab/codalab-legacy:latest": "Python 2.7", "codalab/codalab-legacy:py3": "python3 3.6, pandas 0.22",
              "codalab/codalab-legacy": "Python 2.7"}
TITLE_MAX = FIELDS_OF[COMPETITION]["title"].kind.limit   # CodaLab v1 Competition.title, EvalAI Challenge.title
# the leaderboard rules under which the reveal can make a sealed phase's board show the final ranking
# (organizer/reveal_codabench.py): Force_Best only while the primary column sorts desc
SEALED_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last", "Force_Best")
WHY_NOT = {
    "Force_Latest_Multiple": "Codabench keeps every scored row there and no one may take one off, a superuser "
                             "neither (leaderboards/strategies.py AllModeStrategy; SubmissionViewSet."
                             "submission_leaderboard_connection), so the placeholder rows stay",
    "Force_Best": "the primary column sorts asc, so a placeholder row (-1) stays each team's best "
                  "(leaderboards/strategies.py), whatever the revealed scores",
}
KEY_MAX = FIELDS_OF[V2_COLUMN]["key"].kind.limit              # Codabench Column.key; v1 allows 50
COLUMN_TITLE_MAX = FIELDS_OF[V2_COLUMN]["title"].kind.limit    # Codabench Column.title
SHELL_CHARS = set("|&;<>`\"'()*?")
V2_COMPUTATIONS = {"sum", "avg", "min", "max"}


@dataclass(frozen=True)
class Problem:
    level: str   # "ERROR" or "WARNING"
    where: str
    message: str
    code: str = ""   # the rule's code (organizer/lint_rules.py, the table in docs/organizers.md)

    def __str__(self):
        text = "%s %s: %s" % (self.level, self.where, self.message)
        return "%s [%s]" % (text, self.code) if self.code else text


class Report:
    def __init__(self, now=None, answers=None):
        self.problems = []
        self.now = now or dt.datetime.now()   # the dates of the phases are checked against it
        self.answers = answers   # a local copy of the scoring image's answers folder (<BOARD>/ in it), or None

    def flag(self, code, where, **fields):
        """Record that rule ``code`` is broken at ``where``; ``fields`` fill the rule's message."""
        rule = RULES[code]
        self.problems.append(Problem(rule.level, where, rule.text(**fields), code))


# -- entry points -------------------------------------------------------------------------------------
def check_path(path, fmt=None, now=None, answers=None):
    """Problems of a folder (bundled in memory first) or of a bundle zip (its phase dates seen at ``now``).

    ``answers``: a local copy of the answers folder of the competition's scoring image (the build context's
    ``answers/`` of python3 -m organizer image), for the phases whose config.yaml names ``answers_dir``.
    """
    path = Path(path)
    report = Report(now, answers)
    if path.is_dir():
        _check_folder(path, report)
        try:
            data = build_v2(path) if fmt == "v2" else build_v1(path)
        except (SystemExit, OrganizerError) as exc:
            report.flag("folder-unbundlable", str(path), reason=exc)
            return report.problems
        except (yaml.YAMLError, OSError, KeyError, ValueError, TypeError) as exc:
            report.flag("folder-unbundlable", str(path), reason=" ".join(str(exc).split())[:300])
            return report.problems
        _check_zip(data, report)
    else:
        kind = kind_of(path)
        if kind is not None:
            report.flag("path-not-bundle", str(path), kind="not there" if kind == "missing" else kind)
            return report.problems
        try:
            data = path.read_bytes()
        except OSError as exc:
            report.flag("path-unreadable", str(path), error=exc)
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
        report.flag("folder-no-yaml", str(folder))
    loose = sorted(p.name for p in folder.iterdir()
                   if p.is_file() and p.suffix in (".yaml", ".yml") and p.name != "competition.yaml")
    for name in loose:
        report.flag("folder-loose-yaml", "%s/%s" % (folder.name, name))


# -- the zip ------------------------------------------------------------------------------------------
def _check_zip(data, report):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        report.flag("zip-bad", "bundle")
        return
    names = archive.namelist()
    yaml_names = [n for n in names if ".yaml" in n]
    if "competition.yaml" not in names:
        report.flag("zip-no-yaml", "bundle", found=", ".join(yaml_names[:3]) or "no .yaml at all")
        return
    if yaml_names[0] != "competition.yaml":
        report.flag("zip-first-yaml", "bundle", name=yaml_names[0])
    for extra in yaml_names:
        if extra != "competition.yaml":
            report.flag("zip-second-yaml", "bundle/%s" % extra)
    try:
        comp = yaml.safe_load(archive.read("competition.yaml").decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        report.flag("yaml-invalid", "competition.yaml", error=" ".join(str(exc).split())[:200])
        return
    if not isinstance(comp, dict):
        report.flag("not-mapping", "competition.yaml")
        return
    files = {n: archive.read(n) for n in names if not n.endswith("/")}
    if str(comp.get("version", "1")) == "2":
        _check_v2(comp, files, report)
    else:
        _check_v1(comp, files, report)


def _did_you_mean(key, fields):
    """"; did you mean F?" for the one field ``key`` is a likely misspelling of, else ""."""
    close = difflib.get_close_matches(key.lower(), sorted(fields), n=1, cutoff=0.8)
    return "; did you mean %s?" % close[0] if close else ""


def _docker_image(image, where, report):
    if not image:
        report.flag("docker-image-missing", where)
    elif not isinstance(image, str):
        return   # its field's rule says so
    elif image in OLD_IMAGES:
        report.flag("docker-image-old", where, image=image, has=OLD_IMAGES[image])
    elif image not in GOOD_IMAGES:
        report.flag("docker-image-unknown", where, image=image)


def _as_datetime(value):
    """The date, or None where it is no date (check reports it)."""
    try:
        return as_datetime(value)
    except ValueError:
        return None


def _check_dates(spans, report, sealed):
    """``spans``: (where, start, end or None) of each phase in order, ``end`` as the platforms end it; ``sealed``:
    whether some phase is sealed."""
    for i, (where, start, end) in enumerate(spans):
        if end is not None and end <= report.now:   # both platforms take a phase as open while now < end
            report.flag("phase-ended", where, date=end.date())
        if i == len(spans) - 1 and end is None:
            after = (": after the reveal anyone could go on submitting and read the revealed board's scores at once"
                     if sealed else "")
            report.flag("final-phase-open", where, after=after)


def _check_fields(scope, spec, prefix, report):
    """Each field of the mapping ``spec`` that organizer/lint_rules.py declares for ``scope``, against its kind
    (``prefix`` + the field's name says where it is)."""
    for field, problem in field_problems(scope, spec):
        code, fields = flag_fields(field, problem, spec[field.name])
        report.flag(code, prefix + field.name, **fields)


def _check_key(key, where, report):
    key = str(key)
    if ":" in key:
        report.flag("key-colon", where, key=key)
    if len(key) > KEY_MAX:
        report.flag("key-long", where, key=key, length=len(key), limit=KEY_MAX)
    if key != key.strip() or not key.strip():
        report.flag("key-blank", where, key=key)


# -- v1 -------------------------------------------------------------------------------------------------
def _check_v1(comp, files, report):
    _check_v1_competition(comp, files, report)
    columns, leaderboards = _check_v1_leaderboard(comp.get("leaderboard"), report)
    phases = comp.get("phases")
    if not isinstance(phases, dict) or not phases:
        report.flag("v1-phases-missing", "competition.yaml: phases")
        return
    ordered = sorted(filter(None, (_check_v1_phase(number, spec, files, report) for number, spec in phases.items())),
                     key=lambda phase: phase.number)
    _check_v1_order(ordered, files, report)
    loaded, sealed = [], False
    dev_feedback = any(_is_dev(phase.spec.get("reference_data")) for phase in ordered)
    for phase in ordered:
        _check_program(files, phase.spec.get("scoring_program"), phase.where, report)
        cfg = _check_reference(files, phase.spec.get("reference_data"), phase.where, columns, report)
        if cfg is not None:
            loaded.append((phase.where, phase.spec.get("reference_data"), cfg))
            _check_sealed(cfg, phase.where, report, phase.spec.get("leaderboard_management_mode", "default"),
                          dev_feedback=dev_feedback)
            if cfg.report == "sealed":
                sealed = True
                if phase.spec.get("force_best_submission_to_leaderboard"):
                    report.flag("v1-force-best-sealed", phase.where + ".force_best_submission_to_leaderboard")
    spans = _v1_spans(ordered, comp)
    if all(start is not None for _, start, _ in spans):
        _check_dates(spans, report, sealed)
    _check_starting_kit(files, [p.spec.get("starting_kit") for p in ordered] + ["starting_kit.zip"], loaded, report)
    if len(leaderboards) > 1:
        report.flag("v1-leaderboards-extra", "competition.yaml: leaderboard.leaderboards")
    ingestion = [p.where + ".ingestion_program" for p in ordered if p.spec.get("ingestion_program")]
    _check_answers_image(comp.get("competition_docker_image"), "competition.yaml: competition_docker_image",
                         comp, loaded, files, ingestion, report)


def _check_v1_competition(comp, files, report):
    """The top-level fields: model fields only, title, pages, logo, docker image."""
    for key in sorted(set(map(str, comp)) - COMPETITION_KEYS):
        if key == "queue":
            report.flag("v1-queue", "competition.yaml: queue")
            continue
        report.flag("v1-competition-field", "competition.yaml: %s" % key,
                    hint=_did_you_mean(key, COMPETITION_KEYS) or "; Codabench v2 keys need --format v2")
    _check_fields(COMPETITION, comp, "competition.yaml: ", report)
    if not comp.get("title"):
        report.flag("title-missing", "competition.yaml: title")
    html = comp.get("html")
    if not isinstance(html, dict):
        report.flag("v1-html-missing", "competition.yaml: html")
        html = {}
    for page in PAGES:
        if page not in html:
            report.flag("v1-page-missing", "competition.yaml: html.%s" % page)
    for page, name in html.items():
        if str(name) not in files:
            report.flag("page-not-in-bundle", "competition.yaml: html.%s" % page, name=name)
        elif not files[str(name)].strip():
            report.flag("page-empty", "bundle/%s" % name)
    image = comp.get("image")
    if not image:
        report.flag("image-missing", "competition.yaml: image")
    elif str(image) not in files:
        report.flag("image-not-in-bundle", "competition.yaml: image", name=image)
    _docker_image(comp.get("competition_docker_image"), "competition.yaml: competition_docker_image", report)


@dataclass(frozen=True)
class _V1Phase:
    number: int       # phasenumber (0 where it is not an integer: reported)
    start: object     # datetime, or None where it is missing or no date (reported)
    where: str
    spec: dict


def _check_v1_phase(number, spec, files, report):
    """The rules of one phase on its own; its _V1Phase, or None when it is no mapping."""
    where = "competition.yaml: phases.%s" % number
    if not isinstance(spec, dict):
        report.flag("not-mapping", where)
        return None
    for key in sorted(set(map(str, spec)) - PHASE_KEYS):
        report.flag("v1-phase-field", "%s.%s" % (where, key), hint=_did_you_mean(key, PHASE_KEYS))
    _check_fields(PHASE, spec, where + ".", report)
    if "phasenumber" not in spec:
        report.flag("v1-phasenumber", "%s.phasenumber" % where, value=None)
    start = _as_datetime(spec.get("start_date")) if spec.get("start_date") is not None else None
    if "start_date" not in spec:
        report.flag("v1-start-date", "%s.start_date" % where, value=None)
    for key in ("scoring_program", "reference_data"):
        if not spec.get(key):
            report.flag("v1-phase-file-missing", "%s.%s" % (where, key))
    for key in ("scoring_program", "reference_data", "starting_kit", "input_data", "public_data",
                "ingestion_program"):
        value = spec.get(key)
        if isinstance(value, str) and value.endswith(".zip") and value not in files:
            report.flag("phase-file-not-in-bundle", "%s.%s" % (where, key), name=value)
        elif value and not str(value).endswith(".zip"):
            report.flag("v1-phase-dataset", "%s.%s" % (where, key), value=value)
    number = spec.get("phasenumber") if isinstance(spec.get("phasenumber"), int) else 0
    return _V1Phase(number, start, where, spec)


def _check_v1_order(ordered, files, report):
    """The rules between phases: numbers, start dates in phasenumber order, the kit named by some phase."""
    numbers = [phase.number for phase in ordered]
    if len(set(numbers)) != len(numbers):
        report.flag("v1-phasenumber-repeated", "competition.yaml: phases", numbers=numbers)
    if ordered and ordered[0].spec.get("auto_migration"):
        report.flag("v1-first-auto-migration", ordered[0].where + ".auto_migration")
    for previous, phase in zip(ordered, ordered[1:]):
        if previous.start and phase.start and phase.start <= previous.start:
            report.flag("v1-phase-order", phase.where + ".start_date", previous=previous.start.date())
        elif previous.start and phase.start and phase.start - previous.start <= dt.timedelta(days=1):
            report.flag("v1-phase-gap", phase.where + ".start_date")
    if not any(phase.spec.get("starting_kit") for phase in ordered) and "starting_kit.zip" in files:
        report.flag("v1-kit-unnamed", "competition.yaml: phases")


def _v1_spans(ordered, comp):
    """(where, start, end) of each phase as Codabench's v1 importer dates them: a phase ends one day before the
    next starts, the last at end_date."""
    end_date = _as_datetime(comp["end_date"]) if comp.get("end_date") else None
    ends = [following.start - dt.timedelta(days=1) if following.start else None for following in ordered[1:]]
    return [(phase.where, phase.start, end) for phase, end in zip(ordered, ends + [end_date])]


def _check_v1_leaderboard(board, report):
    """Validate the leaderboard block; returns ({key: column}, [labels])."""
    where = "competition.yaml: leaderboard"
    if not isinstance(board, dict):
        report.flag("v1-leaderboard-missing", where)
        return {}, []
    boards = board.get("leaderboards")
    if not isinstance(boards, dict) or not boards:
        report.flag("v1-leaderboards-missing", where + ".leaderboards")
        boards = {}
    for name, info in boards.items():
        _check_fields(LEADERBOARD, info, "%s.leaderboards.%s." % (where, name), report)
    labels = [str((info or {}).get("label", name)) for name, info in boards.items()]
    columns = board.get("columns")
    if not isinstance(columns, dict) or not columns:
        report.flag("v1-columns-missing", where + ".columns")
        return {}, labels
    for key, col in columns.items():
        _check_v1_column(key, col, columns, labels, "%s.columns.%s" % (where, key), report)
    return {str(k): v for k, v in columns.items() if isinstance(v, dict)}, labels


def _check_v1_column(key, col, columns, labels, cw, report):
    _check_key(key, cw, report)
    if not isinstance(col, dict):
        report.flag("not-mapping", cw)
        return
    _check_fields(COLUMN, col, cw + ".", report)
    label = str(col.get("label") or "")
    if not label:
        report.flag("v1-column-label-missing", cw + ".label")
    elif COLUMN_TITLE_MAX < len(label) <= FIELDS_OF[COLUMN]["label"].kind.limit:
        report.flag("label-long-codabench", cw + ".label", title=label, length=len(label), limit=COLUMN_TITLE_MAX)
    owner = col.get("leaderboard")
    if not isinstance(owner, dict) or str(owner.get("label")) not in labels:
        report.flag("v1-column-leaderboard", cw + ".leaderboard", labels=", ".join(labels))
    fmt = col.get("numeric_format", 2)
    if FIELDS_OF[COLUMN]["numeric_format"].kind.problem(fmt) is None and not 1 <= int(fmt) <= 10:
        report.flag("v1-numeric-format-clamped", cw + ".numeric_format", value=fmt)
    computed = col.get("computed")
    if computed:
        if not isinstance(computed, dict) or computed.get("operation") not in ("Max", "Avg", "MRR"):
            report.flag("v1-computed", cw + ".computed")
        else:
            for field in str(computed.get("fields", "")).split(","):
                if field.strip() not in columns:
                    report.flag("v1-computed-field", cw + ".computed.fields", field=field.strip())
        report.flag("v1-computed-codabench", cw + ".computed")


# -- nested zips --------------------------------------------------------------------------------------
def _open_nested(files, name, where, report):
    try:
        return zipfile.ZipFile(io.BytesIO(files[name]))
    except zipfile.BadZipFile:
        report.flag("zip-nested-bad", where, name=name)
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
        report.flag("program-no-metadata", pw)
        return
    if meta == "metadata.yaml":
        report.flag("program-metadata-yaml", pw)
    for needed in ("score.py", "scorer/__init__.py"):
        if needed not in names:
            report.flag("program-file-missing", "%s/%s" % (name, needed))
    if any("__pycache__" in n for n in names):
        report.flag("program-pycache", name)
    try:
        command = (yaml.safe_load(archive.read(meta).decode("utf-8")) or {}).get("command")
    except (yaml.YAMLError, UnicodeDecodeError, AttributeError):
        report.flag("program-metadata-bad", pw)
        return
    for cmd in command if isinstance(command, list) else [command]:
        _check_command(cmd, pw, report)


def _check_command(cmd, pw, report):
    if not isinstance(cmd, str) or not cmd.strip():
        report.flag("program-command-missing", pw)
        return
    argv = cmd.split(" ")
    if "" in argv:
        report.flag("program-command-spaces", pw, command=cmd)
    if argv[0] != "python3":
        report.flag("program-command-python3", pw, command=cmd)
    if set(cmd) & SHELL_CHARS:
        report.flag("program-command-shell", pw, command=cmd)
    for var in ("$program/score.py", "$input", "$output"):
        if var not in argv:
            report.flag("program-command-args", pw, command=cmd, var=var)


def _check_reference(files, name, where, columns, report, expected_board=None):
    """The phase's reference zip: config.yaml at the root, board, named files, loading, leaderboard keys."""
    if not isinstance(name, str) or name not in files:
        return
    progress.note("checking %s" % name)
    archive = _open_nested(files, name, where, report)
    if archive is None:
        return
    rw = "%s/config.yaml" % name
    names = set(archive.namelist())
    if "config.yaml" not in names:
        report.flag("reference-no-config", rw)
        return
    match = REFERENCE_ZIP.match(name)
    if expected_board is None and match:
        expected_board = match.group(1)
    if expected_board is None:
        report.flag("reference-board-unnamed", where, name=name)
    dev = expected_board == DEV   # the dev phase scores the kit's dev set, every item: board all
    registry = families()
    with tempfile.TemporaryDirectory() as tmp:
        archive.extractall(tmp)
        try:
            cfg = load_config(tmp, registry)
        except ScoringError as exc:
            report.flag("reference-config", rw, message=exc.message)
            return None
        if dev and cfg.board != "all":
            report.flag("reference-board", rw, board=cfg.board, expected="all (the dev set, every item)")
        elif expected_board is not None and not dev and cfg.board != expected_board:
            report.flag("reference-board", rw, board=cfg.board, expected=expected_board)
        family = registry[cfg.task]
        if cfg.answers_dir is None:
            answers = _check_answers_held(cfg, family, names, name, rw, report)
        else:
            answers = []
            _check_answers_dir(cfg, family, names, name, rw, report)
        # the dev set may need fewer files than the family's defaults (emotion-cause: subtask 1's): those it names
        named = (read_raw(find_config(tmp)).get("files") or {}) if dev else cfg.files
        for slot, file in cfg.files.items():
            if slot in family.submission_slots or slot in cfg.answer_slots \
                    or (cfg.one_board and cfg.report == "sealed" and slot in family.unit_files):
                continue
            if slot not in named:
                continue
            if file not in names:
                report.flag("reference-file-missing", rw, key="files.%s" % slot, file=file, zip=name)
        if cfg.boards_file and cfg.boards_file not in names:
            report.flag("reference-file-missing", rw, key="boards.file", file=cfg.boards_file, zip=name)
        local = _local_answers(cfg, report.answers)
        if local is None:
            report.flag("answers-not-checked", name, folder=cfg.answers_dir)
            _check_columns(cfg, family, columns, where, report)
            return cfg
        try:
            comp = Competition.of(local)
        except ScoringError as exc:
            report.flag("reference-unloadable", name, detail=": %s" % exc.message)
        except Exception as exc:  # a broken reference must be reported, whatever it breaks
            report.flag("reference-unloadable", name, detail=" (%s: %s)" % (type(exc).__name__, exc))
        else:
            if answers and cfg.report != "sealed" and not dev:
                report.flag("feedback-test-answers", rw, n=len(comp.reference.units), answers=", ".join(answers))
    _check_columns(cfg, family, columns, where, report, dev)
    return cfg


def _check_columns(cfg, family, columns, where, report, dev=False):
    """The leaderboard's columns against what the phase's config writes (the dev phase: its first column, since the
    dev set may score fewer keys than the test set, e.g. one subtask)."""
    written = family.leaderboard_keys(cfg.options) + cfg.intervals.keys(cfg.primary_key)
    shown = [k for k, c in columns.items() if not c.get("computed")]
    ranked = sorted(shown, key=lambda k: (_whole(columns[k].get("rank", columns[k].get("index"))), k))
    for key in ranked[:1] if dev else shown:
        if key not in written:
            hint = ("; interval keys are written only with intervals: {in_scores: true} in config.yaml"
                    if key.endswith(INTERVAL_SUFFIXES) else "")
            report.flag("column-not-written", "%s: leaderboard column %s" % (where, key), task=cfg.task,
                        written=", ".join(written), hint=hint)
    if cfg.feedback.ladder != "none":
        report.flag("ladder-no-history", "%s: config.yaml feedback.ladder" % where)
    if ranked and ranked[0] != cfg.primary_key:
        report.flag("primary-not-first", "%s: leaderboard" % where, first=ranked[0], primary=cfg.primary_key)


def _check_answers_held(cfg, family, names, name, where, report):
    """A phase's reference data holds the answers of its own board only, and none while that board is sealed:
    Codabench lists every phase's reference data in its public competition API and serves it to anyone
    (src/apps/api/serializers/tasks.py ``get_public_datasets``; src/apps/datasets/views.py ``download``).
    Returns the answer files left to judge: those of a phase that scores its own units, all of them shown."""
    answers = sorted(cfg.files[s] for s in family.unit_files if cfg.files.get(s) in names)
    if not cfg.one_board:
        if cfg.board != "all" or cfg.boards_file or cfg.usage_column:
            report.flag("reference-whole-gold", where, board=cfg.board)
            return []
    elif cfg.report == "sealed" and answers:
        report.flag("reference-sealed-answers", where, board=cfg.board, zip=name, answers=", ".join(answers))
        return []
    return answers


def _check_answers_dir(cfg, family, names, name, where, report):
    """A phase that reads its answers from the scoring image holds none, and names its own board's folder."""
    answers = sorted(cfg.files[s] for s in family.unit_files if cfg.files.get(s) in names)
    if answers:
        report.flag("answers-in-zip", where, zip=name, answers=", ".join(answers))
    if board_of_folder(cfg.answers_dir) != cfg.board:
        report.flag("answers-dir-board", where + " answers_dir", folder=cfg.answers_dir, board=cfg.board,
                    expected=answers_folder(cfg.board))


def _local_answers(cfg, answers):
    """``cfg`` as the linter can load it: unchanged without ``answers_dir``; else reading the answers from the local
    copy ``answers`` of the image's answers folder; None when there is no such copy of the board's folder and the
    board is scored (a sealed board reads no answer)."""
    if cfg.answers_dir is None:
        return cfg
    board = board_of_folder(cfg.answers_dir)
    if answers is None or board is None:
        return cfg if cfg.report == "sealed" else None
    return dataclasses.replace(cfg, answers_dir=str(Path(answers) / board))


def _check_answers_image(image, image_where, comp, loaded, files, ingestion, report):
    """The competition-wide rules when phases read their answers from the scoring image: a private image, the
    organizer's queue, no answers in any other phase's zip, no ingestion program."""
    in_image = [cfg for _, _, cfg in loaded if cfg.answers_dir is not None]
    if not in_image:
        return
    # the image is the organizer's own build, FROM a base they chose: whether it has our packages is not known here
    report.problems = [p for p in report.problems if p.code != "docker-image-unknown"]
    if not image or image in GOOD_IMAGES or image in OLD_IMAGES or image_problem(image):
        report.flag("answers-image-public", image_where, folder=in_image[0].answers_dir, image=image or "not set")
    queue = comp.get("queue")
    problem = "no queue is named" if not queue else queue_problem(queue)
    if problem:
        report.flag("answers-image-queue", "competition.yaml: queue", problem=problem)
    registry = families()
    for where, ref_name, cfg in loaded:
        if cfg.answers_dir is not None or ref_name not in files:
            continue
        with zipfile.ZipFile(io.BytesIO(files[ref_name])) as archive:
            names = set(archive.namelist())
        held = sorted(cfg.files[s] for s in registry[cfg.task].unit_files if cfg.files.get(s) in names)
        if held:
            report.flag("answers-image-mixed", where, zip=ref_name, answers=", ".join(held))
    for where in ingestion:
        report.flag("answers-image-ingestion", where)


def _is_dev(name):
    """True for the dev phase's reference zip (reference_data_dev.zip)."""
    match = REFERENCE_ZIP.match(str(name or ""))
    return bool(match) and match.group(1) == DEV


def _hides_units(cfg, dev_feedback=False):
    """True when the phase scores units of the hidden board: board B, or all of them while a split exists or while
    the feedback phase scores the dev set (then every test unit is hidden until the reveal)."""
    split = cfg.boards_file is not None or cfg.usage_column is not None
    return cfg.board == "B" or (cfg.board == "all" and (split or (dev_feedback and cfg.one_board)))


def _check_sealed(cfg, where, report, v1_mode=None, v2_phase=None, dev_feedback=False):
    """A phase that scores the hidden board must not show its scores or report while it runs."""
    if not _hides_units(cfg, dev_feedback):
        return
    if cfg.report != "sealed":
        report.flag("board-b-unsealed", where, board=cfg.board, report=cfg.report)
    if v1_mode is not None and v1_mode != "hide_results":
        report.flag("sealed-v1-hide-results", where + ".leaderboard_management_mode")
    if v2_phase is not None and not v2_phase.get("hide_score_output"):
        report.flag("sealed-v2-output-zip", where + ".hide_score_output")
    if v2_phase is not None and v2_phase.get("hide_output"):
        report.flag("sealed-v2-logs-hidden", where + ".hide_output")


# -- the starting kit ---------------------------------------------------------------------------------
KIT_TEXT = (".md", ".txt", ".py", ".yaml", ".yml", ".html", ".htm", ".rst")
KIT_ENGINE = "scoring_program/"
DEV_SAMPLES = ("sample_prediction*", "submission")   # the dev set's baseline prediction in the kit's dev/
# the top-level folders of a competition repository that a downloaded kit does not have
_REPO_PATH = re.compile(r"(?<![\w.-])(?:tools|organizer|examples|docs|tests|benchmarks|adapters|reference_data|pages)/"
                        r"[\w.*-]")
_REPO_WORDS = re.compile(r"\b(?:repository|project) root\b|-m organizer\b", re.IGNORECASE)


def _kit_entries(files, name):
    """({path inside the kit: bytes}, the paths at the zip's top) of a kit given as a nested zip or as a folder of
    the bundle, or None. A kit zip's one top folder (``starting_kit/``) is not part of the paths."""
    if name.endswith(".zip"):
        if name not in files:
            return None
        try:
            with zipfile.ZipFile(io.BytesIO(files[name])) as archive:
                found = {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}
        except zipfile.BadZipFile:
            return None
        return _strip_top_folder(found)
    prefix = name.rstrip("/") + "/"
    found = {n[len(prefix):]: data for n, data in files.items() if n.startswith(prefix)}
    return (found, []) if found else None


def _strip_top_folder(found):
    """(the entries without their one common top folder, the names of the files at the top: none when there is
    such a folder)."""
    tops = {n.split("/", 1)[0] for n in found}
    if len(tops) == 1 and all("/" in n for n in found):
        cut = len(tops.pop()) + 1
        return {n[cut:]: data for n, data in found.items()}, []
    return found, sorted(n for n in found if "/" not in n)


def _check_starting_kit(files, names, loaded, report):
    """What a participant who has only the kit needs: one folder, a sample that scores, the right ids, no repository
    paths, no tool it does not have."""
    for name in [n for n in names if isinstance(n, str)]:
        got = _kit_entries(files, name)
        if got is not None:
            entries, loose = got
            break
    else:
        return
    if loose:
        report.flag("kit-no-folder", name, n=len(loose),
                    first=", ".join(loose[:3]) + (", ..." if len(loose) > 3 else ""))
    has_dev = "dev/config.yaml" in entries
    for path, data in sorted(entries.items()):
        if path.startswith(KIT_ENGINE) or not path.lower().endswith(KIT_TEXT):
            continue
        text = data.decode("utf-8", "replace")
        found = _REPO_PATH.search(text) or _REPO_WORDS.search(text)
        if found:
            report.flag("kit-repository-path", "%s/%s line %d" % (name, path, text.count("\n", 0, found.start()) + 1),
                        found=found.group(0))
        tool = text.find("score_local.py")
        if not has_dev and tool >= 0 and path.lower().startswith("readme"):
            report.flag("kit-dev-tool", "%s/%s line %d" % (name, path, text.count("\n", 0, tool) + 1))
    with tempfile.TemporaryDirectory() as tmp:
        kit = Path(tmp) / "kit"
        for path, data in entries.items():
            (kit / path).parent.mkdir(parents=True, exist_ok=True)
            (kit / path).write_bytes(data)
        _check_kit_dev(kit, name, report)
        sample = _kit_sample(kit, Path(tmp) / "res")
        if sample is None:
            report.flag("kit-no-sample", name)
        seen, test_ids, dev_phases = set(), set(), []
        for where, ref_name, _ in loaded:
            if ref_name in seen or ref_name not in files:
                continue
            seen.add(ref_name)
            ref_dir = Path(tmp) / "ref" / str(len(seen))
            with zipfile.ZipFile(io.BytesIO(files[ref_name])) as archive:
                archive.extractall(ref_dir)
            if _is_dev(ref_name):   # judged once every test phase has given its items
                dev_phases.append((where, ref_name, ref_dir))
                continue
            test_ids |= _check_kit_against(kit, sample, ref_dir, "%s/%s" % (name, sample[1] if sample else ""),
                                           where, ref_name, report)
        for where, ref_name, ref_dir in dev_phases:
            _check_dev_phase(kit, name, ref_dir, where, ref_name, test_ids, report)


def _kit_sample(kit, res, names=("sample_submission*", "submission")):
    """(res folder holding the kit's sample submission, its name), or None; ``names``: the sample file's pattern
    and the sample folder's name."""
    found = sorted(p for p in kit.glob(names[0]) if p.is_file())
    folder = kit / names[1]
    if found:
        res.mkdir(parents=True)
        (res / found[0].name).write_bytes(found[0].read_bytes())
        return res, found[0].name
    if folder.is_dir() and any(p.is_file() for p in folder.rglob("*")):
        import shutil
        shutil.copytree(folder, res)
        return res, names[1] + "/"
    return None


def _check_kit_against(kit, sample, ref_dir, sample_where, where, ref_name, report):
    """The kit's sample scores on a test phase, whose items are the kit's public test items; returns those items."""
    try:
        cfg = _local_answers(load_config(str(ref_dir), families()), report.answers)
        if cfg is None:
            return set()  # answers in the scoring image, not given here: already said by the reference check
        comp = Competition.of(cfg)
    except ScoringError:
        return set()  # already reported by the reference check
    cfg = comp.cfg
    if sample is not None:
        progress.note("scoring the sample submission on %s" % ref_name)
        try:
            publish(comp, comp.read_submission(str(sample[0])))
        except ScoringError as exc:
            report.flag("kit-sample-refused", sample_where, phase=where, zip=ref_name, message=exc.message)
        except Exception as exc:  # whatever breaks must be reported, not raised
            report.flag("kit-sample-crash", sample_where, phase=where, error="%s: %s" % (type(exc).__name__, exc))
    phase_units = comp.contract.units if cfg.one_board else comp.reference.units
    gold_ids = set(map(str, phase_units))
    try:
        public = Task.public(str(kit), read_raw(find_config(str(ref_dir))))
    except ScoringError as exc:
        report.flag("kit-public-unloadable", str(kit.name), message=exc.message)
        return gold_ids
    except NoOfflineCheck:
        report.flag("kit-no-public", "starting kit", file=comp.family.public_inputs, task=cfg.task)
        return gold_ids
    kit_ids = set(map(str, public.contract.units))
    if kit_ids != gold_ids:
        only_kit, only_gold = sorted(kit_ids - gold_ids), sorted(gold_ids - kit_ids)
        report.flag("kit-ids", "starting kit", zip=ref_name, only_kit=len(only_kit), only_gold=len(only_gold),
                    first_kit=" (first: %s)" % only_kit[0] if only_kit else "",
                    first_gold=" (first: %s)" % only_gold[0] if only_gold else "")
    return gold_ids | kit_ids


def _check_dev_phase(kit, name, ref_dir, where, ref_name, test_ids, report):
    """The dev phase scores the kit's dev items, none of them a test item, and the kit's dev sample scores there."""
    try:
        comp = Competition.open(str(ref_dir))
    except ScoringError:
        return  # already reported by the reference check
    phase_ids = set(map(str, comp.contract.units if comp.cfg.one_board else comp.reference.units))
    shared = sorted(phase_ids & test_ids)
    if shared:
        report.flag("dev-phase-test-items", "%s: %s" % (where, ref_name), n=len(shared), first=shared[0])
    try:
        kit_ids = set(map(str, Competition.open(str(kit / "dev")).reference.units))
    except ScoringError:
        kit_ids = set()   # no dev set in the kit, or one that does not load (kit-dev says why)
    if kit_ids != phase_ids:
        only_phase, only_kit = sorted(phase_ids - kit_ids), sorted(kit_ids - phase_ids)
        report.flag("dev-phase-kit", "%s: %s" % (where, ref_name), only_phase=len(only_phase),
                    only_kit=len(only_kit), first_phase=" (first: %s)" % only_phase[0] if only_phase else "",
                    first_kit=" (first: %s)" % only_kit[0] if only_kit else "")
    sample = _kit_sample(kit / "dev", Path(str(ref_dir) + "-res"), DEV_SAMPLES)
    if sample is not None:
        try:
            publish(comp, comp.read_submission(str(sample[0])))
        except ScoringError as exc:
            report.flag("kit-sample-refused", "%s/dev/%s" % (name, sample[1]), phase=where, zip=ref_name,
                        message=exc.message)
        except Exception as exc:  # whatever breaks must be reported, not raised
            report.flag("kit-sample-crash", "%s/dev/%s" % (name, sample[1]), phase=where,
                        error="%s: %s" % (type(exc).__name__, exc))


def _check_kit_dev(kit, name, report):
    dev = kit / "dev"
    if not (dev / "config.yaml").is_file():
        return
    try:
        Competition.open(str(dev))
    except ScoringError as exc:
        report.flag("kit-dev", "%s/dev" % name, message=exc.message)


# -- v2 -------------------------------------------------------------------------------------------------
W2 = "competition.yaml"


def _check_v2(comp, files, report):
    _check_v2_competition(comp, files, report)
    boards = comp.get("leaderboards")
    if not isinstance(boards, list) or not boards:
        report.flag("v2-leaderboards-missing", W2 + ": leaderboards")
        boards = []
    for b, board in enumerate(boards):
        if isinstance(board, dict):
            _check_v2_leaderboard(board, "%s: leaderboards[%d]" % (W2, b), report)
    first = boards[0] if boards else {}
    columns = {str(c.get("key")): dict(c, rank=c.get("index"), computed=c.get("computation"))
               for c in _mappings((first or {}).get("columns"))}
    if len(boards) > 1:
        report.flag("v2-leaderboards-extra", W2 + ": leaderboards")
    tasks = _check_v2_tasks(comp, files, report)
    phases = _mappings(comp.get("phases"))
    if not phases:
        report.flag("v2-phases-missing", W2 + ": phases")
    loaded, spans, sealed = [], [], False
    dev_feedback = any(_is_dev((tasks.get(t) or {}).get("reference_data")) for phase in phases
                       for t in phase.get("tasks") or [] if t in tasks)
    for i, phase in enumerate(phases):
        pw = "%s: phases[%d]" % (W2, i)
        spans.append((pw,) + _check_v2_dates(phase, i, phases, spans, report))
        for t in phase.get("tasks") if isinstance(phase.get("tasks"), list) else []:
            if not isinstance(t, int) or t not in tasks:
                report.flag("v2-phase-task", pw + ".tasks", task=t)
                continue
            task = tasks[t]
            _check_program(files, task.get("scoring_program"), pw, report)
            cfg = _check_reference(files, task.get("reference_data"), pw, columns, report)
            if cfg is not None:
                loaded.append((pw, task.get("reference_data"), cfg))
                _check_sealed(cfg, pw, report, v2_phase=phase, dev_feedback=dev_feedback)
                sealed = _check_v2_sealed_rule(cfg, first, pw, report) or sealed
        if not phase.get("tasks"):
            report.flag("v2-phase-tasks", pw + ".tasks")
    if spans and all(start is not None for _, start, _ in spans):
        _check_dates(spans, report, sealed)
    _check_starting_kit(files, [p.get("starting_kit") for p in phases] + ["starting_kit.zip"], loaded, report)
    ingestion = ["%s: tasks[%d].ingestion_program" % (W2, i) for i, t in enumerate(comp.get("tasks") or [])
                 if isinstance(t, dict) and t.get("ingestion_program")]
    _check_answers_image(comp.get("docker_image"), W2 + ": docker_image", comp, loaded, files, ingestion, report)


def _check_v2_competition(comp, files, report):
    """The top-level fields: title, logo, terms, pages, docker image, registration, the plural leaderboards."""
    _check_fields(V2_COMPETITION, comp, W2 + ": ", report)
    title = str(comp.get("title") or "")
    if not title:
        report.flag("title-missing", W2 + ": title")
    elif TITLE_MAX < len(title) <= FIELDS_OF[V2_COMPETITION]["title"].kind.limit:
        report.flag("v2-title-portable", W2 + ": title", length=len(title), limit=TITLE_MAX)
    image = comp.get("image")
    if not image or str(image) not in files:
        report.flag("v2-image", W2 + ": image")
    terms = comp.get("terms")
    if not terms or str(terms) not in files or not files[str(terms)].strip():
        report.flag("v2-terms", W2 + ": terms")
    pages = comp.get("pages")
    if not isinstance(pages, list) or not pages:
        report.flag("v2-pages-missing", W2 + ": pages")
        pages = []
    for i, page in enumerate(pages):
        _check_fields(V2_PAGE, page, "%s: pages[%d]." % (W2, i), report)
        name = str((page or {}).get("file", ""))
        if name not in files or not files[name].strip():
            report.flag("v2-page", "%s: pages[%d]" % (W2, i), name=name)
    _docker_image(comp.get("docker_image"), W2 + ": docker_image", report)
    if "registration_auto_approve" not in comp:
        report.flag("v2-registration", W2 + ": registration_auto_approve")
    if "leaderboard" in comp and "leaderboards" not in comp:
        report.flag("v2-leaderboard-singular", W2 + ": leaderboard")


def _check_v2_leaderboard(board, bw, report):
    _check_fields(V2_BOARD, board, bw + ".", report)
    cols = _mappings(board.get("columns"))
    if not cols:
        report.flag("v2-columns-missing", bw)
    indexes = [_whole(c.get("index")) for c in cols]
    keys = [str(c.get("key")) for c in cols]
    if len(set(indexes)) != len(indexes):
        report.flag("v2-index-repeated", bw, indexes=indexes)
    if len(set(keys)) != len(keys):
        report.flag("v2-key-repeated", bw, keys=keys)
    for c in cols:
        _check_v2_column(c, indexes, "%s.columns.%s" % (bw, c.get("key")), report)


def _check_v2_column(c, indexes, cw, report):
    _check_fields(V2_COLUMN, c, cw + ".", report)
    _check_key(c.get("key", ""), cw, report)
    if not str(c.get("title", "")):
        report.flag("v2-column-title-missing", cw + ".title")
    if c.get("computation"):
        refs = c.get("computation_indexes") or []
        if c["computation"] not in V2_COMPUTATIONS or not refs or c.get("index") in refs \
                or any(r not in indexes for r in refs):
            report.flag("v2-computation", cw + ".computation")


def _check_v2_tasks(comp, files, report):
    """{index: task} of the tasks, each with an index and a scoring program in the bundle."""
    tasks = {}
    for i, task in enumerate(_mappings(comp.get("tasks"))):
        tw = "%s: tasks[%d]" % (W2, i)
        _check_fields(V2_TASK, task, tw + ".", report)
        index = _whole(task.get("index"))
        if "index" not in task or index in tasks:
            report.flag("v2-task-index", tw + ".index")
        tasks[index] = task
        program = task.get("scoring_program")
        if not program:
            report.flag("v2-task-program", tw + ".scoring_program")
        elif str(program).endswith(".zip") and program not in files:
            report.flag("phase-file-not-in-bundle", tw + ".scoring_program", name=program)
    if not tasks:
        report.flag("v2-tasks-missing", W2 + ": tasks")
    return tasks


def _mappings(value):
    """The mappings of a list of competition.yaml (a value that is no list, or an item that is no mapping, is its
    field's problem: flagged by its rule, skipped here)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _whole(value):
    """``value`` when it is a whole number, else a number no index or rank has (its field's rule flags it)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 10 ** 6


def _check_v2_dates(phase, i, phases, spans, report):
    """(start, end) of phase ``i``, each checked against its neighbours (``spans``: those of the phases before)."""
    pw = "%s: phases[%d]" % (W2, i)
    _check_fields(V2_PHASE, phase, pw + ".", report)
    start = _as_datetime(phase.get("start")) if phase.get("start") else None
    end = _as_datetime(phase.get("end")) if phase.get("end") else None
    if "start" not in phase:
        report.flag("v2-start", pw + ".start", value=None)
    if end is None and i + 1 < len(phases):
        report.flag("v2-end-required", pw + ".end")
    if start and end and end <= start:
        report.flag("v2-end-order", pw + ".end")
    previous_end = spans[-1][2] if spans else None
    if previous_end and start and start <= previous_end:
        report.flag("v2-phase-order", pw + ".start")
    return start, end


def _check_v2_sealed_rule(cfg, board, pw, report):
    """Whether the phase is sealed; a sealed phase needs a leaderboard rule the reveal can change."""
    sealed = cfg.report == "sealed"
    rule = (board or {}).get("submission_rule", "Add")
    columns = (board or {}).get("columns") or []
    first = min((c for c in columns if isinstance(c, dict)), key=lambda c: _whole(c.get("index")), default={})
    if sealed and (rule not in SEALED_RULES or (rule == "Force_Best" and first.get("sorting", "desc") == "asc")):
        report.flag("v2-sealed-rule", "%s: leaderboards[0].submission_rule" % W2, rule=rule, phase=pw,
                    why=WHY_NOT.get(rule if isinstance(rule, str) else "", "the reveal cannot change such a "
                                                                                            "leaderboard"),
                    allowed=", ".join(SEALED_RULES[:-1]) + " (or Force_Best with a primary column that sorts desc)")
    if cfg.private_output:
        report.flag("v2-private-output", pw)
    return sealed


def main(argv=None):
    parser = Parser(prog="python3 -m organizer check", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="competition folders or bundle zips")
    parser.add_argument("--format", choices=("v1", "v2"), default="v1", help="how a folder is bundled before checking")
    parser.add_argument("--answers", metavar="FOLDER", help="the answers of a bundle whose phases read them from the "
                        "scoring image: the answers/ folder of python3 -m organizer image's build context")
    progress.add_argument(parser)
    args = parser.parse_args(argv)
    progress.start("organizer check", args.progress)
    if args.answers is not None:
        existing_folder(args.answers, "the answers folder")
    status = 0
    for path in args.paths:
        problems = check_path(path, args.format, answers=args.answers)
        print_problems(problems, path)
        status = max(status, 1 if has_errors(problems) else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
