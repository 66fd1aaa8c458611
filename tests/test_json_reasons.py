"""A submission that is not valid JSON, in every family that reads JSON (qa, generation, emotion_cause): exit 1 and
one line in the competition's language, json's own reason included, translated for a Chinese competition; and the
reasons the program translates are the very texts Python's json module gives (a text that drifted from json's
would be shown untranslated)."""
import json
import sys

import pytest

from helpers import assert_participant_error, make_input, run_score
from scorer.textio import JSON_REASONS

# json's reason for each broken text, in English and as a Chinese competition shows it (translated here, not by
# the program); the trailing commas give their own reasons from Python 3.13
TRAILING_OBJECT = ("Illegal trailing comma before end of object", "对象结尾前多了一个逗号") if sys.version_info >= (3, 13) \
    else ("Expecting property name enclosed in double quotes", "此处应有用双引号括起的属性名")
TRAILING_ARRAY = ("Illegal trailing comma before end of array", "数组结尾前多了一个逗号") if sys.version_info >= (3, 13) \
    else ("Expecting value", "此处应有一个值")
BROKEN = {
    '{"q1": "a",}': TRAILING_OBJECT,
    '[{"conversation_ID": 1},]': TRAILING_ARRAY,
    '{"q1": "a"} {}': ("Extra data", "JSON 值之后还有多余的内容"),
    '{"q1" "a"}': ("Expecting ':' delimiter", "此处应有冒号 :"),
    '{"q1": "a" "q2": "b"}': ("Expecting ',' delimiter", "此处应有逗号 ,"),
    '{"q1": "a': ("Unterminated string starting at", "字符串从此处开始却没有结束"),
    '{"q1": "a\tb"}': ("Invalid control character at", "字符串中有非法的控制字符"),
    '{"q1": "\\q"}': ("Invalid \\escape", "非法的 \\ 转义"),
    '{"q1": "\\u12"}': ("Invalid \\uXXXX escape", "非法的 \\uXXXX 转义"),
    '': ("Expecting value", "此处应有一个值"),
}


@pytest.mark.parametrize("text", sorted(BROKEN))
def test_json_gives_the_reasons_the_program_translates(text):
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    english, chinese = BROKEN[text]
    assert caught.value.msg == english
    assert JSON_REASONS[english].texts == {"en": english, "zh": chinese}


GOLD_QA = json.dumps([{"id": "q1", "answers": ["Secret answer"]}, {"id": "q2", "answers": ["Hidden"]}])
GOLD_GEN = "id,reference\nq1,Secret reference\nq2,Hidden reference\n"
CONVS = [{"conversation_ID": 1, "conversation": [{"utterance_ID": 1, "text": "The secret match was won ."}],
          "emotion-cause_pairs": [["1_joy", "1_The secret match was won"]]}]


def competition(family, language):
    options = {"qa": "options: {rules: squad_v1.1}\n", "generation": "", "emotion_cause": ""}[family]
    ref = {"config.yaml": "task: %s\nlanguage: %s\n%s" % (family, language, options)}
    if family == "qa":
        ref["gold.json"] = GOLD_QA
    elif family == "generation":
        ref["gold.csv"] = GOLD_GEN
    else:
        ref["Subtask_1_gold.json"] = ref["Subtask_2_gold.json"] = json.dumps(CONVS)
    return ref


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("family,name", [("qa", "predictions.json"), ("generation", "predictions.json"),
                                         ("emotion_cause", "Subtask_1_pred.json")])
@pytest.mark.parametrize("text", ['{"q1": "a",}', '{"q1": "a"} {}', '{"q1": "\\q"}'])
def test_a_broken_json_file_says_where_and_why_in_the_competitions_language(tmp_path, family, name, language, text):
    res = {name: text}
    if family == "emotion_cause":
        res["Subtask_2_pred.json"] = json.dumps([{"conversation_ID": 1, "emotion-cause_pairs": []}])
    proc = run_score(make_input(tmp_path, competition(family, language), res), tmp_path / "out")
    english, chinese = BROKEN[text]
    where = "%s line 1" % name if language == "en" else "%s 第 1 行" % name
    line = assert_participant_error(proc, where, english if language == "en" else chinese)
    if language == "zh":
        assert english not in line
    for secret in ("Secret", "secret", "Hidden"):
        assert secret not in line
