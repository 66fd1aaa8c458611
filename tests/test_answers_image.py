"""The answers in a private scoring image (answers_dir, python3 -m organizer image, bundle --answers-image).

On Codabench every phase's reference data is public, so a live board's answers are downloadable by anyone. With
``answers_dir`` a phase's config.yaml reads its answer files from a folder of the scoring image instead: these tests
hold the scores to those of the ordinary phase data on every shipped board, the bundle to holding no answer at all,
the config key, the linter and the image command to what they promise, and the image's guard (organizer/guard.py)
to running our program and nothing else. tests/test_answers_image_container.py runs the guard in a real container.
"""
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, organizer, run_score, run_score_process, write_files
from test_review_determinism import DEMOS, sample_files

from organizer import bundle, guard
from organizer.answers_image import AnswersImage, answers_folder
from organizer.image import build_context, scoring_argv, write_answers
from organizer.layout import board_configs
from organizer.phase_data import answer_entries, assemble_reference, phase_entries, write_entries
from scorer.config import parse_config
from scorer.errors import ConfigError
from scorer.publish.provenance import tree_digest
from scorer.tasks import families

TAG = "registry.example.org/team/bank-answers:1"
QUEUE = "80dfd1db-d95e-4007-a641-a44b51b744fe"
IMAGE = AnswersImage(TAG, QUEUE)


def image_input(tmp_path, competition, board, files, reveal=False, name="image"):
    """An INPUT folder whose ref/ reads its answers from a local stand-in of the image's folder of ``board``."""
    base = tmp_path / name
    answers = write_entries(answer_entries(competition, board), base / "answers" / board)
    write_entries(phase_entries(competition, board, reveal, answers_dir=str(answers)), base / "in" / "ref")
    write_files(base / "in" / "res", files)
    return base


def plain_input(tmp_path, competition, board, files, reveal=False, name="plain"):
    base = tmp_path / name
    assemble_reference(competition / "reference_data", board, base / "in" / "ref", reveal)
    write_files(base / "in" / "res", files)
    return base


# -- the scores: the same as the ordinary phase data, on every shipped board ---------------------------------
@pytest.mark.parametrize("family", sorted(DEMOS))
@pytest.mark.parametrize("board, reveal", [("A", False), ("B", False), ("B", True)])
def test_answers_read_from_the_image_score_as_the_phase_data_does(family, board, reveal, tmp_path):
    competition = DEMOS[family][0]
    files = sample_files(family)
    runs = []
    for make in (plain_input, image_input):
        base = make(tmp_path, competition, board, files, reveal)
        proc = run_score(base / "in", base / "out")
        assert proc.returncode == 0, proc.stderr
        runs.append(base)
    plain, image = runs
    for name in ("scores.json", "scores.txt"):
        assert (image / "out" / name).read_bytes() == (plain / "out" / name).read_bytes(), name
    # the reference data holds no answer file; the answers are only in the image's folder
    answers = set(answer_entries(competition, board))
    assert answers and not answers & {p.name for p in (image / "in" / "ref").rglob("*")}
    values = set(json.loads((image / "out" / "scores.json").read_text()).values())
    assert (values == {-1.0}) == (board == "B" and not reveal)


def test_the_image_answers_of_a_board_are_its_revealed_phase_answers():
    for board in ("A", "B"):
        revealed = phase_entries(ROOT, board, reveal=True)
        assert answer_entries(ROOT, board) == {"gold.csv": revealed["gold.csv"]}
    a, b = (set(answer_entries(ROOT, x)["gold.csv"].decode().splitlines()[1:]) for x in "AB")
    assert a and b and not a & b


def test_a_sealed_board_reads_nothing_from_the_image_even_when_its_folder_is_missing(tmp_path):
    ref = write_entries(phase_entries(ROOT, "B", answers_dir="/nonexistent/answers/B"), tmp_path / "in" / "ref")
    write_files(tmp_path / "in" / "res", sample_files("bank_comments"))
    proc = run_score(tmp_path / "in", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads((tmp_path / "out" / "scores.json").read_text()).values()) == {-1.0}
    assert "answers_dir: /nonexistent/answers/B" in (ref / "config.yaml").read_text()


