"""The starting kit's tools, offline: check a submission against the public test inputs, score a dev prediction.

validate.py calls ``check`` and prints ``report_lines``: the submitted file is
found the way the platform finds it, the task's contract is built from the
public test inputs (for example the ids and text lengths of test_public.csv)
and the family lists *every* problem, not just the first. A file without
problems gets the family's warnings (``TaskFamily.advice``): valid, but it will
score badly. Warnings never change the exit code, as they never change what the
platform does. Nothing here reads a gold file of the test set.

score_local.py calls ``score_dev``: the dev set's gold, scored exactly as the
platform scores the test set. Its page carries the competition's title and
column labels, which the kit's configuration (kit_config.yaml) holds as each
phase's config.yaml does, when the dev set's own config.yaml does not set them.

Repeated problems are grouped (``bad.csv line 12, 15, 18 and 2,714 more, column
id is empty; ...``) and at most ``MAX_LINES`` lines are printed, followed by how
many problems were not shown.
"""
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from typing import List, Optional

from . import i18n
from .advice import count
from .api import Competition, NoOfflineCheck, Task
from .errors import ScoringError, SubmissionError
from .outputs import OUTPUT_FILES, format_number
from .platform.cli import prepare_output
from .platform.runner import run
from .problems import Message, Problem
from .tasks import families

MAX_LINES = 30   # printed problem lines (a group is one line)
GROUP_FROM = 4   # this many problems of one kind in one column become one line
LINES_SHOWN = 3  # file lines named in a group's line

OK = Message("kit.ok", "{file}: no problems found (checked against the {n} test items).",
             "{file}：未发现问题（已对照 {n} 个测试样本检查）。")
FOUND = Message("kit.found", "{file}: {n} problem(s) found:", "{file}：发现 {n} 个问题：")
NOT_SHOWN = Message("kit.not_shown", "... and {n} more problem(s) not shown; fix the ones above and run validate.py "
                    "again.", "……另有 {n} 个问题未显示；请先修正以上问题，再运行 validate.py。")
WARNINGS = Message("kit.warnings", "{file}: valid (checked against the {units} test items) and can be uploaded, but "
                   "{n} warning(s) say it will score badly:",
                   "{file}：合法（已对照 {units} 个测试样本检查），可以上传，但有 {n} 条警告，得分会很低：")
UPLOAD_WARNED = Message("kit.upload_warned", "{file}: the predictions are valid (checked against the {units} test "
                        "items), but see the warning on the upload below.",
                        "{file}：预测合法（已对照 {units} 个测试样本检查），但请看下面关于上传文件本身的警告。")
NO_PUBLIC = Message("kit.no_public", "cannot find the public test inputs {name} in {folder}; run this from the "
                    "starting kit or pass --public.",
                    "在 {folder} 中找不到公开测试输入 {name}；请在入门工具包的目录中运行，或用 --public 指定。")
NO_FILE = Message("kit.no_file", "cannot find {path}; give the path of your prediction file, folder or zip.",
                  "找不到 {path}；请给出预测文件、文件夹或 zip 的路径。")
NO_CONFIG = Message("kit.no_config", "cannot find the task configuration ({name}); pass --config.",
                    "找不到任务配置（{name}）；请用 --config 指定。")
# one group of problems: the same message in the same column of the same file, on many lines
LINES_ALIKE = Message("kit.lines_alike", "{file} line {lines}{more}", "{file} 第 {lines} 行{more}")
LINES_SIMILAR = Message("kit.lines_similar", "{file} line {first} (also lines {lines}{more})",
                        "{file} 第 {first} 行（另有第 {lines} 行{more}同类问题）")
MORE_LINES = Message("kit.more_lines", " and {n} more", "及另外 {n} 行")
LINE_JOIN = {"en": ", ", "zh": "、"}
# score_local.py
DEV_SCORED = Message("kit.dev_scored", "Scored the dev set ({n} items in {folder}) as the platform scores the test set:",
                     "已按平台为测试集评分的方式为开发集评分（{folder} 中的 {n} 个样本）：")
