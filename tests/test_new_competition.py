"""python3 -m organizer new: a competition of each family made from the real data, as docs/organizers.md says.

The conversion lines and the commands are read from the docs' section "Start a competition" and run as
written (from a folder laid out like the project root, with ../shared beside it). Each competition is then
linted, its sample submission scored on both boards and checked with its own starting kit, unzipped alone.
Each is made again with ``--feedback dev`` (the first phase scores the dev set, the final phase every test item,
sealed): no test answer in anything uploaded, the dev phase scoring as the kit's score_local.py.
"""
import csv
import io
import os
import re
import shlex
import subprocess
import sys
import zipfile

import pytest
import yaml

from bundle_shared import says_board_a_answers_only, board_a_answers_only, members
from helpers import ROOT, SHARED_DATA, read_scores, run_score, shared
from scorer.tasks.regression import LOWER_IS_BETTER

DOCS = ROOT / "docs" / "organizers.md"


def docs_section():
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## 1. Start a competition")
    return text[start:text.index("\n## ", start + 1)]


def conversions():
    """The docs' python blocks, in order."""
    return re.findall(r"```python\n(.*?)```", docs_section(), re.S)


def commands():
    """family -> the docs' ``python3 -m organizer new`` command line, as argv."""
    found = {}
    for line in docs_section().splitlines():
        if line.strip().startswith("python3 -m organizer new ") and "FAMILY" not in line:
            argv = shlex.split(line.strip())
            found[argv[4]] = argv
    return found


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A folder laid out like the project root (../shared beside it), with the docs' conversions run in it."""
    for data in sorted(set(re.findall(r"\.\./shared/data/([\w./-]+)", docs_section()))):
        shared(*data.split("/"))   # every data set the docs read: without one, the tests that need them skip
    base = tmp_path_factory.mktemp("organizer")
    (base / "shared").symlink_to(SHARED_DATA.parent, target_is_directory=True)
    project = base / "project"
    project.mkdir()
    for block in conversions():
        proc = subprocess.run([sys.executable, "-c", block], cwd=str(project), capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, block + proc.stderr
    return project


def organizer(project, argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable] + argv[1:], cwd=str(project), capture_output=True, text=True,
                          timeout=600, env=env)


def test_the_docs_give_a_command_for_each_family():
    assert sorted(commands()) == sorted(["bank_comments", "emotion_cause", "keywords", "multilabel",
                                         "view_sentiment", "classification", "regression", "qa", "generation"])
    assert len(conversions()) == 8


@pytest.mark.parametrize("family", ["multilabel", "keywords", "bank_comments", "view_sentiment", "emotion_cause",
                                    "classification", "regression", "qa", "generation"])
def test_new_builds_a_competition_that_checks_scores_and_validates(workspace, family, tmp_path):
    from organizer import check
    from organizer.bundle import starting_kit_zip
    from organizer.phase_data import assemble_input

    argv = commands()[family]
    out = tmp_path / "competition"
    argv = argv[:6] + [str(out)] + argv[7:]
    proc = organizer(workspace, argv)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert says_board_a_answers_only(proc.stdout), proc.stdout   # board A's answers are public on Codabench

    problems = check.check_path(out)
    assert not check.has_errors(problems), [str(p) for p in problems]
    # not a warning, but that board A's answers are public on Codabench
    assert board_a_answers_only(problems), [str(p) for p in problems]

    with zipfile.ZipFile(io.BytesIO(starting_kit_zip(out))) as archive:
        archive.extractall(tmp_path / "unzipped")
    assert [p.name for p in (tmp_path / "unzipped").iterdir()] == ["starting_kit"]
    kit = tmp_path / "unzipped" / "starting_kit"
    sample = next(p for p in (kit / "sample_submission.csv", kit / "submission") if p.exists())
    for board in ("A", "B"):
        inp = assemble_input(out / "reference_data", board, sample, tmp_path / board / "input")
        run = run_score(inp, tmp_path / board / "output")
        assert run.returncode == 0, run.stderr
        scores = read_scores(tmp_path / board / "output")
        if board == "B":  # sealed while its phase runs
            assert set(scores.values()) == {-1.0}
        elif family == "regression":   # errors are >= 0; R² and the correlations may be negative
            assert all(scores[k] >= 0 for k in LOWER_IS_BETTER if k in scores)
            assert scores["r2"] <= 1 and all(-1 <= scores[k] <= 1 for k in ("pearson", "spearman", "kendall"))
        else:
            assert all(0.0 <= v for v in scores.values())
    lang = "zh" if "--language" in argv and argv[argv.index("--language") + 1] == "zh" else "en"
    valid = kit_tool(kit, "validate.py", sample.name)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    # valid: nothing to say, or warned that the baseline will score badly (said once, on the first line)
    verdict = ("未发现问题", "合法（已对照") if lang == "zh" else ("no problems found", "valid (checked against")
    first = valid.stdout.splitlines()[0]
    assert first.startswith(sample.name) and any(v in first for v in verdict), valid.stdout
    dev = kit_tool(kit, "score_local.py", "dev/" + next(p.name for p in (kit / "dev").iterdir()
                                                          if p.name.startswith(("sample_prediction", "submission"))),
                   "--out", tmp_path / "dev_scores")
    assert dev.returncode == 0, dev.stdout + dev.stderr
    assert (tmp_path / "dev_scores" / "scores.txt").is_file()


