"""task: generation end to end: score.py on small made competitions gives every key as sacreBLEU 2.x and rouge-score
0.1.2 (independent implementations, run here as oracles) compute it on the same texts, from each file form, on
boards A and B; the page shows the signatures; a wrong file ends with exit 1 and one line quoting no reference."""
import csv
import io
import json
import random
import re

import numpy as np
import pytest

from helpers import as_platform, assert_participant_error, make_input, read_scores, run_score, shared

sacrebleu = pytest.importorskip("sacrebleu")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TOL = 1e-9
WORDS = ("the a cat dog sat on mat running runs ponies relational Paris 3.5 1,000 U.S. don't (x) x! \"hi\" "
         "e-mail &amp; ... -- é İ ω ＡＢＣ １２３ — …").split()


def corpus(seed, n=40):
    """Hypotheses and 1 to 3 references each (some empty, of different lengths), with edge cases."""
    rng = random.Random(seed)

    def text():
        return " ".join(rng.choice(WORDS) for _ in range(rng.choice([0, 1, 2, 3, 5, 9, 16])))
    hyps = [text() for _ in range(n)]
    refs = [[text() or "x" for _ in range(rng.choice([1, 1, 2, 3]))] for _ in range(n)]
    hyps[0], refs[1] = "", refs[1] + [""]          # an empty hypothesis; an empty reference among others
    hyps[2] = refs[2][0]                           # a hypothesis equal to a reference
    hyps[3] = "cat"                                # shorter than every n-gram order but one
    return ["s%02d" % i for i in range(n)], hyps, refs


def gold_csv(ids, refs):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "reference"])
    for unit, these in zip(ids, refs):
        for ref in these:
            writer.writerow([unit, ref])
    return buf.getvalue()


def predictions(ids, hyps, form):
    if form == "json":
        return "predictions.json", json.dumps(dict(zip(ids, hyps)), ensure_ascii=False)
    if form == "jsonl":
        return "predictions.jsonl", "".join(json.dumps({"id": i, "text": h}, ensure_ascii=False) + "\n"
                                           for i, h in zip(ids, hyps))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "text"])
    writer.writerows(zip(ids, hyps))
    return "predictions.csv", buf.getvalue()


def config(board="all", boards=False, language="en", **options):
    lines = ["task: generation", "board: %s" % board, "language: %s" % language,
             "options: %s" % json.dumps(options)]
    return "\n".join(lines + (["boards: {file: boards.csv}"] if boards else [])) + "\n"


def expected(hyps, refs, bleu_tokenizer="13a", lowercase=False, rouge_stem=False):
    """Every key from sacreBLEU and rouge-score."""
    most = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(most)]
    b = sacrebleu.metrics.BLEU(tokenize=bleu_tokenizer, lowercase=lowercase).corpus_score(hyps, streams)
    out = {"bleu": b.score, "length_ratio": b.sys_len / b.ref_len if b.ref_len else 0.0,
           "chrf": sacrebleu.metrics.CHRF(lowercase=lowercase).corpus_score(hyps, streams).score,
           "chrf_pp": sacrebleu.metrics.CHRF(word_order=2, lowercase=lowercase).corpus_score(hyps, streams).score}
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=rouge_stem)
    scored = [scorer.score_multi(r, h) for h, r in zip(hyps, refs)]
    for t in types:
        for m, attr in (("f", "fmeasure"), ("p", "precision"), ("r", "recall")):
            out["%s_%s" % (t.lower(), m)] = 100.0 * np.mean([getattr(s[t], attr) for s in scored])
    out["exact_match"] = 100.0 * np.mean([any(h.strip() == x.strip() for x in r) for h, r in zip(hyps, refs)])
    return out


def score(tmp_path, ref, res, name="input"):
    inp = make_input(tmp_path, ref, res, name)
    out = tmp_path / (name + "_out")
    return run_score(inp, out), out


def text_of(out):
    """The page's text, without its markup (the page may break a long line at its colons)."""
    return re.sub("<[^>]+>", "", (out / "detailed_results.html").read_text(encoding="utf-8"))


def assert_keys(got, want):
    for key, value in want.items():
        assert abs(got[key] - value) <= TOL, (key, got[key], value)


