"""A JSON client for the platforms' web APIs that trusts no answer (standard library only), used by the reveal.

The organizer's token is sent to one origin: the scheme, host and port of the
API's base URL. Whatever a server answers:

- API calls: a redirect within that origin is followed with the token (at most
  ``Limits.redirects`` hops; a redirect of a POST, PUT, PATCH or DELETE only
  when it keeps the method, 307 or 308); a redirect to another origin is
  refused, and so is a link (``next``) of another origin;
- files (a submission to download, a reference zip to upload to signed
  storage) carry no token at all, may be redirected anywhere over http or https
  (at most ``Limits.redirects`` hops) and are streamed: memory holds one chunk;
- http and https only, for the base and for every link an answer holds (an
  absolute URL, or a path from ``/`` on the API's origin); file:, ftp:, data:
  and anything else is refused;
- sizes: a JSON answer is read in chunks and refused past ``Limits.json_bytes``
  whatever its Content-Length says; a download is refused past the cap its
  caller passes (the board's largest submission);
- time: each call has one deadline for connecting, the headers and the body
  (``Limits.deadline``, ``Limits.transfer_deadline`` for files); a server that
  trickles a byte at a time ends there;
- 429 (too many requests): Retry-After (seconds or an HTTP date) is honoured up
  to ``Limits.longest_wait``, ``Limits.retries`` times; ``Limits.pace`` spaces
  the calls to stay below a platform's throttle;
- lists: ``pages`` walks DRF's pages (``results`` and ``next``) or takes a plain
  list, at most ``Limits.pages`` pages, and stops at a link read before;
- answers: ``mapping``, ``listing`` and ``need`` check each value the reveal
  reads (``need(answer, "id", int, where)``);
- a downloaded file is named from its URL by ``file_name`` (no separator, no
  ``..``, no control or bidi character, no leading dot, at most ``NAME_CHARS``
  characters) and written inside the folder given, checked on the resolved path.

Every failure is a ``RevealError`` (``ApiError`` for a call) with one line: the
call (method and path, never the query, which may hold a signature) and what
came back, quoted short with control characters escaped and the token taken
out (organizer/redact.py).

>>> file_name("https://s3.example.org/b/..%2F..%2Fetc%2Fpasswd?X-Amz-Signature=1", b"ab")
'_._etc_passwd'
>>> file_name("https://s3.example.org/b/sub", b"PK\\x03\\x04")
'sub.zip'
"""
import datetime as dt
import email.utils
import http.client
import json
import math
import os
import re
import socket
import ssl
import tempfile
import threading
import time
import unicodedata
import urllib.parse
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .redact import keep, redact

MiB = 2 ** 20
SCHEMES = ("http", "https")
CHUNK = 64 * 1024          # bytes read at a time
BODY_SHOWN = 200           # characters of an answer quoted in an error
SHOWN_BYTES = 4096         # bytes read from an answer that is refused, to quote it
NAME_CHARS = 100           # the longest file name made from a URL
TOKEN_CHARS = (8, 4096)    # the shortest and longest token accepted (Codabench's have 40, EvalAI's JWTs more)
REDIRECTS = (301, 302, 303, 307, 308)
OK = (200, 201, 202, 204)
REQUIRED = object()


@dataclass(frozen=True)
class Limits:
    """What the client accepts from a server (``LIMITS`` is the default)."""
    deadline: float = 120.0           # seconds for one API call: connect, headers and body, its redirects included
    transfer_deadline: float = 3600.0  # the same for a file downloaded or uploaded
    json_bytes: int = 64 * MiB        # the largest JSON answer
    redirects: int = 5                # hops followed in one call
    pages: int = 1000                 # pages of one list
    retries: int = 5                  # 429 answers retried in one call
    longest_wait: float = 300.0       # the longest Retry-After waited for
    pace: float = 0.0                 # the least seconds between the starts of two API calls


LIMITS = Limits()


class RevealError(Exception):
    """A reveal on a platform cannot go on: ``str(error)`` is one line for the organizer (control characters
    escaped, the token taken out)."""

    def __init__(self, text):
        super().__init__(printable(redact(str(text))))


