"""Each family's options table in docs/ is the one its code declares, and every option explains itself."""
import dataclasses

import pytest

from helpers import ROOT  # noqa: F401  (puts the organizer package and the engine on the path)
from organizer import options_table
from scorer.tasks import families

FAMILIES = sorted(families())


def test_every_page_holds_the_table_of_its_code():
    assert options_table.stale_pages() == []


@pytest.mark.parametrize("name", FAMILIES)
def test_every_option_has_a_meaning_and_a_default_it_allows(name):
    for key, option in families()[name].options.items():
        assert len(option.doc) > 15, (name, key)
        assert option.validate(key, option.default) == option.default


def test_a_changed_option_makes_its_page_stale(monkeypatch):
    family = families()["keywords"]
    changed = dict(family.options)
    changed["mode"] = dataclasses.replace(changed["mode"], default="legacy")
    monkeypatch.setattr(family, "options", changed)
    stale = [path.name for path, _ in options_table.stale_pages()]
    assert stale == ["keywords.md"]


def test_the_table_row_is_written_as_config_yaml_reads_it():
    from scorer.config import Check, Option
    row = options_table.row("types", Option(["A", "B"], Check(bool, "a list"), "x | y"))
    assert row == "| `types` | `[A, B]` | a list | x \\| y |"
    assert options_table.row("k", Option(None, (None, 3), "d")) == "| `k` | `null` | `null`, `3` | d |"
