"""Turning uploaded bytes into text and tables.

Participants export CSV from Excel on Chinese Windows (GBK/GB18030, sometimes
UTF-16 "Unicode text"), from pandas (UTF-8) or from Excel's "CSV UTF-8" (UTF-8
with a BOM). All of these are read correctly; anything else is refused with the
byte offset and line of the first undecodable byte.
"""
import codecs
import csv
import io
import re

import pandas as pd

from .errors import where

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

    >>> decode_with_codec("id\u00e9,\u00e9\u00e9\n".encode() + b"\xff", "a.csv", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: a.csv line 2: byte 10 (0xff) cannot be read as UTF-8 text, though the rest of the file is UTF-8; save the file as UTF-8 (in Excel: 'CSV UTF-8').
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise error("%s is UTF-32 text; save it as UTF-8 (in Excel: 'CSV UTF-8')." % name)
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                _raise_undecodable(data, exc.start, name, codec, error)
            if "\0" in text:
                raise error("%s: character %d is a NUL (U+0000), which no text file holds; remove it."
                            % (name, text.index("\0")))
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
        _raise_undecodable(data, first_bad, name, "UTF-8", error, "though the rest of the file is UTF-8")
    try:
        return data.decode("gb18030"), "gb18030"
    except UnicodeDecodeError:
        _raise_undecodable(data, first_bad, name, "UTF-8 or GB18030", error)


_ESCAPES = re.compile("[\udc80-\udcff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def utf8_bytes(data, text, codec):
    """UTF-8 bytes of a decoded file: the original bytes when they already are UTF-8."""
    return data if codec in ("utf-8", "utf-8-sig") else text.encode("utf-8")


def line_of(data, offset):
    """The 1-based line of byte ``offset`` in ``data``."""
    return data.count(b"\n", 0, offset) + 1


def _raise_undecodable(data, offset, name, codec, error, why=""):
    raise error(
        "%s: byte %d (0x%02x) cannot be read as %s text%s; save the file as UTF-8 (in Excel: 'CSV UTF-8')."
        % (where(name, line_of(data, offset)), offset, data[offset], codec, ", " + why if why else "")
    )


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
        raise error("%s is a zip archive (an Excel workbook?), not a text file; export the table as CSV UTF-8 "
                    "and upload that." % name)
    if _looks_utf16(data[:4096]):
        raise error("%s is UTF-16 text without a byte-order mark (Excel's 'Unicode text'); save it as UTF-8 "
                    "(in Excel: 'CSV UTF-8')." % name)
    raise error("%s: byte %d is a NUL (0x00), which no text file holds; remove it (the file may be binary or "
                "damaged) and save the file as UTF-8 text." % (where(name, line_of(data, offset)), offset))


def normalise_newlines(text):
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def sniff_separator(first_line, allowed=(",", "\t")):
    """The separator of a delimited file, judged from its header line."""
    counts = [(first_line.count(sep), sep) for sep in allowed]
    best = max(counts)
    return best[1] if best[0] > 0 else allowed[0]


def read_table(text, name, error, sep=",", header=True, quoting=csv.QUOTE_MINIMAL, names=None,
               skip_blank_lines=True, skipinitialspace=True):
    """Read delimited ``text`` (str, or UTF-8 bytes) into a DataFrame of strings (nothing parsed as a number).

    Ids such as ``028171`` keep their zeros; empty cells become empty strings.
    Bytes are parsed as they are, which is faster than going through a str.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    try:
        frame = pd.read_csv(
            io.BytesIO(data),
            encoding="utf-8",
            sep=sep,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            header=0 if header else None,
            names=names,
            quoting=quoting,
            skipinitialspace=skipinitialspace,
            skip_blank_lines=skip_blank_lines,
            engine="c",
        )
    except pd.errors.EmptyDataError:
        raise error("%s is empty; it needs a header line and one line per test item." % name)
    except pd.errors.ParserError as exc:
        raise error("%s cannot be read as a %s-separated table (%s); check quotes and separators."
                    % (name, "TAB" if sep == "\t" else repr(sep), _short(exc)))
    if header:
        frame.columns = [str(c).strip().lstrip("\ufeff") for c in frame.columns]
    return frame


def _short(exc):
    return str(exc).strip().splitlines()[-1][:200]