DEV_WROTE = Message("kit.dev_wrote", "Wrote {files}", "已写入 {files}")
DEV_GOT_TEST = Message("kit.dev_got_test", "{file} is a prediction for the test set (its ids are the test items of "
                       "the public test inputs), but score_local.py scores predictions for the dev set in {folder}; "
                       "give it a prediction for the dev items, and check a test prediction with validate.py.",
                       "{file} 是对测试集的预测（其 id 是公开测试输入中的测试样本），而 score_local.py 只为 {folder} "
                       "中的开发集预测评分；请给出对开发集样本的预测，测试集的预测请用 validate.py 检查。")
DEV_CONTEXT = Message("kit.dev_context", "{message} (score_local.py checks against the dev set in {folder}: here the "
                      "test set means its {n} dev items.)",
                      "{message}（score_local.py 对照 {folder} 中的开发集检查：这里的测试集指其中的 {n} 个开发样本。）")
WARNING_LINE = Message("kit.warning_line", "warning: {text}", "警告：{text}")
NOTE_LINE = Message("kit.note_line", "note: {text}", "注意：{text}")
UPLOAD_METADATA = Message(
    "kit.upload_metadata", "{file} holds a file named {name} at its top: Codabench runs an upload with such a file as a "
    "program instead of scoring it as results, and the submission fails before it is scored (CodaLab v1 ignores it); "
    "remove or rename {name} before uploading.",
    "{file} 的最上层有名为 {name} 的文件：Codabench 会把含有这种文件的上传当作程序运行，而不是当作结果评分，提交会在评分前失败"
    "（CodaLab v1 会忽略它）；上传前请删除或重命名 {name}。")
NO_DEV = Message("kit.no_dev", "no dev data with gold in {folder} (it needs config.yaml); this competition may not "
                 "ship any.", "{folder} 中没有带标准答案的开发数据（需要 config.yaml）；本竞赛可能没有提供开发集。")


@dataclass
class CheckResult:
    problems: List[Problem] = field(default_factory=list)
    warnings: List[Problem] = field(default_factory=list)
    units: int = 0
    language: str = "en"
    fatal: Optional[str] = None   # the check itself could not run (no inputs, no config): why
    upload: List[Problem] = field(default_factory=list)   # about the upload itself, said whatever its content
    notes: List[Problem] = field(default_factory=list)    # beside the problems: how a file was read


def check(submission, public_dir, raw_config):
    """All format problems of ``submission`` (a file, a folder or a zip) against ``public_dir``; warnings if none."""
    if not os.path.exists(submission):
        return CheckResult(fatal=NO_FILE(path=submission).text(language(raw_config)), language=language(raw_config))
    try:
        task = Task.public(public_dir, raw_config)
    except ScoringError as exc:
        return CheckResult(fatal=exc.text(language(raw_config)), language=language(raw_config))
    except NoOfflineCheck as missing:
        cfg = missing.cfg
        name = families()[cfg.task].public_inputs
        return CheckResult(fatal=NO_PUBLIC(name=name, folder=public_dir).text(cfg.language), language=cfg.language)
    units, lang = len(task.contract.units), task.cfg.language
    with as_res_dir(submission) as res_dir:
        try:
            submission_read, problems, notes = task.collect(res_dir)
        except SubmissionError as exc:  # no file to check at all
            return CheckResult([exc.problem], [], units, lang, upload=upload_warnings(submission))
    warnings = [] if problems else task.family.advice(submission_read, task.contract, task.cfg)
    return CheckResult(problems, warnings, units, lang, upload=upload_warnings(submission), notes=notes)


def upload_warnings(submission):
    """What the upload itself (a zip or a folder) holds that a platform treats otherwise than score.py does.

    Codabench's compute worker runs the upload's top folder as a program when it holds ``metadata.yaml`` or
    ``metadata`` (compute_worker/compute_worker.py ``_run_program_directory``, codalab/codabench @c7dbc75).
    """
    if os.path.isdir(submission):
        top = set(os.listdir(submission))
    elif zipfile.is_zipfile(submission):
        with zipfile.ZipFile(submission) as archive:
            top = {n for n in archive.namelist() if "/" not in n.rstrip("/")}
    else:
        return []
    name = os.path.basename(os.path.normpath(submission))
    return [UPLOAD_METADATA(file=name, name=found) for found in ("metadata.yaml", "metadata") if found in top]


