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
from ..lazy import pandas as pd

from ..errors import ReferenceDataError, SubmissionError, clip
from ..metrics.cause_spans import Pairs, first_occurrences
from ..textio import decode
from ._ecac_official import has_non_ascii_digit, official_fields, python_int

EMOTIONS = ("neutral", "anger", "disgust", "fear", "joy", "sadness", "surprise")
EMOTION_CODE = {e: k for k, e in enumerate(EMOTIONS)}
PAIRS_KEY = "emotion-cause_pairs"
_PUNCT = set(string.punctuation)
_NUMBER = r"([0-9]{1,6})"  # ASCII digits only (\d would take any script's digits)


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
        raise error("%s is empty; it needs a JSON list with every test conversation." % name)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error("%s line %d column %d is not valid JSON (%s); save the file with json.dump."
                    % (name, exc.lineno, exc.colno, exc.msg))
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise error("%s is not valid JSON (%s); save the file with json.dump." % (name, str(exc)[:80]))
    except RecursionError:
        raise error("%s is nested too deeply to be a list of conversations." % name)
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise error("%s holds a value that cannot be read (%s); write conversation ids and numbers as plain "
                    "integers, as json.dump does." % (name, clip(" ".join(str(exc).split()), 80)))


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
        raise ReferenceDataError("%s must be a JSON list of conversations." % name)
    for k, conv in enumerate(data):
        if not isinstance(conv, dict) or conversation_id(conv.get("conversation_ID")) is None:
            raise ReferenceDataError("%s: entry %d has no integer conversation_ID." % (name, k + 1))
        has_pairs = isinstance(conv.get(PAIRS_KEY), list) or not with_pairs
        if not has_pairs or not isinstance(conv.get("conversation"), list):
            raise ReferenceDataError("%s: conversation %s needs the lists 'conversation' and '%s'."
                                     % (name, conv["conversation_ID"], PAIRS_KEY))
    return data


def read_conversations(data, name, with_pairs=True):
    """Conversations of a gold file, or of the public test file with ``with_pairs=False``.

    A wrong shape is a ReferenceDataError.
    """
    data = _gold_list(data, name, with_pairs)
    ids = np.array([conversation_id(c["conversation_ID"]) for c in data], dtype=object)
    dup = pd.Index(ids).duplicated()
    if dup.any():
        raise ReferenceDataError("%s repeats conversation %s." % (name, ids[dup][0]))
    texts = []
    for c in data:
        utts = c["conversation"]
        if not all(isinstance(u, dict) and isinstance(u.get("text"), str) for u in utts):
            raise ReferenceDataError("%s: conversation %s has an utterance without a text."
                                     % (name, c["conversation_ID"]))
        texts.append([u["text"] for u in utts])
    n_utts = np.array([len(t) for t in texts], dtype=np.int64)
    n_tokens = np.array([len(u.split()) for t in texts for u in t], dtype=np.int64)
    offset = np.cumsum(n_utts) - n_utts
    return Conversations(ids, n_utts, offset, n_tokens, texts)


def _gold_pair_fields(pair, name, cid):
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
        raise ReferenceDataError("%s: conversation %s has a pair that is not [\"<utt>_<emotion>\", cause]: %.60r."
                                 % (name, cid, pair))
    head, _, emotion = pair[0].partition("_")
    head = head[1:] if head.startswith("U") else head
    cause = str(pair[1])
    cause_utt, _, span = cause.partition("_")
    cause_utt = cause_utt[1:] if cause_utt.startswith("U") else cause_utt
    if not head.isdigit() or not cause_utt.isdigit() or emotion not in EMOTION_CODE:
        raise ReferenceDataError("%s: conversation %s has the malformed pair %.60r." % (name, cid, pair))
    return int(head), EMOTION_CODE[emotion], int(cause_utt), span