class ApiError(RevealError):
    """A call to a platform's API failed, or answered something the reveal cannot use."""


# -- the token and the URLs ------------------------------------------------------------------------------------
def check_token(token, source):
    """Refuse a token that cannot be sent as it is (one line that does not show it); ``source`` says where it came
    from (ORGANIZER_TOKEN, --token-file PATH, --token)."""
    keep(token)
    if not token:
        raise RevealError("the API token from %s is empty" % source)
    if not TOKEN_CHARS[0] <= len(token) <= TOKEN_CHARS[1]:
        raise RevealError("the API token from %s has %d characters, where a token has %d to %d: give the token "
                          "alone" % (source, len(token), TOKEN_CHARS[0], TOKEN_CHARS[1]))
    for place, char in enumerate(token, start=1):
        if char in "\r\n\x0b\x0c\x85\u2028\u2029":
            what = "a line break"
        elif char.isspace():
            what = "whitespace"
        elif not " " < char < "\x7f":
            what = "a non-printable or non-ASCII character"
        else:
            continue
        raise RevealError("the API token from %s holds %s (character %d of %d); give the token alone, on one line"
                          % (source, what, place, len(token)))


def check_base(base):
    """``base`` (the platform's address the organizer gave) when it is an http or https URL with a host."""
    text = base if isinstance(base, str) else ""
    if not text or _unsafe(text):
        raise RevealError("the platform's address %s is not a URL: give it as https://host[:port]" % _quoted(base))
    parts = _split(text, "the platform's address")
    if parts.scheme.lower() not in SCHEMES or not parts.netloc:
        raise RevealError("the platform's address %s does not start with http:// or https:// and a host: give it "
                          "as https://host[:port]" % _quoted(base))
    _origin(text, "the platform's address")
    if parts.query or parts.fragment or "@" in parts.netloc:
        raise RevealError("the platform's address %s holds a query, a fragment or a user name: give it as "
                          "https://host[:port][/path]" % _quoted(base))
    return text


def origin_of(url):
    """``scheme://host:port`` of an http or https URL (the default port written out)."""
    scheme, host, port = _origin(url, "a URL")
    return "%s://%s:%d" % (scheme, "[%s]" % host if ":" in host else host, port)


def _split(url, what):
    """urlsplit, its ValueError (a bracket that opens no IPv6 address, ...) said as a RevealError."""
    try:
        return urllib.parse.urlsplit(url)
    except ValueError as exc:
        raise RevealError("%s %s is not a URL (%s)" % (what, _quoted(url), exc))


def _origin(url, what):
    parts = _split(url, what)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        raise RevealError("%s %s has no valid port" % (what, _quoted(url)))
    if scheme not in SCHEMES or not parts.hostname:
        raise RevealError("%s %s is not an http or https URL" % (what, _quoted(url)))
    return scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80)


def _unsafe(text):
    return any(c.isspace() or unicodedata.category(c)[0] in "CZ" for c in text)


def _path_of(url):
    """A URL's origin and path, without its query (it may hold a signature) or fragment."""
    parts = _split(url, "a URL")
    return "%s://%s%s" % (parts.scheme, parts.netloc.rpartition("@")[2], parts.path)


