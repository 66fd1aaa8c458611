"""new for bank_comments: gold ``id,text,BIO_anno,class``; the kit shows ``id,text``.

Baseline: every character tagged O and every comment given class 0 (a format
example: validate.py warns that it scores 0, which is true).
"""
from .base import Items, Start, code_list, csv_bytes, read_table

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

    def values(self, options, texts, items):
        from scorer.metrics.spans import TagSet

        w = float(options["ner_weight"])
        types = options["entity_types"]
        return {"w1": "%g" % w, "w2": "%g" % round(1 - w, 10), "types": code_list(types, texts["lang"]),
                "tags": code_list(TagSet(tuple(types)).tags, texts["lang"]),
                "scheme": texts["scheme_" + options["scheme"]]}


START = BankStart()
