"""The phase's ``config.yaml`` in the reference data: which task, which board, which files.

One scoring program serves every phase; each phase's reference data carries a
config that decides what is scored. Everything is validated when read, so that
an organizer's mistake is reported once, by key, with the bad value and what is
allowed, before any submission is looked at.

Example::

    task: bank_comments
    board: A                      # A, B or all
    boards: {file: boards.csv}    # or {usage_column: Usage} in the gold file
    files: {gold: gold.csv, submission: "*.csv"}
    primary_key: score
    options: {scheme: iob2}
    report: full                  # full, or sealed: placeholders only while the phase runs
"""
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional

import yaml

from .errors import ConfigError

CONFIG_NAMES = ("config.yaml", "config.yml")
BOARDS = ("A", "B", "all")
LANGUAGES = ("en", "zh")
REPORTS = ("full", "sealed")


@dataclass(frozen=True)
class Check:
    """An allowed-value rule that is not a fixed list: ``predicate(value) -> bool``."""

    predicate: Callable[[Any], bool]
    description: str


@dataclass(frozen=True)
class Option:
    """One task option: its default and what is allowed (a tuple of values or a Check)."""

    default: Any
    allowed: Any
    doc: str = ""

    def validate(self, key, value):
        if isinstance(self.allowed, Check):
            try:
                ok = bool(self.allowed.predicate(value))
            except (TypeError, ValueError):
                ok = False
            allowed = self.allowed.description
        else:
            ok = value in self.allowed
            allowed = ", ".join(repr(a) for a in self.allowed)
        if not ok:
            raise ConfigError("config.yaml: options.%s is %r; allowed: %s." % (key, value, allowed))
        return value


@dataclass(frozen=True)
class Config:
    task: str
    board: str
    files: Dict[str, str]
    primary_key: str
    options: Dict[str, Any]
    boards_file: Optional[str] = None
    usage_column: Optional[str] = None
    private_output: bool = False
    language: str = "en"
    report: str = "full"
    ref_dir: str = "."
    raw: Dict[str, Any] = field(default_factory=dict)

    def path(self, slot):
        """Absolute path of a reference file named in ``files``."""
        return os.path.join(self.ref_dir, self.files[slot])


_TOP_KEYS = ("task", "board", "boards", "files", "primary_key", "options", "private_output", "language",
             "report", "title", "description")


def find_config(ref_dir):
    for name in CONFIG_NAMES:
        path = os.path.join(ref_dir, name)
        if os.path.isfile(path):
            return path
    if not os.path.isdir(ref_dir):
        raise ConfigError("the reference data folder %s does not exist; the phase needs a "
                          "reference_data zip with config.yaml at its root." % ref_dir)
    inner = [d for d in sorted(os.listdir(ref_dir)) if os.path.isfile(os.path.join(ref_dir, d, "config.yaml"))]
    if len(inner) == 1:
        return os.path.join(ref_dir, inner[0], "config.yaml")
    raise ConfigError("no config.yaml in the reference data (%s); put config.yaml at the root of "
                      "the reference_data zip." % ref_dir)


def load_config(ref_dir, families):
    """Read and validate ``ref_dir/config.yaml`` against the registered task families."""
    path = find_config(ref_dir)
    try:
        with open(path, "rb") as fh:
            raw = yaml.safe_load(fh.read().decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError("config.yaml is not valid UTF-8 YAML (%s)." % " ".join(str(exc).split())[:200])
    return parse_config(raw, families, ref_dir=os.path.dirname(path))


def parse_config(raw, families, ref_dir="."):
    if not isinstance(raw, dict):
        raise ConfigError("config.yaml must be a mapping of keys (task, board, files, ...).")
    unknown = sorted(set(map(str, raw)) - set(_TOP_KEYS))
    if unknown:
        raise ConfigError("config.yaml: unknown key %r; allowed keys: %s." % (unknown[0], ", ".join(_TOP_KEYS)))

    task = raw.get("task")
    if task not in families:
        raise ConfigError("config.yaml: task is %r; allowed: %s." % (task, ", ".join(sorted(families))))
    family = families[task]

    board = str(raw.get("board", "all"))
    if board not in BOARDS:
        raise ConfigError("config.yaml: board is %r; allowed: %s." % (raw.get("board"), ", ".join(BOARDS)))

    files = dict(family.default_files)
    given_files = _mapping(raw, "files")
    for key, value in given_files.items():
        if key not in family.default_files:
            raise ConfigError("config.yaml: files.%s is not a file of task %s; allowed: %s."
                              % (key, task, ", ".join(family.default_files)))
        if not isinstance(value, str) or not value.strip():
            raise ConfigError("config.yaml: files.%s is %r; give a file name (or a glob for a submission)."
                              % (key, value))
        files[key] = value.strip()

    options = {}
    given_options = _mapping(raw, "options")
    for key in given_options:
        if key not in family.options:
            raise ConfigError("config.yaml: options.%s is not an option of task %s; allowed: %s."
                              % (key, task, ", ".join(sorted(family.options)) or "none"))
    for key, spec in family.options.items():
        options[key] = spec.validate(key, given_options.get(key, spec.default))

    keys = family.leaderboard_keys(options)
    primary = raw.get("primary_key", keys[0])
    if primary not in keys:
        raise ConfigError("config.yaml: primary_key is %r; allowed for task %s: %s."
                          % (primary, task, ", ".join(keys)))

    boards = _mapping(raw, "boards")
    unknown = sorted(set(boards) - {"file", "usage_column"})
    if unknown:
        raise ConfigError("config.yaml: boards.%s is unknown; allowed: file, usage_column." % unknown[0])
    boards_file = boards.get("file")
    usage_column = boards.get("usage_column")
    if boards_file is not None and usage_column is not None:
        raise ConfigError("config.yaml: boards has both file and usage_column; give one of them.")
    if board != "all" and boards_file is None and usage_column is None:
        raise ConfigError("config.yaml: board is %r but boards names neither a file nor a usage_column; "
                          "add boards: {file: boards.csv}." % board)

    private_output = raw.get("private_output", False)
    if not isinstance(private_output, bool):
        raise ConfigError("config.yaml: private_output is %r; allowed: true, false." % private_output)
    language = raw.get("language", "en")
    if language not in LANGUAGES:
        raise ConfigError("config.yaml: language is %r; allowed: %s." % (language, ", ".join(LANGUAGES)))
    report = raw.get("report", "full")
    if report not in REPORTS:
        raise ConfigError("config.yaml: report is %r; allowed: %s (sealed: while the phase runs participants see "
                          "placeholder scores and no report)." % (report, ", ".join(REPORTS)))

    return Config(task=task, board=board, files=files, primary_key=primary, options=options,
                  boards_file=boards_file, usage_column=usage_column, private_output=private_output,
                  language=language, report=report, ref_dir=ref_dir, raw=raw)


def _mapping(raw, key):
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError("config.yaml: %s must be a mapping, got %r." % (key, value))
    return {str(k): v for k, v in value.items()}


def number_in(low, high, integer=False, open_low=False):
    """A Check for a number (or an integer) in [low, high], or (low, high] with ``open_low``."""

    def ok(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        if integer and not float(v).is_integer():
            return False
        return (low < v if open_low else low <= v) and v <= high

    kind = "an integer" if integer else "a number"
    return Check(ok, "%s in %s%s, %s]" % (kind, "(" if open_low else "[", low, high))
