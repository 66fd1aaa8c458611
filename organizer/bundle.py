"""Turn a competition folder into an uploadable bundle zip (CodaLab v1, or Codabench v2 on request).

``python3 -m organizer bundle`` (organizer/write_bundle.py) writes one and lints it.

v1 layout (what CodaLab's unpacker reads, and Codabench's v1 unpacker too)::

    competition.yaml          the only .yaml in the zip
    overview.html ...         the pages named under html:, and the logo
    scoring_program.zip       scoring_program/ (metadata, score.py, scorer/), no __pycache__
    reference_data_A.zip      board A's phase: config.yaml, the public test inputs in public/, the gold of
                              board A's units only (organizer/phase_data.py)
    reference_data_B.zip      board B's phase: while sealed, config.yaml and public/ only (no answers)
    starting_kit.zip          one folder starting_kit/: the competition's starting_kit/ plus validate.py,
                              score_local.py (when the kit has dev data), requirements.txt (the runtime pins),
                              kit_config.yaml (the task, the title and the column labels) and a copy of the
                              engine, so its tools run offline

v2 layout: the same nested zips, ``competition.yaml`` rewritten in the v2 schema
(one task per phase) and the pages under ``pages/``.

With ``answers_image`` (organizer/answers_image.py) the bundle is for Codabench with the answers in the
competition's private scoring image: no reference zip holds an answer (each config.yaml names the image folder of
its board's answers), the competition's docker image is that image and ``queue`` names the Codabench queue whose
worker can pull it.

Every zip is deterministic: entries sorted, fixed timestamps and permissions,
so the same folder always gives the same bytes.
"""
import datetime as dt
import io
import re
import zipfile
from pathlib import Path

import yaml
from . import PROGRAM, ROOT, progress
from .inputs import OrganizerError, entries as regular_entries
from .layout import board_configs, with_labels
from .answers_image import answers_folder
from .lint_rules import RULES, V2, flag_fields, v1_field_problems
from .phase_data import phase_entries
from scorer.public import task_only

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ipynb_checkpoints", ".git", "__MACOSX"}
SKIP_SUFFIXES = (".pyc", ".pyo")
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
REFERENCE_ZIP = re.compile(r"^reference_data_([A-Za-z0-9]+)\.zip$")
PAGE_KEYS = ("overview", "evaluation", "terms", "data")
KIT_TOOLS = ("validate.py", "score_local.py")
KIT_DEV_TOOL = "score_local.py"   # shipped only with dev data (dev/config.yaml): without it, it has nothing to score
KIT_FOLDER = "starting_kit"       # the one folder starting_kit.zip unpacks into
KIT_ENGINE = "scoring_program"
KIT_CONFIG = "kit_config.yaml"
KIT_REQUIREMENTS = "requirements.txt"


# -- deterministic zips -----------------------------------------------------------------------------
def zip_bytes(entries):
    """A zip of ``{arcname: bytes}`` with sorted names and fixed metadata.

    >>> zip_bytes({"b.txt": b"2", "a.txt": b"1"}) == zip_bytes({"a.txt": b"1", "b.txt": b"2"})
    True
    """
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            info.create_system = 3  # unix, so the permissions above are honoured everywhere
            archive.writestr(info, entries[name])
    return buf.getvalue()


def folder_entries(folder, prefix=""):
    """``{prefix + relative posix path: bytes}`` of every file below ``folder`` except caches.

    A link or a special file inside ``folder`` is an OrganizerError: a bundle holds the folder's own files, never
    what a link points to (a gold file elsewhere, say).
    """
    folder = Path(folder)
    files, problems = regular_entries(folder)
    problems = [p for p in problems if not any(part in SKIP_DIRS for part in Path(p.split(" is ")[0]).parts)]
    if problems:
        raise OrganizerError("%s: %s; a bundle holds the folder's own regular files only" % (folder, problems[0]))
    out = {}
    for path in files:
        rel = path.relative_to(folder)
        if any(p in SKIP_DIRS for p in rel.parts) or path.name in SKIP_NAMES or path.suffix in SKIP_SUFFIXES:
            continue
        out[prefix + rel.as_posix()] = path.read_bytes()
    return out


# -- the competition folder -------------------------------------------------------------------------
def load_yaml(path):
    with open(path, "rb") as fh:
        return yaml.safe_load(fh.read().decode("utf-8-sig"))


def program_dir(competition):
    """The competition's own scoring_program/, else the project's one (demo folders share it)."""
    own = Path(competition) / "scoring_program"
    return own if own.is_dir() else PROGRAM


