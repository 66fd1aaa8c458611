"""Edge-case ECAC submissions, made with a fixed seed from the real SemEval-2024 Task 3 test gold.

Plain standard library, so that the recording script (tests/record_ecac_official.py)
can run it beside the official scorer in any Python 3, and independent of the
scoring program: its own whitespace tokens and its own search for a gold span.

Every case is a whole submission: a plausible base prediction of all 341 test
conversations (seeded noise on the gold, the span of conversation 1821 that the
official scorer cannot locate given as ``8_0_0``, the [0, 0] the organisers'
helper returns) with one kind of edge case written into some conversations.
``corpus(gold1, gold2)`` lists them as ``Case``: group ``corpus`` (our mode
official must give the official verdict and numbers) or ``difference`` (a
documented deliberate difference; ``ours`` says what we do).
"""
import copy
import json
import random
import string
from dataclasses import dataclass, field
from typing import Dict, Optional

SEED = 20240611
EMOTIONS = ("anger", "disgust", "fear", "joy", "sadness", "surprise")
UNLOCATED = (1821, 9, 8, "joy")  # conversation, emotion utterance, cause utterance, emotion of the lost span


@dataclass
class Case:
    name: str
    files: Dict[int, Optional[str]]      # subtask -> JSON text of Subtask_<k>_pred.json, or None (no file)
    group: str = "corpus"                # corpus | difference
    ours: str = ""                       # for a difference: scored | refused
    about: str = ""
    extra: dict = field(default_factory=dict)


# -- the gold as token positions (our own reading, plain Python) -------------------------------

def _strip_punctuation(text):
    text = text.strip()
    while text and (text[0] in string.punctuation or text[-1] in string.punctuation):
        text = text[1:] if text[0] in string.punctuation else text
        text = text[:-1] if text and text[-1] in string.punctuation else text
        text = text.strip()
    return text


def _first_occurrence(span, utterance):
    want, tokens = span.split(), utterance.split()
    for i in range(len(tokens) - len(want) + 1):
        if want and tokens[i:i + len(want)] == want:
            return i, i + len(want)
    return 0, 0


def gold_pairs(conv, subtask):
    """[(emo_utt, emotion, cause_utt, start, end)] of one gold conversation (start = end = 0 in subtask 2)."""
    texts = [u["text"] for u in conv["conversation"]]
    out = []
    for head, cause in conv["emotion-cause_pairs"]:
        emo_utt, emotion = head.split("_")
        if subtask == 1:
            cause_utt, span = cause.split("_", 1)
            start, end = _first_occurrence(_strip_punctuation(span), texts[int(cause_utt) - 1])
        else:
            cause_utt, start, end = cause, 0, 0
        out.append((int(emo_utt), emotion, int(cause_utt), start, end))
    return out


def _tokens(conv):
    return [len(u["text"].split()) for u in conv["conversation"]]


# -- the base prediction ------------------------------------------------------------------------

def _pair(emo_utt, emotion, cause_utt, start, end, subtask):
    cause = "%d_%d_%d" % (cause_utt, start, end) if subtask == 1 else "%d" % cause_utt
    return ["%d_%s" % (emo_utt, emotion), cause]


def base_prediction(gold, subtask, rng):
    """A plausible system output: most gold pairs, some dropped, shifted, re-labelled, some spurious."""
    out = []
    for conv in gold:
        n_tokens = _tokens(conv)
        pairs = []
        for emo_utt, emotion, cause_utt, start, end in gold_pairs(conv, subtask):
            roll = rng.random()
            if roll < 0.15:
                continue
            if roll < 0.30:
                if subtask == 1 and end > start:
                    start = max(0, start + rng.choice((-1, 0, 1)))
                    end = min(n_tokens[cause_utt - 1], max(start + 1, end + rng.choice((-2, -1, 1))))
                else:
                    cause_utt = max(1, min(len(n_tokens), cause_utt + rng.choice((-1, 1))))
            elif roll < 0.38:
                emotion = rng.choice([e for e in EMOTIONS if e != emotion])
            pairs.append(_pair(emo_utt, emotion, cause_utt, start, end, subtask))
        if rng.random() < 0.3:
            cause_utt = rng.randint(1, len(n_tokens))
            start = rng.randint(0, max(n_tokens[cause_utt - 1] - 1, 0))
            pairs.append(_pair(rng.randint(1, len(n_tokens)), rng.choice(EMOTIONS), cause_utt, start,
                               min(start + rng.randint(1, 6), n_tokens[cause_utt - 1]), subtask))
        out.append({"conversation_ID": conv["conversation_ID"], "emotion-cause_pairs": pairs})
    return out


