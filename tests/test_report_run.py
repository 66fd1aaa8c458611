"""What a run adds around the scores: the config keys of the page, intervals in the scores files on request,
provenance, the sealed page, the page's messages in both languages, and the linter's rules for them."""
import hashlib
import html
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, as_platform, in_english, read_scores_json, run_score, write_files
from organizer import bundle
from organizer import check as check_bundle
from organizer.phase_data import assemble_reference
from scorer.publish import provenance
from scorer.config import parse_config
from scorer.errors import ConfigError
from scorer.problems import MESSAGES
from scorer.tasks import families

SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"


def phase(tmp_path, board="A", edit=None, name="in", reveal=False):
    """INPUT for the bank demo's board, its config changed by ``edit(raw)``."""
    base = Path(tmp_path) / name
    ref = in_english(assemble_reference(ROOT / "reference_data", board, base / "ref", reveal))
    if edit:
        raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
        edit(raw)
        (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    write_files(base / "res", {"s.csv": SAMPLE.read_bytes()})
    return base


def bank_config(**extra):
    raw = yaml.safe_load((ROOT / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    raw.update(dict(dict(language="en"), **extra))
    return raw


# -- config keys ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("extra,key,fragment", [
    ({"title": ""}, "title", "a non-empty string"),
    ({"title": ["x"]}, "title", "a non-empty string"),
    ({"columns": ["score"]}, "columns", "must be a mapping"),
    ({"columns": {"nope": "x"}}, "columns", "score, ner_f1"),
    ({"columns": {"score": 3}}, "columns.score", "a non-empty string"),
    ({"columns": {"score_ci_low": "low"}}, "columns", "score, ner_f1"),    # not written unless asked
    ({"intervals": {"resamples": -1}}, "intervals.resamples", "an integer in [0, 100000]"),
    ({"intervals": {"resamples": 10.5}}, "intervals.resamples", "an integer"),
    ({"intervals": {"level": 0.3}}, "intervals.level", "a number in [0.5, 0.999]"),
    ({"intervals": {"level": "95%"}}, "intervals.level", "a number"),
    ({"intervals": {"seed": -3}}, "intervals.seed", "an integer"),
    ({"intervals": {"in_scores": "yes"}}, "intervals.in_scores", "true, false"),
    ({"intervals": {"samples": 10}}, "intervals.samples", "resamples, level, seed, in_scores"),
    ({"feedback": {"ladder": "steps"}}, "feedback.ladder", "none, fixed, parameter_free"),
    ({"feedback": {"ladder_step": 0}}, "feedback.ladder_step", "a number in (0, 0.5]"),
    ({"feedback": {"round_to": 2.5}}, "feedback.round_to", "null or an integer in [0, 10]"),
    ({"feedback": {"class_counts": 0}}, "feedback.class_counts", "true, false"),
    ({"feedback": {"hide": True}}, "feedback.hide", "ladder, ladder_step, round_to, class_counts"),
])
def test_new_config_keys_are_checked(extra, key, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(bank_config(**extra), families())
    assert key in info.value.message and fragment in info.value.message, info.value.message
    assert info.value.exit_code == 2


def test_a_bad_key_stops_the_run_with_exit_2(tmp_path):
    proc = run_score(phase(tmp_path, edit=lambda raw: raw.update(intervals={"level": 2})), tmp_path / "out")
    assert proc.returncode == 2 and "intervals.level" in proc.stderr and "[0.5, 0.999]" in proc.stderr


def test_defaults():
    cfg = parse_config(bank_config(), families())
    assert (cfg.title, cfg.columns) == (None, {})
    assert (cfg.intervals.resamples, cfg.intervals.level, cfg.intervals.in_scores) == (1000, 0.95, False)
    assert not cfg.feedback.active and cfg.feedback.ladder == "none"


# -- intervals in the scores files ---------------------------------------------------------------------
def interval_on_page(out):
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    return tuple(map(float, re.search(r"\[(\d\.\d{4}), (\d\.\d{4})\]", page).groups()))


def test_interval_keys_only_on_request(tmp_path):
    plain = run_score(phase(tmp_path), tmp_path / "plain")
    assert plain.returncode == 0
    assert not any(k.endswith(("_ci_low", "_ci_high")) for k in read_scores_json(tmp_path / "plain"))
    asked = run_score(phase(tmp_path, edit=lambda raw: raw.update(intervals={"in_scores": True}), name="in2"),
                      tmp_path / "asked")
    assert asked.returncode == 0
    scores = read_scores_json(tmp_path / "asked")
    assert list(scores)[-2:] == ["score_ci_low", "score_ci_high"]
    assert scores["score_ci_low"] < scores["score"] < scores["score_ci_high"]
    assert (round(scores["score_ci_low"], 4), round(scores["score_ci_high"], 4)) == interval_on_page(tmp_path / "asked")
    txt = (tmp_path / "asked" / "scores.txt").read_text(encoding="utf-8")
    assert "score_ci_low: " in txt and "score_ci_high: " in txt   # CodaLab v1 reads scores.txt only
    # the same interval as the page without the keys: the keys add nothing but the numbers
    assert interval_on_page(tmp_path / "plain") == interval_on_page(tmp_path / "asked")


def test_level_and_resamples_change_the_interval(tmp_path):
    runs = {"a": None, "b": {"level": 0.8}, "c": {"resamples": 0}}
    for name, intervals in runs.items():
        edit = (lambda raw, given=intervals: raw.update(intervals=given)) if intervals else None
        proc = run_score(phase(tmp_path, edit=edit, name=name), tmp_path / name)
        assert proc.returncode == 0, (name, proc.stderr)
    wide, narrow = interval_on_page(tmp_path / "a"), interval_on_page(tmp_path / "b")
    assert narrow[0] > wide[0] and narrow[1] < wide[1]
    page = (tmp_path / "b" / "detailed_results.html").read_text(encoding="utf-8")
    assert "80% interval" in page and "80% percentile bootstrap" in page
    # without resamples: the same scores, no interval anywhere
    assert read_scores_json(tmp_path / "c") == read_scores_json(tmp_path / "a")
    page = (tmp_path / "c" / "detailed_results.html").read_text(encoding="utf-8")
    assert "interval" not in page and "<code>score</code>" in page


# -- provenance ----------------------------------------------------------------------------------------
def sha256(data):
    return hashlib.sha256(data).hexdigest()


def test_provenance_for_the_organizer_and_a_fingerprint_for_everyone(tmp_path):
    inp = as_platform(phase(tmp_path), "codalab_v1")
    assert run_score(inp, tmp_path / "out").returncode == 0
    record = json.loads((tmp_path / "out" / "private" / "provenance.json").read_text(encoding="utf-8"))
    ref = inp / "ref"
    assert record["reference_sha256"] == {p.relative_to(ref).as_posix(): sha256(p.read_bytes())
                                          for p in sorted(ref.rglob("*")) if p.is_file()}
    assert record["config_sha256"] == sha256((ref / "config.yaml").read_bytes())
    # the program's digest: every file of the bundle's program zip by name and content
    with zipfile.ZipFile(__import__("io").BytesIO(bundle.program_zip(ROOT))) as archive:
        files = sorted(n for n in archive.namelist() if not n.endswith("/"))
        expected = hashlib.sha256(b"".join(n.encode() + b"\0" + sha256(archive.read(n)).encode() + b"\n"
                                           for n in files)).hexdigest()
    assert record["program_sha256"] == expected
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    footer = page.split("<footer>", 1)[1]
    assert expected[:12] in footer and record["config_sha256"][:12] in footer
    for name, digest in record["reference_sha256"].items():
        assert name == "config.yaml" or digest[:12] not in page   # nothing of the gold
    # where the platform does not hide private/ (a local run, Codabench), nothing is written there
    assert run_score(phase(tmp_path, name="local"), tmp_path / "local").returncode == 0
    assert not (tmp_path / "local" / "private").exists()


def test_the_program_digest_is_the_same_from_a_copy(tmp_path):
    copy = tmp_path / "program"
    shutil.copytree(ROOT / "scoring_program", copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (copy / "scorer" / "__pycache__").mkdir()
    (copy / "scorer" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    assert provenance.program_digest(str(copy)) == provenance.program_digest()
    (copy / "scorer" / "report" / "charts.py").write_text("# changed\n", encoding="utf-8")
    assert provenance.program_digest(str(copy)) != provenance.program_digest()


# -- the sealed page -----------------------------------------------------------------------------------
def test_a_sealed_page_has_no_interval_chart_or_count_from_the_gold(tmp_path):
    inp = as_platform(phase(tmp_path, board="B"), "codalab_v1")
    assert run_score(inp, tmp_path / "out").returncode == 0
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "sealed" in page and "<svg" not in page and "interval" not in page and "<table" not in page
    body = re.sub(r"<[^>]+>", " ", page.split("<body>", 1)[1].split("<footer>", 1)[0])   # the text only
    numbers = set(re.findall(r"\d+", body))
    n_items = sum(1 for _ in open(ROOT / "reference_data" / "gold.csv", encoding="utf-8")) - 1
    assert numbers <= {str(n_items), "1"}, body   # the public number of test items and the placeholder -1
    # nothing is scored while the board is sealed: no report anywhere, CodaLab v1's private/ included
    assert sorted(p.name for p in (tmp_path / "out" / "private").iterdir()) == ["provenance.json"]


# -- the page's words in both languages ------------------------------------------------------------------
PAGE_KEYS = re.compile(r"^(report\.|[a-z]+\.report\.|[a-z]+\.unit$)")


def test_every_page_message_has_english_and_chinese_with_the_same_fields():
    import scorer.platform.runner  # noqa: F401  (declares the runner's messages)

    found = [m for k, m in MESSAGES.items() if PAGE_KEYS.match(k)]
    assert len(found) > 30
    for message in found:
        assert message.texts["en"] and message.texts["zh"], message.key
        assert message.fields("en") == message.fields("zh"), message.key
        assert not re.search(r"[\u4e00-\u9fff]", message.texts["en"]), message.key


def test_a_chinese_competition_gets_a_chinese_frame(tmp_path):
    proc = run_score(phase(tmp_path, edit=lambda raw: raw.update(language="zh")), tmp_path / "out")
    assert proc.returncode == 0
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page
    for text in ("成绩", "95% 区间", "自助法", "评分程序", "各实体类型的 F1", "情感类别：行为标准答案"):
        assert html.escape(text) in page, text
    assert "Scores</h2>" not in page and "percentile bootstrap" not in page


# -- the linter ----------------------------------------------------------------------------------------
def linted(tmp_path, board_edit=None, column=None):
    copy = tmp_path / "comp"
    for name in ("competition.yaml", "logo.png"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, copy / name)
    for name in ("pages", "reference_data", "starting_kit"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("dev"))
    if board_edit:
        path = copy / "reference_data" / "board_A.yaml"
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        board_edit(raw)
        path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    if column:
        comp = yaml.safe_load((copy / "competition.yaml").read_text(encoding="utf-8"))
        comp["leaderboard"]["columns"][column] = dict(comp["leaderboard"]["columns"]["kappa"], label="low", rank=9)
        (copy / "competition.yaml").write_text(yaml.safe_dump(comp, allow_unicode=True), encoding="utf-8")
    return [str(p) for p in check_bundle.check_path(copy)]


def test_interval_keys_stay_out_of_the_leaderboard_unless_chosen(tmp_path):
    problems = linted(tmp_path / "a", column="score_ci_low")
    errors = [p for p in problems if p.startswith("ERROR")]
    assert errors and all("score_ci_low" in e and "in_scores: true" in e for e in errors), problems
    # chosen: the config writes them, and the column may show them (both phases must write them: board B too)
    chosen = linted(tmp_path / "b", lambda raw: raw.update(intervals={"in_scores": True}), column="score_ci_low")
    assert [p for p in chosen if p.startswith("ERROR")] == [e for e in errors if "phases.2" in e]
    assert not [p for p in linted(tmp_path / "c", lambda raw: raw.update(intervals={"in_scores": True}))
                if p.startswith("ERROR")]


def test_the_ladder_is_warned_about_the_missing_history(tmp_path):
    problems = linted(tmp_path, lambda raw: raw.update(feedback={"ladder": "fixed"}))
    assert [p for p in problems if p.startswith("ERROR")] == []
    assert any("feedback.ladder" in p and "57e625b" in p and "organizer ladder" in p for p in problems), problems


def test_a_primary_score_without_counts_says_why_it_has_no_interval(tmp_path):
    base = tmp_path / "in"
    ref = assemble_reference(ROOT / "examples" / "multilabel" / "reference_data", "A", base / "ref")
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw["primary_key"] = "macro_ap"
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    write_files(base / "res", {"s.csv": (ROOT / "examples" / "multilabel" / "starting_kit" /
                                         "sample_submission.csv").read_bytes()})
    assert run_score(base, tmp_path / "out").returncode == 0
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "No interval for Macro AP: it is not a sum of counts over the samples" in page   # the key's label
    assert "% interval</th>" not in page


# -- what the page calls each score, and its decimals ----------------------------------------------------
def _every_key(name, family):
    """Every key the family can write: its options' defaults, plus F-beta and two cut-offs where it has them."""
    options = {key: option.default for key, option in family.options.items()}
    if name == "multilabel":
        options.update(beta=2.0, k=[1, 5])
    return family.leaderboard_keys(options)


def test_every_key_of_every_family_has_a_label_in_english_and_in_chinese():
    from organizer.start.render import LABEL_MAX
    from test_zh_pages import english

    every = families()
    checked = 0
    for name in every:
        for key in _every_key(name, every[name]):
            label = every[name].key_label(key)
            assert label is not None, (name, key)
            en, zh = label.text("en"), label.text("zh")
            assert en.strip() and zh.strip() and key not in (en, zh), (name, key, en, zh)
            assert not english(zh, set()), (name, key, zh)    # symbols and acronyms only (F1, MAP@5, tp)
            assert max(len(en), len(zh)) <= LABEL_MAX, (name, key)   # organizer new makes them column labels
            checked += 1
    assert checked >= 60   # 6 bank, 24 emotion-cause, 7 keywords, 24 multilabel, 6 view-sentiment


@pytest.mark.parametrize("round_to,digits", [(None, 4), (2, 2), (6, 6)])
def test_the_page_names_every_score_and_shows_it_to_4_decimals_or_as_the_board_rounds(tmp_path, round_to, digits):
    def edit(raw):
        raw.pop("columns", None)      # no label from the competition: the family's own
        if round_to is not None:
            raw.setdefault("feedback", {})["round_to"] = round_to

    assert run_score(phase(tmp_path, edit=edit), tmp_path / "out").returncode == 0
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8").replace("<wbr>", "")
    scores = dict(line.split(": ") for line in
                  (tmp_path / "out" / "scores.txt").read_text(encoding="utf-8").splitlines())
    labels = {"score": "S: weighted S1 and S2", "ner_f1": "S1: entity F1 (strict)", "kappa": "S2: Cohen&#x27;s kappa",
              "ner_precision": "Entity precision", "ner_recall": "Entity recall", "class_accuracy": "Class accuracy"}
    assert set(labels) <= set(scores)
    for key, label in labels.items():
        shown = re.search(r"<td class=\"t\">([^<]*)<small class=\"key\"><code>%s</code></small></td><td>([^<]*)</td>"
                          % key, page)
        assert shown, key
        assert shown.group(1) == label and shown.group(2) == "%.*f" % (digits, float(scores[key])), (key, shown.groups())


@pytest.mark.parametrize("board, language", [("A", "zh"), ("B", "en")])   # B: a sealed board's placeholders
def test_a_run_reads_config_yaml_once_and_prints_in_its_language(tmp_path, monkeypatch, capsys, board, language):
    """score.py finds and reads config.yaml once a run: the footer's digest, the provenance record and what it
    prints take the config the Competition read."""
    import scorer.config as config
    from scorer.platform import cli

    base = phase(tmp_path, board, edit=lambda raw: raw.update(language=language))
    found, read = [], []
    monkeypatch.setattr(config, "find_config", lambda ref, real=config.find_config: found.append(ref) or real(ref))
    monkeypatch.setattr(config, "read_raw", lambda path, real=config.read_raw: read.append(path) or real(path))
    code, outcome = cli.run_once(str(base), str(tmp_path / "out"))
    assert code == 0 and outcome.language == language
    assert len(found) == 1 and len(read) == 1
    said = capsys.readouterr().out
    assert cli.SAID_WROTE(files=str(tmp_path / "out")).text(language) in said