def read_gold_pairs(data, convs, name, subtask):
    """Gold pairs of one subtask as Pairs (duplicates removed); plus notes for the organizer."""
    data = _gold_list(data, name)
    index = {cid: k for k, cid in enumerate(convs.ids)}
    rows, notes = [], []
    for c in data:
        cid = conversation_id(c["conversation_ID"])
        if cid not in index:
            raise ReferenceDataError("%s: conversation %s is not in the other subtask's gold." % (name, cid))
        k = index[cid]
        for pair in c[PAIRS_KEY]:
            emo_utt, emotion, cause_utt, span = _gold_pair_fields(pair, name, cid)
            if not (1 <= emo_utt <= convs.n_utts[k] and 1 <= cause_utt <= convs.n_utts[k]):
                raise ReferenceDataError("%s: conversation %s has %d utterances but the pair %.60r names another."
                                         % (name, cid, convs.n_utts[k], pair))
            start = end = 0
            if subtask == 1:
                start, end = locate_span(clean_span(span), convs.texts[k][cause_utt - 1])
                if end == 0:
                    notes.append("%s: conversation %s, pair %r: the cause text is not found in utterance %d; "
                                 "it is scored as the span [0, 0], which no prediction matches."
                                 % (name, cid, pair, cause_utt))
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
    raise SubmissionError("%s: conversation %s has no list '%s'; give one (empty if you find no pair)."
                          % (name, cid, PAIRS_KEY))


def _submitted_conversations(data, name, convs, unknown, official=False):
    """(ref index per kept entry, pair lists per kept entry, conversation ids, unknown count).

    ``official``: ids are read with int() (floats cut, strings with signs and underscores) and the
    entries of conversations that are not in the test set are not looked into, as officially.
    """
    example = '[{"conversation_ID": %s, "%s": [...]}, ...]' % (convs.ids[0] if len(convs.ids) else 1, PAIRS_KEY)
    if not isinstance(data, list):
        raise SubmissionError("%s must be a JSON list of conversations, like %s." % (name, example))
    read_id = official_conversation_id if official else conversation_id
    ids = []
    for k, entry in enumerate(data):  # one iteration per conversation
        if not isinstance(entry, dict):
            raise SubmissionError("%s: entry %d is %s, not a conversation object like %s."
                                  % (name, k + 1, type(entry).__name__, example))
        cid = read_id(entry.get("conversation_ID"))
        if cid is None:
            raise SubmissionError("%s: entry %d has %s; give each conversation its integer conversation_ID%s."
                                  % (name, k + 1, "no conversation_ID" if "conversation_ID" not in entry
                                     else "the conversation_ID %s" % _clip(entry["conversation_ID"]),
                                     " (digits 0-9)" if has_non_ascii_digit(entry.get("conversation_ID")) else ""))
        if not official:
            _pair_list(entry, name, cid, official)
        ids.append(cid)
    ids = np.array(ids, dtype=object)
    dup = pd.Index(ids).duplicated()
    if dup.any():
        raise SubmissionError("%s lists conversation %s twice; give each conversation once."
                              % (name, ids[dup][0]))
    position = pd.Index(convs.ids).get_indexer(ids) if len(ids) else np.zeros(0, dtype=np.int64)
    n_unknown = int((position < 0).sum())
    if n_unknown and unknown == "error":
        raise SubmissionError("%s: conversation %s is not a test conversation; give exactly the conversations "
                              "of the test file." % (name, ids[position < 0][0]))
    kept = np.flatnonzero(position >= 0)
    pair_lists = [_pair_list(data[k], name, ids[k], official) for k in kept]
    present = np.zeros(len(convs.ids), dtype=bool)
    present[position[kept]] = True
    if not present.all():
        missing = convs.ids[~present]
        raise SubmissionError("%s: conversation %s is missing (%d of %d test conversations are); list every "
                              "test conversation, with an empty '%s' list if it has no pair."
                              % (name, missing[0], len(missing), len(convs.ids), PAIRS_KEY))
    return position[kept], pair_lists, ids[kept], n_unknown


