"""Every participant-visible message has a Chinese text with the same fields as its English one.

Messages are collected two ways: the registry ``problems.MESSAGES`` (every Message registers its
key there, so keys are unique by construction; declaring one twice raises) and a walk over the
globals of every module under ``scorer`` and of the organizer's published pages
(``organizer.messages.PUBLISHED``: Messages, and tuples/lists/dicts of them), so that a Message kept
outside the registry would still be checked.
"""
import importlib
import pkgutil

import pytest

import scorer
from scorer.problems import MESSAGES, Message


def _all_modules():
    from organizer.messages import PUBLISHED

    names = ["scorer"]
    for info in pkgutil.walk_packages(scorer.__path__, "scorer."):
        names.append(info.name)
    return [importlib.import_module(name) for name in sorted(names) + list(PUBLISHED)]


def _messages_in(value, depth=0):
    if isinstance(value, Message):
        yield value
    elif depth < 3 and isinstance(value, (tuple, list)):
        for item in value:
            yield from _messages_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _messages_in(item, depth + 1)


def _collected():
    found = {}
    for module in _all_modules():
        for value in list(vars(module).values()):
            for message in _messages_in(value):
                found[id(message)] = message
    for message in MESSAGES.values():
        found[id(message)] = message
    return sorted(found.values(), key=lambda m: m.key)


MESSAGES_FOUND = _collected()


def test_the_walk_finds_messages_of_every_layer():
    keys = {m.key for m in MESSAGES_FOUND}
    assert len(keys) > 50
    assert any(k.startswith("report.") for k in keys)
    assert any(k.startswith("rescore.") for k in keys)   # the re-scored leaderboard's page


def test_keys_are_unique():
    keys = [m.key for m in MESSAGES_FOUND]
    assert len(keys) == len(set(keys))
    for message in MESSAGES_FOUND:
        assert MESSAGES.get(message.key) is message, message.key


@pytest.mark.parametrize("message", [m for m in MESSAGES_FOUND if not m.key.startswith("reference.")],
                         ids=lambda m: m.key)
def test_participant_message_has_chinese(message):
    zh = message.texts["zh"]
    assert zh and zh.strip(), message.key
    assert message.fields("zh") == message.fields("en"), message.key


def test_the_organizer_prints_one_catalogue_per_language(tmp_path):
    from helpers import organizer

    wanted = {m.key for m in MESSAGES_FOUND if not m.key.startswith("reference.")}
    for lang in ("en", "zh"):
        out = tmp_path / ("messages.%s.tsv" % lang)
        proc = organizer("messages", "--language", lang, "--out", out)
        assert proc.returncode == 0, proc.stderr
        rows = dict(line.split("\t", 1) for line in out.read_text(encoding="utf-8").splitlines())
        assert set(rows) == wanted
        for key, text in rows.items():
            assert text == " ".join(MESSAGES[key].texts[lang].split()), key
