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
    report: full                  # full, or sealed: placeholders only while the phase runs, or closed:
                                  # the phase has ended and its final ranking is fixed (nothing is scored)
    closed_at: "2027-03-01T00:00:00+00:00"   # with report: closed only: when the phase ended
    public_inputs: public         # a phase's reference data (organizer tools write it): the contract comes
                                  # from the public test inputs in this folder, and the gold files hold the
                                  # answers of the scored board only (none at all on a sealed board)
    answers_dir: /opt/competition/answers/A   # with public_inputs: the gold files are read from this folder
                                  # of the scoring image instead of the reference data (which then holds none)
    board_units: {count: 2000, sha256: "9f86..."}   # with public_inputs: the units the gold must hold (their
                                  # number and digests.id_set's SHA-256 of their ids), written by the tools
    title: "Bank comments 2021"   # the page's title; organizer tools copy it from competition.yaml
    columns: {score: "S = 0.5 S1 + 0.5 S2"}   # leaderboard labels, likewise
    intervals: {resamples: 1000, level: 0.95, in_scores: false}
    feedback: {ladder: none, round_to: null, class_counts: true}   # board A only
"""
import datetime as dt
import fnmatch
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Tuple

import yaml

from .errors import ConfigError, clip
from .i18n import LANGUAGES
from .problems import Message

CONFIG_NAMES = ("config.yaml", "config.yml")
BOARDS = ("A", "B", "all")
REPORTS = ("full", "sealed", "closed")
LADDERS = ("none", "fixed", "parameter_free")
INTERVAL_SUFFIXES = ("_ci_low", "_ci_high")
TITLE_MAX = 200
LABEL_MAX = 100


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
            raise ConfigError(NOT_ALLOWED(key="options." + key, value=clip(repr(value), 80), allowed=allowed))
        return value


@dataclass(frozen=True)
class Intervals:
    """Bootstrap intervals of the primary score (``intervals:``); resamples 0 turns them off."""

    resamples: int = 1000
    level: float = 0.95
    seed: int = 20240101
    in_scores: bool = False   # also write <primary>_ci_low and <primary>_ci_high to the scores files

    def keys(self, primary):
        """The extra score keys written when ``in_scores`` is set."""
        return [primary + suffix for suffix in INTERVAL_SUFFIXES] if self.in_scores and self.resamples else []


@dataclass(frozen=True)
class Feedback:
    """What a board-A run tells participants (``feedback:``): docs/report.md says what each setting costs."""

    ladder: str = "none"          # none, fixed or parameter_free (Blum & Hardt's Ladder)
    ladder_step: float = 0.01     # fixed Ladder: the margin a new score must beat, and its rounding
    round_to: Optional[int] = None   # decimals of every public score (None: all 10)
    class_counts: bool = True     # False: no per-class counts, charts or matrices on the page

    @property
    def active(self):
        return self.ladder != "none" or self.round_to is not None or not self.class_counts


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
    max_submission_mb: Optional[float] = None
    ref_dir: str = "."
    title: Optional[str] = None
    columns: Dict[str, str] = field(default_factory=dict)
    intervals: Intervals = Intervals()
    feedback: Feedback = Feedback()
    public_inputs: Optional[str] = None   # folder of the public test inputs (a phase's reference data)
    closed_at: Optional[str] = None       # report: closed: when the phase ended (ISO 8601, UTC)
    answers_dir: Optional[str] = None     # absolute folder outside the reference data holding the answer files
    answer_slots: Tuple[str, ...] = ()    # the files read from answers_dir (the family's per-unit files)
    board_units: Optional[Tuple[int, str]] = None   # (count, SHA-256 of the ids) the board's gold must hold
    file: Optional[str] = None            # the config.yaml it was read from (None: a mapping given in code)

    @property
    def one_board(self):
        """True for a phase's reference data: the contract is public, the gold holds one board's answers."""
        return self.public_inputs is not None

    def public_dir(self):
        """The folder of the public test inputs of a phase's reference data."""
        return os.path.join(self.ref_dir, self.public_inputs)

    def path(self, slot):
        """Absolute path of a reference file named in ``files``: an answer file from ``answers_dir`` when the
        config names one (the answers then live in the scoring image, not in the uploaded reference data)."""
        folder = self.answers_dir if slot in self.answer_slots else self.ref_dir
        return os.path.join(folder, self.files[slot])


