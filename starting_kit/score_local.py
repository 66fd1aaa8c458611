#!/usr/bin/env python3
"""Score a prediction on the public dev data with gold, exactly as the platform scores the test set.

    python3 score_local.py PREDICTION [--dev dev] [--out local_scores]

PREDICTION is a file, folder or zip covering the dev items (dev/ holds their
gold and the same config.yaml the platform uses). The scores are printed and
written to OUT (scores.txt, scores.json, detailed_results.html). The exit code
is the scoring program's: 0 scored, 1 the prediction is wrong (one line says
where and how to fix it), 2 the dev data or its config is wrong.
"""
import argparse
import os
import shutil
import sys
import tempfile

from validate import HERE, _utf8_output, find_engine


def score(prediction, dev, out):
    find_engine()
    from scorer.cli import main as score_main

    with tempfile.TemporaryDirectory(prefix="score-local-") as tmp:
        ref = os.path.join(tmp, "input", "ref")
        res = os.path.join(tmp, "input", "res")
        shutil.copytree(dev, ref)
        if os.path.isdir(prediction):
            shutil.copytree(prediction, res)
        else:
            os.makedirs(res)
            shutil.copy(prediction, os.path.join(res, os.path.basename(prediction)))
        return score_main([os.path.join(tmp, "input"), out])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prediction", help="prediction for the dev items (file, folder or zip)")
    parser.add_argument("--dev", default=os.path.join(HERE, "dev"), help="dev folder: gold + config.yaml")
    parser.add_argument("--out", default="local_scores", help="where to write the scores (default: local_scores)")
    args = parser.parse_args(argv)
    _utf8_output()
    if not os.path.isfile(os.path.join(args.dev, "config.yaml")):
        print("no dev data with gold in %s (it needs config.yaml); this competition may not ship any." % args.dev)
        return 2
    return score(os.path.abspath(args.prediction), os.path.abspath(args.dev), os.path.abspath(args.out))


if __name__ == "__main__":
    sys.exit(main())
