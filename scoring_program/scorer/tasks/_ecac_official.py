r"""What the official SemEval-2024 Task 3 scorer accepts in a submission, read the way it reads it.

The official scorer turns every number of a pair into an integer with Python's
``int()`` and checks nothing else: utterance numbers outside the conversation,
empty, reversed, negative spans and spans past the last token are all scored
(they simply match no gold pair, but their lengths still enter the proportional
precision). ``int()`` also takes surrounding white space, a sign, leading zeros
and, in a string that was not split on ``_`` before, single underscores between
digits (``"2_0_5"`` as a subtask 2 cause is utterance 205). A ``U`` anywhere in
the emotion utterance is deleted; the emotion itself must be written exactly.

Three deliberate differences, each refused with its own message:

- only the ASCII digits 0-9 (``int()`` also reads Arabic-Indic or full-width ones);
- at most 9 significant digits (beyond, sums of span lengths could stop being
  exact in floating point);
- a span with ``start < 0 < end``: the official scorer divides by the length of
  a gold span it could not locate ([0, 0]) when such a span meets one of the
  same utterances and emotion, and crashes; refusing them all keeps the verdict
  independent of the hidden gold.

>>> values, status = parse_ints(pd.Series([" +3", "007", "-2", "\u3000""4\u3000", "3_0", "x", "\u0663", "1234567890"]))
>>> values.tolist(), status.tolist()
([3, 7, -2, 4, 0, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1, 2])
>>> parse_ints(pd.Series(["3_0", "1__0"]), underscores=True)[0].tolist()
[30, 0]
>>> [python_int(v) for v in (1375, "1_375", " 1375 ", 1375.9, True, float("nan"), "1375.0", None)]
[1375, 1375, 1375, 1375, 1, None, None, None]
"""
import math
import re

import numpy as np
from ..bytelevel.lazy import pandas as pd

from ..problems import Message
from ..quoting import clip

# the white space int() strips: str.isspace() less the four ASCII separators \x1c-\x1f
INT_SPACE = r"[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_INT = r"\A%s*([+-]?)([0-9]+)%s*\Z" % (INT_SPACE, INT_SPACE)
_INT_UNDERSCORES = r"\A%s*([+-]?)([0-9]+(?:_[0-9]+)*)%s*\Z" % (INT_SPACE, INT_SPACE)
MAX_DIGITS = 9
OK, NOT_A_NUMBER, TOO_LARGE = 0, 1, 2


def parse_ints(texts, underscores=False):
    """(int64 values, status) of ``int(text)`` for a Series of strings, ASCII digits only.

    status: OK, NOT_A_NUMBER (int() would fail, or the digits are not ASCII) or
    TOO_LARGE (more than MAX_DIGITS significant digits); the value is 0 unless OK.
    """
    texts = pd.Series(texts, dtype=object)
    if not len(texts):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    parts = texts.astype(str).str.extract(_INT_UNDERSCORES if underscores else _INT)
    found = parts[1].notna().to_numpy()
    digits = parts[1].fillna("").str.replace("_", "", regex=False).str.lstrip("0")
    large = found & (digits.str.len().to_numpy() > MAX_DIGITS)
    usable = found & ~large
    magnitude = digits.where(usable, "").replace("", "0").astype(np.int64).to_numpy()
    values = np.where((parts[0] == "-").to_numpy(), -magnitude, magnitude).astype(np.int64)
    status = np.where(found, np.where(large, TOO_LARGE, OK), NOT_A_NUMBER).astype(np.int64)
    return values, status


