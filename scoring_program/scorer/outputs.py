"""Writing what the platforms read from OUTPUT/.

scores.txt: ``key: value`` lines, one colon, a space after it, fixed-point
decimals, because CodaLab v1 splits on ':' and stores Decimal(20,10), and
Codabench parses the file as YAML (``a:1`` would be one string, ``1e-05`` a
string). scores.json: the same keys as a flat JSON map (Codabench reads it
first). Never ``OUTPUT/metadata``: the workers write it themselves.
"""
import math
import os

from .errors import OutputError
from .problems import Message

CANNOT_WRITE = Message("output.cannot_write", "cannot write {path} ({reason}); the platform must give the scoring "
                       "program a writable output folder.", "无法写入 {path}（{reason}）；平台须为评分程序提供可写的输出目录。")
DECIMALS = 10
OUTPUT_FILES = ("scores.txt", "scores.json", "detailed_results.html")


def format_number(value, digits=DECIMALS):
    """Fixed-point text of a finite number; ``-0`` prints as ``0``.

    >>> format_number(1e-05)
    '0.0000100000'
    """
    value = float(value)
    if not math.isfinite(value):
        raise ValueError("score is not finite: %r" % value)
    text = "%.*f" % (digits, value)
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text


def ordered_scores(scores, primary):
    """The primary key first, then the family's order; every value a plain float: the order of the scores files.

    >>> ordered_scores({"f1": 0.5, "kappa": 1}, "kappa")
    {'kappa': 1.0, 'f1': 0.5}
    """
    ordered = {primary: float(scores[primary])}
    ordered.update((k, float(v)) for k, v in scores.items() if k != primary)
    return ordered


def ordered_keys(keys, primary):
    """The leaderboard keys with the primary one first."""
    return [primary] + [k for k in keys if k != primary]


def scores_txt(scores):
    return "".join("%s: %s\n" % (key, format_number(value)) for key, value in scores.items())


def scores_json(scores):
    items = ",\n".join('  "%s": %s' % (key, format_number(value)) for key, value in scores.items())
    return "{\n%s\n}\n" % items


def write_text(path, text):
    """Write ``text`` as UTF-8 (a lone surrogate is escaped, never an error); OutputError if OUTPUT refuses it."""
    folder = os.path.dirname(path)
    try:
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        raise OutputError(CANNOT_WRITE(path=path, reason=exc.strerror or type(exc).__name__))


def write_scores(output_dir, scores, prefix=""):
    """Write ``{prefix}scores.txt`` and ``{prefix}scores.json`` into ``output_dir``."""
    for key in scores:
        if ":" in key or not key.strip():
            raise ValueError("invalid score key %r" % key)
    write_text(os.path.join(output_dir, prefix + "scores.txt"), scores_txt(scores))
    write_text(os.path.join(output_dir, prefix + "scores.json"), scores_json(scores))
