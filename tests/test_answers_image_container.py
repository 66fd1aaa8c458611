"""The private scoring image, built and run for real (podman, as tools/docker_check.sh builds images here).

The image python3 -m organizer image describes is built FROM the project's own image (tools/docker_check.sh
builds it under another tag, DOCKER_CHECK_BUILD_ONLY=1) and run the way Codabench's compute worker runs a
competition's image (compute_worker/compute_worker.py ``Run._run_program_directory`` at codabench c7dbc756: the
program mounted at /app/program, /app/output, /app/data read-only, /app/input in the scoring step only, its 14
capabilities dropped, no-new-privileges, the working folder /app/program, the metadata command as the container's
command and no entrypoint of its own). Our scoring command scores each board as the host does; every command a
participant's upload could carry in the prediction step runs nothing, says one line and leaves no answer in any
stream or output file; without the guard the same command would have read them.
"""
import fcntl
import json
import os
import resource
import shlex
import shutil
import subprocess
import uuid

import pytest

from helpers import ROOT, organizer, run_score
from test_answers_image import flattened, image_input, plain_input
from test_review_determinism import sample_files

from organizer import bundle, guard
from organizer.phase_data import answer_entries, phase_entries, write_entries

BASE = "localhost/scoring-program:answers-base"
IMAGE = "localhost/scoring-answers:test-%s" % uuid.uuid4().hex[:8]   # one per test process (xdist workers)
BASE_LOCK = "/tmp/scoring-answers-base.lock"   # one build of the shared base tag at a time
SKIPPED = 77
CAP_DROP = ("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "NET_RAW",
            "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT")   # compute_worker.py cap_drop_list
OUR_COMMAND = "python3 /app/program/score.py /app/input /app/output"   # the metadata command, as the worker gives it
ANSWERS_A = "/opt/competition/answers/A/gold.csv"


def podman():
    cmd = ["podman"]
    if shutil.which("runc"):
        cmd += ["--runtime", "runc"]
    try:
        init = open("/proc/1/comm").read().strip()
    except OSError:
        init = ""
    if init != "systemd":
        cmd += ["--cgroup-manager", "cgroupfs", "--events-backend", "file"]
    return cmd


