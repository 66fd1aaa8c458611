#!/usr/bin/env python3
"""Check a submission file's format before uploading it: every problem, not just the first.

    python3 validate.py SUBMISSION [--public FOLDER] [--config CONFIG.yaml]

SUBMISSION is your prediction file (or the zip you will upload). It is checked
against the public test inputs of this starting kit (their ids, and what the
task needs of them, such as the length of each text), never against answers.
Every problem is printed with its file line; problems met on many lines are
grouped. A file without problems may still get warnings: it is valid, but it
will score badly (rows missing, keywords joined by the wrong separator, the
same answer on every row, ...), each with how to fix it.

Exit code: 0 the file can be uploaded (warnings or not), 1 it has problems,
2 the check could not run. Needs Python 3.9+ with numpy, pandas and PyYAML:
python3 -m pip install -r requirements.txt
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = (("numpy", "numpy"), ("pandas", "pandas"), ("yaml", "PyYAML"))
# Said before the engine (which holds every other message) can be imported.
NEEDS = {
    "en": "{tool} cannot run, missing: {what}. Install what it needs with  python3 -m pip install -r "
          "requirements.txt  (in the starting kit).",
    "zh": "{tool} 无法运行，缺少：{what}。请在 starting kit 目录中用  python3 -m pip install -r requirements.txt  "
          "安装所需的包。",
}
NEEDS_PYTHON = {
    "en": "{tool} needs Python 3.9 or newer; this is Python {version}.",
    "zh": "{tool} 需要 Python 3.9 或更新的版本；当前是 Python {version}。",
}


def kit_language():
    """The competition's language from kit_config.yaml, read as plain text (PyYAML may be missing)."""
    try:
        with open(os.path.join(HERE, "kit_config.yaml"), encoding="utf-8-sig") as fh:
            found = re.search(r"^language:\s*['\"]?(en|zh)\b", fh.read(), re.MULTILINE)
    except OSError:
        return "en"
    return found.group(1) if found else "en"


def require_packages(tool):
    """Exit 2 with one line (no traceback) when Python is too old or a package cannot be imported."""
    lang = kit_language()
    if sys.version_info < (3, 9):
        sys.stderr.write(NEEDS_PYTHON[lang].format(tool=tool, version=sys.version.split()[0]) + "\n")
        sys.exit(2)
    missing = []
    for module, package in PACKAGES:
        try:
            __import__(module)
        except Exception as exc:  # ImportError, or a broken install that fails while importing
            missing.append(package if isinstance(exc, ImportError) else "%s (%s: %s)" % (
                package, type(exc).__name__, " ".join(str(exc).split())[:80]))
    if missing:
        what = ", ".join(missing) if lang == "en" else "、".join(missing)
        sys.stderr.write(NEEDS[lang].format(tool=tool, what=what) + "\n")
        sys.exit(2)


def find_engine():
    """The scoring program's folder: shipped inside the kit, or beside it in the organizers' copy."""
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


def emit(text, stream=None):
    """Print ``text``; when the reader has gone (``validate.py x | head``) the rest is dropped quietly, as other
    command-line tools do, and the exit code stays the check's."""
    stream = stream or sys.stdout
    try:
        stream.write(text + "\n")
        stream.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())   # Python's own flush at exit would fail on the closed pipe again


def utf8_output():
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
    utf8_output()
    require_packages("validate.py")
    find_engine()
    from scorer.public import kit

    config = args.config or find_config()
    if config is None or not os.path.isfile(config):
        print(kit.NO_CONFIG(name=config or "kit_config.yaml").text(kit_language()), file=sys.stderr)
        return 2
    result = kit.check(args.submission, args.public, read_config(config))
    lines, code = kit.report_lines(result, os.path.basename(os.path.normpath(args.submission)))
    emit("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
