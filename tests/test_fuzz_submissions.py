"""Malformed submissions, generated: every demo competition's board A either scores or refuses cleanly.

For each family, the board-A reference of its demo competition is assembled
once; generated uploads are written to res/ and scored in-process. The only
acceptable outcomes are scores that are all finite floats, or a ScoringError
with exit code 1 (a participant error) whose message is one non-empty line.
Anything else (another exception, exit 2/3, NaN or inf) is a bug. Where the
input decides the outcome (every hand-written case, random bytes), the test
says which outcome it must be.
"""
import csv
import io
import json
import math
import os
import random
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers import zipped  # noqa: E402
from scorer.errors import ScoringError  # noqa: E402
from scorer.platform.runner import run  # noqa: E402
from organizer.phase_data import assemble_reference  # noqa: E402

# family -> (competition folder, sample submission file or folder)
DEMOS = {
    "bank_comments": (ROOT, ROOT / "starting_kit" / "sample_submission.csv"),
    "view_sentiment": (ROOT / "examples" / "view_sentiment",
                       ROOT / "examples" / "view_sentiment" / "starting_kit" / "sample_submission.csv"),
    "keywords": (ROOT / "examples" / "keywords", ROOT / "examples" / "keywords" / "starting_kit" / "sample_submission.csv"),
    "multilabel": (ROOT / "examples" / "multilabel",
                   ROOT / "examples" / "multilabel" / "starting_kit" / "sample_submission.csv"),
    "emotion_cause": (ROOT / "examples" / "emotion_cause", ROOT / "examples" / "emotion_cause" / "starting_kit" / "submission"),
    "regression": (ROOT / "examples" / "regression",
                   ROOT / "examples" / "regression" / "starting_kit" / "sample_submission.csv"),
    "classification": (ROOT / "examples" / "classification",
                       ROOT / "examples" / "classification" / "starting_kit" / "sample_submission.csv"),
}
FAMILIES = sorted(DEMOS)
CSV_FAMILIES = [f for f in FAMILIES if f != "emotion_cause"]

# FUZZ_EXAMPLES=500 explores further (minutes); the default keeps the file well under a minute.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
FAST = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 12,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

GARBAGE = ["", " ", "   ", "\x00", "\"", "\"\"", "'", ",", "\t", ";", "\n", "\r", "\r\n", "，", "、", "\ufeff",
           "1e309", "-1e309", "nan", "NaN", "inf", "-inf", "-0", "0x10", "1e-400", "99999999999999999999999",
           "None", "null", "[]", "{}", "é", "\U0001F600", "\u202e", "\ud7ff", "x" * 5000, "O " * 3000,
           "B-BANK", "I-", "_", "__", "0.5 0.5", "a b c", "\\", "\x1b[31m", "<script>alert(1)</script>"]


class Workspace:
    """A board-A input folder whose res/ is refilled for every example."""

    def __init__(self, family, base):
        competition, sample = DEMOS[family]
        self.family = family
        self.input = base / "in"
        self.output = base / "out"
        assemble_reference(competition / "reference_data", "A", self.input / "ref")
        if sample.is_dir():
            self.sample = {p.name: p.read_bytes() for p in sorted(sample.iterdir()) if p.is_file()}
        else:
            self.sample = {sample.name: sample.read_bytes()}

    def score(self, files):
        """Score ``files`` ({relative name: bytes}); return the scores or the ScoringError."""
        res = self.input / "res"
        for folder in (res, self.output):
            if folder.exists():
                shutil.rmtree(folder)
        res.mkdir(parents=True)
        for name, data in files.items():
            path = res / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        try:
            result = run(str(self.input), str(self.output))
        except ScoringError as exc:
            assert exc.exit_code == 1, "exit %d: %s" % (exc.exit_code, exc.message)
            assert exc.message.strip() and "\n" not in exc.message and "\r" not in exc.message, repr(exc.message)
            return exc
        for key, value in result.scores.items():
            assert type(value) is float and math.isfinite(value), (key, value)
        on_disk = json.loads((self.output / "scores.json").read_text(encoding="utf-8"))
        assert all(isinstance(v, (int, float)) and math.isfinite(v) for v in on_disk.values()), on_disk
        return result.scores


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    return {f: Workspace(f, base / f) for f in FAMILIES}


def main_file(ws):
    """(name, bytes) of the file that mutations target; the others stay valid."""
    name = sorted(ws.sample)[0]
    return name, ws.sample[name]


def with_main(ws, data, name=None):
    files = dict(ws.sample)
    target, _ = main_file(ws)
    del files[target]
    files[name or target] = data
    return files


