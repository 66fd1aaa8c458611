"""A small JSON client for the platforms' web APIs (standard library only), used by the organizer's reveal.

Every failure is an ``ApiError`` with one line that says which call failed and
what the platform answered (its status and the start of its body), so that an
organizer command can end with that line and its exit code.
"""
import datetime as dt
import json
import socket
import urllib.error
import urllib.parse
import urllib.request

BODY_SHOWN = 300   # characters of a platform's answer quoted in an error


class RevealError(Exception):
    """A reveal on a platform cannot go on: ``str(error)`` is one line for the organizer."""


class ApiError(RevealError):
    """A call to a platform's API failed: ``str(error)`` is one line for the organizer."""


class Client:
    """Calls ``base`` + path with a fixed authorization header; bodies and answers are JSON."""

    def __init__(self, base, authorization, timeout=120):
        self.base = base.rstrip("/") + "/"
        self.headers = {"Authorization": authorization, "Accept": "application/json"}
        self.timeout = timeout

    def url(self, path):
        return path if path.startswith(("http://", "https://")) else urllib.parse.urljoin(self.base, path.lstrip("/"))

    def call(self, method, path, body=None, ok=(200, 201, 202, 204)):
        """The decoded JSON answer of ``method path`` (None for an empty one); ApiError unless its status is ``ok``."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = dict(self.headers, **({"Content-Type": "application/json"} if data is not None else {}))
        status, answer = self._send(method, self.url(path), data, headers)
        if status not in ok:
            raise ApiError("%s %s answered %d: %s" % (method, path, status, _shown(answer)))
        if not answer.strip():
            return None
        try:
            return json.loads(answer.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ApiError("%s %s answered %d with something that is not JSON: %s" % (method, path, status,
                                                                                   _shown(answer)))

    def get(self, path):
        return self.call("GET", path)

    def post(self, path, body=None):
        return self.call("POST", path, {} if body is None else body)

    def patch(self, path, body):
        return self.call("PATCH", path, body)

    def put(self, path, body=None):
        return self.call("PUT", path, body)

    def put_file(self, url, data, content_type="application/zip"):
        """PUT ``data`` to a signed upload URL (no authorization header: the URL carries its own)."""
        status, answer = self._send("PUT", url, data, {"Content-Type": content_type})
        if status not in (200, 201, 204):
            raise ApiError("uploading %d bytes to the platform's storage answered %d: %s" % (len(data), status,
                                                                                          _shown(answer)))

    def download(self, url):
        """The bytes at ``url`` (a signed link the platform gave; no authorization header)."""
        status, answer = self._send("GET", self.url(url), None, {})
        if status != 200:
            raise ApiError("downloading %s answered %d: %s" % (url.split("?")[0], status, _shown(answer)))
        return answer

    def _send(self, method, url, data, headers):
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ApiError("%s %s failed: %s" % (method, url.split("?")[0], reason))


def phase_not_over(end, now=None):
    """Why a phase ending at ``end`` (ISO text or None, as the platforms' APIs give it) is not over, or None."""
    if not end:
        return "it has no end, so participants can still submit"
    try:
        when = dt.datetime.fromisoformat(str(end).replace("Z", "+00:00"))
    except ValueError:
        return "its end %r is no date" % end
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    now = now or dt.datetime.now(dt.timezone.utc)
    return "it ends on %s, so participants can still submit" % when.isoformat() if when > now else None


def upload_name(url, data):
    """The name a downloaded submission is scored under: the stored file's name, ``.zip`` added to a zip without
    one (the platforms store uploads under generated names, and the scoring program opens a zip by its name)."""
    name = urllib.parse.unquote(urllib.parse.urlparse(url).path.rstrip("/").rsplit("/", 1)[-1]) or "submission"
    if data[:4] == b"PK\x03\x04" and not name.lower().endswith(".zip"):
        name += ".zip"
    return name


def _shown(answer):
    text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else str(answer)
    text = " ".join(text.split())
    return (text[:BODY_SHOWN] + "...") if len(text) > BODY_SHOWN else (text or "(empty)")