def test_a_missing_answers_folder_is_a_reference_data_error(tmp_path, monkeypatch):
    write_entries(phase_entries(ROOT, "A", answers_dir="/nonexistent/answers/A"), tmp_path / "in" / "ref")
    write_files(tmp_path / "in" / "res", sample_files("bank_comments"))
    monkeypatch.delenv("SCORER_ORGANIZER", raising=False)
    proc = run_score_process(tmp_path / "in", tmp_path / "out")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    env = dict(os.environ, SCORER_ORGANIZER="1")
    full = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(tmp_path / "in"),
                           str(tmp_path / "out3")], capture_output=True, text=True, env=env, timeout=300)
    assert full.returncode == 2
    assert "answers_dir '/nonexistent/answers/A', which is not a folder here" in full.stderr


# -- the config key ----------------------------------------------------------------------------------------
BASE = {"task": "bank_comments", "board": "A", "public_inputs": "public"}


@pytest.mark.parametrize("value", ["answers/A", "./answers", "/opt/../etc", "/opt//x", "/", "", 7, ["/x"],
                                   "/opt/x\\y", "/ref/answers", "/ref", "/" + "a" * 300])
def test_answers_dir_is_an_absolute_folder_outside_the_reference_data(value):
    with pytest.raises(ConfigError) as err:
        parse_config(dict(BASE, answers_dir=value), families(), ref_dir="/ref")
    assert err.value.exit_code == 2
    assert "answers_dir" in err.value.message and "outside the reference data" in err.value.message


def test_answers_dir_needs_public_inputs():
    raw = {"task": "bank_comments", "board": "all", "answers_dir": "/opt/competition/answers/A"}
    with pytest.raises(ConfigError) as err:
        parse_config(raw, families(), ref_dir="/ref")
    assert "public_inputs" in err.value.message


def test_answers_dir_moves_the_answer_files_only():
    cfg = parse_config(dict(BASE, answers_dir="/opt/competition/answers/A/"), families(), ref_dir="/app/input/ref")
    assert cfg.answers_dir == "/opt/competition/answers/A"
    assert cfg.path("gold") == "/opt/competition/answers/A/gold.csv"
    multilabel = parse_config({"task": "multilabel", "board": "A", "public_inputs": "public",
                               "answers_dir": "/opt/a"}, families(), ref_dir="/r")
    assert multilabel.path("gold") == "/opt/a/gold.csv" and multilabel.path("labels") == "/r/labels.txt"
    plain = parse_config(BASE, families(), ref_dir="/r")
    assert plain.answers_dir is None and plain.path("gold") == "/r/gold.csv"


def test_a_bad_answers_dir_stops_score_py_with_exit_2_and_one_line(tmp_path):
    ref = write_entries(phase_entries(ROOT, "A", answers_dir="/opt/competition/answers/A"), tmp_path / "in" / "ref")
    text = (ref / "config.yaml").read_text(encoding="utf-8")
    (ref / "config.yaml").write_text(text.replace("answers_dir: /opt/competition/answers/A",
                                                  "answers_dir: answers/A"), encoding="utf-8")
    write_files(tmp_path / "in" / "res", sample_files("bank_comments"))
    proc = run_score_process(tmp_path / "in", tmp_path / "out")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "answers_dir" in proc.stderr