@pytest.fixture(scope="module")
def dev_built(workspace):
    """family -> its competition made by the docs' command with --feedback dev (made once, on first use)."""
    def make(family):
        argv = commands()[family]
        out = workspace / (argv[6] + "_dev")
        if not (out / "competition.yaml").is_file():
            proc = organizer(workspace, argv[:6] + [str(out)] + argv[7:] + ["--feedback", "dev"])
            assert proc.returncode == 0, proc.stdout + proc.stderr
            assert "%s: 0 error(s), 0 warning(s)" % out in proc.stdout.splitlines(), proc.stdout
        return out
    return make


@pytest.mark.parametrize("family", ["multilabel", "keywords", "bank_comments", "view_sentiment", "emotion_cause",
                                    "classification", "regression", "qa", "generation"])
def test_new_with_dev_feedback_uploads_no_test_answer_and_scores_the_dev_set_as_the_kit(dev_built, family, tmp_path):
    from organizer import bundle, check
    from organizer.phase_data import assemble_input, phase_config
    from scorer.tasks import families

    out = dev_built(family)
    for fmt in ("v1", "v2"):   # not even a warning: no phase that shows scores holds a test answer
        problems = check.check_path(out, fmt)
        assert not problems, [str(p) for p in problems]
    # what Codabench would serve: the final phase's data holds no per-unit file, the dev phase's the kit's dev set
    root = members(bundle.build_v2(out))
    cfg = phase_config(out / "reference_data", "all")[1]
    answers = {cfg.files[slot] for slot in families()[family].unit_files}
    assert not answers & set(members(root["reference_data_all.zip"])), family
    kit_dev = {p.relative_to(out / "starting_kit" / "dev").as_posix(): p.read_bytes()
               for p in (out / "starting_kit" / "dev").rglob("*") if p.is_file()}
    for name, data in members(root["reference_data_dev.zip"]).items():
        assert name == "config.yaml" or kit_dev[name] == data, name
    # the dev phase scores the kit's dev sample as the kit's score_local.py does; the final phase gives placeholders
    with zipfile.ZipFile(io.BytesIO(root["starting_kit.zip"])) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / "starting_kit"
    dev_sample = next(p for p in (kit / "dev").iterdir() if p.name.startswith(("sample_prediction", "submission")))
    local = kit_tool(kit, "score_local.py", "dev/" + dev_sample.name, "--out", tmp_path / "local")
    assert local.returncode == 0, local.stdout + local.stderr
    inp = assemble_input(out / "reference_data", "dev", dev_sample, tmp_path / "dev" / "input")
    run = run_score(inp, tmp_path / "dev" / "output")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "dev" / "output" / "scores.json").read_bytes() == (tmp_path / "local" / "scores.json"
                                                                         ).read_bytes()
    sample = next(p for p in (kit / "sample_submission.csv", kit / "submission") if p.exists())
    inp = assemble_input(out / "reference_data", "all", sample, tmp_path / "all" / "input")
    run = run_score(inp, tmp_path / "all" / "output")
    assert run.returncode == 0, run.stderr
    assert set(read_scores(tmp_path / "all" / "output").values()) == {-1.0}