def report_lines(result, name, limit=MAX_LINES):
    """(the lines validate.py prints, its exit code: 0 valid, 1 problems, 2 the check could not run)."""
    lang = result.language
    if result.fatal:
        return [result.fatal], 2
    upload = [WARNING_LINE(text=w.text(lang)).text(lang) for w in result.upload]
    if result.problems:
        shown = grouped(result.problems, lang)
        lines = [FOUND(file=name, n=count(len(result.problems))).text(lang)]
        lines += ["  - " + text for text, _ in shown[:limit]]
        hidden = sum(n for _, n in shown[limit:])
        if hidden:
            lines.append("  " + NOT_SHOWN(n=count(hidden)).text(lang))
        lines += [NOTE_LINE(text=note.text(lang)).text(lang) for note in result.notes]
        return lines + upload, 1
    # said once: valid with nothing to add, valid but scoring badly, or valid but uploaded in a way that fails
    units = count(result.units)
    if result.warnings:
        lines = [WARNINGS(file=name, units=units, n=len(result.warnings)).text(lang)]
        lines += ["  - " + w.text(lang) for w in result.warnings]
    elif upload:
        lines = [UPLOAD_WARNED(file=name, units=units).text(lang)]
    else:
        lines = [OK(file=name, n=units).text(lang)]
    return lines + upload, 0


def grouped(problems, lang):
    """[(line of text, problems it stands for)]: a kind of problem met on many lines of a column is one line.

    The group's line is where its first problem was, so the order stays the file's.
    """
    groups = {}
    for k, problem in enumerate(problems):
        if problem.line is not None and problem.file is not None:
            groups.setdefault((problem.file, problem.key, problem.column), []).append(k)
    out, done = [], set()
    for k, problem in enumerate(problems):
        if k in done:
            continue
        members = groups.get((problem.file, problem.key, problem.column), [k]) if problem.line is not None else [k]
        if len(members) < GROUP_FROM:
            out.append((problem.text(lang), 1))
            done.add(k)
            continue
        out.append((_group_text([problems[m] for m in members], lang), len(members)))
        done.update(members)
    return out


def _group_text(members, lang):
    first = members[0]
    lines = sorted({p.line for p in members})
    alike = all(p.args == first.args for p in members)
    join = LINE_JOIN.get(lang, ", ")

    def some(numbers):  # the first LINES_SHOWN line numbers, and how many more
        rest = len(numbers) - LINES_SHOWN
        return join.join(map(str, numbers[:LINES_SHOWN])), MORE_LINES(n=count(rest)).text(lang) if rest > 0 else ""

    if alike:
        shown, more = some(lines)
        where = LINES_ALIKE(file=first.file, lines=shown, more=more)
    else:  # the values differ: quote the first exactly, count the others
        shown, more = some(lines[1:])
        where = LINES_SIMILAR(file=first.file, first=lines[0], lines=shown, more=more)
    place = where.text(lang) + (i18n.where(lang, "", column=first.column) if first.column else "")
    return first.text(lang, where=place)


def language(raw_config):
    value = raw_config.get("language", "en") if isinstance(raw_config, dict) else "en"
    return value if value in i18n.LANGUAGES else "en"


# -- score_local.py ---------------------------------------------------------------------------------------
@dataclass
class DevRun:
    code: int                    # score.py's exit code: 0 scored, 1 the prediction is wrong, 2 the dev data
    lines: List[str]             # what to print on stdout
    error: Optional[str] = None  # the one line for stderr


