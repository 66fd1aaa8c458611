"""The starting kit stands alone: unzipped far from the project, in a fresh Python environment that holds only what
the kit's requirements.txt names, its tools work; without pandas they say so in one line, with no traceback."""
import io
import subprocess
import sys
import zipfile

import pytest

from bundle_shared import built, members
from helpers import ROOT, in_english


def run(argv, cwd=None, timeout=900):
    return subprocess.run([str(a) for a in argv], cwd=str(cwd) if cwd else None, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """(kit folder, the python of a fresh venv without the system's site-packages)."""
    base = tmp_path_factory.mktemp("alone")
    with zipfile.ZipFile(io.BytesIO(members(built(ROOT))["starting_kit.zip"])) as archive:
        archive.extractall(base)
    kit = base / "starting_kit"
    in_english(kit)
    made = run([sys.executable, "-m", "venv", base / "venv"])
    if made.returncode != 0:
        pytest.skip("cannot make a venv here: %s" % made.stderr.strip()[-200:])
    return kit, base / "venv" / "bin" / "python"


def test_the_kit_lists_the_runtime_pins(bare):
    kit, _ = bare
    wanted = [l.strip() for l in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
              if l.strip() and not l.startswith("#")]
    given = [l.strip() for l in (kit / "requirements.txt").read_text(encoding="utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    assert given == wanted and "pandas==2.2.3" in given


def test_in_a_bare_python_the_kit_says_what_is_missing_then_works_with_its_requirements(bare, tmp_path):
    kit, python = bare
    # first only numpy and PyYAML, at the kit's pins: pandas is missing
    pins = [l for l in (kit / "requirements.txt").read_text(encoding="utf-8").splitlines()
            if l.startswith(("numpy==", "PyYAML=="))]
    assert len(pins) == 2
    installed = run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + pins)
    assert installed.returncode == 0, installed.stderr[-2000:]
    for tool, args in (("validate.py", ["sample_submission.csv"]), ("score_local.py", ["dev/sample_prediction.csv"])):
        proc = run([python, "-E", "-s", kit / tool] + args, cwd=kit)
        assert proc.returncode == 2 and proc.stdout == "", proc.stdout + proc.stderr
        assert proc.stderr == ("%s cannot run, missing: pandas. Install what it needs with  python3 -m pip install -r "
                               "requirements.txt  (in the starting kit).\n" % tool)

    installed = run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r",
                     kit / "requirements.txt"])
    assert installed.returncode == 0, installed.stderr[-2000:]
    frozen = run([python, "-m", "pip", "freeze"]).stdout.lower()
    assert "scikit" not in frozen and "pytest" not in frozen  # nothing but the kit's requirements
    proc = run([python, "-E", "-s", kit / "validate.py", "sample_submission.csv"], cwd=kit)
    assert proc.returncode == 0 and "no problems found" in proc.stdout, proc.stdout + proc.stderr
    proc = run([python, "-E", "-s", kit / "score_local.py", "dev/sample_prediction.csv", "--out", tmp_path / "s"],
               cwd=kit)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "s" / "scores.txt").read_text(encoding="utf-8").startswith("score: ")


def test_the_missing_package_message_follows_the_competition_language(bare, tmp_path):
    """Before the engine can be imported, validate.py still reads the language from kit_config.yaml."""
    kit, _ = bare
    zh = tmp_path / "kit"
    zh.mkdir()
    for name in ("validate.py", "score_local.py"):
        (zh / name).write_bytes((kit / name).read_bytes())
    (zh / "kit_config.yaml").write_text("language: zh\ntask: bank_comments\n", encoding="utf-8")
    code = ("import sys; sys.modules['pandas'] = None; sys.argv = ['validate.py', 'x.csv']; "
            "import runpy; runpy.run_path('validate.py', run_name='__main__')")
    proc = run([sys.executable, "-c", code], cwd=zh)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr == ("validate.py 无法运行，缺少：pandas。请在 starting kit 目录中用  python3 -m pip install -r "
                           "requirements.txt  安装所需的包。\n")
