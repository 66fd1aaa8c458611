"""Shared test helpers: run score.py as a platform does and read what it wrote."""
import contextlib
import io
import json
import os
import re
import zipfile
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "scoring_program"
SCORE = PROGRAM / "score.py"


def _shared_data():
    """The public data the tests may read: $SHARED_DATA_DIR when set, else shared/data beside the project, or beside
    the main checkout when this is a git worktree."""
    if os.environ.get("SHARED_DATA_DIR"):
        return Path(os.environ["SHARED_DATA_DIR"])
    here = ROOT.parent / "shared" / "data"
    dot_git = ROOT / ".git"
    if here.exists() or not dot_git.is_file():
        return here
    gitdir = Path(dot_git.read_text(encoding="utf-8").split("gitdir:", 1)[-1].strip())
    main = gitdir.parents[2] if gitdir.parent.name == "worktrees" else None  # <main>/.git/worktrees/<name>
    return main.parent / "shared" / "data" if main else here


SHARED_DATA = _shared_data()

sys.path.insert(0, str(PROGRAM))


def organizer(*args, **kwargs):
    """``python3 -m organizer ARGS`` in a fresh process from the project's root; the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "organizer"] + [str(a) for a in args], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=600, **kwargs)


def shared(*parts):
    """The path of the public data set ``parts`` (under shared/data). Without it the test skips, saying why; called
    while a test module is imported, the whole module does (each of its tests needs the data)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip("public test data missing: %s (shared/data beside the project, or $SHARED_DATA_DIR)" % path,
                    allow_module_level=True)
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


V1_INPUT_METADATA = ("ref: https://example.org/ref.zip\nres: https://example.org/res.zip\nsubmitted-by: someone\n"
                     "competition-submission: 1\ncompetition-phase: 1\n")
CODABENCH_RES_METADATA = "exitCode: 0\nelapsedTime: 0.1\ningestionExitCode: 0\ningestionElapsedTime: 0.1\n"


def as_platform(input_dir, platform):
    """Lay INPUT out as ``platform`` does: CodaLab v1 writes INPUT/metadata (codalab-competitions
    apps/web/tasks.py, ``score``), Codabench res/metadata (compute_worker.py, ``push_output``)."""
    input_dir = Path(input_dir)
    input_dir.mkdir(parents=True, exist_ok=True)
    if platform == "codalab_v1":
        (input_dir / "metadata").write_text(V1_INPUT_METADATA, encoding="utf-8")
    elif platform == "codabench":
        (input_dir / "res").mkdir(parents=True, exist_ok=True)
        (input_dir / "res" / "metadata").write_text(CODABENCH_RES_METADATA, encoding="utf-8")
    return input_dir


def run_score(input_dir, output_dir, cwd=None, program=SCORE):
    """score.py on INPUT into OUTPUT, as a CompletedProcess.

    In this interpreter (its main(), 30 times faster than a process) unless the
    test is about the process itself: another program copy or a working folder.
    """
    if program != SCORE or cwd is not None:
        return run_score_process(input_dir, output_dir, cwd, program)
    code, out, err = score_in_process(input_dir, output_dir)
    return subprocess.CompletedProcess([str(program), str(input_dir), str(output_dir)], code, out, err)


def run_score_process(input_dir, output_dir, cwd=None, program=SCORE):
    """Run score.py in a fresh interpreter (its own hash seed, imports, cwd); returns the CompletedProcess."""
    return subprocess.run([sys.executable, str(program), str(input_dir), str(output_dir)],
                          cwd=str(cwd or Path(output_dir).parent), capture_output=True, text=True, timeout=600)


def score_in_process(input_dir, output_dir):
    """score.py's main() in this interpreter: (exit code, stdout, stderr). Much faster than a process."""
    from scorer.platform.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(input_dir), str(output_dir)])
    return code, out.getvalue(), err.getvalue()


def visible_outcome(input_dir, output_dir):
    """Everything a participant can reach of a run: exit code, stdout, stderr, every file outside private/."""
    code, out, err = score_in_process(input_dir, output_dir)
    files = {p.relative_to(output_dir).as_posix(): p.read_bytes() for p in sorted(Path(output_dir).rglob("*"))
             if p.is_file() and p.relative_to(output_dir).parts[0] != "private"}
    return code, out.replace(str(output_dir), "OUTPUT"), err.replace(str(output_dir), "OUTPUT"), files


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


def in_english(folder):
    """Set ``language: en`` in every config.yaml / kit_config.yaml / board_*.yaml under ``folder``.

    The bank and view-sentiment demos are Chinese competitions; a test that reads English lines runs them in
    English (the Chinese texts are tested in test_zh_pages and test_languages).
    """
    import yaml

    for path in sorted(Path(folder).rglob("*.yaml")):
        if path.name in ("config.yaml", "kit_config.yaml") or path.name.startswith("board_"):
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(raw, dict) and raw.get("language") == "zh":
                raw["language"] = "en"
                path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def without_warnings(page):
    """A page without its section of warnings about the file (and that section's link), the sections renumbered:
    what the page shows of the scored board. The warnings are the kit's, about the whole file against every test
    unit (runner.warnings_sections): a function of the file alone, which may differ where the files differ."""
    import re

    text = page.decode("utf-8") if isinstance(page, bytes) else page
    for title in ("Warnings about your file", "关于提交文件的提醒"):
        found = re.search(r'<h2 id="(s\d+)">%s</h2>' % re.escape(title), text)
        if found:
            end = text.find("<h2 ", found.end())
            end = text.find("<footer>", found.end()) if end < 0 else end
            end = len(text) if end < 0 else end
            text = text[:found.start()] + text[end:].lstrip("\n")
            text = re.sub(r'<li><a href="#%s">[^<]*</a></li>' % found.group(1), "", text)
    numbers = iter(range(1, 1000))
    renumbered = {}
    text = re.sub(r'id="s(\d+)"', lambda m: 'id="s%d"' % renumbered.setdefault(m.group(1), next(numbers)), text)
    return re.sub(r'href="#s(\d+)"', lambda m: 'href="#s%d"' % renumbered.get(m.group(1), 0), text)


def warnings_section(page):
    """The text of a page's section of warnings about the file ("" when it has none)."""
    import re

    text = page.decode("utf-8") if isinstance(page, bytes) else page
    found = re.search(r'<h2 id="s\d+">(Warnings about your file|关于提交文件的提醒)</h2>(.*?)(?=<h2 |<footer>|$)',
                      text, re.S)
    return found.group(2) if found else ""


_TOKEN_SEPARATORS = re.compile("[\\x00-\\x20]+")


def split_tokens(text):
    """The tokens of one string by the program's cutting rule (every character up to U+0020 separates), written
    independently of the byte-level cutter it checks: ``str.split`` cuts elsewhere (not at U+0001, but at U+3000).

    >>> split_tokens(" B-X\x01O  I-X\u3000O ")
    ['B-X', 'O', 'I-X\u3000O']
    """
    return [t for t in _TOKEN_SEPARATORS.split(text) if t]