def limits():
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    nproc = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    nofile = 1048576 if nofile == resource.RLIM_INFINITY else nofile
    nproc = 32768 if nproc == resource.RLIM_INFINITY or nproc > 32768 else nproc
    return ["--ulimit", "nofile=%d:%d" % (nofile, nofile), "--ulimit", "nproc=%d:%d" % (nproc, nproc)]


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    """The answers image of the shipped competition, built FROM the project's image; its build context."""
    if os.geteuid() != 0 or not shutil.which("bash"):
        pytest.skip("needs root (rootful podman), as tools/docker_check.sh")
    with open(BASE_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(["bash", str(ROOT / "tools" / "docker_check.sh")], cwd=str(ROOT),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1800,
                              env=dict(os.environ, DOCKER_CHECK_IMAGE=BASE, DOCKER_CHECK_BUILD_ONLY="1"))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stderr.strip().splitlines()[-1])
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    context = tmp_path_factory.mktemp("image") / "context"
    made = organizer("image", ".", context, "--tag", IMAGE, "--base", BASE)
    assert made.returncode == 0, made.stderr
    built = subprocess.run(podman() + ["build", "--no-cache", "--pull=never", "--network", "none"] + limits()
                           + ["-t", IMAGE, str(context)], capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert "scoring image: program %s, 2 answers folder(s)" % json.loads(
        (context / "guard.json").read_text())["digest"][:12] in built.stdout + built.stderr
    yield context
    subprocess.run(podman() + ["rmi", "-f", IMAGE], capture_output=True)


def run_as_codabench(program, command, tmp_path, input_dir=None, entrypoint=None):
    """One container as the worker starts it; (exit code, stdout, stderr, {output file: bytes})."""
    run = tmp_path / ("run_" + uuid.uuid4().hex[:8])
    output, data = run / "output", run / "data"
    output.mkdir(parents=True)
    data.mkdir()
    mounts = ["-v", "%s:/app/program" % program, "-v", "%s:/app/output" % output, "-v", "%s:/app/data:ro" % data]
    if input_dir is not None:   # the scoring step: /app/shared and /app/input too
        (run / "shared").mkdir()
        mounts += ["-v", "%s:/app/shared" % (run / "shared"), "-v", "%s:/app/input" % input_dir]
    options = ["run", "--rm", "--network", "none", "--security-opt", "no-new-privileges", "-w", "/app/program",
               "-e", "PYTHONUNBUFFERED=1"] + limits()
    for cap in CAP_DROP:
        options += ["--cap-drop", cap]
    if entrypoint is not None:
        options += ["--entrypoint", entrypoint]
    proc = subprocess.run(podman() + options + mounts + [IMAGE] + shlex.split(command), capture_output=True,
                          timeout=600)
    files = {p.relative_to(output).as_posix(): p.read_bytes() for p in output.rglob("*") if p.is_file()}
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"), files


def gold_lines():
    lines = set()
    for board in ("A", "B"):
        lines |= set(answer_entries(ROOT, board)["gold.csv"].decode("utf-8").splitlines()[1:])
    kit = set((ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8").splitlines())
    return lines - kit


def holds_no_answer(*texts):
    gold = gold_lines()
    return all(not gold & set(t.decode("utf-8", "replace").splitlines() if isinstance(t, bytes) else t.splitlines())
               for t in texts)


def bundled_program(tmp_path, name="program"):
    """The scoring program as the worker unpacks the bundle's scoring_program.zip."""
    return write_entries(flattened(bundle.program_zip(ROOT)), tmp_path / name)


@pytest.mark.parametrize("board, reveal", [("A", False), ("B", False), ("B", True)])
def test_our_scoring_command_scores_each_board_as_the_host(image, board, reveal, tmp_path):
    files = sample_files("bank_comments")
    plain = plain_input(tmp_path, ROOT, board, files, reveal)
    assert run_score(plain / "in", plain / "out").returncode == 0
    ref = write_entries(phase_entries(ROOT, board, reveal, answers_dir="/opt/competition/answers/%s" % board),
                        tmp_path / "in" / "ref")
    assert not (ref / "gold.csv").exists()
    (tmp_path / "in" / "res").mkdir()
    (tmp_path / "in" / "res" / "sample_submission.csv").write_bytes(files["sample_submission.csv"])
    code, out, err, written = run_as_codabench(bundled_program(tmp_path), OUR_COMMAND, tmp_path, tmp_path / "in")
    assert code == 0, err
    for name in ("scores.json", "scores.txt"):
        assert written[name] == (plain / "out" / name).read_bytes()
    assert "detailed_results.html" in written


PARTICIPANT_COMMANDS = {
    "cat": "cat %s /opt/competition/answers/B/gold.csv" % ANSWERS_A,
    "python": "python3 -c \"print(open('%s').read()); open('/app/output/a.csv', 'w').write(open('%s').read())\""
              % (ANSWERS_A, ANSWERS_A),
    "shell": "sh -c 'cp -r /opt/competition/answers /app/output/; cat /opt/competition/answers/*/*'",
    "guard_again": "python3 -I /opt/competition/guard.py cat %s" % ANSWERS_A,
}


@pytest.mark.parametrize("attempt", sorted(PARTICIPANT_COMMANDS))
def test_a_participants_command_runs_nothing(image, attempt, tmp_path):
    upload = tmp_path / "upload"
    upload.mkdir()
    (upload / "metadata").write_text("command: %s\n" % PARTICIPANT_COMMANDS[attempt])
    code, out, err, written = run_as_codabench(upload, PARTICIPANT_COMMANDS[attempt], tmp_path)
    assert code == 1 and out == "" and written == {}
    assert err == guard.refused_line("zh") + "\n"   # the shipped competition is Chinese


def test_without_the_guard_the_same_command_would_read_the_answers(image, tmp_path):
    # what the guard stands between: the image does hold the answers, readable by a command that runs
    upload = tmp_path / "upload"
    upload.mkdir()
    code, out, err, _ = run_as_codabench(upload, ANSWERS_A, tmp_path, entrypoint="cat")
    assert code == 0 and not holds_no_answer(out)


@pytest.mark.parametrize("trick", ["one_byte", "symlink_to_baked", "extra_file", "our_program_no_input"])
def test_our_command_over_another_program_folder_reads_no_answer(image, trick, tmp_path):
    program = bundled_program(tmp_path)
    if trick == "one_byte":
        (program / "score.py").write_bytes((program / "score.py").read_bytes() + b"#")
    elif trick == "symlink_to_baked":   # each file a link to the image's own copy: the same bytes, through links
        for path in sorted(p for p in program.rglob("*") if p.is_file()):
            rel = path.relative_to(program).as_posix()
            path.unlink()
            path.symlink_to("/opt/competition/program/" + rel)
    elif trick == "extra_file":
        (program / "leak.py").write_text("print(open('%s').read())\n" % ANSWERS_A)
    # else exactly our program and command, in the prediction step (no /app/input): a participant's copy
    code, out, err, written = run_as_codabench(program, OUR_COMMAND, tmp_path)
    assert code == 1 and err == guard.refused_line("zh") + "\n" and out == "" and written == {}
    assert holds_no_answer(out, err, *written.values())
