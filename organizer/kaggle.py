"""python3 -m organizer kaggle OUT_DIR: the Kaggle-style metric file with the scoring engine beside it.

Writes OUT_DIR/metric.py (adapters/kaggle/metric.py: ``score(solution,
submission, row_id_column_name, task=..., metric=..., options=..., labels=...,
language=...)`` for every task family; docs/organizers.md gives each family's
DataFrame columns) and OUT_DIR/scorer/ (the engine it imports), ready to attach
to a metric notebook.
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .inputs import OrganizerError, Parser
from . import PROGRAM, ROOT

METRIC = ROOT / "adapters" / "kaggle" / "metric.py"


def build(out_dir):
    """metric.py and scorer/ in ``out_dir`` (which may hold other files): made aside, then moved into place."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise OrganizerError("OUT_DIR %s is not a folder; give a folder's path" % out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=".kaggle-", dir=str(out_dir)))
    try:
        shutil.copy2(METRIC, made / "metric.py")
        shutil.copytree(PROGRAM / "scorer", made / "scorer", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if (out_dir / "scorer").exists():
            shutil.rmtree(out_dir / "scorer")
        os.replace(made / "scorer", out_dir / "scorer")
        os.replace(made / "metric.py", out_dir / "metric.py")
    finally:
        shutil.rmtree(made, ignore_errors=True)
    return out_dir / "metric.py"


def main(argv=None):
    parser = Parser(prog="python3 -m organizer kaggle", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder to write metric.py and scorer/ into")
    args = parser.parse_args(argv)
    print("wrote %s and its engine (%s)" % (build(args.out), Path(args.out) / "scorer"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
