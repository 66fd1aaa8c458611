"""The entry point of a competition's private scoring image: it runs the scoring program, and nothing else.

python3 -m organizer image copies this file into the image as its ENTRYPOINT (``python3 -I guard.py``), beside
``guard.json`` (what it runs and for which program) and the scoring program; it uses the standard library and that
program's scorer/publish/provenance.py only.

Why. Codabench runs every command of a competition in the competition's one docker image: in the scoring step the
scoring program's, and in the prediction step of any submission the participant's own, when the upload holds a
``metadata`` file with a ``command`` (codabench c7dbc756 compute_worker/compute_worker.py
``Run._run_program_directory``: the upload mounted at /app/program, the command given as the container's command,
the worker naming no entrypoint of its own; docker-py splits the command with ``shlex.split``). This image holds every
board's answers, so it must never run a participant's code. The worker drops SETUID and SETGID and sets
no-new-privileges, so the container cannot switch to a user who could read what another cannot: the only defence
is to run nothing but our own program.

What. The worker's command reaches this guard as its arguments. It runs the image's own copy of the scoring
program when both hold:

- the arguments are exactly the scoring program's command as the worker gives it in the scoring step
  (``guard.json`` ``argv``: the program's metadata command with $program, $input and $output replaced, such as
  ``python3 /app/program/score.py /app/input /app/output``);
- /app/program holds exactly that scoring program: folders and regular files only (no link, no special file,
  nothing that a digest skips) whose tree digest (scorer/publish/provenance.py ``tree_digest``) is the one baked into
  the image when it was built (``guard.json`` ``digest``);
- this is the scoring step: /app/input is there (the worker mounts it in that step only). In the prediction step
  the same program and command can only be a participant's copy of the public scoring program.

It then runs the copy baked into the image (``guard.json`` ``run``), never a file of /app/program, so nothing can
change between the check and the run. Anything else runs nothing: one line on stderr saying that the competition
takes result files only, exit 1; a scoring step whose /app/program is another program (the organizer uploaded a
program the image was not built for) says so to the organizer, exit 2.

>>> refused_line("en").startswith("This competition takes result files only")
True
"""
import json
import os
import stat
import sys

# python3 -I ignores PYTHONDONTWRITEBYTECODE: importing the baked program's provenance module must not leave a
# __pycache__ beside it, which the image's own check would then find in the program it digests
sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = os.path.join(HERE, "guard.json")
MOUNTED_PROGRAM = "/app/program"   # where the worker mounts the program of the step (compute_worker.py)
MOUNTED_INPUT = "/app/input"       # mounted in the scoring step only (compute_worker.py: ``if self.is_scoring``)
PARTICIPANT, ORGANIZER = 1, 2

REFUSED = {
    "en": "This competition takes result files only: the command in your submission's metadata file was not run "
          "and nothing was scored from it. Submit a zip of your result files without a metadata file.",
    "zh": "本竞赛只接受结果文件：提交中 metadata 文件里的命令没有运行，也不会据此评分。请提交只含结果文件、不含 "
          "metadata 文件的 zip。",
}
OTHER_PROGRAM = ("scoring image: /app/program is not the scoring program this image was built for (digest {found}, "
                 "the image's {expected}); build the image again with python3 -m organizer image from the program "
                 "the competition uses, or upload that program")


def refused_line(language):
    """What a participant reads when the image runs nothing (in the competition's language)."""
    return REFUSED.get(language, REFUSED["en"])


def load_settings(path=SETTINGS):
    with open(path, "rb") as fh:
        return json.loads(fh.read().decode("utf-8"))


def provenance(settings):
    """The baked program's scorer/publish/provenance.py: the one definition of a program's digest."""
    if settings["program"] not in sys.path:
        sys.path.insert(0, settings["program"])
    from scorer.public import provenance as module
    return module


def exact_tree(root, skipped):
    """True when ``root`` is a real folder holding folders and regular files only, none of which a tree digest
    would skip (``skipped(name, is_dir)``): the digest then covers every byte there is."""
    try:
        if not stat.S_ISDIR(os.lstat(root).st_mode):
            return False
        pending = [root]
        while pending:
            with os.scandir(pending.pop()) as found:
                for entry in found:
                    mode = entry.stat(follow_symlinks=False).st_mode
                    if stat.S_ISDIR(mode) and not skipped(entry.name, True):
                        pending.append(entry.path)
                    elif not stat.S_ISREG(mode) or skipped(entry.name, False):
                        return False
    except OSError:
        return False
    return True


def program_digest(root, settings):
    """The tree digest of the program folder ``root``, or None when it is not exactly a tree of regular files."""
    module = provenance(settings)

    def skipped(name, is_dir):
        if is_dir:
            return name in module.SKIP_DIRS
        return name in module.SKIP_NAMES or name.endswith(module.SKIP_SUFFIXES)

    if not exact_tree(root, skipped):
        return None
    try:
        return module.tree_digest(root)
    except OSError:
        return None


def decide(argv, settings, program_dir=MOUNTED_PROGRAM, input_dir=MOUNTED_INPUT):
    """(exit code, line) when nothing is to run; None when the scoring program is to run."""
    if list(argv) != list(settings["argv"]):
        return PARTICIPANT, refused_line(settings.get("language", "en"))
    scoring_step = os.path.isdir(input_dir)   # the prediction step has no /app/input: our program is a
    found = program_digest(program_dir, settings)   # participant's copy there, and has nothing to score
    if found == settings["digest"] and scoring_step:
        return None
    if scoring_step and found is not None:
        # the scoring step of another program: the organizer uploaded a program the image was not built for
        return ORGANIZER, OTHER_PROGRAM.format(found=found[:12], expected=settings["digest"][:12])
    return PARTICIPANT, refused_line(settings.get("language", "en"))


def main(argv=None, settings_path=SETTINGS, program_dir=MOUNTED_PROGRAM, input_dir=MOUNTED_INPUT,
         execute=os.execv):
    argv = sys.argv[1:] if argv is None else argv
    try:
        settings = load_settings(settings_path)
        refusal = decide(argv, settings, program_dir, input_dir)
    except Exception as exc:   # a broken image: the organizer's to fix, said in one line
        print("scoring image: the guard cannot check the command (%s: %s)" % (type(exc).__name__, exc),
              file=sys.stderr)
        return ORGANIZER
    if refusal is not None:
        code, line = refusal
        print(line, file=sys.stderr)
        return code
    sys.stdout.flush()
    execute(sys.executable, [sys.executable] + list(settings["run"]))
    return 0   # only reached when ``execute`` returns (a test's stand-in for exec)


def check_image(settings_path=SETTINGS):
    """At build time: the baked program is the one of guard.json, its packages import, every answers folder is
    there. Prints one line; exit code 0 or 1."""
    settings = load_settings(settings_path)
    found = program_digest(settings["program"], settings)
    problems = []
    if found != settings["digest"]:
        problems.append("the program at %s has digest %s, not %s" % (settings["program"], found, settings["digest"]))
    for folder in settings["answers"]:
        if not os.path.isdir(folder):
            problems.append("no answers folder %s" % folder)
    versions = []
    for name in ("numpy", "pandas", "yaml"):
        try:
            versions.append("%s %s" % (name, __import__(name).__version__))
        except ImportError:
            problems.append("the base image's python3 has no %s (the scoring program needs numpy, pandas and PyYAML)"
                            % name)
    if problems:
        print("scoring image: " + "; ".join(problems), file=sys.stderr)
        return 1
    print("scoring image: program %s, %d answers folder(s), %s" % (found[:12], len(settings["answers"]),
                                                                   ", ".join(versions)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
