"""A feedback phase scored on the dev set (``organizer new --feedback dev``): no test answer in anything uploaded.

Codabench serves every phase's reference data to anyone (docs/organizers.md section 3), so a board-A phase
publishes board A's answers. With ``--feedback dev`` the first phase scores the kit's dev set (public anyway) and
the final phase every test item, sealed until the reveal. Here, on a small multilabel competition: what ``new``
writes, what each bundled zip holds, the dev phase's scores (micro F1 worked out here from the sets), the sealed
final phase and its reveal, and the linter's rules on both layouts. tests/test_new_competition.py makes one of
each family from the public data sets.
"""
import contextlib
import csv
import io
import json
import shutil
import subprocess
import sys
import zipfile

import pytest
import yaml

from bundle_shared import PUBLIC_ANSWERS, built, dev_feedback_competition, members
from helpers import ROOT, organizer, read_scores, read_scores_json, run_score

from organizer import bundle, check
from organizer.phase_data import assemble_input, phase_entries


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return dev_feedback_competition(tmp_path_factory.mktemp("dev_feedback"))


def rows(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return {r["id"]: r["labels"].split() for r in csv.DictReader(fh)}


def prediction(gold, path):
    """A prediction made from ``gold``: every third sample's last label dropped, every fourth given ``billing``."""
    lines = ["id,labels"]
    for i, (unit, labels) in enumerate(sorted(gold.items())):
        labels = labels[:-1] if i % 3 == 0 else list(labels)
        if i % 4 == 0 and "billing" not in labels:
            labels.append("billing")
        lines.append("%s,%s" % (unit, " ".join(labels)))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def micro_f1(gold, path):
    """2 TP / (2 TP + FP + FN) over every (sample, label) pair: the predicted set is every label listed."""
    predicted = rows(path)
    tp = sum(len(set(gold[u]) & set(predicted[u])) for u in gold)
    fp = sum(len(set(predicted[u]) - set(gold[u])) for u in gold)
    fn = sum(len(set(gold[u]) - set(predicted[u])) for u in gold)
    return 2 * tp / (2 * tp + fp + fn)


# -- what new writes -----------------------------------------------------------------------------------------
def test_new_makes_a_dev_phase_and_a_final_phase_of_every_test_item_sealed(folder):
    reference = sorted(p.name for p in (folder / "reference_data").iterdir())
    assert reference == ["board_all.yaml", "gold.csv", "labels.txt"]   # no board split
    config = yaml.safe_load((folder / "reference_data" / "board_all.yaml").read_text(encoding="utf-8"))
    assert config["board"] == "all" and config["report"] == "sealed" and "boards" not in config
    comp = yaml.safe_load((folder / "competition.yaml").read_text(encoding="utf-8"))
    first, final = comp["phases"][1], comp["phases"][2]
    assert (first["reference_data"], final["reference_data"]) == ("reference_data_dev.zip", "reference_data_all.zip")
    assert final["leaderboard_management_mode"] == "hide_results"
    assert "100 dev samples" in first["description"] and "all 2,900 test samples" in final["description"]
    assert "placeholder scores (-1)" in final["description"]
    evaluation = (folder / "pages" / "evaluation.html").read_text(encoding="utf-8")
    assert "<b>What each phase scores.</b> Phase 1 (the dev board) scores a prediction for the 100 dev" in evaluation
    for text in ((folder / "pages" / "data.html").read_text(encoding="utf-8"),
                 (folder / "starting_kit" / "README.md").read_text(encoding="utf-8")):
        assert "Phase 1 (the dev board) takes a prediction for the dev samples" in text
        assert "sample_prediction.csv" in text


def new(*argv):
    from organizer.__main__ import run

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = run("new", [str(a) for a in argv])
        except SystemExit as exc:   # the argument parser's own one-line refusal
            code = exc.code
    return code, err.getvalue()


def test_new_refuses_dev_feedback_without_a_dev_set_or_with_a_board_split(folder, tmp_path):
    gold, labels = folder.parent / "test.csv", ROOT / "examples" / "multilabel" / "reference_data" / "labels.txt"
    code, err = new("multilabel", gold, tmp_path / "c", "--title", "T", "--labels", labels, "--feedback", "dev")
    assert code == 2 and err.count("\n") == 1 and "--feedback dev needs --dev-gold FILE" in err, err
    code, err = new("multilabel", gold, tmp_path / "c", "--title", "T", "--labels", labels, "--feedback", "dev",
                    "--dev-gold", folder.parent / "dev.csv", "--ratio-a", "0.5")
    assert code == 2 and "there is no board split" in err, err
    assert not (tmp_path / "c").exists()


def test_new_refuses_a_dev_set_ranked_by_another_key_than_the_test_set(tmp_path):
    """Emotion-cause: the dev gold is subtask 1's, so a competition of subtask 2 alone would rank its two phases by
    different keys on one leaderboard."""
    source = ROOT / "examples" / "emotion_cause" / "reference_data"
    conversations = json.loads((source / "Subtask_1_gold.json").read_text(encoding="utf-8"))[:5]
    for conversation in conversations:
        conversation["conversation_ID"] += 100000   # other conversations: no id of the test set
    (tmp_path / "dev.json").write_text(json.dumps(conversations), encoding="utf-8")
    argv = ["emotion_cause", source / "Subtask_1_gold.json", tmp_path / "c", "--title", "T", "--subtask2-gold",
            source / "Subtask_2_gold.json", "--dev-gold", tmp_path / "dev.json", "--feedback", "dev"]
    code, err = new(*argv, "--option", "subtasks='2'")
    assert code == 2 and "the dev set is ranked by weighted_strict_f1, the test set by weighted_f1" in err, err
    code, err = new(*argv)
    assert code == 0, err


# -- what is uploaded ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_no_uploaded_zip_holds_a_test_answer(folder, fmt):
    """The dev phase holds the kit's dev set and nothing else; the final phase the public test inputs only."""
    root = members(built(folder, fmt))
    dev_ids, test_ids = set(rows(folder / "starting_kit" / "dev" / "gold.csv")), set(rows(folder / "reference_data"
                                                                                             / "gold.csv"))
    dev = members(root["reference_data_dev.zip"])
    assert sorted(dev) == ["config.yaml", "gold.csv", "labels.txt"]
    assert dev["gold.csv"] == (folder / "starting_kit" / "dev" / "gold.csv").read_bytes()
    assert set(rows(folder / "starting_kit" / "dev" / "gold.csv")) == dev_ids and not dev_ids & test_ids
    final = members(root["reference_data_all.zip"])
    assert sorted(final) == ["config.yaml", "labels.txt", "public/test_public.csv"]
    assert final["public/test_public.csv"].split(b"\n")[0] == b"id"   # ids only: no answer column
    kit = members(root["starting_kit.zip"])
    assert not [name for name in kit if name.endswith("gold.csv") and name != "starting_kit/dev/gold.csv"]


def test_the_dev_phase_scores_the_dev_set_as_the_kits_score_local(folder, tmp_path):
    gold = rows(folder / "starting_kit" / "dev" / "gold.csv")
    pred = prediction(gold, tmp_path / "dev_prediction.csv")
    proc = organizer("score", folder, "dev", pred, tmp_path / "dev")
    assert proc.returncode == 0, proc.stderr
    scores = read_scores(tmp_path / "dev" / "output")
    assert scores["micro_f1"] == pytest.approx(micro_f1(gold, pred), abs=1e-9) and 0.5 < scores["micro_f1"] < 1
    with zipfile.ZipFile(io.BytesIO(bundle.starting_kit_zip(folder))) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / "starting_kit"
    local = subprocess.run([sys.executable, "-E", "-s", str(kit / "score_local.py"), str(pred), "--out",
                            str(tmp_path / "local")], cwd=str(kit), capture_output=True, text=True, timeout=600)
    assert local.returncode == 0, local.stderr
    assert (tmp_path / "local" / "scores.json").read_bytes() == (tmp_path / "dev" / "output" / "scores.json"
                                                                 ).read_bytes()


def test_the_final_phase_scores_nothing_until_the_reveal_then_every_test_item(folder, tmp_path):
    gold = rows(folder / "reference_data" / "gold.csv")
    pred = prediction(gold, tmp_path / "test_prediction.csv")
    run = run_score(assemble_input(folder / "reference_data", "all", pred, tmp_path / "sealed" / "input"),
                    tmp_path / "sealed" / "output")
    assert run.returncode == 0, run.stderr
    assert set(read_scores_json(tmp_path / "sealed" / "output").values()) == {-1.0}
    revealed = phase_entries(folder, "all", reveal=True)
    assert set(rows_of(revealed["gold.csv"])) == set(gold)   # every test item, none held back
    assert yaml.safe_load(revealed["config.yaml"])["report"] == "full"
    run = run_score(assemble_input(folder / "reference_data", "all", pred, tmp_path / "open" / "input", reveal=True),
                    tmp_path / "open" / "output")
    assert run.returncode == 0, run.stderr
    assert read_scores(tmp_path / "open" / "output")["micro_f1"] == pytest.approx(micro_f1(gold, pred), abs=1e-9)
    # the reveal's phase data, written by the command as the platforms get it
    from organizer import reveal

    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert reveal.main([str(folder), "all", str(tmp_path / "reveal.zip")]) == 0
    assert members((tmp_path / "reveal.zip").read_bytes()) == revealed
    assert "board all's reference data with its answers" in out.getvalue()


def rows_of(data):
    return {r["id"]: r["labels"] for r in csv.DictReader(io.StringIO(data.decode("utf-8")))}


# -- the linter ----------------------------------------------------------------------------------------------
def test_the_shipped_board_a_phase_is_warned_with_its_number_of_answers(tmp_path):
    """2,000 answers: board A's rows of boards.csv, counted here."""
    with open(ROOT / "reference_data" / "boards.csv", encoding="utf-8", newline="") as fh:
        n = sum(r["board"] == "A" for r in csv.DictReader(fh))
    for fmt in ("v1", "v2"):
        path = tmp_path / ("%s.zip" % fmt)
        path.write_bytes(built(ROOT, fmt))
        warned = [p for p in check.check_path(path) if p.code == PUBLIC_ANSWERS]
        assert len(warned) == 1 and warned[0].where == "reference_data_A.zip/config.yaml", fmt
        assert warned[0].message.startswith("holds the answers of %d test item(s) (gold.csv)" % n), warned[0]
        assert "python3 -m organizer new --feedback dev" in warned[0].message


def test_an_unsealed_final_phase_of_every_test_item_is_refused(folder, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    config = copy / "reference_data" / "board_all.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("report: sealed", "report: full"), encoding="utf-8")
    for fmt in ("v1", "v2"):
        problems = {p.code: p for p in check.check_path(copy, fmt)}
        assert problems["board-b-unsealed"].level == "ERROR", fmt
        assert problems[PUBLIC_ANSWERS].message.startswith("holds the answers of 2900 test item(s) (gold.csv)")
