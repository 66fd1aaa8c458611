#!/usr/bin/env python3
"""Check a submission file's format before uploading it: every problem, not just the first.

    python3 validate.py SUBMISSION [--public FOLDER] [--config CONFIG.yaml]

SUBMISSION is your prediction file (or the zip you will upload). It is checked
against the public test inputs of this starting kit (for the bank task,
test_public.csv: its ids and the length of each text), never against answers.
Every problem is printed with its file line; the exit code is 1 if there is
any, 0 if the file is ready to upload. Needs Python 3 with numpy, pandas and
PyYAML (the versions in the competition's requirements).
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def find_engine():
    """The scoring program's folder: shipped inside the kit, or beside it in the organizers' repository."""
    for folder in (os.path.join(HERE, "scoring_program"), os.path.join(HERE, os.pardir, "scoring_program")):
        if os.path.isfile(os.path.join(folder, "scorer", "__init__.py")):
            folder = os.path.abspath(folder)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            return folder
    sys.exit("cannot find the scoring program (scoring_program/ beside this script)")


def find_config():
    """The task configuration: kit_config.yaml (in the kit), else the competition's first board config."""
    candidates = [os.path.join(HERE, "kit_config.yaml")]
    candidates += sorted(glob.glob(os.path.join(HERE, os.pardir, "reference_data", "board_*.yaml")))
    candidates.append(os.path.join(HERE, "dev", "config.yaml"))
    for path in candidates:
        if os.path.isfile(path):
            return path
    return None


def read_config(path):
    import yaml

    with open(path, "rb") as fh:
        return yaml.safe_load(fh.read().decode("utf-8-sig"))


def _utf8_output():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8", errors="replace")
        except (AttributeError, ValueError):
            pass


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission", help="your prediction file, or the zip you will upload")
    parser.add_argument("--public", default=HERE, help="folder of the public test inputs (default: this kit)")
    parser.add_argument("--config", help="task configuration (default: kit_config.yaml)")
    args = parser.parse_args(argv)
    _utf8_output()
    find_engine()
    from scorer import i18n
    from scorer.public_check import check

    config = args.config or find_config()
    if config is None or not os.path.isfile(config):
        print(i18n.text("no_config", "en", name=config or "kit_config.yaml"))
        return 2
    result = check(args.submission, args.public, read_config(config))
    name = os.path.basename(args.submission)
    if result.fatal:
        for problem in result.problems:
            print(problem)
        return 2
    if not result.problems:
        print(i18n.text("ok", result.language, file=name, n=result.units))
        return 0
    print(i18n.text("found", result.language, file=name, n=len(result.problems)))
    for problem in result.problems:
        print("  - " + problem)
    return 1


if __name__ == "__main__":
    sys.exit(main())
