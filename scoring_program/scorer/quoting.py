"""How we quote what we did not write: cut short, and with every invisible or reordering character escaped.

A leaf module: everything that prints or writes a string passes ``printable``,
and every participant value quoted in a message is ``clip``-ped first.
"""
import re

# C0/C1 controls (but TAB), zero-width and bidi controls, line/paragraph separators, BOM, lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                     "\ufeff\ufff9-\ufffb\ud800-\udfff]")


def printable(text):
    r"""``text`` with control, bidi-override, zero-width and surrogate characters shown as escapes.

    What reaches a terminal, a log viewer or a page can then neither reorder
    nor hide characters, nor fail to encode.

    >>> printable("id\u202eabc\x00\ud800")
    'id\\u202eabc\\x00\\ud800'
    """
    return _UNSAFE.sub(_escape, str(text))


def has_unsafe(text):
    """True when ``printable`` would escape a character of ``text``.

    >>> has_unsafe("a b"), has_unsafe("a\u200bb")
    (False, True)
    """
    return _UNSAFE.search(text) is not None


def _escape(match):
    code = ord(match.group(0))
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def clip(text, limit=40):
    """``text`` cut to ``limit`` characters, for quoting a participant's value in a message.

    >>> clip("abcdef", 3)
    'abc...'
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."
