"""The Docker image: the Dockerfile installs exactly requirements.txt, which pins the whole runtime;
it runs the platform command; and, built with a real engine, it scores every shipped board byte for
byte as the host does (tools/docker_check.sh)."""
import json
import re
import shlex
import subprocess
from importlib.metadata import PackageNotFoundError, distribution

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from helpers import ROOT

RUNTIME_ROOTS = ("numpy", "pandas", "PyYAML")
SKIPPED = 77  # tools/docker_check.sh: no container engine can be had here


def dockerfile():
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions(text):
    """The Dockerfile's instructions, continuation lines joined and comments dropped.

    >>> instructions("FROM x\\n# note\\nRUN a \\\\\\n    b\\n")
    ['FROM x', 'RUN a      b']
    """
    joined = []
    pending = ""
    for line in text.splitlines():
        if not pending and line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append((pending + line).strip())
        pending = ""
    return [line for line in joined if line]


def requirement_key(req):
    return (canonicalize_name(req.name), str(req.specifier), str(req.marker or ""))


def requirements_txt():
    """requirements.txt as parsed requirements, in file order."""
    reqs = []
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            reqs.append(Requirement(line))
    return reqs


def dockerfile_pip_installs():
    """The requirements named by the Dockerfile's pip install, in order (options left out)."""
    installs = [line for line in instructions(dockerfile()) if line.startswith("RUN") and "pip install" in line]
    assert len(installs) == 1, installs
    words = shlex.split(installs[0][len("RUN"):])
    after = words[words.index("install") + 1:]
    return [Requirement(word) for word in after if not word.startswith("-")]


def test_dockerfile_installs_exactly_requirements_txt_line_for_line():
    wanted = [requirement_key(r) for r in requirements_txt()]
    assert [requirement_key(r) for r in dockerfile_pip_installs()] == wanted
    assert all(r.specifier and all(s.operator == "==" for s in r.specifier) for r in requirements_txt())


def applicable_pins():
    """name -> pinned version, for the pins whose markers hold for this interpreter."""
    return {canonicalize_name(r.name): next(iter(r.specifier)).version
            for r in requirements_txt() if r.marker is None or r.marker.evaluate()}


def installed_closure(roots):
    """name -> installed version of ``roots`` and everything they require here (no extras)."""
    seen = {}
    todo = list(roots)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            raise AssertionError("%s is required but not installed" % name)
        seen[name] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def test_requirements_txt_pins_the_whole_runtime_and_nothing_else():
    # every package numpy, pandas and PyYAML pull in here is pinned, at the version installed, and no
    # pin is left over: an unpinned new dependency (or a stale pin) fails here
    assert installed_closure(RUNTIME_ROOTS) == applicable_pins()


def test_base_image_is_a_build_argument_defaulting_to_python_3_12_slim():
    lines = instructions(dockerfile())
    assert lines[0] == "ARG BASE=python:3.12-slim"
    assert [l for l in lines if l.startswith("FROM")] == ["FROM ${BASE}"]
    assert "COPY scoring_program/ /app/program/" in lines


def test_command_is_the_platform_command():
    cmd = [l for l in instructions(dockerfile()) if l.startswith(("CMD", "ENTRYPOINT"))]
    assert len(cmd) == 1
    argv = json.loads(cmd[0].split(None, 1)[1])
    assert argv == ["python3", "/app/program/score.py", "/app/input", "/app/output"]
    # the same script and argument order as the scoring program's metadata (the tests run that command)
    meta = (ROOT / "scoring_program" / "metadata").read_text(encoding="utf-8")
    assert "command: python3 $program/score.py $input $output" in meta


def test_the_image_scores_every_shipped_board_byte_for_byte_as_the_host():
    proc = subprocess.run(["bash", str(ROOT / "tools" / "docker_check.sh")], cwd=str(ROOT),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1800)
    if proc.returncode == SKIPPED:
        reasons = re.findall(r"^docker_check: SKIP: (.*)$", proc.stderr, re.M)
        pytest.skip(reasons[-1] if reasons else proc.stderr.strip())
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    identical = re.findall(r"^docker_check: (\S+) board (\S+): \d+ output files identical", proc.stdout, re.M)
    competitions = {"bank_comments"} | {p.name for p in (ROOT / "examples").iterdir()
                                        if (p / "reference_data" / "board_A.yaml").exists()}
    assert sorted(identical) == sorted((c, b) for c in competitions for b in "AB")
    assert "bad upload: exit 1, one line on stderr, as on the host" in proc.stdout
