"""Board B leaves no trace in what a participant can reach of a board-A run, and a sealed board shows nothing.

For every family, the gold answers of the board-B units are changed in many ways (labels, grades, empty
answers, entity-free documents, repeated keys, extra columns). A board-A run must then give exactly the
same exit code, stdout, stderr and files outside OUTPUT/private/, on each platform layout: a local run,
CodaLab v1 (INPUT/metadata; with ``private_output: true`` the board-B scores are computed into private/)
and Codabench (res/metadata). A sealed board-B run must not change either, while the board-B scores the
organizer sees do change (so each change is real).
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
]
EDITORS = {"bank_comments": _bank, "view_sentiment": _views, "keywords": _keywords, "multilabel": _multilabel,
           "emotion_cause": _emotion_cause}


def board_b_ids(reference):
    return {r[0] for r in _rows(reference / "boards.csv")[1:] if r[1] == "B"}


def reference_copy(tmp_path, family, change=None):
    """A copy of the demo's reference_data/ (board configs included), board B changed by ``change``."""
    target = tmp_path / ("ref_" + (change or "as_given").replace(" ", "_"))
    shutil.copytree(DEMOS[family][0] / "reference_data", target)
    if family == "multilabel":
        _multilabel("none")(target, set())   # the same configs (no err_max_grade) for both sides
    if change:
        EDITORS[family](change)(target, board_b_ids(target))
    return target


def phase_input(tmp_path, family, reference, board, layout, name, private_output=False):
    """INPUT (ref/ for ``board``, res/ with the demo's sample) as ``layout`` lays it out, and OUTPUT."""
    base = tmp_path / name
    ref = base / "input" / "ref"
    ref.mkdir(parents=True)
    for path in reference.iterdir():
        if not (path.name.startswith("board_") and path.suffix == ".yaml"):
            shutil.copy(path, ref / path.name)
    raw = yaml.safe_load((reference / ("board_%s.yaml" % board)).read_text(encoding="utf-8"))
    raw["private_output"] = private_output
    (ref / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    write_files(base / "input" / "res", sample_files(family))
    if layout == "v1":
        (base / "input" / "metadata").write_text(V1_METADATA, encoding="utf-8")
    elif layout == "codabench":
        (base / "input" / "res" / "metadata").write_text(CODABENCH_METADATA, encoding="utf-8")
    return base / "input", base / "output"


@pytest.mark.parametrize("family,change,changes_scores", CHANGES, ids=lambda v: str(v).replace(" ", "-"))
def test_board_b_gold_leaves_no_trace_in_what_participants_reach(tmp_path, family, change, changes_scores):
    given, changed = reference_copy(tmp_path, family), reference_copy(tmp_path, family, change)
    for layout in ("local", "v1", "codabench"):
        private = layout == "v1"
        runs = {}
        for label, reference in (("given", given), ("changed", changed)):
            for board in ("A", "B"):
                inp, out = phase_input(tmp_path, family, reference, board, layout, "%s_%s_%s" % (layout, label, board),
                                       private_output=private)
                runs[label, board] = (visible_outcome(inp, out), out)
        for board in ("A", "B"):  # B is sealed in every demo
            (a, _), (b, _) = runs["given", board], runs["changed", board]
            assert a[0] == b[0] == 0, (layout, board, a[2], b[2])
            assert a[1:3] == b[1:3], (layout, board)
            assert a[3].keys() == b[3].keys() and all(a[3][k] == b[3][k] for k in a[3]), (layout, board)
        if private:
            b_given = (runs["given", "A"][1] / "private" / "board_B_scores.txt").read_text(encoding="utf-8")
            b_changed = (runs["changed", "A"][1] / "private" / "board_B_scores.txt").read_text(encoding="utf-8")
            sealed_given = read_scores(runs["given", "B"][1] / "private")
            sealed_changed = read_scores(runs["changed", "B"][1] / "private")
            assert (b_given != b_changed) == changes_scores
            assert (sealed_given != sealed_changed) == changes_scores
        else:
            assert not (runs["given", "A"][1] / "private").exists()
            assert not (runs["given", "B"][1] / "private").exists()
