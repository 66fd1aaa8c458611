"""The Dockerfile pins exactly requirements.txt and runs the command the tests run (no engine needed)."""
import json
import re

from helpers import ROOT


def dockerfile():
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def requirement_pins():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def test_pins_equal_requirements_txt():
    installs = [l for l in dockerfile().splitlines() if "pip install" in l]
    assert len(installs) == 1
    pins = dict((n.lower(), v) for n, v in re.findall(r"([A-Za-z0-9_.-]+)==([0-9][^\s]*)", installs[0]))
    assert pins == requirement_pins()


def test_base_image_and_program_location():
    text = dockerfile()
    assert re.search(r"^FROM python:3\.12-slim\s*$", text, re.M)
    assert re.search(r"^COPY scoring_program/ /app/program/\s*$", text, re.M)


def test_command_is_the_platform_command():
    cmd = [l for l in dockerfile().splitlines() if l.startswith(("CMD", "ENTRYPOINT"))]
    assert len(cmd) == 1
    argv = json.loads(cmd[0].split(None, 1)[1])
    assert argv == ["python3", "/app/program/score.py", "/app/input", "/app/output"]
    # the same script and argument order as the scoring program's metadata (the tests run that command)
    meta = (ROOT / "scoring_program" / "metadata").read_text(encoding="utf-8")
    assert "command: python3 $program/score.py $input $output" in meta
