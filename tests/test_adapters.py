"""The EvalAI challenge `python3 -m organizer evalai` writes, checked as EvalAI checks it and run as its worker runs it;
numbers from seqeval + scikit-learn (the Kaggle metric: test_adapters_kaggle.py).

Sources (Cloud-CV/EvalAI @0f04039):
- apps/challenges/views.py, ``create_challenge_using_zip_file`` (the zip upload) and
  apps/challenges/challenge_config_utils.py, ``ValidateChallengeConfigUtil`` / ``validate_challenge_config_util``
  (the same checks for a challenge repository): what challenge_config.yaml must hold;
- apps/challenges/serializers.py (``ZipChallengeSerializer``, ``ChallengePhaseCreateSerializer``,
  ``DatasetSplitSerializer``, ``ZipChallengePhaseSplitSerializer``, ``LeaderboardSerializer``): the keys read;
- apps/jobs/utils.py, ``calculate_distinct_sorted_leaderboard_data``: how the leaderboard is ordered and hidden;
- scripts/workers/submission_worker.py, ``extract_challenge_data`` and ``run_submission``: how the evaluation
  script is imported and called, and what becomes of its output, its streams and its exceptions.
"""
import datetime as dt
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, write_files
from bundle_shared import bank_oracle, board_ids, comp_id, competitions, members, read_csv, sample_submission

from organizer import bundle  # noqa: E402
from organizer import evalai  # noqa: E402

GOLD = ROOT / "reference_data" / "gold.csv"
SAMPLE = ROOT / "starting_kit" / "sample_submission.csv"

# run_submission, restated: evaluate() runs with sys.stdout / sys.stderr sent both to the worker's own streams and
# to the submission's files (MultiOut); an exception's traceback is written to the stderr file; the submission is
# FINISHED only when the output has "result" and every split codename in it is linked to the phase
# (ChallengePhaseSplit.objects.get(challenge_phase=..., dataset_split__codename=...)); the stdout file is kept,
# the stderr file only for a FAILED submission. The worker imports the script unzipped into
# challenge_data/challenge_<id>/ as the package challenge_data.challenge_<id> (extract_challenge_data).
WORKER = r"""
import importlib, io, json, sys, traceback
sys.path.insert(0, sys.argv[1])
annotation, upload, codename, linked = sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])

class MultiOut:
    def __init__(self, *handles):
        self.handles = handles
    def write(self, s):
        for f in self.handles:
            f.write(s)
    def flush(self):
        for f in self.handles:
            f.flush()

module = importlib.import_module("challenge_data.challenge_7")
stdout, stderr = io.StringIO(), io.StringIO()
output, finished = None, True
try:
    sys.stdout, sys.stderr = MultiOut(stdout, sys.__stdout__), MultiOut(stderr, sys.__stderr__)
    try:
        output = module.evaluate(annotation, upload, codename, submission_metadata={"participant_team": 1})
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if "result" in output:
        for split in output["result"]:
            if list(split.keys())[0] not in linked:
                stderr.write("ORGINIAL EXCEPTION: No such relation between Challenge Phase and DatasetSplit\n")
                finished = False
                break
    else:
        finished = False
except Exception:
    stderr.write(traceback.format_exc())
    finished, output = False, None
print("\n" + json.dumps({"status": "FINISHED" if finished else "FAILED", "stdout": stdout.getvalue(),
                         "stderr": None if finished else stderr.getvalue(),
                         "result": output.get("result") if finished else None,
                         "submission_result": output.get("submission_result") if finished else None}))
"""


