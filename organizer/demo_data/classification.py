"""Generate the classification demo: product reviews rated on a five-point scale (all invented, seeded).

    python3 -m organizer demo classification [--reviews 4000] [--seed 2026] [--out examples/classification]

Writes the gold (``id,label`` with each review's text), labels.txt (the five
ratings, lowest first, the order given to ``ordinal_order``: the scale of the
quadratic-weighted kappa) and a dev set, then makes the whole competition from them with ``python3 -m
organizer new classification`` (pages, competition.yaml, the seeded board
split, the starting kit with its public inputs and baseline sample
submission), with fixed dates, so the same seed always writes the same bytes.
Texts are assembled from phrases tied to the ratings, with some phrases of a
neighbouring rating, so the task can be learned but not perfectly.
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from ._files import ROOT, demo_arguments, write_csv

RATINGS = {
    "terrible": ["broke after two days", "a complete waste of money", "the worst purchase I have made",
                 "returned it at once"],
    "poor": ["does not work as described", "cheaply made", "disappointing for the price", "the battery dies fast"],
    "okay": ["it does the job", "nothing special", "average quality", "fine for occasional use"],
    "good": ["works well", "solid value", "happy with it", "arrived quickly and works"],
    "excellent": ["absolutely love it", "the best I have owned", "exceeded every expectation",
                  "would buy it again tomorrow"],
}
PRODUCTS = ["kettle", "headphones", "desk lamp", "backpack", "phone case", "blender", "keyboard", "water bottle"]
SHARE = [0.08, 0.14, 0.2, 0.33, 0.25]   # more happy reviews than unhappy ones, as in real shops
TITLE = "Product review ratings: five-point sentiment (demo)"
DEV_SHARE = 0.125   # reviews of the dev set, beyond the test set's


def make_reviews(n, rng, first=1, prefix="r"):
    """(ids, texts, rating codes) of n reviews."""
    names = list(RATINGS)
    codes = rng.choice(len(names), size=n, p=SHARE)
    ids, texts = [], []
    for k, c in enumerate(codes):
        product = str(rng.choice(PRODUCTS))
        own = [str(p) for p in rng.choice(RATINGS[names[c]], size=2, replace=False)]
        if rng.random() < 0.3:   # a phrase of a neighbouring rating: the ambiguity of real reviews
            other = int(np.clip(c + rng.choice([-1, 1]), 0, len(names) - 1))
            own[1] = str(rng.choice(RATINGS[names[other]]))
        text = "The %s: %s, %s." % (product, own[0], own[1])
        if rng.random() < 0.25:   # some reviewers name their rating, which the baseline reads
            text += " I would call it %s." % names[c]
        ids.append("%s%05d" % (prefix, first + k))
        texts.append(text)
    return ids, texts, codes


def write_inputs(folder, n, seed):
    """gold.csv, dev.csv and labels.txt of the demo in ``folder``."""
    rng = np.random.default_rng(seed)
    names = list(RATINGS)
    folder = Path(folder)
    (folder / "labels.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    for name, count, prefix in (("gold.csv", n, "r"), ("dev.csv", max(1, int(n * DEV_SHARE)), "d")):
        ids, texts, codes = make_reviews(count, rng, prefix=prefix)
        write_csv(folder / name, ["id", "text", "label"], [[i, t, names[c]] for i, t, c in zip(ids, texts, codes)])


def generate(out, n, seed):
    """The competition folder ``out``, made by ``organizer new`` from the generated files."""
    from organizer import new

    out = Path(out).resolve()
    shown = os.path.relpath(out, ROOT) if str(out).startswith(str(ROOT) + os.sep) else str(out)
    with tempfile.TemporaryDirectory() as tmp:
        write_inputs(tmp, n, seed)
        aside = Path(tmp) / "previous"
        if out.exists():
            shutil.move(str(out), str(aside))   # back in place if new fails
        here = os.getcwd()
        os.chdir(ROOT)   # the folder as competition.yaml's comment names it: relative to the project
        try:
            code = new.main(["classification", str(Path(tmp) / "gold.csv"), shown, "--title", TITLE,
                             "--labels", str(Path(tmp) / "labels.txt"), "--dev-gold", str(Path(tmp) / "dev.csv"),
                             "--start", "2026-11-02", "--final-start", "2027-02-01", "--end", "2027-03-01",
                             "--seed", "2024", "--option", "average=macro",
                             # ratings have an order: the quadratic-weighted kappa is scored on it
                             "--option", "ordinal_order=[%s]" % ",".join(RATINGS)])
        except BaseException:
            if aside.exists() and not out.exists():
                shutil.move(str(aside), str(out))
            raise
        finally:
            os.chdir(here)
    return code


def main(argv=None):
    args = demo_arguments(__doc__, "reviews", 4000, 2026, "examples/classification", argv)
    code = generate(args.out, args.count, args.seed)
    print("wrote %d reviews into %s" % (args.count, args.out))
    return code


if __name__ == "__main__":
    sys.exit(main())