def find_asset(competition, name):
    """A page or image named in competition.yaml: looked up beside it, then in pages/."""
    for candidate in (Path(competition) / name, Path(competition) / "pages" / name):
        if candidate.is_file():
            return candidate
    return None


def program_zip(competition):
    return zip_bytes(folder_entries(program_dir(competition)))


def reference_zip(competition, board, reveal=False, answers_image=None):
    """The reference zip of one board's phase (organizer/phase_data.py; ``reveal``: a sealed board revealed;
    ``answers_image``: its answers are in that image, not in the zip)."""
    folder = answers_folder(board) if answers_image is not None else None
    return zip_bytes(phase_entries(competition, board, reveal, answers_dir=folder))


def kit_config(competition):
    """The task part of the first board config (no board split), with the competition's title and column labels
    (as each phase's config.yaml gets them): what the kit's tools need, and what score_local.py's page shows."""
    configs = board_configs(Path(competition) / "reference_data")
    if not configs:
        return None
    first = configs[sorted(configs)[0]]
    raw = task_only(yaml.safe_load(with_labels(first.read_bytes(), Path(competition) / "competition.yaml")
                                   .decode("utf-8-sig")))
    return yaml.safe_dump(raw, allow_unicode=True, sort_keys=True).encode("utf-8")


def kit_requirements(tools=KIT_TOOLS):
    """The kit's requirements.txt: the runtime pins of the project's requirements.txt, without its comments
    (they speak of the project's own files, which a participant does not have); its header names the kit's tools.

    >>> [l for l in kit_requirements().decode().splitlines() if l.startswith("pandas")]
    ['pandas==2.2.3']
    >>> kit_requirements(("validate.py",)).decode().splitlines()[0]
    '# What validate.py and the scoring program in scoring_program/ need (Python 3.9 to 3.12),'
    """
    pins = [line.strip() for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]
    header = ("# What %s and the scoring program in scoring_program/ need (Python 3.9 to 3.12),\n# the versions the "
              "platform scores with:  python3 -m pip install -r requirements.txt\n" % ", ".join(tools))
    return (header + "\n".join(pins) + "\n").encode("utf-8")


def kit_tools(entries):
    """The tools a kit ships: validate.py always, score_local.py only when the kit has dev data to score."""
    has_dev = "dev/config.yaml" in entries
    return tuple(tool for tool in KIT_TOOLS if tool != KIT_DEV_TOOL or has_dev)


def starting_kit_entries(competition):
    """starting_kit/ + the participant tools, their requirements and the engine: the kit works without the project.

    Paths are relative to the kit's folder; ``starting_kit_zip`` puts them in one folder ``starting_kit/``. A kit
    without dev data gets no score_local.py (a copy of the organizer's own is left out too).
    """
    kit = Path(competition) / "starting_kit"
    entries = folder_entries(kit) if kit.is_dir() else {}
    tools = kit_tools(entries)
    for tool in KIT_TOOLS:
        if tool not in tools:
            entries.pop(tool, None)
        elif tool not in entries:
            source = ROOT / "starting_kit" / tool
            if source.is_file():
                entries[tool] = source.read_bytes()
    if KIT_REQUIREMENTS not in entries:
        entries[KIT_REQUIREMENTS] = kit_requirements(tools)
    entries.update(folder_entries(program_dir(competition), KIT_ENGINE + "/"))
    config = kit_config(competition)
    if config is not None and KIT_CONFIG not in entries:
        entries[KIT_CONFIG] = config
    return entries


def starting_kit_zip(competition):
    """starting_kit.zip: the kit in one folder, so that unzipping it makes ``starting_kit/`` and nothing else."""
    return zip_bytes({KIT_FOLDER + "/" + name: data for name, data in starting_kit_entries(competition).items()})


def phase_files(spec):
    """The .zip file values of one phase: key -> file name."""
    keys = ("scoring_program", "reference_data", "starting_kit", "input_data", "public_data",
            "ingestion_program")
    return {k: spec[k] for k in keys if isinstance(spec.get(k), str) and spec[k].endswith(".zip")}


def nested_zip(competition, key, name, answers_image=None):
    """Bytes of the nested zip ``name`` that a phase names under ``key``."""
    progress.note("making %s" % name)
    if key == "scoring_program":
        return program_zip(competition)
    if key == "starting_kit":
        return starting_kit_zip(competition)
    match = REFERENCE_ZIP.match(name)
    if key == "reference_data" and match:
        return reference_zip(competition, match.group(1), answers_image=answers_image)
    folder = Path(competition) / name[:-len(".zip")]
    if folder.is_dir():
        return zip_bytes(folder_entries(folder))
    raise SystemExit("don't know how to build %s (phase key %s): name reference zips reference_data_<BOARD>.zip "
                     "or add a folder %s/" % (name, key, folder.name))


