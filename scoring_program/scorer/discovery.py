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
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Dict, List, Optional

from .errors import SubmissionError

IGNORED_NAMES = {"metadata", "metadata.yaml", "metadata.yml", ".ds_store", "thumbs.db", "desktop.ini"}
IGNORED_DIRS = {"__macosx", ".git", ".ipynb_checkpoints"}


@dataclass(frozen=True)
class SubmittedFile:
    """One file of the submission, on disk or inside a zip; ``name`` is what messages show."""

    name: str
    read_bytes: Callable[[], bytes]

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
    """Every candidate file below ``res_dir``, members of zip files included, sorted by name."""
    found = []
    for root, dirs, files in os.walk(res_dir):
        dirs[:] = sorted(d for d in dirs if d.lower() not in IGNORED_DIRS)
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, res_dir).replace(os.sep, "/")
            if _ignored(rel) or _extracted_beside(root, f):
                continue
            if f.lower().endswith(".zip"):
                found.extend(_zip_members(path, rel))
            else:
                found.append(SubmittedFile(rel, _reader(path)))
    return sorted(found, key=lambda f: f.name)


def _extracted_beside(folder, name):
    """True for ``x.zip`` when the folder ``x`` sits beside it: the CodaLab v1 worker already extracted it."""
    stem, ext = os.path.splitext(name)
    return ext.lower() == ".zip" and os.path.isdir(os.path.join(folder, stem))


def _reader(path):
    def read():
        with open(path, "rb") as fh:
            return fh.read()

    return read


def _zip_members(path, rel):
    try:
        archive = zipfile.ZipFile(path)
        names = archive.namelist()
    except (zipfile.BadZipFile, OSError):
        raise SubmissionError("%s is not a readable zip file; zip your prediction file again "
                              "(or upload the file itself)." % rel)
    members = []
    for member in sorted(names):
        if member.endswith("/") or _ignored(member):
            continue
        members.append(SubmittedFile("%s/%s" % (rel, member), _member_reader(path, member)))
    return members


def _member_reader(path, member):
    def read():
        with zipfile.ZipFile(path) as archive:
            return archive.read(member)

    return read


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
    shown = ", ".join(f.name for f in files[:limit])
    return shown + (", ..." if len(files) > limit else "")