class Challenge:
    """A built challenge: its config, its files, and an emulated worker with its evaluation script loaded."""

    def __init__(self, competition, base):
        self.zip = evalai.build(competition, base / "challenge")
        with zipfile.ZipFile(self.zip) as archive:
            self.files = {n: archive.read(n) for n in archive.namelist()}
        self.config = yaml.safe_load(self.files["challenge_config.yaml"].decode("utf-8"))
        self.base = base
        package = base / "worker" / "challenge_data" / "challenge_7"
        package.mkdir(parents=True)
        (package.parent / "__init__.py").write_text("", encoding="utf-8")
        with zipfile.ZipFile(io.BytesIO(self.files[self.config["evaluation_script"]])) as archive:
            archive.extractall(package)

    def phase(self, board):
        return next(p for p in self.config["challenge_phases"] if p["codename"] == "board_%s" % board.lower())

    def linked(self, phase):
        splits = {s["id"]: s["codename"] for s in self.config["dataset_splits"]}
        return [splits[s["dataset_split_id"]] for s in self.config["challenge_phase_splits"]
                if s["challenge_phase_id"] == phase["id"]]

    def annotation(self, board):
        path = self.base / "annotation_{}.zip".format(board)
        path.write_bytes(self.files[self.phase(board)["test_annotation_file"]])
        return path

    def submit(self, board, upload, annotation=None):
        """What the worker makes of one submission to the phase of ``board``, and the worker's own log."""
        phase = self.phase(board)
        # -E -s and a cwd outside the project: only the engine copied into the script can be imported
        proc = subprocess.run([sys.executable, "-E", "-s", "-c", WORKER, str(self.base / "worker"),
                               str(annotation or self.annotation(board)), str(upload), phase["codename"],
                               json.dumps(self.linked(phase))],
                              capture_output=True, text=True, cwd=str(self.base), timeout=600)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    return Challenge(ROOT, tmp_path_factory.mktemp("evalai"))


# -- challenge_config.yaml as EvalAI checks it --------------------------------------------------------
# Keys EvalAI reads. Challenge: ZipChallengeSerializer.Meta.fields (those we write) + the four lists the upload
# view and ValidateChallengeConfigUtil read. Phase: ChallengePhaseCreateSerializer.Meta.fields + id (its
# config_id) + test_annotation_file. Dataset split: DatasetSplitSerializer (id, name, codename). Phase split:
# the expected_keys of validate_challenge_phase_splits. Leaderboard: id + schema (labels, default_order_by,
# metadata: calculate_distinct_sorted_leaderboard_data reads metadata[default_order_by]["sort_ascending"]).
CHALLENGE_KEYS = {"title", "short_description", "description", "evaluation_details", "terms_and_conditions",
                  "submission_guidelines", "image", "leaderboard_description", "evaluation_script",
                  "remote_evaluation", "is_docker_based", "worker_python_version", "start_date", "end_date",
                  "leaderboard", "challenge_phases", "dataset_splits", "challenge_phase_splits"}
PHASE_KEYS = {"id", "name", "description", "leaderboard_public", "start_date", "end_date", "max_submissions_per_day",
              "max_submissions_per_month", "max_submissions", "is_public", "codename", "test_annotation_file",
              "is_submission_public", "is_restricted_to_select_one_submission"}
PHASE_SPLIT_KEYS = {"challenge_phase_id", "leaderboard_id", "dataset_split_id", "visibility",
                    "leaderboard_decimal_precision", "is_leaderboard_order_descending"}


