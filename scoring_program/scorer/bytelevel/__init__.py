"""Text cells as offsets into the bytes a file was read from, and the reader that finds them as pandas would.

The byte-level layer: a column of a million ids, tags or numbers costs no million Python strings. Its rules and
its reference (pandas' C parser) are in README.md beside this file. It imports numpy, and pandas only on the path
that hands a file to pandas (``lazy``); nothing else of the scorer.
"""
