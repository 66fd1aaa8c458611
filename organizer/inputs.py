"""What every organizer command does with what it is given: one line for a mistake, no link followed, no special
file opened, nothing half-written.

- ``OrganizerError``: the organizer's input is wrong. ``python3 -m organizer``
  prints its one line (what, where, how to fix) and exits with ``INPUT_ERROR``
  (2). A linter that finds errors exits 1; a bug of ours exits 3 with one line,
  its traceback kept in a file the line names (organizer/__main__.py).
- ``Parser``: argparse whose own errors (a missing argument, a bad value) are
  one line too, not the usage block.
- ``regular_file`` and ``read_bytes``: a path given on the command line may be
  a link to a regular file; a FIFO, a device, a socket or a folder is refused
  before it is opened (opening a FIFO would wait for a writer forever).
- ``entries`` walks a folder without following any link inside it: a link is
  reported, so that nothing outside the folder given is read as if it were in it.
- ``new_folder`` makes an output folder in one step: everything is written into
  a sibling temporary folder that is renamed into place only when the command
  succeeds, and removed otherwise.
"""
import argparse
import os
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

INPUT_ERROR = 2
KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
         (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


class OrganizerError(Exception):
    """An organizer's input is wrong: ``str(error)`` is one line saying what, where and how to fix it."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2), as every other mistake of the organizer's."""

    def error(self, message):
        self.exit(INPUT_ERROR, "%s: %s (see %s -h)\n" % (self.prog, message, self.prog))


def kind_of(path):
    """None for a regular file (a link to one included), else what ``path`` is, in words."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return "unreadable (%s)" % (exc.strerror or exc)
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in KINDS if test(mode)), "not a regular file")


def refused(path, fix):
    """Why the entry ``path`` of a folder of submissions is not read, or '': a symbolic link (never followed, so
    nothing outside the folder is read as if it were in it), a special file (never opened: a FIFO would wait for a
    writer forever), or a folder holding one of those. ``fix`` ends the line."""
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return cannot_read(path, exc)
    if stat.S_ISLNK(mode):
        return "%s is a symbolic link; %s" % (path.name, fix)
    if stat.S_ISDIR(mode):
        problems = entries(path)[1]
        return "%s: %s; put only regular files in a submission" % (path.name, problems[0]) if problems else ""
    if not stat.S_ISREG(mode):
        return "%s is %s, not a regular file; %s" % (path.name, next((w for t, w in KINDS if t(mode)),
                                                                      "not a regular file"), fix)
    return ""


def cannot_read(path, error):
    """The line of an entry ``path`` that cannot be read (``error``: the OSError), naming the file inside a folder.

    >>> cannot_read(Path("subs/team"), PermissionError(13, "Permission denied", "subs/team/a.csv"))
    'team: a.csv cannot be read (Permission denied)'
    """
    path, name = Path(path), Path(path).name
    inner = Path(error.filename) if isinstance(getattr(error, "filename", None), str) else None
    if inner is not None and inner != path and path in inner.parents:
        name = "%s: %s" % (path.name, inner.relative_to(path).as_posix())
    return "%s cannot be read (%s)" % (name, error.strerror or type(error).__name__)


def regular_file(path, what):
    """``path`` as a Path when it is a regular file (or a link to one); OrganizerError otherwise."""
    kind = kind_of(path)
    if kind == "missing":
        raise OrganizerError("%s %s does not exist" % (what, path))
    if kind is not None:
        raise OrganizerError("%s %s is %s, not a regular file; give the file itself" % (what, path, kind))
    return Path(path)


def read_bytes(path, what):
    """The bytes of a regular file given on the command line (OrganizerError for anything else)."""
    try:
        return regular_file(path, what).read_bytes()
    except OSError as exc:
        raise OrganizerError("%s %s cannot be read (%s)" % (what, path, exc.strerror or exc))


def existing_folder(path, what):
    """``path`` as a Path when it is a folder (OrganizerError otherwise)."""
    if not os.path.isdir(path):
        raise OrganizerError("%s %s %s" % (what, path, "is not a folder" if os.path.exists(path) else
                                            "does not exist"))
    return Path(path)


def competition_yaml(competition):
    """The path of ``competition``'s competition.yaml (OrganizerError when the folder or the file is missing)."""
    path = existing_folder(competition, "the competition folder") / "competition.yaml"
    if not path.is_file():
        raise OrganizerError("the competition folder %s has no competition.yaml; give the folder that holds "
                             "competition.yaml, pages/, reference_data/ and starting_kit/" % competition)
    return path


def entries(folder):
    """(regular files, problems) below ``folder``, links not followed: each problem names a link or a special
    file (relative to ``folder``) and says why it is not read."""
    folder = Path(folder)
    files, problems = [], []
    for root, dirs, names in os.walk(folder, followlinks=False):
        base = Path(root)
        for name in sorted(dirs):
            if (base / name).is_symlink():
                problems.append("%s is a symbolic link" % (base / name).relative_to(folder))
        for name in sorted(names):
            path = base / name
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                problems.append("%s is a symbolic link" % path.relative_to(folder))
            elif not stat.S_ISREG(mode):
                problems.append("%s is %s" % (path.relative_to(folder),
                                              next((w for t, w in KINDS if t(mode)), "not a regular file")))
            else:
                files.append(path)
    return sorted(files), problems


@contextmanager
def new_folder(out, what="the output folder", allow_existing=False):
    """Yield a temporary sibling of ``out`` to write into; on success it replaces ``out``, on failure it is removed.

    ``out`` must not exist, or (``allow_existing``) be a folder, which is replaced: an output file path or a
    folder the organizer did not mean is refused before anything is written.
    """
    out = Path(out)
    if out.exists() or out.is_symlink():
        if not out.is_dir() or out.is_symlink():
            raise OrganizerError("%s %s exists and is not a folder; give a new folder's path" % (what, out))
        if not allow_existing and any(out.iterdir()):
            raise OrganizerError("%s %s is not empty; give a new or empty folder" % (what, out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".%s-" % out.name, dir=str(out.parent)))
    except OSError as exc:
        raise OrganizerError("%s %s cannot be written (%s)" % (what, out, exc.strerror or exc))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)


def write_file(path, data, what="the output file"):
    """Write ``data`` to ``path`` through a temporary sibling, so that a failure leaves no half-written file."""
    path = Path(path)
    if path.is_dir():
        raise OrganizerError("%s %s is a folder; give a file's path" % (what, path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".%s-" % path.name, dir=str(path.parent))
    except OSError as exc:
        raise OrganizerError("%s %s cannot be written (%s)" % (what, path, exc.strerror or exc))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def fail(message):
    """Print ``message`` as the command's one line and return the input-error exit code."""
    print(message, file=sys.stderr)
    return INPUT_ERROR


def seed(text):
    """An argparse type: a seed numpy's generators take (an integer from 0 to 2**32 - 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    if not 0 <= value < 2 ** 32:
        raise argparse.ArgumentTypeError("%s is not between 0 and %d" % (text, 2 ** 32 - 1))
    return value


def share(text):
    """An argparse type: a share strictly between 0 and 1 (a board's part of the units)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError("%s is not strictly between 0 and 1" % text)
    return value
