"""A clone without the public data beside it (shared/data, see helpers.shared) runs the suite: every test module
imports, and each test that reads the data skips, saying which file is missing, instead of failing or stopping the
collection."""
import os
import subprocess
import sys

from helpers import ROOT


def test_the_suite_collects_without_the_public_data(tmp_path):
    missing = tmp_path / "shared" / "data"
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-rs", "-p", "no:cacheprovider",
                           "tests"], cwd=str(ROOT), capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, SHARED_DATA_DIR=str(missing)))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = proc.stdout.strip().splitlines()[-1]
    assert "error" not in summary, proc.stdout[-3000:]
    skipped = [line for line in proc.stdout.splitlines() if line.startswith("SKIPPED")]
    # a module that reads the data while it is imported skips whole, naming the file
    assert skipped and all("public test data missing: %s" % missing in line for line in skipped), skipped
