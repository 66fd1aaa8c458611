#!/usr/bin/env python3
"""Score a prediction on the public dev data with gold, exactly as the platform scores the test set.

    python3 score_local.py PREDICTION [--dev dev] [--out local_scores]

PREDICTION is a file, folder or zip covering the dev items (dev/ holds their
gold and the same configuration the platform uses). The scores are printed and
written to OUT (scores.txt, scores.json, detailed_results.html: open the last
one in a browser). The exit code is the scoring program's: 0 scored, 1 the
prediction is wrong (one line says where and how to fix it), 2 the dev data
or its configuration is missing or wrong. Needs Python 3.9+ with numpy, pandas
and PyYAML: python3 -m pip install -r requirements.txt
"""
import argparse
import os
import sys

from validate import HERE, emit, find_config, find_engine, read_config, require_packages, utf8_output


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prediction", help="prediction for the dev items (file, folder or zip)")
    parser.add_argument("--dev", default=os.path.join(HERE, "dev"), help="dev folder: gold + config.yaml")
    parser.add_argument("--out", default="local_scores", help="where to write the scores (default: local_scores)")
    args = parser.parse_args(argv)
    utf8_output()
    require_packages("score_local.py")
    find_engine()
    from scorer.public import kit

    config = find_config()
    run = kit.score_dev(os.path.abspath(args.prediction), os.path.abspath(args.dev), os.path.abspath(args.out),
                    public_dir=HERE, raw_config=read_config(config) if config else None)
    if run.lines:
        emit("\n".join(run.lines))
    if run.error:
        emit(run.error, sys.stderr)
    return run.code


if __name__ == "__main__":
    sys.exit(main())
