"""Each family declares its submission once (``TaskFamily.submission_files``): the engine reads by it, and the
starting kit's sample and texts agree with it."""
import fnmatch

import pytest
import yaml

from helpers import ROOT
from organizer.start.render import texts
from scorer.tasks import families

COMPETITIONS = [ROOT] + sorted(p for p in (ROOT / "examples").iterdir() if (p / "reference_data").is_dir())


@pytest.mark.parametrize("competition", COMPETITIONS, ids=lambda p: p.name)
def test_the_sample_submission_has_the_declared_files_and_header(competition):
    task = yaml.safe_load((competition / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))["task"]
    family = families()[task]
    kit = competition / "starting_kit"
    samples = sorted(kit.glob("sample_submission*")) or sorted((kit / "submission").iterdir())
    required = family.submission_slots if family.required_slots is None else family.required_slots
    for declared in family.submission_files:
        found = [p for p in samples if fnmatch.fnmatch(p.name, declared.pattern)]
        if not found and required and declared.slot not in required:
            continue   # an optional file (qa's no-answer probabilities)
        assert found, (declared.slot, [p.name for p in samples])
        # a text family's file may be JSON (its form is its name's ending): the columns are its table form's
        if declared.columns and not found[0].name.endswith((".json", ".jsonl")):
            header = found[0].read_text(encoding="utf-8-sig").split("\n", 1)[0]
            assert header in (declared.header, ",".join(declared.columns + declared.optional)), header


@pytest.mark.parametrize("family", sorted(families()))
def test_the_texts_of_new_quote_the_declared_header(family):
    for lang in ("en", "zh"):
        format_text = texts(family, lang)["format"]
        for declared in families()[family].submission_files:
            assert (declared.header if declared.columns else declared.pattern) in "".join(
                str(v) for v in texts(family, lang).values()), (family, lang)
        assert "$header" not in format_text and "$file_" not in format_text
