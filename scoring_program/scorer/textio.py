"""Turning uploaded bytes into text and tables.

Participants export CSV from Excel on Chinese Windows (GBK/GB18030, sometimes
UTF-16 "Unicode text"), from pandas (UTF-8) or from Excel's "CSV UTF-8" (UTF-8
with a BOM). All of these are read correctly; anything else is refused with the
byte offset and line of the first undecodable byte.
"""
import codecs
import csv
import io

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
    """(text, codec) of ``data``: the codec that read it, so UTF-8 bytes can be parsed as they are."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec), codec
            except UnicodeDecodeError as exc:
                _raise_undecodable(data, exc, name, codec, error)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first_failure = exc
    try:
        return data.decode("gb18030"), "gb18030"
    except UnicodeDecodeError:
        _raise_undecodable(data, first_failure, name, "UTF-8 or GB18030", error)


def utf8_bytes(data, text, codec):
    """UTF-8 bytes of a decoded file: the original bytes when they already are UTF-8."""
    return data if codec in ("utf-8", "utf-8-sig") else text.encode("utf-8")


def _raise_undecodable(data, exc, name, codec, error):
    line = data.count(b"\n", 0, exc.start) + 1
    raise error(
        "%s: byte %d (0x%02x) cannot be read as %s text; save the file as UTF-8 "
        "(in Excel: 'CSV UTF-8')." % (where(name, line), exc.start, data[exc.start], codec)
    )


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
