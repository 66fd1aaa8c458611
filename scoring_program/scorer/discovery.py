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
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Dict, List, Optional

from .errors import SubmissionError, clip
from .problems import Message, Reason

IGNORED_NAMES = {"metadata", "metadata.yaml", "metadata.yml", ".ds_store", "thumbs.db", "desktop.ini"}
IGNORED_DIRS = {"__macosx", ".git", ".ipynb_checkpoints"}


NO_FOLDER = Message("files.no_folder", "no submission folder was found (expected {path}); upload a zip that contains "
                    "your prediction file.", "找不到提交目录（应为 {path}）；请上传包含预测文件的 zip。")
NONE_MATCH = Message("files.none_match", "the submission has no file matching {patterns} (found: {names}); put your "
                     "prediction file at the top of the zip.",
                     "提交中没有与 {patterns} 匹配的文件（找到：{names}）；请把预测文件放在 zip 的最上层。")
NONE_OF = Message("files.none_of", "the submission has no file matching any of {patterns} (found: {names}); put "
                  "your prediction file(s) at the top of the zip.",
                  "提交中没有与 {patterns} 中任何一个匹配的文件（找到：{names}）；请把预测文件放在 zip 的最上层。")
NO_FILES = Message("files.no_files", "no files at all", "没有任何文件")
SEVERAL_MATCH = Message("files.several_match", "the submission has {n} files matching '{pattern}' ({names}); upload "
                        "exactly one.", "提交中有 {n} 个文件与 '{pattern}' 匹配（{names}）；只能上传一个。")
UNREADABLE_FOLDER = Message("files.unreadable_folder", "the folder {name} of the submission cannot be read ({reason}); "
                            "upload a plain zip of your prediction file.",
                            "无法读取提交中的目录 {name}（{reason}）；请上传只含预测文件的普通 zip。")
TOO_DEEP = Message("files.too_deep", "the submission has folders nested more than {depth} deep ({name}); put your "
                   "prediction file at the top of the zip.",
                   "提交中的目录嵌套超过 {depth} 层（{name}）；请把预测文件放在 zip 的最上层。")
NOT_REGULAR = Message("files.not_regular", "the submission holds {name}, {kind}, which is not a regular file; upload "
                      "only your prediction file(s).", "提交中的 {name} 是{kind}，不是普通文件；请只上传预测文件。")
SYMBOLIC_LINK = Message("files.kind_link", "a symbolic link", "符号链接")
SPECIAL_FILE = Message("files.kind_special", "a special file (FIFO, socket or device)", "特殊文件（FIFO、套接字或设备）")
UNREADABLE_ENTRY = Message("files.kind_unreadable", "an unreadable entry", "无法读取的条目")
TOO_MANY_ENTRIES = Message("zip.too_many_entries", "{name} holds {n} entries; a submission needs only its prediction "
                           "file(s): zip just those.", "{name} 含有 {n} 个条目；提交只需要预测文件：请只压缩这些文件。")
_REZIP_EN = "zip your prediction file again with a standard tool (deflate, no password) or upload the file itself"
_REZIP_ZH = "请用常规工具（deflate 压缩，不加密码）重新压缩预测文件，或直接上传该文件"
BAD_ZIP = Message("zip.unreadable", "{name} is not a readable zip file ({reason}); " + _REZIP_EN + ".",
                  "{name} 不是可读取的 zip 文件（{reason}）；" + _REZIP_ZH + "。")
BAD_MEMBER = Message("zip.bad_member", "{name} cannot be read from the zip ({reason}); " + _REZIP_EN + ".",
                     "无法从 zip 中读取 {name}（{reason}）；" + _REZIP_ZH + "。")
ENCRYPTED = Message("zip.encrypted", "{name} is encrypted; zip it again without a password.",
                    "{name} 已加密；请不加密码重新压缩。")
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
            raise SubmissionError(UNREADABLE_FOLDER(name=clip(_rel(folder, res_dir) or "res", 80),
                                                    reason=Reason(exc, exc.strerror or "", named=False)))
        for entry in entries:
            rel = _rel(entry.path, res_dir)
            if _ignored(rel):
                continue
            kind = _kind(entry)
            if kind == "folder":
                if entry.name.lower() in IGNORED_DIRS:
                    continue
                if depth + 1 > MAX_DEPTH:
                    raise SubmissionError(TOO_DEEP(depth=MAX_DEPTH, name=clip(rel, 80)))
                pending.append((entry.path, depth + 1))
            elif kind != "file":
                raise SubmissionError(NOT_REGULAR(name=clip(rel, 80), kind=kind()))
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
    """``folder``, ``file``, or the Message naming what else it is (never following a link)."""
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return UNREADABLE_ENTRY
    if stat.S_ISLNK(mode):
        return SYMBOLIC_LINK
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    return SPECIAL_FILE


def _extracted_beside(folder, name):
    """True for ``x.zip`` when the folder ``x`` sits beside it: the CodaLab v1 worker already extracted it."""
    stem, ext = os.path.splitext(name)
    return ext.lower() == ".zip" and os.path.isdir(os.path.join(folder, stem))


def _reader(path):
    def read():
        with open(path, "rb") as fh:
            return fh.read()

    return read


def _zip_errors(zipfile):
    """Everything zipfile raises on a damaged, encrypted or exotic archive: the participant's upload, not our bug.

    zipfile (and the compression modules it loads) is imported only for an uploaded archive.
    """
    return (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, UnicodeDecodeError,
            NotImplementedError, RuntimeError, zlib.error, OverflowError, struct.error, IndexError, KeyError)


def _zip_members(path, rel):
    count = zip_entry_count(path)
    if count is not None and count > MAX_ZIP_ENTRIES:
        raise SubmissionError(TOO_MANY_ENTRIES(name=clip(rel, 80), n=count))
    import zipfile
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except _zip_errors(zipfile) as exc:
        raise SubmissionError(BAD_ZIP(name=clip(rel, 80), reason=Reason(exc)))
    if len(infos) > MAX_ZIP_ENTRIES:
        raise SubmissionError(TOO_MANY_ENTRIES(name=clip(rel, 80), n=len(infos)))
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
            raise SubmissionError(ENCRYPTED(name=clip(name, 80)))
        import zipfile
        try:
            with zipfile.ZipFile(path) as archive:
                return archive.read(info)
        except _zip_errors(zipfile) as exc:
            raise SubmissionError(BAD_MEMBER(name=clip(name, 80), reason=Reason(exc)))

    return read



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
        raise SubmissionError(NO_FOLDER(path=res_dir))
    files = list_files(res_dir)
    chosen: Dict[str, Optional[SubmittedFile]] = {}
    for slot, pattern in slots.items():
        matches = [f for f in files if fnmatch.fnmatch(f.basename.lower(), pattern.lower())]
        if len(matches) > 1:
            raise SubmissionError(SEVERAL_MATCH(n=len(matches), pattern=pattern, names=_names(matches)))
        chosen[slot] = matches[0] if matches else None
    missing = [s for s in required if chosen.get(s) is None]
    seen = _names(files) if files else NO_FILES()
    if missing:
        raise SubmissionError(NONE_MATCH(patterns=" + ".join("'%s'" % slots[s] for s in missing), names=seen))
    if required == [] and all(v is None for v in chosen.values()):
        raise SubmissionError(NONE_OF(patterns=" / ".join("'%s'" % p for p in slots.values()), names=seen))
    return chosen


def _names(files: List[SubmittedFile], limit=5):
    shown = ", ".join(clip(f.name, 80) for f in files[:limit])
    return shown + (", ..." if len(files) > limit else "")
