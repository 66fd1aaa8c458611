"""A phase's reference data, made from the competition's ``reference_data/``: what a platform may hold.

The organizer's ``reference_data/`` holds the gold of every test unit, the board
split (``boards.csv``) and one config per board. What is uploaded for a phase
holds less: the platforms show it to more people than the organizer (Codabench
lists every phase's reference data in its public competition API and serves it
to anyone: docs/organizers.md), so a phase's reference data holds

- ``config.yaml``: the board's config, with ``public_inputs: public`` instead of
  ``boards:``, ``board_units`` (the number of the board's units and the SHA-256 of
  their sorted ids: the scoring program refuses a gold that lost or gained units,
  whatever its row order), and the submission size cap (``max_submission_mb``, unless the
  config sets it) made from public sizes only: 20 times the public inputs and
  shared files, as the engine's default is 20 times the reference files. A cap
  made from the gold's size would tell anyone how large the hidden answers are,
  and would differ between boards;
- ``public/``: the public test inputs as the starting kit has them, which every
  submission is checked against (every test unit, whatever the board);
- the family's per-unit reference files (``TaskFamily.unit_files``) kept to the
  units of the phase's own board, row by row as the engine reads them, and to
  the columns it reads (another column, filled on some units only, would tell
  something of the others); its shared files (a list of class names) whole;

and nothing of a sealed board's answers: while its phase runs, that board's
reference data is the config and the public inputs only. ``reveal=True`` gives
the sealed board's reference data with its answers and ``report: full``, for
the reveal. ``closed_phase_entries`` gives what replaces it once the final
ranking is fixed: a config with ``report: closed`` and nothing else, so that a
late submission or a re-run fails with one line and no score.

With the answers in the competition's private scoring image (``answers_dir``:
organizer/image.py), no phase's reference data holds any answer: the per-unit
files go into the image (``answer_entries``), and config.yaml names their folder
there.

The dev phase (``dev``, made by ``organizer new --feedback dev``) scores the
starting kit's dev set instead of test units: its reference data is the kit's
``dev/config.yaml`` (with the title and labels) and the dev files it names,
the very data participants have, scored whole as the kit's ``score_local.py``
scores it. No test answer is in it.
"""
import datetime as dt
import json
import shutil
from pathlib import Path

import numpy as np
import yaml

from . import progress
from .layout import DEV, DEV_CONFIG, board_config_bytes, place_submission
from scorer.public import (Competition, ScoringError, digests, families, parse_config, public_positions, submission_cap,
                           table_of)

PUBLIC = "public"
HEADER = ("# The reference data of board {board}'s phase, made by python3 -m organizer from reference_data/{name}:\n"
          "# the public test inputs are in public/, and the gold files hold board {board}'s units only{sealed}.\n")
SEALED = " (none: the board is sealed while its phase runs)"
CLOSED_HEADER = ("# The reference data of board {board}'s phase once its final ranking is fixed, made by python3 -m "
                 "organizer reveal:\n# nothing is scored any more (a late submission or a re-run fails with one line); "
                 "the final ranking is the record the reveal wrote.\n")
CLOSED_KEYS = ("task", "board", "primary_key", "options", "language", "title", "columns")   # the closed line and page
IMAGE_HEADER = ("# The reference data of board {board}'s phase, made by python3 -m organizer from reference_data/{name}:\n"
                "# the public test inputs are in public/; the answers are not here but in {folder} of the\n"
                "# competition's private scoring image (python3 -m organizer image).\n")


class PhaseDataError(SystemExit):
    """The competition folder cannot give this phase's reference data (an organizer's mistake), said in one line."""


def phase_config(reference_dir, board, reveal=False):
    """(the board's config as a mapping, with the competition's title and labels; its Config on the whole gold)."""
    name = DEV_CONFIG.as_posix() if board == DEV else "reference_data/board_%s.yaml" % board
    ref_dir = Path(reference_dir).parent / DEV_CONFIG.parent if board == DEV else Path(reference_dir)
    raw = yaml.safe_load(board_config_bytes(reference_dir, board, reveal).decode("utf-8-sig"))
    if not isinstance(raw, dict):
        raise PhaseDataError("%s is not a mapping of keys" % name)
    try:
        cfg = parse_config(raw, families(), ref_dir=str(ref_dir))
    except ScoringError as exc:
        raise PhaseDataError("%s: %s" % (name, exc.text("en")))
    if cfg.one_board:
        raise PhaseDataError("%s names public_inputs, which only a phase's reference data has; the organizer's "
                             "reference_data/ holds the whole gold and boards.csv" % name)
    if board == DEV and (cfg.board != "all" or cfg.boards_file or cfg.usage_column):
        raise PhaseDataError("%s scores board %s of a split; the dev phase scores every dev item: write board: all "
                             "and no boards" % (name, cfg.board))
    return raw, cfg


