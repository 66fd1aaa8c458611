"""Which program, config and reference data scored a run: SHA-256 digests.

The page's footer shows short prefixes of the program's and the config's
digests (nothing of the gold); the full digests, with one per reference file,
go to the organizer only (``OUTPUT/private/provenance.json``, where the
platform hides that folder). After fixing the data or the program, an
organizer can tell which version scored which submission.

The program's digest covers every file of the program folder (score.py,
metadata, scorer/) by relative name and content, skipping what the bundle
skips (caches, compiled files), so the same program gives the same digest
from the project, a bundle or the Docker image.

>>> len(program_digest()) == 64 and short("ab" * 32) == "abababababab"
True
"""
import hashlib
import json
import os

SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ipynb_checkpoints", ".git", "__MACOSX"}
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
SKIP_SUFFIXES = (".pyc", ".pyo")
SHORT = 12
PROGRAM_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # scoring_program/


def _files(root):
    """Every file below ``root`` (relative posix names, sorted), without caches."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in names:
            if name in SKIP_NAMES or name.endswith(SKIP_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                found.append(os.path.relpath(path, root).replace(os.sep, "/"))
    return sorted(found)


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tree_digest(root):
    """One digest of a folder: the names and digests of its files, in order."""
    digest = hashlib.sha256()
    for name in _files(root):
        digest.update(name.encode("utf-8") + b"\0" + file_digest(os.path.join(root, name)).encode("ascii") + b"\n")
    return digest.hexdigest()


def program_digest(root=PROGRAM_DIR):
    """``tree_digest`` of the program folder, computed once in a process while its files keep their names, sizes and
    modification times (a process that scores many submissions, the organizer's re-scoring, asks at each)."""
    stamp = tuple((name, os.stat(os.path.join(root, name)).st_size, os.stat(os.path.join(root, name)).st_mtime_ns)
                  for name in _files(root))
    if _PROGRAM.get(root, (None,))[0] != stamp:
        _PROGRAM[root] = (stamp, tree_digest(root))
    return _PROGRAM[root][1]


_PROGRAM = {}


def tree_digests(root):
    """{relative name: digest} of every file below ``root``."""
    return {name: file_digest(os.path.join(root, name)) for name in _files(root)}


def short(digest):
    return digest[:SHORT]


def record(program, config, ref_dir, answers_dir=None):
    """The organizer's provenance record of a run, as JSON text: the digests of the program and of the config, one
    for each reference file (and each answer file when they are read from a folder of the scoring image,
    ``answers_dir``)."""
    found = {"program_sha256": program, "config_sha256": config,
             "reference_sha256": tree_digests(ref_dir)}
    if answers_dir is not None:
        found["answers_sha256"] = tree_digests(answers_dir)
    return json.dumps(found, indent=1, sort_keys=True) + "\n"