def _dump(value):
    return json.dumps(value, ensure_ascii=False)


def _conv(sub, cid):
    return next(c for c in sub if c["conversation_ID"] == cid)


def _some(rng, gold, k):
    """k conversations of the gold that have pairs, in gold order."""
    with_pairs = [i for i, c in enumerate(gold) if c["emotion-cause_pairs"]]
    return sorted(rng.sample(with_pairs, k))


# -- the cases -----------------------------------------------------------------------------------

def _span_cases(gold1):
    """Subtask 1 edits: name -> (about, edit(sub, rng)) where edit changes the submission in place."""

    def each_gold_span(count, make):
        def edit(sub, rng):
            for i in _some(rng, gold1, count):
                conv, pairs = gold1[i], sub[i]["emotion-cause_pairs"]
                n_tokens = _tokens(conv)
                for emo_utt, emotion, cause_utt, start, end in gold_pairs(conv, 1):
                    for new in make(rng, emo_utt, emotion, cause_utt, start, end, n_tokens[cause_utt - 1],
                                    len(n_tokens)):
                        pairs.insert(rng.randint(0, len(pairs)), new)
        return edit

    def replace_all(make):
        def edit(sub, rng):
            for i, conv in enumerate(gold1):
                n_tokens = _tokens(conv)
                sub[i]["emotion-cause_pairs"] = [
                    new for emo_utt, emotion, cause_utt, start, end in gold_pairs(conv, 1)
                    for new in make(rng, emo_utt, emotion, cause_utt, start, end, n_tokens[cause_utt - 1],
                                    len(n_tokens))]
        return edit

    def s1(emo, emotion, cause, start, end):
        return _pair(emo, emotion, cause, start, end, 1)

    def text_pair(head, cause):
        return [head, cause]

    cid, emo_u, cause_u, emo = UNLOCATED

    def only_unlocated(sub, rng):
        for c in sub:
            c["emotion-cause_pairs"] = []
        _conv(sub, cid)["emotion-cause_pairs"] = [s1(emo_u, emo, cause_u, 0, 0)]

    def without_unlocated(sub, rng):
        c = _conv(sub, cid)
        c["emotion-cause_pairs"] = [p for p in c["emotion-cause_pairs"] if p[1] != "%d_0_0" % cause_u]

    def unlocated_other_emotion(sub, rng):
        c = _conv(sub, cid)
        c["emotion-cause_pairs"] = [p for p in c["emotion-cause_pairs"] if p[1] != "%d_0_0" % cause_u]
        c["emotion-cause_pairs"].append(s1(emo_u, "surprise", cause_u, 0, 0))

    def crossing_unlocated(sub, rng):
        _conv(sub, cid)["emotion-cause_pairs"].append(s1(emo_u, emo, cause_u, -1, 3))

    def other_conversation(sub, rng):
        for i in _some(rng, gold1, 25):
            j = rng.randrange(len(sub))
            sub[i]["emotion-cause_pairs"] += copy.deepcopy(sub[j]["emotion-cause_pairs"][:3])

    def normalised_duplicates(sub, rng):
        for i in _some(rng, gold1, 30):
            pairs = sub[i]["emotion-cause_pairs"]
            if not pairs:
                continue
            head, cause = rng.choice(pairs)
            emo_utt, emotion = head.split("_")
            utt, start, end = cause.split("_")
            pairs.append(["U%s_%s" % (emo_utt, emotion), cause])
            pairs.append(["0%s_%s" % (emo_utt, emotion), "+%s_0%s_ %s" % (utt, start, end)])
            pairs.append([" %sU_%s" % (emo_utt, emotion), "%s \u3000_%s_%s\n" % (utt, start, end)])

    cases = {
        "s1_base": ("the base prediction, with 8_0_0 for the gold span of conversation 1821 that cannot be "
                    "located", lambda sub, rng: None),
        "s1_zero_zero_unlocated_only": ("only the pair 9_joy / 8_0_0 of conversation 1821: a strict hit",
                                        only_unlocated),
        "s1_without_unlocated": ("the base without the 8_0_0 pair", without_unlocated),
        "s1_zero_zero_other_emotion": ("8_0_0 of conversation 1821 with another emotion", unlocated_other_emotion),
        "s1_crossing_unlocated": ("-1_3 on the lost gold span's utterances and emotion: the official scorer "
                                  "divides by its length 0", crossing_unlocated),
        "s1_zero_zero_everywhere": ("0_0 beside many gold spans", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, 0, 0)])),
        "s1_start_eq_end_inside": ("empty spans k_k strictly inside gold spans (touching for the fuzzy test)",
                                   each_gold_span(40, lambda rng, e, em, c, s, t, n, u:
                                                  [s1(e, em, c, k, k) for k in range(s + 1, t)][:2])),
        "s1_start_eq_end_edges": ("empty spans at 0, at the last token and past it", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, n, n), s1(e, em, c, n + 3, n + 3),
                                                   s1(e, em, c, s, s), s1(e, em, c, t, t)])),
        "s1_touch_start": ("spans from token 0", replace_all(
            lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, 0, max(t, 1))])),
        "s1_touch_end": ("spans to the last token", replace_all(
            lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, s, n)])),
        "s1_whole_utterance": ("the whole utterance", replace_all(
            lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, 0, n)])),
        "s1_end_past_last": ("ends past the last token", each_gold_span(
            60, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, s, n + 1), s1(e, em, c, s, n + 7),
                                                   s1(e, em, c, 0, 999)])),
        "s1_start_past_last": ("spans wholly past the last token", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, n, n + 2), s1(e, em, c, n + 5, n + 9)])),
        "s1_reversed_beside": ("reversed spans (start > end) beside the right ones", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, t, s)] if t > s else [])),
        "s1_reversed_only": ("every span reversed: negative predicted lengths", replace_all(
            lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, t + 1, s)])),
        "s1_negative_not_crossing": ("negative numbers that do not cross 0", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, -3, -1), s1(e, em, c, -2, 0), s1(e, em, c, -5, -5),
                                                   s1(e, em, c, 3, -2)])),
        "s1_duplicates": ("pairs written twice", each_gold_span(
            50, lambda rng, e, em, c, s, t, n, u: [s1(e, em, c, s, t)] * 2)),
        "s1_duplicates_normalised": ("the same pair as U3, 03, +3, 3U, with spaces", normalised_duplicates),
        "s1_neutral": ("neutral pairs, some on gold positions, some odd", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, "neutral", c, s, t), s1(e, "neutral", c, 0, 0),
                                                   s1(e, "neutral", c, t, s), s1(e, "neutral", c, n, n + 4)])),
        "s1_emo_utt_outside": ("emotion utterances 0, past the last, negative", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(0, em, c, s, t), s1(u + 1, em, c, s, t), s1(-1, em, c, s, t),
                                                   s1(99, em, c, s, t)])),
        "s1_cause_utt_outside": ("cause utterances 0, past the last, negative", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [s1(e, em, 0, s, t), s1(e, em, u + 1, s, t),
                                                   s1(e, em, -3, 0, 2)])),
        "s1_other_conversation_pairs": ("pairs copied from other conversations", other_conversation),
        "s1_cause_spaces": ("numbers with spaces, signs and leading zeros around the underscores", each_gold_span(
            40, lambda rng, e, em, c, s, t, n, u: [text_pair("%d_%s" % (e, em), " %d _ %d _ %d " % (c, s, t)),
                                                   text_pair("%d_%s" % (e, em), "+%d_-0_0%d" % (c, t)),
                                                   text_pair("\u3000%d_%s" % (e, em), "%d\xa0_%d_%d" % (c, s, t))])),
    }
    return cases


