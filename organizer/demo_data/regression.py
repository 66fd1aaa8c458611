"""Generate the regression demo: the yearly energy use of invented office buildings, made into a competition.

    python3 -m organizer demo regression [--buildings 2000] [--seed 2026] [--out examples/regression]

Each building has public inputs (floor area, floors, year built, climate, occupancy) and a true yearly energy
use in MWh: a product of those inputs' effects times a log-normal factor, so values are positive and skewed
(RMSLE scored: the organizer asks for it with `--option rmsle=true`). A dev set of 300 more buildings goes into the kit with its values. The competition folder
(pages, competition.yaml, both board configs, the seeded board split, the starting kit with its baseline
sample submission) is what ``python3 -m organizer new regression`` makes of that gold, with fixed dates; the
same seed always writes the same bytes. An existing demo folder at OUT is replaced.
"""
import os
import tempfile
from pathlib import Path

import numpy as np

from ._files import ROOT, demo_arguments, write_csv

CLIMATES = {"cold": 1.35, "mild": 1.0, "hot": 1.2}
DEV = 300
TITLE = "Energy use of office buildings (demo)"
DATES = ["--start", "2026-11-02", "--final-start", "2027-02-01", "--end", "2027-03-01"]


def buildings(rng, n, first):
    """Rows [id, floor_area_m2, floors, year_built, climate, occupancy, value] of ``n`` buildings."""
    area = np.round(rng.lognormal(np.log(4000), 0.7, n), -1).clip(200, 60000)
    floors = np.maximum(1, np.round(area / rng.uniform(600, 1500, n))).astype(int)
    year = rng.integers(1950, 2024, n)
    climate = rng.choice(list(CLIMATES), size=n, p=[0.3, 0.45, 0.25])
    occupancy = np.round(rng.uniform(0.35, 1.0, n), 2)
    age = 1.0 + 0.006 * (2024 - year)
    effect = np.array([CLIMATES[c] for c in climate])
    # about 0.2 MWh per square metre and year, more in old buildings, harsh climates and full ones
    value = np.round(0.2 * area * age * effect * (0.6 + 0.6 * occupancy) * rng.lognormal(0.0, 0.18, n), 1)
    return [["b%05d" % (first + i), "%g" % area[i], str(floors[i]), str(year[i]), str(climate[i]),
             "%.2f" % occupancy[i], "%.1f" % value[i]] for i in range(n)]


def main(argv=None):
    args = demo_arguments(__doc__, "buildings", 2000, 2026, "examples/regression", argv)
    out = Path(args.out).resolve()
    if out.exists() and any(out.iterdir()) and "task: regression" not in _text(out / "reference_data" / "board_A.yaml"):
        raise SystemExit("%s holds something else than a regression demo; give a new folder" % out)
    rng = np.random.default_rng(args.seed)
    header = ["id", "floor_area_m2", "floors", "year_built", "climate", "occupancy", "value"]
    with tempfile.TemporaryDirectory() as tmp:
        gold, dev = Path(tmp) / "gold.csv", Path(tmp) / "dev_gold.csv"
        write_csv(gold, header, buildings(rng, args.count, 1))
        write_csv(dev, header, buildings(rng, DEV, args.count + 1))
        if out.exists():
            import shutil
            shutil.rmtree(out)
        # new writes the folder's own path into competition.yaml's comments: the project-relative one
        shown = os.path.relpath(out, ROOT) if str(out).startswith(str(ROOT)) else str(out)
        from organizer import new

        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            # energy use is never negative, and errors of ratios suit it: this organizer asks for RMSLE
            code = new.main(["regression", str(gold), shown, "--title", TITLE, "--dev-gold", str(dev),
                             "--option", "rmsle=true", "--no-check"] + DATES)
        finally:
            os.chdir(cwd)
    print("wrote %d buildings (and %d in the kit's dev set) into %s" % (args.count, DEV, out))
    return code


def _text(path):
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


if __name__ == "__main__":
    main()
