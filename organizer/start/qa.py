"""new for qa: the gold is a reading-comprehension file in SQuAD's JSON layout (``data[].paragraphs[]``, each with
its ``context`` and ``qas``, each question with its ``id``, ``question`` and ``answers``), as SQuAD 1.1 and 2.0 and
CMRC 2018 publish their sets.

It becomes ``reference_data/gold.json`` (each question's id and gold answer texts; none for an unanswerable one)
and the kit's ``test_public.json`` (id, title, context, question: no answer, no ``plausible_answers``, no
``is_impossible``). The rules are chosen from the file (``--option rules=...`` wins): ``cmrc2018`` when most
answers are Chinese, ``squad_v2`` when the file says version v2.0 or holds an unanswerable question, else
``squad_v1.1``; new says which.

Baseline: for each question, the sentence of its passage that shares the most words (Chinese: characters) with
the question, always answered. The pages' example gives the first two questions made-up answers.
"""
import json
import re
from collections import Counter

from ..inputs import OrganizerError, read_bytes
from .base import Items, Start, code, plain, warnings_list
from .render import fill
from scorer.public import ScoringError, decode

CHINESE = re.compile("[\u4e00-\u9fff]")
SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]?")
WORD = re.compile(r"[\u4e00-\u9fff]|[A-Za-z0-9]+")
DROPPED = ("answers", "plausible_answers", "is_impossible")


class QAStart(Start):
    family = "qa"
    sample = "submission/"               # a folder: its files keep the names the submission's slots match
    dev_sample = "submission/"

    def read(self, gold, args, dev=False):
        what = "the dev gold" if dev else "the gold"
        questions, _ = squad_questions(gold, what)
        reference = [{"id": q["id"], "answers": q["answers"]} for q in questions]
        public = [{"id": q["id"], "title": q["title"], "context": q["context"], "question": q["question"]}
                  for q in questions]
        return Items({"gold.json": _json(reference)}, {"test_public.json": _json(public)},
                     [q["id"] for q in questions], public, extra={"questions": questions})

    def options(self, args, dev=False):
        questions, version = squad_questions(args.dev_gold if dev else args.gold,
                                             "the dev gold" if dev else "the gold")
        return {"rules": rules_of(questions, version)}

    def notes(self, options, items, args):
        questions = items.extra["questions"]
        unanswerable = sum(1 for q in questions if not q["answers"])
        return ["rules %s (%d questions, %d unanswerable); another with --option rules=squad_v2|squad_v1.1|cmrc2018"
                % (options["rules"], len(questions), unanswerable)]

    def baseline(self, items, options, args):
        answers = {q["id"]: best_sentence(q["context"], q["question"]) for q in items.inputs}
        files = {self.sample + "predictions.json": _json(answers)}
        if options.get("no_answer_probabilities"):
            files[self.sample + "na_probs.json"] = _json({k: 0.0 for k in answers})
        return files

    def example(self, items, sample, options, texts, args):
        ids = [q["id"] for q in items.inputs[:2]]
        made_up = texts["example_answers"]
        shown = {qid: made_up[k % len(made_up)] for k, qid in enumerate(ids)}
        if options["rules"] == "squad_v2" and len(ids) > 1:
            shown[ids[1]] = ""
        lines = json.dumps(shown, ensure_ascii=False, indent=1)
        note = texts["example_note_v2" if options["rules"] == "squad_v2" and len(ids) > 1 else "example_note"]
        return {"example": lines, "example_note": fill(note, {"ex_id": plain(ids[0]),
                                                             "ex_id2": plain(ids[-1])})}

    def values(self, options, texts, items):
        rules = options["rules"]
        probs = bool(options.get("no_answer_probabilities"))
        warnings = ["absent", "longer", "same"] + (["empty"] if rules != "squad_v2" else ["all_empty"])
        return {"rules_text": texts["rules_" + rules.replace(".", "")],
                "unanswerable_rule": texts["unanswerable_" + ("v2" if rules == "squad_v2" else "none")],
                "probs_rule": fill(texts["probs_on"], {"thresh": "%g" % options["na_prob_thresh"]}) if probs else "",
                "keys_text": texts["keys_" + rules.replace(".", "")] + (" " + texts["keys_best"] if probs else ""),
                "kit_warnings": warnings_list(warnings, texts), "public_file": code("test_public.json")}


def squad_questions(path, what):
    """(every question of a SQuAD-layout file: id (stripped), title, context, question, answer texts, in file order;
    the file's ``version``)."""
    data = read_bytes(path, what)
    try:
        value = json.loads(decode(data, str(path), ScoringError))
    except (ValueError, ScoringError) as exc:
        raise OrganizerError("%s %s is not JSON (%s); new for qa reads SQuAD's layout: {\"data\": [{\"title\", "
                             "\"paragraphs\": [{\"context\", \"qas\": [{\"id\", \"question\", \"answers\": "
                             "[{\"text\"}]}]}]}]}" % (what, path, str(exc).split("\n")[0][:120]))
    if not isinstance(value, dict) or not isinstance(value.get("data"), list):
        raise OrganizerError("%s %s has no list \"data\"; new for qa reads SQuAD's layout (data[].paragraphs[].qas[])"
                             % (what, path))
    out, seen = [], set()
    for article in value["data"]:
        for paragraph in (article or {}).get("paragraphs", []):
            context = paragraph.get("context")
            if not isinstance(context, str):
                raise OrganizerError("%s %s: a paragraph of %r has no context text" % (what, path,
                                                                                      article.get("title")))
            for qa in paragraph.get("qas", []):
                qid = qa.get("id")
                if not isinstance(qid, str) or not qid.strip():
                    raise OrganizerError("%s %s: a question of %r has no id" % (what, path, article.get("title")))
                qid = qid.strip()
                if qid in seen:
                    raise OrganizerError("%s %s repeats question id %s; every question needs its own id"
                                         % (what, path, qid))
                seen.add(qid)
                answers = [a.get("text") for a in qa.get("answers", []) if isinstance(a, dict)]
                if not all(isinstance(a, str) for a in answers):
                    raise OrganizerError("%s %s, question %s: an answer has no text" % (what, path, qid))
                out.append({"id": qid, "title": str(article.get("title", "")), "context": context,
                            "question": str(qa.get("question", "")), "answers": answers})
    if not out:
        raise OrganizerError("%s %s holds no question" % (what, path))
    return out, value.get("version")


def rules_of(questions, version=None):
    """cmrc2018 when most gold answers hold a Chinese character, squad_v2 for a v2.0 file or one with an
    unanswerable question, else squad_v1.1."""
    answers = [a for q in questions for a in q["answers"]]
    if answers and sum(1 for a in answers if CHINESE.search(a)) > len(answers) / 2:
        return "cmrc2018"
    if version == "v2.0" or any(not q["answers"] for q in questions):
        return "squad_v2"
    return "squad_v1.1"


def best_sentence(context, question):
    """The sentence of ``context`` sharing the most words (Chinese characters) with ``question`` (the first on a tie),
    stripped; the context's first 30 characters when it has no sentence."""
    asked = Counter(w.lower() for w in WORD.findall(question))
    best, best_shared = "", -1
    for sentence in SENTENCE.findall(context):
        shared = sum(min(n, asked[w.lower()]) for w, n in Counter(WORD.findall(sentence)).items())
        if shared > best_shared and sentence.strip():
            best, best_shared = sentence.strip(), shared
    return best or context[:30].strip()


def _json(value):
    return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


START = QAStart()
