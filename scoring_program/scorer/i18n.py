"""The framing of what participants read, in the competition's language (config key ``language: en|zh``).

The messages themselves are ``scorer.problems.Message`` objects declared with
the code that finds each problem; here are only the frame of score.py's one
error line and how a place is written (``where``); the starting kit's tools
declare their own in ``kit``.

>>> error_line("submission error", "x.csv line 2: bad", "zh")
'错误（提交文件有误）：x.csv line 2: bad'
>>> where("zh", "a.csv", line=7, unit="5", column="class")
'a.csv 第 7 行（id 5），列 class'
"""
from .quoting import clip

LANGUAGES = ("en", "zh")   # the languages of every message and page

_WHO_ZH = {
    "submission error": "提交文件有误",
    "competition configuration error": "竞赛配置错误",
    "reference data error": "参考数据错误",
    "internal error": "评分程序内部错误",
    "phase closed": "阶段已结束",
}


def pick(lang):
    return lang if lang in LANGUAGES else "en"


_WHERE_ZH = (" 第 %d 行", "（id %s）", "，列 %s")


_WHERE_EN = (" line %d", " (id %s)", ", column %s")


def where(lang, file, line=None, column=None, unit=None):
    """A location: ``a.csv line 7 (id 5), column class`` or its Chinese form; long names are cut.

    >>> where("en", "a.csv", line=7, unit="5", column="class")
    'a.csv line 7 (id 5), column class'
    """
    parts = [clip(file, 80)]
    templates = _WHERE_ZH if pick(lang) == "zh" else _WHERE_EN
    for template, value, limit in zip(templates, (line, unit, column), (None, 40, 40)):
        if value is not None:
            parts.append(template % (value if limit is None else clip(value, limit)))
    return "".join(parts)


def who_text(who, lang="en"):
    """The kind of a failure (``submission error``, ...) in ``lang``."""
    return _WHO_ZH.get(who, who) if pick(lang) == "zh" else who


def error_line(who, message, lang="en"):
    """score.py's one stderr line: ``ERROR (<who>): <message>``, framed in the competition's language."""
    if pick(lang) == "zh":
        return "错误（%s）：%s" % (_WHO_ZH.get(who, who), message)
    return "ERROR (%s): %s" % (who, message)
