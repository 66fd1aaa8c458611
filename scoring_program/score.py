#!/usr/bin/env python3
"""Entry point the platforms run: ``python3 score.py INPUT OUTPUT``.

INPUT holds ``ref/`` (reference answers and config.yaml) and ``res/`` (the
submission). With no arguments the Codabench paths /app/input and /app/output
are used. Exit codes: 0 scored, 1 the submission is wrong, 2 the competition's
configuration or reference data is wrong, 3 an internal error.
"""
import os
import sys

# The program runs its own second thread where steps overlap (scorer/background.py); a pool of BLAS threads
# started with numpy would only cost start-up time (its one matrix product is small) and compete with it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scorer.platform.cli import main  # noqa: E402


def _end(code):
    """Exit with ``code`` once stdout and stderr are flushed, without tearing the interpreter down.

    Every output file is closed by now (each is written inside a ``with``); freeing every array, string and
    module one by one would only add about a tenth to a run's time.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be said on it
            pass
    os._exit(code)


if __name__ == "__main__":
    _end(main(sys.argv[1:]))