_TOP_KEYS = ("task", "board", "boards", "files", "primary_key", "options", "private_output", "language",
             "report", "max_submission_mb", "title", "columns", "intervals", "feedback", "public_inputs",
             "closed_at", "answers_dir", "board_units")
_INTERVAL_KEYS = ("resamples", "level", "seed", "in_scores")
_FEEDBACK_KEYS = ("ladder", "ladder_step", "round_to", "class_counts")
_BOARD_UNITS_KEYS = ("count", "sha256")

NOT_ALLOWED = Message("config.not_allowed", "config.yaml: {key} is {value}; allowed: {allowed}.",
                      "config.yaml：{key} 的值 {value} 不合法；允许：{allowed}。")
NOT_A_KEY = Message("config.primary_key", "config.yaml: primary_key is {value}; allowed for task {task}: {allowed}.",
                    "config.yaml：primary_key 的值 {value} 不合法；任务 {task} 允许：{allowed}。")
UNKNOWN_KEY = Message("config.unknown_key", "config.yaml: unknown key {key}; allowed keys: {allowed}.",
                      "config.yaml：未知的键 {key}；允许的键：{allowed}。")
NOT_A_FILE_OF_TASK = Message("config.not_a_file", "config.yaml: {key} is not a file of task {task}; allowed: {allowed}.",
                             "config.yaml：{key} 不是任务 {task} 的文件；允许：{allowed}。")
NOT_AN_OPTION = Message("config.not_an_option", "config.yaml: {key} is not an option of task {task}; allowed: {allowed}.",
                        "config.yaml：{key} 不是任务 {task} 的选项；允许：{allowed}。")
NOT_A_FILE_NAME = Message("config.not_a_name", "config.yaml: {key} is {value}; give a file name (or a glob for a "
                          "submission).", "config.yaml：{key} 的值 {value} 不合法；请给出文件名（提交文件可用通配符）。")
BAD_PATTERN = Message("config.bad_pattern", "config.yaml: {key} is {value}, which is not a valid file-name pattern "
                      "({reason}); use * and ? (for example \"*.csv\").",
                      "config.yaml：{key} 的值 {value} 不是合法的文件名模式（{reason}）；请用 * 和 ?（例如 \"*.csv\"）。")
NOT_A_MAPPING = Message("config.not_a_mapping", "config.yaml must be a mapping of keys (task, board, files, ...).",
                        "config.yaml 必须是键值映射（task、board、files 等）。")
NOT_A_SUBMAPPING = Message("config.not_a_submapping", "config.yaml: {key} must be a mapping, got {value}.",
                           "config.yaml：{key} 必须是映射，实际为 {value}。")
TWO_SPLITS = Message("config.two_splits", "config.yaml: boards has both file and usage_column; give one of them.",
                     "config.yaml：boards 同时给了 file 和 usage_column；只能给其中一个。")
NO_SPLIT = Message("config.no_split", "config.yaml: board is '{board}' but boards names neither a file nor a "
                   "usage_column; add boards: {{file: boards.csv}}.",
                   "config.yaml：board 为 '{board}'，但 boards 既没有 file 也没有 usage_column；请加上 boards: {{file: boards.csv}}。")
SPLIT_AND_PUBLIC = Message("config.split_and_public", "config.yaml: boards and public_inputs are both given; a phase's "
                           "reference data with public_inputs holds the answers of its own board only, so it names no "
                           "boards: remove boards.", "config.yaml：同时给了 boards 和 public_inputs；带 public_inputs 的阶段参考"
                           "数据只含本榜单的答案，不需要 boards：请删除 boards。")
ANSWERS_WITHOUT_PUBLIC = Message("config.answers_without_public", "config.yaml: answers_dir is {value} but "
                                 "public_inputs is not given; answers outside the reference data hold one board's "
                                 "units, as a phase's reference data does: add public_inputs (python3 -m organizer "
                                 "bundle writes both).", "config.yaml：给了 answers_dir（{value}）却没有 public_inputs；"
                                 "参考数据之外的答案只含一个榜单的单元，与阶段参考数据相同：请加上 public_inputs"
                                 "（python3 -m organizer bundle 会同时写出两者）。")
NOT_YAML = Message("config.not_yaml", "config.yaml is not valid UTF-8 YAML ({reason}).",
                   "config.yaml 不是合法的 UTF-8 YAML（{reason}）。")
