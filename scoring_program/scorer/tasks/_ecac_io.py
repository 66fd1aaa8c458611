"""Reading ECAC JSON files (SemEval-2024 Task 3): the gold conversations and a participant's pairs.

A file is a JSON list of conversations::

    [{"conversation_ID": 1375,
      "conversation": [{"utterance_ID": 1, "text": "Buzz him in .", ...}, ...],
      "emotion-cause_pairs": [["3_joy", "2_0_5"], ...]}, ...]

A pair's first element is ``<emotion utterance>_<emotion>``; its second the
cause: in the gold of subtask 1 ``<utterance>_<span text>``, in a subtask 1
prediction ``<utterance>_<start>_<end>`` (whitespace tokens, end exclusive), in
subtask 2 ``<utterance>``. Utterances are numbered from 1 in list order.

Gold span texts become token positions as the official scorer does: leading
and trailing ASCII punctuation and spaces are stripped (repeatedly), then the
first occurrence of its tokens in the utterance is taken; a span that cannot be
found becomes [0, 0], as officially (in mode official a predicted ``<utt>_0_0``
with the same utterances and emotion matches it; mode clean refuses ``0_0``).

>>> clean_span(" ... so , you ! ")
'so , you'
>>> locate_span("you .", "Thank you . Thank you .")
(1, 3)
>>> locate_span("nobody", "Thank you .")
(0, 0)
"""
import json
import string
from dataclasses import dataclass
from typing import List

import numpy as np
from ..bytelevel.lazy import pandas as pd

from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics.cause_spans import Pairs, first_occurrences
from ..problems import Message, Reason
from ..textio import JSON_REASONS, decode
from ._ecac_official import FIELD_NAMES, has_non_ascii_digit, official_fields, python_int

EMOTIONS = ("neutral", "anger", "disgust", "fear", "joy", "sadness", "surprise")
EMOTION_CODE = {e: k for k, e in enumerate(EMOTIONS)}
PAIRS_KEY = "emotion-cause_pairs"
_PUNCT = set(string.punctuation)
_NUMBER = r"([0-9]{1,6})"  # ASCII digits only (\d would take any script's digits)

EMPTY_JSON = Message("ecac.empty", "{file} is empty; it needs a JSON list with every test conversation.",
                     "{file} 为空；需要一个包含全部测试对话的 JSON 列表。")
BAD_JSON = Message("ecac.bad_json", "{file} line {line} column {column} is not valid JSON ({reason}); save the file "
                   "with json.dump.", "{file} 第 {line} 行第 {column} 列不是合法的 JSON（{reason}）；请用 json.dump 保存文件。")
BAD_JSON_VALUE = Message("ecac.bad_json_value", "{file} is not valid JSON ({reason}); save the file with json.dump.",
                         "{file} 不是合法的 JSON（{reason}）；请用 json.dump 保存文件。")
TOO_DEEP_JSON = Message("ecac.too_deep", "{file} is nested too deeply to be a list of conversations.",
                        "{file} 嵌套过深，不可能是对话列表。")
NOT_A_LIST = Message("ecac.not_a_list", "{file} must be a JSON list of conversations, like {example}.",
                     "{file} 必须是对话组成的 JSON 列表，例如 {example}。")
NOT_AN_OBJECT = Message("ecac.not_an_object", "{file}: entry {n} is {kind}, not a conversation object like {example}.",
                        "{file}：第 {n} 项是 {kind}，不是对话对象（例如 {example}）。")
NO_ID = Message("ecac.no_id", "{file}: entry {n} has no conversation_ID; give each conversation its integer "
                "conversation_ID.", "{file}：第 {n} 项没有 conversation_ID；每个对话都要给出整数 conversation_ID。")
BAD_ID = Message("ecac.bad_id", "{file}: entry {n} has the conversation_ID {value}; give each conversation its integer "
                 "conversation_ID{hint}.", "{file}：第 {n} 项的 conversation_ID 为 {value}；每个对话都要给出整数 "
                 "conversation_ID{hint}。")
DIGITS_ONLY = Message("ecac.digits_only", " (digits 0-9)", "（用数字 0-9）")
NO_PAIR_LIST = Message("ecac.no_pair_list", "{file}: conversation {conv} has no list '{key}'; give one (empty if you "
                       "find no pair).", "{file}：对话 {conv} 没有列表“{key}”；请给出（没有配对时给空列表）。")
