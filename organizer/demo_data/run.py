"""python3 -m organizer demo FAMILY [--seed S] [--out DIR] [...]: regenerate a demo competition's data.

FAMILY is bank_comments (the shipped competition), bank_dev (its starting kit's
dev set), view_sentiment, keywords, multilabel, emotion_cause, regression or classification (examples/), qa or
generation (their source files, which organizer new turns into a competition: tools/demo.sh).
The same seed always writes the same bytes.
"""
import importlib
import sys

GENERATORS = ("bank_comments", "bank_dev", "view_sentiment", "keywords", "multilabel", "emotion_cause",
              "regression", "classification", "qa", "generation")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in GENERATORS:
        print(__doc__.strip(), file=sys.stderr if argv else sys.stdout)
        return 2 if argv else 0
    return importlib.import_module("organizer.demo_data." + argv[0]).main(argv[1:]) or 0