# -- the client ------------------------------------------------------------------------------------------------
class Client:
    """JSON calls to ``base`` + path with ``Authorization: <kind> <token>``, sent to ``base``'s origin only."""

    def __init__(self, base, kind, token, limits=None, source="the command line"):
        check_token(token, source)
        self.base = check_base(base).rstrip("/") + "/"
        self.origin = _origin(self.base, "the platform's address")
        self.limits = limits or LIMITS
        self._authorization = "%s %s" % (kind, token)
        self._last_call = None
        self._opener = urllib.request.OpenerDirector()
        for handler in (urllib.request.ProxyHandler(), _Http(), _Https()):
            self._opener.add_handler(handler)

    # the calls ---------------------------------------------------------------------------------------------
    def where(self, method, path):
        """How an error names a call: its method and path, without the query."""
        return "%s %s" % (method, urllib.parse.urlsplit(self._api_url(path)).path or "/")

    def call(self, method, path, body=None, ok=OK):
        """The decoded JSON answer of ``method path`` (None for an empty one); ApiError unless its status is ``ok``."""
        url = self._api_url(path)
        return self._json(method, url, self.where(method, url),
                          None if body is None else json.dumps(body).encode("utf-8"), ok)

    def form(self, method, path, fields=None, files=None, ok=OK):
        """The decoded JSON answer of ``method path`` sent as ``multipart/form-data``, the form a browser sends
        with a file (``fields``: name -> text, ``files``: name -> (file name, bytes))."""
        boundary = "organizer-" + os.urandom(12).hex()
        parts = []
        for name, value in sorted((fields or {}).items()):
            parts.append(b'--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (
                boundary.encode(), name.encode(), str(value).encode("utf-8")))
        for name, (filename, data) in sorted((files or {}).items()):
            parts.append(b'--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\nContent-Type: '
                         b'application/octet-stream\r\n\r\n%s\r\n' % (boundary.encode(), name.encode(),
                                                                          filename.encode(), data))
        body = b"".join(parts) + b"--%s--\r\n" % boundary.encode()
        url = self._api_url(path)
        return self._json(method, url, self.where(method, url), body, ok,
                          "multipart/form-data; boundary=%s" % boundary)

    def get(self, path):
        return self.call("GET", path)

    def post(self, path, body=None):
        return self.call("POST", path, {} if body is None else body)

    def patch(self, path, body):
        return self.call("PATCH", path, body)

    def put(self, path, body=None):
        return self.call("PUT", path, body)

    def pages(self, path):
        """Every item of a list: a plain list, or DRF's pages (``results``, ``next``) walked to the end."""
        url = self._api_url(path)
        where = self.where("GET", url)
        items, seen = [], set()
        while True:
            if len(seen) == self.limits.pages:
                raise ApiError("%s gave more than %d pages; stopped there" % (where, self.limits.pages))
            seen.add(url)
            answer = self._json("GET", url, where, None, OK)
            if isinstance(answer, list):
                return items + answer
            items += need(answer, "results", list, where)
            link = need(answer, "next", str, where, default="")
            if not link:
                return items
            url = self.api_link(link, where, "the next page's link")
            if url in seen:
                raise ApiError("%s: the next page's link %s points to a page already read (a loop); stopped there"
                               % (where, _quoted(_path_of(url))))

    def api_link(self, link, where, what):
        """An API link an answer holds, as a URL of the API's origin (else ApiError: the token goes there only)."""
        url = self._link(link, where, what)
        if _origin(url, what) != self.origin:
            raise ApiError("%s: %s leads to %s, another origin than the API's %s; not followed (the token goes to "
                           "the API's origin only)" % (where, what, origin_of(url), origin_of(self.base)))
        return url

    def put_file(self, url, path, content_type="application/zip", given="the answer"):
        """PUT the file at ``path`` to a signed upload URL an answer gave (``given``: the call that gave it; no
        token: the URL carries its own)."""
        url = self._link(url, given, "the signed upload URL")
        size = os.path.getsize(path)
        end = time.monotonic() + self.limits.transfer_deadline
        with open(path, "rb") as source:
            for _ in range(self.limits.redirects + 1):
                where = "uploading %d bytes to %s" % (size, _path_of(url))
                source.seek(0)
                headers = {"Content-Type": content_type, "Content-Length": str(size)}
                with self._exchange("PUT", url, source, headers, end, where, self._files) as (resp, watch):
                    if resp.status in (307, 308):
                        url = self._redirect(resp, url, where)
                        continue
                    if resp.status not in (200, 201, 204):
                        raise ApiError("%s answered %d: %s" % (where, resp.status, self._shown(resp, watch, end)))
                    return
        raise ApiError("%s was redirected more than %d times" % (where, self.limits.redirects))

    def download(self, url, folder, cap, given="the answer"):
        """Stream the file at ``url`` (a link an answer gave, ``given``: the call that gave it; no token) into
        ``folder`` (made if needed), at most ``cap`` bytes; its path there, under ``file_name``'s name."""
        first = url = self._link(url, given, "the file's link")
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        end = time.monotonic() + self.limits.transfer_deadline
        for _ in range(self.limits.redirects + 1):
            where = "downloading %s" % _path_of(url)
            with self._exchange("GET", url, None, {}, end, where, self._files) as (resp, watch):
                if resp.status in REDIRECTS:
                    url = self._redirect(resp, url, where)
                    continue
                if resp.status != 200:
                    raise ApiError("%s answered %d: %s" % (where, resp.status, self._shown(resp, watch, end)))
                handle, part = tempfile.mkstemp(dir=str(folder), prefix=".part-")
                try:
                    with os.fdopen(handle, "wb") as sink:
                        self._read(resp, watch, end, where, cap, sink, "the board's largest submission")
                    with open(part, "rb") as written:
                        head = written.read(4)
                    return _place(part, folder, file_name(first, head))
                finally:
                    if os.path.exists(part):
                        os.remove(part)
        raise ApiError("%s was redirected more than %d times" % (where, self.limits.redirects))

    # the steps of a call -------------------------------------------------------------------------------------
    def _api_url(self, path):
        """A path of the API (ours: relative to the base) or a link of its origin, as a URL."""
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", path):
            return self.api_link(path, "a call", "the link")
        return urllib.parse.urljoin(self.base, path.lstrip("/"))

    def _link(self, link, where, what):
        """A link an answer holds: an absolute http or https URL, or a path from / on the API's origin."""
        if not isinstance(link, str) or not link or _unsafe(link):
            raise ApiError("%s: %s %s is not a URL" % (where, what, _quoted(link)))
        try:
            if link.startswith("/") and not link.startswith("//"):
                link = urllib.parse.urljoin(self.base, link)
            parts = _split(link, what)
            if parts.scheme.lower() not in SCHEMES or not parts.netloc:
                raise ApiError("%s: %s %s is not an http or https URL; refused" % (where, what, _quoted(link[:80])))
            _origin(link, what)
        except ValueError as exc:
            raise ApiError("%s: %s %s is not a URL (%s)" % (where, what, _quoted(link[:80]), exc))
        except ApiError:
            raise
        except RevealError as exc:
            raise ApiError("%s: %s" % (where, exc))
        return link

    def _redirect(self, response, url, where):
        location = response.headers.get("Location")
        if not location:
            raise ApiError("%s answered %d without a Location" % (where, response.status))
        try:
            if _unsafe(location):
                raise ValueError("a space or a control character")
            target = urllib.parse.urljoin(url, location)
        except ValueError as exc:
            raise ApiError("%s was redirected to %s, which is not a URL (%s)" % (where, _quoted(location[:80]), exc))
        return self._link(target, where, "the redirect")

    def _json(self, method, url, where, data, ok, content_type="application/json"):
        for attempt in range(self.limits.retries + 1):
            status, headers, raw = self._api_call(method, url, where, data, ok, content_type)
            if status != 429:
                break
            wait = retry_after(headers.get("Retry-After"), attempt)
            if attempt == self.limits.retries:
                raise ApiError("%s answered 429 (too many requests) %d times in a row; run this again later"
                               % (where, attempt + 1))
            if wait > self.limits.longest_wait:
                raise ApiError("%s answered 429 (too many requests) and asks to wait %d s, more than the %d s this "
                               "command waits; run it again later" % (where, wait, self.limits.longest_wait))
            _pause(wait)
        if status not in ok:
            raise ApiError("%s answered %d: %s" % (where, status, _shown(raw)))
        return _decode(raw, where, status)

    def _api_call(self, method, url, where, data, ok, content_type="application/json"):
        """(status, headers, body) of one call, its same-origin redirects followed; the body only if ``ok``."""
        end = time.monotonic() + self.limits.deadline
        for _ in range(self.limits.redirects + 1):
            self._keep_pace()
            headers = {"Authorization": self._authorization, "Accept": "application/json"}
            if data is not None:
                headers["Content-Type"] = content_type
            with self._exchange(method, url, data, headers, end, where, self._calls) as (response, watch):
                status = response.status
                if status in REDIRECTS:
                    target = self._redirect(response, url, where)
                    if _origin(target, "the redirect") != self.origin:
                        raise ApiError("%s was redirected (%d) to %s, another origin than the API's %s; not followed "
                                       "(the token goes to the API's origin only)" % (
                                           where, status, origin_of(target), origin_of(self.base)))
                    if method != "GET" and status not in (307, 308):
                        raise ApiError("%s was redirected (%d) to %s, which would drop the request's body; not "
                                       "followed: check the platform's address" % (where, status, _path_of(target)))
                    url = target
                    continue
                if status == 429:
                    return status, response.headers, b""
                if status not in ok:
                    return status, response.headers, self._read(response, watch, end, where, SHOWN_BYTES,
                                                                truncate=True)
                return status, response.headers, self._read(response, watch, end, where, self.limits.json_bytes,
                                                             what="the largest JSON answer this command reads")
        raise ApiError("%s was redirected more than %d times" % (where, self.limits.redirects))

    def _keep_pace(self):
        if self.limits.pace and self._last_call is not None:
            gap = self._last_call + self.limits.pace - time.monotonic()
            if gap > 0:
                _pause(gap)
        self._last_call = time.monotonic()

    @property
    def _calls(self):
        return "--timeout", self.limits.deadline

    @property
    def _files(self):
        return "--download-timeout", self.limits.transfer_deadline

    @contextmanager
    def _exchange(self, method, url, data, headers, end, where, limit):
        """The response to one request, under the deadline ``end``; ``limit``: (the option that sets it, its
        seconds). Every failure is one ApiError."""
        watch = _Watch(end)
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        request.watch = watch
        try:
            if watch.left() <= 0:
                raise socket.timeout()
            response = self._opener.open(request, timeout=watch.left())
            try:
                yield response, watch
            finally:
                response.close()
        except RevealError:
            raise
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if watch.expired or watch.left() <= 0:
                raise ApiError("%s did not end within %g s; stopped there (%s sets this limit)"
                               % (where, limit[1], limit[0])) from None
            raise ApiError("%s failed: %s" % (where, _reason(exc))) from None
        finally:
            watch.cancel()

    def _read(self, response, watch, end, where, cap, sink=None, what="", truncate=False):
        """The body (or, with ``sink``, its size once written there), read a chunk at a time: ApiError past ``cap``
        bytes (``truncate``: the first ``cap`` bytes) or past the deadline."""
        declared = response.headers.get("Content-Length", "")
        if not truncate and declared.isdigit() and int(declared) > cap:
            raise ApiError("%s announces %s bytes, more than %s (%s); refused" % (where, declared, _size(cap), what))
        body, total = bytearray(), 0
        while True:
            if time.monotonic() > end:
                raise socket.timeout()
            chunk = response.read1(CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > cap:
                if truncate:
                    body += chunk[:cap - total + len(chunk)]
                    break
                raise ApiError("%s sent more than %s (%s); refused" % (where, _size(cap), what))
            if sink is None:
                body += chunk
            else:
                sink.write(chunk)
        if watch.expired:   # the deadline shut the connection: what was read is not the whole answer
            raise socket.timeout()
        return bytes(body) if sink is None else total

    def _shown(self, response, watch, end):
        try:
            return _shown(self._read(response, watch, end, "", SHOWN_BYTES, truncate=True))
        except (OSError, http.client.HTTPException, ValueError):
            return "(unreadable)"


def _pause(seconds):
    time.sleep(seconds)


def retry_after(value, attempt):
    """Seconds to wait after a 429: its Retry-After (seconds or an HTTP date), else 1, 2, 4, ... s."""
    text = (value or "").strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        when = None
    if when is not None:
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.timezone.utc)
        return max(0.0, (when - dt.datetime.now(dt.timezone.utc)).total_seconds())
    return float(2 ** attempt)