def _refused_s1_pair_cases():
    """Subtask 1 pairs the official scorer refuses, each put into one conversation of the base."""
    return {
        "s1_cause_text": ["3_joy", "2_I am"],
        "s1_cause_u_prefix": ["3_joy", "U2_0_1"],
        "s1_cause_two_parts": ["3_joy", "2_5"],
        "s1_cause_four_parts": ["3_joy", "2_0_1_2"],
        "s1_cause_empty_part": ["3_joy", "2__1"],
        "s1_cause_decimal": ["3_joy", "2_0.0_1"],
        "s1_cause_exponent": ["3_joy", "2_0_1e1"],
        "s1_cause_control_separator": ["3_joy", "\x1c2_0_1"],
        "s1_cause_number": ["3_joy", 2],
        "s1_cause_null": ["3_joy", None],
        "s1_cause_list": ["3_joy", ["2_0_1"]],
        "s1_head_number": [3, "2_0_1"],
        "s1_head_no_underscore": ["3joy", "2_0_1"],
        "s1_head_two_underscores": ["3_joy_x", "2_0_1"],
        "s1_head_only_u": ["U_joy", "2_0_1"],
        "s1_head_empty_utterance": ["_joy", "2_0_1"],
        "s1_head_text": ["three_joy", "2_0_1"],
        "s1_emotion_capital": ["3_Joy", "2_0_1"],
        "s1_emotion_space": ["3_joy ", "2_0_1"],
        "s1_emotion_unknown": ["3_happy", "2_0_1"],
        "s1_pair_three_elements": ["3_joy", "2_0_1", "x"],
        "s1_pair_one_element": ["3_joy"],
        "s1_pair_string": "3_joy",
        "s1_pair_object": {"3_joy": "2_0_1"},
        "s1_pair_nan": ["3_joy", float("nan")],
    }


