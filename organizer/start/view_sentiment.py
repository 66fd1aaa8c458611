"""new for view_sentiment: gold ``SentenceId,View,Opinion``, ``--inputs`` the test sentences (``SentenceId`` and
their text columns) and ``--views`` the list of views participants get.

Reference data: gold.csv and sentences.csv (every test sentence, with or
without views). The kit shows the inputs table and views.txt. Baseline: the
views of views.txt found in each sentence's text (longest first, not
overlapping), each with the neutral opinion. The pages' example gives the views
found in the first sentences made-up opinions, positive, negative, neutral in turn
(the gold is not read).
"""


from .base import Items, Start, code_list, csv_bytes, csv_line, lines_file, plain, public_text, read_table, text_columns
from .render import fill, submission_fields

GOLD = ["SentenceId", "View", "Opinion"]
NEUTRAL = {"en": "neu", "zh": "中性", "either": "neu"}
OPINIONS = {"en": ("pos", "neg", "neu"), "zh": ("正面", "负面", "中性"), "either": ("pos", "neg", "neu")}
EXAMPLE_ROWS = 3


class ViewSentimentStart(Start):
    family = "view_sentiment"

    def arguments(self, parser):
        parser.add_argument("--inputs", help="view_sentiment: the test sentences, a table with SentenceId and "
                            "their text (required)")
        parser.add_argument("--views", help="view_sentiment: the views participants get, one per line or a table "
                            "with a View column (required)")
        parser.add_argument("--dev-inputs", help="view_sentiment: the dev sentences (default: those of the dev gold)")

    def read(self, gold, args, dev=False):
        what = "the dev gold" if dev else "the gold"
        frame = read_table(gold, GOLD, what)
        inputs = args.dev_inputs if dev else args.inputs
        if inputs:
            sentences = read_table(inputs, ["SentenceId"], "the dev inputs" if dev else "the inputs")
        elif dev:
            sentences = frame[["SentenceId"]].drop_duplicates()
        else:
            raise SystemExit("view_sentiment needs --inputs FILE: the test sentences (SentenceId and their text), "
                             "including those without any view")
        listed = set(sentences["SentenceId"].str.strip())
        unlisted = frame.loc[~frame["SentenceId"].str.strip().isin(listed), "SentenceId"]
        if len(unlisted):
            raise SystemExit("%s %s names %d SentenceId(s) that are not in the sentences (first: %s); keep only the "
                             "gold rows of listed sentences" % (what, gold, len(unlisted), unlisted.iloc[0]))
        public = sentences[["SentenceId"] + text_columns(sentences, ("SentenceId",))]
        return Items({"gold.csv": csv_bytes(frame[GOLD]), "sentences.csv": csv_bytes(sentences[["SentenceId"]])},
                     {"test_public.csv": csv_bytes(public), "views.txt": self.views_txt(args)},
                     sentences["SentenceId"].str.strip().tolist(), public,
                     dropped=[c for c in frame.columns if c not in GOLD])

    def views_txt(self, args):
        return ("\n".join(self.views(args)) + "\n").encode("utf-8")

    def views(self, args):
        if not args.views:
            raise SystemExit("view_sentiment needs --views FILE: the views participants get (one per line, or a "
                             "table with a View column); the kit ships it as views.txt")
        header = lines_file(args.views, "the views file")[0]
        if "View" in header.replace(",", "\t").split("\t") or "View" in header.split():
            views = read_table(args.views, ["View"], "the views file")["View"].str.strip().tolist()
        else:
            views = lines_file(args.views, "the views file")
        return sorted({v for v in views if v}, key=lambda v: (-len(v), v))

    def baseline(self, items, options, args):
        opinion = NEUTRAL[options["opinion_labels"]]
        rows = [(sentence, view, opinion) for sentence, found in self.found(items, args) for view in found]
        if not rows:
            raise SystemExit("no view of --views occurs in any test sentence, so the sample submission would be "
                             "empty; give the list of the views of this task")
        lines = ["SentenceId,View,Opinion"] + [",".join(_csv(v) for v in row) for row in rows]
        return {self.sample: ("\n".join(lines) + "\n").encode("utf-8")}

    def found(self, items, args):
        """(SentenceId, the views of views.txt found in its public text, longest first and not overlapping) of each
        sentence, in order."""
        by_first = {}
        for view in self.views(args):  # longest first
            if len(view) >= 2:
                by_first.setdefault(view[0], []).append(view)
        frame = items.inputs
        text = public_text(frame, "SentenceId")
        for sentence, content in zip(frame["SentenceId"], text):  # the organizer runs this once
            found, i = [], 0
            while i < len(content):
                for view in by_first.get(content[i], ()):
                    if content.startswith(view, i):
                        if view not in found:
                            found.append(view)
                        i += len(view) - 1
                        break
                i += 1
            yield sentence, found

    def example(self, items, sample, options, texts, args):
        """The views found in the first sentences that have some (up to three rows), with the opinions positive,
        negative, neutral in turn: made up, whatever the sentence says. The gold is not read, not even to avoid
        its rows: an example that steered clear of the true opinion would tell which opinion a test row does not
        have. A row may agree with the gold by chance, which says nothing."""
        opinions = OPINIONS[options["opinion_labels"]]
        rows = []
        for sentence, found in self.found(items, args):
            rows += [(str(sentence), view) for view in found[:EXAMPLE_ROWS - len(rows)]]
            if len(rows) >= 2:
                break
        lines = [submission_fields(self.family)["header"]]
        for k, (sentence, view) in enumerate(rows):
            lines.append(csv_line([sentence, view, opinions[k % len(opinions)]]))
        first = rows[0][0]
        note = fill(texts["example_note"], {"ex_id": plain(first), "ex_views": code_list(
            [view for sentence, view in rows if sentence == first], texts["lang"])})
        return {"example": "\n".join(lines), "example_note": note}

    def values(self, options, texts, items):
        steps = options["view_normalisation"]
        return {"opinions": texts["opinions_" + options["opinion_labels"]],
                "repeats": texts["repeats_" + options["repeated_rows"]],
                "normalisation": texts["normalisation_some"] if steps else texts["normalisation_none"],
                "steps": "+".join(steps), "public_columns": code_list(list(items.inputs.columns), texts["lang"])}


def _csv(value):
    value = str(value)
    return '"%s"' % value.replace('"', '""') if any(c in value for c in ',"\n\r') else value


START = ViewSentimentStart()