def check_challenge_zip(files):
    """The checks of create_challenge_using_zip_file and ValidateChallengeConfigUtil, restated."""
    # exactly one YAML file in the zip, __MACOSX aside (create_challenge_using_zip_file: "There are {0} YAML files
    # instead of one"; get_yaml_files_from_challenge_config wants it named challenge_config.yaml)
    yamls = [n for n in files if n.endswith((".yaml", ".yml")) and not n.startswith("__MACOSX")]
    assert yamls == ["challenge_config.yaml"]
    config = yaml.safe_load(files["challenge_config.yaml"].decode("utf-8"))
    assert set(config) <= CHALLENGE_KEYS, set(config) - CHALLENGE_KEYS
    # validate_challenge_title; Challenge.title max_length=100
    assert isinstance(config["title"], str) and 0 < len(config["title"]) <= 100
    # the SQS queue: get_queue_name keeps the word characters of the title's first 50 characters (apps/base/utils.py);
    # SQS takes ASCII letters, digits, - and _ only
    queue = re.sub(r"\W+", "-", config["title"].replace(" ", "-").lower()[:50])
    assert re.fullmatch(r"[-a-z0-9_]*", queue), queue
    # validate_challenge_description, _evaluation_details_file, _terms_and_conditions_file,
    # _submission_guidelines_file: is_challenge_config_yaml_html_field_valid (a file of the zip, ending .html)
    for key in ("description", "evaluation_details", "terms_and_conditions", "submission_guidelines"):
        assert config[key].endswith(".html") and files[config[key]], key
    # validate_challenge_logo: a .jpg/.jpeg/.png file of the zip (else no logo, not an error)
    assert config["image"].endswith((".png", ".jpg", ".jpeg")) and files[config["image"]]
    # validate_evaluation_script_file: the key, ending .zip, a file of the zip
    assert config["evaluation_script"].endswith(".zip") and config["evaluation_script"] in files
    # validate_dates: both dates, start <= end
    assert isinstance(config["start_date"], dt.datetime) and config["start_date"] <= config["end_date"]
    # Challenge.worker_python_version: one of SUPPORTED_WORKER_PYTHON_VERSIONS (apps/challenges/constants.py)
    assert config["worker_python_version"] in ("3.7", "3.8", "3.9")
    # validate_leaderboards: id, schema with labels and default_order_by, default_order_by among the labels
    leaderboard_ids = []
    for board in config["leaderboard"]:
        assert set(board) == {"id", "schema"} and set(board["schema"]) <= {"labels", "default_order_by", "metadata"}
        schema = board["schema"]
        assert schema["default_order_by"] in schema["labels"]
        assert isinstance(schema["metadata"][schema["default_order_by"]]["sort_ascending"], bool)
        leaderboard_ids.append(board["id"])
    # validate_challenge_phases: a unique codename, a test_annotation_file of the zip, a description (its HTML
    # file is read by get_value_from_field), both dates with start <= end; ChallengePhase.name max_length=100
    codenames, phase_ids = [], []
    for phase in config["challenge_phases"]:
        assert set(phase) <= PHASE_KEYS, set(phase) - PHASE_KEYS
        assert phase["codename"] not in codenames
        codenames.append(phase["codename"])
        assert phase["test_annotation_file"] in files
        assert phase["description"].endswith(".html") and files[phase["description"]]
        assert phase["start_date"] <= phase["end_date"]
        assert 0 < len(phase["name"]) <= 100
        # create_challenge_using_zip_file: the phase's slug, through ChallengePhaseCreateSerializer's SlugField
        # (DRF 3.10.3, allow_unicode=False: ^[-a-zA-Z0-9_]+$); pk 12 stands for the challenge's
        slug = "{}-{}-{}".format(config["title"].split(" ")[0].lower(), phase["codename"].replace(" ", "-").lower(),
                                 12)[:198]
        assert re.fullmatch(r"[-a-zA-Z0-9_]+", slug), slug
        # is_submission_public with is_restricted_to_select_one_submission is refused (400)
        assert not (phase.get("is_submission_public") and phase.get("is_restricted_to_select_one_submission"))
        phase_ids.append(phase["id"])
    # validate_dataset_splits: a name and a unique codename
    split_codenames = [s["codename"] for s in config["dataset_splits"]]
    assert all(s["name"] for s in config["dataset_splits"]) and len(set(split_codenames)) == len(split_codenames)
    split_ids = [s["id"] for s in config["dataset_splits"]]
    # validate_challenge_phase_splits: the expected keys, ids that exist (is_challenge_phase_split_mapping_valid),
    # no triple twice; visibility one of ChallengePhaseSplit.VISIBILITY_OPTIONS (1 host, 2 owner and host, 3 public)
    triples = set()
    for link in config["challenge_phase_splits"]:
        assert set(link) == PHASE_SPLIT_KEYS
        assert link["challenge_phase_id"] in phase_ids and link["leaderboard_id"] in leaderboard_ids
        assert link["dataset_split_id"] in split_ids and link["visibility"] in (1, 2, 3)
        triple = (link["leaderboard_id"], link["challenge_phase_id"], link["dataset_split_id"])
        assert triple not in triples
        triples.add(triple)
    # the starting phase is the challenge's start; phases follow one another
    starts = [p["start_date"] for p in config["challenge_phases"]]
    assert starts == sorted(starts) and starts[0] == config["start_date"]
    return config