def phase_entries(competition, board, reveal=False, answers_dir=None):
    """``{path: bytes}`` of the reference data of ``board``'s phase (``reveal``: a sealed board, revealed).

    ``answers_dir``: the folder of the competition's scoring image that holds the board's answer files
    (``python3 -m organizer image``): they are then left out, and config.yaml names that folder instead.
    """
    if board == DEV:
        return dev_entries(competition)
    raw, entries, answers, units = _phase_parts(competition, board, reveal)
    if answers_dir is not None:
        entries = {name: data for name, data in entries.items() if name not in answers}
    config = {k: v for k, v in raw.items() if k != "boards"}
    config["public_inputs"] = PUBLIC
    if answers_dir is not None:
        config["answers_dir"] = answers_dir
    if units is not None:   # what the gold must hold, so that a gold that lost rows is refused, not scored
        count, digest = digests.id_set(sorted(units))
        config["board_units"] = {"count": count, "sha256": digest}
    if config.get("max_submission_mb") is None:
        public_bytes = sum(len(data) for name, data in entries.items() if name not in answers)
        config["max_submission_mb"] = round(submission_cap(None, public_bytes) / 2 ** 20, 3)
    sealed = config.get("report") == "sealed"
    text = HEADER.format(board=board, name="board_%s.yaml" % board, sealed=SEALED if sealed else "")
    if answers_dir is not None:
        text = IMAGE_HEADER.format(board=board, name="board_%s.yaml" % board, folder=answers_dir)
    entries["config.yaml"] = (text + yaml.safe_dump(config, allow_unicode=True, sort_keys=False, width=1000)
                              ).encode("utf-8")
    return entries


def answer_entries(competition, board):
    """``{path: bytes}`` of the answer files of ``board`` (its units only, as its revealed phase would hold them):
    what the competition's scoring image holds for the board, sealed or not."""
    _, entries, answers, _ = _phase_parts(competition, board, reveal=True)
    return {name: entries[name] for name in sorted(answers)}


def _phase_parts(competition, board, reveal):
    """(the board's config mapping, ``{path: bytes}`` of its phase's files but config.yaml, the names of the
    answer files among them, the ids of the board's units: None on a sealed board, whose phase holds no answer)."""
    competition = Path(competition)
    reference_dir = competition / "reference_data"
    raw, cfg = phase_config(reference_dir, board, reveal)
    family = families()[cfg.task]
    sealed = cfg.report == "sealed"
    if board == "all" and not sealed and (cfg.boards_file or cfg.usage_column) and not reveal:
        raise PhaseDataError("reference_data/board_all.yaml scores board all with report: %s while a board split "
                             "exists, so its phase would show board B's scores: add 'report: sealed' to it and reveal "
                             "it after the phase (python3 -m organizer reveal)" % cfg.report)
    public_name = family.public_inputs
    public = competition / "starting_kit" / public_name
    if not public.is_file():
        raise PhaseDataError("starting_kit/%s is missing: a phase's reference data checks every submission against "
                             "the public test inputs the starting kit gives participants" % public_name)
    progress.note("the reference data of board %s: the gold" % board)
    entries = {"%s/%s" % (PUBLIC, public_name): public.read_bytes()}
    slots = [s for s in cfg.files if s not in family.submission_slots]
    board_units = _board_units(cfg, board, competition / "starting_kit")
    units = None if sealed else board_units
    answers = set()
    for slot in slots:
        path = Path(cfg.path(slot))
        if not path.is_file():
            continue  # the family says whether it needs the file (its message names it)
        rule = family.unit_files.get(slot)
        if rule is None:
            entries[cfg.files[slot]] = path.read_bytes()   # shared by every board: holds no answer
        elif units is not None:
            entries[cfg.files[slot]] = keep_units(path.read_bytes(), cfg.files[slot], rule, units)
            answers.add(cfg.files[slot])
    return raw, entries, answers, units


def closed_phase_entries(competition, board, closed_at):
    """``{path: bytes}`` of ``board``'s phase once it is closed: ``config.yaml`` with ``report: closed`` and
    ``closed_at`` (an aware datetime), no answers, no public inputs."""
    raw, _ = phase_config(Path(competition) / "reference_data", board)
    config = {k: raw[k] for k in CLOSED_KEYS if k in raw}
    config.update(report="closed", closed_at=closed_at.astimezone(dt.timezone.utc).isoformat())
    try:
        parse_config(config, families())
    except ScoringError as exc:
        raise PhaseDataError("the closed config of board %s: %s" % (board, exc.text("en")))
    text = CLOSED_HEADER.format(board=board)
    return {"config.yaml": (text + yaml.safe_dump(config, allow_unicode=True, sort_keys=False, width=1000)
                            ).encode("utf-8")}


