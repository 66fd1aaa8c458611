"""What a participant reads about the format: every kit states its own, with an answered example, and only what
applies to it.

For each family, a competition made by ``python3 -m organizer new`` in English and in Chinese (with and without
a dev set) and the shipped competitions (the top level and examples/*), the kit is unzipped as participants get
it, then:

- the example of the README's and of the data page's format section shows an answer on every row it shows (no
  empty cell, no all-``O`` tags, no empty pair list);
- that example is valid under the family's own rules: the kit's sample submission with the example's rows put in
  place of its own passes the kit's ``validate.py``;
- it is no row of the gold (it is made up from the format, never read from the answers: ``organizer new`` hands
  the family's example no answer file; view-sentiment opinions come in turn and may agree with the gold by chance);
- the README names only tools the kit holds (``score_local.py`` and ``dev/`` only with a dev set);
- an emotion-cause kit that scores spans says how a cause's text becomes token positions, and its example lists
  the tokens of the utterance as the scorer splits it.
"""
import csv
import html
import io
import json
import re
import zipfile

import pytest
import yaml

from helpers import ROOT
from test_new_competition import commands, kit_tool, organizer, workspace  # noqa: F401  (workspace: a fixture)

SHIPPED = {"top": ROOT, "keywords": ROOT / "examples" / "keywords", "multilabel": ROOT / "examples" / "multilabel",
           "view_sentiment": ROOT / "examples" / "view_sentiment",
           "emotion_cause": ROOT / "examples" / "emotion_cause",
           "classification": ROOT / "examples" / "classification"}

# (family, language, dev set): the docs' command in its own language with its dev set, the other language
# without one; emotion cause also in English without a dev set; its two kits without one score one subtask each
MADE = [(family, lang, lang == own) for family, own in (("multilabel", "en"), ("keywords", "zh"),
                                                          ("bank_comments", "zh"), ("view_sentiment", "zh"),
                                                          ("emotion_cause", "en"), ("classification", "en"))
        for lang in ("en", "zh")]
MADE.append(("emotion_cause", "en", False))
VARIANTS = {("emotion_cause", "zh", False): ["--option", "subtasks='1'", "--option", "mode=clean"],
            ("emotion_cause", "en", False): ["--option", "subtasks='2'"]}


def _argv(family, lang, dev, out):
    argv = list(commands()[family])
    argv[6] = str(out)
    for flag in ("--language",) + (() if dev else ("--dev-gold", "--dev-inputs")):
        if flag in argv:
            at = argv.index(flag)
            del argv[at:at + 2]
    return argv + ["--language", lang, "--no-check"] + VARIANTS.get((family, lang, dev), [])


@pytest.fixture(scope="module")
def made(workspace, tmp_path_factory):  # noqa: F811
    """(family, lang, dev) -> a competition folder made by ``organizer new``."""
    base = tmp_path_factory.mktemp("made")
    out = {}
    for family, lang, dev in MADE:
        folder = base / ("%s_%s_%s" % (family, lang, "dev" if dev else "nodev"))
        proc = organizer(workspace, _argv(family, lang, dev, folder))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        out[(family, lang, dev)] = folder
    return out


