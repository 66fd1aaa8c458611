"""new for keywords: gold ``id,keywords`` (plus any text columns); the kit shows every column but ``keywords``.

Baseline: the three most frequent words of each document's public text (runs
of Latin letters of four or more, or pairs of CJK characters), joined by the
keyword separator. The pages' example gives the first two documents made-up
keywords.
"""
import re
from collections import Counter

from .base import Items, Start, code_list, csv_bytes, csv_line, plain, public_text, read_table, text_columns
from .render import fill, submission_fields

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
        sep = options["keyword_separator"]
        words = [sep.join(w for w, _ in Counter(WORD.findall(t)).most_common(PER_DOCUMENT)) for t in public_text(frame)]
        out = frame[["id"]].copy()
        out["keywords"] = words
        return {self.sample: csv_bytes(out)}

    def example(self, items, sample, options, texts, args):
        """The first two documents with made-up keywords in the competition's language (two, then three), joined by
        the separator (a separator inside one of them becomes -)."""
        frame, sep = items.inputs, options["keyword_separator"]
        rows = [(str(unit), [k.replace(sep, "-") for k in keywords])
                for unit, keywords in zip(frame["id"], texts["example_keywords"])]
        lines = [submission_fields(self.family)["header"]] + [csv_line([unit, sep.join(words)]) for unit, words in rows]
        note = fill(texts["example_note"], {"ex_id": plain(rows[0][0]), "sep": sep,
                                            "ex_keywords": code_list(rows[0][1], texts["lang"])})
        return {"example": "\n".join(lines), "example_note": note}

    def values(self, options, texts, items):
        steps = options["normalisation"]
        return {"sep": options["keyword_separator"], "missing": texts["missing_" + options["mode"]],
                "counted": texts["counted_" + options["mode"]],
                "normalisation": texts["normalisation_some"] if steps else texts["normalisation_none"],
                "steps": "+".join(steps), "public_columns": code_list(list(items.inputs.columns), texts["lang"])}


START = KeywordsStart()