@pytest.mark.parametrize("competition", competitions(), ids=comp_id)
def test_the_challenge_passes_evalai_checks_and_scores_each_board_into_its_split(competition, tmp_path):
    challenge = Challenge(competition, tmp_path)
    config = check_challenge_zip(challenge.files)
    families = {p["codename"]: p for p in config["challenge_phases"]}
    assert sorted(families) == ["board_a", "board_b"]
    # the evaluation script: files at the zip root, a package whose __init__ gives evaluate (extract_challenge_data)
    script = members(challenge.files[config["evaluation_script"]])
    assert "__init__.py" in script and "main.py" in script and "scorer/api.py" in script
    upload = tmp_path / "upload.zip"
    upload.write_bytes(bundle.zip_bytes(sample_submission(competition)))
    for board, split, visibility in (("A", "public_split", 3), ("B", "private_split", 1)):
        phase = challenge.phase(board)
        assert challenge.linked(phase) == [split]
        link = next(s for s in config["challenge_phase_splits"] if s["challenge_phase_id"] == phase["id"])
        assert link["visibility"] == visibility       # board B is sealed in every shipped competition
        out, _ = challenge.submit(board, upload)
        assert out["status"] == "FINISHED", out
        [result] = out["result"]
        assert list(result) == [split]
        assert list(result[split]) == config["leaderboard"][0]["schema"]["labels"]


def test_bank_scores_equal_seqeval_and_sklearn_and_board_b_stays_hidden(bank, tmp_path):
    revealed = tmp_path / "reveal.zip"
    revealed.write_bytes(bundle.reference_zip(ROOT, "B", reveal=True))
    for board, split, annotation in (("A", "public_split", None), ("B", "private_split", revealed)):
        out, _ = bank.submit(board, SAMPLE, annotation=annotation)
        scores = out["result"][0][split]
        expected = bank_oracle(GOLD, SAMPLE, board_ids(ROOT, board))
        for key, value in expected.items():
            assert scores[key] == pytest.approx(value, abs=1e-9), (board, key)
        assert out["submission_result"] == scores and "score: " in out["stdout"]
    # while board B is sealed its phase's annotation holds no answer: the split gets placeholders, and what the
    # participant reads says only that the submission is valid
    out, _ = bank.submit("B", SAMPLE)
    assert set(out["result"][0]["private_split"].values()) == {-1.0}
    shown = json.dumps(out["submission_result"]) + out["stdout"]
    assert "提交已收到且格式有效" in shown  # the demo is a zh competition
    assert not any(("%.4f" % v)[:6] in shown for v in expected.values())
    ordering = bank.config["leaderboard"][0]["schema"]
    assert ordering["default_order_by"] == "score" and ordering["labels"][0] == "score"


def test_regression_scores_equal_sklearn_and_scipy_and_board_b_stays_hidden(tmp_path):
    import numpy as np
    from scipy import stats
    from sklearn import metrics as skm

    comp = ROOT / "examples" / "regression"
    challenge = Challenge(comp, tmp_path)
    sample = comp / "starting_kit" / "sample_submission.csv"
    gold = {r["id"]: float(r["value"]) for r in read_csv(comp / "reference_data" / "gold.csv")}
    pred = {r["id"]: float(r["value"]) for r in read_csv(sample)}
    revealed = tmp_path / "reveal.zip"
    revealed.write_bytes(bundle.reference_zip(comp, "B", reveal=True))
    for board, split, annotation in (("A", "public_split", None), ("B", "private_split", revealed)):
        ids = sorted(board_ids(comp, board))
        y, p = np.array([gold[i] for i in ids]), np.array([pred[i] for i in ids])
        expected = {"rmse": skm.mean_squared_error(y, p) ** 0.5, "mae": skm.mean_absolute_error(y, p),
                    "r2": skm.r2_score(y, p), "rmsle": skm.mean_squared_log_error(y, p) ** 0.5,
                    "spearman": stats.spearmanr(y, p)[0], "kendall": stats.kendalltau(y, p)[0]}
        out, _ = challenge.submit(board, sample, annotation=annotation)
        scores = out["result"][0][split]
        for key, value in expected.items():
            assert scores[key] == pytest.approx(value, rel=1e-9, abs=1e-12), (board, key)
    out, _ = challenge.submit("B", sample)
    assert set(out["result"][0]["private_split"].values()) == {-1.0}