TWICE = Message("ecac.twice", "{file} lists conversation {conv} twice; give each conversation once.",
                "{file} 中对话 {conv} 出现了两次；每个对话只写一次。")
NOT_A_TEST_CONVERSATION = Message("ecac.not_a_test_conversation", "{file}: conversation {conv} is not a test "
                                  "conversation; give exactly the conversations of the test file.",
                                  "{file}：对话 {conv} 不是测试对话；请恰好给出测试文件中的对话。")
MISSING = Message("ecac.missing", "{file}: conversation {conv} is missing ({n} of {total} test conversations are); list "
                  "every test conversation, with an empty '{key}' list if it has no pair.",
                  "{file}：缺少对话 {conv}（{total} 个测试对话中缺了 {n} 个）；请列出每个测试对话，没有配对时给空的“{key}”列表。")
PAIR = Message("ecac.pair", "{file}, conversation {conv}, pair {n} {pair}: {problem}",
               "{file}，对话 {conv}，第 {n} 个配对 {pair}：{problem}")
PAIR_SHAPE = Message("ecac.pair_list", 'a pair must be a list of two strings, like ["3_joy", "{example}"].',
                     '每个配对必须是两个字符串组成的列表，例如 ["3_joy", "{example}"]。')
EMOTION_FORMAT = Message("ecac.emotion_format", 'the first element must be <emotion utterance>_<emotion>, like '
                         '"3_joy"{hint}.', '第一个元素必须是 <情感话语编号>_<情感>，例如 "3_joy"{hint}。')
UNKNOWN_EMOTION = Message("ecac.unknown_emotion", "unknown emotion {emotion}; use one of {emotions} (lower case).",
                          "未知的情感 {emotion}；请使用 {emotions} 之一（小写）。")
CAUSE_NOT_A_STRING = Message("ecac.cause_not_a_string", 'the cause must be a string <utterance>_<start>_<end>, like '
                             '"2_0_5".', '原因必须是字符串 <话语编号>_<起点>_<终点>，例如 "2_0_5"。')
CAUSE_FORMAT = Message("ecac.cause_format", 'the cause must be <utterance>_<start>_<end>, like "2_0_5" ({hint}).',
                       '原因必须是 <话语编号>_<起点>_<终点>，例如 "2_0_5"（{hint}）。')
TOKENS_NOT_TEXT = Message("ecac.tokens_not_text", "give token indices, not the cause text, and no 'U' before the "
                          "utterance number", "请给出词元下标，不要写原因文本，话语编号前不要加“U”")
DIGITS_0_9 = Message("ecac.digits_0_9", "write numbers with the digits 0-9", "请用数字 0-9 书写")
THREE_NUMBERS = Message("ecac.three_numbers", "use three numbers", "请写三个数")
DIGITS_HINT = Message("ecac.digits_hint", "; write numbers with the digits 0-9", "；请用数字 0-9 书写")
CAUSE_UTTERANCE = Message("ecac.cause_utterance", 'the cause must be the number of the cause utterance, like "2" (no '
                          '"U" prefix, no span){hint}.', '原因必须是原因话语的编号，例如 "2"（不加“U”前缀，不写片段）{hint}。')
NO_UTTERANCE = Message("ecac.no_utterance", "the {field} {n} does not exist; this conversation has utterances 1 to "
                       "{utts}.", "{field} {n} 不存在；该对话的话语编号为 1 到 {utts}。")
SPAN_OUTSIDE = Message("ecac.span_outside", "the span {start}_{end} is outside utterance {utt}, which has {tokens} "
                       "tokens; give start_end with 0 <= start < end <= {tokens} (end exclusive).",
                       "片段 {start}_{end} 超出了话语 {utt}（共 {tokens} 个词元）；请给出满足 0 <= 起点 < 终点 <= {tokens} "
                       "的 起点_终点（终点不含）。")
GOLD_NOT_A_LIST = Message("reference.ecac_not_a_list", "{file} must be a JSON list of conversations.", None)
GOLD_NO_ID = Message("reference.ecac_no_id", "{file}: entry {n} has no integer conversation_ID.", None)
GOLD_NO_LISTS = Message("reference.ecac_no_lists", "{file}: conversation {conv} needs the lists 'conversation' and "
                        "'{key}'.", None)
