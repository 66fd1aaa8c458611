"""new for multilabel: gold ``id,labels`` (optional ``grades``, any text columns) and ``--labels labels.txt``.

The kit shows every column but ``labels`` and ``grades``, and labels.txt.
Baseline: each sample lists the class names that occur as words in its public
text (underscores read as spaces, case ignored), in the order they occur, each
with the score 1. The pages' example ranks labels of labels.txt with made-up
scores and says which of them the task's rule keeps.
"""
import re

from .base import (Items, Start, code_list, csv_bytes, csv_line, lines_file, plain, public_text, read_table,
    text_columns, warnings_list)
from .render import fill, submission_fields

EXAMPLE_SCORES = (("0.92", "0.61", "0.17"), ("0.80", "0.35"))   # of the example's two rows

ANSWERS = ("labels", "grades")


class MultilabelStart(Start):
    family = "multilabel"

    def arguments(self, parser):
        parser.add_argument("--labels", help="multilabel: labels.txt, the class names, one per line (required)")

    def read(self, gold, args, dev=False):
        if not args.labels:
            raise SystemExit("multilabel needs --labels FILE: the class names, one per line (labels.txt)")
        labels = lines_file(args.labels, "the labels file")
        labels_txt = ("\n".join(labels) + "\n").encode("utf-8")
        frame = read_table(gold, ["id", "labels"], "the dev gold" if dev else "the gold")
        answers = ["id"] + [c for c in ANSWERS if c in frame.columns]
        public = frame[["id"] + text_columns(frame, ("id",) + ANSWERS)]
        return Items({"gold.csv": csv_bytes(frame[answers]), "labels.txt": labels_txt},
                     {"test_public.csv": csv_bytes(public), "labels.txt": labels_txt},
                     frame["id"].str.strip().tolist(), public, {"labels": labels})

    def baseline(self, items, options, args):
        frame, labels = items.inputs, items.extra["labels"]
        texts = [text.lower() for text in public_text(frame)]
        names = {label: re.compile(r"\b%s\b" % re.escape(label.replace("_", " ").lower())) for label in labels}
        rows = []
        for text in texts:  # one pass per sample; the organizer runs this once
            found = [(m.start(), label) for label, pattern in names.items() for m in [pattern.search(text)] if m]
            rows.append(" ".join(label for _, label in sorted(found)))
        out = frame[["id"]].copy()
        out["labels"] = rows
        out["scores"] = [" ".join(["1"] * len(r.split())) for r in rows]  # each kept by any set_threshold <= 1
        return {self.sample: csv_bytes(out)}

    def example(self, items, sample, options, texts, args):
        """The first two samples with labels picked from labels.txt by position, not from the text (which often
        names the true label, and a one-label row would often be a gold row): the first sample gets the first,
        middle and last labels with the scores 0.92, 0.61, 0.17, the second the second and second-to-last with
        0.80, 0.35. The note says which labels of the first the task's rule keeps (set_top_k, set_threshold)."""
        frame, labels = items.inputs, items.extra["labels"]
        picks = ([0, len(labels) // 2, len(labels) - 1], [1, len(labels) - 2])
        rows = []
        for unit, positions, scores in zip(frame["id"], picks, EXAMPLE_SCORES):
            chosen = list(dict.fromkeys(labels[p % len(labels)] for p in positions))
            rows.append((str(unit), chosen, scores[:len(chosen)]))
        unit, chosen, scores = rows[0]
        kept = chosen[:options["set_top_k"]] if options["set_top_k"] is not None else chosen
        if options["set_threshold"] is not None:
            kept = [label for label in kept if float(scores[chosen.index(label)]) >= options["set_threshold"]]
        lines = [submission_fields(self.family)["header_full"]]
        lines += [csv_line([u, " ".join(c), " ".join(s)]) for u, c, s in rows]
        note = fill(texts["example_note"], {"ex_id": plain(unit), "ex_labels": code_list(chosen, texts["lang"]),
                                            "ex_set": code_list(kept, texts["lang"]) if kept else texts["example_empty"]})
        return {"example": "\n".join(lines), "example_note": note}

    def values(self, options, texts, items):
        ks = options["k"] if isinstance(options["k"], list) else [options["k"]]
        top, threshold = options["set_top_k"], options["set_threshold"]
        rule = {(False, False): "set_all", (True, False): "set_top", (False, True): "set_threshold",
                (True, True): "set_both"}[(top is not None, threshold is not None)]
        return {"n_labels": str(len(items.extra["labels"])), "public_columns": code_list(list(items.inputs.columns),
                                                                                       texts["lang"]),
                "scores_rule": texts["scores_required" if threshold is not None else "scores_optional"],
                "set_rule": texts[rule], "top": str(top), "threshold": str(threshold),
                "classes": texts["classes_" + options["classes"]], "ks": ", ".join(map(str, ks)),
                "map_denominator": texts["map_" + options["map_denominator"]],
                "gain": texts["gain_" + options["ndcg_gain"]],
                "kit_warnings": warnings_list(["same", "none"] + (["below", "range"] if threshold is not None else []),
                                              dict(texts, warn_below=fill(texts["warn_below"],
                                                                          {"threshold": str(threshold)})))}


START = MultilabelStart()
