"""new for classification: gold ``id,label`` (plus any text columns), the classes in ``--labels labels.txt``.

Without ``--labels`` the classes are the gold's labels sorted by name, and new
says so (their order breaks ties between equal probabilities and is the
default ordinal scale). The kit shows every column but ``label``, and
labels.txt. Baseline: each item's class is the first class whose name occurs
as a word in its public text (underscores read as spaces, case ignored), else
the first class; with ``submission: probabilities``, that class gets 0.6 and
the others share the rest.
"""
import argparse
import re

from .base import (Items, Start, code_list, csv_bytes, csv_line, lines_file, plain, public_text, read_table,
    text_columns, warnings_list)
from .render import fill
from ..inputs import OrganizerError

ANSWERS = ("label",)
HINTED = 0.6   # the baseline's probability of the class its text names
EXAMPLE_TOP = ("0.7", "0.55")   # the example rows' highest probabilities


class ClassificationStart(Start):
    family = "classification"

    def arguments(self, parser):
        try:
            parser.add_argument("--labels", help="multilabel, classification: labels.txt, the class names, one per "
                                "line")
        except argparse.ArgumentError:   # another family's flag of the same meaning: one --labels for both
            pass

    def read(self, gold, args, dev=False):
        what = "the dev gold" if dev else "the gold"
        frame = read_table(gold, ["id", "label"], what)
        found = sorted(set(frame["label"].str.strip()))
        if args.labels:
            labels = lines_file(args.labels, "the labels file")
            unknown = [label for label in found if label not in labels]
            if unknown:
                raise OrganizerError("%s %s has label %r, which %s does not list; add it to the labels file or "
                                     "correct the gold" % (what, gold, unknown[0], args.labels))
        else:
            labels = found
            if not dev:
                print("note: no --labels: the classes are the gold's %d labels sorted by name (%s); give --labels "
                      "to choose their order (ties between equal probabilities, the ordinal scale)"
                      % (len(labels), ", ".join(labels[:8]) + (", ..." if len(labels) > 8 else "")))
        labels_txt = ("\n".join(labels) + "\n").encode("utf-8")
        frame = frame.assign(label=frame["label"].str.strip())
        public = frame[["id"] + text_columns(frame, ("id",) + ANSWERS)]
        return Items({"gold.csv": csv_bytes(frame[["id", "label"]]), "labels.txt": labels_txt},
                     {"test_public.csv": csv_bytes(public), "labels.txt": labels_txt},
                     frame["id"].str.strip().tolist(), public, {"labels": labels})

    def baseline(self, items, options, args):
        frame, labels = items.inputs, items.extra["labels"]
        texts = [text.lower() for text in public_text(frame)]
        names = [(k, re.compile(r"\b%s\b" % re.escape(label.replace("_", " ").lower())))
                 for k, label in enumerate(labels)]
        chosen = []
        for text in texts:   # one pass per item; the organizer runs this once
            chosen.append(next((k for k, pattern in names if pattern.search(text)), 0))
        out = frame[["id"]].copy()
        if options["submission"] == "probabilities":
            rest = (1.0 - HINTED) / (len(labels) - 1)
            for k, label in enumerate(labels):
                out[label] = ["%.6g" % (HINTED if c == k else rest) for c in chosen]
        else:
            out["label"] = [labels[c] for c in chosen]
        return {self.sample: csv_bytes(out)}

    def example(self, items, sample, options, texts, args):
        """The first two items with classes picked from labels.txt by position, not from the text (which may
        name the true class): the middle class and the last one. With probabilities, that class gets 0.7 (0.55
        on the second row) and the others share the rest, three decimals."""
        frame, labels = items.inputs, items.extra["labels"]
        units = [str(u) for u in frame["id"][:2]]
        picks = [len(labels) // 2, len(labels) - 1][:len(units)]
        if options["submission"] == "probabilities":
            lines = ["id," + ",".join(labels)]
            for unit, pick, top in zip(units, picks, EXAMPLE_TOP):
                rest = "%.3g" % ((1 - float(top)) / (len(labels) - 1))
                lines.append(csv_line([unit] + [top if k == pick else rest for k in range(len(labels))]))
            note = fill(texts["example_note_probabilities"], {"ex_id": plain(units[0]), "ex_p": EXAMPLE_TOP[0],
                                                              "ex_label": plain(labels[picks[0]])})
        else:
            lines = ["id,label"] + [csv_line([unit, labels[pick]]) for unit, pick in zip(units, picks)]
            note = fill(texts["example_note"], {"ex_id": plain(units[0]), "ex_label": plain(labels[picks[0]])})
        return {"example": "\n".join(lines), "example_note": note}

    def values(self, options, texts, items):
        """The texts say what the platform does with these options: a probabilities competition describes the
        probability header only (an id,label file is refused there), with its rule for the rows; the weighted
        kappa (of ``ordinal_weights``) and top-k accuracy only where the options make them keys."""
        labels = items.extra["labels"]
        two = len(labels) == 2
        probabilities = options["submission"] == "probabilities"
        positive = options["positive_class"] if options["positive_class"] is not None else labels[1] if two else ""
        fields = {"n_labels": str(len(labels)), "classes": code_list(labels, texts["lang"]),
                  "public_columns": code_list(list(items.inputs.columns), texts["lang"]),
                  "probability_header": "id," + ",".join(labels), "positive": str(positive),
                  "scale": " < ".join(map(str, options["ordinal_order"] or [])),
                  "k": str(options["top_k"]) if options["top_k"] is not None else "k",
                  "eps": "2.2e-16" if options["log_loss_eps"] is None else "%g" % options["log_loss_eps"]}
        # texts that hold fields of their own, filled here: the page fills one level only
        own = dict(texts, **fields)
        for name, text in (("form", "form_" + options["submission"]), ("average", "average_" + options["average"]),
                           ("ranking", "ranking_binary" if two else "ranking_multi"),
                           ("other_average", "other_" + options["average"]),
                           ("qwk", "qwk_none" if options["ordinal_order"] is None else
                            "lwk_some" if options["ordinal_weights"] == "linear" else "qwk_some"),
                           ("top_k_metric", "top_k_some" if options["top_k"] is not None else "top_k_none"),
                           ("rows_rule", "rows_" + options["probability_rows"]),
                           ("format_rules", "format_rules" if probabilities else "format_rules_labels")):
            fields[name] = fill(texts[text], own, strip=name != "qwk")
        fields["format_form"] = fill(texts["format_" + options["submission"]], dict(own, **fields))
        fields["probability_metric"] = fill(texts["probability_metric"], dict(own, **fields)) if probabilities else ""
        # a file of per-class columns is taken in either form: its column-order warning is the kit's in both
        fields["kit_warnings"] = warnings_list(["same", "order"], texts)
        return fields


START = ClassificationStart()
