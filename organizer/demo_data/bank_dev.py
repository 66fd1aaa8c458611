"""Generate the bank demo's public dev set (with gold) for the starting kit.

    python3 -m organizer demo bank_dev [--docs 300] [--seed 1709] [--out starting_kit/dev]

Same generator as the test set (tools/demo_data/bank_comments.py) with another
seed, so participants can score themselves locally; ids are ``dev0000``...
so they can never be mistaken for test ids. Writes gold.csv (id,text,BIO_anno,
class), sample_prediction.csv (a damaged copy, like the test sample) and
config.yaml (task options as on the platform, board all).
"""
import sys

from ._files import demo_arguments
from .bank_comments import generate, write_csv

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
    args = demo_arguments(__doc__, "docs", 300, 1709, "starting_kit/dev", argv)
    make_dev(args.out, args.count, args.seed)
    print("wrote %d dev comments into %s" % (args.count, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
