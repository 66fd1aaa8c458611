"""The EvalAI adapter, called the way EvalAI calls it; numbers from seqeval + scikit-learn (Kaggle: test_adapters_kaggle.py)."""
import json
import subprocess
import sys
import zipfile

import pytest

from helpers import ROOT
from test_bundle_shared import bank_oracle, board_ids

from organizer import bundle  # noqa: E402
from organizer import evalai as evalai_bundle  # noqa: E402

GOLD = ROOT / "reference_data" / "gold.csv"
SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"

# What EvalAI's submission worker does: unzip the evaluation script into challenge_data/challenge_<id>/,
# import that package and call evaluate(annotation, submission, phase codename, submission_metadata=...).
HOST = r"""
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
module = importlib.import_module("challenge_data.challenge_7")
try:
    out = module.evaluate(sys.argv[2], sys.argv[3], "test", submission_metadata={"participant_team": 1})
    print(json.dumps({"ok": out}))
except Exception as exc:
    print(json.dumps({"error": type(exc).__name__, "message": str(exc)}))
"""


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    base = tmp_path_factory.mktemp("evalai")
    script, annotations = evalai_bundle.build(ROOT, base / "built")
    challenge = base / "host" / "challenge_data" / "challenge_7"
    challenge.mkdir(parents=True)
    (base / "host" / "challenge_data" / "__init__.py").write_text("", encoding="utf-8")
    with zipfile.ZipFile(script) as archive:
        archive.extractall(challenge)
    return base, annotations


def evaluate(host, submission, annotations=None):
    base, default = host
    # -E -s and a cwd outside the project: only the engine copied into the script can be imported
    proc = subprocess.run([sys.executable, "-E", "-s", "-c", HOST, str(base / "host"), str(annotations or default),
                           str(submission)], capture_output=True, text=True, cwd=str(base), timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_evalai_returns_both_splits_and_shows_only_a(host, tmp_path):
    out = evaluate(host, SAMPLE)["ok"]
    result = out["result"]
    assert [list(r) for r in result] == [["public_split"], ["private_split"]]
    public, private = result[0]["public_split"], result[1]["private_split"]
    for split, board in ((public, "A"), (private, "B")):
        expected = bank_oracle(GOLD, SAMPLE, board_ids(ROOT, board))
        for key, value in expected.items():
            assert split[key] == pytest.approx(value, abs=1e-9), (board, key)
    assert out["submission_result"] == public and public != private


def test_evalai_takes_a_zipped_submission_and_a_raw_reference_folder(host, tmp_path):
    sub = tmp_path / "sub.zip"
    sub.write_bytes(bundle.zip_bytes({"results/answer.csv": SAMPLE.read_bytes()}))
    raw = tmp_path / "raw.zip"
    raw.write_bytes(bundle.zip_bytes({"reference_data/" + p.name: p.read_bytes()
                                      for p in (ROOT / "reference_data").iterdir() if p.is_file()}))
    plain = evaluate(host, SAMPLE)["ok"]
    assert evaluate(host, sub, raw)["ok"] == plain


def test_evalai_participant_error_is_one_clean_line(host, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,BIO_anno,class\n0,O,9\n", encoding="utf-8")
    out = evaluate(host, bad)
    assert out["error"] == "ValueError" and "\n" not in out["message"] and "bad.csv" in out["message"]
