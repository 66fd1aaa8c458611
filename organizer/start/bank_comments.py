"""new for bank_comments: gold ``id,text,BIO_anno,class``; the kit shows ``id,text``.

Baseline: every character tagged O and every comment given class 0 (a format
example: validate.py warns that it scores 0, which is true). The pages' example
is a short public comment with made-up entities of the declared types and class 1.
"""
from .base import Items, Start, code_list, csv_bytes, csv_line, plain, read_table, warnings_list
from .render import fill, submission_fields

GOLD = ["id", "text", "BIO_anno", "class"]


class BankStart(Start):
    family = "bank_comments"

    def read(self, gold, args, dev=False):
        frame = read_table(gold, GOLD, "the dev gold" if dev else "the gold")
        public = frame[["id", "text"]]
        return Items({"gold.csv": csv_bytes(frame[GOLD])}, {"test_public.csv": csv_bytes(public)},
                     frame["id"].str.strip().tolist(), public, dropped=[c for c in frame.columns if c not in GOLD])

    def baseline(self, items, options, args):
        frame = items.inputs.copy()
        frame["BIO_anno"] = [" ".join(["O"] * len(text)) for text in frame["text"]]
        frame["class"] = "0"
        return {self.sample: csv_bytes(frame[["id", "BIO_anno", "class"]])}

    def example(self, items, sample, options, texts, args):
        """One comment of the public inputs (the first of 6 to 30 characters, else the shortest non-empty one) with
        made-up entities: the first declared type on its first two characters and, from 6 characters on, the last
        type on the two characters before its last one; class 1."""
        frame = items.inputs
        comments = [str(t) for t in frame["text"]]
        fitting = [i for i, t in enumerate(comments) if 6 <= len(t) <= 30]
        pick = fitting[0] if fitting else min(range(len(comments)), key=lambda i: (not comments[i], len(comments[i])))
        text, types = comments[pick], list(options["entity_types"])
        spans = ([(0, types[0])] if text else []) + ([(len(text) - 3, types[-1])] if len(text) >= 6 else [])
        tags, entities = ["O"] * len(text), []
        for start, kind in spans:
            chars = text[start:start + 2]
            tags[start:start + len(chars)] = ["B-" + kind] + ["I-" + kind] * (len(chars) - 1)
            entities.append(fill(texts["example_entity"], {"ex_chars": plain(chars), "ex_type": kind}))
        unit = str(frame["id"].iloc[pick])
        lines = [submission_fields(self.family)["header"], csv_line([unit, " ".join(tags), "1"])]
        note = fill(texts["example_note"], {"ex_id": plain(unit), "ex_n": str(len(text)),
                                            "ex_entities": texts["example_and"].join(entities)})
        return {"example": "\n".join(lines), "example_note": note}

    def values(self, options, texts, items):
        from scorer.public import TagSet

        w = float(options["ner_weight"])
        types = options["entity_types"]
        return {"w1": "%g" % w, "w2": "%g" % round(1 - w, 10), "types": code_list(types, texts["lang"]),
                "tags": code_list(TagSet(tuple(types)).tags, texts["lang"]),
                "scheme": texts["scheme_" + options["scheme"]],
                "kit_warnings": warnings_list([k for k, on in (("no_entity", w > 0), ("one_class", w < 1)) if on],
                                              texts)}


START = BankStart()
