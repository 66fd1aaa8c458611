"""Every organizer command, given broken input, ends with one line and its exit code, writes nothing half-made,
follows no link out of the folder it was given, never waits on a special file and never changes data silently.

Each case of CASES builds its input in a temporary folder and runs ``python3 -m organizer ...`` as the organizer
would. Exit codes (organizer/__main__.py): 1 the linter found errors, 2 an input of the organizer's is wrong,
3 a bug of ours (which no case may reach).
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List

import pytest

from helpers import ROOT

KEYWORDS = ROOT / "examples" / "keywords"
ECAC = ROOT / "examples" / "emotion_cause"
GOOD_GOLD = "id,keywords\n1,a_b\n2,c_d\n3,e\n4,f_g\n5,h\n"


@dataclass
class Case:
    name: str
    build: Callable[[Path], List[str]]           # makes the input under the folder given; returns the arguments
    code: int
    says: str                                    # a fragment of the one line on stderr
    absent: List[str] = field(default_factory=list)   # paths (relative to the folder) that must not exist after


def write(folder, name, data):
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(path)


def fifo(folder, name):
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return str(path)


def keywords_copy(folder):
    target = Path(folder) / "comp"
    shutil.copytree(KEYWORDS, target)
    return target


def new(gold_data=None, gold=None, extra=(), out="out"):
    def build(t):
        path = gold(t) if gold else write(t, "gold.csv", gold_data)
        return ["new", "keywords", path, str(Path(t) / out), "--title", "T"] + list(extra)
    return build


def new_ecac(gold_data):
    def build(t):
        gold = write(t, "gold.json", gold_data)
        return ["new", "emotion_cause", gold, str(Path(t) / "out"), "--title", "T", "--subtask2-gold", gold]
    return build


def rescore_with(team):
    """rescore of the keywords demo with one sound team and one ``team(folder)`` entry."""
    def build(t):
        subs = Path(t) / "subs"
        subs.mkdir()
        shutil.copy(KEYWORDS / "starting_kit" / "sample_submission.csv", subs / "sound.csv")
        team(subs)
        return ["rescore", str(KEYWORDS), "A", str(subs), str(Path(t) / "out"), "-j", "1", "--compare"]
    return build


def ladder_with(state=None, team=None):
    def build(t):
        subs = Path(t) / "subs" / "t1"
        subs.mkdir(parents=True)
        shutil.copy(KEYWORDS / "starting_kit" / "sample_submission.csv", subs / "1.csv")
        if team:
            team(subs)
        if state is not None:
            write(t, "out/ladder_state.json", state)
        return ["ladder", str(KEYWORDS), str(Path(t) / "subs"), str(Path(t) / "out")]
    return build


def link_to_gold(subs):
    os.symlink(KEYWORDS / "reference_data" / "gold.csv", subs / "linked.csv")


def folder_with_link(subs):
    (subs / "team").mkdir()
    os.symlink(KEYWORDS / "reference_data" / "gold.csv", subs / "team" / "s.csv")


CASES = [
    # -- new: the gold as the scoring program would read it, or one line ---------------------------------
    Case("new: an empty gold", new(""), 2, "is empty", ["out"]),
    Case("new: a gold of blank lines", new("\n\n\n"), 2, "is empty", ["out"]),
    Case("new: a header without rows", new("id,keywords\n"), 2, "has a header but no row", ["out"]),
    Case("new: an unclosed quote", new('id,keywords\n1,"a_b\n2,c\n'), 2, "check quotes", ["out"]),
    Case("new: a NUL byte in an id", new("id,keywords\n10\0x,a\n2,b\n"), 2, "is a NUL", ["out"]),
    Case("new: an empty id", new("id,keywords\n,a\n2,b\n"), 2, "the id is empty", ["out"]),
    Case("new: an id twice", new("id,keywords\n1,a\n1 ,b\n"), 2, "repeats id 1", ["out"]),
    Case("new: an id with a zero-width character", new("id,keywords\n1\u200b,a\n2,b\n"), 2, "zero-width", ["out"]),
    Case("new: no keywords column", new("id,words\n1,a\n"), 2, "has no column keywords", ["out"]),
    Case("new: the public data set's headerless TSV (csl_kg)", new("to keywords\tabstract one\tk1_k2\n"
         "title\ttwo, with\tcommas, in, it\tk3\n"), 2,
         "new needs a comma- or TAB-separated table with the header id,keywords (docs/organizers.md, 'From the "
         "public data sets to the gold format'", ["out"]),
    Case("new: Latin-1 text", new("id,keywords\n1,caf\xe9\n".encode("latin-1")), 2, "cannot be read as UTF-8",
         ["out"]),
    Case("new: the gold is a FIFO", new(gold=lambda t: fifo(t, "gold.csv")), 2, "is a FIFO", ["out"]),
    Case("new: the gold is a folder", new(gold=lambda t: str(Path(t))), 2, "is a folder", ["out"]),
    Case("new: the gold does not exist", new(gold=lambda t: str(Path(t) / "none.csv")), 2, "does not exist", ["out"]),
    Case("new: an empty --dev-gold", lambda t: new(GOOD_GOLD, extra=["--dev-gold", write(t, "dev.csv", "")])(t), 2,
         "is empty", ["out"]),
    Case("new: a dev gold sharing an id", lambda t: new(GOOD_GOLD, extra=["--dev-gold", write(
        t, "dev.csv", "id,keywords\n3,x\n9,y\n")])(t), 2, "share 1 id(s)", ["out"]),
    Case("new: OUT_DIR is a file", lambda t: new(GOOD_GOLD, out="afile")(t) if write(t, "afile", "x") else None, 2,
         "is not a folder"),
    Case("new: OUT_DIR is not empty", lambda t: new(GOOD_GOLD)(t) if write(t, "out/x.txt", "x") else None, 2,
         "is not empty"),
    Case("new: a YAML tag in --option", new(GOOD_GOLD, extra=["--option", "mode=!!python/object/apply:os.system [id]"]),
         2, "is not plain YAML", ["out"]),
    Case("new: --seed -1", new(GOOD_GOLD, extra=["--seed", "-1"]), 2, "not between 0 and", ["out"]),
    Case("new: --seed 2**70", new(GOOD_GOLD, extra=["--seed", str(2 ** 70)]), 2, "not between 0 and", ["out"]),
    Case("new: --ratio-a 2", new(GOOD_GOLD, extra=["--ratio-a", "2"]), 2, "strictly between 0 and 1", ["out"]),
    Case("new: an unknown option", new(GOOD_GOLD, extra=["--option", "depth=3"]), 2, "give KEY=VALUE", ["out"]),
    # -- new: what it can check, it checks before it writes anything -------------------------------------------
    Case("new: a one-row gold", new("id,keywords\n1,a_b\n"), 2, "holds 1 test item(s); board A and board B need",
         ["out"]),
    Case("new: an empty --title", new(GOOD_GOLD, extra=["--title", " "]), 2, "the title is empty", ["out"]),
    Case("new: a title of 101 characters", new(GOOD_GOLD, extra=["--title", "t" * 101]), 2,
         "the title is 101 characters; CodaLab v1 and EvalAI take at most 100", ["out"]),
    Case("new: --ratio-a 1e-9", new(GOOD_GOLD, extra=["--ratio-a", "1e-9"]), 2,
         "--ratio-a 1e-09 puts board A's share of the gold's 5 units at none", ["out"]),
    Case("new: --ratio-a 0.999999", new(GOOD_GOLD, extra=["--ratio-a", "0.999999"]), 2,
         "puts board B's share of the gold's 5 units at none", ["out"]),
    Case("new: a regression gold value that is no number", lambda t: [
        "new", "regression", write(t, "gold.csv", "id,value\n1,2.5\n2,abc\n3,1\n"), str(Path(t) / "out"),
        "--title", "T"], 2, "id 2, column value: 'abc' is not a number", ["out"]),
    Case("new: a regression gold value that is two numbers", lambda t: [
        "new", "regression", write(t, "gold.csv", "id,value\n1,2.5\n2,1 2\n3,1\n"), str(Path(t) / "out"),
        "--title", "T"], 2, "id 2, column value: '1 2' is not a number", ["out"]),
    Case("new: a regression dev gold value that is no number", lambda t: [
        "new", "regression", write(t, "gold.csv", "id,value\n1,2.5\n2,3\n3,1\n"), str(Path(t) / "out"),
        "--title", "T", "--dev-gold", write(t, "dev.csv", "id,value\n9,nan\n")], 2,
         "dev.csv, id 9, column value: 'nan' is not a number", ["out"]),
    Case("new: an emotion-cause gold nested 100,000 deep", new_ecac("[" * 100000 + "]" * 100000), 2, "nested",
         ["out"]),
    Case("new: an emotion-cause gold that is no list of conversations", new_ecac('{"a": 1}'), 2,
         "not a non-empty list of conversations", ["out"]),
    # -- boards, bundle, check, score, reveal, evalai, kaggle --------------------------------------------
    Case("boards: no reference_data", lambda t: ["boards", str(t)], 2, "does not exist"),
    Case("boards: an existing split", lambda t: ["boards", str(keywords_copy(t))], 2, "exists already"),
    Case("boards: --seed -1", lambda t: ["boards", str(keywords_copy(t)), "--seed", "-1", "--force"], 2,
         "not between 0 and"),
    Case("bundle: no competition.yaml", lambda t: ["bundle", str(t), str(Path(t) / "b.zip")], 2,
         "no competition.yaml", ["b.zip"]),
    Case("bundle: the zip's path is a folder", lambda t: ["bundle", str(KEYWORDS), str(t)], 2, "is a folder"),
    Case("check: a FIFO", lambda t: ["check", fifo(t, "b.zip")], 1, "is a FIFO"),
    Case("score: the submission is a FIFO", lambda t: ["score", str(KEYWORDS), "A", fifo(t, "s.csv"),
                                                       str(Path(t) / "out")], 2, "is a FIFO"),
    Case("score: no such submission", lambda t: ["score", str(KEYWORDS), "A", str(Path(t) / "none.csv"),
                                                 str(Path(t) / "out")], 2, "does not exist"),
    Case("score: no such competition", lambda t: ["score", str(Path(t) / "none"), "A",
                                                  str(KEYWORDS / "starting_kit" / "sample_submission.csv"),
                                                  str(Path(t) / "out")], 2, "does not exist"),
    Case("score: no such board", lambda t: ["score", str(KEYWORDS), "C",
                                            str(KEYWORDS / "starting_kit" / "sample_submission.csv"),
                                            str(Path(t) / "out")], 2, "board_C.yaml"),
    Case("reveal: a board that is not sealed", lambda t: ["reveal", str(KEYWORDS), "A", str(Path(t) / "r.zip")], 2,
         "is not sealed", ["r.zip"]),
    Case("reveal: no such board", lambda t: ["reveal", str(KEYWORDS), "C", str(Path(t) / "r.zip")], 2,
         "board_C.yaml", ["r.zip"]),
    Case("evalai: a title EvalAI refuses", lambda t: ["evalai", str(KEYWORDS), str(Path(t) / "ev"), "--title",
                                                      "关键词 keywords"], 2, "cannot be an EvalAI title", ["ev"]),
    Case("evalai: OUT_DIR is a file", lambda t: ["evalai", str(KEYWORDS), write(t, "ev", "x")], 2, "is not a folder"),
    Case("kaggle: OUT_DIR is a file", lambda t: ["kaggle", write(t, "kg", "x")], 2, "is not a folder"),
    # -- rescore and ladder: one folder per team, nothing outside it read ------------------------------------
    Case("rescore: no submissions folder", lambda t: ["rescore", str(KEYWORDS), "A", str(Path(t) / "none"),
                                                      str(Path(t) / "out")], 2, "does not exist", ["out"]),
    Case("rescore: the output is a file", lambda t: ["rescore", str(KEYWORDS), "A", str(t), write(t, "o", "x")], 2,
         "is a file"),
    Case("ladder: no submissions folder", lambda t: ["ladder", str(KEYWORDS), str(Path(t) / "none"),
                                                     str(Path(t) / "out")], 2, "does not exist", ["out"]),
    Case("ladder: a damaged state file", ladder_with(state="{not json"), 2, "ladder_state.json"),
    Case("ladder: a state file of another shape", ladder_with(state="[1, 2]"), 2, "ladder_state.json"),
]


def run(args, cwd):
    return subprocess.run([sys.executable, "-m", "organizer"] + args, cwd=str(ROOT), capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_broken_input_ends_with_one_line_and_its_exit_code(case, tmp_path):
    args = case.build(tmp_path)
    proc = run(args, tmp_path)
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert proc.returncode == case.code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    if case.code == 2:
        assert len(lines) == 1, lines
        assert case.says in proc.stderr, proc.stderr
    else:   # the linter's report is its output
        assert case.says in proc.stdout, proc.stdout
    for name in case.absent:
        assert not (tmp_path / name).exists(), name   # nothing half-written
    assert not list(tmp_path.glob(".out-*")) and not list(tmp_path.glob(".*-tmp*")), sorted(os.listdir(tmp_path))


@pytest.mark.parametrize("team, said", [
    (link_to_gold, "linked.csv is a symbolic link"),
    (folder_with_link, "team: s.csv is a symbolic link"),
    (lambda subs: os.mkfifo(subs / "piped.csv"), "piped.csv is a FIFO"),
])
def test_rescore_scores_no_link_and_opens_no_special_file(team, said, tmp_path):
    """A team's entry that is a link (say, to the gold) or a FIFO fails with its line; the other teams are ranked,
    and nothing of the gold reaches the leaderboard the organizer publishes."""
    proc = run(rescore_with(team)(tmp_path), tmp_path)
    assert proc.returncode == 0, proc.stderr
    board = (tmp_path / "out" / "leaderboard.csv").read_text(encoding="utf-8")
    assert said in board and ",sound,scored," in board.replace("\r", "")
    gold_header = (KEYWORDS / "reference_data" / "gold.csv").read_text(encoding="utf-8").splitlines()[1]
    assert gold_header not in board
    # the reference data (the answers) is not left in the output the organizer publishes
    assert not [p for p in (tmp_path / "out").rglob("gold.csv")]


def test_a_ladder_team_with_a_fifo_counts_it_as_refused(tmp_path):
    proc = run(ladder_with(team=lambda t: os.mkfifo(t / "2.csv"))(tmp_path), tmp_path)
    assert proc.returncode == 0, proc.stderr
    state = json.loads((tmp_path / "out" / "ladder_state.json").read_text(encoding="utf-8"))
    assert "is a FIFO" in state["t1"]["errors"]["2.csv"]


def test_a_bug_of_ours_is_one_line_naming_its_traceback(tmp_path, monkeypatch):
    from organizer import __main__ as entry

    monkeypatch.setitem(entry.SUBCOMMANDS, "boom", "no_such_module_here")
    code = entry.run("boom", [])
    assert code == 3


def test_a_python_without_the_packages_is_told_how_to_get_them(monkeypatch, capsys):
    from organizer import __main__ as entry

    def missing(name):
        raise ModuleNotFoundError("No module named 'pandas'", name="pandas")

    monkeypatch.setattr(entry.importlib, "import_module", missing)
    assert entry.run("new", []) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no pandas" in err and "pip install -r requirements.txt" in err, err


def test_new_says_which_columns_of_the_gold_it_does_not_write(tmp_path):
    gold = write(tmp_path, "bank.csv", "id,text,BIO_anno,class,remark\n1,ab,O O,0,x\n2,cd,B-BANK I-BANK,1,y\n"
                 "3,ef,O O,2,z\n4,gh,O O,0,\n5,ij,O O,1,\n")
    proc = run(["new", "bank_comments", gold, str(tmp_path / "out"), "--title", "T", "--no-check"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "column(s) remark are neither scored nor public" in proc.stdout
    written = (tmp_path / "out" / "reference_data" / "gold.csv").read_text(encoding="utf-8")
    assert written.splitlines()[0] == "id,text,BIO_anno,class"


def test_a_bundle_holds_no_link_nor_special_file_of_the_folder(tmp_path):
    copy = keywords_copy(tmp_path)
    os.symlink(KEYWORDS / "reference_data" / "gold.csv", copy / "starting_kit" / "answers.csv")
    proc = run(["bundle", str(copy), str(tmp_path / "b.zip")], tmp_path)
    assert proc.returncode == 2 and "answers.csv is a symbolic link" in proc.stderr and proc.stderr.count("\n") == 1
    assert not (tmp_path / "b.zip").exists()
    (copy / "starting_kit" / "answers.csv").unlink()
    os.mkfifo(copy / "starting_kit" / "pipe")
    proc = run(["bundle", str(copy), str(tmp_path / "b.zip")], tmp_path)
    assert proc.returncode == 2 and "pipe is a FIFO" in proc.stderr


@pytest.mark.parametrize("extra", [["--ratio-a", "1e-9"], ["--title", ""]])
def test_new_leaves_an_empty_out_dir_untouched_when_it_refuses(extra, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    gold = write(tmp_path, "gold.csv", GOOD_GOLD)
    proc = run(["new", "keywords", gold, str(out), "--title", "T"] + extra, tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert out.is_dir() and not list(out.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.csv", "out"]   # no hidden folder left either


def test_new_moves_nothing_into_place_when_the_linter_finds_an_error(tmp_path, monkeypatch, capsys):
    """A rule broken by the competition made (none is, today, once new's own checks pass) keeps it from OUT_DIR."""
    from organizer import check, new

    gold = write(tmp_path, "gold.csv", GOOD_GOLD)
    real = check.check_path

    def one_error(path, *args, **kwargs):
        return real(path, *args, **kwargs) + [check.Problem("ERROR", "%s/competition.yaml" % path, "made up", "x")]

    monkeypatch.setattr(check, "check_path", one_error)
    assert new.main(["keywords", gold, str(tmp_path / "out"), "--title", "T"]) == 1
    said = capsys.readouterr().out
    assert "ERROR %s/competition.yaml: made up" % (tmp_path / "out") in said and "nothing was written" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.csv"]


def test_new_and_bundle_say_the_next_step(tmp_path):
    gold = write(tmp_path, "gold.csv", GOOD_GOLD)
    out = tmp_path / "comp"
    proc = run(["new", "keywords", gold, str(out), "--title", "T"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Next:" in proc.stdout and "python3 -m organizer bundle %s %s.zip" % (out, out) in proc.stdout
    proc = run(["bundle", str(out), str(tmp_path / "b.zip")], tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "upload %s on CodaLab v1" % (tmp_path / "b.zip") in proc.stdout
    assert "reveal board B: python3 -m organizer reveal %s B %s" % (out, tmp_path / "reference_data_B_reveal.zip") \
        in proc.stdout


def unreadable(path):
    """``path`` made unreadable: mode 000 (root reads it anyway; ``as_reader`` runs a command without that power)."""
    path.chmod(0)
    return path


def as_reader(args):
    """The organizer command as a user to whom mode 000 means unreadable: root without CAP_DAC_OVERRIDE and
    CAP_DAC_READ_SEARCH (setpriv), or this user when it is not root."""
    if os.geteuid() != 0:
        return args
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: a file of mode 000 stays readable")
    return ["--bounding-set=-dac_override,-dac_read_search", "--"] + args


def run_as_reader(args, tmp_path):
    """The organizer command run as a reader that cannot bypass file modes; afterwards everything under
    ``tmp_path`` is made readable again (pytest removes it)."""
    prefix = ["setpriv"] if os.geteuid() == 0 else []
    try:
        argv = as_reader(args)
        return subprocess.run(prefix + argv[:-len(args)] + [sys.executable, "-m", "organizer"] + args, cwd=str(ROOT),
                              capture_output=True, text=True, timeout=300)
    finally:
        for path in tmp_path.rglob("*"):
            if not path.is_symlink():
                path.chmod(0o755)


@pytest.mark.parametrize("team, said", [
    (lambda subs: unreadable(Path(write(subs, "locked.csv", "id,keywords\n1,a\n"))), "locked.csv cannot be read "
     "(Permission denied)"),
    (lambda subs: unreadable(Path(write(subs, "team/locked.csv", "id,keywords\n1,a\n"))), "team: locked.csv cannot "
     "be read (Permission denied)"),
    (lambda subs: unreadable(Path(write(subs, "closed/s.csv", "id,keywords\n1,a\n")).parent), "closed cannot be "
     "read (Permission denied)"),
])
def test_rescore_marks_an_unreadable_submission_failed_and_ranks_the_rest(team, said, tmp_path):
    args = rescore_with(team)(tmp_path)
    proc = run_as_reader(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    with open(tmp_path / "out" / "leaderboard.csv", encoding="utf-8", newline="") as fh:
        rows = {r["submission"]: r for r in csv.DictReader(fh)}
    assert rows["sound"]["status"] == "scored" and rows["sound"]["rank"] == "1"
    [(name, row)] = [(n, r) for n, r in rows.items() if n != "sound"]
    assert row["status"] == "failed" and row["error"] == said, row


@pytest.mark.parametrize("make, said", [
    (lambda t: os.symlink(KEYWORDS / "reference_data" / "gold.csv", t / "2.csv"), "2.csv is a symbolic link; put the "
     "submission itself in the team's folder"),
    (lambda t: os.symlink(KEYWORDS / "starting_kit" / "sample_submission.csv", t / "2.csv"), "2.csv is a symbolic "
     "link; put the submission itself in the team's folder"),
    (lambda t: unreadable(Path(write(t, "2.csv", "id,keywords\n1,a\n"))), "2.csv cannot be read (Permission "
     "denied)"),
    (lambda t: unreadable(Path(write(t, "2/s.csv", "id,keywords\n1,a\n")).parent), "2 cannot be read "
     "(Permission denied)"),
])
def test_a_ladder_team_submission_that_is_a_link_or_unreadable_is_refused_by_name(make, said, tmp_path):
    args = ladder_with(team=make)(tmp_path)
    proc = run_as_reader(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    state = json.loads((tmp_path / "out" / "ladder_state.json").read_text(encoding="utf-8"))
    name = next(iter(set(state["t1"]["errors"])))
    assert state["t1"]["errors"] == {name: said}, state["t1"]["errors"]
    assert len(state["t1"]["done"]) == 2 and state["t1"]["best_name"] == "1.csv"   # the sound one counted


@pytest.mark.parametrize("command", ["new", "bundle", "check", "ladder"])
def test_long_commands_say_what_they_do_on_stderr_only_when_asked(command, tmp_path):
    """With --progress 0 (a line at every step) stderr tells the steps; without it, and no terminal, nothing."""
    gold = write(tmp_path, "gold.csv", GOOD_GOLD)
    args = {"new": ["new", "keywords", gold, str(tmp_path / "c"), "--title", "T"],
            "bundle": ["bundle", str(KEYWORDS), str(tmp_path / "b.zip")],
            "check": ["check", str(KEYWORDS)],
            "ladder": ladder_with()(tmp_path)}[command]
    quiet = run(args, tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    shutil.rmtree(tmp_path / "c", ignore_errors=True)
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    said = run(args + ["--progress", "0"], tmp_path)
    assert said.returncode == 0, said.stderr
    lines = said.stderr.splitlines()
    assert lines and all(l.startswith("organizer %s: " % command) and l.endswith(" s)") for l in lines), lines
    assert said.stdout == quiet.stdout   # what the command writes for the organizer is the same


def test_progress_says_a_line_every_interval_at_most():
    from organizer import progress

    clock = iter([0, 1, 2.9, 3.0, 3.5, 6.1, 6.2]).__next__
    out = io.StringIO()
    p = progress.Progress("organizer x", enabled=True, every=3, stream=out, clock=clock)
    for k in range(6):
        p.count("board A", k + 1, 6, "%d cached" % k)
    assert out.getvalue().splitlines() == ["organizer x: board A 3/6 (2 cached; 3 s)",
                                           "organizer x: board A 5/6 (4 cached; 6 s)"]
    assert not progress.Progress("x", stream=io.StringIO()).enabled   # no terminal, not asked: off