def test_a_zipped_submission_and_a_raw_reference_folder(bank, tmp_path):
    sub = tmp_path / "sub.zip"
    sub.write_bytes(bundle.zip_bytes({"results/answer.csv": SAMPLE.read_bytes()}))
    raw = tmp_path / "raw.zip"
    raw.write_bytes(bundle.zip_bytes({"reference_data/" + p.name: p.read_bytes()
                                      for p in (ROOT / "reference_data").iterdir() if p.is_file()}))
    plain, _ = bank.submit("A", SAMPLE)
    assert bank.submit("A", sub, annotation=raw)[0]["result"] == plain["result"]


def score_py_stderr(tmp_path, submission):
    """The one line score.py prints for ``submission`` on board A (the reference: test_platforms' layout)."""
    ref = tmp_path / "input" / "ref"
    with zipfile.ZipFile(io.BytesIO(bundle.reference_zip(ROOT, "A"))) as archive:
        archive.extractall(ref)
    write_files(tmp_path / "input" / "res", {submission.name: submission.read_bytes()})
    proc = subprocess.run([sys.executable, str(ROOT / "scoring_program" / "score.py"), str(tmp_path / "input"),
                           str(tmp_path / "output")], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1
    return proc.stderr


def test_a_participant_error_is_score_py_line_and_nothing_else(bank, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,BIO_anno,class\n0,O,9\n", encoding="utf-8")
    out, log = bank.submit("A", bad)
    assert out["status"] == "FAILED"
    assert out["stderr"] == score_py_stderr(tmp_path, bad)     # exactly what score.py prints: one line
    assert out["stderr"].count("\n") == 1 and out["stderr"].startswith("错误（提交文件有误）：bad.csv")
    assert "Traceback" not in out["stderr"] and out["stdout"] == ""
    # on board B too: the same line (validation never depends on the board)
    out_b, _ = bank.submit("B", bad)
    assert out_b["stderr"] == out["stderr"]


def test_an_organizer_error_stays_in_the_worker_log(bank, tmp_path):
    gold = GOLD.read_text(encoding="utf-8").splitlines()
    header, first = gold[0], gold[1].split(",")
    first[-1] = "SECRET7"                                      # a broken gold class, which must not be shown
    files = members(bank.files[bank.phase("A")["test_annotation_file"]])
    files["gold.csv"] = ("\n".join([header, ",".join(first)] + gold[2:]) + "\n").encode("utf-8")
    broken = tmp_path / "broken.zip"
    broken.write_bytes(bundle.zip_bytes(files))
    out, log = bank.submit("A", SAMPLE, annotation=broken)
    assert out["status"] == "FAILED"
    assert out["stderr"].count("\n") == 1 and "SECRET7" not in out["stderr"] and "Traceback" not in out["stderr"]
    assert out["stderr"].startswith("错误（参考数据错误）：") and "worker 日志" in out["stderr"]
    assert "SECRET7" in log                                    # the host reads the details there


def test_a_bug_shows_one_line_and_logs_the_traceback(bank, tmp_path):
    out, log = bank.submit("A", tmp_path / "no_such_upload.csv")
    assert out["status"] == "FAILED"
    assert out["stderr"].count("\n") == 1 and out["stderr"].startswith("错误（评分程序内部错误）：")
    assert "Traceback" not in out["stderr"] and "Traceback" in log


def test_the_command_writes_the_folder_and_the_zip(tmp_path):
    from helpers import organizer
    proc = organizer("evalai", "examples/keywords", tmp_path / "out", "--end-date", "2027-03-31")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    config = yaml.safe_load((out / "challenge_config.yaml").read_text(encoding="utf-8"))
    assert config["end_date"] == dt.datetime(2027, 3, 31)
    with zipfile.ZipFile(out / "challenge.zip") as archive:
        names = set(archive.namelist())
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} - {"challenge.zip"}
    assert names == on_disk
    assert evalai.build("examples/keywords", tmp_path / "again", "2027-03-31").read_bytes() == \
        (out / "challenge.zip").read_bytes()                  # deterministic


def test_a_ladder_is_refused_for_evalai(tmp_path):
    import shutil
    comp = tmp_path / "comp"
    shutil.copytree(ROOT / "examples" / "keywords", comp)
    path = comp / "reference_data" / "board_A.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "feedback: {ladder: fixed}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="ladder"):
        evalai.build(comp, tmp_path / "out")


