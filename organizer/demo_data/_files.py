"""What the demo generators share: their arguments, and files written as UTF-8 with LF line ends.

The same seed then always gives the same bytes.
"""
import argparse
import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def demo_arguments(doc, units, count, seed, out, argv):
    """``--<units> N --seed S --out DIR`` with the generator's defaults; ``args.count`` is N."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--" + units, type=int, default=count, dest="count", help="how many %s" % units)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--out", type=Path, default=ROOT / out)
    return parser.parse_args(argv)


def write_csv(path, header, rows, sep=","):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=sep, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