GOLD_REPEATED = Message("reference.ecac_repeated", "{file} repeats conversation {conv}.", None)
GOLD_NO_TEXT = Message("reference.ecac_no_text", "{file}: conversation {conv} has an utterance without a text.", None)
GOLD_PAIR_SHAPE = Message("reference.ecac_pair_shape", '{file}: conversation {conv} has a pair that is not '
                          '["<utt>_<emotion>", cause]: {pair}.', None)
GOLD_PAIR_MALFORMED = Message("reference.ecac_pair_malformed", "{file}: conversation {conv} has the malformed pair "
                              "{pair}.", None)
GOLD_OTHER_SUBTASK = Message("reference.ecac_other_subtask", "{file}: conversation {conv} is not in the other "
                             "subtask's gold.", None)
GOLD_UTTERANCE = Message("reference.ecac_utterance", "{file}: conversation {conv} has {n} utterances but the pair "
                         "{pair} names another.", None)


def clean_span(text):
    """Strip spaces and ASCII punctuation from both ends until neither end is punctuation."""
    while True:
        text = text.strip()
        if not text or (text[0] not in _PUNCT and text[-1] not in _PUNCT):
            return text
        if text[0] in _PUNCT:
            text = text[1:]
        if text and text[-1] in _PUNCT:
            text = text[:-1]


def locate_span(span, utterance):
    """(start, end) of the first whitespace-token occurrence of ``span`` in ``utterance``; (0, 0) if none."""
    want, tokens = span.split(), utterance.split()
    n = len(want)
    if n == 0:
        return 0, 0
    for i in range(len(tokens) - n + 1):
        if tokens[i:i + n] == want:
            return i, i + n
    return 0, 0


def read_json(data, name, error):
    """The JSON value of a file's bytes (UTF-8, with or without BOM, UTF-16 or GB18030)."""
    text = decode(data, name, error)
    if not text.strip():
        raise error(EMPTY_JSON.at(name))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(BAD_JSON.at(name, exc.lineno, column=str(exc.colno), reason=JSON_REASONS.get(exc.msg, exc.msg)))
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise error(BAD_JSON_VALUE.at(name, reason=Reason(exc, named=False)))
    except RecursionError:
        raise error(TOO_DEEP_JSON.at(name))