@pytest.mark.parametrize("change, expected", [
    ("primary_key: nope\n", "primary_key 的值 'nope' 不合法"),
    ("board: all\n", "board 为 all，没有对应的 EvalAI 数据集划分"),
])
def test_a_config_error_is_score_py_line_for_everyone(bank, tmp_path, change, expected):
    files = members(bank.files[bank.phase("A")["test_annotation_file"]])
    config = yaml.safe_load(files["config.yaml"].decode("utf-8"))
    config.update(yaml.safe_load(change))
    if config["board"] == "all":
        config.pop("feedback", None)
    files["config.yaml"] = yaml.safe_dump(config).encode("utf-8")
    annotation = tmp_path / "config_error.zip"
    annotation.write_bytes(bundle.zip_bytes(files))
    out, log = bank.submit("A", SAMPLE, annotation=annotation)
    assert out["status"] == "FAILED" and out["stderr"].count("\n") == 1
    assert out["stderr"].startswith("错误（竞赛配置错误）：config.yaml") and expected in out["stderr"]
    assert out["stderr"] in log


def test_a_title_evalai_would_refuse_gives_way_to_an_ascii_one(tmp_path):
    """The shipped competition's Chinese title cannot name EvalAI phases (slug) nor its queue: the challenge takes the
    task family's English title and keeps the Chinese one at the head of its short description; --title chooses."""
    config, _ = evalai.challenge(ROOT)
    comp = bundle.load_yaml(ROOT / "competition.yaml")
    assert evalai.title_problem(comp["title"]) is not None
    assert config["title"] == "Bank comments: entities + sentiment"
    assert config["short_description"].startswith(comp["title"])
    for refused in ("银行评论 BDCI", "My-Challenge: bank", "BDCI 2021 银行评论：实体与情感（演示）与更多更多"):
        with pytest.raises(SystemExit, match="cannot be an EvalAI title"):
            evalai.challenge(ROOT, title=refused)
    config, _ = evalai.challenge(ROOT, title="BDCI-2021 bank comments 2021")
    assert config["title"] == "BDCI-2021 bank comments 2021"


def test_an_annotation_without_config_names_no_path_of_the_worker(bank, tmp_path):
    files = members(bank.files[bank.phase("A")["test_annotation_file"]])
    del files["config.yaml"]
    annotation = tmp_path / "no_config.zip"
    annotation.write_bytes(bundle.zip_bytes(files))
    out, log = bank.submit("A", SAMPLE, annotation=annotation)
    assert out["status"] == "FAILED" and out["stderr"].count("\n") == 1
    assert "no_config.zip" in out["stderr"] and "/tmp" not in out["stderr"] and "evalai-" not in out["stderr"]