def dev_entries(competition):
    """``{path: bytes}`` of the dev phase's reference data: the kit's dev/config.yaml with the competition's title and
    column labels, and the dev files it names (its gold, a list of sentences, ...), as the kit has them. The
    baseline prediction beside them is not reference data, and stays out."""
    competition = Path(competition)
    raw, cfg = phase_config(competition / "reference_data", DEV)
    family = families()[cfg.task]
    entries = {"config.yaml": board_config_bytes(competition / "reference_data", DEV)}
    for slot, name in cfg.files.items():
        path = Path(cfg.path(slot))
        if slot not in family.submission_slots and path.is_file():
            entries[name] = path.read_bytes()   # a missing file: the family's message names it
    return entries


def _board_units(cfg, board, kit):
    """The ids of the units ``board`` scores, from the whole gold and the organizer's split; the kit's public test
    inputs must describe exactly the gold's units, since every phase checks submissions against them."""
    family = families()[cfg.task]
    try:
        comp = Competition.of(cfg)
        public = family.public_contract(str(kit), cfg)
        positions = public_positions(comp.reference.contract, public, cfg, family,
                                     "starting_kit/" + family.public_inputs)
    except ScoringError as exc:
        raise PhaseDataError("reference_data: %s" % exc.text("en"))
    extra = np.setdiff1d(np.arange(len(public.units)), positions)
    if len(extra):
        raise PhaseDataError("starting_kit/%s lists %d test item(s) that are not in the gold (first: %s); the kit must "
                             "list exactly the gold's units" % (family.public_inputs, len(extra),
                                                                public.units[int(extra[0])]))
    mask = comp.boards.mask(board)
    return {str(comp.reference.units[i]) for i in mask.nonzero()[0].tolist()}


def keep_units(data, name, rule, units):
    """The bytes of a per-unit reference file with only the rows (csv) or entries (json) of ``units``."""
    if rule.form == "json":
        try:
            value = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise PhaseDataError("reference_data/%s is not UTF-8 JSON (%s)" % (name, exc))
        if not isinstance(value, list):
            raise PhaseDataError("reference_data/%s is not a JSON list" % name)
        ident = rule.canonical or (lambda v: str(v).strip())
        kept = [entry for entry in value if isinstance(entry, dict) and ident(entry.get(rule.key)) in units]
        return json.dumps(kept, ensure_ascii=False, indent=1).encode("utf-8")
    try:
        table = table_of(data, name, [rule.key])
    except ScoringError as exc:
        raise PhaseDataError("reference_data/%s: %s" % (name, exc.text("en")))
    ids = table.cells(rule.key).strip().to_objects()
    rows = [i for i, unit in enumerate(ids.tolist()) if unit in units]
    kept = [c for c in table.columns if c in rule.columns or not rule.columns]
    columns = [table.cells(c).to_objects() for c in kept]
    sep = table.sep
    lines = [sep.join(_field(c, sep) for c in kept)]
    lines += [sep.join(_field(column[i], sep) for column in columns) for i in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _field(value, sep):
    """A CSV field that reads back as ``value`` (quoted where a separator, quote, line end or leading space is)."""
    if not value or not (sep in value or '"' in value or "\n" in value or "\r" in value or value[0] in " \t"):
        return value
    return '"%s"' % value.replace('"', '""')


def write_entries(entries, target):
    """Write ``{path: bytes}`` into the folder ``target`` (made if needed); returns it."""
    target = Path(target)
    for name, data in sorted(entries.items()):
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    target.mkdir(parents=True, exist_ok=True)
    return target


def assemble_reference(reference_dir, board, target, reveal=False):
    """Fill ``target`` (a phase's ref/ folder) with the reference data of ``board``'s phase, as it is uploaded."""
    return write_entries(phase_entries(Path(reference_dir).parent, board, reveal), target)


def assemble_input(reference_dir, board, submission, target, reveal=False):
    """An INPUT folder (ref/ + res/) for scoring ``submission`` (a file, folder or zip) on ``board``."""
    target = Path(target)
    if target.exists():
        shutil.rmtree(target)
    assemble_reference(reference_dir, board, target / "ref", reveal)
    place_submission(submission, target / "res")
    return target
