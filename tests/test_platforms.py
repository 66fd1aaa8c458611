"""The built bundles' scoring program run as the CodaLab v1 and Codabench workers run it (platform_workers.py).

What each platform shows a participant, from its source:
- CodaLab v1 (codalab-competitions apps/web/models.py, ``get_file_for_download``; apps/web/views.py,
  ``MyCompetitionSubmissionOutput``): the scores (leaderboard), stderr always, and output.zip, stdout and
  detailed_results.html of any submission on the leaderboard (``override_permissions``) or made public,
  hidden phase or not; private_output.zip only to the competition creator.
- Codabench (src/apps/api/views/submissions.py, ``get_detail_result``; serializers/submissions.py): the
  scores (one leaderboard for every phase, base_unpacker.py), the detailed results to every participant,
  the logs unless ``hide_output``, the scoring-result zip (all of OUTPUT) unless ``hide_output`` or
  ``hide_score_output``; a v1 bundle can set neither (unpackers/v1.py reads them, CodaLab v1 rejects them).
"""

import pytest
import yaml

from helpers import ROOT
from scorer.report import SEALED_TITLE
from platform_workers import participant_zip, plain_zip, run_codabench, run_v1
from helpers import organizer
from bundle_shared import (bank_oracle, board_ids, built, comp_id, competitions, members, phases,
                                sample_submission)
from organizer import bundle  # noqa: E402
from scorer.tasks import families

CASES = [(c, i) for c in competitions() for i in range(len(phases(c)))]
SEALED = -1.0


def phase_zips(competition, index, fmt="v1"):
    root = members(built(competition, fmt))
    if fmt == "v1":
        phase = phases(competition)[index]
        return root[phase["scoring_program"]], root[phase["reference_data"]]
    comp = yaml.safe_load(root["competition.yaml"])
    task = comp["tasks"][comp["phases"][index]["tasks"][0]]
    return root[task["scoring_program"]], root[task["reference_data"]]


def board_of(competition, index):
    return bundle.REFERENCE_ZIP.match(phases(competition)[index]["reference_data"]).group(1)


def columns(competition):
    comp = bundle.load_yaml(competition / "competition.yaml")
    return [k for k, c in comp["leaderboard"]["columns"].items() if not c.get("computed")]


def parse_scores(text):
    """scores.txt as CodaLab v1 reads it (split on the one colon, float())."""
    return {line.split(":")[0].strip(): float(line.split(":")[1]) for line in text.split("\n") if line}


@pytest.mark.parametrize("competition,index", CASES, ids=lambda v: comp_id(v) if not isinstance(v, int) else str(v))
def test_both_workers_give_the_same_scores(tmp_path, competition, index):
    program, reference = phase_zips(competition, index)
    submission = participant_zip(sample_submission(competition))
    v1 = run_v1(tmp_path / "v1", program, reference, submission)
    cb = run_codabench(tmp_path / "cb", program, reference, submission)
    assert v1.returncode == 0, v1.stderr
    assert cb.returncode == 0, cb.stderr
    assert v1.output_zip["scores.txt"] == cb.output_zip["scores.txt"]
    assert v1.output_zip["scores.json"] == cb.output_zip["scores.json"]
    ours = parse_scores(v1.scores_txt)
    assert ours == yaml.load(cb.output_zip["scores.txt"], Loader=yaml.Loader)   # Codabench reads YAML
    assert set(columns(competition)) <= set(ours)  # every column written; more keys are ignored by both platforms
    assert [n for n in v1.output_zip if n.endswith(".html")] == ["detailed_results.html"]
    assert "metadata" not in v1.output_zip