def score_dev(prediction, dev_dir, out_dir, public_dir=None, raw_config=None):
    """Score ``prediction`` on the dev set in ``dev_dir``, writing the platform's files to ``out_dir``.

    A prediction for the test set (it reads cleanly against the public test
    inputs in ``public_dir``) is named as such instead of as a list of unknown ids.
    """
    lang = language(raw_config)
    folder = os.path.basename(os.path.normpath(dev_dir)) + "/"
    if not os.path.exists(prediction):
        return DevRun(2, [], NO_FILE(path=prediction).text(lang))
    try:
        comp = Competition.open(dev_dir)
    except ScoringError as exc:
        if not os.path.isfile(os.path.join(dev_dir, "config.yaml")):
            return DevRun(2, [], NO_DEV(folder=dev_dir).text(lang))
        return DevRun(exc.exit_code, [], i18n.error_line(exc.who, exc.text(lang), lang))
    lang = comp.cfg.language
    with tempfile.TemporaryDirectory(prefix="score-local-") as tmp:
        input_dir = os.path.join(tmp, "input")
        shutil.copytree(dev_dir, os.path.join(input_dir, "ref"))
        _add_labels(os.path.join(input_dir, "ref", "config.yaml"), comp, raw_config)
        _place(prediction, os.path.join(input_dir, "res"))
        try:
            prepare_output(out_dir)
            outcome = run(input_dir, out_dir)
        except ScoringError as exc:
            message = exc.text(lang)
            if isinstance(exc, SubmissionError):
                name = os.path.basename(os.path.normpath(prediction))
                if _reads_as_test(os.path.join(input_dir, "res"), public_dir, raw_config):
                    message = DEV_GOT_TEST(file=name, folder=folder).text(lang)
                elif "test" in exc.text("en"):
                    message = DEV_CONTEXT(message=message, folder=folder, n=count(len(comp.reference.units))).text(lang)
            return DevRun(exc.exit_code, [], i18n.error_line(exc.who, message, lang))
    lines = [DEV_SCORED(n=count(len(comp.reference.units)), folder=folder).text(lang)]
    lines += ["  %s: %s" % (key, format_number(value)) for key, value in outcome.scores.items()]
    lines.append(DEV_WROTE(files=", ".join(os.path.join(out_dir, f) for f in OUTPUT_FILES)).text(lang))
    return DevRun(0, lines)


def _add_labels(config_path, comp, raw_config):
    """Append to the dev run's config.yaml the competition's ``title`` and the ``columns`` labels of the keys the
    dev set writes, from the kit's configuration, unless the dev config sets them itself."""
    if not isinstance(raw_config, dict):
        return
    extra = {}
    title = raw_config.get("title")
    if comp.cfg.title is None and isinstance(title, str) and title.strip():
        extra["title"] = title.strip()
    labels = raw_config.get("columns")
    if not comp.cfg.columns and isinstance(labels, dict):
        written = set(comp.family.leaderboard_keys(comp.cfg.options) + comp.cfg.intervals.keys(comp.cfg.primary_key))
        labels = {str(k): v.strip() for k, v in labels.items()
                  if str(k) in written and isinstance(v, str) and v.strip()}
        if labels:
            extra["columns"] = labels
    if extra:
        import yaml

        with open(config_path, "a", encoding="utf-8") as fh:
            fh.write("\n# the competition's title and column labels, from the kit's configuration\n")
            fh.write(yaml.safe_dump(extra, allow_unicode=True, sort_keys=False, width=1000))


def _reads_as_test(res_dir, public_dir, raw_config):
    """True when the submission in ``res_dir`` is a valid prediction for the public test inputs."""
    if public_dir is None or raw_config is None:
        return False
    try:
        Task.public(public_dir, raw_config).read_submission(res_dir)
        return True
    except (ScoringError, NoOfflineCheck):
        return False


def _place(submission, res_dir):
    """Copy a submission (file, folder or zip) into ``res_dir`` as the platform would unpack it."""
    if os.path.isdir(submission):
        shutil.copytree(submission, res_dir)
    else:
        os.makedirs(res_dir)
        shutil.copy(submission, os.path.join(res_dir, os.path.basename(submission)))


class as_res_dir:
    """A folder is used as res/; a file (or zip) is placed alone in a temporary res/."""

    def __init__(self, submission):
        self.submission = submission
        self.tmp = None

    def __enter__(self):
        if os.path.isdir(self.submission):
            return self.submission
        self.tmp = tempfile.mkdtemp(prefix="validate-")
        shutil.copy(self.submission, os.path.join(self.tmp, os.path.basename(self.submission)))
        return self.tmp

    def __exit__(self, *exc):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return False
