"""new for generation: gold ``id,reference`` plus the source columns (the abstract, the text to translate); an id
with several references has one row per reference, its source columns repeated. The kit's ``test_public.csv``
holds ``id`` and the source columns of each id once; ``gold.csv`` the ids and references only.

Options from the references (``--option`` wins): when most references hold Chinese characters, BLEU's tokenizer
``zh`` and ROUGE's ``chinese`` rule (rouge-score's own drops every Chinese character); new says which.

Baseline: the first sentence of each id's first source column, cut to 30 characters (Chinese) or 20 words: a
plain lead, a common baseline of summarisation and headline generation.
"""
import re

from .base import Items, Start, code_list, csv_bytes, read_table, text_columns, warnings_list

CHINESE = re.compile("[\u4e00-\u9fff]")
SENTENCE = re.compile(r"[^.!?。！？；;\n]+")
ANSWERS = ("reference",)


class GenerationStart(Start):
    family = "generation"
    sample = "submission/"               # a folder: the file keeps the name the submission's slot matches
    dev_sample = "submission/"

    def read(self, gold, args, dev=False):
        frame = read_table(gold, ["id", "reference"], "the dev gold" if dev else "the gold")
        frame["id"] = frame["id"].str.strip()
        public = frame.drop_duplicates("id")[["id"] + text_columns(frame, ("id",) + ANSWERS)]
        return Items({"gold.csv": csv_bytes(frame[["id", "reference"]])}, {"test_public.csv": csv_bytes(public)},
                     public["id"].tolist(), public.reset_index(drop=True),
                     extra={"chinese": chinese_share(frame["reference"].tolist())})

    def options(self, args, dev=False):
        frame = read_table(args.dev_gold if dev else args.gold, ["id", "reference"], "the gold")
        if chinese_share(frame["reference"].tolist()) > 0.5:
            return {"bleu_tokenizer": "zh", "rouge_tokenizer": "chinese"}
        return {}

    def notes(self, options, items, args):
        return ["BLEU tokenizer %s, ROUGE tokenizer %s (%d%% of the references hold Chinese characters); others with "
                "--option bleu_tokenizer=13a|zh|char, --option rouge_tokenizer=default|chinese"
                % (options["bleu_tokenizer"], options["rouge_tokenizer"], round(100 * items.extra["chinese"]))]

    def baseline(self, items, options, args):
        frame = items.inputs
        sources = [c for c in frame.columns if c != "id"]
        out = frame[["id"]].copy()
        out["text"] = [lead(t) for t in (frame[sources[0]] if sources else [""] * len(frame))]
        return {self.sample + "predictions.csv": csv_bytes(out)}

    def values(self, options, texts, items):
        return {"public_columns": code_list(list(items.inputs.columns), texts["lang"]),
                "bleu_rule": texts["bleu_" + options["bleu_tokenizer"]],
                "rouge_rule": texts["rouge_" + options["rouge_tokenizer"]],
                "kit_warnings": warnings_list(["absent", "empty", "copied", "same"], texts)}

    def example(self, items, sample, options, texts, args):
        frame = items.inputs
        made_up = texts["ex_text_zh" if options["bleu_tokenizer"] == "zh" else "ex_text"]
        lines = ["id,text"] + ["%s,%s" % (unit, made_up[k % len(made_up)]) for k, unit in enumerate(frame["id"][:2])]
        return {"example": "\n".join(lines), "example_note": ""}


def chinese_share(texts):
    """The share of ``texts`` holding a Chinese character."""
    return sum(1 for t in texts if CHINESE.search(t)) / len(texts) if texts else 0.0


def lead(text):
    """The first sentence of ``text``, at most 30 characters when Chinese, else 20 words."""
    found = SENTENCE.search(text)
    first = found.group(0).strip() if found else text.strip()
    return first[:30] if CHINESE.search(first) else " ".join(first.split()[:20])


START = GenerationStart()