NO_REFERENCE_FOLDER = Message("config.no_reference_folder", "the reference data folder {path} does not exist; the "
                              "phase needs a reference_data zip with config.yaml at its root.",
                              "参考数据目录 {path} 不存在；本阶段需要一个根目录含 config.yaml 的 reference_data zip。")
NO_CONFIG = Message("config.missing", "no config.yaml in the reference data ({path}); put config.yaml at the root of "
                    "the reference_data zip.", "参考数据（{path}）中没有 config.yaml；请把 config.yaml 放在 reference_data zip 的根目录。")


def find_config(ref_dir):
    for name in CONFIG_NAMES:
        path = os.path.join(ref_dir, name)
        if os.path.isfile(path):
            return path
    if not os.path.isdir(ref_dir):
        raise ConfigError(NO_REFERENCE_FOLDER(path=ref_dir))
    inner = [d for d in sorted(os.listdir(ref_dir)) if os.path.isfile(os.path.join(ref_dir, d, "config.yaml"))]
    if len(inner) == 1:
        return os.path.join(ref_dir, inner[0], "config.yaml")
    raise ConfigError(NO_CONFIG(path=ref_dir))


def language_of(input_dir):
    """``language`` of INPUT/ref's config.yaml (found as score.py finds it), or ``en`` (never raises)."""
    try:
        raw = read_raw(find_config(os.path.join(input_dir, "ref")))
    except (ConfigError, OSError):
        return "en"
    language = raw.get("language", "en") if isinstance(raw, dict) else "en"
    return language if language in LANGUAGES else "en"


def load_config(ref_dir, families):
    """Read and validate ``ref_dir/config.yaml`` against the registered task families."""
    path = find_config(ref_dir)
    return parse_config(read_raw(path), families, ref_dir=os.path.dirname(path), file=path)