def _conversation_cases(subtask):
    """Edits of the list of conversations, for either subtask: name -> (about, edit, refused_expected)."""
    p = "s%d_" % subtask

    def drop_one(sub, rng):
        del sub[rng.randrange(len(sub))]

    def extra(sub, rng):
        sub.insert(3, {"conversation_ID": 99999, "emotion-cause_pairs": [["1_joy", "1_0_1"]]})
        sub.append({"conversation_ID": 5, "emotion-cause_pairs": [["garbage"], 7, None]})
        sub.append({"conversation_ID": "77"})
        sub.append({"conversation_ID": 123456, "emotion-cause_pairs": None, "other": 1})
        sub.append({"conversation_ID": True, "emotion-cause_pairs": []})

    def ids_as_strings(sub, rng):
        forms = ["%d", " %d", "+%d", "0%d", "%d\n", "\u3000%d"]
        for c in sub:
            c["conversation_ID"] = rng.choice(forms) % c["conversation_ID"]

    def ids_with_underscore(sub, rng):
        for c in sub[:20]:
            text = str(c["conversation_ID"])
            c["conversation_ID"] = text[:1] + "_" + text[1:]

    def ids_as_floats(sub, rng):
        for c in sub:
            c["conversation_ID"] = float(c["conversation_ID"]) + (0.0 if rng.random() < 0.5 else 0.75)

    def shuffled(sub, rng):
        rng.shuffle(sub)

    def empty_lists(sub, rng):
        for c in sub:
            c["emotion-cause_pairs"] = []

    def empty_string_and_object(sub, rng):
        for c in sub:
            roll = rng.random()
            if roll < 0.2:
                c["emotion-cause_pairs"] = ""
            elif roll < 0.4:
                c["emotion-cause_pairs"] = {}

    def set_first(key, value):
        def edit(sub, rng):
            if key is None:
                del sub[0]["emotion-cause_pairs"]
            else:
                sub[0][key] = value
        return edit

    def duplicate_conversation(sub, rng):
        sub.append({"conversation_ID": str(sub[5]["conversation_ID"]), "emotion-cause_pairs": []})

    def duplicate_unknown(sub, rng):
        sub += [{"conversation_ID": 99999, "emotion-cause_pairs": []}, {"conversation_ID": "99999"}]

    def entry_not_object(sub, rng):
        sub.insert(2, [sub[2]["conversation_ID"], []])

    def id_missing(sub, rng):
        sub.append({"emotion-cause_pairs": []})

    return {
        p + "missing_conversation": ("one conversation left out", drop_one, True),
        p + "extra_conversations": ("conversations that are not in the gold, some malformed inside, one with id "
                                    "true", extra, False),
        p + "ids_as_strings": ("ids as strings with spaces, signs, leading zeros", ids_as_strings, False),
        p + "ids_with_underscore": ("ids like \"1_375\" (int() reads 1375)", ids_with_underscore, False),
        p + "ids_as_floats": ("ids as JSON floats, some with a fraction (int() cuts it)", ids_as_floats, False),
        p + "shuffled_conversations": ("conversations in another order", shuffled, False),
        p + "empty_lists": ("every pair list empty", empty_lists, False),
        p + "empty_string_and_object": ("some pair lists given as \"\" or {}", empty_string_and_object, False),
        p + "pairs_key_missing": ("a test conversation without its pair list", set_first(None, None), True),
        p + "pairs_null": ("a pair list null", set_first("emotion-cause_pairs", None), True),
        p + "pairs_number": ("a pair list 0", set_first("emotion-cause_pairs", 0), True),
        p + "pairs_text": ("a pair list given as a non-empty string", set_first("emotion-cause_pairs", "3_joy"),
                           True),
        p + "pairs_object": ("a pair list given as a non-empty object",
                             set_first("emotion-cause_pairs", {"3_joy": "2"}), True),
        p + "duplicate_conversation": ("a conversation given twice (1375 and \"1375\")", duplicate_conversation,
                                       True),
        p + "duplicate_unknown_conversation": ("an unknown conversation given twice", duplicate_unknown, True),
        p + "entry_not_object": ("a conversation given as a list", entry_not_object, True),
        p + "id_missing": ("an entry without conversation_ID", id_missing, True),
        p + "id_null": ("conversation_ID null", set_first("conversation_ID", None), True),
        p + "id_text": ("conversation_ID \"abc\"", set_first("conversation_ID", "abc"), True),
        p + "id_decimal_string": ("conversation_ID \"1375.0\"", set_first("conversation_ID", "1375.0"), True),
        p + "id_nan": ("conversation_ID NaN", set_first("conversation_ID", float("nan")), True),
        p + "id_infinity": ("conversation_ID Infinity", set_first("conversation_ID", float("inf")), True),
    }


