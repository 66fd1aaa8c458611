"""Generate the question-answering demo: passages about invented towns, questions with their gold answers (some
unanswerable), in SQuAD 2.0's layout, a test file and a dev file.

    python3 -m organizer demo qa [--questions 600] [--seed 2034] [--out out/demo_qa_data]

Each passage states a few facts of one invented town in template sentences (founded in a year, by a person, on a
river, known for a product); each question asks for one fact, its gold answers the span and a shorter variant
("1642", "in 1642"); a quarter of the questions ask for a fact the passage does not state and have no answer
(SQuAD 2.0's unanswerable questions, with the span a careless reader would take as ``plausible_answers``).
``python3 -m organizer new qa OUT/test.json ... --dev-gold OUT/dev.json`` makes the competition.
"""
import json

import numpy as np

from ._files import demo_arguments

SYLLABLES = ["bar", "ken", "lo", "mir", "tas", "vel", "dor", "ami", "sen", "rua", "pol", "qui", "zan", "ert"]
PEOPLE = ["Ada Morrow", "Ivo Lind", "Mara Quell", "Otto Brand", "Lena Vos", "Tomas Ruiz", "Yuki Sato", "Nia Obi"]
RIVERS = ["Amber", "Cold", "Silver", "Long", "Black", "Reed"]
PRODUCTS = ["glass bells", "blue wool", "river salt", "paper kites", "clay pipes", "honey beer"]
FACTS = {
    "year": ("{town} was founded in {value}.", "When was {town} founded?", lambda v: ["in " + v]),
    "founder": ("Its first mayor was {value}.", "Who was the first mayor of {town}?", lambda v: [v.split()[-1]]),
    "river": ("The town lies on the {value} River.", "On which river does {town} lie?",
              lambda v: ["the " + v + " River"]),
    "product": ("Today {town} is known for its {value}.", "What is {town} known for?", lambda v: ["its " + v]),
}
MISSING = {"year": "When did {town} get its railway station?", "founder": "Who designed the old bridge of {town}?",
           "river": "Which lake is nearest to {town}?", "product": "What did {town} export before 1900?"}


def town(rng):
    return "".join(str(rng.choice(SYLLABLES)) for _ in range(int(rng.integers(2, 4)))).capitalize()


def passage(rng, name):
    values = {"year": str(int(rng.integers(1200, 1900))), "founder": str(rng.choice(PEOPLE)),
              "river": str(rng.choice(RIVERS)), "product": str(rng.choice(PRODUCTS))}
    stated = [k for k in FACTS if rng.random() < 0.8] or ["year"]
    text = " ".join(FACTS[k][0].format(town=name, value=values[k]) for k in stated)
    return text, values, stated


def generate(n_questions, seed, prefix):
    rng = np.random.default_rng(seed)
    paragraphs, count = [], 0
    while count < n_questions:
        name = town(rng)
        context, values, stated = passage(rng, name)
        qas = []
        for kind in FACTS:
            if count >= n_questions:
                break
            qid = "%s%05d" % (prefix, count)
            count += 1
            if kind in stated and rng.random() < 0.75:
                value = values[kind]
                texts = [value] + FACTS[kind][2](value)
                answers = [{"text": t, "answer_start": context.find(t)} for t in texts if context.find(t) >= 0]
                qas.append({"id": qid, "question": FACTS[kind][1].format(town=name), "answers": answers,
                            "is_impossible": False})
            else:
                plausible = [{"text": values[stated[0]], "answer_start": context.find(values[stated[0]])}]
                qas.append({"id": qid, "question": MISSING[kind].format(town=name), "answers": [],
                            "plausible_answers": plausible, "is_impossible": True})
        paragraphs.append({"context": context, "qas": qas})
    return {"version": "v2.0", "data": [{"title": "Invented towns", "paragraphs": paragraphs}]}


def main(argv=None):
    args = demo_arguments(__doc__, "questions", 600, 2034, "out/demo_qa_data", argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, count, seed, prefix in (("test.json", args.count, args.seed, "q"),
                                      ("dev.json", max(args.count // 4, 2), args.seed + 1, "dev")):
        with open(args.out / name, "w", encoding="utf-8", newline="\n") as fh:
            json.dump(generate(count, seed, prefix), fh, ensure_ascii=False, indent=1)
            fh.write("\n")
    print("wrote test.json (%d questions) and dev.json into %s" % (args.count, args.out))


if __name__ == "__main__":
    main()
