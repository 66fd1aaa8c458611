"""Modules imported on first use: pandas costs a third of a second to import, and valid tables never need it.

>>> import sys
>>> from scorer.bytelevel.lazy import pandas
>>> pandas.__name__
'pandas'
"""
import importlib


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self):
        return "<module %r, imported on first use>" % self._name


pandas = LazyModule("pandas")
