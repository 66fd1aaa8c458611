"""Board B leaves no trace in what is uploaded for a phase, nor in what a participant can reach of its runs.

For every family, the gold answers of the board-B units are changed in many ways (labels, grades, empty
answers, entity-free documents, repeated keys, extra columns). The reference data of board A's phase and of
the sealed board B's (organizer/phase_data.py: what the platforms hold, and Codabench shows anyone) must
then be byte-identical; their runs give the same exit code, stdout, stderr and files on each platform
layout (a local run, CodaLab v1: INPUT/metadata, Codabench: res/metadata) and write no score anywhere but
OUTPUT's own scores files. The revealed board B's scores do change (so each change is real).
"""
import csv
import io
import json
import shutil
from pathlib import Path

import pytest
import yaml

from helpers import read_scores, visible_outcome, write_files
from test_review_determinism import DEMOS, sample_files

from organizer.phase_data import phase_entries
from scorer.tasks import families

V1_METADATA = "ref: https://x/ref.zip\nres: https://x/res.zip\nsubmitted-by: someone\ncompetition-phase: 1\n"
CODABENCH_METADATA = "exitCode: 0\nelapsedTime: 0.1\n"


# -- the gold, changed on board-B units only -------------------------------------------------------------
def _rows(path, delimiter=","):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh, delimiter=delimiter))


def _write_rows(path, rows, delimiter=","):
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\n").writerows(rows)
    Path(path).write_text(buf.getvalue(), encoding="utf-8")


def _edit_table(ref, name, id_column, hidden, edit, delimiter=",", extra_rows=None):
    """Apply ``edit(row dict) -> row dict or None`` to the board-B rows of a gold table."""
    rows = _rows(ref / name, delimiter)
    header, body = rows[0], rows[1:]
    out = []
    for row in body:
        record = dict(zip(header, row))
        if record[id_column] in hidden:
            record = edit(record)
            if record is None:
                continue
            for key in record:
                if key not in header:
                    header.append(key)
        out.append(record)
    if extra_rows:
        out += extra_rows(out)
    _write_rows(ref / name, [header] + [[r.get(h, "") for h in header] for r in out], delimiter)


def _bank(kind):
    def edit(r):
        if kind == "entity-free":
            r["BIO_anno"] = " ".join("O" for _ in r["BIO_anno"].split())
        elif kind == "classes rotated":
            r["class"] = str((int(r["class"]) + 1) % 3)
        elif kind == "types swapped":
            r["BIO_anno"] = r["BIO_anno"].replace("-BANK", "-TMP").replace("-PRODUCT", "-BANK").replace("-TMP", "-PRODUCT")
        elif kind == "extra column":
            r["remark"] = "checked twice"
        return r
    return lambda ref, hidden: _edit_table(ref, "gold.csv", "id", hidden, edit)


def _views(kind):
    flip = {"pos": "neg", "neg": "neu", "neu": "pos"}

    def edit(r):
        if kind == "no views":
            return None
        if kind == "opinions flipped":
            r["Opinion"] = flip[r["Opinion"]]
        return r

    def extra(rows):
        if kind == "new views":
            return [dict(rows[-1], View="新车型%d" % k) for k in range(3) if rows[-1]["SentenceId"]]
        if kind == "repeated keys":
            return [dict(r) for r in rows if r["SentenceId"] in hidden_ids[0]][:5]
        return []

    hidden_ids = []

    def apply(ref, hidden):
        hidden_ids.append(hidden)
        _edit_table(ref, "gold.csv", "SentenceId", hidden, edit, "\t",
                    extra if kind in ("new views", "repeated keys") else None)
    return apply


def _keywords(kind):
    def edit(r):
        if kind == "empty":
            r["keywords"] = ""
        elif kind == "other keywords":
            r["keywords"] = "甲_乙_丙"
        elif kind == "extra column value":
            r["field"] = "其他"
        return r
    return lambda ref, hidden: _edit_table(ref, "gold.csv", "id", hidden, edit)


def _multilabel(kind):
    def apply(ref, hidden):
        first = (ref / "labels.txt").read_text(encoding="utf-8").split()[0]

        def edit(r):
            n = len(r["labels"].split())
            if kind == "no labels":
                r["labels"], r["grades"] = "", ""
            elif kind == "other labels":
                r["labels"], r["grades"] = first, "1"
            elif kind == "higher grades":
                r["grades"] = " ".join(["7"] * n)
            return r
        _edit_table(ref, "gold.csv", "id", hidden, edit)
        for board in ("A", "B"):  # the default g_max (null) is the case at risk
            path = ref / ("board_%s.yaml" % board)
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
            raw["options"].pop("err_max_grade", None)
            path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return apply


def _regression(kind):
    def edit(r):
        if kind == "values doubled":
            r["value"] = "%g" % (2 * float(r["value"]))
        elif kind == "all zero":
            r["value"] = "0"
        return r
    return lambda ref, hidden: _edit_table(ref, "gold.csv", "id", hidden, edit)


def _classification(kind):
    def apply(ref, hidden):
        classes = (ref / "labels.txt").read_text(encoding="utf-8").split()

        def edit(r):
            if kind == "labels shifted":
                r["label"] = classes[(classes.index(r["label"]) + 1) % len(classes)]
            elif kind == "one class":
                r["label"] = classes[0]
            elif kind == "extra column":
                r["remark"] = "checked twice"
            return r
        _edit_table(ref, "gold.csv", "id", hidden, edit)
    return apply