def sorted_phases(comp):
    phases = comp.get("phases") or {}
    return [phases[k] for k in sorted(phases, key=lambda k: (phases[k] or {}).get("phasenumber", k))]


def nested_zips(competition, comp, answers_image=None):
    """file name -> bytes of every nested zip the phases name, plus starting_kit.zip if there is a kit."""
    out = {}
    for spec in sorted_phases(comp):
        for key, name in phase_files(spec or {}).items():
            if name not in out:
                out[name] = nested_zip(competition, key, name, answers_image)
    if (Path(competition) / "starting_kit").is_dir() and "starting_kit.zip" not in out:
        out["starting_kit.zip"] = starting_kit_zip(competition)
    return out


def _assets(competition, comp, page_prefix=""):
    entries = {}
    for key, name in sorted((comp.get("html") or {}).items()):
        path = find_asset(competition, str(name))
        if path is None:
            raise SystemExit("page %s (html.%s) is not in %s or its pages/ folder" % (name, key, competition))
        entries[page_prefix + str(name)] = path.read_bytes()
    image = comp.get("image")
    if image:
        path = find_asset(competition, str(image))
        if path is None:
            raise SystemExit("image %s is not in %s" % (image, competition))
        entries[str(image)] = path.read_bytes()
    return entries


# -- v1 and v2 ----------------------------------------------------------------------------------------
IMAGE_YAML_HEADER = ("# competition.yaml for Codabench with the answers in the private scoring image {tag}, which only the\n"
                     "# worker of queue {queue} can pull (python3 -m organizer bundle --answers-image)\n")


def build_v1(competition, answers_image=None):
    competition = Path(competition)
    comp = load_yaml(competition / "competition.yaml")
    entries = {"competition.yaml": (competition / "competition.yaml").read_bytes()}
    if answers_image is not None:
        # Codabench's v1 importer reads both keys (unpackers/v1.py, base_unpacker.py _unpack_queue)
        mapping = dict(comp, competition_docker_image=answers_image.tag, queue=answers_image.queue)
        entries["competition.yaml"] = (IMAGE_YAML_HEADER.format(tag=answers_image.tag, queue=answers_image.queue)
                                       + yaml.safe_dump(mapping, allow_unicode=True, sort_keys=False, width=1000)
                                       ).encode("utf-8")
    entries.update(_assets(competition, comp))
    entries.update(nested_zips(competition, comp, answers_image))
    return zip_bytes(entries)


def _refuse_v1(competition, where, what, code):
    raise OrganizerError("%s: %s; the v2 competition.yaml is made from it: fix it first (python3 -m organizer check %s "
                         "lists every problem) [%s]" % (where, what, competition, code))


def as_datetime(value):
    """A date of competition.yaml (a date, a datetime or its ISO text) as a naive datetime."""
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    return dt.datetime.fromisoformat(str(value).strip())


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")[:36] or "results"


def v2_definition(comp, has_kit=True):
    """The v2 competition.yaml mapping made from a v1 one (one task per phase, columns by rank)."""
    phases = sorted_phases(comp)
    starts = [as_datetime(p["start_date"]) for p in phases]
    tasks = [_v2_task(i, spec) for i, spec in enumerate(phases)]
    v2_phases = [_v2_phase(comp, i, spec, task["name"], starts, has_kit) for i, (spec, task) in
                 enumerate(zip(phases, tasks))]
    board = comp.get("leaderboard") or {}
    leaderboards = [_v2_leaderboard(comp, name, info, board.get("columns") or {})
                    for name, info in (board.get("leaderboards") or {"Results": {"label": "Results"}}).items()]
    pages = [{"title": key.capitalize(), "file": "pages/%s" % name}
             for key, name in (comp.get("html") or {}).items() if key != "terms"]
    return {"version": 2, "title": comp.get("title", ""), "description": comp.get("description", ""),
            # what Codabench's own v1 importer makes of has_registration (unpackers/v1.py); the v2 default is False
            "registration_auto_approve": not comp.get("has_registration", True),
            "image": comp.get("image", "logo.png"),
            "terms": "pages/%s" % (comp.get("html") or {}).get("terms", "terms.html"),
            "docker_image": comp.get("competition_docker_image", "codalab/codalab-legacy:py312"),
            "enable_detailed_results": bool(comp.get("enable_detailed_results", False)),
            "pages": pages, "tasks": tasks, "phases": v2_phases, "leaderboards": leaderboards}


