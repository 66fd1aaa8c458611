"""validate.py's warnings: a valid file that will score badly says so and how to fix it, and nothing changes for the
platform (the same file scores there, exit 0); repeated problems are grouped and the hidden ones counted."""
import json

from helpers import ROOT, make_input, read_scores, run_score
from scorer.kit import check, report_lines
from bundle_shared import read_csv

EXAMPLES = ROOT / "examples"


def board_a_config(competition):
    import yaml

    folder = ROOT if competition == "bank" else EXAMPLES / competition
    config = yaml.safe_load((folder / "reference_data" / "board_A.yaml").read_text(encoding="utf-8"))
    return dict(config, language="en")  # the texts below are English; zh is asked for explicitly


def kit_of(competition):
    return ROOT / "starting_kit" if competition == "bank" else EXAMPLES / competition / "starting_kit"


def validate(competition, submission, config=None):
    """(lines, exit code) of validate.py's check, run in this process."""
    result = check(str(submission), str(kit_of(competition)), config or board_a_config(competition))
    return report_lines(result, submission.name)


def platform_scores(competition, submission, tmp_path):
    """score.py on board A with the file as uploaded: it must score (warnings are the offline check's only)."""
    folder = ROOT if competition == "bank" else EXAMPLES / competition
    ref = {p.name: p.read_bytes() for p in (folder / "reference_data").iterdir() if p.name != "board_B.yaml"}
    ref["config.yaml"] = ref.pop("board_A.yaml")
    files = {p.relative_to(submission).as_posix(): p.read_bytes() for p in submission.rglob("*") if p.is_file()} \
        if submission.is_dir() else {submission.name: submission.read_bytes()}
    inp = make_input(tmp_path / "platform", ref, files)
    proc = run_score(inp, tmp_path / "platform" / "out")
    assert proc.returncode == 0, proc.stderr
    return read_scores(tmp_path / "platform" / "out")


def write(tmp_path, name, header, rows):
    path = tmp_path / name
    path.write_text("\n".join([header] + rows) + "\n", encoding="utf-8")
    return path


def warnings_of(lines):
    return [l[4:] for l in lines[1:] if l.startswith("  - ")]


# -- keywords ------------------------------------------------------------------------------------------------
def keyword_rows():
    return read_csv(EXAMPLES / "keywords" / "starting_kit" / "sample_submission.csv")


def test_keywords_joined_by_another_separator_are_a_warning_and_score_far_lower(tmp_path):
    rows = [r for r in keyword_rows() if r["keywords"]]
    good = write(tmp_path, "good.csv", "id,keywords", ["%s,%s" % (r["id"], r["keywords"]) for r in rows])
    bad = write(tmp_path, "semicolons.csv", "id,keywords",
                ["%s,%s" % (r["id"], r["keywords"].replace("_", ";")) for r in rows])
    lines, code = validate("keywords", bad)
    assert code == 0 and lines[0].startswith("semicolons.csv: valid (checked against the 1,500 test items)")
    joined = [w for w in warnings_of(lines) if "joined by ';'" in w]
    assert len(joined) == 1 and "this task joins them with '_'" in joined[0] and "Join the keywords" in joined[0]
    # what the warning is about: the platform accepts the file, and it scores far lower
    multi = sum("_" in r["keywords"] for r in rows) / len(rows)
    assert multi > 0.5
    assert platform_scores("keywords", bad, tmp_path / "bad")["macro_f1"] < \
        0.5 * platform_scores("keywords", good, tmp_path / "good")["macro_f1"]


def test_keywords_rows_missing_or_empty_are_listed_by_id(tmp_path):
    rows = keyword_rows()
    units = [r["id"] for r in read_csv(EXAMPLES / "keywords" / "starting_kit" / "test_public.csv")]
    kept = rows[:-12]
    given = {r["id"] for r in kept}
    missing = [u for u in units if u not in given]  # in test order, as the warning lists them
    empty = [r["id"] for r in kept if not r["keywords"]]
    path = write(tmp_path, "some.csv", "id,keywords", ["%s,%s" % (r["id"], r["keywords"]) for r in kept])
    lines, code = validate("keywords", path)
    found = warnings_of(lines)
    assert code == 0 and len(found) == 2, lines
    assert found[0].startswith("%d test id(s) have no row, so each of them scores 0: %s and %d more."
                               % (len(missing), ", ".join(missing[:10]), len(missing) - 10)), found[0]
    assert found[1].startswith("%d row(s) have no keyword, so each of them scores 0: %s and %d more."
                               % (len(empty), ", ".join(empty[:10]), len(empty) - 10)), found[1]
    platform_scores("keywords", path, tmp_path)


