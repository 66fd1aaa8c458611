"""Participant-facing wording in the competition's language (config key ``language: en|zh``).

Only the texts participants read outside the scores go through here: the
framing of score.py's one error line, the starting kit's validate tool and the
per-row problems a family lists for it. Templates use ``str.format`` fields.

>>> error_line("submission error", "x.csv line 2: bad", "zh")
'错误（提交文件有误）：x.csv line 2: bad'
>>> where("zh", "a.csv", line=7, unit="5", column="class")
'a.csv 第 7 行（id 5），列 class'
"""
import os

from . import errors

LANGUAGES = ("en", "zh")

_WHO_ZH = {
    "submission error": "提交文件有误",
    "competition configuration error": "竞赛配置错误",
    "reference data error": "参考数据错误",
    "internal error": "评分程序内部错误",
}

MESSAGES = {
    "empty_id": ("{where}: the id is empty; every row needs the id of a test item.",
                 "{where}：id 为空；每一行都需要一个测试样本的 id。"),
    "duplicate_id": ("{where}: id {id} appears again (first on line {first}); keep one row per id.",
                     "{where}：id {id} 重复出现（第一次在第 {first} 行）；每个 id 只保留一行。"),
    "unknown_id": ("{where}: id {id} is not in the test set; use the ids of the test set exactly as given.",
                   "{where}：id {id} 不在测试集中；请原样使用测试集给出的 id。"),
    "missing_ids": ("{file}: {n} id(s) of the test set have no row ({shown}); write one row for every id.",
                    "{file}：测试集中有 {n} 个 id 没有对应的行（{shown}）；每个 id 都要写一行。"),
    "bad_class": ("{where}: {value} is not a class; use 0 (negative), 1 (positive) or 2 (neutral).",
                  "{where}：{value} 不是合法的类别；请使用 0（负面）、1（正面）或 2（中性）。"),
    "bad_tag": ("{where}: tag {pos} is {token}, which is not a tag ({count} unknown tag(s) in this row); "
                "use only {tags}.",
                "{where}：第 {pos} 个标签 {token} 不是合法标签（本行共 {count} 个非法标签）；只能使用 {tags}。"),
    "tag_count": ("{where}: {given} tags for a comment of {length} characters; give exactly one tag per "
                  "character, separated by spaces.",
                  "{where}：评论有 {length} 个字符，却给出了 {given} 个标签；每个字符恰好一个标签，用空格分隔。"),
    "ok": ("{file}: no problems found (checked against the {n} test items).",
           "{file}：未发现问题（已对照 {n} 个测试样本检查）。"),
    "found": ("{file}: {n} problem(s) found:",
              "{file}：发现 {n} 个问题："),
    "no_public": ("cannot find the public test inputs {name} in {folder}; run this from the starting kit "
                  "or pass --public.",
                  "在 {folder} 中找不到公开测试输入 {name}；请在 starting kit 目录中运行，或用 --public 指定。"),
    "no_config": ("cannot find the task configuration ({name}); pass --config.",
                  "找不到任务配置（{name}）；请用 --config 指定。"),
}


def pick(lang):
    return lang if lang in LANGUAGES else "en"


def text(key, lang="en", **fields):
    """The message ``key`` in ``lang`` with ``fields`` filled in."""
    en, zh = MESSAGES[key]
    return (zh if pick(lang) == "zh" else en).format(**fields)


_WHERE_ZH = (" 第 %d 行", "（id %s）", "，列 %s")


def where(lang, file, line=None, column=None, unit=None):
    """A location: ``a.csv line 7 (id 5), column class`` or its Chinese form."""
    if pick(lang) != "zh":
        return errors.where(file, line, column, unit)
    parts = [str(file)]
    for template, value in zip(_WHERE_ZH, (line, unit, column)):
        if value is not None:
            parts.append(template % value)
    return "".join(parts)


def error_line(who, message, lang="en"):
    """score.py's one stderr line: ``ERROR (<who>): <message>``, framed in the competition's language."""
    if pick(lang) == "zh":
        return "错误（%s）：%s" % (_WHO_ZH.get(who, who), message)
    return "ERROR (%s): %s" % (who, message)


def language_of(input_dir):
    """``language`` of INPUT/ref's config.yaml (found as score.py finds it), or ``en`` (never raises)."""
    from .config import find_config, read_raw

    try:
        raw = read_raw(find_config(os.path.join(input_dir, "ref")))
    except (errors.ScoringError, OSError):
        return "en"
    return pick(raw.get("language", "en")) if isinstance(raw, dict) else "en"
