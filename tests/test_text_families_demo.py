"""The seeded demos of tools/demo.sh for qa and generation: the generators give the same bytes for a seed, organizer
new makes a competition of them that lints, and the kit's sample scores on board A as independent implementations
score it (SQuAD 2.0's normalisation restated here; sacreBLEU)."""
import collections
import csv
import json
import re
import string

import pytest

from helpers import ROOT, organizer, read_scores


def demo(family, out):
    proc = organizer("demo", family, "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out


def new(family, data, out, gold, dev):
    proc = organizer("new", family, data / gold, out, "--title", "Demo " + family, "--dev-gold", data / dev)
    assert proc.returncode == 0 and " 0 error(s)" in proc.stdout, proc.stdout + proc.stderr
    return out


def board_a(comp):
    with open(comp / "reference_data" / "boards.csv", encoding="utf-8") as fh:
        return {row["id"] for row in csv.DictReader(fh) if row["board"] == "A"}


def score_a(comp, tmp_path):
    proc = organizer("score", comp, "A", comp / "starting_kit" / "submission", tmp_path / "scored")
    assert proc.returncode == 0, proc.stderr
    return read_scores(tmp_path / "scored" / "output")


def normalise(text):
    """SQuAD's normalize_answer, restated."""
    text = "".join(c for c in text.lower() if c not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def squad_f1(prediction, gold):
    p, g = normalise(prediction).split(), normalise(gold).split()
    if not p or not g:
        return float(p == g)
    common = sum((collections.Counter(p) & collections.Counter(g)).values())
    return 0.0 if common == 0 else 2 * common / (len(p) + len(g))


def test_the_qa_demo(tmp_path):
    data = demo("qa", tmp_path / "data")
    first = (data / "test.json").read_bytes()
    assert demo("qa", tmp_path / "again").joinpath("test.json").read_bytes() == first
    comp = new("qa", data, tmp_path / "comp", "test.json", "dev.json")
    gold = {q["id"]: [a["text"] for a in q["answers"]] for a in json.loads(first)["data"]
            for p in a["paragraphs"] for q in p["qas"]}
    assert any(not g for g in gold.values()) and any(g for g in gold.values())
    predictions = json.loads((comp / "starting_kit" / "submission" / "predictions.json").read_text(encoding="utf-8"))
    on_a = sorted(board_a(comp))
    f1 = [max(squad_f1(predictions[q], g) for g in (gold[q] or [""])) for q in on_a]
    assert score_a(comp, tmp_path)["f1"] == pytest.approx(100 * sum(f1) / len(f1), abs=1e-9)


def test_the_generation_demo(tmp_path):
    sacrebleu = pytest.importorskip("sacrebleu")
    data = demo("generation", tmp_path / "data")
    assert demo("generation", tmp_path / "again").joinpath("test.csv").read_bytes() == \
        (data / "test.csv").read_bytes()
    comp = new("generation", data, tmp_path / "comp", "test.csv", "dev.csv")
    refs = collections.defaultdict(list)
    with open(data / "test.csv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            refs[row["id"]].append(row["reference"])
    with open(comp / "starting_kit" / "submission" / "predictions.csv", encoding="utf-8") as fh:
        hyps = {row["id"]: row["text"] for row in csv.DictReader(fh)}
    on_a = sorted(board_a(comp))
    most = max(len(refs[i]) for i in on_a)
    streams = [[refs[i][k] if k < len(refs[i]) else None for i in on_a] for k in range(most)]
    expected = sacrebleu.corpus_bleu([hyps[i] for i in on_a], streams).score
    assert score_a(comp, tmp_path)["bleu"] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("family", ["qa", "generation"])
def test_rescore_ranks_the_demo_submissions_and_finds_the_identical_ones(family, tmp_path):
    """The organizer's rescore on examples/<family>: every submission scored on both boards, the tiers drawn from
    the per-unit tables, and two teams that sent the same answers found alike (``unit_answers``)."""
    import shutil

    sample = ROOT / "examples" / family / "starting_kit" / "submission"
    (name, ), = [tuple(p.name for p in sample.iterdir())]
    data = (sample / name).read_text(encoding="utf-8")
    subs = tmp_path / "subs"
    for team, text in (("team_a", data), ("team_b", data), ("team_c", data.replace("a", "o"))):
        (subs / team).mkdir(parents=True)
        (subs / team / name).write_text(text, encoding="utf-8")
    proc = organizer("rescore", ROOT / "examples" / family, "B", subs, tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(3 scored, 0 failed" in proc.stdout and "1 groups of similar submissions" in proc.stdout, proc.stdout
    shutil.rmtree(subs)


def test_a_qa_competition_with_no_answer_probabilities(tmp_path):
    """--option no_answer_probabilities=true: the kit's sample holds na_probs.json beside predictions.json, the
    competition lints, and board A's scores have SQuAD 2.0's best-threshold keys."""
    data = demo("qa", tmp_path / "data")
    out = tmp_path / "comp"
    proc = organizer("new", "qa", data / "test.json", out, "--title", "Demo qa", "--option",
                     "no_answer_probabilities=true")
    assert proc.returncode == 0 and " 0 error(s)" in proc.stdout, proc.stdout + proc.stderr
    assert sorted(p.name for p in (out / "starting_kit" / "submission").iterdir()) == ["na_probs.json",
                                                                                      "predictions.json"]
    scores = score_a(out, tmp_path)
    assert {"best_f1", "best_exact", "best_f1_thresh", "best_exact_thresh"} <= set(scores)
    # every probability 0 is no threshold any question passes: the best is the plain score or starting empty
    assert scores["best_f1"] >= scores["f1"]


@pytest.mark.parametrize("family", ["qa", "generation"])
def test_every_key_label_fits_a_leaderboard_column(family):
    """Codabench's column title takes 36 characters (organizer/start/render.py, LABEL_MAX): every key's label,
    in both languages."""
    from organizer.start.render import LABEL_MAX
    from scorer.tasks import families

    fam = families()[family]
    for key, message in fam.key_labels.items():
        for lang in ("en", "zh"):
            assert len(message().text(lang)) <= LABEL_MAX, (key, lang, message().text(lang))