def sample_rows(ws):
    _, data = main_file(ws)
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def write_rows(rows, quoting):
    buf = io.StringIO()
    csv.writer(buf, quoting=quoting, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")




# --- every family ------------------------------------------------------------------------------
# keys that are no rate: their bounds (the others lie in [0, 1]); regression's errors are in the data's units
RANGES = {"coverage_error": (1.0, float("inf")), "rmse": (0.0, float("inf")), "mae": (0.0, float("inf")),
          "mse": (0.0, float("inf")), "rmsle": (0.0, float("inf")), "median_ae": (0.0, float("inf")),
          "mape": (0.0, float("inf")), "smape": (0.0, 2.0), "r2": (-float("inf"), 1.0), "pearson": (-1.0, 1.0),
          "spearman": (-1.0, 1.0), "kendall": (-1.0, 1.0)}

@pytest.mark.parametrize("family", FAMILIES)
def test_sample_submission_scores(workspaces, family):
    """The baseline sample gets every leaderboard key, primary first, each a rate (coverage error a count of
    labels, regression's keys within their own bounds), the primary one at neither bound; scores.json holds the
    same values."""
    from scorer.api import Competition
    from scorer.outputs import ordered_keys

    ws = workspaces[family]
    scores = ws.score(dict(ws.sample))
    comp = Competition.open(str(ws.input / "ref"))
    assert list(scores) == ordered_keys(comp.family.leaderboard_keys(comp.cfg.options), comp.cfg.primary_key)
    for key, value in scores.items():
        low, high = RANGES.get(key, (0.0, 1.0))
        assert low <= value <= high, (key, value)
    low, high = RANGES.get(comp.cfg.primary_key, (0.0, 1.0))
    assert low < scores[comp.cfg.primary_key] < high
    on_disk = json.loads((ws.output / "scores.json").read_text(encoding="utf-8"))
    # 10 decimals; a value in the hundred thousands (an MSE) is also one last bit away
    assert on_disk == {k: pytest.approx(v, rel=1e-15, abs=5e-11) for k, v in scores.items()}


def refused(outcome):
    return isinstance(outcome, ScoringError)


@pytest.mark.parametrize("family", FAMILIES)
@FAST
@given(data=st.binary(max_size=2000))
def test_random_bytes(workspaces, family, data):
    ws = workspaces[family]
    assert refused(ws.score(with_main(ws, data)))  # 2000 bytes cannot answer every test item


@pytest.mark.parametrize("family", FAMILIES)
@FAST
@given(fraction=st.floats(0, 1), extra=st.sampled_from([b"", b"\n", b"\x00", b"\"", b"\xff", b"\xe4\xb8"]))
def test_truncated_valid_file(workspaces, family, fraction, extra):
    ws = workspaces[family]
    _, data = main_file(ws)
    ws.score(with_main(ws, data[:int(len(data) * fraction)] + extra))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf\n\n", b" \n\t\n",
                                     b"\x00" * 64, b"\xef\xbb\xbf\xef\xbb\xbf", b"\n" * 10])
def test_degenerate_files(workspaces, family, content):
    ws = workspaces[family]
    assert refused(ws.score(with_main(ws, content)))


ARCHIVES = {"empty_zip": "refused", "nested_zip": "refused", "zip_and_file": "refused", "two_zips": "refused",
            "bad_zip": "refused", "zip_in_folder": "scored", "folder_only": "scored", "dir_named_like_file": "refused",
            "deep_nested_zip": "refused"}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("shape", sorted(ARCHIVES))
def test_archive_shapes(workspaces, family, shape):
    ws = workspaces[family]
    name, data = main_file(ws)
    if shape == "empty_zip":
        files = {"submission.zip": zipped({})}
    elif shape == "nested_zip":
        files = {"submission.zip": zipped({"inner.zip": zipped(ws.sample)})}
    elif shape == "deep_nested_zip":
        files = {"a.zip": zipped({"b.zip": zipped({"c.zip": zipped(ws.sample)})})}
    elif shape == "zip_and_file":
        files = dict(ws.sample, **{"submission.zip": zipped(ws.sample)})
    elif shape == "two_zips":
        files = {"one.zip": zipped(ws.sample), "two.zip": zipped(ws.sample)}
    elif shape == "bad_zip":
        files = {"submission.zip": zipped(ws.sample)[:100]}
    elif shape == "zip_in_folder":
        files = {"folder/submission.zip": zipped(ws.sample)}
    elif shape == "folder_only":
        files = {"sub/dir/" + n: d for n, d in ws.sample.items()}
    else:
        files = dict(ws.sample)
        del files[name]
        files[name + "/x"] = data
    expected = ARCHIVES[shape]
    if shape == "dir_named_like_file" and family == "emotion_cause":
        expected = "scored"  # subtask 1's file is absent: its keys score 0, subtask 2 is scored
    assert ("refused" if refused(ws.score(files)) else "scored") == expected


