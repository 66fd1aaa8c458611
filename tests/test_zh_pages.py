"""A `language: zh` competition shows participants no English: every page, every score line, every error.

Each shipped competition is copied with `language: zh` in its board configs, and its sample submission is
scored on board A, on sealed board B and on revealed board B, plus a broken copy of it. What a participant
can see (the page's visible text, stdout, stderr) may keep only: the few words the data itself puts there
(the labels the gold gives: entity types, classes, opinions, emotions; the column names of the starting
kit's tables; what the submission holds), the config's keys and values, hex digests, tag and acronym-like
codes (B-BANK, F1, ML-GCN), and a short list of technical terms that Chinese writing keeps as they are.
The competition's own pages, its kit's README and the re-scored leaderboard the organizer publishes
(`organizer rescore`) are read the same way.
"""
import csv
import html.parser
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, run_score

from organizer.phase_data import assemble_input

COMPETITIONS = [ROOT] + sorted(p for p in (ROOT / "examples").iterdir() if (p / "reference_data").is_dir())

# Names kept in Latin letters in Chinese technical writing (each one a name, not a sentence's word).
TERMS = {"bootstrap", "kappa", "Cohen's", "Cohen", "conlleval", "conlleval-style", "nervaluate", "seqeval",
         "scikit-learn", "scikit-learn's", "nDCG", "Ladder", "id", "SemEval", "ECAC", "micro", "macro",
         "tp", "fp", "fn", "fn1", "fn2",  # the symbols of the view-sentiment source formula
         "iob2",  # a tagging scheme's name
         "chrF", "chrF2", "ROUGE-Lsum", "sacreBLEU", "rouge-score", "SQuAD"}  # measures and programs of text
ACRONYM = re.compile(r"^[A-Z0-9][A-Z0-9\-]{0,7}$|^[BIOES]-")  # F1, IOB2, ML-GCN, C-F, B-BANK, I-...
HEX = re.compile(r"^[0-9a-f]+$")
WORD = re.compile(r"(?<![0-9A-Za-z_])[A-Za-z][A-Za-z0-9_'\-]*")  # not the e-8 of 1e-8


class _Visible(html.parser.HTMLParser):
    """The text a reader sees: text nodes (not style, not the `<code>` of score keys) and labels for screen readers."""

    def __init__(self):
        super().__init__()
        self.skip, self.parts, self.joined = 0, [], False

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "code")
        self.parts += [v for k, v in attrs if k in ("aria-label", "title", "alt") and v]
        self.joined = tag == "wbr"   # a line may break there, but the word goes on

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "code")
        self.joined = False

    def handle_data(self, data):
        if not self.skip:
            if self.joined and self.parts:
                self.parts[-1] += data
            else:
                self.parts.append(data)
        self.joined = False


def visible_text(page):
    parser = _Visible()
    parser.feed(page)
    return "\n".join(parser.parts)


def page_words(competition):
    """The data's own words a page may show: the labels the gold gives (entity types, classes, opinions,
    emotions) and the column names of the starting kit's tables. A few dozen words, never the data's prose:
    an English word of the program's (a header, a sentence) is caught even where the data uses it too."""
    ref, kit = Path(competition) / "reference_data", Path(competition) / "starting_kit"
    found = set()
    for table in sorted(kit.rglob("*.csv")):
        with open(table, encoding="utf-8-sig") as fh:
            found.update(WORD.findall(fh.readline()))
    task = yaml.safe_load((ref / "board_A.yaml").read_text(encoding="utf-8"))["task"]
    if task == "bank_comments":
        with open(ref / "gold.csv", encoding="utf-8", newline="") as fh:
            tags = {t for row in csv.DictReader(fh) for t in row["BIO_anno"].split()}
        found.update(t[2:] for t in tags if t[:2] in ("B-", "I-"))
    elif task in ("multilabel", "classification"):
        found.update((ref / "labels.txt").read_text(encoding="utf-8").split())
    elif task == "view_sentiment":
        with open(ref / "gold.csv", encoding="utf-8", newline="") as fh:
            found.update(row["Opinion"] for row in csv.DictReader(fh, delimiter="\t"))
    elif task == "emotion_cause":
        for gold in ref.glob("Subtask_*_gold.json"):
            for conversation in json.loads(gold.read_text(encoding="utf-8")):
                found.update(u["emotion"] for u in conversation["conversation"])
    return found