def _s2_cases(gold2):
    def causes(transform, count=60):
        def edit(sub, rng):
            for i in _some(rng, gold2, count):
                pairs = sub[i]["emotion-cause_pairs"]
                for k, (head, cause) in enumerate(list(pairs)):
                    pairs[k] = [head, transform(rng, int(cause))]
        return edit

    def added(make, count=40):
        def edit(sub, rng):
            for i in _some(rng, gold2, count):
                conv = gold2[i]
                for emo_utt, emotion, cause_utt, _, _ in gold_pairs(conv, 2):
                    sub[i]["emotion-cause_pairs"] += make(rng, emo_utt, emotion, cause_utt, len(conv["conversation"]))
        return edit

    def three_elements(sub, rng):
        for i in _some(rng, gold2, 40):
            sub[i]["emotion-cause_pairs"] = [p + ["0.9"] for p in sub[i]["emotion-cause_pairs"]]

    return {
        "s2_base": ("the base prediction", lambda sub, rng: None),
        "s2_cause_int": ("causes as JSON integers", causes(lambda rng, c: c)),
        "s2_cause_float": ("causes as JSON floats, some with a fraction (cut)",
                           causes(lambda rng, c: c + rng.choice((0.0, 0.5, 0.99)))),
        "s2_cause_bool": ("a cause true (int() reads 1)", added(lambda rng, e, em, c, u: [["%d_%s" % (e, em), True]])),
        "s2_cause_signed_spaced": ("causes with spaces, signs, leading zeros",
                                   causes(lambda rng, c: rng.choice((" %d", "+%d", "0%d", "%d\t", "\u2003%d")) % c)),
        "s2_cause_negative": ("negative causes", added(lambda rng, e, em, c, u: [["%d_%s" % (e, em), "-%d" % c]])),
        "s2_cause_underscore": ("subtask 1 causes in subtask 2 (\"2_0_5\" is utterance 205 to int())",
                                added(lambda rng, e, em, c, u: [["%d_%s" % (e, em), "%d_0_5" % c],
                                                                ["%d_%s" % (e, em), "%d_0" % c]])),
        "s2_pair_three_elements": ("pairs with a third element (not read officially)", three_elements),
        "s2_emo_utt_outside": ("emotion utterances 0, past the last, negative, with U",
                               added(lambda rng, e, em, c, u: [["0_%s" % em, "%d" % c], ["%d_%s" % (u + 1, em), "%d" % c],
                                                               ["-2_%s" % em, "%d" % c], ["U%dU_%s" % (e, em), "%d" % c]])),
        "s2_cause_outside": ("cause utterances 0 and past the last",
                             added(lambda rng, e, em, c, u: [["%d_%s" % (e, em), "0"], ["%d_%s" % (e, em), u + 4]])),
        "s2_duplicates_normalised": ("the same pair as 2, \"2\", 2.0, \" 2\", \"U3\"",
                                     added(lambda rng, e, em, c, u: [["%d_%s" % (e, em), c], ["%d_%s" % (e, em), "%d" % c],
                                                                     ["%d_%s" % (e, em), float(c)],
                                                                     ["U%d_%s" % (e, em), " %d" % c]])),
        "s2_neutral": ("neutral pairs", added(lambda rng, e, em, c, u: [["%d_neutral" % e, "%d" % c]])),
    }