def kit_tool(kit, script, *args):
    # -E -s: no PYTHONPATH, no user site; cwd = the kit: only the engine inside the kit can be imported
    return subprocess.run([sys.executable, "-E", "-s", str(kit / script)] + [str(a) for a in args], cwd=str(kit),
                          capture_output=True, text=True, timeout=600)


# -- what participants get --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def built(workspace):
    """family -> its competition folder, made once by the docs' command."""
    folders = {}
    for family, argv in commands().items():
        out = workspace / argv[6]
        if not (out / "competition.yaml").is_file():
            proc = organizer(workspace, argv + ["--no-check"])
            assert proc.returncode == 0, proc.stderr
        folders[family] = out
    return folders


ANSWERS = {"bank_comments": {"BIO_anno", "class"}, "keywords": {"keywords"}, "multilabel": {"labels", "grades"},
           "generation": {"reference"},
           "view_sentiment": {"View", "Opinion"}, "classification": {"label"}, "regression": {"value"}}


def test_the_public_inputs_hold_no_answer(built):
    for family, columns in ANSWERS.items():
        with open(built[family] / "starting_kit" / "test_public.csv", encoding="utf-8", newline="") as fh:
            header = next(csv.reader(fh))
        assert not set(header) & columns, (family, header)
    text = (built["emotion_cause"] / "starting_kit" / "Subtask_1_test.json").read_text(encoding="utf-8")
    assert "emotion-cause_pairs" not in text and '"emotion"' not in text
    import json
    questions = json.loads((built["qa"] / "starting_kit" / "test_public.json").read_text(encoding="utf-8"))
    assert {key for q in questions for key in q} == {"id", "title", "context", "question"}


def test_the_sample_submission_is_made_without_the_answers(workspace, tmp_path, monkeypatch):
    """The same public inputs with other answers give the same sample, byte for byte."""
    from organizer.new import family_options, parse_arguments
    from organizer.start import start_of

    monkeypatch.chdir(workspace)  # the docs' paths are relative to the project root
    for family, argv in commands().items():
        args = parse_arguments(argv[4:])
        start = start_of(family)
        options = family_options(family, start.options(args), args.option)
        sample = start.baseline(start.read(args.gold, args), options, args)
        other = tmp_path / (family + "_other")
        _scramble_answers(family, workspace / args.gold, other)
        assert start.baseline(start.read(str(other), args), options, args) == sample, family