def test_every_phase_shows_each_teams_submissions_unless_the_team_hides_them_and_board_b_follows_the_rule(tmp_path):
    """A leaderboard lists public submissions only (calculate_distinct_sorted_leaderboard_data), and a submission is
    public when the phase says so (challenge_submission: is_public defaults to is_submission_public, false in
    EvalAI's model): board A's feedback board lists every team. Board B's phase follows competition.yaml's rule, as
    Codabench's submission_rule does: without force_submission_to_leaderboard (Add) each team makes one submission
    public, its entry (is_restricted_to_select_one_submission, which EvalAI refuses beside is_submission_public);
    with it (Force_Last) every submission is public and the last one before the end is the entry."""
    import shutil
    config, files = evalai.challenge(ROOT)
    a, b = (next(p for p in config["challenge_phases"] if p["codename"] == c) for c in ("board_a", "board_b"))
    assert a["is_submission_public"] is True and not a.get("is_restricted_to_select_one_submission")
    assert b["is_submission_public"] is False and b["is_restricted_to_select_one_submission"] is True
    assert "Show on leaderboard" in files[b["description"]].decode("utf-8")
    comp = tmp_path / "comp"
    shutil.copytree(ROOT / "examples" / "keywords", comp)
    text = (comp / "competition.yaml").read_text(encoding="utf-8")
    (comp / "competition.yaml").write_text("force_submission_to_leaderboard: true\n" + text, encoding="utf-8")
    config, files = evalai.challenge(comp)
    check_challenge_zip(dict(files, **{"challenge_config.yaml": evalai.config_bytes(config)}))
    for phase in config["challenge_phases"]:
        assert phase["is_submission_public"] is True and "is_restricted_to_select_one_submission" not in phase
    b = next(p for p in config["challenge_phases"] if p["codename"] == "board_b")
    assert "last submission made before the phase ends" in files[b["description"]].decode("utf-8")


def test_an_out_dir_named_like_a_zip_is_refused_in_one_line(tmp_path):
    """OUT_DIR is a folder: given challenge.zip, the command once made a folder named challenge.zip."""
    from helpers import organizer
    proc = organizer("evalai", "examples/keywords", tmp_path / "challenge.zip")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "ends in .zip" in proc.stderr
    assert str(tmp_path / "challenge") in proc.stderr and not (tmp_path / "challenge.zip").exists()
    assert proc.stdout == ""


def test_a_message_names_the_participants_file_not_evalais_stored_name(bank, tmp_path):
    """EvalAI stores an upload as <uuid4><extension> and gives the worker that file; the participant never saw that
    name, so the line says "your submitted file (.csv)" where score.py names the file."""
    import uuid
    stored = tmp_path / ("%s.csv" % uuid.uuid4())
    stored.write_text("id,BIO_anno,class\n0,O,9\n", encoding="utf-8")
    out, _ = bank.submit("A", stored)
    assert out["status"] == "FAILED" and out["stderr"].count("\n") == 1
    assert stored.name not in out["stderr"] and stored.stem[:8] not in out["stderr"]
    assert out["stderr"].startswith("错误（提交文件有误）：你提交的文件（.csv）")
    named = tmp_path / "bad.csv"
    named.write_bytes(stored.read_bytes())
    assert out["stderr"] == bank.submit("A", named)[0]["stderr"].replace("bad.csv", "你提交的文件（.csv）")
    zipped = tmp_path / ("%s.zip" % uuid.uuid4())
    zipped.write_bytes(bundle.zip_bytes({"preds.csv": stored.read_bytes()}))
    out, _ = bank.submit("A", zipped)
    assert zipped.stem not in out["stderr"] and "你提交的文件（.zip）/preds.csv" in out["stderr"]


def test_the_closed_annotation_fails_every_run_with_one_line_and_no_score(bank, tmp_path):
    """After the reveal the phase's annotation is OUT_closed.zip (report: closed): a late run, or a re-run, fails."""
    from organizer.phase_data import closed_phase_entries
    closed = tmp_path / "closed.zip"
    closed.write_bytes(bundle.zip_bytes(closed_phase_entries(ROOT, "B", dt.datetime(2027, 3, 1,
                                                                                    tzinfo=dt.timezone.utc))))
    out, log = bank.submit("B", SAMPLE, annotation=closed)
    assert out["status"] == "FAILED" and out["result"] is None and out["stdout"] == ""
    assert out["stderr"].count("\n") == 1 and "2027-03-01 00:00" in out["stderr"] and "Traceback" not in log
