"""new for keywords: gold ``id,keywords`` (plus any text columns); the kit shows every column but ``keywords``.

Baseline: the three most frequent words of each document's public text (runs
of Latin letters of four or more, or pairs of CJK characters), joined by the
keyword separator.
"""
import re
from collections import Counter

from .base import Items, Start, code_list, csv_bytes, read_table, text_columns

WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]{3,}|[\u3400-\u9fff]{2}")
PER_DOCUMENT = 3


class KeywordsStart(Start):
    family = "keywords"

    def read(self, gold, args, dev=False):
        frame = read_table(gold, ["id", "keywords"], "the dev gold" if dev else "the gold")
        public = frame[["id"] + text_columns(frame, ("id", "keywords"))]
        return Items({"gold.csv": csv_bytes(frame[["id", "keywords"]])}, {"test_public.csv": csv_bytes(public)},
                     frame["id"].str.strip().tolist(), public)

    def baseline(self, items, options, args):
        frame = items.inputs
        texts = frame.drop(columns=["id"]).apply(" ".join, axis=1) if frame.shape[1] > 1 else [""] * len(frame)
        sep = options["keyword_separator"]
        words = [sep.join(w for w, _ in Counter(WORD.findall(t)).most_common(PER_DOCUMENT)) for t in texts]
        out = frame[["id"]].copy()
        out["keywords"] = words
        return {self.sample: csv_bytes(out)}

    def values(self, options, texts, items):
        steps = options["normalisation"]
        return {"sep": options["keyword_separator"], "missing": texts["missing_" + options["mode"]],
                "counted": texts["counted_" + options["mode"]],
                "normalisation": texts["normalisation_some"] if steps else texts["normalisation_none"],
                "steps": "+".join(steps), "public_columns": code_list(list(items.inputs.columns), texts["lang"])}


START = KeywordsStart()
