"""What a long organizer command is doing, on stderr: a line every few seconds at most.

    organizer bundle: the reference data of board A (12 s)
    organizer rescore: board B 512/1000 (3 cached, 1 failed; 41 s)

Nothing is printed when stderr is not a terminal (a log, a pipe, a test), unless the command is given
``--progress`` (every 3 s) or ``--progress SECONDS``; nothing either before the first interval has passed, so a
command that ends quickly says nothing. A command says what it is doing with ``step(what)`` (the deep parts of
``new``, ``bundle`` and ``check`` do it through the module's current reporter, ``note(what)``) and a count with
``count(done, total, extra)``; the reporter prints the latest when an interval has passed since its last line.
Its lines never reach stdout, which keeps what the command writes for the organizer.

>>> clock = iter([0, 1, 4, 5, 9]).__next__
>>> import io; out = io.StringIO()
>>> p = Progress("organizer x", enabled=True, every=3, stream=out, clock=clock)
>>> p.step("one"); p.step("two"); p.step("three"); p.step("four")
>>> out.getvalue().splitlines()
['organizer x: two (4 s)', 'organizer x: four (9 s)']
"""
import sys
import time

DEFAULT_SECONDS = 3.0


class Progress:
    def __init__(self, label, enabled=None, every=DEFAULT_SECONDS, stream=None, clock=time.monotonic):
        self.label, self.every, self.clock = label, every, clock
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.start = self.last = clock() if enabled else 0.0

    def step(self, what, extra=""):
        """Say ``what`` the command does now (``extra``: more, in the brackets), when an interval has passed since
        the last line."""
        if not self.enabled:
            return
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            self.stream.write("%s: %s (%s%d s)\n" % (self.label, what, extra + "; " if extra else "",
                                                      round(now - self.start)))
            self.stream.flush()

    def count(self, what, done, total, extra=""):
        """Say how far a count has gone (``done`` of ``total``), as ``step`` says a step."""
        self.step("%s %d/%d" % (what, done, total), extra)


_CURRENT = Progress("", enabled=False)


def start(label, seconds=None, stream=None):
    """The command's reporter, also the module's current one (``note``): on a terminal, or every ``seconds``."""
    global _CURRENT
    _CURRENT = Progress(label, enabled=True if seconds is not None else None,
                        every=DEFAULT_SECONDS if seconds is None else seconds, stream=stream)
    return _CURRENT


def note(what):
    """Say ``what`` through the current command's reporter (nothing when none is showing progress)."""
    _CURRENT.step(what)


def count(what, done, total, extra=""):
    """Say how far a count has gone through the current command's reporter."""
    _CURRENT.count(what, done, total, extra)


def add_argument(parser):
    """The ``--progress [SECONDS]`` flag of a long command."""
    parser.add_argument("--progress", nargs="?", type=_seconds, const=DEFAULT_SECONDS, default=None, metavar="SECONDS",
                        help="say on stderr what is being done, every SECONDS (default %g) at most; without it, only "
                             "on a terminal" % DEFAULT_SECONDS)


def _seconds(text):
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of seconds" % text)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError("%s is not between 0 and 3600 seconds" % text)
    return value