# with a BOM, or GB18030, a file is read as it was written; UTF-16 without BOM and UTF-32 are refused
CODECS = {"utf-8-sig": "scored", "utf-16": "scored", "gb18030": "scored", "utf-16-le": "refused",
          "latin-1": "scored", "utf-32": "refused"}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("codec", sorted(CODECS))
def test_reencoded_sample(workspaces, family, codec):
    ws = workspaces[family]
    name, data = main_file(ws)
    try:
        encoded = data.decode("utf-8").encode(codec)
    except UnicodeEncodeError:
        pytest.skip("the sample has characters %s cannot encode" % codec)
    outcome = ws.score(with_main(ws, encoded))
    assert ("refused" if refused(outcome) else "scored") == CODECS[codec], outcome
    if CODECS[codec] == "scored":
        assert outcome == ws.score(dict(ws.sample))  # the same numbers as the UTF-8 file


# --- delimited tables --------------------------------------------------------------------------

@pytest.mark.parametrize("family", CSV_FAMILIES)
@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), cells=st.lists(st.one_of(st.sampled_from(GARBAGE), st.text(max_size=30)),
                                                       min_size=1, max_size=4),
       quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONE]), raw=st.booleans())
def test_garbage_cells(workspaces, family, seed, cells, quoting, raw):
    ws = workspaces[family]
    rows = sample_rows(ws)
    rng = random.Random(seed)
    for cell in cells:
        i = rng.randrange(len(rows))
        j = rng.randrange(len(rows[i]))
        rows[i][j] = cell
    if raw or quoting == csv.QUOTE_NONE:
        data = "\n".join(",".join(r) for r in rows).encode("utf-8", "surrogatepass")
    else:
        data = write_rows(rows, quoting)
    ws.score(with_main(ws, data))


SEPARATOR_LIKE = ["\x01", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000", "\ufeff", "\u200b",
                  "\x00", "\t", "  ", "，", "\"", "e", "-", "_"]


@pytest.mark.parametrize("family", CSV_FAMILIES)
@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), inserted=st.lists(st.sampled_from(SEPARATOR_LIKE), min_size=1, max_size=3),
       replace_space=st.booleans())
def test_characters_inside_cells(workspaces, family, seed, inserted, replace_space):
    """Odd whitespace and control characters inside or between the tokens of a cell."""
    ws = workspaces[family]
    rows = sample_rows(ws)
    rng = random.Random(seed)
    for char in inserted:
        i = rng.randrange(1, len(rows))
        j = rng.randrange(len(rows[i]))
        cell = rows[i][j]
        if replace_space and " " in cell:
            spaces = [k for k, c in enumerate(cell) if c == " "]
            k = rng.choice(spaces)
            rows[i][j] = cell[:k] + char + cell[k + 1:]
        else:
            k = rng.randrange(len(cell) + 1)
            rows[i][j] = cell[:k] + char + cell[k:]
    ws.score(with_main(ws, write_rows(rows, csv.QUOTE_MINIMAL)))


@pytest.mark.parametrize("family", CSV_FAMILIES)
@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), action=st.sampled_from(["shuffle", "duplicate", "drop", "extra_column",
                                                                  "short_row", "header_only", "header_twice",
                                                                  "swap_columns", "upper_header", "blank_lines",
                                                                  "crlf", "trailing_separator"]))
def test_row_shapes(workspaces, family, seed, action):
    ws = workspaces[family]
    rows = sample_rows(ws)
    header, body = rows[0], rows[1:]
    rng = random.Random(seed)
    if action == "shuffle":
        rng.shuffle(body)
    elif action == "duplicate":
        body = body + rng.sample(body, min(len(body), rng.randint(1, 5)))
        rng.shuffle(body)
    elif action == "drop":
        del body[rng.randrange(len(body))]
    elif action == "extra_column":
        header, body = header + ["extra"], [r + ["x"] for r in body]
    elif action == "short_row":
        body[rng.randrange(len(body))] = body[0][:1]
    elif action == "header_only":
        body = []
    elif action == "header_twice":
        body.insert(rng.randrange(len(body)), header)
    elif action == "swap_columns":
        header, body = header[::-1], [r[::-1] for r in body]
    elif action == "upper_header":
        header = [h.upper() for h in header]
    elif action == "blank_lines":
        for _ in range(3):
            body.insert(rng.randrange(len(body) + 1), [])
    elif action == "trailing_separator":
        header, body = header + [""], [r + [""] for r in body]
    data = write_rows([header] + body, csv.QUOTE_MINIMAL)
    if action == "crlf":
        data = data.replace(b"\n", b"\r\n")
    ws.score(with_main(ws, data))


