"""A clone without the public data beside it (shared/data, see helpers.shared) runs the suite: every test module
imports, and each test that reads the data skips, saying which file is missing, instead of failing or stopping the
collection."""
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

TESTS = ROOT / "tests"


def modules_near_the_data():
    """The test modules that name the public data, and those importing them (at any depth): only these can
    stop or fail without it, and collecting only them keeps this test short."""
    texts = {p.stem: p.read_text(encoding="utf-8") for p in TESTS.glob("*.py")}
    near = {name for name, text in texts.items() if re.search(r"\bshared\b|SHARED_DATA", text)} - {"helpers"}
    grown = True
    while grown:
        found = {name for name, text in texts.items() if name not in near
                 and any(re.search(r"^\s*(from|import) %s\b" % re.escape(m), text, re.M) for m in near)}
        grown = bool(found)
        near |= found
    return sorted("tests/%s.py" % name for name in near if name.startswith("test_") and name != Path(__file__).stem)


def test_the_suite_collects_without_the_public_data(tmp_path):
    missing = tmp_path / "shared" / "data"
    modules = modules_near_the_data()
    assert "tests/test_multilabel_oracles.py" in modules   # it reads the data through multilabel_data only
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-rs", "-p", "no:cacheprovider"]
                          + modules, cwd=str(ROOT), capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, SHARED_DATA_DIR=str(missing)))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = proc.stdout.strip().splitlines()[-1]
    assert "error" not in summary, proc.stdout[-3000:]
    skipped = [line for line in proc.stdout.splitlines() if line.startswith("SKIPPED")]
    # a module that reads the data while it is imported skips whole, naming the file
    assert skipped and all("public test data missing: %s" % missing in line for line in skipped), skipped
