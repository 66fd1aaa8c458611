"""Finding the participant's file(s) in ``res/``.

Platforms hand us the upload in different shapes:

- CodaLab v1 unzips it as it is (a wrapping folder stays), then extracts each
  ``*.zip`` it finds at the top into a folder of the same name and keeps the
  zip (competitions-v1-compute-worker, worker.py, ``get_bundle``): such a zip
  is skipped here, its folder is read instead;
- Codabench unzips it (``extractall``), copies it into the prediction output,
  adds its own ``metadata`` file there and hands that folder to the scoring step
  (compute_worker.py, ``_run_program_directory`` and ``push_output``);
- macOS adds ``__MACOSX/`` and ``.DS_Store``; some participants zip a zip.

A *slot* is one file the task expects (for example ``submission``); its
pattern is a glob matched case-insensitively against file names.
"""
import fnmatch
import os
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Dict, List, Optional

from .errors import SubmissionError, clip

IGNORED_NAMES = {"metadata", "metadata.yaml", "metadata.yml", ".ds_store", "thumbs.db", "desktop.ini"}
IGNORED_DIRS = {"__macosx", ".git", ".ipynb_checkpoints"}


MAX_DEPTH = 32          # folders below res/; deeper is no upload a person makes
MAX_ZIP_ENTRIES = 10000  # entries of one zip; more is no prediction upload either


@dataclass(frozen=True)
class SubmittedFile:
    """One file of the submission, on disk or inside a zip; ``name`` is what messages show.

    ``size`` is its (uncompressed) size in bytes as the file system or the zip
    directory gives it, known before anything is read.
    """

    name: str
    read_bytes: Callable[[], bytes]
    size: int = 0

    @property
    def basename(self):
        return PurePosixPath(self.name).name


def _ignored(relpath):
    parts = PurePosixPath(relpath).parts
    if any(p.lower() in IGNORED_DIRS for p in parts[:-1]):
        return True
    base = parts[-1]
    return base.lower() in IGNORED_NAMES or base.startswith("._") or base.startswith("~$")


def list_files(res_dir):
    """Every candidate file below ``res_dir``, members of zip files included, sorted by name.

    Only regular files and folders are read: a symbolic link, a FIFO or a
    device is refused by name (following one could read the gold or hang).
    """
    found = []
    pending = [(res_dir, 0)]
    while pending:  # iterative: a deep tree cannot exhaust the interpreter's stack
        folder, depth = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise SubmissionError("the folder %s of the submission cannot be read (%s); upload a plain zip of your "
                                  "prediction file." % (_rel(folder, res_dir) or "res", exc.strerror))
        for entry in entries:
            rel = _rel(entry.path, res_dir)
            if _ignored(rel):
                continue
            kind = _kind(entry)
            if kind == "folder":
                if entry.name.lower() in IGNORED_DIRS:
                    continue
                if depth + 1 > MAX_DEPTH:
                    raise SubmissionError("the submission has folders nested more than %d deep (%s); put your "
                                          "prediction file at the top of the zip." % (MAX_DEPTH, clip(rel, 80)))
                pending.append((entry.path, depth + 1))
            elif kind != "file":
                raise SubmissionError("the submission holds %s, %s, which is not a regular file; upload only your "
                                      "prediction file(s)." % (clip(rel, 80), kind))
            elif _extracted_beside(folder, entry.name):
                continue
            elif entry.name.lower().endswith(".zip"):
                found.extend(_zip_members(entry.path, rel))
            else:
                found.append(SubmittedFile(rel, _reader(entry.path), entry.stat(follow_symlinks=False).st_size))
    return sorted(found, key=lambda f: f.name)


def _rel(path, root):
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return "" if rel == "." else rel


def _kind(entry):
    """``folder``, ``file``, or what else it is (never following a link)."""
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return "an unreadable entry"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    return "a special file (FIFO, socket or device)"


def _extracted_beside(folder, name):
    """True for ``x.zip`` when the folder ``x`` sits beside it: the CodaLab v1 worker already extracted it."""
    stem, ext = os.path.splitext(name)
    return ext.lower() == ".zip" and os.path.isdir(os.path.join(folder, stem))


def _reader(path):
    def read():
        with open(path, "rb") as fh:
            return fh.read()

    return read


