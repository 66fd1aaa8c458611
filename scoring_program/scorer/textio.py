"""Turning uploaded bytes into text and tables.

Participants export CSV from Excel on Chinese Windows (GBK/GB18030, sometimes
UTF-16 "Unicode text"), from pandas (UTF-8) or from Excel's "CSV UTF-8" (UTF-8
with a BOM). All of these are read correctly; anything else is refused with the
byte offset and line of the first undecodable byte.
"""
import codecs
import contextlib
import contextvars
import csv
import io
import re

from .bytelevel.lazy import pandas as pd
from .problems import Message

UTF8_OR_GB18030 = Message("text.utf8_or_gb18030", "UTF-8 or GB18030", "UTF-8 或 GB18030")

# json's own reasons (constant texts of its C and Python decoders), in the competition's language.
JSON_REASONS = {m.texts["en"]: m for m in (
    Message("json.value", "Expecting value", "此处应有一个值"),
    Message("json.name", "Expecting property name enclosed in double quotes", "此处应有用双引号括起的属性名"),
    Message("json.colon", "Expecting ':' delimiter", "此处应有冒号 :"),
    Message("json.comma", "Expecting ',' delimiter", "此处应有逗号 ,"),
    Message("json.extra", "Extra data", "JSON 值之后还有多余的内容"),
    Message("json.unterminated", "Unterminated string starting at", "字符串从此处开始却没有结束"),
    Message("json.control", "Invalid control character at", "字符串中有非法的控制字符"),
    Message("json.escape", "Invalid \\escape", "非法的 \\ 转义"),
    Message("json.u_escape", "Invalid \\uXXXX escape", "非法的 \\uXXXX 转义"),
    Message("json.trailing_object", "Illegal trailing comma before end of object", "对象结尾前多了一个逗号"),
    Message("json.trailing_array", "Illegal trailing comma before end of array", "数组结尾前多了一个逗号"),
)}

_SAVE_EN = "save the file as UTF-8 (in Excel: 'CSV UTF-8')"
_SAVE_ZH = "请将文件另存为 UTF-8（Excel 中选“CSV UTF-8”）"
UNDECODABLE = Message("text.undecodable", "{where}: byte {offset} of the line ({byte}) cannot be read as {codec} "
                      "text; " + _SAVE_EN + ".", "{where}：该行第 {offset} 个字节（{byte}）无法按 {codec} 读取；"
                      + _SAVE_ZH + "。")
DAMAGED_UTF8 = Message("text.damaged_utf8", "{where}: byte {offset} of the line ({byte}) cannot be read as UTF-8 text, "
                       "though the rest of the file is UTF-8; " + _SAVE_EN + ".",
                       "{where}：该行第 {offset} 个字节（{byte}）不是合法的 UTF-8，而文件其余部分都是 UTF-8；" + _SAVE_ZH + "。")
UTF32 = Message("text.utf32", "{file} is UTF-32 text; " + _SAVE_EN + ".", "{file} 是 UTF-32 文本；" + _SAVE_ZH + "。")
UTF16_NO_BOM = Message("text.utf16_no_bom", "{file} is UTF-16 text without a byte-order mark (Excel's 'Unicode "
                       "text'); " + _SAVE_EN + ".", "{file} 是没有字节顺序标记的 UTF-16 文本（Excel 的“Unicode 文本”）；"
                       + _SAVE_ZH + "。")
# the names a spreadsheet application gives its workbooks: a file so named is said to be one, by name
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".numbers")
WORKBOOK = Message("text.workbook", "{file} is a zip archive (an Excel workbook named .csv?), not a text file; in "
                   "Excel: File > Save As > 'CSV UTF-8 (Comma delimited) (*.csv)', then upload that file.",
                   "{file} 是 zip 压缩包（改名为 .csv 的 Excel 工作簿？），不是文本文件；请在 Excel 中选择“文件 > 另存为 > "
                   "CSV UTF-8（逗号分隔）(*.csv)”，然后上传该文件。")
NUL_BYTE = Message("text.nul_byte", "{where}: byte {offset} of the line is a NUL (0x00), which no text file holds; "
                   "remove it (the file may be binary or damaged) and save the file as UTF-8 text.",
                   "{where}：该行第 {offset} 个字节是 NUL（0x00），文本文件中不应出现；请删除它（文件可能是二进制文件或已损坏），"
                   "并另存为 UTF-8 文本。")
NUL_CHARACTER = Message("text.nul_character", "{file}: character {n} is a NUL (U+0000), which no text file holds; "
                        "remove it.", "{file}：第 {n} 个字符是 NUL（U+0000），文本文件中不应出现；请删除它。")
EMPTY_TABLE = Message("table.empty", "{file} is empty; it needs a header line and one line per test item.",
                      "{file} 为空；需要一行表头，每个测试样本一行。")
UNPARSABLE = Message("table.unparsable", "{file} cannot be read as a {sep}-separated table ({reason}); check quotes "
                     "and separators.", "{file} 无法按 {sep} 分隔的表格读取（{reason}）；请检查引号和分隔符。")