def public_ids(competition):
    """The test items' ids of the kit's test_public.csv (public): a message names the ones a file lacks."""
    path = Path(competition) / "starting_kit" / "test_public.csv"
    if not path.is_file():
        return set()
    with open(path, encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        column = header.index("id") if "id" in header else 0
        return {w for row in reader if row for w in WORD.findall(row[column])}


def config_words(folder):
    """Keys and values of the board configs (score keys), not their comments, nor the names of their file
    slots (gold, sentences: words no page needs), nor the families' options: an option's value (``either``,
    ``casefold``) is the organizer's English, which the page must say in the page's language."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in ("files", "options"):
                    walk(key)
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            found.update(WORD.findall(node))

    for config in Path(folder).glob("board_*.yaml"):
        walk(yaml.safe_load(config.read_text(encoding="utf-8")))
    return found


def score_keys(output):
    scores = Path(output) / "output" / "scores.txt"
    return {line.split(":")[0].strip() for line in scores.read_text(encoding="utf-8").splitlines()} \
        if scores.exists() else set()


def english(text, allowed):
    text = re.sub(r"\S*/\S*", " ", text)  # paths (the run's own folders) are not prose
    text = re.sub(r"\S+:\S+(?:\|\S+:\S+)+", " ", text)  # nor a signature (sacreBLEU's nrefs:1|case:mixed|...)
    text = re.sub(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", " ", text)  # nor dotted names: json.dump, options.scheme
    return sorted({w for w in (w.strip("'") for w in WORD.findall(text))
                   if w not in allowed and w not in TERMS and not ACRONYM.match(w) and not HEX.match(w)})


def zh_copy(competition, dest):
    shutil.copytree(competition / "reference_data", dest / "reference_data")
    shutil.copytree(competition / "starting_kit", dest / "starting_kit")   # its public inputs go to every phase
    for config in (dest / "reference_data").glob("board_*.yaml"):
        raw = yaml.safe_load(config.read_text(encoding="utf-8"))
        if raw.get("language") != "zh":  # an English competition's own title and labels are the organizer's English
            raw.pop("title", None)
            raw.pop("columns", None)
            raw["language"] = "zh"
            config.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return dest


def sample_of(competition):
    kit = competition / "starting_kit"
    for name in ("sample_submission.csv", "submission"):
        if (kit / name).exists():
            return kit / name
    raise AssertionError("no sample submission in %s" % kit)


def broken_copy(sample, dest):
    """The sample with its first data line's cells shuffled out of shape (one extra cell)."""
    if sample.is_dir():
        dest.mkdir()
        for path in sorted(sample.iterdir()):
            if path.suffix == ".csv":   # a table in the sample folder: broken as a table
                broken_copy(path, dest / path.name)
            else:
                (dest / path.name).write_text("{not json", encoding="utf-8")
        return dest
    lines = sample.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1] + ",extra,extra"
    dest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dest


def score(competition, board, submission, out, reveal=False):
    """score.py run as a platform runs it (not the organizer's run, which adds notes for the organizer)."""
    inp = assemble_input(competition / "reference_data", board, submission, out / "input", reveal)
    proc = run_score(inp, out / "output")
    page = out / "output" / "detailed_results.html"
    seen = proc.stdout + "\n" + proc.stderr
    if page.exists():
        seen += "\n" + visible_text(page.read_text(encoding="utf-8"))
    return proc, seen


@pytest.mark.parametrize("competition", COMPETITIONS, ids=lambda p: p.name if p != ROOT else "bank_comments")
def test_a_zh_competition_shows_no_english(competition, tmp_path):
    comp = zh_copy(competition, tmp_path / "comp")
    sample = sample_of(competition)
    # the public ids too: the page's warnings about the file name the test ids it lacks (validate.py's)
    allowed = page_words(competition) | config_words(comp / "reference_data") | public_ids(competition)
    runs = {"A": ("A", sample, False), "B sealed": ("B", sample, False), "B revealed": ("B", sample, True),
            "error": ("A", broken_copy(sample, tmp_path / ("broken" + sample.suffix)), False)}
    leaks = {}
    for name, (board, submission, reveal) in runs.items():
        proc, seen = score(comp, board, submission, tmp_path / name.replace(" ", "_"), reveal)
        assert proc.returncode == (1 if name == "error" else 0), proc.stderr
        out = tmp_path / name.replace(" ", "_")
        names = [Path(submission)] + (sorted(Path(submission).iterdir()) if Path(submission).is_dir() else [])
        found = english(seen, allowed | {w for p in names for w in WORD.findall(p.name)} | score_keys(out))
        if found:
            leaks[name] = found
    assert not leaks, "English on a zh competition's participant-visible output: %s" % leaks