def _scramble_answers(family, gold, out):
    """A copy of ``gold`` whose answers are shifted by one row (the public columns stay)."""
    import json

    import pandas as pd

    if family == "emotion_cause":
        data = json.loads(gold.read_text(encoding="utf-8"))
        pairs = [c["emotion-cause_pairs"] for c in data]
        for conv, moved in zip(data, pairs[1:] + pairs[:1]):
            conv["emotion-cause_pairs"] = moved
            for utterance in conv["conversation"]:
                utterance["emotion"] = "joy"
        out.write_text(json.dumps(data), encoding="utf-8")
        return
    if family == "qa":   # each question gets the next one's gold answers
        data = json.loads(gold.read_text(encoding="utf-8"))
        qas = [qa for article in data["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
        answers = [qa["answers"] for qa in qas]
        for qa, moved in zip(qas, answers[1:] + answers[:1]):
            qa["answers"] = moved
        out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return
    sep = "\t" if gold.read_text(encoding="utf-8").split("\n", 1)[0].count("\t") else ","
    frame = pd.read_csv(gold, sep=sep, dtype=str, keep_default_na=False)
    for column in ANSWERS[family] & set(frame.columns):
        frame[column] = list(frame[column].iloc[1:]) + [frame[column].iloc[0]]
    if family == "bank_comments":  # tags must keep the length of their own text
        frame["BIO_anno"] = [" ".join(["B-BANK"] * len(t)) for t in frame["text"]]
    frame.to_csv(out, index=False)


# names, not English: the kit's own name, programs, formats and measures
ALLOWED_LATIN = {"starting", "kit", "Python", "Cohen", "kappa", "zip", "conlleval", "id", "token", "tp", "fp", "fn",
                 "chrF", "Lsum"}


def test_a_chinese_competition_speaks_chinese_to_participants(built, dev_built):
    """Pages, README and column labels of the zh competitions, with either feedback phase: no English beyond names
    and code."""
    for folder in [f(family) for family in ("keywords", "bank_comments", "view_sentiment", "qa", "generation")
                   for f in (built.get, dev_built)]:
        texts = [p.read_text(encoding="utf-8") for p in sorted((folder / "pages").iterdir())]
        texts.append((folder / "starting_kit" / "README.md").read_text(encoding="utf-8"))

        comp = yaml.safe_load((folder / "competition.yaml").read_text(encoding="utf-8"))
        texts += [c["label"] for c in comp["leaderboard"]["columns"].values()]
        texts += [p["label"] + p["description"] for p in comp["phases"].values()] + [comp["description"]]
        for text in texts:
            prose = re.sub(r"```.*?```|<pre[^>]*>.*?</pre>|`[^`]*`|<code>.*?</code>|<[^>]+>", "", text, flags=re.S)
            prose = re.sub(r"^    .*$", "", prose, flags=re.M)  # indented command lines
            words = set(re.findall(r"[A-Za-z]*[a-z]{2,}[A-Za-z]*", prose)) - ALLOWED_LATIN  # F1, PR: symbols
            assert not words, (folder.name, sorted(words))


# -- the command's own rules, on a small hand-made gold ------------------------------------------------------
def tiny_multilabel(folder, prefix="t", n=30):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "labels.txt").write_text("joy\nanger\nfear\n", encoding="utf-8")
    rows = ["%s%02d,%s,%s" % (prefix, i, "a joyful day" if i % 2 else "so much anger", "joy" if i % 2 else
                              "anger fear") for i in range(n)]
    gold = folder / ("%s.csv" % prefix)
    gold.write_text("id,text,labels\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return gold


def new(*argv):
    from organizer.new import main

    return main([str(a) for a in argv])


def refused(capsys, *argv):
    """The one line ``python3 -m organizer new`` ends with (exit code 2), in process."""
    from organizer.__main__ import run

    capsys.readouterr()
    code = run("new", [str(a) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("organizer new: "), (code, err)
    return err


def test_new_refuses_a_folder_that_is_not_empty_and_a_dev_set_sharing_test_ids(tmp_path, capsys):
    gold = tiny_multilabel(tmp_path / "data")
    labels = tmp_path / "data" / "labels.txt"
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine", encoding="utf-8")
    assert "is not empty" in refused(capsys, "multilabel", gold, tmp_path / "busy", "--title", "T", "--labels", labels)
    assert (tmp_path / "busy" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert "share 30 id" in refused(capsys, "multilabel", gold, tmp_path / "c", "--title", "T", "--labels", labels,
                                    "--dev-gold", gold)
    assert "needs --labels" in refused(capsys, "multilabel", gold, tmp_path / "c", "--title", "T")
    assert "options.k" in refused(capsys, "multilabel", gold, tmp_path / "c", "--title", "T", "--labels", labels,
                                  "--option", "k=0")
    assert not (tmp_path / "c").exists()


def test_new_warns_of_declared_labels_no_gold_sample_has(tmp_path, capsys):
    gold = tiny_multilabel(tmp_path / "data")
    labels = tmp_path / "data" / "labels.txt"
    labels.write_text("joy\nanger\nfear\nsurprise\nlove\n", encoding="utf-8")   # the gold has joy, anger, fear
    capsys.readouterr()
    assert new("multilabel", gold, tmp_path / "c", "--title", "T", "--labels", labels) == 0
    out = capsys.readouterr().out
    assert "warning: reference_data/gold.csv: 2 class(es) of the label list have no gold sample: surprise, love." \
        in out.splitlines(), out
    labels.write_text("joy\nanger\nfear\n", encoding="utf-8")
    assert new("multilabel", gold, tmp_path / "d", "--title", "T", "--labels", labels) == 0
    assert "warning:" not in capsys.readouterr().out


def test_new_a_gold_that_does_not_load_leaves_nothing_behind(tmp_path, capsys):
    gold = tiny_multilabel(tmp_path / "data")
    gold.write_text(gold.read_text(encoding="utf-8").replace("anger fear", "anger sorrow"), encoding="utf-8")
    err = refused(capsys, "multilabel", gold, tmp_path / "c", "--title", "T", "--labels", tmp_path / "data" / "labels.txt")
    assert "the gold %s does not load" % gold in err and "'sorrow' is not in labels.txt" in err
    assert not (tmp_path / "c").exists() and not list(tmp_path.glob(".c-*"))


def test_new_options_reach_the_configs_the_columns_and_the_texts(tmp_path):
    import yaml

    gold = tiny_multilabel(tmp_path / "data")
    dev = tiny_multilabel(tmp_path / "data", prefix="d", n=10)
    out = tmp_path / "c"
    assert new("multilabel", gold, out, "--title", "情绪", "--language", "zh", "--labels",
               tmp_path / "data" / "labels.txt", "--dev-gold", dev, "--option", "set_threshold=0.5",
               "--option", "k=[1, 2]", "--start", "2026-05-04", "--ratio-a", "0.5") == 0
    for config in ("reference_data/board_A.yaml", "reference_data/board_B.yaml", "starting_kit/dev/config.yaml"):
        raw = yaml.safe_load((out / config).read_text(encoding="utf-8"))
        assert raw["options"]["set_threshold"] == 0.5 and raw["options"]["k"] == [1, 2] and raw["language"] == "zh"
    assert yaml.safe_load((out / "reference_data/board_B.yaml").read_text(encoding="utf-8"))["report"] == "sealed"
    comp = yaml.safe_load((out / "competition.yaml").read_text(encoding="utf-8"))
    columns = comp["leaderboard"]["columns"]
    assert [k for k in columns][:1] == ["micro_f1"] and "map_at_1" in columns and "ndcg_at_2" in columns
    assert columns["map_at_2"]["label"] == "MAP@2" and columns["micro_f1"]["label"] == "微平均 F1（合并计数）"
    assert columns["coverage_error"]["sort"] == "asc" and columns["micro_f1"]["sort"] == "desc"
    assert str(comp["phases"][1]["start_date"]) == "2026-05-04" and str(comp["phases"][2]["start_date"]) == "2026-06-29"
    assert "50%" in comp["phases"][1]["description"]
    evaluation = (out / "pages" / "evaluation.html").read_text(encoding="utf-8")
    assert "你列出的分数 ≥ 0.5 的标签" in evaluation and "k = 1, 2" in evaluation
    readme = (out / "starting_kit" / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# 入门工具包：情绪\n") and "必需：预测集合取决于它" in readme
    boards = (out / "reference_data" / "boards.csv").read_text(encoding="utf-8").splitlines()
    assert boards[0] == "id,board" and sum(l.endswith(",A") for l in boards) == 15


def test_the_examples_in_the_organizer_docstrings():
    import doctest

    from organizer import bundle, evalai
    from organizer.start import render

    for module in (render, bundle, evalai):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_new_names_each_column_as_the_page_names_its_score(built):
    """A leaderboard column's label is the one the page gives its key (TaskFamily.key_labels) in the
    competition's language, but for the few the templates say more of (the weights, the main key)."""
    from scorer.tasks import families

    said_more = {"score", "weighted_strict_f1", "macro_f1"}
    for family, folder in built.items():
        comp = yaml.safe_load((folder / "competition.yaml").read_text(encoding="utf-8"))
        board = yaml.safe_load((folder / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
        lang = board["language"]
        columns = comp["leaderboard"]["columns"]
        # every key a column (CMRC 2018's rules have three: F1, EM and their average)
        assert len(columns) >= min(6, len(families()[family].leaderboard_keys(board.get("options") or {})))
        for key, column in columns.items():
            assert column["label"] != key, (family, key)
            if key not in said_more:
                assert column["label"] == families()[family].key_label(key).text(lang), (family, key, column["label"])
