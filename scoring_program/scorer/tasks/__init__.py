"""Registry of task families: every module here that defines ``FAMILY`` is one, named by its module.

A run scores one family, so a family's module (and its metrics) is imported
when that family is first asked for; listing the names reads only the folder.
"""
import importlib
import os
from collections.abc import Mapping

_FAMILIES = None


class _Families(Mapping):
    """name -> TaskFamily; a module is imported on first access. A module without ``FAMILY`` is no family."""

    def __init__(self, names):
        self._names = names
        self._loaded = {}

    def _load(self, name):
        if name not in self._loaded:
            family = getattr(importlib.import_module("%s.%s" % (__name__, name)), "FAMILY", None)
            if family is not None and family.name != name:
                raise RuntimeError("scorer/tasks/%s.py names its family %r: a family is named by its module"
                                   % (name, family.name))
            self._loaded[name] = family
        return self._loaded[name]

    def __getitem__(self, name):
        family = self._load(name) if name in self._names else None
        if family is None:
            raise KeyError(name)
        return family

    def __iter__(self):
        return (name for name in self._names if self._load(name) is not None)

    def __len__(self):
        return sum(1 for _ in self)

    def __contains__(self, name):
        return name in self._names and self._load(name) is not None

    def names(self):
        """The modules that may be families, without importing them (a config's ``task`` is one of these)."""
        return list(self._names)


def families():
    """name -> TaskFamily instance, discovered once (modules imported when asked for)."""
    global _FAMILIES
    if _FAMILIES is None:
        here = os.path.dirname(os.path.abspath(__file__))
        names = sorted(f[:-3] for f in os.listdir(here)
                       if f.endswith(".py") and not f.startswith("_") and f != "base.py")
        _FAMILIES = _Families(names)
    return _FAMILIES
