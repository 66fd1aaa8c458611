"""The parameter-free Ladder of a generation competition continued from best counts that an earlier program saved.

Before generation's per-measure Units groups, the primary key's per-unit table was one table of every measure, 66
columns (``segments``, BLEU's 10 counts, chrF's 18, chrF++'s 24, ROUGE's 12, ``exact``); the Ladder keeps the best
submission's table between runs (``ladder_units.npy``, or the organizer tool's state folder) under a key of the
config, not of the program. Such a table, met after an upgrade, must give the paired margin the same table of this
program gives, not the margin of a first submission."""
import csv
import io

import numpy as np
import pytest

from helpers import ROOT
from organizer.phase_data import assemble_reference
from scorer.api import Competition
from scorer.config import Feedback
from scorer.publish import ladder, policy

GENERATION = ROOT / "examples" / "generation"


def read(comp, tmp_path, name, rows):
    res = tmp_path / name
    res.mkdir()
    out = io.StringIO()
    writer = csv.DictWriter(out, ["id", "text"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (res / "predictions.csv").write_text(out.getvalue(), encoding="utf-8")
    return comp.read_submission(str(res))


def single_table(tables):
    """The one table of every measure, laid out as the program before the groups saved it (by hand, in its
    declared order)."""
    return np.column_stack([tables["rouge"][:, 0], tables["bleu"], tables["chrf"], tables["chrf_pp"],
                            tables["rouge"][:, 1:], tables["exact"][:, 1]])


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("generation_ladder")
    ref = assemble_reference(GENERATION / "reference_data", "A", tmp_path / "ref", reveal=True)
    comp = Competition.open(str(ref))
    with open(GENERATION / "starting_kit" / "submission" / "predictions.csv", encoding="utf-8") as fh:
        sample = list(csv.DictReader(fh))
    best = read(comp, tmp_path, "best", sample)
    # a later submission: a third of the texts cut to their first two words
    later = read(comp, tmp_path, "later", [{"id": r["id"], "text": " ".join(r["text"].split()[:2]) if k % 3 else
                                            r["text"]} for k, r in enumerate(sample)])
    return comp, comp.score(best), later


def test_each_groups_columns_are_read_from_the_single_table(scored):
    comp, best, _ = scored
    tables = {group.name: group.make() for group in best.units}
    single = single_table(tables)
    assert single.shape[1] == 66
    for name, table in tables.items():
        np.testing.assert_array_equal(comp.family.saved_table(name, single), table)
        # this program's own table is read as it is
        assert comp.family.saved_table(name, table) is table


def publish_with_saved(scored, monkeypatch, saved_of):
    """(this program's tables of the best, [(margin, Published)] of the later submission continued from each table
    ``saved_of(tables, group)`` gives), the margins recorded as the Ladder computed them."""
    comp, best, later = scored
    tables = {group.name: group.make() for group in best.units}
    primary = comp.cfg.primary_key
    margins = []
    paired_margin = ladder.paired_margin

    def recorded(current, saved, statistic, seed):
        margins.append(paired_margin(current, saved, statistic, seed))
        return margins[-1]

    monkeypatch.setattr(ladder, "paired_margin", recorded)
    state = ladder.State("k", 1, 1, best.scores[primary], dict(best.scores), True)
    settings = Feedback(ladder="parameter_free")
    published = [policy.publish(comp, later, policy.History(state, saved, 2, "k"), settings, interval=False)
                 for saved in saved_of(tables, best.units_of(primary).name)]
    return list(zip(margins, published))


def test_the_ladders_margin_from_a_single_table_is_the_paired_one(scored, monkeypatch):
    runs = publish_with_saved(scored, monkeypatch, lambda tables, group: (tables[group], single_table(tables), None))
    (this_program, _), (single, _), (first, _) = runs
    assert single == this_program
    assert this_program != pytest.approx(first, rel=1e-3)   # a first submission's margin differs: the test can fail


def test_a_saved_table_of_no_known_layout_is_said_to_the_organizer(scored, monkeypatch):
    """Counts of a shape neither this program's nor the earlier one's (another board's, another version's) give the
    margin of a first submission, and the run says so in the organizer's notes, not silently."""
    runs = publish_with_saved(scored, monkeypatch, lambda tables, group: (tables[group][:-1], None, tables[group]))
    (odd, published), (first, no_history), (own, continued) = runs
    assert odd == first and own != pytest.approx(first, rel=1e-3)
    notes = published.ladder_history_notes
    assert len(notes) == 1 and "per-unit counts have the shape" in notes[0] and "first submission" in notes[0]
    assert no_history.ladder_history_notes == [] and continued.ladder_history_notes == []


def test_the_organizers_ladder_prints_the_note(scored, tmp_path, capsys):
    """``organizer ladder`` keeps each team's best counts in its units folder; counts of another layout found there
    are said on the organizer's terminal, naming the team and the submission."""
    from organizer import ladder as organizer_ladder

    comp, best, later = scored
    team_dir = tmp_path / "subs" / "team1"
    team_dir.mkdir(parents=True)
    with open(GENERATION / "starting_kit" / "submission" / "predictions.csv", encoding="utf-8") as fh:
        sample = fh.read()
    for name in ("1", "2"):   # each submission a folder holding its predictions.csv
        (team_dir / name).mkdir()
        (team_dir / name / "predictions.csv").write_text(sample, encoding="utf-8")
    settings = Feedback(ladder="parameter_free")
    units = tmp_path / "units"
    units.mkdir()
    first = organizer_ladder.update(comp, "A", {"team1": [team_dir / "1"]}, {}, settings, units)
    assert first["team1"]["errors"] == {}, first
    saved = next(units.iterdir())
    np.save(saved, np.load(saved)[:, :-1], allow_pickle=False)   # counts of a layout this program does not know
    capsys.readouterr()
    organizer_ladder.update(comp, "A", {"team1": [team_dir / "1", team_dir / "2"]}, first, settings, units)
    err = capsys.readouterr().err
    assert "note: team team1, 2: history: the best submission's per-unit counts have the shape" in err, err