def test_keywords_the_same_answer_on_every_row(tmp_path):
    units = [r["id"] for r in read_csv(EXAMPLES / "keywords" / "starting_kit" / "test_public.csv")]
    path = write(tmp_path, "same.csv", "id,keywords", ["%s,薄膜_涂层" % u for u in units])
    lines, code = validate("keywords", path)
    assert code == 0 and warnings_of(lines) == [
        "all 1,500 rows give the same keywords ('薄膜_涂层'): a document scores only what its own keywords share "
        "with these. Predict the keywords of each document."]
    # the same keywords joined by another separator: the separator is the warning, not the sameness
    path = write(tmp_path, "same2.csv", "id,keywords", ["%s,薄膜;涂层" % u for u in units])
    found = warnings_of(validate("keywords", path)[0])
    assert len(found) == 1 and "joined by ';'" in found[0] and "100% of them" in found[0]


def test_a_clean_file_has_no_warning():
    for competition in ("multilabel", "view_sentiment"):
        lines, code = validate(competition, kit_of(competition) / "sample_submission.csv")
        assert code == 0 and len(lines) == 1, lines


# -- multilabel ----------------------------------------------------------------------------------------------
def multilabel_ids():
    return [r["id"] for r in read_csv(EXAMPLES / "multilabel" / "starting_kit" / "test_public.csv")]


def test_multilabel_scores_that_are_no_probabilities_are_listed_by_id(tmp_path):
    rows = read_csv(EXAMPLES / "multilabel" / "starting_kit" / "sample_submission.csv")
    out, raw = [], []
    for k, r in enumerate(rows):
        scores = r["scores"]
        if k % 100 == 7 and scores:  # a logit where a probability belongs
            scores = " ".join("%.3f" % (float(s) * 8 - 2) for s in scores.split())
            raw.append(r["id"])
        out.append("%s,%s,%s" % (r["id"], r["labels"], scores))
    path = write(tmp_path, "logits.csv", "id,labels,scores", out)
    lines, code = validate("multilabel", path)
    found = warnings_of(lines)
    assert code == 0 and len(found) == 1, lines
    assert found[0].startswith("%d row(s) have scores outside [0, 1]: %s and %d more. This task keeps the labels "
                               "with score >= 0.5" % (len(raw), ", ".join(raw[:10]), len(raw) - 10)), found[0]
    platform_scores("multilabel", path, tmp_path)


def test_multilabel_no_score_reaches_the_threshold(tmp_path):
    path = write(tmp_path, "low.csv", "id,labels,scores", ["%s,refund billing,0.4 0.3" % u if k % 2 else "%s,,"
                                                           % u for k, u in enumerate(multilabel_ids())])
    lines, code = validate("multilabel", path)
    assert code == 0 and warnings_of(lines) == [
        "no score reaches 0.5, so every predicted set is empty (this task keeps the labels with score >= 0.5) and "
        "every set measure will be 0. Give the labels you predict a score of at least 0.5."]
    assert platform_scores("multilabel", path, tmp_path)["micro_f1"] == 0


def test_multilabel_the_same_labels_on_every_row_and_no_label_at_all(tmp_path):
    ids = multilabel_ids()
    path = write(tmp_path, "same.csv", "id,labels,scores", ["%s,refund billing,0.9 0.8" % u for u in ids])
    found = warnings_of(validate("multilabel", path)[0])
    assert found == ["all 3,000 rows list the same labels ('refund billing'): every sample gets the same answer, "
                     "which scores like a constant guess. Predict the labels of each sample."]
    path = write(tmp_path, "none.csv", "id,labels,scores", ["%s,," % u for u in ids])
    found = warnings_of(validate("multilabel", path)[0])
    assert len(found) == 1 and found[0].startswith("no row lists any label: every set measure will be 0")
    platform_scores("multilabel", path, tmp_path)