@pytest.mark.parametrize("board", ["A", "B"])
def test_the_demo_scores_equal_seqeval_and_sklearn_on_each_board(tmp_path, board):
    """Board B through the reveal step: its reference zip with report: full (python3 -m organizer reveal)."""
    index = [board_of(ROOT, i) for i in range(len(phases(ROOT)))].index(board)
    program, reference = phase_zips(ROOT, index)
    if board == "B":
        reference = bundle.reference_zip(ROOT, "B", reveal=True)
    sample = ROOT / "starting_kit" / "sample_submission.csv"
    run = run_v1(tmp_path, program, reference, participant_zip({sample.name: sample.read_bytes()}))
    assert run.returncode == 0, run.stderr
    ours = parse_scores(run.scores_txt)
    expected = bank_oracle(ROOT / "reference_data" / "gold.csv", sample, board_ids(ROOT, board))
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_a_participant_error_reads_the_same_on_both_workers(tmp_path, competition):
    program, reference = phase_zips(competition, 0)
    upload = participant_zip({"readme.txt": b"nothing to score here\n"})
    v1 = run_v1(tmp_path / "v1", program, reference, upload)
    cb = run_codabench(tmp_path / "cb", program, reference, upload)
    assert v1.returncode == cb.returncode == 1
    line1 = [l for l in v1.stderr.splitlines() if l.strip()]
    line2 = [l for l in cb.stderr.splitlines() if l.strip()]
    assert len(line1) == 1 and line1 == line2 and "Traceback" not in v1.stderr
    assert not v1.private_zip and not any(n.startswith("private/") for n in cb.output_zip)


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_a_zip_inside_the_zip_scores_on_both_workers(tmp_path, competition):
    """v1 extracts inner.zip beside itself into inner/ and keeps the zip (worker.py get_bundle)."""
    program, reference = phase_zips(competition, 0)
    files = sample_submission(competition)
    plain = run_v1(tmp_path / "plain", program, reference, plain_zip(files))
    assert plain.returncode == 0, plain.stderr
    nested = plain_zip({"inner.zip": plain_zip(files)})
    for name, runner in (("v1", run_v1), ("cb", run_codabench)):
        run = runner(tmp_path / name, program, reference, nested)
        assert run.returncode == 0, (name, run.stderr)
        assert run.output_zip["scores.txt"] == plain.output_zip["scores.txt"], name


def _real_numbers(scores):
    """The ways a real score could be printed: 10, 6 and 4 decimals."""
    return {("%.*f" % (d, v)) for v in scores.values() for d in (10, 6, 4) if v not in (0.0, 1.0)}


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_the_sealed_board_shows_placeholders_everywhere_and_the_reveal_gives_the_real_scores(tmp_path, competition):
    index = [board_of(competition, i) for i in range(len(phases(competition)))].index("B")
    program, reference = phase_zips(competition, index)
    submission = participant_zip(sample_submission(competition))
    _, v2_reference = phase_zips(competition, index, "v2")

    v1 = run_v1(tmp_path / "v1", program, reference, submission)
    cb_v1 = run_codabench(tmp_path / "cb1", program, reference, submission)     # a v1 bundle imported
    cb_v2 = run_codabench(tmp_path / "cb2", program, v2_reference, submission)  # the v2 bundle
    reveal_zip = tmp_path / "reveal.zip"
    tool = organizer("reveal", competition, "B", reveal_zip)
    assert tool.returncode == 0, tool.stderr
    revealed_v1 = run_v1(tmp_path / "r1", program, reveal_zip.read_bytes(), submission)
    revealed_cb = run_codabench(tmp_path / "r2", program, reveal_zip.read_bytes(), submission)
    assert revealed_v1.returncode == revealed_cb.returncode == 0, revealed_v1.stderr
    real = parse_scores(revealed_v1.scores_txt)
    assert revealed_cb.output_zip["scores.txt"] == revealed_v1.output_zip["scores.txt"]
    assert set(real.values()) != {SEALED}

    numbers = _real_numbers(real)
    for run in (v1, cb_v1, cb_v2):
        assert run.returncode == 0, run.stderr
        shown = parse_scores(run.output_zip["scores.txt"].decode("utf-8"))
        assert set(shown) == set(real) and set(shown.values()) == {SEALED}
        page = run.detailed_results.decode("utf-8")
        assert any(SEALED_TITLE(board="B").text(lang) in page for lang in ("en", "zh"))  # in the competition's
        for text in (page, run.stdout, run.stderr):
            assert not [n for n in numbers if n in text]
        assert not any(n.startswith("private/") for n in run.output_zip)
    # nothing of the board is scored while it is sealed: CodaLab v1's private_output.zip (which its API links for
    # the submitter: SubmissionScoreView.get) holds the run's provenance only; Codabench gets no private/ at all
    assert sorted(n for n in v1.private_zip if not n.endswith("/") and n.startswith("private/")) == \
        ["private/provenance.json"]
    assert not cb_v1.private_zip and not cb_v2.private_zip
    # and the sealed phase's reference data holds no answer: config.yaml, the public inputs and shared files only
    held = members(reference)
    family = families()[yaml.safe_load(held["config.yaml"])["task"]]
    answers = {dict(family.default_files, **(yaml.safe_load(held["config.yaml"]).get("files") or {}))[s]
               for s in family.unit_files}
    assert "public/" + family.public_inputs in held and not answers & set(held), sorted(held)