def conversation_id(value):
    """The id as a canonical string ('1375'), or None if it is not a non-negative integer."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if value >= 0 else None
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        return str(int(value.strip()))
    return None


@dataclass
class Conversations:
    """The test conversations: ids in file order and the token count of every utterance."""

    ids: np.ndarray          # str, file order
    n_utts: np.ndarray       # utterances per conversation
    utt_offset: np.ndarray   # index in n_tokens of each conversation's first utterance
    n_tokens: np.ndarray     # whitespace tokens per utterance, all conversations concatenated
    texts: List[List[str]]

    def tokens_of(self, conv, utt):
        """Token counts of (conversation index, utterance number from 1) arrays; utterances must exist."""
        return self.n_tokens[self.utt_offset[conv] + utt - 1]


def _gold_list(data, name, with_pairs=True):
    if not isinstance(data, list):
        raise ReferenceDataError(GOLD_NOT_A_LIST(file=name))
    for k, conv in enumerate(data):
        if not isinstance(conv, dict) or conversation_id(conv.get("conversation_ID")) is None:
            raise ReferenceDataError(GOLD_NO_ID(file=name, n=k + 1))
        has_pairs = isinstance(conv.get(PAIRS_KEY), list) or not with_pairs
        if not has_pairs or not isinstance(conv.get("conversation"), list):
            raise ReferenceDataError(GOLD_NO_LISTS(file=name, conv=conv["conversation_ID"], key=PAIRS_KEY))
    return data


def read_conversations(data, name, with_pairs=True):
    """Conversations of a gold file, or of the public test file with ``with_pairs=False``.

    A wrong shape is a ReferenceDataError.
    """
    data = _gold_list(data, name, with_pairs)
    ids = np.array([conversation_id(c["conversation_ID"]) for c in data], dtype=object)
    dup = pd.Index(ids).duplicated()
    if dup.any():
        raise ReferenceDataError(GOLD_REPEATED(file=name, conv=ids[dup][0]))
    texts = []
    for c in data:
        utts = c["conversation"]
        if not all(isinstance(u, dict) and isinstance(u.get("text"), str) for u in utts):
            raise ReferenceDataError(GOLD_NO_TEXT(file=name, conv=c["conversation_ID"]))
        texts.append([u["text"] for u in utts])
    n_utts = np.array([len(t) for t in texts], dtype=np.int64)
    n_tokens = np.array([len(u.split()) for t in texts for u in t], dtype=np.int64)
    offset = np.cumsum(n_utts) - n_utts
    return Conversations(ids, n_utts, offset, n_tokens, texts)


def _gold_pair_fields(pair, name, cid):
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
        raise ReferenceDataError(GOLD_PAIR_SHAPE(file=name, conv=cid, pair=_clip(pair)))
    head, _, emotion = pair[0].partition("_")
    head = head[1:] if head.startswith("U") else head
    cause = str(pair[1])
    cause_utt, _, span = cause.partition("_")
    cause_utt = cause_utt[1:] if cause_utt.startswith("U") else cause_utt
    if not head.isdigit() or not cause_utt.isdigit() or emotion not in EMOTION_CODE:
        raise ReferenceDataError(GOLD_PAIR_MALFORMED(file=name, conv=cid, pair=_clip(pair)))
    return int(head), EMOTION_CODE[emotion], int(cause_utt), span


def read_gold_pairs(data, convs, name, subtask):
    """Gold pairs of one subtask as Pairs (duplicates removed); plus notes for the organizer."""
    data = _gold_list(data, name)
    index = {cid: k for k, cid in enumerate(convs.ids)}
    rows, notes = [], []
    for c in data:
        cid = conversation_id(c["conversation_ID"])
        if cid not in index:
            raise ReferenceDataError(GOLD_OTHER_SUBTASK(file=name, conv=cid))
        k = index[cid]
        for pair in c[PAIRS_KEY]:
            emo_utt, emotion, cause_utt, span = _gold_pair_fields(pair, name, cid)
            if not (1 <= emo_utt <= convs.n_utts[k] and 1 <= cause_utt <= convs.n_utts[k]):
                raise ReferenceDataError(GOLD_UTTERANCE(file=name, conv=cid, n=int(convs.n_utts[k]), pair=_clip(pair)))
            start = end = 0
            if subtask == 1:
                start, end = locate_span(clean_span(span), convs.texts[k][cause_utt - 1])
                if end == 0:
                    notes.append("%s: conversation %s, pair %r: the cause text is not found in utterance %d; "
                                 "it is placed at the span [0, 0], as the official scorer places it (in mode "
                                 "official a predicted %d_0_0 matches it; mode clean refuses 0_0)."
                                 % (name, cid, pair, cause_utt, cause_utt))
            rows.append((k, emo_utt, cause_utt, start, end, emotion))
    pairs = Pairs.of(rows)
    keep = first_occurrences(pairs)
    if len(keep) < len(pairs):
        notes.append("%s: %d duplicate gold pair(s) removed (after locating spans)." % (name, len(pairs) - len(keep)))
    return pairs.take(keep), notes


@dataclass
class Submitted:
    """A participant's pairs for one subtask, validated, duplicates removed."""

    pairs: Pairs
    read_conv: np.ndarray  # conversation index of every pair read, duplicates included
    n_unknown_conversations: int


def _clip(value, limit=60):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def official_conversation_id(value):
    """The id as the official scorer reads it, ``int(value)``, as a canonical string; None if int() fails
    or a string holds digits other than 0-9.

    >>> [official_conversation_id(v) for v in (1375, " 1375", "+01_375", 1375.7, True, -2, "x", None)]
    ['1375', '1375', '1375', '1375', '1', '-2', None, None]
    """
    number = python_int(value)
    return None if number is None else str(number)


def _pair_list(entry, name, cid, official):
    """The pair list of a conversation entry. Officially an empty string or an empty object is read as no
    pair (iterating it gives nothing); anything else that is not a list is refused."""
    pairs = entry.get(PAIRS_KEY)
    if isinstance(pairs, list):
        return pairs
    if official and PAIRS_KEY in entry and isinstance(pairs, (str, dict)) and not pairs:
        return []
    raise SubmissionError(NO_PAIR_LIST.at(name, conv=cid, key=PAIRS_KEY))