# -- bank comments, in both languages ------------------------------------------------------------------------
def test_bank_one_class_and_no_entity_in_english_and_chinese(tmp_path):
    texts = read_csv(ROOT / "starting_kit" / "test_public.csv")
    path = write(tmp_path, "plain.csv", "id,BIO_anno,class",
                 ["%s,%s,2" % (r["id"], " ".join(["O"] * len(r["text"]))) for r in texts])
    lines, code = validate("bank", path)
    assert code == 0 and warnings_of(lines) == [
        "all 5,000 rows have class 2: Cohen's kappa, 50% of the score, will be 0 unless the gold has one class too. "
        "Predict the class of each comment.",
        "every tag is O, so no entity is predicted: the entity F1, 50% of the score, will be 0. Tag the entities "
        "with B-<type> and I-<type>."]
    assert lines[0] == ("plain.csv: valid (checked against the 5,000 test items) and can be uploaded, but 2 "
                        "warning(s) say it will score badly:")
    lines, code = validate("bank", path, dict(board_a_config("bank"), language="zh"))
    assert code == 0 and lines[0] == "plain.csv：合法（已对照 5,000 个测试样本检查），可以上传，但有 2 条警告，得分会很低："
    assert warnings_of(lines)[0].startswith("全部 5,000 行的类别都是 2：除非金标准也只有一个类别")
    scores = platform_scores("bank", path, tmp_path)
    assert scores["ner_f1"] == 0 and scores["kappa"] == 0


# -- view sentiment, emotion cause ---------------------------------------------------------------------------
def test_views_joined_in_one_cell(tmp_path):
    path = write(tmp_path, "joined.csv", "SentenceId,View,Opinion", ['000059,"玄武Pro3;白泽Pro3",neu',
                                                                    "000105,银河S3;凌云,neg", "000107,赤兔GT3,pos"])
    lines, code = validate("view_sentiment", path)
    assert code == 0 and warnings_of(lines) == [
        "67% of the rows have a View holding ';': several views look joined in one row, which counts as one view "
        "that matches none. Write one row per view (SentenceId, View, Opinion)."]
    platform_scores("view_sentiment", path, tmp_path)


def ecac_submission(tmp_path, name, pair_of, subtasks=(1, 2)):
    public = json.loads((EXAMPLES / "emotion_cause" / "starting_kit" / "Subtask_1_test.json").read_text())
    folder = tmp_path / name
    folder.mkdir()
    for subtask in subtasks:
        entries = [{"conversation_ID": c["conversation_ID"], "emotion-cause_pairs": pair_of(c, subtask)}
                   for c in public]
        (folder / ("Subtask_%d_pred.json" % subtask)).write_text(json.dumps(entries), encoding="utf-8")
    return folder


def test_emotion_cause_a_subtask_without_file_pairs_or_emotions(tmp_path):
    def self_cause(emotion):
        return lambda conv, subtask: [["1_%s" % emotion, "1_0_1" if subtask == 1 else "1"]]

    only_one = ecac_submission(tmp_path, "one", self_cause("joy"), subtasks=(1,))
    assert warnings_of(validate("emotion_cause", only_one)[0]) == [
        "there is no Subtask_2_pred.json: every subtask 2 score will be 0. Add Subtask_2_pred.json to the zip if you "
        "have predictions for subtask 2."]
    empty = ecac_submission(tmp_path, "empty", lambda conv, subtask: [] if subtask == 1 else self_cause("joy")(
        conv, subtask))
    found = warnings_of(validate("emotion_cause", empty)[0])
    assert found == ["Subtask_1_pred.json has no pair in any conversation: every subtask 1 score will be 0. List the "
                     "emotion-cause pairs you find."]
    neutral = ecac_submission(tmp_path, "neutral", self_cause("neutral"))
    found = warnings_of(validate("emotion_cause", neutral)[0])
    assert len(found) == 2 and all("has the emotion neutral, which is never scored" in w for w in found)
    for folder in (only_one, empty, neutral):
        platform_scores("emotion_cause", folder, tmp_path / folder.name)


