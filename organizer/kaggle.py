"""The Kaggle-style metric with its engine, and, from a competition folder, what a Kaggle competition is made of.

    python3 -m organizer kaggle COMPETITION_DIR OUT_DIR
    python3 -m organizer kaggle OUT_DIR            (the metric alone, for any family: task= in every call)

Writes into OUT_DIR:

- ``metric.py``: adapters/kaggle/metric.py (``score(solution, submission, row_id_column_name, task=..., metric=...,
  options=..., labels=..., language=...)`` for every task family; docs/organizers.md gives each family's DataFrame
  columns); from a competition, its ``COMPETITION`` holds the competition's task, primary key, options, class names
  and language, which are then ``score``'s defaults: the file is the metric, ready to paste;
- ``scorer/``: the engine it imports;
- from a competition, ``solution.csv``: every test unit in the metric's columns (the row id first), and Kaggle's
  ``Usage`` column, ``Public`` for the units of board A and ``Private`` for those of board B (boards.csv); and
  ``sample_submission.csv``: the starting kit's sample submission in the same columns.

Scored through the metric, the Public rows of solution.csv give board A's scores and the Private rows board B's,
as score.py gives them on each board's reference data (tests/test_adapters_kaggle.py).
"""
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

from .inputs import OrganizerError, Parser, competition_yaml, read_bytes
from .layout import board_configs
from . import PROGRAM, ROOT

METRIC = ROOT / "adapters" / "kaggle" / "metric.py"
BLOCK_BEGIN = "# -- competition: written by python3 -m organizer kaggle; the defaults of score()'s parameters --"
BLOCK_END = "# -- end of competition --"
USAGE = {"A": "Public", "B": "Private"}


def adapter():
    """adapters/kaggle/metric.py as a module (its layouts turn a competition's files into Kaggle's DataFrames)."""
    spec = importlib.util.spec_from_file_location("kaggle_metric", str(METRIC))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def metric_text(parameters=None):
    """metric.py's text, its COMPETITION block holding ``parameters`` (a mapping of score()'s defaults)."""
    text = METRIC.read_text(encoding="utf-8")
    if not parameters:
        return text
    start, stop = text.index(BLOCK_BEGIN) + len(BLOCK_BEGIN), text.index(BLOCK_END)
    body = "\nCOMPETITION = {\n%s}\n" % "".join("    %r: %r,\n" % item for item in parameters.items())
    return text[:start] + body + text[stop:]