def python_int(value):
    """``int(value)`` of a JSON scalar as the official scorer takes it (ASCII digits only), or None.

    Integers and booleans are themselves (true is 1), a finite float is cut
    towards zero, a string follows ``int()``'s grammar with underscores.
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else None
    if isinstance(value, str) and re.match(_INT_UNDERSCORES, value):
        try:
            return int(value)  # the grammar is int()'s, less the non-ASCII digits; no size limit for ids
        except ValueError:  # more digits than Python converts (4300 since 3.11): int() fails officially too
            return None
    return None


def scalar_ints(values):
    """(int64 values, status) of a list of JSON scalars (subtask 2 causes): strings as ``parse_ints`` with
    underscores, numbers as ``python_int``; anything else (null, lists, NaN) is NOT_A_NUMBER."""
    values = list(values)
    out = np.zeros(len(values), dtype=np.int64)
    status = np.full(len(values), NOT_A_NUMBER, dtype=np.int64)
    is_str = np.array([type(v) is str for v in values], dtype=bool)
    if is_str.any():
        text = pd.Series([values[i] for i in np.flatnonzero(is_str)], dtype=object)
        out[is_str], status[is_str] = parse_ints(text, underscores=True)
    for i in np.flatnonzero(~is_str):  # JSON numbers in a cause: rare
        number = python_int(values[i]) if type(values[i]) in (int, bool, float) else None
        if number is not None:
            large = abs(number) >= 10 ** MAX_DIGITS
            out[i], status[i] = (0, TOO_LARGE) if large else (number, OK)
    return out, status


def has_non_ascii_digit(text):
    """Whether ``text`` holds a decimal digit that is not 0-9 (for a clearer message)."""
    return any(ch.isdecimal() and not ch.isascii() for ch in str(text))


FIELD_NAMES = {"emotion utterance": Message("ecac.field_emotion_utterance", "emotion utterance", "情感话语编号"),
               "cause utterance": Message("ecac.field_cause_utterance", "cause utterance", "原因话语编号"),
               "span start": Message("ecac.field_span_start", "span start", "片段起点"),
               "span end": Message("ecac.field_span_end", "span end", "片段终点")}
_FIELDS = {1: ("emotion utterance", "cause utterance", "span start", "span end"),
           2: ("emotion utterance", "cause utterance")}

SHAPE = Message("ecac.pair_shape", "a pair must be a list of two strings, like {example}.",
                "每个配对必须是两个字符串组成的列表，例如 {example}。")
HEAD_ONE_UNDERSCORE = Message("ecac.head_one_underscore", 'the first element must be <emotion utterance>_<emotion> with '
                              'one "_", like "3_joy".', '第一个元素必须是 <情感话语编号>_<情感>，只含一个“_”，例如 "3_joy"。')
UNKNOWN_EMOTION_OFFICIAL = Message("ecac.unknown_emotion_official", "unknown emotion {emotion}; the first element is "
                                   "<emotion utterance>_<emotion>, the emotion one of {emotions} (lower case, nothing "
                                   "around it).", "未知的情感 {emotion}；第一个元素是 <情感话语编号>_<情感>，情感须为 {emotions} "
                                   "之一（小写，前后不加任何字符）。")
CAUSE_THREE_NUMBERS = Message("ecac.cause_three_numbers", 'the cause must be <utterance>_<start>_<end>, three whole '
                              'numbers joined by "_", like "2_0_5"{hint}.',
                              '原因必须是 <话语编号>_<起点>_<终点>，三个整数用“_”连接，例如 "2_0_5"{hint}。')
TEXT_HINT = Message("ecac.text_hint", " (token indices, not the cause text; no letter, no 'U')",
                    "（写词元下标，不要写原因文本；不要字母，不要“U”）")
SPAN_CROSSING = Message("ecac.span_crossing", "the span {start}_{end} starts before token 0 and ends after it. The "
                        "official scorer fails on such a span when it meets a gold span it could not locate, so it is "
                        "refused whatever the gold; give a start of 0 or more.",
                        "片段 {start}_{end} 起点在第 0 个词元之前而终点在其之后。官方评分程序遇到无法定位的标准片段时会在这种片段上出错，"
                        "因此无论标准答案如何都拒绝它；请给出不小于 0 的起点。")
TOO_MANY_DIGITS = Message("ecac.too_many_digits", "the {field} {text} has more than {n} digits; give a number below "
                          "10^{n}.", "{field} {text} 超过 {n} 位；请给出小于 10^{n} 的数。")
NOT_ASCII_DIGITS = Message("ecac.not_ascii_digits", "the {field} {text} is not written with the digits 0-9; write "
                           "numbers with ASCII digits.", "{field} {text} 不是用数字 0-9 写的；请用半角数字。")
CAUSE_UTTERANCE_NUMBER = Message("ecac.cause_utterance_number", 'the cause must be the number of the cause utterance, '
                                 'like "2" (no "U" prefix, no span); got {text}.',
                                 '原因必须是原因话语的编号，例如 "2"（不加“U”前缀，不写片段）；实际为 {text}。')
NOT_WHOLE = Message("ecac.not_whole", "the {field} {text} is not a whole number{hint}.", "{field} {text} 不是整数{hint}。")


def official_fields(flat, subtask, emotion_code, fail):
    """(emo_utt, cause_utt, start, end, emotion) int64 arrays of the pairs ``flat`` of ``subtask``, read as
    the official scorer reads them; ``fail(i, problem)`` raises for pair i.

    Subtask 1: a list of exactly two strings, ``"<utt>_<emotion>"`` and
    ``"<utt>_<start>_<end>"``. Subtask 2: a list of at least two elements (the
    others are not read), ``"<utt>_<emotion>"`` and the cause utterance as a
    string or a JSON number.
    """
    if subtask == 1:
        shape = [type(p) is list and len(p) == 2 and type(p[0]) is str and type(p[1]) is str for p in flat]
        example = '["3_joy", "2_0_5"]'
    else:
        shape = [type(p) is list and len(p) >= 2 and type(p[0]) is str and type(p[1]) in (str, int, bool, float)
                 for p in flat]
        example = '["3_joy", "2"]'
    bad = np.flatnonzero(~np.array(shape, dtype=bool))
    if len(bad):
        fail(int(bad[0]), SHAPE(example=example))
    n = len(flat)
    heads = pd.Series([p[0] for p in flat], dtype=object)
    head = heads.str.extract(r"\A([^_]*)_([^_]*)\Z") if n else pd.DataFrame({0: [], 1: []}, dtype=object)
    bad = np.flatnonzero(head[0].isna().to_numpy())
    if len(bad):
        fail(int(bad[0]), HEAD_ONE_UNDERSCORE())
    known = head[1].isin(list(emotion_code)).to_numpy()
    if not known.all():
        i = int(np.flatnonzero(~known)[0])
        fail(i, UNKNOWN_EMOTION_OFFICIAL(emotion=repr(clip(head[1].iloc[i])), emotions=", ".join(emotion_code)))
    emotion = head[1].map(emotion_code).to_numpy(dtype=np.int64) if n else np.zeros(0, dtype=np.int64)
    numbers = [parse_ints(head[0].str.replace("U", "", regex=False))]  # officially every U is deleted
    texts = [head[0]]
    if subtask == 1:
        causes = pd.Series([p[1] for p in flat], dtype=object)
        cause = causes.str.extract(r"\A([^_]*)_([^_]*)_([^_]*)\Z") if n else pd.DataFrame({0: [], 1: [], 2: []})
        bad = np.flatnonzero(cause[0].isna().to_numpy())
        if len(bad):
            fail(int(bad[0]), CAUSE_THREE_NUMBERS(hint=_text_hint(causes.iloc[int(bad[0])])))
        numbers += [parse_ints(cause[k]) for k in range(3)]
        texts += [cause[k] for k in range(3)]
    else:
        causes = [p[1] for p in flat]
        numbers.append(scalar_ints(causes))
        texts.append(pd.Series([c if type(c) is str else repr(c) for c in causes], dtype=object))
    for field, (_, status), text in zip(_FIELDS[subtask], numbers, texts):
        bad = np.flatnonzero(status != OK)
        if len(bad):
            i = int(bad[0])
            fail(i, _number_problem(field, text.iloc[i], status[i], subtask))
    values = [v for v, _ in numbers]
    if subtask == 1:
        emo_utt, cause_utt, start, end = values
        crossing = np.flatnonzero((start < 0) & (end > 0))
        if len(crossing):
            i = int(crossing[0])
            fail(i, SPAN_CROSSING(start=int(start[i]), end=int(end[i])))
    else:
        emo_utt, cause_utt = values
        start = end = np.zeros(n, dtype=np.int64)
    return emo_utt, cause_utt, start, end, emotion


def _text_hint(text):
    return TEXT_HINT() if any(ch.isalpha() for ch in str(text)) else ""


def _number_problem(field, text, status, subtask):
    name = FIELD_NAMES[field]()
    if status == TOO_LARGE:
        return TOO_MANY_DIGITS(field=name, text=clip(text), n=MAX_DIGITS)
    if has_non_ascii_digit(text):
        return NOT_ASCII_DIGITS(field=name, text=repr(clip(text)))
    if field == "cause utterance" and subtask == 2:
        return CAUSE_UTTERANCE_NUMBER(text=clip(text))
    return NOT_WHOLE(field=name, text=repr(clip(text)), hint=_text_hint(text))
