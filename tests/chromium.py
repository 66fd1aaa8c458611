"""Headless Chromium driven over its DevTools pipe (``--remote-debugging-pipe``): one browser for many pages.

Chromium reads DevTools commands from file descriptor 3 and writes replies to 4, each a JSON object ended
by a NUL byte. Enough of the protocol for the browser test: set the viewport and the media (screen or print),
open a page and wait for its load event, evaluate an expression, take a full-page screenshot.
"""
import base64
import json
import os
import subprocess
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--allow-file-access-from-files", "--remote-debugging-pipe"]


class Browser:
    def __init__(self, executable, profile, timeout=120):
        to_browser, self._writer = os.pipe()
        self._reader, from_browser = os.pipe()

        def as_fds_3_and_4():  # in the child: the pipe ends become fds 3 and 4, kept across exec
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen([executable] + FLAGS + ["--user-data-dir=%s" % profile, "about:blank"],
                                        preexec_fn=as_fds_3_and_4, close_fds=False, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.timeout = timeout
        self._buffer = b""
        self._id = 0
        self._events = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)

    def _send(self, method, params, session):
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._writer, json.dumps(message).encode("utf-8") + b"\0")
        return self._id

    def _next(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self._reader, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, session=False, **params):
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._next(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            self._events.append(message.get("method"))

    def open(self, url):
        """Navigate and wait for the page's load event."""
        self._events = [e for e in self._events if e != "Page.loadEventFired"]
        self.call("Page.navigate", session=True, url=url)
        deadline = time.monotonic() + self.timeout
        while "Page.loadEventFired" not in self._events:
            self._events.append(self._next(deadline).get("method"))
        self._events.remove("Page.loadEventFired")

    def viewport(self, width, height=900):
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def media(self, kind):
        """Lay pages out for ``kind`` ("print" or "screen"; "" for the browser's own) as Chromium would."""
        self.call("Emulation.setEmulatedMedia", session=True, media=kind)

    def evaluate(self, expression):
        reply = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return reply["result"].get("value")

    def screenshot(self, width, max_height=12000):
        """PNG bytes of the whole page at the current viewport width."""
        size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": width, "height": min(int(size["height"]) + 1, max_height), "scale": 1}
        reply = self.call("Page.captureScreenshot", session=True, format="png", clip=clip, captureBeyondViewport=True)
        return base64.b64decode(reply["data"])

    def close(self):
        try:
            self._send("Browser.close", {}, False)
            self.process.wait(timeout=20)
        except Exception:  # noqa: BLE001  a browser that does not close is killed
            self.process.kill()
            self.process.wait()
        finally:
            os.close(self._writer)
            os.close(self._reader)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