READ_AS = Message("text.read_as", "{problem} ({file} is not UTF-8, so it was read as {codec}; if its text looks "
                  "garbled here, save it as UTF-8.)", "{problem}（{file} 不是 UTF-8，因此按 {codec} 读取；如果这里的文字是"
                  "乱码，请将文件另存为 UTF-8。）")
READ_AS_NOTE = Message("text.read_as_note", "{file} is not UTF-8, so it was read as {codec}; if its text looks garbled "
                       "in the problems above, save it as UTF-8.", "{file} 不是 UTF-8，因此按 {codec} 读取；如果以上问题中"
                       "的文字是乱码，请将文件另存为 UTF-8。")
_GUESSED = contextvars.ContextVar("guessed_codecs", default=None)


@contextlib.contextmanager
def guesses():
    """Collects [(file, codec)] of the files this thread decodes with a guessed codec (no BOM, not UTF-8)."""
    found = []
    token = _GUESSED.set(found)
    try:
        yield found
    finally:
        _GUESSED.reset(token)


_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode(data, name, error):
    """Decode ``data`` (bytes) read from file ``name``; raise ``error`` (a class) if impossible.

    >>> decode("编号".encode("gb18030"), "a.csv", ValueError)
    '编号'
    """
    return decode_with_codec(data, name, error)[0]


def decode_with_codec(data, name, error):
    r"""(text, codec) of ``data``: the codec that read it, so UTF-8 bytes can be parsed as they are.

    The codec is never switched on a file that is mostly valid in the first one:
    a UTF-8 file with a few bad bytes is refused at the first of them, not read
    as GB18030 mojibake. NUL bytes are refused (outside UTF-16 with a BOM), as
    is UTF-16 without a BOM.

    >>> from scorer.errors import SubmissionError
    >>> decode_with_codec("id\u00e9,\u00e9\u00e9\n".encode() + b"\xff", "a.csv", SubmissionError)
    Traceback (most recent call last):
    ...
    scorer.errors.SubmissionError: a.csv line 2: byte 1 of the line (0xff) cannot be read as UTF-8 text, though the rest of the file is UTF-8; save the file as UTF-8 (in Excel: 'CSV UTF-8').
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise error(UTF32.at(name))
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                _raise_undecodable(data, exc.start, name, codec.upper(), error)
            if "\0" in text:
                raise error(NUL_CHARACTER.at(name, n=text.index("\0")))
            return text, codec
    nul = data.find(b"\0")
    if nul >= 0:
        _raise_nul(data, nul, name, error)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    escaped = data.decode("utf-8", "surrogateescape")
    bad = len(_ESCAPES.findall(escaped))
    good = len(_NON_ASCII.findall(escaped)) - bad
    if good > bad:  # mostly UTF-8: a few damaged bytes, not another encoding
        line, at = place_of(data, first_bad)
        raise error(DAMAGED_UTF8.at(name, line=line, offset=at, byte="0x%02x" % data[first_bad]))
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        _raise_undecodable(data, first_bad, name, UTF8_OR_GB18030, error)
    guessed = _GUESSED.get()
    if guessed is not None:
        guessed.append((name, "GB18030"))
    return text, "gb18030"


_ESCAPES = re.compile("[\udc80-\udcff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def plain_utf8(data):
    """True when ``data`` is UTF-8 text (a byte-order mark allowed) with no NUL: bytes the fast readers take as
    they are, where ``decode_with_codec`` would return them unchanged with codec utf-8 or utf-8-sig.

    The check decodes 64 KiB at a time and keeps nothing, so it costs no copy of the file.

    >>> plain_utf8("编号".encode()), plain_utf8("编号".encode("gb18030")), plain_utf8(bytes(2))
    (True, False, False)
    """
    if data.find(b"\0") >= 0:
        return False
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    step = 1 << 16  # each decoded piece stays in the heap, reused; a megabyte's string was mapped afresh each time
    try:
        for at in range(0, len(data), step):
            decoder.decode(view[at:at + step])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def utf8_bytes(data, text, codec):
    """UTF-8 bytes of a decoded file: the original bytes when they already are UTF-8."""
    return data if codec in ("utf-8", "utf-8-sig") else text.encode("utf-8")


def line_of(data, offset):
    """The 1-based line of byte ``offset`` in ``data``."""
    return data.count(b"\n", 0, offset) + 1


def place_of(data, offset):
    r"""(line, byte of that line), both from 1, of byte ``offset`` in ``data``: where an editor shows it.

    >>> place_of(b"id,x\nab\xff\n", 7)
    (2, 3)
    """
    return line_of(data, offset), offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def _raise_undecodable(data, offset, name, codec, error):
    line, at = place_of(data, offset)
    raise error(UNDECODABLE.at(name, line=line, offset=at, byte="0x%02x" % data[offset], codec=codec))


def _looks_utf16(head):
    r"""Two-byte text: NULs (the high bytes of ASCII characters) nearly all at odd, or all at even, offsets.

    >>> _looks_utf16("id,关键词\n".encode("utf-16-le")), _looks_utf16(b"id,a\x00b\n")
    (True, False)
    """
    nuls = [i for i, b in enumerate(head) if b == 0]
    odd = sum(i % 2 for i in nuls)
    return len(nuls) >= 2 and len(nuls) * 10 >= len(head) and max(odd, len(nuls) - odd) * 10 >= len(nuls) * 9


def _raise_nul(data, offset, name, error):
    if data.startswith(b"PK\x03\x04"):
        raise error(WORKBOOK.at(name))
    if _looks_utf16(data[:4096]):
        raise error(UTF16_NO_BOM.at(name))
    line, at = place_of(data, offset)
    raise error(NUL_BYTE.at(name, line=line, offset=at))


def normalise_newlines(text):
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_table(text, name, error, sep=",", header=True, quoting=csv.QUOTE_MINIMAL, names=None,
               skip_blank_lines=True, skipinitialspace=True):
    """Read delimited ``text`` (str, or UTF-8 bytes) into a DataFrame of strings (nothing parsed as a number).

    Ids such as ``028171`` keep their zeros; empty cells become empty strings.
    Bytes are parsed as they are, which is faster than going through a str.

    pandas 2.2's C parser, skipping blank lines, reads a lone CR followed by a
    space as one row per byte of its 256 KiB buffer (``b'id\\n1,\\r ,\\n'``
    gives 262,145 rows). A table can have no more rows than line ends, so such a
    reading is done again without pandas' skipping, the blank lines then dropped
    here (a row whose every cell is empty where the text has a blank line).
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    frame = _read_csv(data, name, error, sep, header, names, quoting, skipinitialspace, skip_blank_lines)
    if skip_blank_lines and len(frame) > data.count(b"\n") + data.count(b"\r") + 1:
        frame = _read_csv(data, name, error, sep, header, names, quoting, skipinitialspace, False)
        blank = (frame == "").all(axis=1).to_numpy()
        frame = frame.loc[~blank].reset_index(drop=True)
    if header:
        frame.columns = [str(c).strip().lstrip("\ufeff") for c in frame.columns]
    return frame