def _submitted_conversations(data, name, convs, unknown, official=False):
    """(ref index per kept entry, pair lists per kept entry, conversation ids, unknown count).

    ``official``: ids are read with int() (floats cut, strings with signs and underscores) and the
    entries of conversations that are not in the test set are not looked into, as officially.
    """
    example = '[{"conversation_ID": %s, "%s": [...]}, ...]' % (convs.ids[0] if len(convs.ids) else 1, PAIRS_KEY)
    if not isinstance(data, list):
        raise SubmissionError(NOT_A_LIST.at(name, example=example))
    read_id = official_conversation_id if official else conversation_id
    ids = []
    for k, entry in enumerate(data):  # one iteration per conversation
        if not isinstance(entry, dict):
            raise SubmissionError(NOT_AN_OBJECT.at(name, n=k + 1, kind=type(entry).__name__, example=example))
        cid = read_id(entry.get("conversation_ID"))
        if cid is None:
            if "conversation_ID" not in entry:
                raise SubmissionError(NO_ID.at(name, n=k + 1))
            raise SubmissionError(BAD_ID.at(name, n=k + 1, value=_clip(entry["conversation_ID"]),
                                            hint=DIGITS_ONLY() if has_non_ascii_digit(entry["conversation_ID"]) else ""))
        if not official:
            _pair_list(entry, name, cid, official)
        ids.append(cid)
    ids = np.array(ids, dtype=object)
    dup = pd.Index(ids).duplicated()
    if dup.any():
        raise SubmissionError(TWICE.at(name, conv=ids[dup][0]))
    position = pd.Index(convs.ids).get_indexer(ids) if len(ids) else np.zeros(0, dtype=np.int64)
    n_unknown = int((position < 0).sum())
    if n_unknown and unknown == "error":
        raise SubmissionError(NOT_A_TEST_CONVERSATION.at(name, conv=ids[position < 0][0]))
    kept = np.flatnonzero(position >= 0)
    pair_lists = [_pair_list(data[k], name, ids[k], official) for k in kept]
    present = np.zeros(len(convs.ids), dtype=bool)
    present[position[kept]] = True
    if not present.all():
        missing = convs.ids[~present]
        raise SubmissionError(MISSING.at(name, conv=missing[0], n=len(missing), total=len(convs.ids), key=PAIRS_KEY))
    return position[kept], pair_lists, ids[kept], n_unknown