def read_submission(data, name, convs, subtask, unknown="error", official=False):
    """Validate a participant's JSON value for ``subtask`` (1 or 2) against every test conversation.

    ``official``: accept what the official scorer scores (see ``_ecac_official``): any integers, no
    range checks; otherwise the strict rules (utterances that exist, 0 <= start < end <= tokens).
    """
    conv_index, pair_lists, conv_ids, n_unknown = _submitted_conversations(data, name, convs, unknown, official)
    counts = np.array([len(p) for p in pair_lists], dtype=np.int64)
    flat = [p for pairs in pair_lists for p in pairs]
    conv = np.repeat(conv_index, counts).astype(np.int64)
    entry = np.repeat(np.arange(len(pair_lists)), counts)
    number = np.arange(len(flat)) - np.repeat(np.cumsum(counts) - counts, counts) + 1

    def fail(i, problem):
        raise SubmissionError("%s, conversation %s, pair %d %s: %s"
                              % (name, conv_ids[entry[i]], number[i], _clip(flat[i]), problem))

    if official:
        pairs = Pairs(conv, *official_fields(flat, subtask, EMOTION_CODE, fail))
        return Submitted(pairs.take(first_occurrences(pairs)), conv, n_unknown)
    shape_ok = np.array([type(p) is list and len(p) == 2 and type(p[0]) is str for p in flat], dtype=bool)
    if not shape_ok.all():
        fail(int(np.flatnonzero(~shape_ok)[0]), 'a pair must be a list of two strings, like ["3_joy", "%s"].'
             % ("2_0_5" if subtask == 1 else "2"))
    emo = pd.Series([p[0] for p in flat], dtype=object).astype(str)
    parts = emo.str.extract(r"^U?%s_([A-Za-z]+)$" % _NUMBER)
    bad = np.flatnonzero(parts[0].isna().to_numpy())
    if len(bad):
        fail(int(bad[0]), "the first element must be <emotion utterance>_<emotion>, like \"3_joy\"%s."
             % _digits_hint(flat[int(bad[0])][0]))
    known = parts[1].isin(list(EMOTION_CODE)).to_numpy()
    if not known.all():
        fail(int(np.flatnonzero(~known)[0]), "unknown emotion %r; use one of %s (lower case)."
             % (parts[1].iloc[int(np.flatnonzero(~known)[0])], ", ".join(EMOTIONS)))
    emo_utt = parts[0].astype(np.int64).to_numpy() if len(flat) else np.zeros(0, dtype=np.int64)
    emotion = parts[1].map(EMOTION_CODE).to_numpy(dtype=np.int64) if len(flat) else np.zeros(0, dtype=np.int64)

    cause_raw = [p[1] for p in flat]
    if subtask == 1:
        cause_utt, start, end = _span_causes(cause_raw, fail)
    else:
        cause_utt = _utterance_causes(cause_raw, fail)
        start = end = np.zeros(len(flat), dtype=np.int64)

    n_utts = convs.n_utts[conv]
    for values, what in ((emo_utt, "emotion utterance"), (cause_utt, "cause utterance")):
        out = np.flatnonzero((values < 1) | (values > n_utts))
        if len(out):
            i = int(out[0])
            fail(i, "the %s %d does not exist; this conversation has utterances 1 to %d."
                 % (what, values[i], n_utts[i]))
    if subtask == 1:
        tokens = convs.tokens_of(conv, cause_utt)
        out = np.flatnonzero((start >= end) | (end > tokens))
        if len(out):
            i = int(out[0])
            fail(i, "the span %d_%d is outside utterance %d, which has %d tokens; give start_end with "
                    "0 <= start < end <= %d (end exclusive)." % (start[i], end[i], cause_utt[i], tokens[i], tokens[i]))
    pairs = Pairs(conv, emo_utt, cause_utt, start, end, emotion)
    keep = first_occurrences(pairs)
    return Submitted(pairs.take(keep), conv, n_unknown)


def _span_causes(raw, fail):
    is_str = np.array([type(c) is str for c in raw], dtype=bool)
    if not is_str.all():
        fail(int(np.flatnonzero(~is_str)[0]), 'the cause must be a string <utterance>_<start>_<end>, like "2_0_5".')
    cause = pd.Series(raw, dtype=object).astype(str)
    parts = cause.str.extract(r"^%s_%s_%s$" % (_NUMBER, _NUMBER, _NUMBER))
    bad = np.flatnonzero(parts[0].isna().to_numpy())
    if len(bad):
        i = int(bad[0])
        text = raw[i]
        hint = ("give token indices, not the cause text, and no 'U' before the utterance number"
                if any(ch.isalpha() for ch in text) else
                "write numbers with the digits 0-9" if has_non_ascii_digit(text) else "use three numbers")
        fail(i, 'the cause must be <utterance>_<start>_<end>, like "2_0_5" (%s).' % hint)
    if not len(raw):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return tuple(parts[k].astype(np.int64).to_numpy() for k in range(3))


def _utterance_causes(raw, fail):
    text = pd.Series([str(c) if type(c) in (str, int) else "" for c in raw], dtype=object)
    ok = text.str.fullmatch(_NUMBER).fillna(False).to_numpy(dtype=bool)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        fail(i, 'the cause must be the number of the cause utterance, like "2" (no "U" prefix, no span)%s.'
             % _digits_hint(raw[i]))
    return text.astype(np.int64).to_numpy() if len(raw) else np.zeros(0, dtype=np.int64)


def _digits_hint(text):
    return "; write numbers with the digits 0-9" if has_non_ascii_digit(text) else ""