def _refused_s2_pair_cases():
    return {
        "s2_cause_u_prefix": ["3_joy", "U2"],
        "s2_cause_double_underscore": ["3_joy", "2__0"],
        "s2_cause_decimal_string": ["3_joy", "2.0"],
        "s2_cause_null": ["3_joy", None],
        "s2_cause_list": ["3_joy", [2]],
        "s2_cause_nan": ["3_joy", float("nan")],
        "s2_cause_infinity": ["3_joy", float("inf")],
        "s2_cause_empty": ["3_joy", ""],
        "s2_pair_one_element": ["3_joy"],
        "s2_pair_string": "3_joy",
        "s2_head_no_underscore": ["3joy", "2"],
        "s2_emotion_capital": ["3_Joy", "2"],
    }


def _differences(base1, base2, gold1):
    """Submissions where we deliberately differ from the official scorer (see docs/emotion_cause.md)."""
    out = []

    def one(name, subtask, conv_index, pair, about):
        sub = copy.deepcopy(base1 if subtask == 1 else base2)
        sub[conv_index]["emotion-cause_pairs"].append(pair)
        files = {1: _dump(base1), 2: _dump(base2)}
        files[subtask] = _dump(sub)
        out.append(Case(name, files, "difference", "refused", about))

    one("diff_arabic_indic_span", 1, 0, ["1_joy", "1_\u0660_\u0662"], "Arabic-Indic digits in a span")
    one("diff_fullwidth_emotion_utterance", 1, 0, ["\uff11_joy", "1_0_2"], "full-width digit utterance")
    one("diff_arabic_indic_s2_cause", 2, 0, ["1_joy", "\u0661"], "Arabic-Indic cause utterance")
    one("diff_crossing_zero_located", 1, 0, ["1_joy", "1_-1_3"],
        "a span -1_3 where no lost gold span is: scored officially, refused here whatever the gold")
    one("diff_too_large_span", 1, 0, ["1_joy", "1_0_10000000000"], "a span end of 11 digits")
    sub = copy.deepcopy(base1)
    sub[0]["conversation_ID"] = "".join(chr(0x0660 + int(d)) for d in str(sub[0]["conversation_ID"]))
    out.append(Case("diff_arabic_indic_conversation_id", {1: _dump(sub), 2: _dump(base2)}, "difference", "refused",
                    "a conversation id in Arabic-Indic digits"))
    out.append(Case("diff_utf8_bom", {1: "\ufeff" + _dump(base1), 2: _dump(base2)}, "difference", "scored",
                    "a UTF-8 byte order mark: json.load fails officially; read here as the same file without it",
                    extra={"same_as": "s1_base"}))
    return out