def read_raw(path):
    """The YAML value of a config file, unchecked (ConfigError if it is not UTF-8 YAML)."""
    try:
        with open(path, "rb") as fh:
            return yaml.safe_load(fh.read().decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(NOT_YAML(reason=" ".join(str(exc).split())[:200]))


SPLIT_KEYS = ("board", "boards", "report", "private_output", "feedback", "public_inputs", "answers_dir",
              "board_units")


def task_only(raw):
    """A board config without what depends on the board split: what the offline check and a dev set use.

    >>> task_only({"task": "t", "board": "A", "boards": {"file": "b.csv"}, "report": "sealed", "language": "zh"})
    {'task': 't', 'language': 'zh', 'board': 'all'}
    """
    if not isinstance(raw, dict):
        return raw
    out = {k: v for k, v in raw.items() if k not in SPLIT_KEYS}
    out["board"] = "all"
    return out


def parse_config(raw, families, ref_dir=".", file=None):
    """A Config of ``raw`` (config.yaml's mapping) for one of ``families``; ConfigError at the first key that is
    wrong, the keys checked in a fixed order (the same file always gives the same message).

    The steps: the top-level keys, the task and the board, the family's files and options, the primary key,
    how the units split into boards (``_split``), then the keys that stand alone.
    """
    if not isinstance(raw, dict):
        raise ConfigError(NOT_A_MAPPING())
    unknown = sorted(set(map(str, raw)) - set(_TOP_KEYS))
    if unknown:
        raise ConfigError(UNKNOWN_KEY(key=clip(repr(unknown[0]), 80), allowed=", ".join(_TOP_KEYS)))
    task = raw.get("task")
    if not isinstance(task, str) or task not in families:  # listing every family imports them all: only here
        task = _choice(raw, "task", sorted(families), None)
    family = families[task]
    board = _choice(raw, "board", BOARDS, "all")
    files = _files(raw, family, task)
    options = _options(raw, family, task)
    keys = family.leaderboard_keys(options)
    primary = raw.get("primary_key", keys[0])
    if not isinstance(primary, str) or primary not in keys:
        raise ConfigError(NOT_A_KEY(value=_show(primary), task=task, allowed=", ".join(keys)))
    split = _split(raw, board, ref_dir)
    private_output = raw.get("private_output", False)
    if not isinstance(private_output, bool):
        raise ConfigError(NOT_ALLOWED(key="private_output", value=_show(private_output), allowed="true, false"))
    language = _choice(raw, "language", LANGUAGES, "en")
    max_mb = raw.get("max_submission_mb")
    if max_mb is not None and not MAX_SUBMISSION_MB.predicate(max_mb):
        raise ConfigError(NOT_ALLOWED(key="max_submission_mb", value=_show(max_mb),
                                      allowed=MAX_SUBMISSION_MB.description))
    title = _text_or_none(raw, "title", TITLE_MAX)
    intervals = _intervals(raw)
    columns = _columns(raw, keys + intervals.keys(primary))
    feedback = _feedback(raw, board)
    return Config(task=task, board=board, files=files, primary_key=primary, options=options,
                  private_output=private_output, language=language, max_submission_mb=max_mb, ref_dir=ref_dir,
                  title=title, columns=columns, intervals=intervals, feedback=feedback,
                  answer_slots=tuple(family.unit_files) if split["answers_dir"] else (), file=file, **split)


def _files(raw, family, task):
    """The family's files, each named by ``files:`` or by default; a submission's name must be a pattern that
    works."""
    files = dict(family.default_files)
    for key, value in _mapping(raw, "files").items():
        if key not in family.default_files:
            raise ConfigError(NOT_A_FILE_OF_TASK(key="files." + clip(key, 40), task=task,
                                                 allowed=", ".join(family.default_files)))
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(NOT_A_FILE_NAME(key="files." + key, value=_show(value)))
        files[key] = value.strip()
    for slot in family.submission_slots:
        problem = glob_problem(files[slot])
        if problem:
            raise ConfigError(BAD_PATTERN(key="files." + slot, value=_show(files[slot]), reason=problem))
    return files


def _options(raw, family, task):
    """Every option of the family, given under ``options:`` or by default, each checked by its Option."""
    given = _mapping(raw, "options")
    for key in given:
        if key not in family.options:
            raise ConfigError(NOT_AN_OPTION(key="options." + clip(key, 40), task=task,
                                            allowed=", ".join(sorted(family.options)) or "-"))
    return {key: spec.validate(key, given.get(key, spec.default)) for key, spec in family.options.items()}


def _split(raw, board, ref_dir):
    """How the test units split into boards, and what the phase's reference data holds: {boards_file,
    usage_column, public_inputs, answers_dir, report, closed_at, board_units} (Config's fields). One way to split
    at most; a board other than ``all`` needs one, unless its phase is closed."""
    boards = _mapping(raw, "boards")
    unknown = sorted(set(boards) - {"file", "usage_column"})
    if unknown:
        raise ConfigError(UNKNOWN_KEY(key="boards." + clip(unknown[0], 40), allowed="file, usage_column"))
    boards_file = _name_or_none(boards, "file")
    usage_column = _name_or_none(boards, "usage_column")
    public_inputs = _folder_or_none(raw, "public_inputs")
    answers_dir = _outside_folder_or_none(raw, "answers_dir", ref_dir)
    if answers_dir is not None and public_inputs is None:
        raise ConfigError(ANSWERS_WITHOUT_PUBLIC(value=_show(answers_dir)))
    if boards_file is not None and usage_column is not None:
        raise ConfigError(TWO_SPLITS())
    if public_inputs is not None and (boards_file is not None or usage_column is not None):
        raise ConfigError(SPLIT_AND_PUBLIC())
    report = _choice(raw, "report", REPORTS, "full")
    closed_at = _closed_at(raw, report)
    if board != "all" and boards_file is None and usage_column is None and public_inputs is None and not closed_at:
        raise ConfigError(NO_SPLIT(board=board))
    return dict(boards_file=boards_file, usage_column=usage_column, public_inputs=public_inputs,
                answers_dir=answers_dir, report=report, closed_at=closed_at,
                board_units=_board_units(raw, public_inputs))


def _closed_at(raw, report):
    """``closed_at`` as ISO 8601 in UTC: required with ``report: closed``, refused otherwise.

    >>> _closed_at({"closed_at": "2027-03-01T08:00:00+08:00"}, "closed")
    '2027-03-01T00:00:00+00:00'
    """
    value = raw.get("closed_at")
    if report != "closed":
        if value is not None:
            raise ConfigError(NOT_ALLOWED(key="closed_at", value=_show(value), allowed="nothing unless report is "
                                                                                    "closed"))
        return None
    when = aware_time(value)
    if when is None:
        raise ConfigError(NOT_ALLOWED(key="closed_at", value=_show(value), allowed="the date and time the phase "
                                      "ended, ISO 8601 with its offset (e.g. 2027-03-01T00:00:00+00:00)"))
    return when.isoformat()


def aware_time(value):
    """``value`` (ISO 8601 text, ``Z`` allowed, or a datetime YAML made) as a UTC datetime; None if it has no offset
    or is no date and time.

    >>> aware_time("2027-03-01T00:00:00Z").isoformat(), aware_time("2027-03-01"), aware_time("2027-03-01T00:00")
    ('2027-03-01T00:00:00+00:00', None, None)
    """
    if isinstance(value, str) and "T" in value.upper():
        try:
            value = dt.datetime.fromisoformat(value.strip().upper().replace("Z", "+00:00"))
        except ValueError:
            return None
    if not isinstance(value, dt.datetime) or value.tzinfo is None:
        return None
    return value.astimezone(dt.timezone.utc)


def _board_units(raw, public_inputs):
    """``board_units: {count, sha256}`` of a phase's reference data (with public_inputs only), as (count, sha256)."""
    given = _mapping(raw, "board_units")
    if not given:
        return None
    _sub_keys(given, "board_units", _BOARD_UNITS_KEYS)
    if public_inputs is None:
        raise ConfigError(NOT_ALLOWED(key="board_units", value=_show(given), allowed="nothing without public_inputs "
                                                                                 "(a phase's reference data has it)"))
    count = _checked(given, "board_units", "count", COUNT, None)
    digest = _checked(given, "board_units", "sha256", SHA256, None)
    return int(count), digest


def _text_or_none(raw, key, limit):
    value = raw.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > limit):
        raise ConfigError(NOT_ALLOWED(key=key, value=_show(value), allowed="a non-empty string of at most %d "
                                                                           "characters" % limit))
    return value.strip() if value is not None else None


