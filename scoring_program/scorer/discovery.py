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
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Callable, Dict, List, Optional

from .errors import SubmissionError, clip
from .problems import Message, Reason
from .textio import WORKBOOK_SUFFIXES

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
_SAVE_CSV_EN = ("in Excel: File > Save As > 'CSV UTF-8 (Comma delimited) (*.csv)' (LibreOffice: Save As > 'Text CSV'), "
                "then upload that file")
_SAVE_CSV_ZH = "在 Excel 中选择“文件 > 另存为 > CSV UTF-8（逗号分隔）(*.csv)”（LibreOffice：另存为“文本 CSV”），然后上传该文件"
SPREADSHEET = Message("files.spreadsheet", "the submission is a spreadsheet workbook ({name}), not a CSV file ({patterns} "
                      "expected); " + _SAVE_CSV_EN + ".",
                      "提交的是电子表格工作簿（{name}），不是 CSV 文件（应为 {patterns}）；" + _SAVE_CSV_ZH + "。")
SPREADSHEET_UNPACKED = Message("files.spreadsheet_unpacked", "the submission is an Excel workbook (an .xlsx is a zip, "
                               "and the platform unpacked it: found {names}), not a CSV file; " + _SAVE_CSV_EN + ".",
                               "提交的是 Excel 工作簿（.xlsx 本身是 zip，平台已将其解压：找到 {names}），不是 CSV 文件；"
                               + _SAVE_CSV_ZH + "。")
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
UNPACKS_PAST_DIRECTORY = Message(
    "zip.unpacks_past_directory", "{name} unpacks to more than the {declared} the zip's directory gives for it; the "
    "zip is damaged or forged: " + _REZIP_EN + ".",
    "{name} 解压后超过 zip 目录中记载的 {declared}；该 zip 已损坏或被篡改：" + _REZIP_ZH + "。")
UNPACKS_PAST_CAP = Message(
    "zip.unpacks_past_cap", "{name} unpacks to more than the {declared} the zip's directory gives for it, the size "
    "checked against this phase's cap of {cap}; the zip is damaged or forged: " + _REZIP_EN + ".",
    "{name} 解压后超过 zip 目录中记载的 {declared}，而本阶段 {cap} 的大小上限正是按该记载检查的；该 zip 已损坏或被篡改："
    + _REZIP_ZH + "。")
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

    def within(self, cap):
        """This file as read once the submission's total passed the size check against ``cap`` (bytes): a zip
        member that unpacks to more than its directory's size is refused by a message naming the cap."""
        capped = getattr(self.read_bytes, "capped", None)
        return self if capped is None else replace(self, read_bytes=capped(cap))


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
    lzma_error = (zipfile.lzma.LZMAError,) if zipfile.lzma is not None else ()
    return (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, UnicodeDecodeError,
            NotImplementedError, RuntimeError, zlib.error, OverflowError, struct.error, IndexError,
            KeyError) + lzma_error


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
        name = "%s/%s" % (rel, member)
        members.append(SubmittedFile(name, _MemberReader(path, name, info), info.file_size))
    return members


class _MemberReader:
    """Reads one member of a zip; refuses it as soon as it unpacks to more than its directory's size.

    The size check trusted that size (``SubmittedFile.size``), so a member that inflates past it would
    otherwise cost what it inflates to, whatever the cap (zipfile inflates up to 2 GiB in one step before it
    cuts the data to the directory's size). The member is unpacked here a megabyte at a time, and at most the
    directory's size is kept.
    """

    def __init__(self, path, name, info, cap=None):
        self.path, self.name, self.info, self.cap = path, name, info, cap

    def capped(self, cap):
        return _MemberReader(self.path, self.name, self.info, cap)

    def __call__(self):
        name = clip(self.name, 80)
        if self.info.flag_bits & 0x1:
            raise SubmissionError(ENCRYPTED(name=name))
        import zipfile
        try:
            data = _unpack(self.path, self.info, zipfile)
        except _zip_errors(zipfile) as exc:
            raise SubmissionError(BAD_MEMBER(name=name, reason=Reason(exc)))
        if data is None:
            declared = _size(self.info.file_size)
            if self.cap is None:
                raise SubmissionError(UNPACKS_PAST_DIRECTORY(name=name, declared=declared))
            raise SubmissionError(UNPACKS_PAST_CAP(name=name, declared=declared, cap=_size(self.cap)))
        return data


UNPACK_CHUNK = 1 << 20   # compressed bytes read, and unpacked bytes made, per step
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")   # a member's local header: 30 bytes before its name and extra field


def _unpack(path, info, zipfile):
    """The bytes of member ``info``, or None as soon as it unpacks to more than ``info.file_size``.

    Data that ends short of that size, or whose checksum differs from the directory's, is a damaged zip
    (BadZipFile, as zipfile says).
    """
    declared = info.file_size
    pieces, kept, crc = [], 0, 0
    for piece in _unpacked(path, info, zipfile):
        kept += len(piece)
        if kept > declared:
            return None
        crc = zlib.crc32(piece, crc)
        pieces.append(piece)
    if kept != declared or crc != info.CRC:
        raise zipfile.BadZipFile("Bad CRC-32 or size for file %r" % info.filename)
    return b"".join(pieces)


