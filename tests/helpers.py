"""Shared test helpers: run score.py as a platform does and read what it wrote."""
import io
import json
import zipfile
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "scoring_program"
SCORE = PROGRAM / "score.py"


def _shared_data():
    """shared/data beside the project, or beside the main checkout when this is a git worktree."""
    here = ROOT.parent / "shared" / "data"
    dot_git = ROOT / ".git"
    if here.exists() or not dot_git.is_file():
        return here
    gitdir = Path(dot_git.read_text(encoding="utf-8").split("gitdir:", 1)[-1].strip())
    main = gitdir.parents[2] if gitdir.parent.name == "worktrees" else None  # <main>/.git/worktrees/<name>
    return main.parent / "shared" / "data" if main else here


SHARED_DATA = _shared_data()

sys.path.insert(0, str(PROGRAM))


def shared(*parts):
    path = SHARED_DATA.joinpath(*parts)
    assert path.exists(), "test data missing: %s (shared/ must sit beside the project)" % path
    return path


def write_files(folder, files):
    """Write {relative name: str or bytes} into folder."""
    folder = Path(folder)
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return folder


def make_input(tmp_path, ref, res, name="input"):
    """An INPUT folder with ref/ and res/ filled from dicts of file contents."""
    base = Path(tmp_path) / name
    write_files(base / "ref", ref)
    (base / "res").mkdir(parents=True, exist_ok=True)
    write_files(base / "res", res)
    return base


def run_score(input_dir, output_dir, cwd=None, program=SCORE):
    """Run score.py in a fresh interpreter; returns the CompletedProcess."""
    return subprocess.run([sys.executable, str(program), str(input_dir), str(output_dir)],
                          cwd=str(cwd or Path(output_dir).parent), capture_output=True, text=True, timeout=600)


def read_scores(output_dir):
    """scores.txt parsed the way CodaLab v1 does (split on the one colon, float())."""
    scores = {}
    for line in (Path(output_dir) / "scores.txt").read_text(encoding="utf-8").split("\n"):
        if line:
            key, value = line.split(":")
            scores[key.strip()] = float(value)
    return scores


def read_scores_json(output_dir):
    return json.loads((Path(output_dir) / "scores.json").read_text(encoding="utf-8"))


def assert_participant_error(proc, *fragments):
    """Exit 1, exactly one line on stderr, no traceback, containing every fragment."""
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]




def zipped(files):
    """The bytes of a zip holding {name: bytes or str}."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buf.getvalue()
