#!/usr/bin/env python3
"""Generate the bank demo's public dev set (with gold) for the starting kit.

    python3 tools/demo_data/bank_dev.py [--docs 300] [--seed 1709] [--out starting_kit/dev]

Same generator as the test set (tools/demo_data/bank_comments.py) with another
seed, so participants can score themselves locally; ids are ``dev0000``...
so they can never be mistaken for test ids. Writes gold.csv (id,text,BIO_anno,
class), sample_prediction.csv (a damaged copy, like the test sample) and
config.yaml (task options as on the platform, board all).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bank_comments import generate, write_csv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """# config.yaml of the dev data: the task and options of the competition, every item scored.
task: bank_comments
board: all
files: {gold: gold.csv, submission: "*.csv"}
primary_key: score
options:
  scheme: iob2
  ner_weight: 0.5
"""


def make_dev(out, docs=300, seed=1709):
    gold, _, sample = generate(docs, seed)
    name = ["dev%04d" % row[0] for row in gold]
    write_csv(out / "gold.csv", ["id", "text", "BIO_anno", "class"], [[n] + r[1:] for n, r in zip(name, gold)])
    write_csv(out / "sample_prediction.csv", ["id", "BIO_anno", "class"], [[n] + r[1:] for n, r in zip(name, sample)])
    (out / "config.yaml").write_text(CONFIG, encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1709)
    parser.add_argument("--out", default=str(ROOT / "starting_kit" / "dev"))
    args = parser.parse_args(argv)
    make_dev(Path(args.out), args.docs, args.seed)
    print("wrote %d dev comments into %s" % (args.docs, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