def _unpacked(path, info, zipfile):
    """The member's data in pieces of at most UNPACK_CHUNK bytes, however much a compressed byte unpacks to."""
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        header = fh.read(_LOCAL_HEADER.size)
        if len(header) != _LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile("Bad magic number for file header")
        fields = _LOCAL_HEADER.unpack(header)
        fh.seek(fields[-2] + fields[-1], os.SEEK_CUR)   # past the name and the extra field
        left = info.compress_size

        def compressed():
            nonlocal left
            data = fh.read(min(left, UNPACK_CHUNK)) if left > 0 else b""
            if left > 0 and not data:
                raise EOFError("the zip ends inside %r" % info.filename)
            left -= len(data)
            return data

        if info.compress_type == zipfile.ZIP_STORED:
            while left > 0:
                yield compressed()
            return
        unpacker = _decompressor(info.compress_type, zipfile)
        while not unpacker.eof:
            data = compressed() if unpacker.needs_input else b""
            piece = unpacker.decompress(data, UNPACK_CHUNK)   # at most a chunk: the input not used waits inside
            if not piece and not data and unpacker.needs_input:
                raise EOFError("the data of %r ends early" % info.filename)
            if piece:
                yield piece


def _decompressor(method, zipfile):
    """A decompressor of a zip method with ``decompress(data, max_length)``, ``eof`` and ``needs_input``."""
    if method == zipfile.ZIP_DEFLATED:
        return _Inflater()
    if method == zipfile.ZIP_BZIP2 and zipfile.bz2 is not None:
        return zipfile.bz2.BZ2Decompressor()
    if method == zipfile.ZIP_LZMA and zipfile.lzma is not None:
        return _ZipLzma(zipfile.lzma)
    raise NotImplementedError("That compression method is not supported")


class _Inflater:
    """zlib's raw inflater with the interface of bz2's and lzma's decompressors."""

    def __init__(self):
        self._z = zlib.decompressobj(-zlib.MAX_WBITS)

    @property
    def eof(self):
        return self._z.eof

    @property
    def needs_input(self):
        return not self._z.unconsumed_tail

    def decompress(self, data, max_length):
        return self._z.decompress(self._z.unconsumed_tail + data, max_length)


class _ZipLzma:
    """A zip member's LZMA data (method 14): a version (2 bytes), the properties' size (2), the LZMA1 properties
    (lc, lp and pb in one byte, then the dictionary size), then the raw LZMA1 stream."""

    def __init__(self, lzma):
        self._lzma_module, self._head, self._raw = lzma, b"", None

    @property
    def eof(self):
        return self._raw is not None and self._raw.eof

    @property
    def needs_input(self):
        return self._raw is None or self._raw.needs_input

    def decompress(self, data, max_length):
        if self._raw is None:
            self._head += data
            size = struct.unpack("<H", self._head[2:4])[0] if len(self._head) >= 4 else None
            if size is None or len(self._head) < 4 + size:
                return b""
            props, data = self._head[4:4 + size], self._head[4 + size:]
            if size != 5:
                raise ValueError("LZMA properties of %d bytes" % size)
            lc_lp_pb, dict_size = props[0], struct.unpack("<L", props[1:5])[0]
            lzma = self._lzma_module
            self._raw = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{
                "id": lzma.FILTER_LZMA1, "dict_size": dict_size, "lc": lc_lp_pb % 9, "lp": lc_lp_pb // 9 % 5,
                "pb": lc_lp_pb // 45}])
        return self._raw.decompress(data, max_length)


def _size(n):
    """A byte count for a message: bytes, KB or MB."""
    if n < 10 * 2 ** 10:
        return "%d B" % n
    return "%.1f KB" % (n / 2 ** 10) if n < 2 ** 20 else "%.1f MB" % (n / 2 ** 20)


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
    if missing or (required == [] and all(v is None for v in chosen.values())):
        _refuse_spreadsheet(files, slots, missing or list(slots))
    if missing:
        raise SubmissionError(NONE_MATCH(patterns=" + ".join("'%s'" % slots[s] for s in missing), names=seen))
    if required == [] and all(v is None for v in chosen.values()):
        raise SubmissionError(NONE_OF(patterns=" / ".join("'%s'" % p for p in slots.values()), names=seen))
    return chosen


def _refuse_spreadsheet(files, slots, missing):
    """No file matches: a spreadsheet workbook among what was uploaded (Excel's .xlsx as it is, or unpacked: an
    .xlsx is a zip, which CodaLab v1 extracts) is said for what it is, with how to save a CSV."""
    patterns = " + ".join("'%s'" % slots[s] for s in missing)
    workbooks = [f for f in files if f.basename.lower().endswith(WORKBOOK_SUFFIXES)]
    if workbooks:
        raise SubmissionError(SPREADSHEET(name=clip(workbooks[0].name, 80), patterns=patterns))
    parts = {PurePosixPath(f.name).parts[-1] for f in files} | {p for f in files for p in PurePosixPath(f.name).parts}
    if "[Content_Types].xml" in parts and ("xl" in parts or "workbook.xml" in parts):
        raise SubmissionError(SPREADSHEET_UNPACKED(names=_names(files, 3)))


def _names(files: List[SubmittedFile], limit=5):
    shown = ", ".join(clip(f.name, 80) for f in files[:limit])
    return shown + (", ..." if len(files) > limit else "")