# -- the connection under a deadline ---------------------------------------------------------------------------
class _Watch:
    """One deadline for a request: at ``end`` its socket is shut down, which wakes any read blocked on it (a
    socket's own timeout bounds one read only, so a byte every few seconds would never end)."""

    def __init__(self, end):
        self.end = end
        self.expired, self._lock, self._socks = False, threading.Lock(), []
        self._timer = threading.Timer(max(self.left(), 0.0), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def left(self):
        return self.end - time.monotonic()

    def attach(self, sock):
        with self._lock:
            if self.expired:
                raise socket.timeout()
            # a second handle on the same connection: TLS wrapping detaches the first, a shutdown reaches both
            self._socks.append(socket.fromfd(sock.fileno(), sock.family, sock.type))

    def _expire(self):
        with self._lock:
            self.expired = True
            for sock in self._socks:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cancel(self):
        self._timer.cancel()
        with self._lock:
            for sock in self._socks:
                sock.close()
            self._socks = []


def _watched(base):
    class Connection(base):
        def __init__(self, *args, watch=None, **kwargs):
            super().__init__(*args, **kwargs)
            make = self._create_connection

            def create(*a, **k):
                sock = make(*a, **k)
                try:
                    watch.attach(sock)
                except OSError:
                    sock.close()
                    raise
                return sock

            self._create_connection = create
    return Connection


_HTTPConnection = _watched(http.client.HTTPConnection)
_HTTPSConnection = _watched(http.client.HTTPSConnection)


class _Http(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_HTTPConnection, req, watch=req.watch)


class _Https(urllib.request.HTTPSHandler):
    _tls = None   # the system's certificates, checked against the host's name; made at the first https call

    def https_open(self, req):
        if self._tls is None:
            self._tls = ssl.create_default_context()
        return self.do_open(_HTTPSConnection, req, context=self._tls, watch=req.watch)


def _reason(exc):
    reason = getattr(exc, "reason", None) or exc
    return str(reason) or type(reason).__name__


# -- answers ---------------------------------------------------------------------------------------------------
def _decode(raw, where, status):
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError("%s answered %d with text that is not UTF-8 (byte %d): %s" % (where, status, exc.start,
                                                                                   _shown(raw)))
    try:
        return json.loads(text, parse_int=_small_int)
    except RecursionError:
        raise ApiError("%s answered %d with JSON nested too deeply: %s" % (where, status, _shown(raw)))
    except ValueError as exc:
        raise ApiError("%s answered %d with something that is not JSON (%s): %s" % (where, status, exc, _shown(raw)))


def _small_int(text):
    if len(text.lstrip("-")) > 30:   # int() of a long digit string costs quadratic time before Python 3.11
        raise ValueError("an integer of %d digits" % len(text))
    return int(text)


NUMBER = "a number"                              # an int or a finite float
DECIMAL = "a number (or a decimal in a text)"    # also "0.1234500000", as DRF writes a DecimalField
DECIMAL_TEXT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
WORDS = {int: "an integer", str: "a text", list: "a list", dict: "a JSON object", bool: "true or false",
         NUMBER: NUMBER, DECIMAL: DECIMAL}


def mapping(value, where, what="the answer"):
    """``value`` when it is a JSON object; else ApiError naming the call and quoting what came."""
    if not isinstance(value, dict):
        raise _unexpected(where, "%s is %s, where a JSON object was expected" % (what, _quoted(value)))
    return value


def listing(value, where, what="the answer"):
    """``value`` when it is a JSON list; else ApiError."""
    if not isinstance(value, list):
        raise _unexpected(where, "%s is %s, where a list was expected" % (what, _quoted(value)))
    return value


def need(answer, key, kind, where, what="the answer", default=REQUIRED):
    """``answer[key]`` when ``answer`` is a JSON object and the value is of ``kind`` (int, str, list, dict, bool,
    NUMBER, DECIMAL or a tuple of them; DECIMAL gives a float); ``default`` when it is missing or null, if given;
    ApiError otherwise.

    >>> need({"id": 3}, "id", int, "GET /api/x/")
    3
    >>> need({"id": "3"}, "id", int, "GET /api/x/")
    Traceback (most recent call last):
    ...
    organizer.http_api.ApiError: GET /api/x/ answered something unexpected: the answer's "id" is "3", where an integer was expected
    """
    value = mapping(answer, where, what).get(key)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = " or ".join(WORDS[k] for k in kinds)
    if value is None:
        if default is not REQUIRED:
            return default
        raise _unexpected(where, "%s has no %s (%s was expected): %s" % (what, json.dumps(key), words,
                                                                         _quoted(answer)))
    for k in kinds:
        if _is(value, k):
            return float(value) if k is DECIMAL else value
    raise _unexpected(where, "%s's %s is %s, where %s was expected" % (what, json.dumps(key), _quoted(value), words))


def _is(value, kind):
    if kind in (int, NUMBER, DECIMAL) and isinstance(value, bool):
        return False
    if kind is NUMBER or kind is DECIMAL:
        if isinstance(value, (int, float)):
            return math.isfinite(value)
        return kind is DECIMAL and isinstance(value, str) and bool(DECIMAL_TEXT.fullmatch(value)) and \
            math.isfinite(float(value))
    return isinstance(value, kind)


def _unexpected(where, text):
    return ApiError("%s answered something unexpected: %s" % (where, text))


def _quoted(value):
    """A value from an answer, as short JSON on one line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _clip(text)


def _shown(raw):
    """The start of an answer's body, on one line."""
    text = redact(" ".join(raw.decode("utf-8", "replace").split()), cut=True)
    return _clip(text) if text else "(empty)"


def _clip(text):
    text = printable(redact(text))
    return text[:BODY_SHOWN] + "..." if len(text) > BODY_SHOWN else text


def printable(text):
    """``text`` with control, format (bidi) and separator characters other than the space escaped: one line that
    shows what it holds."""
    return "".join(c if c == " " or unicodedata.category(c)[0] not in "CZ" else
                   c.encode("unicode_escape").decode("ascii") for c in text)


def _size(count):
    return "%d bytes" % count if count < MiB else "%.1f MiB" % (count / MiB)


# -- downloaded files ------------------------------------------------------------------------------------------
WINDOWS_NAMES = {"CON", "PRN", "AUX", "NUL"} | {"COM%d" % i for i in range(1, 10)} | {"LPT%d" % i for i in range(1, 10)}


def file_name(url, head=b""):
    """A safe name for the file at ``url`` (its last path segment, unquoted): letters, digits and ``._-+=,()@``
    (and spaces) kept, any other character (``/``, ``\\``, controls, bidi marks) made ``_``, no ``..``, no leading
    or trailing dot or space, at most NAME_CHARS characters with the extension kept, ``submission`` when nothing is
    left; ``.zip`` added to a zip without it (the platforms store uploads under generated names, and the scoring
    program opens a zip by its name: ``head`` is the file's first bytes)."""
    try:
        segment = urllib.parse.urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    except ValueError:
        segment = ""
    name = urllib.parse.unquote(segment, errors="replace")
    name = "".join(c if c.isalnum() or c in "._-+=,()@ " else "_" for c in name)
    name = re.sub(r"\.{2,}", ".", name).strip(". ")
    if len(name) > NAME_CHARS:
        stem, dot, ext = name.rpartition(".")
        ext = ext if dot and stem and len(ext) <= 10 else ""
        name = name[:NAME_CHARS - len(ext) - 1].rstrip(". ") + ("." + ext if ext else "")
    if not name or name.split(".")[0].upper() in WINDOWS_NAMES:
        name = "submission" + ("_" + name if name else "")
    if head[:4] == b"PK\x03\x04" and not name.lower().endswith(".zip"):
        name += ".zip"
    return name


def _place(part, folder, name):
    """Rename the downloaded ``part`` to ``folder/name``, checked on the resolved path to be inside ``folder``."""
    home = folder.resolve()
    target = (home / name).resolve()
    if target.parent != home or target.exists():
        raise RevealError("the file name %s made from a download's URL does not stay inside the work folder %s"
                          % (_quoted(name), home))
    os.replace(part, str(target))
    return target


# -- dates ----------------------------------------------------------------------------------------------------
def phase_not_over(end, now=None):
    """Why a phase ending at ``end`` (ISO text or None, as the platforms' APIs give it) is not over, or None."""
    if not end:
        return "it has no end, so participants can still submit"
    try:
        when = dt.datetime.fromisoformat(str(end).replace("Z", "+00:00"))
    except ValueError:
        return "its end %s is no date" % _quoted(end)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    now = now or dt.datetime.now(dt.timezone.utc)
    return "it ends on %s, so participants can still submit" % when.isoformat() if when > now else None