@pytest.mark.parametrize("form", ["csv", "jsonl", "json"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_key_equals_sacrebleu_and_rouge_score(tmp_path, form, seed):
    ids, hyps, refs = corpus(seed)
    name, data = predictions(ids, hyps, form)
    proc, out = score(tmp_path, {"gold.csv": gold_csv(ids, refs), "config.yaml": config()}, {name: data})
    assert proc.returncode == 0, proc.stderr
    assert_keys(read_scores(out), expected(hyps, refs))


def test_options_reach_the_measures(tmp_path):
    ids, hyps, refs = corpus(3)
    ref = {"gold.csv": gold_csv(ids, refs), "config.yaml": config(bleu_tokenizer="char", lowercase=True,
                                                                  rouge_stem=True)}
    proc, out = score(tmp_path, ref, dict([predictions(ids, hyps, "jsonl")]))
    assert proc.returncode == 0, proc.stderr
    assert_keys(read_scores(out), expected(hyps, refs, "char", lowercase=True, rouge_stem=True))
    page = text_of(out)
    assert "BLEU nrefs:var|case:lc|eff:no|tok:char|smooth:exp" in page and "stem:yes" in page


def test_chinese_titles_of_the_csl_data(tmp_path):
    """Chinese references (CSL titles), tokenizer zh; the Chinese ROUGE rule is rouge-score on its tokens
    (tests/test_generation_kernels.py), so ROUGE is left to that test here."""
    rows = [line.rstrip("\n").split("\t") for line in
            shared("generation", "csl_ts", "dev.tsv").read_text(encoding="utf-8").splitlines()[:120]]
    rng = random.Random(5)
    ids = ["c%d" % i for i in range(len(rows))]
    refs = [[r[2]] for r in rows]
    hyps = [r[2][:max(1, len(r[2]) - rng.randint(0, 8))] if rng.random() < 0.6 else r[1][:25] for r in rows]
    ref = {"gold.csv": gold_csv(ids, refs), "config.yaml": config(language="zh", bleu_tokenizer="zh",
                                                                  rouge_tokenizer="chinese")}
    proc, out = score(tmp_path, ref, dict([predictions(ids, hyps, "csv")]))
    assert proc.returncode == 0, proc.stderr
    want = expected(hyps, refs, "zh")
    got = read_scores(out)
    assert_keys(got, {k: want[k] for k in ("bleu", "chrf", "chrf_pp", "exact_match", "length_ratio")})
    assert got["rouge1_f"] > 0   # the chinese rule scores Chinese text; rouge-score's default would give 0
    page = text_of(out)
    assert "签名" in page and "tok:zh" in page


def test_boards_score_their_own_segments(tmp_path):
    ids, hyps, refs = corpus(4, n=60)
    board = np.where(np.random.default_rng(3).random(len(ids)) < 0.4, "A", "B")
    boards = "id,board\n" + "".join("%s,%s\n" % (i, b) for i, b in zip(ids, board))
    for which in ("A", "B"):
        ref = {"gold.csv": gold_csv(ids, refs), "boards.csv": boards, "config.yaml": config(which, boards=True)}
        proc, out = score(tmp_path, ref, dict([predictions(ids, hyps, "csv")]), "board" + which)
        assert proc.returncode == 0, proc.stderr
        on = board == which
        assert_keys(read_scores(out), expected([h for h, k in zip(hyps, on) if k], [r for r, k in zip(refs, on) if k]))
        page = (out / "detailed_results.html").read_text(encoding="utf-8")
        assert "95% interval" in page


def test_a_missing_id_is_an_empty_hypothesis_and_is_warned_about(tmp_path):
    ids, hyps, refs = corpus(6)
    given = {i: h for i, h in zip(ids, hyps) if i != "s05"}
    proc, out = score(tmp_path, {"gold.csv": gold_csv(ids, refs), "config.yaml": config()},
                      {"predictions.json": json.dumps(given)})
    assert proc.returncode == 0, proc.stderr
    assert_keys(read_scores(out), expected([h if i != "s05" else "" for i, h in zip(ids, hyps)], refs))
    assert "1 test id(s) have no text" in (out / "detailed_results.html").read_text(encoding="utf-8")


GOLD = "id,reference\na,Secret reference one\nb,Hidden two\nb,Hidden 2\n"


@pytest.mark.parametrize("res, fragments", [
    ({"predictions.csv": "id,text\na,x\nz,y\n"}, ["predictions.csv line 3", "'z'", "not in the test set"]),
    ({"predictions.csv": "id,hyp\na,x\n"}, ["predictions.csv", "id,text"]),
    ({"predictions.jsonl": '{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n'},
     ["predictions.jsonl line 2", "'a' is given twice"]),
    ({"predictions.jsonl": '{"id": "a", "txt": "x"}\n'}, ["line 1", "no \"text\""]),
    ({"predictions.jsonl": '{"id": "a", "text": ["x"]}\n'}, ["line 1", "JSON array", "not a string"]),
    ({"predictions.jsonl": '{"id": "a", "text": "x"\n'}, ["line 1", "not valid JSON"]),
    ({"predictions.json": '{"a": null}'}, ["(id a)", "JSON null"]),
    ({"predictions.jsonl": '{"id": 7, "text": "x"}\n'}, ["line 1", "JSON number", "as a string"]),
])
def test_a_wrong_file_is_one_line_that_says_how_to_fix_it(tmp_path, res, fragments):
    proc, _ = score(tmp_path, {"gold.csv": GOLD, "config.yaml": config()}, res)
    line = assert_participant_error(proc, *fragments)
    assert "Secret" not in line and "Hidden" not in line


def test_an_empty_reference_id_is_the_organizers_error(tmp_path):
    inp = as_platform(make_input(tmp_path, {"gold.csv": "id,reference\na,x\n ,y\n", "config.yaml": config()},
                                 {"predictions.csv": "id,text\na,x\n"}), "codalab_v1")
    proc = run_score(inp, tmp_path / "output")
    assert proc.returncode == 2
    text = (tmp_path / "output" / "private" / "organizer_error.txt").read_text(encoding="utf-8")
    assert "gold.csv line 3" in text and "empty" in text


def test_the_kit_warns_of_copied_sources_empty_texts_and_one_text_for_all():
    from types import SimpleNamespace

    from scorer.tasks.generation import FAMILY, GenerationContract, GenerationSubmission

    contract = GenerationContract(["a", "b", "c"], sources={"abstract": ["the source a", "source b", "c"]})
    sub = GenerationSubmission(np.array([" the source a ", "", "title c"], dtype=object), np.array([True] * 3))
    found = [p.text("en") for p in FAMILY.advice(sub, contract, SimpleNamespace(options={}))]
    assert any("1 text(s) copy their source" in t and "abstract" in t and ": a." in t for t in found), found
    assert any("1 text(s) are empty" in t and "b" in t for t in found), found
    same = GenerationSubmission(np.array(["t", "t", "t"], dtype=object), np.array([True, True, False]))
    assert [p.key for p in FAMILY.advice(same, contract, SimpleNamespace(options={}))] == [
        "generation.advice_absent", "generation.advice_same"]


def test_segments_scored_a_few_at_a_time_give_the_same_keys(tmp_path, monkeypatch):
    """The counts are made CHUNK segments at a time (bounded memory): chunks of 7 segments, references of one id
    spread over the gold file, give sacreBLEU's and rouge-score's numbers all the same."""
    from scorer.tasks import generation

    ids, hyps, refs = corpus(8, n=45)
    rows = [(i, r) for i, these in zip(ids, refs) for r in these]
    random.Random(2).shuffle(rows)   # an id's references far apart in the file
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([("id", "reference")] + rows)
    order = {i: [r for j, r in rows if j == i] for i in ids}
    monkeypatch.setattr(generation, "CHUNK", 7)
    proc, out = score(tmp_path, {"gold.csv": buf.getvalue(), "config.yaml": config()},
                      dict([predictions(ids, hyps, "csv")]))
    assert proc.returncode == 0, proc.stderr
    assert_keys(read_scores(out), expected(hyps, [order[i] for i in ids]))


def test_chrf_and_chrf_pp_counted_together_equal_each_alone():
    from scorer.metrics import chrf

    ids, hyps, refs = corpus(9)
    both = chrf.statistics_both(hyps, refs)
    assert all((both[0][k] == v).all() for k, v in chrf.statistics(hyps, refs).items())
    assert all((both[1][k] == v).all() for k, v in chrf.statistics(hyps, refs, word_order=2).items())