# -- the bundle: no answer in any zip --------------------------------------------------------------------------
def flattened(data, prefix=""):
    """{path: bytes} of a zip and of every zip inside it."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.endswith("/"):
                continue
            content = archive.read(name)
            if name.endswith(".zip"):
                out.update(flattened(content, prefix + name + "!"))
            else:
                out[prefix + name] = content
    return out


def answers_found(files, competition):
    """The answers of any board that some file holds: a CSV answer row as a line of the file (but rows the starting
    kit has too: a baseline's row may be right), a JSON answer entry as an entry of a JSON list of the file."""
    found = []
    kit = set()
    for data in bundle.starting_kit_entries(competition).values():
        kit.update(data.decode("utf-8", "replace").splitlines())
    for board in board_configs(Path(competition) / "reference_data"):
        for name, data in answer_entries(competition, board).items():
            if name.endswith(".json"):
                wanted = {json.dumps(e, sort_keys=True, ensure_ascii=False) for e in json.loads(data)}
                for path, content in files.items():
                    try:
                        value = json.loads(content.decode("utf-8-sig"))
                    except ValueError:
                        continue
                    if isinstance(value, list) and any(json.dumps(e, sort_keys=True, ensure_ascii=False) in wanted
                                                       for e in value if isinstance(e, dict)):
                        found.append((board, name, path))
                continue
            rows = set(data.decode("utf-8").splitlines()[1:]) - kit
            for path, content in files.items():
                if rows & set(content.decode("utf-8", "replace").splitlines()):
                    found.append((board, name, path))
    return found


@pytest.mark.parametrize("family", sorted(DEMOS))
@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_no_zip_of_an_image_bundle_holds_an_answer(family, fmt):
    competition = DEMOS[family][0]
    build = bundle.build_v1 if fmt == "v1" else bundle.build_v2
    files = flattened(build(competition, IMAGE))
    assert answers_found(files, competition) == []
    # the scan finds them where they are: board A's phase of the ordinary bundle holds board A's answers
    ordinary = {(b, n) for b, n, _ in answers_found(flattened(build(competition)), competition)}
    assert {b for b, _ in ordinary} == {"A"}
    for name, data in files.items():
        if name.startswith("reference_data_") and name.endswith("!config.yaml"):
            board = name[len("reference_data_"):].split(".zip")[0]
            assert yaml.safe_load(data)["answers_dir"] == answers_folder(board)


@pytest.mark.parametrize("fmt", ["v1", "v2"])
def test_an_image_bundle_names_the_image_and_the_queue(fmt):
    build = bundle.build_v1 if fmt == "v1" else bundle.build_v2
    comp = yaml.safe_load(zipfile.ZipFile(io.BytesIO(build(ROOT, IMAGE))).read("competition.yaml"))
    assert comp["queue"] == QUEUE
    assert comp["competition_docker_image" if fmt == "v1" else "docker_image"] == TAG
    ordinary = yaml.safe_load(zipfile.ZipFile(io.BytesIO(build(ROOT))).read("competition.yaml"))
    assert "queue" not in ordinary
    if fmt == "v1":   # everything else as the organizer wrote it
        assert {k: v for k, v in comp.items() if k not in ("queue", "competition_docker_image")} == \
               {k: v for k, v in ordinary.items() if k != "competition_docker_image"}


def test_the_bundle_command_lints_an_image_bundle_with_its_answers(tmp_path):
    proc = organizer("bundle", ".", tmp_path / "b.zip", "--format", "v2", "--answers-image", TAG, "--queue", QUEUE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 error(s), 0 warning(s)" in proc.stdout
    proc = organizer("check", tmp_path / "b.zip")
    assert "[answers-not-checked]" in proc.stdout and proc.returncode == 0
    context = tmp_path / "ctx"
    build_context(ROOT, context, TAG)
    proc = organizer("check", tmp_path / "b.zip", "--answers", context / "answers")
    assert "0 error(s), 0 warning(s)" in proc.stdout, proc.stdout


@pytest.mark.parametrize("args, fragment", [
    (["--answers-image", TAG], "--answers-image and --queue go together"),
    (["--queue", QUEUE], "--answers-image and --queue go together"),
    (["--answers-image", TAG, "--queue", "org1-private-queue"], "is not a queue's vhost"),
    (["--answers-image", "Not An Image", "--queue", QUEUE], "is not an image reference"),
])
def test_the_bundle_options_refuse_a_wrong_combination_in_one_line(args, fragment, tmp_path):
    proc = organizer("bundle", ".", tmp_path / "b.zip", *args)
    assert proc.returncode == 2 and fragment in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "b.zip").exists()


# -- the image's build context ---------------------------------------------------------------------------------
def test_the_build_context_holds_every_board_the_program_and_the_guard(tmp_path):
    out = tmp_path / "ctx"
    proc = organizer("image", ".", out, "--tag", TAG, "--queue", QUEUE)
    assert proc.returncode == 0, proc.stderr
    assert "docker push %s" % TAG in proc.stdout and "--answers-image %s --queue %s" % (TAG, QUEUE) in proc.stdout
    for board in ("A", "B"):
        assert {p.name: p.read_bytes() for p in (out / "answers" / board).iterdir()} == answer_entries(ROOT, board)
    settings = json.loads((out / "guard.json").read_text())
    assert settings["digest"] == tree_digest(str(ROOT / "scoring_program")) == tree_digest(str(out / "program"))
    assert settings["argv"] == ["python3", "/app/program/score.py", "/app/input", "/app/output"]
    assert settings["run"] == ["/opt/competition/program/score.py", "/app/input", "/app/output"]
    assert settings["answers"] == ["/opt/competition/answers/A", "/opt/competition/answers/B"]
    assert settings["language"] == "zh"
    assert (out / "guard.py").read_bytes() == (ROOT / "organizer" / "guard.py").read_bytes()
    dockerfile = (out / "Dockerfile").read_text()
    assert "FROM codalab/codalab-legacy:py312\n" in dockerfile
    assert 'ENTRYPOINT ["python3", "-I", "/opt/competition/guard.py"]\n' in dockerfile
    # the bundle's program is the image's: the same digest from the zip's files
    program = flattened(bundle.program_zip(ROOT))
    write_entries(program, tmp_path / "zipped")
    assert tree_digest(str(tmp_path / "zipped")) == settings["digest"]


def test_the_image_command_refuses_in_one_line(tmp_path):
    proc = organizer("image", ".", tmp_path / "ctx", "--tag", "UPPER/Case")
    assert proc.returncode == 2 and "is not an image reference" in proc.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    proc = organizer("image", ".", tmp_path / "full", "--tag", TAG)
    assert proc.returncode == 2 and "is not empty" in proc.stderr
    assert (tmp_path / "full" / "x").read_text() == "x"


def test_scoring_argv_is_what_codabench_gives_the_container():
    # compute_worker.py replace_legacy_metadata_command (scoring step) then docker-py's shlex.split
    assert scoring_argv("python3 $program/score.py $input $output") == \
        ["python3", "/app/program/score.py", "/app/input", "/app/output"]
    assert scoring_argv("python $program/s.py $hidden $predictions $output") == \
        ["python", "/app/program/s.py", "/app/input/ref", "/app/input/res", "/app/output"]


# -- the guard, on this machine (the container test runs it for real) ----------------------------------------
@pytest.fixture
def baked(tmp_path):
    """A stand-in of the image: the program baked at PROGRAM, guard.json; /app/program as the worker mounts it."""
    program = write_entries(flattened(bundle.program_zip(ROOT)), tmp_path / "baked")
    settings = {"argv": ["python3", "/app/program/score.py", "/app/input", "/app/output"],
                "run": [str(program / "score.py"), "/app/input", "/app/output"], "digest": tree_digest(str(program)),
                "program": str(program), "language": "en", "answers": []}
    (tmp_path / "guard.json").write_text(json.dumps(settings))
    mounted = write_entries(flattened(bundle.program_zip(ROOT)), tmp_path / "mounted")
    return tmp_path / "guard.json", mounted, settings


def run_guard(settings_path, argv, mounted, input_dir=None):
    ran = []
    if input_dir is None:   # the scoring step's mount
        input_dir = Path(settings_path).parent / "input"
        input_dir.mkdir(exist_ok=True)
    code = guard.main(argv, settings_path, str(mounted), str(input_dir), execute=lambda *a: ran.append(a))
    return code, ran


def test_the_guard_runs_the_baked_program_for_the_scoring_command_only(baked, capsys):
    path, mounted, settings = baked
    code, ran = run_guard(path, settings["argv"], mounted)
    assert code == 0 and ran and ran[0][1][1:] == settings["run"]
    # the prediction step (no /app/input): our own program and command are a participant's copy, and run nothing
    code = guard.main(settings["argv"], path, str(mounted), "/nonexistent", execute=lambda *a: ran.append(a))
    assert code == 1 and len(ran) == 1 and capsys.readouterr().err == guard.refused_line("en") + "\n"
    for argv in (["cat", "/opt/competition/answers/A/gold.csv"], settings["argv"] + ["x"], settings["argv"][:-1],
                 ["python3", "-c", "print(open('/opt/competition/answers/A/gold.csv').read())"], []):
        code, ran = run_guard(path, argv, mounted)
        err = capsys.readouterr().err
        assert code == 1 and not ran and err == guard.refused_line("en") + "\n"


@pytest.mark.parametrize("change", ["byte", "extra", "pycache", "symlink", "link_to_baked", "missing", "fifo"])
def test_the_guard_refuses_a_program_folder_that_is_not_exactly_ours(change, baked, tmp_path, capsys):
    path, mounted, settings = baked
    score = mounted / "score.py"
    if change == "byte":
        score.write_bytes(score.read_bytes() + b" ")
    elif change == "extra":
        (mounted / "read.py").write_text("print(open('/opt/competition/answers/A/gold.csv').read())\n")
    elif change == "pycache":
        (mounted / "scorer" / "__pycache__").mkdir()
        (mounted / "scorer" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"\0")
    elif change == "symlink":
        data = score.read_bytes()
        score.unlink()
        (tmp_path / "elsewhere.py").write_bytes(data)
        score.symlink_to(tmp_path / "elsewhere.py")   # same bytes through a link: refused all the same
    elif change == "link_to_baked":
        os.rename(mounted, tmp_path / "gone")
        mounted.symlink_to(Path(settings["program"]), target_is_directory=True)
    elif change == "missing":
        (mounted / "metadata").unlink()
    elif change == "fifo":
        os.mkfifo(mounted / "scorer" / "pipe")
    code, ran = run_guard(path, settings["argv"], mounted, input_dir="/nonexistent")   # the prediction step
    assert code == 1 and not ran
    assert capsys.readouterr().err == guard.refused_line("en") + "\n"


def test_the_guard_tells_the_organizer_when_the_scoring_step_mounts_another_program(baked, tmp_path, capsys):
    path, mounted, settings = baked
    (mounted / "score.py").write_bytes((mounted / "score.py").read_bytes() + b"\n")
    code, ran = run_guard(path, settings["argv"], mounted)
    err = capsys.readouterr().err
    assert code == 2 and not ran and len(err.splitlines()) == 1
    assert "is not the scoring program this image was built for" in err and settings["digest"][:12] in err


def test_the_guard_speaks_the_competition_language(baked, capsys):
    path, mounted, settings = baked
    path.write_text(json.dumps(dict(settings, language="zh")))
    assert run_guard(path, ["cat", "x"], mounted)[0] == 1
    assert capsys.readouterr().err == "%s\n" % guard.REFUSED["zh"]


def test_a_broken_image_is_the_organizers_one_line(tmp_path, capsys):
    assert guard.main(["x"], str(tmp_path / "missing.json"), "/nonexistent") == 2
    assert capsys.readouterr().err.startswith("scoring image: the guard cannot check the command")


def test_write_answers_fills_every_board(tmp_path):
    assert write_answers(ROOT, tmp_path) == ["A", "B"]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == \
        ["A/gold.csv", "B/gold.csv"]


def test_the_reveal_of_an_image_competition_uploads_no_answer_and_scores_as_the_revealed_data(tmp_path):
    proc = organizer("reveal", ".", "B", tmp_path / "reveal_B.zip", "--answers-in-image")
    assert proc.returncode == 0, proc.stderr
    assert "no answer (they are in /opt/competition/answers/B of the scoring image)" in proc.stdout
    files = flattened((tmp_path / "reveal_B.zip").read_bytes())
    assert sorted(files) == ["config.yaml", "public/test_public.csv"]
    config = yaml.safe_load(files["config.yaml"])
    assert config["report"] == "full" and config["answers_dir"] == "/opt/competition/answers/B"
    # with the image's answers of board B, it scores as the ordinary revealed data
    sample = sample_files("bank_comments")
    image = image_input(tmp_path, ROOT, "B", sample, reveal=True)
    write_entries(files, image / "in" / "ref")
    text = (image / "in" / "ref" / "config.yaml").read_text(encoding="utf-8")
    (image / "in" / "ref" / "config.yaml").write_text(text.replace(
        "/opt/competition/answers/B", str(image / "answers" / "B")), encoding="utf-8")
    plain = plain_input(tmp_path, ROOT, "B", sample, reveal=True)
    for base in (image, plain):
        assert run_score(base / "in", base / "out").returncode == 0
    assert (image / "out" / "scores.json").read_bytes() == (plain / "out" / "scores.json").read_bytes()
    assert -1.0 not in json.loads((image / "out" / "scores.json").read_text()).values()
