"""The qa and generation competitions made by organizer new from the public data, on EvalAI (the challenge built by
``organizer evalai``, run by the emulated worker of tests/test_adapters.py) and as score.py runs them: the same
scores on board A, placeholders on sealed board B, a participant's mistake in one line."""
import zipfile

import pytest

from helpers import SHARED_DATA, organizer, read_scores, run_score
from test_adapters import Challenge, check_challenge_zip


def make(family, tmp_path):
    out = tmp_path / family
    if family == "qa":
        gold = SHARED_DATA / "qa" / "squad_v2" / "dev-v2.0-first-2-articles.json"
    else:
        rows = [line.split("\t") for line in (SHARED_DATA / "generation" / "csl_ts" / "dev.tsv").read_text(
            encoding="utf-8").splitlines()[:300]]
        gold = tmp_path / "csl.csv"
        import csv
        with open(gold, "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["id", "abstract", "reference"])
            writer.writerows(["t%03d" % i, r[1], r[2]] for i, r in enumerate(rows))
    if not gold.exists():
        pytest.skip("the public data is not beside the project: %s" % gold)
    proc = organizer("new", family, gold, out, "--title", "A %s challenge" % family, "--no-check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.mark.parametrize("family", ["qa", "generation"])
def test_evalai_scores_the_kit_sample_as_score_py(family, tmp_path):
    from organizer.phase_data import assemble_input

    comp = make(family, tmp_path)
    challenge = Challenge(comp, tmp_path / "evalai")
    check_challenge_zip(challenge.files)
    sample = comp / "starting_kit" / "submission"
    upload = tmp_path / "upload.zip"
    with zipfile.ZipFile(upload, "w") as archive:
        for path in sorted(sample.iterdir()):
            archive.write(path, path.name)
    out, _ = challenge.submit("A", upload)
    assert out["status"] == "FINISHED", out
    scores = out["result"][0]["public_split"]
    inp = assemble_input(comp / "reference_data", "A", sample, tmp_path / "A" / "input")
    assert run_score(inp, tmp_path / "A" / "output").returncode == 0
    expected = read_scores(tmp_path / "A" / "output")
    assert scores.keys() == expected.keys()
    assert all(abs(scores[k] - expected[k]) <= 1e-9 for k in scores)
    out, _ = challenge.submit("B", upload)
    assert set(out["result"][0]["private_split"].values()) == {-1.0}
    # one file of another name (EvalAI stores an upload under a UUID): refused, naming the file the task expects
    stray = tmp_path / "0f8fad5b-d9cb-469f-a165-70867728950e.txt"
    stray.write_text("x", encoding="utf-8")
    out, _ = challenge.submit("A", stray)
    assert out["status"] == "FAILED" and "predictions.*" in out["stderr"]
