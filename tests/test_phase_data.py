"""A phase's reference data (organizer/phase_data.py): one board's answers, scored exactly as the whole gold scores it.

The platforms hold what is uploaded for each phase, and Codabench serves it to anyone, so a phase's reference
data holds the public test inputs and the answers of its own board only (none while the board is sealed). The
engine checks a submission against every test unit of the public inputs, then scores it against the board's
gold (``TaskFamily.take`` keeps the submission's answers of the gold's units). These tests hold that to the
organizer's whole gold: every score, every per-unit count and every page byte (but the config's fingerprint)
are the same.
"""
import csv
import io
import json
import shutil

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import ROOT, run_score, write_files
from test_review_determinism import DEMOS, sample_files, spoil_board_b

from organizer.layout import board_config_bytes, reference_files
from organizer.phase_data import PhaseDataError, keep_units, phase_entries
from scorer import report
from scorer.api import Competition
from scorer.platform.cli import HIDDEN_REFERENCE, REPRODUCE
from scorer.i18n import error_line
from scorer.errors import ConfigError, ReferenceDataError
from scorer.tables import table_of
from scorer.tasks import families
from scorer.tasks.base import UnitFile


def whole_gold(competition, board, target):
    """The organizer's reference_data/ with the board's config (whole gold, boards.csv): the engine's other mode."""
    reference = competition / "reference_data"
    target.mkdir(parents=True, exist_ok=True)
    for path in reference_files(reference):
        shutil.copy(path, target / path.name)
    raw = yaml.safe_load(board_config_bytes(reference, board, reveal=True).decode("utf-8"))
    (target / "config.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return target


def reordered(family, files):
    """The same answers with the rows in reverse order (conversations reversed for emotion-cause)."""
    out = {}
    for name, data in files.items():
        if family == "emotion_cause":
            out[name] = json.dumps(json.loads(data.decode("utf-8"))[::-1]).encode("utf-8")
            continue
        if name.endswith(".json"):   # qa: one object, its entries the other way round
            answers = json.loads(data.decode("utf-8"))
            out[name] = json.dumps(dict(reversed(list(answers.items())))).encode("utf-8")
            continue
        lines = data.decode("utf-8").rstrip("\n").split("\n")
        out[name] = ("\n".join(lines[:1] + lines[1:][::-1]) + "\n").encode("utf-8")
    return out


def submissions(family):
    files = sample_files(family)
    out = {"sample": files, "spoiled": spoil_board_b(family, files), "reversed": reordered(family, files)}
    if family == "keywords":   # a sample without a row scores 0 and is counted as missing on the page
        (name, data), = files.items()
        lines = data.decode("utf-8").rstrip("\n").split("\n")
        out["partial"] = {name: ("\n".join(lines[:1] + [l for k, l in enumerate(lines[1:]) if k % 5]) + "\n")
                          .encode("utf-8")}
    if family == "view_sentiment":   # rows repeated exactly, counted once (repeated_rows: merge_identical)
        (name, data), = files.items()
        lines = data.decode("utf-8").rstrip("\n").split("\n")
        out["repeated"] = {name: ("\n".join(lines + lines[1::7]) + "\n").encode("utf-8")}
    return out


def shuffled_copy(tmp_path, family):
    """The demo competition with its public test inputs in reverse order (the gold's order differs from the
    contract's), and view-sentiment merging repeated rows."""
    source, target = DEMOS[family][0], tmp_path / "competition"
    shutil.copytree(source / "reference_data", target / "reference_data")
    shutil.copytree(source / "starting_kit", target / "starting_kit")
    public = target / "starting_kit" / families()[family].public_inputs
    if public.suffix == ".json":   # emotion_cause's conversations, qa's questions
        public.write_text(json.dumps(json.loads(public.read_text(encoding="utf-8"))[::-1]), encoding="utf-8")
    else:
        with open(public, encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        with open(public, "w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows(rows[:1] + rows[1:][::-1])
    if family == "view_sentiment":
        for config in (target / "reference_data").glob("board_*.yaml"):
            raw = yaml.safe_load(config.read_text(encoding="utf-8"))
            raw["options"]["repeated_rows"] = "merge_identical"
            config.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return target


def read(comp, files, folder):
    write_files(folder, files)
    return comp.read_submission(str(folder))


@pytest.mark.parametrize("family", sorted(DEMOS))
def test_a_board_scores_the_same_from_its_phase_data_as_from_the_whole_gold(tmp_path, family):
    competition = shuffled_copy(tmp_path, family)
    for board in ("A", "B"):
        whole = Competition.open(str(whole_gold(competition, board, tmp_path / ("whole_" + board))))
        phase = Competition.open(str(write_files(tmp_path / ("phase_" + board),
                                                 phase_entries(competition, board, reveal=True))))
        assert phase.cfg.one_board and not whole.cfg.one_board
        assert len(phase.reference.units) == int(whole.boards.mask(board).sum()) < len(phase.contract.units)
        assert (np.diff(phase.positions) < 0).all()   # the contract lists the units the other way round
        answers = {}
        for name, files in submissions(family).items():
            a = read(whole, files, tmp_path / board / name / "whole")
            b = read(phase, files, tmp_path / board / name / "phase")
            expected, got = whole.score(a, board), phase.score(b)
            assert got.scores == expected.scores, (board, name)
            # the page's sections too (counts of missing rows, merged rows, ... of the board's units)
            assert report.render("t", got.report_sections(), got.summary, "en", "") == \
                report.render("t", expected.report_sections(), expected.summary, "en", ""), (board, name)
            for group in expected.units:   # the per-unit counts behind the intervals and the paired tests
                assert np.array_equal(got.units_of(group.keys[0]).make(), group.make()), (board, name, group.name)
            answers[name] = (whole.family.unit_answers(whole.reference, a)[whole.boards.mask(board)],
                             phase.family.unit_answers(phase.reference, b))
        # a digest is made with its unit's number: the units where two submissions agree are what compares
        for other in ("spoiled", "reversed"):
            same = [answers["sample"][k] == answers[other][k] for k in (0, 1)]
            assert np.array_equal(same[0], same[1]), (board, other)
        assert answers["sample"][1].any()


@pytest.mark.parametrize("family", sorted(DEMOS))
def test_score_py_writes_the_same_files_from_either(tmp_path, family):
    competition = DEMOS[family][0]
    runs = {}
    for mode in ("whole", "phase"):
        base = tmp_path / mode
        if mode == "whole":
            whole_gold(competition, "A", base / "in" / "ref")
        else:
            write_files(base / "in" / "ref", phase_entries(competition, "A"))
        write_files(base / "in" / "res", sample_files(family))
        proc = run_score(base / "in", base / "out")
        assert proc.returncode == 0, proc.stderr
        page = (base / "out" / "detailed_results.html").read_text(encoding="utf-8")
        runs[mode] = ((base / "out" / "scores.json").read_bytes(), page.split("<footer>")[0],
                      proc.stdout.replace(str(base), ""))
    assert runs["whole"] == runs["phase"]


def test_a_sealed_phase_checks_every_unit_and_scores_nothing(tmp_path):
    ref = write_files(tmp_path / "ref", phase_entries(ROOT, "B"))
    comp = Competition.open(str(ref))
    assert comp.reference is None and comp.cfg.report == "sealed"
    assert len(comp.contract.units) == sum(1 for _ in open(ROOT / "starting_kit" / "test_public.csv", encoding="utf-8")) - 1
    sub = read(comp, sample_files("bank_comments"), tmp_path / "res")
    with pytest.raises(ReferenceDataError, match="holds no answers"):
        comp.score(sub)
    lines = (ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8").splitlines()
    with pytest.raises(Exception, match="have no row"):   # a row of a board-B unit is still required
        read(comp, {"s.csv": "\n".join(lines[:-1]) + "\n"}, tmp_path / "res2")


def test_a_phase_scores_its_own_board_only(tmp_path):
    comp = Competition.open(str(write_files(tmp_path / "ref", phase_entries(ROOT, "A"))))
    sub = read(comp, sample_files("bank_comments"), tmp_path / "res")
    assert comp.score(sub).scores == comp.score(sub, "A").scores
    with pytest.raises(ReferenceDataError, match="answers of board A only"):
        comp.score(sub, "B")


def _phase(tmp_path, edit):
    entries = phase_entries(ROOT, "A")
    edit(entries)
    return write_files(tmp_path / "ref", entries)


def test_the_gold_and_the_public_inputs_must_describe_the_same_units(tmp_path):
    def drop_public_row(entries):   # a gold unit the public inputs lack
        lines = entries["public/test_public.csv"].decode("utf-8").splitlines()
        gold_ids = {line.split(",")[0] for line in entries["gold.csv"].decode("utf-8").splitlines()[1:]}
        kept = [l for l in lines if l.split(",")[0] not in sorted(gold_ids)[:1]]
        entries["public/test_public.csv"] = ("\n".join(kept) + "\n").encode("utf-8")

    with pytest.raises(ReferenceDataError, match="1 unit\\(s\\) of the gold are not in the public test inputs"):
        Competition.open(str(_phase(tmp_path / "a", drop_public_row)))

    def text_of(which, change):   # the public text of one gold unit, changed
        def edit(entries):
            rows = list(csv.reader(io.StringIO(entries["public/test_public.csv"].decode("utf-8"))))
            gold_ids = [line.split(",")[0] for line in entries["gold.csv"].decode("utf-8").splitlines()[1:]]
            for row in rows:
                if row[0] == gold_ids[which]:
                    row[1] = change(row[1])
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(rows)
            entries["public/test_public.csv"] = buf.getvalue().encode("utf-8")
        return edit

    # a text of another length than the gold's tags: longer, or shorter
    with pytest.raises(ReferenceDataError, match="tags in the gold for a text of"):
        Competition.open(str(_phase(tmp_path / "b", text_of(3, lambda text: text + "！"))))
    with pytest.raises(ReferenceDataError, match="tags in the gold for a text of"):
        Competition.open(str(_phase(tmp_path / "b2", text_of(-1, lambda text: text[:-1]))))

    def no_public(entries):
        del entries["public/test_public.csv"]

    with pytest.raises(ReferenceDataError, match="has no test_public.csv"):
        Competition.open(str(_phase(tmp_path / "c", no_public)))


def test_emotion_cause_conversations_must_match_the_public_ones(tmp_path):
    competition = DEMOS["emotion_cause"][0]
    entries = phase_entries(competition, "A")
    public = json.loads(entries["public/Subtask_1_test.json"].decode("utf-8"))
    gold_ids = {str(c["conversation_ID"]) for c in json.loads(entries["Subtask_1_gold.json"].decode("utf-8"))}
    changed = next(c for c in public if str(c["conversation_ID"]) in gold_ids)
    changed["conversation"][0]["text"] += " again"
    entries["public/Subtask_1_test.json"] = json.dumps(public).encode("utf-8")
    with pytest.raises(ReferenceDataError, match="the texts of its utterances differ"):
        Competition.open(str(write_files(tmp_path / "ref", entries)))


def test_public_inputs_is_a_folder_inside_the_reference_data_and_excludes_a_split(tmp_path):
    for value in ("/etc", "../x", "a/../b", "", 3):
        ref = _phase(tmp_path / ("v%s" % abs(hash(str(value)))), lambda e: None)
        raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
        raw["public_inputs"] = value
        (ref / "config.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
        with pytest.raises(ConfigError, match="public_inputs"):
            Competition.open(str(ref))
    ref = _phase(tmp_path / "split", lambda e: None)
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    raw["boards"] = {"file": "boards.csv"}
    (ref / "config.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(ConfigError, match="boards and public_inputs are both given"):
        Competition.open(str(ref))


def test_the_size_cap_comes_from_public_sizes_and_is_the_same_on_every_board():
    caps = {board: yaml.safe_load(phase_entries(ROOT, board, reveal)["config.yaml"])["max_submission_mb"]
            for board, reveal in (("A", False), ("B", False), ("B", True))}
    assert len(set(caps.values())) == 1
    public = (ROOT / "starting_kit" / "test_public.csv").stat().st_size
    assert caps["A"] == round(max(16 * 2 ** 20, 20 * public) / 2 ** 20, 3)


def test_a_competition_folder_that_cannot_give_phase_data_says_why(tmp_path):
    copy = tmp_path / "comp"
    shutil.copytree(ROOT / "reference_data", copy / "reference_data")
    with pytest.raises(PhaseDataError, match="starting_kit/test_public.csv is missing"):
        phase_entries(copy, "A")
    shutil.copytree(ROOT / "starting_kit", copy / "starting_kit")
    raw = yaml.safe_load((copy / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    raw["public_inputs"] = "public"
    (copy / "reference_data" / "board_A.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(PhaseDataError, match="board_A.yaml: .*public_inputs"):
        phase_entries(copy, "A")


# -- the per-unit files: rows kept as the engine reads them ----------------------------------------------
CELL = st.text(alphabet=st.sampled_from(list('ab ,"\t\n\r\\中') + ["\u00e9"]), max_size=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.text(alphabet="xyz0123", min_size=1, max_size=3), CELL, CELL), min_size=1,
                     max_size=8, unique_by=lambda r: r[0]),
       sep=st.sampled_from([",", "\t"]), keep=st.integers(min_value=0, max_value=255))
def test_kept_rows_read_back_as_the_engine_read_them(rows, sep, keep):
    """The engine's reading of a file written with csv.writer, and of the rows keep_units keeps of it: the same
    cells (trailing spaces, quotes, separators and line ends inside cells included)."""
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\n").writerows([("id", "a", "b")] + list(rows))
    data = buf.getvalue().encode("utf-8")
    try:
        before = table_of(data, "g.csv", ["id"])
    except ReferenceDataError:
        return   # a file the engine refuses is refused the same way by the organizer tools
    ids = before.cells("id").strip().to_objects().tolist()
    units = {u for k, u in enumerate(ids) if keep >> (k % 8) & 1}
    after = table_of(keep_units(data, "g.csv", UnitFile("csv", "id", ("id", "a", "b")), units), "g.csv", ["id"])
    rows_kept = [k for k, u in enumerate(ids) if u in units]
    for column in ("id", "a", "b"):
        assert after.cells(column).to_objects().tolist() == [before.cells(column).to_objects()[k] for k in rows_kept]


def test_only_the_columns_the_family_reads_are_kept():
    data = "id,remark,keywords\n1,note,a_b\n2,,c\n".encode("utf-8")
    kept = keep_units(data, "gold.csv", UnitFile("csv", "id", ("id", "keywords")), {"2"})
    assert kept.decode("utf-8") == "id,keywords\n2,c\n"
    data = json.dumps([{"conversation_ID": 7, "x": 1}, {"conversation_ID": "8", "x": 2}]).encode("utf-8")
    kept = keep_units(data, "g.json", UnitFile("json", "conversation_ID", canonical=lambda v: str(int(v))), {"8"})
    assert json.loads(kept) == [{"conversation_ID": "8", "x": 2}]


# -- a phase's gold must hold the units its config names (board_units) ------------------------------------------
def _unit_rows(data, name, rule):
    """(header, [(unit id, row)]) of a per-unit reference file: csv rows (csv module), or json entries."""
    if rule.form == "json":
        ident = rule.canonical or (lambda v: str(v).strip())
        return None, [(ident(e.get(rule.key)), e) for e in json.loads(data.decode("utf-8"))]
    text = data.decode("utf-8")
    sep = "\t" if "\t" in text.split("\n", 1)[0] else ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
    key = rows[0].index(rule.key)
    return (rows[0], sep), [(row[key].strip(), row) for row in rows[1:]]


def _unit_file(header, rows, rule):
    if rule.form == "json":
        return json.dumps([row for _, row in rows], ensure_ascii=False, indent=1).encode("utf-8")
    buf = io.StringIO()
    csv.writer(buf, delimiter=header[1], lineterminator="\n").writerows([header[0]] + [row for _, row in rows])
    return buf.getvalue().encode("utf-8")


def damaged(family, entries, how):
    """The phase's entries with each per-unit file changed the same way: ``lost`` (the rows of the last tenth of
    its units gone, as a cut upload), ``header`` (the header alone: no row) or ``reordered`` (rows reversed)."""
    entries = dict(entries)
    cfg = yaml.safe_load(entries["config.yaml"])
    fam = families()[family]
    files = dict(fam.default_files, **(cfg.get("files") or {}))
    for slot, rule in fam.unit_files.items():
        name = files[slot]
        header, rows = _unit_rows(entries[name], name, rule)
        units = list(dict.fromkeys(unit for unit, _ in rows))
        if how == "lost":
            gone = set(units[-max(1, len(units) // 10):])
            rows = [(unit, row) for unit, row in rows if unit not in gone]
        elif how == "header":
            rows = []
        else:
            rows = rows[::-1]
        entries[name] = _unit_file(header, rows, rule)
    return entries


@pytest.mark.parametrize("family", sorted(DEMOS))
def test_a_phase_gold_that_lost_rows_or_holds_its_header_only_is_refused_and_a_reordered_one_is_not(tmp_path, family):
    competition = DEMOS[family][0]
    entries = phase_entries(competition, "A")
    count = yaml.safe_load(entries["config.yaml"])["board_units"]["count"]
    assert count == len(Competition.open(str(write_files(tmp_path / "sound", entries))).reference.units)
    outcome = {}
    for how in ("sound", "lost", "header", "reordered"):
        base = tmp_path / how
        write_files(base / "in" / "ref", entries if how == "sound" else damaged(family, entries, how))
        write_files(base / "in" / "res", sample_files(family))
        outcome[how] = run_score(base / "in", base / "out")
    assert outcome["sound"].returncode == 0, outcome["sound"].stderr
    for how in ("lost", "header"):
        proc = outcome[how]
        # an organizer's error: exit 2 and the contract's generic line for a participant, nothing of the gold
        assert proc.returncode == 2, (how, proc.returncode, proc.stderr)
        lang = yaml.safe_load(entries["config.yaml"]).get("language", "en")
        assert proc.stderr.strip().splitlines() == [error_line("reference data error", HIDDEN_REFERENCE(
            details=REPRODUCE()).text(lang), lang)], proc.stderr
        assert not (tmp_path / how / "out" / "scores.json").exists()
        with pytest.raises(ReferenceDataError, match="holds %d unit\\(s\\) of board A, not the number config.yaml's "
                           "board_units says: %d unit\\(s\\)" % (count - max(1, count // 10) if how == "lost" else 0,
                                                                 count)):
            Competition.open(str(tmp_path / how / "in" / "ref"))
    assert outcome["reordered"].returncode == 0, outcome["reordered"].stderr
    assert (tmp_path / "reordered" / "out" / "scores.json").read_bytes() == \
        (tmp_path / "sound" / "out" / "scores.json").read_bytes()


def test_a_phase_gold_with_other_units_of_the_same_number_is_refused(tmp_path):
    entries = phase_entries(ROOT, "A")
    public = (ROOT / "starting_kit" / "test_public.csv").read_text(encoding="utf-8").splitlines()
    gold = entries["gold.csv"].decode("utf-8").splitlines()
    on_a = {line.split(",")[0] for line in gold[1:]}
    other = next(line.split(",")[0] for line in public[1:] if line.split(",")[0] not in on_a)   # a board-B unit
    gold[1] = other + gold[1][len(gold[1].split(",")[0]):]
    entries["gold.csv"] = ("\n".join(gold) + "\n").encode("utf-8")
    with pytest.raises(ReferenceDataError, match="holds 2000 unit\\(s\\) of board A, not what config.yaml's "
                       "board_units says: 2000 unit\\(s\\), their ids' SHA-256"):
        Competition.open(str(write_files(tmp_path / "ref", entries)))


def test_board_units_are_checked_as_written(tmp_path):
    ref = _phase(tmp_path, lambda e: None)
    raw = yaml.safe_load((ref / "config.yaml").read_text(encoding="utf-8"))
    for value, says in (({"count": -1, "sha256": "0" * 64}, "board_units.count"),
                        ({"count": 3, "sha256": "xyz"}, "board_units.sha256"),
                        ({"count": 3}, "board_units.sha256"), ({"count": 3, "sha": "0" * 64}, "board_units.sha")):
        (ref / "config.yaml").write_text(yaml.safe_dump(dict(raw, board_units=value)), encoding="utf-8")
        with pytest.raises(ConfigError, match=says):
            Competition.open(str(ref))
    whole = whole_gold(ROOT, "A", tmp_path / "whole")   # the whole gold has no board_units to hold
    raw = yaml.safe_load((whole / "config.yaml").read_text(encoding="utf-8"))
    (whole / "config.yaml").write_text(yaml.safe_dump(dict(raw, board_units={"count": 1, "sha256": "0" * 64})),
                                       encoding="utf-8")
    with pytest.raises(ConfigError, match="board_units"):
        Competition.open(str(whole))


def test_the_id_digest_is_sha256_of_the_sorted_ids_each_followed_by_nul():
    from scorer.digests import id_set
    import hashlib
    import random

    rng = random.Random(7)
    alphabet = "ab0Z \u00e9\u4e2d\U0001F600"
    for _ in range(300):
        ids = list({"".join(rng.choice(alphabet) for _ in range(rng.choice([1, 3, 8, 9, 17, 70])))
                    for _ in range(rng.randint(0, 40))})
        expected = hashlib.sha256(b"".join(i.encode("utf-8") + b"\0" for i in sorted(ids))).hexdigest()
        assert id_set(ids) == (len(ids), expected), ids
        rng.shuffle(ids)
        assert id_set(ids) == (len(ids), expected)