@pytest.mark.parametrize("family", CSV_FAMILIES)
@FAST
@given(sep=st.sampled_from(["\t", ";", "|", "，", " "]))
def test_wrong_separator(workspaces, family, sep):
    ws = workspaces[family]
    rows = sample_rows(ws)
    data = "\n".join(sep.join(r) for r in rows).encode("utf-8")
    outcome = ws.score(with_main(ws, data))
    tab_allowed = family in ("view_sentiment", "keywords", "regression")  # these tables are comma- or TAB-separated
    assert refused(outcome) != (sep == "\t" and tab_allowed), outcome


# --- JSON (emotion_cause) ----------------------------------------------------------------------

JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                        st.sampled_from(["1_joy", "1_0_5", "0_x", "1", "-1", "1_0_999999", "99_joy", "1_joy_x",
                                         "1_", "_", "1_0_-1", "1_5_0"]))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda children: st.one_of(
    st.lists(children, max_size=4), st.dictionaries(st.text(max_size=20) | st.sampled_from(
        ["conversation_ID", "emotion-cause_pairs"]), children, max_size=4)), max_leaves=12)


def _replace_random_node(tree, rng, value):
    """``tree`` with one randomly chosen node (not the root) replaced by ``value``."""
    path, node = [], tree
    while isinstance(node, (list, dict)) and node and (not path or rng.random() < 0.75):
        key = rng.randrange(len(node)) if isinstance(node, list) else rng.choice(sorted(node))
        path.append(key)
        node = node[key]
    if not path:
        return value
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return tree


@FAST
@given(value=JSON_VALUES)
def test_json_whole_shape(workspaces, value):
    ws = workspaces["emotion_cause"]
    data = json.dumps(value, allow_nan=True).encode("utf-8")
    ws.score(with_main(ws, data))


@settings(FAST, max_examples=EXAMPLES * 3)
@given(seed=st.integers(0, 2 ** 32 - 1), value=JSON_VALUES, which=st.sampled_from([0, 1]))
def test_json_node_replaced(workspaces, seed, value, which):
    ws = workspaces["emotion_cause"]
    name = sorted(ws.sample)[which]
    tree = json.loads(ws.sample[name])
    tree = _replace_random_node(tree, random.Random(seed), value)
    files = dict(ws.sample)
    files[name] = json.dumps(tree, allow_nan=True).encode("utf-8")
    ws.score(files)


@pytest.mark.parametrize("text", [
    '{"conversation_ID": 1, "emotion-cause_pairs": []}', "[[]]", "[1, 2]", '[{"conversation_ID": "1"}]',
    '[{"conversation_ID": 1e309, "emotion-cause_pairs": []}]', '[{"conversation_ID": NaN, "emotion-cause_pairs": []}]',
    '[{"conversation_ID": 1.5, "emotion-cause_pairs": []}]', '[{"conversation_ID": true, "emotion-cause_pairs": []}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_0_5", "x"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [[1, 2]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": "1_joy"}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_5_0"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_0_99999999999999999999"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["99999999999999999999_joy", "1_0_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["\u0661_joy", "\u0661_0_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_\u0660_\u0665"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_JOY", "1_0_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["-1_joy", "1_0_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "-1_0_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_-1_5"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": [["1_joy", "1_0_0"]]}]',
    '[{"conversation_ID": 1, "emotion-cause_pairs": []}, {"conversation_ID": 1, "emotion-cause_pairs": []}]',
    '[{"conversation_ID": 123456789, "emotion-cause_pairs": []}]', "null", '"text"', "1e309", "[", "\ufeff[]",
])
@pytest.mark.parametrize("which", [0, 1])
def test_json_handwritten_shapes(workspaces, text, which):
    ws = workspaces["emotion_cause"]
    name = sorted(ws.sample)[which]
    files = dict(ws.sample)
    files[name] = text.encode("utf-8")
    assert refused(ws.score(files))  # none lists every test conversation correctly