def _emotion_cause(kind):
    def apply(ref, hidden):
        for name in ("Subtask_1_gold.json", "Subtask_2_gold.json"):
            convs = json.loads((ref / name).read_text(encoding="utf-8"))
            for conv in convs:
                if str(conv["conversation_ID"]) not in hidden:
                    continue
                pairs = conv["emotion-cause_pairs"]
                if kind == "no pairs":
                    conv["emotion-cause_pairs"] = []
                elif kind == "other emotions":
                    conv["emotion-cause_pairs"] = [[p[0].rsplit("_", 1)[0] + "_disgust", p[1]] for p in pairs]
                elif kind == "unlocatable spans" and name.startswith("Subtask_1"):
                    conv["emotion-cause_pairs"] = [[p[0], p[1].split("_", 1)[0] + "_words found nowhere"]
                                                   for p in pairs]
            (ref / name).write_text(json.dumps(convs, ensure_ascii=False), encoding="utf-8")
    return apply


# (family, change, whether board-B scores change)
CHANGES = [
    ("bank_comments", "entity-free", True), ("bank_comments", "classes rotated", True),
    ("bank_comments", "types swapped", True), ("bank_comments", "extra column", False),
    ("view_sentiment", "no views", True), ("view_sentiment", "opinions flipped", True),
    ("view_sentiment", "new views", True), ("view_sentiment", "repeated keys", False),
    ("keywords", "empty", True), ("keywords", "other keywords", True), ("keywords", "extra column value", False),
    ("multilabel", "no labels", True), ("multilabel", "other labels", True), ("multilabel", "higher grades", True),
    ("emotion_cause", "no pairs", True), ("emotion_cause", "other emotions", True),
    ("emotion_cause", "unlocatable spans", True),
    ("regression", "values doubled", True), ("regression", "all zero", True),
    ("classification", "labels shifted", True), ("classification", "one class", True),
    ("classification", "extra column", False),
]
EDITORS = {"bank_comments": _bank, "view_sentiment": _views, "keywords": _keywords, "multilabel": _multilabel,
           "emotion_cause": _emotion_cause, "regression": _regression, "classification": _classification}


def board_b_ids(reference):
    return {r[0] for r in _rows(reference / "boards.csv")[1:] if r[1] == "B"}


def competition_copy(tmp_path, family, change=None):
    """A copy of the demo competition (its reference_data/ and the kit's public inputs), board B changed."""
    target = tmp_path / ("comp_" + (change or "as_given").replace(" ", "_"))
    source = DEMOS[family][0]
    shutil.copytree(source / "reference_data", target / "reference_data")
    public = families()[family].public_inputs
    (target / "starting_kit").mkdir()
    shutil.copy(source / "starting_kit" / public, target / "starting_kit" / public)
    ref = target / "reference_data"
    if family == "multilabel":
        _multilabel("none")(ref, set())   # the same configs (no err_max_grade) for both sides
    if change:
        EDITORS[family](change)(ref, board_b_ids(ref))
    return target


def phase_input(tmp_path, family, competition, board, layout, name, reveal=False):
    """INPUT (ref/: the phase's reference data of ``board``; res/: the demo's sample) as ``layout`` lays it out."""
    base = tmp_path / name
    write_files(base / "input" / "ref", phase_entries(competition, board, reveal))
    write_files(base / "input" / "res", sample_files(family))
    if layout == "v1":
        (base / "input" / "metadata").write_text(V1_METADATA, encoding="utf-8")
    elif layout == "codabench":
        (base / "input" / "res" / "metadata").write_text(CODABENCH_METADATA, encoding="utf-8")
    return base / "input", base / "output"


@pytest.mark.parametrize("family,change,changes_scores", CHANGES, ids=lambda v: str(v).replace(" ", "-"))
def test_board_b_gold_leaves_no_trace_in_what_participants_reach(tmp_path, family, change, changes_scores):
    given, changed = competition_copy(tmp_path, family), competition_copy(tmp_path, family, change)
    # what is uploaded for board A's phase and for the sealed board B's holds not a byte of board B's answers
    for board in ("A", "B"):
        assert phase_entries(given, board) == phase_entries(changed, board), board
    # the reveal's reference data holds them (a column the family does not read is left out of every phase)
    revealed = phase_entries(given, "B", reveal=True), phase_entries(changed, "B", reveal=True)
    assert (revealed[0] != revealed[1]) == (change not in ("extra column", "extra column value"))
    for layout in ("local", "v1", "codabench"):
        runs = {}
        for label, competition in (("given", given), ("changed", changed)):
            for board, reveal in (("A", False), ("B", False), ("B", True)):
                inp, out = phase_input(tmp_path, family, competition, board, layout,
                                       "%s_%s_%s%s" % (layout, label, board, "_revealed" * reveal), reveal)
                runs[label, board, reveal] = (visible_outcome(inp, out), out)
        for board, reveal in (("A", False), ("B", False)):  # B is sealed in every demo
            (a, out), (b, _) = runs["given", board, reveal], runs["changed", board, reveal]
            assert a[0] == b[0] == 0, (layout, board, a[2], b[2])
            assert a[1:3] == b[1:3], (layout, board)
            assert a[3].keys() == b[3].keys() and all(a[3][k] == b[3][k] for k in a[3]), (layout, board)
            # on no platform does a run write a score anywhere else (CodaLab v1's private/ holds provenance only)
            assert not [p for p in out.rglob("*") if p.is_file() and p.parent != out and p.name != "provenance.json"], \
                (layout, board)
        revealed_given = read_scores(runs["given", "B", True][1])
        revealed_changed = read_scores(runs["changed", "B", True][1])
        assert (revealed_given != revealed_changed) == changes_scores