# Everything zipfile raises on a damaged, encrypted or exotic archive: the participant's upload, not our bug.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, UnicodeDecodeError,
               NotImplementedError, RuntimeError, zlib.error, OverflowError, struct.error, IndexError, KeyError)
_REZIP = "zip your prediction file again with a standard tool (deflate, no password) or upload the file itself"


def _zip_members(path, rel):
    count = zip_entry_count(path)
    if count is not None and count > MAX_ZIP_ENTRIES:
        raise SubmissionError("%s holds %d entries; a submission needs only its prediction file(s): zip just those."
                              % (clip(rel, 80), count))
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except _ZIP_ERRORS as exc:
        raise SubmissionError("%s is not a readable zip file (%s); %s." % (clip(rel, 80), _reason(exc), _REZIP))
    if len(infos) > MAX_ZIP_ENTRIES:
        raise SubmissionError("%s holds %d entries; a submission needs only its prediction file(s): zip just those."
                              % (clip(rel, 80), len(infos)))
    members = []
    for info in sorted(infos, key=lambda i: i.filename):
        member = info.filename
        if member.endswith("/") or _ignored(member):
            continue
        members.append(SubmittedFile("%s/%s" % (rel, member), _member_reader(path, rel, info), info.file_size))
    return members


def _member_reader(path, rel, info):
    def read():
        name = "%s/%s" % (rel, info.filename)
        if info.flag_bits & 0x1:
            raise SubmissionError("%s is encrypted; zip it again without a password." % clip(name, 80))
        try:
            with zipfile.ZipFile(path) as archive:
                return archive.read(info)
        except _ZIP_ERRORS as exc:
            raise SubmissionError("%s cannot be read from the zip (%s); %s." % (clip(name, 80), _reason(exc), _REZIP))

    return read


def _reason(exc):
    text = " ".join(str(exc).split())[:80]
    return "%s: %s" % (type(exc).__name__, text) if text else type(exc).__name__


def zip_entry_count(path):
    """Entries of a zip as its end-of-central-directory record says, read without loading the directory.

    None when no such record is found (the file is then refused by zipfile itself).
    """
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            tail_size = min(size, 22 + 0xFFFF)
            fh.seek(size - tail_size)
            tail = fh.read(tail_size)
    except OSError:
        return None
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return None
    count = struct.unpack("<H", tail[at + 10:at + 12])[0]
    return None if count == 0xFFFF else count  # 0xFFFF: a ZIP64 directory, counted by zipfile itself


def find_files(res_dir, slots, required=None):
    """Match each slot's pattern against the submitted files.

    ``slots`` maps a slot name to a glob (``*.csv``); ``required`` lists the
    slots that must be present (default: all). Returns slot -> SubmittedFile or
    None. More than one match for a slot, or none for a required slot, is a
    SubmissionError that names what was found and what was expected.
    """
    required = list(slots) if required is None else list(required)
    if not os.path.isdir(res_dir):
        raise SubmissionError("no submission folder was found (expected %s); upload a zip that "
                              "contains your prediction file." % res_dir)
    files = list_files(res_dir)
    chosen: Dict[str, Optional[SubmittedFile]] = {}
    for slot, pattern in slots.items():
        matches = [f for f in files if fnmatch.fnmatch(f.basename.lower(), pattern.lower())]
        if len(matches) > 1:
            raise SubmissionError(
                "the submission has %d files matching '%s' (%s); upload exactly one."
                % (len(matches), pattern, _names(matches)))
        chosen[slot] = matches[0] if matches else None
    missing = [s for s in required if chosen.get(s) is None]
    if missing and len(required) > 0:
        expected = " and ".join("'%s'" % slots[s] for s in missing)
        seen = _names(files) if files else "no files at all"
        raise SubmissionError("the submission has no file matching %s (found: %s); put your "
                              "prediction file at the top of the zip." % (expected, seen))
    if required == [] and all(v is None for v in chosen.values()):
        expected = " or ".join("'%s'" % p for p in slots.values())
        seen = _names(files) if files else "no files at all"
        raise SubmissionError("the submission has no file matching %s (found: %s)." % (expected, seen))
    return chosen


def _names(files: List[SubmittedFile], limit=5):
    shown = ", ".join(clip(f.name, 80) for f in files[:limit])
    return shown + (", ..." if len(files) > limit else "")