def competition_parts(competition):
    """(score()'s defaults, solution DataFrame with Usage, sample submission DataFrame) of a competition folder."""
    competition = Path(competition)
    competition_yaml(competition)
    reference_dir = competition / "reference_data"
    configs = board_configs(reference_dir)
    if not configs:
        raise OrganizerError("%s has no board_<X>.yaml: the board configs name the task" % reference_dir)
    try:
        config = yaml.safe_load(read_bytes(configs[sorted(configs)[0]], "the board config").decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise OrganizerError("%s is not UTF-8 YAML (%s)" % (configs[sorted(configs)[0]], " ".join(str(exc).split())))
    from scorer.public import ScoringError, families, parse_config

    try:
        cfg = parse_config(config, families(), ref_dir=str(reference_dir))
    except ScoringError as exc:
        raise OrganizerError("%s: %s" % (configs[sorted(configs)[0]], exc.text("en")))
    module = adapter()
    layouts = module.layouts()
    if cfg.task not in layouts:
        raise OrganizerError("task %s has no Kaggle layout (the metric feeds %s)" % (cfg.task, ", ".join(layouts)))
    family, layout = families()[cfg.task], layouts[cfg.task]
    # the layouts know each reference file by the family's own name; the config may name it otherwise
    reference = {family.reference_files[slot]: read_bytes(cfg.path(slot), "the reference file")
                 for slot in family.reference_files if os.path.isfile(cfg.path(slot))}
    labels = None
    if family.reference_files.get("labels") in reference:
        labels = [line.strip() for line in reference[family.reference_files["labels"]].decode("utf-8-sig").splitlines()
                  if line.strip()]
    parameters = {"task": cfg.task, "metric": cfg.primary_key, "options": dict(cfg.options), "labels": labels,
                  "language": cfg.language}
    solution, units = layout.solution(reference)
    solution["Usage"] = usage(reference_dir / (cfg.boards_file or "boards.csv"), units)
    return parameters, solution, layout.sample(kit_sample(competition / "starting_kit"), units)


def usage(boards_file, units):
    """Kaggle's Usage of each unit: Public on board A, Private on board B."""
    from scorer.public import table_of

    table = table_of(read_bytes(boards_file, "the board split"), boards_file.name, ["id", "board"])
    board = dict(zip((u.strip() for u in table.cells("id").to_objects()), table.cells("board").to_objects()))
    missing = [unit for unit in units if board.get(unit) not in USAGE]
    if missing:
        raise OrganizerError("%s gives no board A or B to %d unit(s) of the gold (first: %s); make the split with "
                             "python3 -m organizer boards" % (boards_file, len(missing), missing[0]))
    return [USAGE[board[unit]] for unit in units]


def kit_sample(kit):
    """{file name: bytes} of the starting kit's sample submission (sample_submission.* or the submission/ folder)."""
    found = sorted(p for p in kit.glob("sample_submission*") if p.is_file())
    if found:
        return {found[0].name: read_bytes(found[0], "the sample submission")}
    folder = kit / "submission"
    if folder.is_dir():
        return {p.name: read_bytes(p, "the sample submission") for p in sorted(folder.iterdir()) if p.is_file()}
    raise OrganizerError("%s has no sample submission (sample_submission.* or submission/): Kaggle needs one" % kit)


def build(out_dir, competition=None):
    """metric.py and scorer/ in ``out_dir`` (which may hold other files), and from ``competition`` solution.csv and
    sample_submission.csv: made aside, then moved into place. Returns the files written."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise OrganizerError("OUT_DIR %s is not a folder; give a folder's path" % out_dir)
    parameters, frames = None, {}
    if competition is not None:
        parameters, solution, sample = competition_parts(competition)
        frames = {"solution.csv": solution, "sample_submission.csv": sample}
    out_dir.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=".kaggle-", dir=str(out_dir)))
    try:
        (made / "metric.py").write_text(metric_text(parameters), encoding="utf-8")
        for name, frame in frames.items():
            (made / name).write_bytes(frame.to_csv(index=False, lineterminator="\n").encode("utf-8"))
        shutil.copytree(PROGRAM / "scorer", made / "scorer", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if (out_dir / "scorer").exists():
            shutil.rmtree(out_dir / "scorer")
        names = ["metric.py", "scorer"] + list(frames)
        for name in names:
            os.replace(made / name, out_dir / name)
    finally:
        shutil.rmtree(made, ignore_errors=True)
    return [out_dir / name for name in names], parameters


def main(argv=None):
    parser = Parser(prog="python3 -m organizer kaggle", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="[COMPETITION_DIR] OUT_DIR",
                        help="the competition folder (optional) and the folder to write into")
    args = parser.parse_args(argv)
    if len(args.paths) > 2:
        parser.error("give COMPETITION_DIR OUT_DIR, or OUT_DIR alone")
    competition, out = (args.paths if len(args.paths) == 2 else (None, args.paths[0]))
    written, parameters = build(out, competition)
    print("wrote %s" % ", ".join(str(p) for p in written))
    if parameters is None:
        print("metric.py scores any family: give task= (and the family's options, labels, language) in each call")
        return 0
    print("Next, on Kaggle (host a competition):\n"
          "  1. the solution file: solution.csv (its Usage column: Public = board A, the public leaderboard; Private "
          "= board B, the final one), the sample submission: sample_submission.csv\n"
          "  2. the metric: a notebook whose code is metric.py (its COMPETITION holds task %s, primary key %s), with "
          "the folder scorer/ beside it (a utility script or a dataset); row id column: %s"
          % (parameters["task"], parameters["metric"], next(iter(open_header(Path(out) / "solution.csv")))))
    return 0


def open_header(path):
    with open(path, encoding="utf-8") as fh:
        return fh.readline().rstrip("\n").split(",")


if __name__ == "__main__":
    sys.exit(main())