def _read_csv(data, name, error, sep, header, names, quoting, skipinitialspace, skip_blank_lines):
    unparsable = lambda exc: error(UNPARSABLE.at(name, sep="TAB" if sep == "\t" else repr(sep),  # noqa: E731
                                                 reason=_ParserReason(exc)))
    try:
        frame = pd.read_csv(io.BytesIO(data), encoding="utf-8", sep=sep, dtype=str, keep_default_na=False,
                            na_filter=False, header=0 if header else None, names=names, quoting=quoting,
                            skipinitialspace=skipinitialspace, skip_blank_lines=skip_blank_lines, engine="c")
    except pd.errors.EmptyDataError:
        raise error(EMPTY_TABLE.at(name))
    except pd.errors.ParserError as exc:
        raise unparsable(exc)
    if not isinstance(frame.index, pd.RangeIndex):
        # the first row has more fields than the header: pandas makes the extra leading ones the rows' index,
        # which would shift every column; refused as pandas refuses a longer row further down
        fields = len(frame.columns)
        raise unparsable(ValueError("Expected %d fields in line %d, saw %d" % (
            fields, _first_row_line(data, skip_blank_lines), fields + frame.index.nlevels)))
    return frame


def _first_row_line(data, skip_blank_lines):
    """The line number (1-based, as an editor counts lines: CR, LF or CRLF ends one) where the first row after the
    header starts; a quoted field may hold line ends, and a line of spaces is blank where blank lines are skipped."""
    seen, quoted = 0, False
    for number, line in enumerate(_lines(data), start=1):
        starts_record = not quoted
        quoted ^= line.count(b'"') % 2 == 1
        if not starts_record or (skip_blank_lines and not line.strip()):
            continue
        seen += 1
        if seen == 2:
            return number
    return 2


def _lines(data):
    """The lines of ``data`` one at a time (no list of them all), without their line ends."""
    start = 0
    for end in re.finditer(rb"\r\n|\r|\n", data):
        yield data[start:end.start()]
        start = end.end()
    yield data[start:]


class _ParserReason:
    """pandas' reason for a table it cannot parse: its own words in English, the known ones said in Chinese.

    >>> r = _ParserReason(ValueError("Error tokenizing data. C error: EOF inside string starting at row 4"))
    >>> r.text("zh")
    '从第 4 行开始的引号没有闭合'
    """

    _ZH = ((re.compile(r"EOF inside string starting at row (\d+)"), "从第 {0} 行开始的引号没有闭合"),
           (re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)"), "第 {1} 行应有 {0} 个字段，实际有 {2} 个"))

    def __init__(self, exc):
        self.en = str(exc).strip().splitlines()[-1][:200]

    def text(self, lang="en"):
        if lang == "en":
            return self.en
        for pattern, zh in self._ZH:
            found = pattern.search(self.en)
            if found:
                return zh.format(*found.groups())
        return "ParserError"
