"""The secrets this process was given (the organizer's API token), and any text with them taken out.

Every line an organizer command prints about a platform, and the traceback file
of an internal error (organizer/__main__.py), goes through ``redact`` first, so
that a token a server echoes back, or an exception that quotes it, is never
shown or written.

>>> keep("s3cr3t-t0ken")
>>> redact('401: {"detail": "token s3cr3t-t0ken is unknown"}')
'401: {"detail": "token [token] is unknown"}'
"""
import json

MARK = "[token]"
SHORTEST = 8   # a shorter secret is not kept (no platform gives one): it would take words out of every line
_secrets = set()


def keep(secret):
    """Remember ``secret`` (and the forms it takes once quoted in JSON or by repr) so that ``redact`` removes it."""
    if secret and len(secret) >= SHORTEST:
        _secrets.update(form for form in (secret, json.dumps(secret)[1:-1], repr(secret)[1:-1]) if form)


def redact(text, cut=False):
    """``text`` with every kept secret replaced by ``[token]`` (the longest first: one may hold another); ``cut``:
    ``text`` is the start of a longer one, so a secret's first characters (three or more) that end it go too."""
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MARK)
        if cut:
            for length in range(len(secret) - 1, 2, -1):
                if text.endswith(secret[:length]):
                    text = text[:-length] + MARK
                    break
    return text
