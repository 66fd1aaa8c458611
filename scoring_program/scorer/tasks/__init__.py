"""Registry of task families: every module here that defines ``FAMILY`` is one."""
import importlib
import pkgutil

_FAMILIES = None


def families():
    """name -> TaskFamily instance, discovered once."""
    global _FAMILIES
    if _FAMILIES is None:
        found = {}
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if info.name.startswith("_") or info.name == "base":
                continue
            module = importlib.import_module("%s.%s" % (__name__, info.name))
            family = getattr(module, "FAMILY", None)
            if family is not None:
                found[family.name] = family
        _FAMILIES = found
    return _FAMILIES