def _zh_case_line(tmp_path, case):
    from test_hostile_uploads import build_input

    inp = build_input(tmp_path, case)
    config = yaml.safe_load((inp / "ref" / "config.yaml").read_text(encoding="utf-8"))
    if isinstance(config, dict):
        config["language"] = "zh"
        (inp / "ref" / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return run_score(inp, tmp_path / "output")


# Names of code a message tells to use or that a tool writes: pandas' index=False, its "Unnamed: 0" column, its
# read_csv(..., sep=';', decimal=',') and to_csv, JSON's types and keys; the names of programs and formats.
CODE = {"index", "False", "Unnamed", "int", "str", "list", "dict", "true", "false", "null", "float",
        "zip", "deflate", "Excel", "Unicode", "pandas", "read_csv", "to_csv", "sep", "decimal", "LibreOffice", "xlsx"}
CAMEL = re.compile(r"^[A-Z][a-z]+([A-Z][a-z]*)+$")  # names of exceptions and columns: BadZipFile, SentenceId


def _unquoted(line):
    """The line without what it quotes from the upload: values in quotes, file names, paths."""
    line = re.sub(r"'[^']*'|\"[^\"]*\"|“[^”]*”", " ", line)
    return re.sub(r"\S+\.(csv|txt|json|zip|tsv|xlsx)\S*", " ", line)


def _upload_cases():
    from hostile_corpus import all_cases
    return [c for c in all_cases() if c.code == 1]


@pytest.mark.parametrize("case", _upload_cases(), ids=lambda c: c.id)
def test_a_zh_competition_names_every_upload_problem_in_chinese(tmp_path, case):
    from hostile_corpus import DEMO

    proc = _zh_case_line(tmp_path, case)
    assert proc.returncode == 1, proc.stderr
    demo = DEMO[case.family]
    allowed = page_words(demo) | config_words(demo / "reference_data") | public_ids(demo)
    uploaded = set()
    for path in (tmp_path / "input" / "res").rglob("*"):
        uploaded.update(WORD.findall(path.name))
        if path.is_file() and not path.is_symlink() and path.stat().st_size < 1 << 24:
            uploaded.update(WORD.findall(path.read_bytes().decode("utf-8", "replace")))
    left = [w for w in english(_unquoted(proc.stderr), allowed | CODE | uploaded)
            if not CAMEL.match(w) and not any(u.startswith(w) for u in uploaded)]  # a value cut short
    assert left == [], proc.stderr


# -- the competition's own pages and its kit -------------------------------------------------------------------------
def readme_prose(text):
    """A README's text as a reader reads it, less its code: fenced and indented blocks, `code` spans."""
    text = re.sub(r"^```.*?^```", " ", text, flags=re.S | re.M)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    return re.sub(r"`[^`]*`", " ", text)


def _made_zh(tmp_path, family, options):
    """A Chinese competition made by ``organizer new`` from a demo's gold and public inputs, with ``options``."""
    import pandas as pd

    from helpers import organizer

    demo = ROOT / "examples" / family
    gold = pd.read_csv(demo / "reference_data" / "gold.csv", dtype=str, keep_default_na=False)
    public = pd.read_csv(demo / "starting_kit" / "test_public.csv", dtype=str, keep_default_na=False)
    path = tmp_path / "gold.csv"
    public.merge(gold, on="id").to_csv(path, index=False)
    argv = ["new", family, path, tmp_path / "comp", "--title", "中文竞赛", "--language", "zh", "--no-check"]
    if family == "classification":
        argv += ["--labels", demo / "reference_data" / "labels.txt"]
    for option in options:
        argv += ["--option", option]
    proc = organizer(*argv)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tmp_path / "comp"


# the symbols of the metrics' formulas (log(1 + p), Cohen's Po and Pe)
FORMULA = {"log", "Po", "Pe"}
ZH_MADE = {"classification-probabilities": ("classification", ["submission=probabilities", "top_k=3",
                                                                "ordinal_order=[terrible,poor,okay,good,excellent]"]),
           "classification-rescaled": ("classification", ["submission=probabilities", "probability_rows=rescale"]),
           "classification-labels": ("classification", []),
           "classification-linear": ("classification", ["ordinal_order=[terrible,poor,okay,good,excellent]",
                                                         "ordinal_weights=linear"]),
           "regression-rmsle": ("regression", ["rmsle=true"]), "regression": ("regression", [])}


@pytest.mark.parametrize("case", sorted(ZH_MADE) + ["bank_comments", "view_sentiment"])
def test_a_zh_competitions_pages_and_kit_hold_no_english(tmp_path, case):
    """The pages a Chinese competition shows (pages/*.html, as `organizer new` writes them or as the Chinese demos
    ship them) and its kit's README.md: no English word outside names, keys, code and the data's own words
    (the kit used to say "starting kit" in English)."""
    if case in ZH_MADE:
        family, options = ZH_MADE[case]
        comp = _made_zh(tmp_path, family, options)
    else:
        comp = ROOT if case == "bank_comments" else ROOT / "examples" / case
    allowed = page_words(comp) | config_words(comp / "reference_data") | FORMULA | {"Python", "Kaggle", "softmax", "zip"}
    allowed |= {line.split(":")[0].strip() for line in (comp / "competition.yaml").read_text(
        encoding="utf-8").splitlines() if line.startswith("    ") and line.strip().endswith(":")}   # score keys
    leaks = {}
    for page in sorted((comp / "pages").glob("*.html")):
        # a format example (<pre>) shows a file, not prose
        text = re.sub(r"<pre[^>]*>.*?</pre>", " ", page.read_text(encoding="utf-8"), flags=re.S)
        found = [w for w in english(visible_text(text), allowed) if len(w) > 1]   # one letter: a formula's symbol
        if found:
            leaks[page.name] = found
    found = [w for w in english(readme_prose((comp / "starting_kit" / "README.md").read_text(encoding="utf-8")),
                                allowed) if len(w) > 1]
    if found:
        leaks["README.md"] = found
    assert not leaks, leaks


# -- the re-scored leaderboard the organizer publishes ----------------------------------------------------------------
def _changed(sample):
    """The bank sample with every fourth comment's class moved to the next class: a second, different submission."""
    lines = sample.read_text(encoding="utf-8").splitlines()
    out = [lines[0]]
    for k, line in enumerate(lines[1:]):
        head, cls = line.rsplit(",", 1)
        out.append("%s,%s" % (head, (int(cls) + 1) % 3 if k % 4 == 0 else cls))
    return "\n".join(out) + "\n"


RESCORED = {"A": ["--tiers-top", "1"], "B": []}   # on A, the tiers of the first only: the page says so too


@pytest.mark.parametrize("board", sorted(RESCORED))
def test_a_zh_competitions_rescored_leaderboard_holds_no_english(tmp_path, board):
    """`organizer rescore` of the shipped (Chinese) competition: its leaderboard.html with every section (the
    ranking and its tiers' method, the boards side by side, a group of identical submissions, a failed one, every
    score) shows no English outside team names, score keys, the data's words and the option it names."""
    import zipfile

    from helpers import organizer

    sample = sample_of(ROOT)
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "team_a.csv").write_bytes(sample.read_bytes())
    (subs / "team_b.csv").write_text(_changed(sample), encoding="utf-8")
    with zipfile.ZipFile(subs / "team_c.zip", "w") as zf:   # team_a's answers, zipped: identical
        zf.write(sample, "answer.csv")
    broken_copy(sample, subs / "team_d.csv")
    out = tmp_path / "out"
    proc = organizer("rescore", ROOT, board, subs, out, "-j", "2", "--permutations", "200", *RESCORED[board])
    assert proc.returncode == 0, proc.stderr
    page = (out / "leaderboard.html").read_text(encoding="utf-8")
    sections = re.split(r'<h2 id="s\d+">', page)[1:]
    # ranking, side by side, similar (a table of them, not the note that there is none), failed, every score
    assert len(sections) == 5 and "<table>" in sections[2] and "team_d" in visible_text(sections[3]), page
    if RESCORED[board]:
        assert "--tiers-top" in visible_text(sections[0])
    allowed = page_words(ROOT) | config_words(ROOT / "reference_data") | public_ids(ROOT)
    allowed |= {line.split(":")[0].strip() for line in (ROOT / "competition.yaml").read_text(
        encoding="utf-8").splitlines() if line.startswith("    ") and line.strip().endswith(":")}   # score keys
    allowed |= {"team_a", "team_b", "team_c", "team_d", "p"}   # the teams; p, the symbol of p-values
    text = re.sub(r"--[a-z][a-z-]*", " ", visible_text(page))   # a command line option: code
    assert english(text, allowed) == [], text
