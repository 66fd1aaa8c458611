"""A competition folder as the organizer keeps it, and the phase inputs made from it.

    <competition>/
      competition.yaml
      reference_data/        gold file(s), boards.csv, board_A.yaml, board_B.yaml
      starting_kit/          sample submission, instructions

Each ``board_<X>.yaml`` is the config of one phase's reference data, which
organizer/phase_data.py makes from this folder (the public test inputs and the
answers of that board only). A board with ``report: sealed`` is *revealed* by
scoring it with the same config set to ``report: full`` (``board_config_bytes``).

A competition whose feedback phase scores the dev set (``organizer new --feedback
dev``) has one more phase, named ``dev``: its config is the kit's own
``starting_kit/dev/config.yaml`` (the dev answers ship in the kit, so nothing of
that phase is hidden), and its final phase ``all`` scores every test unit,
sealed until the reveal (``board_all.yaml``, no board split).

The scoring program never sees competition.yaml, so the competition's title
and the leaderboard's column labels are written into every board config
(``title:`` and ``columns:``, appended to the file's own text) unless the board
config sets them itself.
"""
import shutil
from pathlib import Path

import yaml

from .inputs import OrganizerError, entries, existing_folder, regular_file
from scorer.public import ScoringError, families, parse_config

BOARD_CONFIG = "board_{}.yaml"
DEV = "dev"                                           # the dev phase's name (reference_data_dev.zip)
DEV_CONFIG = Path("starting_kit") / "dev" / "config.yaml"   # its config, in the competition folder


def board_configs(reference_dir):
    """board name -> path of its config, for every board_<X>.yaml in reference_dir."""
    found = {}
    for path in sorted(Path(reference_dir).glob("board_*.yaml")):
        found[path.stem[len("board_"):]] = path
    return found


def config_path(reference_dir, board):
    """The config of ``board``'s phase: ``board_<board>.yaml`` in reference_dir, or the kit's dev/config.yaml for
    the dev phase; None when there is none."""
    if board == DEV:
        path = Path(reference_dir).parent / DEV_CONFIG
        return path if path.is_file() else None
    return board_configs(reference_dir).get(board)


def _no_config(reference_dir, board):
    """What is missing, in words, when ``board`` has no config."""
    if board == DEV:
        return ("no %s in %s: the dev phase scores the kit's dev set (python3 -m organizer new --feedback dev "
                "--dev-gold FILE makes it)" % (DEV_CONFIG.as_posix(), Path(reference_dir).parent))
    return "no %s in %s (boards: %s)" % (BOARD_CONFIG.format(board), reference_dir,
                                         ", ".join(board_configs(reference_dir)) or "none")


def reference_files(reference_dir):
    """The data files shared by every board (everything but the board configs)."""
    return [p for p in sorted(Path(reference_dir).iterdir())
            if p.is_file() and not (p.name.startswith("board_") and p.suffix == ".yaml")]


def board_config_bytes(reference_dir, board, reveal=False):
    """The bytes of ``board_<board>.yaml`` with the competition's title and labels; with ``reveal``, the same
    config with ``report: full``."""
    path = config_path(reference_dir, board)
    if path is None:
        raise SystemExit(_no_config(reference_dir, board))
    data = path.read_bytes()
    if reveal:
        raw = yaml.safe_load(data.decode("utf-8-sig"))
        raw["report"] = "full"
        data = ("# %s revealed: the sealed board's config with report: full\n" % BOARD_CONFIG.format(board)
                + yaml.safe_dump(raw, allow_unicode=True, sort_keys=False)).encode("utf-8")
    return with_labels(data, Path(reference_dir).parent / "competition.yaml")


def competition_labels(competition_yaml, raw_config):
    """(title, {key: label}) from competition.yaml for a board config: labels of the keys its task writes.

    None and {} where there is no competition.yaml or the board config does not load (the linter says why).
    """
    try:
        with open(competition_yaml, "rb") as fh:
            comp = yaml.safe_load(fh.read().decode("utf-8-sig")) or {}
        cfg = parse_config(raw_config, families())
    except (OSError, yaml.YAMLError, UnicodeDecodeError, ScoringError):
        return None, {}
    if not isinstance(comp, dict):
        return None, {}
    title = comp.get("title")
    written = families()[cfg.task].leaderboard_keys(cfg.options) + cfg.intervals.keys(cfg.primary_key)
    columns = (comp.get("leaderboard") or {}).get("columns") or {}
    labels = {str(k): str(c["label"]).strip() for k, c in columns.items()
              if isinstance(c, dict) and not c.get("computed") and str(k) in written
              and isinstance(c.get("label"), str) and c["label"].strip()}
    return (title.strip() if isinstance(title, str) and title.strip() else None), labels


def with_labels(data, competition_yaml):
    """Board config bytes with ``title:`` and ``columns:`` from competition.yaml appended (kept if already set)."""
    raw = yaml.safe_load(data.decode("utf-8-sig"))
    if not isinstance(raw, dict):
        return data
    title, labels = competition_labels(competition_yaml, raw)
    extra = {}
    if title and "title" not in raw:
        extra["title"] = title
    if labels and "columns" not in raw:
        extra["columns"] = labels
    if not extra:
        return data
    text = data.decode("utf-8-sig")
    return (text + ("" if text.endswith("\n") else "\n")
            + "# from competition.yaml (the scoring program never sees it): the page's title and column labels\n"
            + yaml.safe_dump(extra, allow_unicode=True, sort_keys=False, width=1000)).encode("utf-8")


def place_submission(submission, res):
    """``res`` (made afresh) holding ``submission`` as a platform unpacks it: a folder's content, else the file.

    A link inside a folder stays a link (the scoring program refuses it by name, as on a platform); a FIFO or a
    device is refused here, before anything opens it.
    """
    res, submission = Path(res), Path(submission)
    if submission.is_dir():
        special = [p for p in entries(submission)[1] if "symbolic link" not in p]
        if special:
            raise OrganizerError("the submission %s: %s; a submission holds regular files only" % (submission,
                                                                                                  special[0]))
    else:
        regular_file(submission, "the submission")
    if res.exists():
        shutil.rmtree(res)
    if submission.is_dir():
        shutil.copytree(submission, res, symlinks=True)
    else:
        res.mkdir(parents=True)
        shutil.copy2(submission, res / submission.name)
    return res


def load_board_config(reference_dir, board):
    """The mapping of ``board_<board>.yaml``, or of the kit's dev/config.yaml for the dev phase (OrganizerError
    naming the boards there when it is missing)."""
    existing_folder(reference_dir, "the competition's reference data")
    path = config_path(reference_dir, board)
    if path is None:
        raise OrganizerError(_no_config(reference_dir, board))
    try:
        with open(path, "rb") as fh:
            return yaml.safe_load(fh.read().decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise OrganizerError("%s is not UTF-8 YAML (%s)" % (path, " ".join(str(exc).split())[:160]))