def _columns(raw, keys):
    """``columns: {key: label}``: the organizer's label of leaderboard keys (from competition.yaml)."""
    columns = {}
    for key, label in _mapping(raw, "columns").items():
        if key not in keys:
            raise ConfigError(NOT_ALLOWED(key="columns", value=_show(key), allowed=", ".join(keys)))
        if not isinstance(label, str) or not label.strip() or len(label) > LABEL_MAX:
            raise ConfigError(NOT_ALLOWED(key="columns." + key, value=_show(label),
                                          allowed="a non-empty string of at most %d characters" % LABEL_MAX))
        columns[key] = label.strip()
    return columns


def _sub_keys(given, key, allowed):
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise ConfigError(UNKNOWN_KEY(key="%s.%s" % (key, clip(unknown[0], 40)), allowed=", ".join(allowed)))


def _checked(given, key, name, check, default):
    value = given.get(name, default)
    if not check.predicate(value):
        raise ConfigError(NOT_ALLOWED(key="%s.%s" % (key, name), value=_show(value), allowed=check.description))
    return value


def _intervals(raw):
    given = _mapping(raw, "intervals")
    _sub_keys(given, "intervals", _INTERVAL_KEYS)
    d = Intervals()
    return Intervals(resamples=int(_checked(given, "intervals", "resamples", RESAMPLES, d.resamples)),
                     level=float(_checked(given, "intervals", "level", LEVEL, d.level)),
                     seed=int(_checked(given, "intervals", "seed", SEED, d.seed)),
                     in_scores=_checked(given, "intervals", "in_scores", BOOLEAN, d.in_scores))


def _feedback(raw, board):
    given = _mapping(raw, "feedback")
    _sub_keys(given, "feedback", _FEEDBACK_KEYS)
    if given and board != "A":
        raise ConfigError(NOT_ALLOWED(key="feedback", value=_show(given), allowed="nothing on board %s (feedback "
                                                                              "settings apply to board A only)" % board))
    d = Feedback()
    ladder = given.get("ladder", d.ladder)
    if not isinstance(ladder, str) or ladder not in LADDERS:
        raise ConfigError(NOT_ALLOWED(key="feedback.ladder", value=_show(ladder), allowed=", ".join(LADDERS)))
    round_to = _checked(given, "feedback", "round_to", ROUND_TO, d.round_to)
    return Feedback(ladder=ladder, ladder_step=float(_checked(given, "feedback", "ladder_step", STEP, d.ladder_step)),
                    round_to=None if round_to is None else int(round_to),
                    class_counts=_checked(given, "feedback", "class_counts", BOOLEAN, d.class_counts))