# -- grouping and counting -----------------------------------------------------------------------------------
def damaged_bank_sample(tmp_path):
    """The bank sample with class 7 on every third row and an empty id on every seventh (file lines)."""
    lines = (ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8").split("\n")
    sevens = list(range(1, 200, 3))
    for i in sevens:
        lines[i] = lines[i].rsplit(",", 1)[0] + ",7"
    blanks = [i for i in range(2, 300, 7) if i not in sevens]
    for i in blanks:
        lines[i] = "," + lines[i].split(",", 1)[1]
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, [i + 1 for i in sevens], [i + 1 for i in blanks]


def test_repeated_problems_are_one_line_naming_three_lines_and_counting_the_rest(tmp_path):
    path, sevens, blanks = damaged_bank_sample(tmp_path)
    lines, code = validate("bank", path)
    assert code == 1
    assert lines[0] == "bad.csv: %d problem(s) found:" % (len(sevens) + len(blanks) + 1)  # + the missing ids
    assert lines[1] == ("  - bad.csv line %d, %d, %d and %d more, column class: '7' is not a class; use 0 (negative), "
                        "1 (positive) or 2 (neutral)." % (sevens[0], sevens[1], sevens[2], len(sevens) - 3))
    assert lines[2] == ("  - bad.csv line %d, %d, %d and %d more, column id is empty; every row needs the id of a "
                        "test item." % (blanks[0], blanks[1], blanks[2], len(blanks) - 3))
    assert lines[3].startswith("  - bad.csv: %d id(s) of the test set have no row" % len(blanks))
    assert len(lines) == 4
    zh, _ = validate("bank", path, dict(board_a_config("bank"), language="zh"))
    assert zh[1] == ("  - bad.csv 第 %d、%d、%d 行及另外 %d 行，列 class：'7' 不是合法的类别；请使用 0（负面）、1（正面）或 "
                     "2（中性）。" % (sevens[0], sevens[1], sevens[2], len(sevens) - 3))


def test_a_group_whose_values_differ_quotes_the_first_and_counts_the_others(tmp_path):
    lines = (ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8").split("\n")
    for k, i in enumerate(range(1, 11)):
        lines[i] = lines[i].rsplit(",", 1)[0] + ",%d" % (5 + k)
    path = tmp_path / "classes.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    out, code = validate("bank", path)
    assert code == 1 and out[0] == "classes.csv: 10 problem(s) found:" and len(out) == 2
    assert out[1] == ("  - classes.csv line 2 (also lines 3, 4, 5 and 6 more), column class: '5' is not a class; use "
                      "0 (negative), 1 (positive) or 2 (neutral).")


def test_three_alike_problems_stay_three_lines(tmp_path):
    lines = (ROOT / "starting_kit" / "sample_submission.csv").read_text(encoding="utf-8").split("\n")
    for i in (1, 2, 3):
        lines[i] = lines[i].rsplit(",", 1)[0] + ",7"
    path = tmp_path / "three.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    out, code = validate("bank", path)
    assert code == 1 and [l.split(",")[0] for l in out[1:]] == ["  - three.csv line 2 (id 0)",
                                                                 "  - three.csv line 3 (id 1)",
                                                                 "  - three.csv line 4 (id 2)"]


def test_what_is_not_shown_is_counted(tmp_path):
    path, sevens, blanks = damaged_bank_sample(tmp_path)
    result = check(str(path), str(ROOT / "starting_kit"), board_a_config("bank"))
    lines, code = report_lines(result, "bad.csv", limit=1)
    assert code == 1 and len(lines) == 3
    assert lines[2] == "  ... and %d more problem(s) not shown; fix the ones above and run validate.py again." % (
        len(result.problems) - len(sevens))
    zh = report_lines(check(str(path), str(ROOT / "starting_kit"), dict(board_a_config("bank"), language="zh")),
                      "bad.csv", limit=1)[0]
    assert zh[2] == "  ……另有 %d 个问题未显示；请先修正以上问题，再运行 validate.py。" % (len(result.problems) - len(sevens))


def test_every_kit_and_advice_message_has_both_languages_with_the_same_fields():
    from scorer.problems import MESSAGES

    found = [m for key, m in MESSAGES.items() if ".advice" in key or key.startswith(("kit.", "advice."))]
    assert len(found) >= 15
    for message in found:
        assert message.texts["zh"], message.key
        assert message.fields("en") == message.fields("zh"), message.key


def test_an_upload_holding_a_metadata_file_at_its_top_is_warned_and_still_scores(tmp_path):
    """Codabench runs an upload whose top holds metadata or metadata.yaml as a program (compute_worker.py
    ``_run_program_directory``): validate.py says so, whatever else it finds; score.py ignores the file."""
    import zipfile

    sample = ROOT / "starting_kit" / "sample_submission.csv"
    upload = tmp_path / "upload.zip"
    with zipfile.ZipFile(upload, "w") as archive:
        archive.writestr(sample.name, sample.read_bytes())
        archive.writestr("metadata", "notes: my run\n")
    lines, code = validate("bank", upload)
    assert code == 0 and lines[-1].startswith("warning: upload.zip holds a file named metadata at its top")
    assert lines[0] == ("upload.zip: the predictions are valid (checked against the 5,000 test items), but see the "
                        "warning on the upload below.") and len(lines) == 2, lines
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "metadata.yaml").write_text("x: 1\n", encoding="utf-8")
    (folder / "bad.csv").write_text("id,BIO_anno\n1,O\n", encoding="utf-8")
    lines, code = validate("bank", folder)
    assert code == 1 and "named metadata.yaml" in lines[-1]   # said with the problems too
    nested = tmp_path / "nested.zip"
    with zipfile.ZipFile(nested, "w") as archive:
        archive.writestr("preds/" + sample.name, sample.read_bytes())
        archive.writestr("preds/metadata", "x: 1\n")   # not at the top: Codabench does not look there
    lines, code = validate("bank", nested)
    assert code == 0 and not [l for l in lines if l.startswith("warning")]
    lines, _ = validate("bank", upload, dict(board_a_config("bank"), language="zh"))
    assert lines[-1].startswith("警告：upload.zip 的最上层有名为 metadata 的文件")
    assert platform_scores("bank", upload, tmp_path)   # the platform's own run ignores it


def test_qa_warns_of_missing_questions_answers_longer_than_their_passage_and_one_answer_for_all(tmp_path):
    """The kit's check reads the passages of test_public.json (no answer): an answer longer than its passage is
    no span of it; the same file still scores on the platform."""
    kit = kit_of("qa")
    passages = {q["id"]: q["context"] for q in json.loads((kit / "test_public.json").read_text(encoding="utf-8"))}
    answers = json.loads((kit / "submission" / "predictions.json").read_text(encoding="utf-8"))
    first, second = list(answers)[:2]
    answers[first] = passages[first] + " and more"
    del answers[second]
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "predictions.json").write_text(json.dumps(answers), encoding="utf-8")
    lines, code = validate("qa", sub)
    text = "\n".join(lines)
    assert code == 0, text
    assert "1 answer(s) are longer than their passage: %s" % first in text
    assert "1 question(s) have no entry" in text and second in text
    platform_scores("qa", sub, tmp_path)
    (sub / "predictions.json").write_text(json.dumps({q: "x" for q in answers}), encoding="utf-8")
    assert "answers are the same ('x')" in "\n".join(validate("qa", sub)[0])


def test_generation_warns_of_copied_sources_and_empty_texts(tmp_path):
    kit = kit_of("generation")
    public = read_csv(kit / "test_public.csv")
    rows = read_csv(kit / "submission" / "predictions.csv")
    rows[0]["text"] = public[0]["abstract"]
    rows[1]["text"] = ""
    sub = tmp_path / "sub"
    sub.mkdir()
    import csv
    with open(sub / "predictions.csv", "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, ["id", "text"])
        writer.writeheader()
        writer.writerows(rows)
    lines, code = validate("generation", sub)
    text = "\n".join(lines)
    assert code == 0, text
    assert "1 text(s) copy their source from the test inputs (abstract) word for word: %s" % public[0]["id"] in text
    assert "1 text(s) are empty" in text and rows[1]["id"] in text
    platform_scores("generation", sub, tmp_path)