def _v2_task(i, spec):
    """The v2 task of v1 phase ``i``: its name, scoring program and reference data."""
    task = {"index": i, "name": str(spec.get("label") or "Phase %d" % (i + 1)),
            "scoring_program": spec.get("scoring_program", "scoring_program.zip")}
    if spec.get("reference_data"):
        task["reference_data"] = spec["reference_data"]
    return task


def _v2_phase(comp, i, spec, name, starts, has_kit):
    """The v2 phase of v1 phase ``i`` (``starts``: every phase's start): its dates, limits, what it hides, and its
    starting kit."""
    phase = {"index": i, "name": name, "description": str(spec.get("description") or name), "start": starts[i]}
    if i + 1 < len(starts):
        # Codabench's v1 importer ends a phase one day before the next starts; do the same.
        end = starts[i + 1] - dt.timedelta(days=1)
        phase["end"] = end if end > starts[i] else starts[i + 1] - dt.timedelta(seconds=1)
    elif comp.get("end_date"):
        phase["end"] = as_datetime(comp["end_date"])
    phase["tasks"] = [i]
    for key in ("max_submissions_per_day", "max_submissions", "execution_time_limit"):
        if key in spec:
            phase[key] = spec[key]
    # The scoring output zip is never needed by participants: hidden everywhere. The logs stay visible
    # in every phase, sealed ones included, so that participants read their format errors; a sealed
    # board prints no score (src/apps/api/serializers/submissions.py, get_logs / get_scoring_result).
    phase["hide_score_output"] = True
    phase["hide_output"] = False
    if i > 0 and spec.get("auto_migration"):
        phase["auto_migrate_to_this_phase"] = True
    kit = spec.get("starting_kit") or ("starting_kit.zip" if has_kit else None)
    if kit:
        phase["starting_kit"] = kit
    return phase


def _v2_leaderboard(comp, name, info, columns):
    """The v2 leaderboard ``name`` of v1's ``leaderboards``: the columns of ``columns`` it shows (not computed
    ones), by rank."""
    label = (info or {}).get("label", name)
    shown = sorted(((k, c) for k, c in columns.items()
                    if (c.get("leaderboard") or {}).get("label", label) == label and not c.get("computed")),
                   key=lambda kc: (kc[1].get("rank", 10 ** 6), kc[0]))
    return {"title": str(label), "key": _slug(name),
            "submission_rule": "Force_Last" if comp.get("force_submission_to_leaderboard") else "Add",
            "columns": [{"title": str(c.get("label", k)), "key": k, "index": j,
                         "sorting": c.get("sort", "desc"), "precision": int(c.get("numeric_format", 2)),
                         "hidden": bool(c.get("hidden", False))}
                        for j, (k, c) in enumerate(shown)]}


def build_v2(competition, answers_image=None):
    competition = Path(competition)
    comp = load_yaml(competition / "competition.yaml")
    if not isinstance(comp, dict):
        raise OrganizerError("%s is not a mapping of keys" % (competition / "competition.yaml"))
    for where, field, problem, value in v1_field_problems(comp):   # converted values must mean what they say
        code, fields = flag_fields(field, problem, value)
        if V2 not in RULES[code].platform:   # a limit of CodaLab v1 alone (a title of 101 characters, say)
            continue
        _refuse_v1(competition, where, RULES[code].text(**fields), code)
    phases = comp.get("phases")
    for number, spec in (phases.items() if isinstance(phases, dict) else ()):
        if not isinstance(spec, dict) or "start_date" not in spec:
            _refuse_v1(competition, "competition.yaml: phases.%s.start_date" % number, "is missing", "v1-start-date")
    kits = nested_zips(competition, comp, answers_image)
    definition = v2_definition(comp, has_kit="starting_kit.zip" in kits)
    if answers_image is not None:
        definition["docker_image"] = answers_image.tag
        definition["queue"] = answers_image.queue
    entries = {"competition.yaml": yaml.safe_dump(definition, allow_unicode=True, sort_keys=False).encode("utf-8")}
    assets = _assets(competition, comp)
    for key, name in (comp.get("html") or {}).items():
        entries["pages/%s" % name] = assets.pop(str(name))
    entries.update(assets)
    entries.update(kits)
    return zip_bytes(entries)