def glob_problem(pattern):
    """Why a file-name pattern matches nothing a participant can name (an open or reversed [...]), or None.

    >>> glob_problem("*.csv"), glob_problem("*.[ct]sv"), glob_problem("[z-a].csv"), glob_problem("a[.csv")
    (None, None, 'the range z-a is reversed', 'a [ is not closed')
    """
    i = 0
    while i < len(pattern):
        if pattern[i] != "[":
            i += 1
            continue
        close = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "]") else i + 1)
        if close < 0:
            return "a [ is not closed"
        body = pattern[i + 1:close].lstrip("!")
        for k in range(1, len(body) - 1):
            if body[k] == "-" and body[k - 1] > body[k + 1]:
                return "the range %s-%s is reversed" % (body[k - 1], body[k + 1])
        i = close + 1
    try:
        re.compile(fnmatch.translate(pattern))
    except re.error as exc:
        return str(exc)
    return None


def _show(value):
    """A config value as a message quotes it: its repr, cut."""
    return clip(repr(value), 80)


def _choice(raw, key, allowed, default):
    """``raw[key]`` (or ``default``), which must be one of the strings ``allowed``."""
    value = raw.get(key, default)
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(NOT_ALLOWED(key=key, value=_show(value), allowed=", ".join(allowed)))
    return value


def _folder_or_none(raw, key):
    """A folder inside the reference data (relative, no ``..``), or None."""
    value = raw.get(key)
    if value is None:
        return None
    parts = value.replace("\\", "/").strip("/").split("/") if isinstance(value, str) else []
    if not parts or os.path.isabs(value) or any(p in ("", ".", "..") for p in parts):
        raise ConfigError(NOT_ALLOWED(key=key, value=_show(value), allowed="a folder inside the reference data, "
                                                                           "such as public"))
    return "/".join(parts)


def _outside_folder_or_none(raw, key, ref_dir):
    """An absolute folder outside the reference data (``/`` separated, no ``.`` or ``..`` part), or None.

    >>> _outside_folder_or_none({"a": "/opt/competition/answers/A/"}, "a", "/app/input/ref")
    '/opt/competition/answers/A'
    """
    value = raw.get(key)
    if value is None:
        return None
    parts = value.split("/")[1:] if isinstance(value, str) and value.startswith("/") else []
    if parts and parts[-1] == "":
        parts.pop()
    allowed = "an absolute folder of the scoring image outside the reference data, such as /opt/competition/answers/A"
    if not parts or any(p in ("", ".", "..") or "\\" in p or "\0" in p for p in parts) or len(value) > 255:
        raise ConfigError(NOT_ALLOWED(key=key, value=_show(value), allowed=allowed))
    folder = "/" + "/".join(parts)
    ref = os.path.abspath(ref_dir)
    if os.path.commonpath([folder, ref]) == ref:   # inside the reference data: it would be uploaded
        raise ConfigError(NOT_ALLOWED(key=key, value=_show(value), allowed=allowed))
    return folder


def _name_or_none(mapping, key):
    value = mapping.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ConfigError(NOT_A_FILE_NAME(key="boards." + key, value=_show(value)))
    return value.strip() if value is not None else None


def _mapping(raw, key):
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError(NOT_A_SUBMAPPING(key=key, value=_show(value)))
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


MAX_SUBMISSION_MB = number_in(0, 8192, open_low=True)
RESAMPLES = number_in(0, 100000, integer=True)
LEVEL = number_in(0.5, 0.999)
SEED = number_in(0, 2 ** 32 - 1, integer=True)
STEP = number_in(0, 0.5, open_low=True)
BOOLEAN = Check(lambda v: isinstance(v, bool), "true, false")
COUNT = number_in(0, 2 ** 62, integer=True)
SHA256 = Check(lambda v: isinstance(v, str) and re.fullmatch("[0-9a-f]{64}", v) is not None,
               "64 lower-case hexadecimal digits (a SHA-256)")
ROUND_TO = Check(lambda v: v is None or (not isinstance(v, bool) and isinstance(v, int) and 0 <= v <= 10),
                 "null or an integer in [0, 10]")
