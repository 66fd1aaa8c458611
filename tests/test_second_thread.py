"""score.py's second thread changes nothing anybody sees.

score.py loads the reference on a second thread while it parses the submission, and draws the primary score's
interval while the report's sections are built (``scorer.background``). Here every shipped competition is scored
both ways, the second way with ``background.start`` replaced by a call made on the spot (the order of a run
without threads: the reference first, then the submission), and every file written is compared byte for byte.
Errors keep their order too: with a broken reference the run exits 2 with the reference's line, whichever step
of the submission would have failed (finding the file, parsing it, checking its rows) and however fast.
"""
import shutil
from pathlib import Path

import pytest

from helpers import ROOT, as_platform, make_input, run_score

from organizer.phase_data import assemble_input
from scorer import background
from scorer.api import Competition

COMPETITIONS = [ROOT] + sorted(p for p in (ROOT / "examples").iterdir() if (p / "reference_data").is_dir())


class _Done:
    """What ``background.start`` gives when the work is done on the spot, before the caller goes on."""

    def __init__(self, fn, *args):
        try:
            self.value, self.error = fn(*args), None
        except Exception as exc:  # noqa: BLE001  raised when the result is asked for, as Pending does
            self.value, self.error = None, exc

    def result(self):
        if self.error is not None:
            raise self.error
        return self.value


def _sample(competition):
    kit = competition / "starting_kit"
    return kit / "submission" if (kit / "submission").is_dir() else kit / "sample_submission.csv"


def _written(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()}


@pytest.mark.parametrize("competition", COMPETITIONS, ids=lambda p: p.name)
@pytest.mark.parametrize("board", ["A", "B"])
def test_every_output_byte_is_the_same_without_the_second_thread(tmp_path, monkeypatch, competition, board):
    inp = as_platform(assemble_input(competition / "reference_data", board, _sample(competition), tmp_path / "in",
                                     reveal=True), "codalab_v1")
    threaded = run_score(inp, tmp_path / "threaded")
    monkeypatch.setattr(background, "start", _Done)
    in_place = run_score(inp, tmp_path / "in_place")
    assert threaded.returncode == in_place.returncode == 0, (threaded.stderr, in_place.stderr)
    strip = lambda text, out: text.replace(str(out), "OUTPUT")  # noqa: E731
    assert strip(threaded.stdout, tmp_path / "threaded") == strip(in_place.stdout, tmp_path / "in_place")
    files = _written(tmp_path / "threaded")
    assert "scores.txt" in files and "detailed_results.html" in files and "private/provenance.json" in files
    assert files == _written(tmp_path / "in_place")


GOLD = "id,BIO_anno,class\n0,O O,2\n1,B-BANK I-BANK,1\n"
BROKEN_GOLD = "id,BIO_anno,class\n0,O O,2\n1,B-BANK I-BANK,7\n"   # class 7 is no class
SUBMISSIONS = {
    "valid": ({"s.csv": GOLD}, 0),
    "no file": ({}, 1),                                                  # fails while finding the file
    "no header": ({"s.csv": "0,O O,2\n1,O O,1\n"}, 1),                   # fails while parsing it
    "bad tag": ({"s.csv": "id,BIO_anno,class\n0,O X,2\n1,O O,1\n"}, 1),  # fails while checking its rows
    "unknown id": ({"s.csv": "id,BIO_anno,class\n0,O O,2\n9,O O,1\n"}, 1),
}


@pytest.mark.parametrize("case", sorted(SUBMISSIONS))
def test_a_broken_reference_is_reported_before_any_problem_of_the_submission(tmp_path, case):
    files, code = SUBMISSIONS[case]
    sound = run_score(make_input(tmp_path, {"config.yaml": "task: bank_comments\n", "gold.csv": GOLD}, files, "a"),
                      tmp_path / "out_a")
    assert sound.returncode == code, sound.stderr
    broken = run_score(make_input(tmp_path, {"config.yaml": "task: bank_comments\n", "gold.csv": BROKEN_GOLD}, files,
                                  "b"), tmp_path / "out_b")
    assert broken.returncode == 2, broken.stderr
    assert "reference data of this phase is invalid" in broken.stderr and len(broken.stderr.splitlines()) == 1


def test_a_bug_while_loading_the_reference_wins_over_a_broken_submission(tmp_path, monkeypatch):
    from scorer.tasks import families

    family = families()["bank_comments"]

    def broken(cfg):
        raise KeyError("a bug of ours")

    monkeypatch.setattr(family, "load_reference", broken)
    inp = make_input(tmp_path, {"config.yaml": "task: bank_comments\n", "gold.csv": GOLD}, SUBMISSIONS["no header"][0])
    proc = run_score(inp, tmp_path / "out")
    assert proc.returncode == 3 and "KeyError" in proc.stderr, proc.stderr


