"""Seeded predictions for the public QA data (SQuAD 2.0's two articles, CMRC 2018's trial and dev sets), shared by
tests/record_qa_official.py (which runs the official scripts on them) and tests/test_qa_kernels.py.

Each scenario maps the question ids of a data file to a prediction (and, for SQuAD 2.0, a no-answer
probability): exact gold answers, answers changed in the ways the normalisations forgive (case, articles,
punctuation, spaces, full-width marks) or not (cut, extended, another span of the passage), empty answers and
unanswerable questions answered.
"""
import json
import random
import re

SEED = 20240607
SQUAD_FILE = "squad_v2/dev-v2.0-first-2-articles.json"
CMRC_FILES = ("cmrc2018/cmrc2018_trial.json", "cmrc2018/cmrc2018_dev.json")
SCENARIOS = ("gold", "mixture", "empty")
_BREAK = re.compile(r"[.?!]\s+\S")
_CHINESE = re.compile("[\u4e00-\u9fa5]")


def questions(data):
    """(id, context, gold texts, plausible texts) of every question of a SQuAD-layout file, in file order."""
    out = []
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                out.append((qa["id"], paragraph["context"], [a["text"] for a in qa["answers"]],
                            [a["text"] for a in qa.get("plausible_answers", [])]))
    return out


def _span(rng, context, length):
    start = rng.randrange(0, max(len(context) - length, 1))
    return context[start:start + length]


def _variant(rng, text, context, chinese):
    choice = rng.randrange(12)
    if choice == 0:
        return text.upper() if not chinese else text + "。"
    if choice == 1:
        return ("The " if not chinese else "“") + text + ("." if not chinese else "”")
    if choice == 2:
        return "  " + text.replace(" ", "   ") + " \u3000"
    if choice == 3:
        return text[:max(1, len(text) // 2)]
    if choice == 4:
        at = context.find(text)
        return context[max(at - 3, 0):at + len(text) + 4] if at >= 0 else text + text
    if choice == 5:
        return _span(rng, context, rng.randint(1, 12))
    if choice == 6:
        return text.replace(",", "，").replace("(", "（").replace(")", "）") + "！"
    if choice == 7:
        return "a " + text + " an the"
    if choice == 8:
        return ""
    if choice == 9:
        return text + " " + text
    if choice == 10:
        return text.replace("-", " - ") + "'s"
    return text


def squad_predictions(data, scenario, seed=SEED):
    """(predictions {id: text}, na_probs {id: float}) for SQuAD 2.0 data."""
    rng = random.Random("%s/squad/%s" % (seed, scenario))
    preds, probs = {}, {}
    for qid, context, golds, plausible in questions(data):
        if scenario == "gold":
            preds[qid] = golds[0] if golds else ""
        elif scenario == "empty":
            preds[qid] = ""
        else:
            base = rng.choice(golds) if golds else (rng.choice(plausible) if plausible and rng.random() < 0.5 else "")
            preds[qid] = _variant(rng, base, context, False) if base or rng.random() < 0.3 else base
            if not preds[qid] and rng.random() < 0.3:
                preds[qid] = _span(rng, context, rng.randint(3, 30))
        probs[qid] = round(rng.random(), 2) if rng.random() < 0.8 else rng.choice([0.0, 0.5, 1.0])
    return preds, probs


def cmrc_predictions(data, scenario, seed=SEED):
    """{id: text} for CMRC 2018 data."""
    rng = random.Random("%s/cmrc/%s" % (seed, scenario))
    preds = {}
    for qid, context, golds, _ in questions(data):
        if scenario == "gold":
            preds[qid] = golds[0]
        elif scenario == "empty":
            preds[qid] = ""
        else:
            if rng.random() < 0.1:
                continue   # no prediction: the script counts the question, scored 0
            text = _variant(rng, rng.choice(golds), context, True)
            preds[qid] = text if not _BREAK.search(_non_chinese(text)) else rng.choice(golds)
    return preds


def _non_chinese(text):
    return _CHINESE.sub("|", text)


def punkt_free(data):
    """The data without the questions one of whose gold answers holds, outside its Chinese characters, a
    sentence end followed by more words (where NLTK's English Punkt model decides how CMRC's script cuts it)."""
    data = json.loads(json.dumps(data))
    dropped = []
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            kept = []
            for qa in paragraph["qas"]:
                if any(_BREAK.search(_non_chinese(a["text"].lower().strip())) for a in qa["answers"]):
                    dropped.append(qa["id"])
                else:
                    kept.append(qa)
            paragraph["qas"] = kept
    return data, dropped


def _dataset(rows, impossible=False):
    """A SQuAD-layout file of (id, gold texts) rows, one paragraph."""
    qas = []
    for qid, golds in rows:
        qa = {"id": qid, "question": "q", "answers": [{"text": g, "answer_start": 0} for g in golds]}
        if impossible:
            qa["is_impossible"] = not golds
        qas.append(qa)
    return {"version": "v2.0", "data": [{"title": "edge", "paragraphs": [{"context": "c", "qas": qas}]}]}


# hand-made questions at the edges of the normalisations: answers that normalise to nothing, articles inside
# words, Unicode punctuation and letters, repeated tokens, ties of no-answer probabilities
SQUAD_EDGE = (
    ("e1", ["the"], "", 0.5), ("e2", ["..."], "a", 0.5), ("e3", [], "", 0.5), ("e4", [], "the", 0.2),
    ("e5", ["Théa"], "théa", 0.2), ("e6", ["an apple a day"], "apple day", 0.9), ("e7", ["1,066"], "1066", 0.9),
    ("e8", ["New York – City"], "new york city", 0.1), ("e9", ["a a a b"], "a b b b", 0.1),
    ("e10", ["«Paris»", "Paris, France"], "paris", 0.3), ("e11", [], "", 0.3), ("e12", ["x y"], "y x", 0.0),
    ("e13", ["ＡＢＣ"], "abc", 1.0), ("e14", ["the the"], "", 0.7), ("e15", ["it's"], "its", 0.7),
)
CMRC_EDGE = (
    ("c1", ["北京大学"], "北京大学。"), ("c2", ["1,000人"], "约1,000人"), ("c3", ["NBA"], "nba"),
    ("c4", ["《红楼梦》"], "红楼梦"), ("c5", ["iPhone 6 Plus"], "iphone 6"), ("c6", ["“你好”"], '"你好"'),
    ("c7", ["3.5%"], "3.5 %"), ("c8", ["Michael Jordan"], "Michael Jordan's"), ("c9", ["(1621年)"], "1621年"),
    ("c10", ["ａｂｃ１２３"], "abc123"), ("c11", ["ω"], "Ω"), ("c12", ["cannot"], "can not"),
    ("c13", ["a-b"], "ab"), ("c14", ["很好，"], ""), ("c15", ["第一", "第一名"], "第一名的"),
)


def squad_edge():
    """(data, predictions, na_probs) of ``SQUAD_EDGE``."""
    data = _dataset([(qid, golds) for qid, golds, _, _ in SQUAD_EDGE], impossible=True)
    return data, {qid: p for qid, _, p, _ in SQUAD_EDGE}, {qid: prob for qid, _, _, prob in SQUAD_EDGE}


def cmrc_edge():
    """(data, predictions) of ``CMRC_EDGE``."""
    return _dataset([(qid, golds) for qid, golds, _ in CMRC_EDGE]), {qid: p for qid, _, p in CMRC_EDGE}