def corpus(gold1, gold2, seed=SEED):
    """Every Case, in a fixed order; the same seed gives the same files byte for byte."""
    rng = random.Random(seed)
    base1 = base_prediction(gold1, 1, rng)
    base2 = base_prediction(gold2, 2, rng)
    cid, emo_u, cause_u, emo = UNLOCATED
    lost = _conv(base1, cid)["emotion-cause_pairs"]
    if [p for p in lost if p[1].startswith("%d_" % cause_u) and p[0] == "%d_%s" % (emo_u, emo)] == []:
        lost.append(_pair(emo_u, emo, cause_u, 0, 0, 1))  # what the organisers' helper gives for the lost span
    cases = []

    def add(name, about, edit, subtask, refused=None):
        sub = copy.deepcopy(base1 if subtask == 1 else base2)
        edit(sub, random.Random("%d:%s" % (seed, name)))
        files = {1: _dump(base1), 2: _dump(base2)}
        files[subtask] = _dump(sub)
        cases.append(Case(name, files, about=about, extra={} if refused is None else {"refused": refused}))

    for name, (about, edit) in _span_cases(gold1).items():
        add(name, about, edit, 1)
    for name, pair in _refused_s1_pair_cases().items():
        add(name, "the pair %s in conversation 2" % _dump(pair), _put(pair), 1, refused=True)
    for subtask in (1, 2):
        for name, (about, edit, refused) in _conversation_cases(subtask).items():
            add(name, about, edit, subtask, refused=refused)
    for name, (about, edit) in _s2_cases(gold2).items():
        add(name, about, edit, 2)
    for name, pair in _refused_s2_pair_cases().items():
        add(name, "the pair %s in conversation 2" % _dump(pair), _put(pair), 2, refused=True)
    cases.append(Case("s1_file_only", {1: _dump(base1), 2: None}, about="only Subtask_1_pred.json"))
    cases.append(Case("s2_file_only", {1: None, 2: _dump(base2)}, about="only Subtask_2_pred.json"))
    bad2 = copy.deepcopy(base2)
    bad2[0]["emotion-cause_pairs"].append(["1_joy", "U1"])
    cases.append(Case("s1_good_s2_refused", {1: _dump(base1), 2: _dump(bad2)},
                      about="a valid subtask 1 file beside a refused subtask 2 file", extra={"refused": True}))
    cases += _differences(base1, base2, gold1)
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    return cases


def _put(pair):
    def edit(sub, rng):
        sub[1]["emotion-cause_pairs"].insert(0, copy.deepcopy(pair))
    return edit
