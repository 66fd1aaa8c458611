"""Work on a second thread, for the steps of a run that do not depend on each other.

numpy lets go of the interpreter lock inside its array loops, so two steps
made of large array operations (reading the reference while the submission is
cut and coded, the bootstrap interval while the report's breakdowns are built)
take about the time of the longer one on two cores, and their sum on one. Each
step computes its own values from inputs nobody changes, so the results, and
every output byte, are the same whichever finishes first.

>>> pending = start(sum, [1, 2, 3])
>>> pending.result()
6
>>> start(int, "x").result()
Traceback (most recent call last):
...
ValueError: invalid literal for int() with base 10: 'x'
"""
import threading

M_ARENA_MAX = -8   # glibc's mallopt parameter: how many malloc arenas the threads may use
_arena_shared = False


def _one_arena():
    """Let the second thread share the first thread's malloc arena (glibc), as once in a one-thread process.

    By default glibc gives a new thread an arena of its own: memory one thread frees is not reused by the other,
    and the process holds both (about a fifth more peak memory on million-row files). numpy's few large
    allocations gain nothing from separate arenas. Elsewhere (macOS, musl) there is nothing to set.
    """
    global _arena_shared
    if _arena_shared:
        return
    _arena_shared = True
    try:
        import ctypes  # numpy has imported it already
        ctypes.CDLL(None).mallopt(ctypes.c_int(M_ARENA_MAX), ctypes.c_int(1))
    except (OSError, AttributeError, ImportError):
        pass


class Pending:
    """``fn(*args)`` running on its own thread; ``result()`` waits for it and returns its value or raises its error."""

    def __init__(self, fn, args):
        self._fn, self._args = fn, args
        self._value = self._error = None
        self._thread = threading.Thread(target=self._run, name="scorer-%s" % getattr(fn, "__name__", "work"),
                                         daemon=True)
        self._thread.start()

    def _run(self):
        try:
            self._value = self._fn(*self._args)
        except BaseException as exc:  # noqa: BLE001  handed to the thread that asks for the result
            self._error = exc
        finally:
            self._fn = self._args = None  # the inputs can go as soon as the step is done

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


class Done:
    """``fn(*args)`` computed on the spot (its error raised at once); ``result()`` gives the value, as Pending's."""

    def __init__(self, fn, args):
        self._value = fn(*args)

    def result(self):
        return self._value


def now(fn, *args):
    """Compute ``fn(*args)`` here and now: where a Pending would do, but a second thread would not pay."""
    return Done(fn, args)


def start(fn, *args):
    """Start ``fn(*args)`` on a second thread now; its Pending gives the value."""
    _one_arena()
    return Pending(fn, args)