class Kit:
    """A competition and its kit, unzipped from starting_kit.zip as participants get it."""

    def __init__(self, competition, into):
        from organizer.bundle import starting_kit_zip

        self.competition = competition
        with zipfile.ZipFile(io.BytesIO(starting_kit_zip(competition))) as archive:
            archive.extractall(into)
        self.path = into / "starting_kit"
        self.config = yaml.safe_load((self.path / "kit_config.yaml").read_text(encoding="utf-8"))
        self.family = self.config["task"]
        board = yaml.safe_load((competition / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
        self.lang = board.get("language", "en")
        self.options = dict(board.get("options") or {}, **(self.config.get("options") or {}))
        self.readme = (self.path / "README.md").read_text(encoding="utf-8")
        self.page = (competition / "pages" / "data.html").read_text(encoding="utf-8")

    def examples(self):
        """{where: the format example's text} of the README and of the data page."""
        readme = re.search(r"^```\n(.*?)\n```$", self.readme, re.S | re.M)
        page = re.search(r"<pre[^>]*>(.*?)</pre>", self.page, re.S)
        assert readme and page, "no format example in %s" % self.competition
        return {"README.md": readme.group(1), "data.html": html.unescape(page.group(1))}

    def readme_note(self):
        """The README's paragraph right after the example."""
        return self.readme.split("```", 2)[2].strip().split("\n\n")[0]


def kits(made, tmp_path):
    out = [(name, Kit(folder, tmp_path / name)) for name, folder in SHIPPED.items()]
    return out + [("_".join(map(str, key)), Kit(folder, tmp_path / "_".join(map(str, key))))
                  for key, folder in made.items()]


# -- the examples, read as each family reads a submission ------------------------------------------------------
def csv_rows(text):
    lines = list(csv.reader(io.StringIO(text)))
    return lines[0], [dict(zip(lines[0], row)) for row in lines[1:]]


def ecac_conversations(text):
    """The example's conversations: a JSON list whose tail is written ``...``."""
    return json.loads(re.sub(r",\s*\.\.\.\s*\]\s*$", "]", text.strip()))


ID = {"bank_comments": "id", "keywords": "id", "multilabel": "id", "view_sentiment": "SentenceId", "classification": "id"}


def answered(kit, example):
    """The rows of ``example`` that show no answer (empty cells, tags all O, no pair)."""
    if kit.family == "emotion_cause":
        return [c for c in ecac_conversations(example) if not c["emotion-cause_pairs"]
                or all(p[0].endswith("_neutral") for p in c["emotion-cause_pairs"])]
    _, rows = csv_rows(example)
    assert rows, example
    unanswered = [r for r in rows if any(not (v or "").strip() for v in r.values())]
    if kit.family == "bank_comments":
        unanswered += [r for r in rows if set(r["BIO_anno"].split()) <= {"O"}]
    return unanswered


def patched(kit, example, into):
    """The kit's sample submission with the example's answers in place of its own, written under ``into``."""
    if kit.family == "emotion_cause":
        shown = {str(c["conversation_ID"]): c["emotion-cause_pairs"] for c in ecac_conversations(example)}
        spans = all(len(p[1].split("_")) == 3 for pairs in shown.values() for p in pairs)
        sample = kit.path / "submission"
        into.mkdir()
        for path in sample.iterdir():
            data = json.loads(path.read_text(encoding="utf-8"))
            if path.name.startswith("Subtask_1" if spans else "Subtask_2"):
                for conv in data:
                    conv["emotion-cause_pairs"] = shown.get(str(conv["conversation_ID"]), conv["emotion-cause_pairs"])
            (into / path.name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return into
    header, rows = csv_rows(example)
    key = ID[kit.family]
    sample = _table((kit.path / "sample_submission.csv").read_text(encoding="utf-8-sig"))
    assert not sample or set(sample[0]) <= set(header), (header, sample[:1])  # the example may add optional columns
    shown = {r[key] for r in rows}
    kept = [r for r in sample if r[key] not in shown]
    into.mkdir()
    path = into / "submission.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, header, restval="")
        writer.writeheader()
        if kit.family == "multilabel" and "scores" in header:  # a sample without scores: rank as listed
            for r in kept:
                r.setdefault("scores", " ".join(str(-i) for i in range(len(r["labels"].split()))))
        writer.writerows(rows + kept)
    return path


def gold_rows(kit):
    """The gold answers the example must not be: a set of comparable rows."""
    ref = kit.competition / "reference_data"
    if kit.family == "emotion_cause":
        from scorer.tasks._ecac_io import clean_span, locate_span

        found = set()
        for name in ("Subtask_1_gold.json", "Subtask_2_gold.json"):
            if not (ref / name).exists():
                continue
            for conv in json.loads((ref / name).read_text(encoding="utf-8")):
                texts = {i + 1: u["text"] for i, u in enumerate(conv["conversation"])}
                for felt, cause in conv["emotion-cause_pairs"]:
                    utterance, _, span = cause.partition("_")
                    if span:
                        start, end = locate_span(clean_span(span), texts[int(utterance)])
                        cause = "%s_%d_%d" % (utterance, start, end)
                    found.add((str(conv["conversation_ID"]), felt, cause))
        return found
    return {_comparable(kit, r) for r in _table((ref / "gold.csv").read_text(encoding="utf-8-sig"))}


def _table(text):
    """The rows of a CSV text, comma or TAB separated, as dicts."""
    return list(csv.DictReader(io.StringIO(text), delimiter="\t" if "\t" in text.split("\n", 1)[0] else ","))


OPINION = {"正面": "pos", "中性": "neu", "负面": "neg"}


def _comparable(kit, row):
    if kit.family == "bank_comments":
        return row["id"], " ".join(row["BIO_anno"].split()), row["class"].strip()
    if kit.family == "keywords":
        sep = kit.options.get("keyword_separator", "_")
        return row["id"], frozenset(k.strip() for k in row["keywords"].split(sep) if k.strip())
    if kit.family == "multilabel":
        return row["id"], frozenset(row["labels"].split())
    if kit.family == "classification":   # a probability row's class is its first highest column
        if "label" in row:
            return row["id"], row["label"].strip()
        classes = [c for c in row if c != "id"]
        return row["id"], max(classes, key=lambda c: (float(row[c]), -classes.index(c)))
    return row["SentenceId"], row["View"], OPINION.get(row["Opinion"], row["Opinion"])


def shown_rows(kit, example):
    if kit.family == "emotion_cause":
        return {(str(c["conversation_ID"]), felt, cause) for c in ecac_conversations(example)
                for felt, cause in c["emotion-cause_pairs"]}
    return {_comparable(kit, r) for r in csv_rows(example)[1]}


# -- the tests ---------------------------------------------------------------------------------------------------
def test_every_kit_shows_an_answered_valid_example_that_is_no_gold_row(made, tmp_path):
    for name, kit in kits(made, tmp_path):
        checked = {}
        for where, example in kit.examples().items():
            assert not answered(kit, example), (name, where, example)
            if kit.family == "view_sentiment":   # opinions in turn, whatever the gold says: one may agree by chance
                shown = [OPINION.get(r["Opinion"], r["Opinion"]) for r in csv_rows(example)[1]]
                assert shown == ["pos", "neg", "neu"][:len(shown)], (name, where, example)
            else:
                assert not shown_rows(kit, example) & gold_rows(kit), (name, where, "a gold row", example)
            if example not in checked:
                submission = patched(kit, example, tmp_path / ("%s_%s" % (name, where)))
                checked[example] = kit_tool(kit.path, "validate.py", submission)
            run = checked[example]
            assert run.returncode == 0, (name, where, example, run.stdout + run.stderr)


SCORE_LOCAL = re.compile(r"score_local\.py")


def test_a_kit_readme_names_only_the_tools_the_kit_has(made, tmp_path):
    for name, kit in kits(made, tmp_path):
        has_dev = (kit.path / "dev").is_dir()
        for where, text in (("README.md", kit.readme), ("data.html", kit.page)):
            for tool in set(re.findall(r"[\w-]+\.py\b", text)):
                assert (kit.path / tool).is_file(), (name, where, tool)
            assert bool(re.search(r"`dev/", text)) == (has_dev and where == "README.md"), (name, where)
        assert (kit.path / "score_local.py").is_file() == has_dev, name
        assert bool(SCORE_LOCAL.search(kit.readme)) == has_dev, name


# how the emotion-cause texts state the rule: whitespace tokens, punctuation, first occurrence, [0, 0]
TOKEN_RULE = {"en": ("punctuation", "first", "[0, 0]"), "zh": ("标点", "第一个", "[0, 0]")}


def test_an_emotion_cause_kit_says_how_cause_text_becomes_token_positions(made, tmp_path):
    seen = set()
    for name, kit in kits(made, tmp_path):
        if kit.family != "emotion_cause":
            continue
        spans = kit.options.get("subtasks", "both") in ("1", "both")
        for where, text in (("README.md", kit.readme), ("data.html", kit.page)):
            stated = all(word in re.sub(r"<[^>]+>|\*\*", "", text) for word in TOKEN_RULE[kit.lang])
            assert stated == spans, (name, where, "the token-position rule")
        seen.add((kit.lang, spans))
        if not spans:
            continue
        # the example's note numbers the tokens of the cause utterance as the scorer splits it
        conversation = ecac_conversations(kit.examples()["README.md"])[0]
        felt, cause = conversation["emotion-cause_pairs"][0]
        utterance, start, end = map(int, cause.split("_"))
        inputs = json.loads((kit.path / "Subtask_1_test.json").read_text(encoding="utf-8"))
        text = next(c for c in inputs if str(c["conversation_ID"]) == str(conversation["conversation_ID"]))
        tokens = text["conversation"][utterance - 1]["text"].split()
        note = kit.readme_note()
        numbered = re.findall(r"(\d+) `([^`]*)`", note)
        assert len(numbered) >= end, (name, note)
        assert all(tokens[int(k)] == token for k, token in numbered), (name, note, tokens)
        assert "`%s`" % " ".join(tokens[start:end]) in note, (name, note)
    assert seen == {("en", True), ("zh", True), ("en", False)}


@pytest.mark.parametrize("family", sorted(ID) + ["emotion_cause"])
def test_the_example_is_made_without_the_answers(family, workspace, tmp_path, monkeypatch):  # noqa: F811
    """The example's rows are made up on public ids: ``organizer new`` hands the family no file of answers (even
    one read only to avoid the true answer would tell participants which answer a test item does not have)."""
    from organizer import new
    from organizer.start import start_of
    from scorer.tasks import families

    seen = []
    start = type(start_of(family))
    made_up = start.example

    def example(self, items, *rest):
        seen.append(set(items.reference))
        return made_up(self, items, *rest)

    monkeypatch.setattr(start, "example", example)
    monkeypatch.chdir(workspace)
    argv = _argv(family, "en", False, tmp_path / "made")
    new.main(argv[4:])
    answers = set(start_of(family).files(None).values()) & {
        name for slot, name in families()[family].reference_files.items() if slot in families()[family].unit_files}
    assert seen and answers and not seen[0] & answers, (seen, answers)