def test_the_competition_and_submission_are_those_of_open_then_read(tmp_path):
    """``open_with_submission`` against the two calls in turn, on the shipped bank board A."""
    inp = assemble_input(ROOT / "reference_data", "A", _sample(ROOT), tmp_path / "in")
    comp, submission = Competition.open_with_submission(str(inp / "ref"), str(inp / "res"))
    alone = Competition.open(str(inp / "ref"))
    assert comp.scores(submission) == alone.scores(alone.read_submission(str(inp / "res")))
    assert comp.size_cap == alone.size_cap and list(comp.contract.units) == list(alone.contract.units)
    shutil.rmtree(inp)


def test_above_the_overlap_size_the_reference_loads_first(tmp_path, monkeypatch):
    """Large inputs are read one side after the other (both tables at once would cost about the input again)."""
    from scorer import api

    inp = assemble_input(ROOT / "reference_data", "A", _sample(ROOT), tmp_path / "in")
    started = []
    real_start = background.start
    monkeypatch.setattr(background, "start", lambda fn, *args: started.append(fn.__name__) or real_start(fn, *args))
    expected = Competition.open(str(inp / "ref"))
    expected = expected.scores(expected.read_submission(str(inp / "res")))
    for limit, threaded in ((10 ** 12, ["of"]), (0, [])):
        started.clear()
        monkeypatch.setattr(api, "OVERLAP_BYTES", limit)
        comp, submission = Competition.open_with_submission(str(inp / "ref"), str(inp / "res"))
        assert started == threaded and comp.scores(submission) == expected


def test_above_the_overlap_units_the_interval_is_drawn_after_the_sections(tmp_path, monkeypatch):
    """A board of more than OVERLAP_UNITS units draws its interval on the main thread, after the sections (both
    hold per-unit temporaries); every output byte is the same."""
    from scorer.publish import policy

    inp = assemble_input(ROOT / "reference_data", "A", _sample(ROOT), tmp_path / "in")
    started = []
    real_start = background.start
    monkeypatch.setattr(background, "start", lambda fn, *args: started.append(fn.__name__) or real_start(fn, *args))
    outputs = {}
    for limit in (10 ** 12, 0):
        started.clear()
        monkeypatch.setattr(policy, "OVERLAP_UNITS", limit)
        assert run_score(inp, tmp_path / str(limit)).returncode == 0
        assert ("primary_interval" in started) == (limit > 0), started
        outputs[limit] = _written(tmp_path / str(limit))
    assert outputs[0] == outputs[10 ** 12]


VIEW_LISTING = "SentenceId,Content\n1,a\n2,b\n"
VIEW_GOLD = "SentenceId\tView\tOpinion\n1\tx\tpos\n2\ty\tneg\n"
VIEW_CASES = [  # (sentences.csv, gold.csv, what the message says): the listing is read on its own thread
    ("SentenceId,Content\n1,a\n1,b\n", "SentenceId\tView\tOpinion\n1\tx\tbad\n", "lists SentenceId 1 twice"),
    ("SentenceId,Content\n1,a\n1,b\n", "no columns here\n", "lists SentenceId 1 twice"),
    (VIEW_LISTING, "SentenceId\tView\tOpinion\n9\tx\tpos\n2\t\tbad\n", "SentenceId 9 is not in sentences.csv"),
    (VIEW_LISTING, "SentenceId\tView\tOpinion\n1\tx\tpos\n2\t\tbad\n", "the View is empty"),
    (VIEW_LISTING, "SentenceId\tView\tOpinion\n1\tx\tpos\n2\ty\tbad\n", "opinion 'bad' is not"),
]


@pytest.mark.parametrize("listing,gold,fragment", VIEW_CASES)
def test_view_reference_errors_keep_the_order_of_the_checks(tmp_path, listing, gold, fragment):
    from scorer.errors import ReferenceDataError

    inp = make_input(tmp_path, {"config.yaml": "task: view_sentiment\nboard: all\n", "gold.csv": gold,
                                "sentences.csv": listing}, {"result.csv": "SentenceId,View,Opinion\n1,x,pos\n"})
    with pytest.raises(ReferenceDataError) as caught:
        Competition.open_with_submission(str(inp / "ref"), str(inp / "res"))
    assert fragment in caught.value.text("en"), caught.value.text("en")