def read_submission(data, name, convs, subtask, problems, unknown="error", official=False):
    """Validate a participant's JSON value for ``subtask`` (1 or 2) against every test conversation.

    ``official``: accept what the official scorer scores (see ``_ecac_official``): any integers, no
    range checks, and stop at the first pair it would fail on; otherwise the strict rules (utterances
    that exist, 0 <= start < end <= tokens), each faulty pair a problem in ``problems``. Returns the
    Submitted pairs, or None when problems were collected.
    """
    conv_index, pair_lists, conv_ids, n_unknown = _submitted_conversations(data, name, convs, unknown, official)
    counts = np.array([len(p) for p in pair_lists], dtype=np.int64)
    flat = [p for pairs in pair_lists for p in pairs]
    conv = np.repeat(conv_index, counts).astype(np.int64)
    entry = np.repeat(np.arange(len(pair_lists)), counts)
    number = np.arange(len(flat)) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    bad = np.zeros(len(flat), dtype=bool)
    found = {}  # pair index -> its first problem; reported in file order once every check has run

    def pair_problem(i, problem):
        return PAIR.at(name, conv=conv_ids[entry[i]], n=int(number[i]), pair=_clip(flat[i]), problem=problem)

    def fail(i, problem):  # the official rules stop at the first pair they fail on, as the official scorer does
        raise SubmissionError(pair_problem(i, problem))

    def flag(rows, make):
        rows = np.asarray(rows, dtype=np.int64)
        rows = rows[~bad[rows]]
        bad[rows] = True
        if not len(rows):
            return
        if problems.collect:
            found.update((int(i), pair_problem(int(i), make(int(i)))) for i in rows)
        elif not found or rows.min() < min(found):  # stopping: only the first pair in file order is built
            found.clear()
            found[int(rows.min())] = pair_problem(int(rows.min()), make(int(rows.min())))

    if official:
        pairs = Pairs(conv, *official_fields(flat, subtask, EMOTION_CODE, fail))
        return Submitted(pairs.take(first_occurrences(pairs)), conv, n_unknown)
    shape_ok = np.array([type(p) is list and len(p) == 2 and type(p[0]) is str for p in flat], dtype=bool)
    example = "2_0_5" if subtask == 1 else "2"
    flag(np.flatnonzero(~shape_ok), lambda i: PAIR_SHAPE(example=example))
    emo = pd.Series([p[0] if shape_ok[k] else "" for k, p in enumerate(flat)], dtype=object).astype(str)
    parts = emo.str.extract(r"^U?%s_([A-Za-z]+)$" % _NUMBER)
    flag(np.flatnonzero(parts[0].isna().to_numpy()), lambda i: EMOTION_FORMAT(hint=_digits_hint(flat[i][0])))
    known = parts[1].isin(list(EMOTION_CODE)).to_numpy()
    flag(np.flatnonzero(~known), lambda i: UNKNOWN_EMOTION(emotion=repr(clip(parts[1].iloc[i])),
                                                           emotions=", ".join(EMOTIONS)))
    cause_raw = [p[1] if shape_ok[k] else "0" for k, p in enumerate(flat)]
    if subtask == 1:
        cause_utt, start, end = _span_causes(cause_raw, flag)
    else:
        cause_utt = _utterance_causes(cause_raw, flag)
        start = end = np.zeros(len(flat), dtype=np.int64)
    emo_utt = _ints(parts[0], bad)
    emotion = parts[1].map(EMOTION_CODE).fillna(0).to_numpy(dtype=np.int64) if len(flat) else emo_utt

    n_utts = convs.n_utts[conv]
    for values, field in ((emo_utt, "emotion utterance"), (cause_utt, "cause utterance")):
        flag(np.flatnonzero(((values < 1) | (values > n_utts)) & ~bad), lambda i, values=values, field=field:
             NO_UTTERANCE(field=FIELD_NAMES[field](), n=int(values[i]), utts=int(n_utts[i])))
    if subtask == 1:
        tokens = np.zeros(len(flat), dtype=np.int64)
        fine = np.flatnonzero(~bad)
        tokens[fine] = convs.tokens_of(conv[fine], cause_utt[fine])
        flag(np.flatnonzero(((start >= end) | (end > tokens)) & ~bad), lambda i: SPAN_OUTSIDE(
            start=int(start[i]), end=int(end[i]), utt=int(cause_utt[i]), tokens=int(tokens[i])))
    for i in sorted(found):
        problems.add(found[i])
    if found:
        return None
    pairs = Pairs(conv, emo_utt, cause_utt, start, end, emotion)
    keep = first_occurrences(pairs)
    return Submitted(pairs.take(keep), conv, n_unknown)


def _ints(column, bad):
    """A column of digit strings as int64, 0 where a row is already a problem."""
    if not len(column):
        return np.zeros(0, dtype=np.int64)
    return column.where(~bad, "0").fillna("0").astype(np.int64).to_numpy()


def _span_causes(raw, flag):
    is_str = np.array([type(c) is str for c in raw], dtype=bool)
    flag(np.flatnonzero(~is_str), lambda i: CAUSE_NOT_A_STRING())
    cause = pd.Series([c if type(c) is str else "" for c in raw], dtype=object)
    parts = cause.str.extract(r"^%s_%s_%s$" % (_NUMBER, _NUMBER, _NUMBER))

    def hint(i):
        text = raw[i]
        if any(ch.isalpha() for ch in text):
            return TOKENS_NOT_TEXT()
        return DIGITS_0_9() if has_non_ascii_digit(text) else THREE_NUMBERS()

    missing = parts[0].isna().to_numpy()
    flag(np.flatnonzero(missing), lambda i: CAUSE_FORMAT(hint=hint(i)))
    if not len(raw):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return tuple(_ints(parts[k], missing) for k in range(3))


def _utterance_causes(raw, flag):
    text = pd.Series([str(c) if type(c) in (str, int) else "" for c in raw], dtype=object)
    ok = text.str.fullmatch(_NUMBER).fillna(False).to_numpy(dtype=bool)
    flag(np.flatnonzero(~ok), lambda i: CAUSE_UTTERANCE(hint=_digits_hint(raw[i])))
    return _ints(text, ~ok)


def _digits_hint(text):
    return DIGITS_HINT() if has_non_ascii_digit(text) else ""
