"""One scoring run of score.py: INPUT/ref and INPUT/res in, the platform's files in OUTPUT.

What a participant can reach (scores.txt, scores.json, detailed_results.html,
stdout, stderr) depends only on the submission and the scored board. A sealed
board is not scored at all: the submission is checked against every test unit
and placeholders are written (its phase's reference data holds no answers).
Files for the organizer go to OUTPUT/private/, and only where that folder is
kept out of the participant's output (``hosts.private_kept_apart``): notes on the gold,
the provenance of the run (digests of the program, the config and the
reference data) and the Ladder's state.
"""
import os
from dataclasses import dataclass

from .. import report, resampling
from ..api import Competition, reference_dir, submission_dir
from ..outputs import write_scores, write_text
from ..problems import Message
from ..publish import ladder, provenance
from ..publish.policy import SEALED_VALUE, History, ladder_settings, publish, rounding
from . import hosts

PRIVATE_DIR = "private"  # CodaLab v1 zips it as private_output.zip, for the competition creator only
PRIVATE_FAILURE = "private_failure.txt"
ADVICE_FAILURE = "advice_failure.txt"   # the family's warnings failed: the run goes on without them
PROVENANCE = "provenance.json"
# every file a run may write in private/ (cleared at the start of a run, as the scores are)
HISTORY_NOTES = "history_notes.txt"
PRIVATE_FILES = ("reference_notes.txt", "organizer_error.txt", "traceback.txt", PRIVATE_FAILURE, PROVENANCE,
                 HISTORY_NOTES, ADVICE_FAILURE, ladder.STATE_FILE, ladder.UNITS_FILE)

LADDER_TITLE = Message("report.ladder.title", "Public board: the Ladder", "公开榜单：Ladder 机制")
LADDER_FIXED = Message(
    "report.ladder.fixed",
    "This board shows a new score only when it beats your best shown score by more than {step}, rounded to "
    "{step}; otherwise your best shown scores stay. {outcome} Scores are released this way so that repeated "
    "submissions cannot learn the board's answers; the final ranking uses the other board.",
    "本榜单仅在新成绩比你已显示的最好成绩高出 {step} 以上时才显示新成绩（按 {step} 取整）；否则保持你已显示的最好"
    "成绩。{outcome}这样发布成绩，是为了让反复提交无法从榜单中学到答案；最终排名使用另一个榜单。")
LADDER_FREE = Message(
    "report.ladder.free",
    "This board shows a new score only when it beats your best shown score by more than one standard error of "
    "the difference between the two submissions on this board's {units}; otherwise your best shown scores stay. "
    "{outcome} Scores are released this way so that repeated submissions cannot learn the board's answers; the "
    "final ranking uses the other board.",
    "本榜单仅在新成绩比你已显示的最好成绩高出两次提交在本榜单{units}上差值的一个标准误以上时才显示新成绩；否则保持"
    "你已显示的最好成绩。{outcome}这样发布成绩，是为了让反复提交无法从榜单中学到答案；最终排名使用另一个榜单。")
LADDER_IMPROVED = Message("report.ladder.improved", "This submission is your new best.", "本次提交是你新的最好成绩。")
LADDER_KEPT = Message("report.ladder.kept", "This submission did not beat your best by the margin.",
                      "本次提交没有以足够的幅度超过你的最好成绩。")
ROUNDED = Message("report.feedback.rounded", "Scores on this board are rounded to {digits} decimals.",
                  "本榜单的成绩保留 {digits} 位小数。")
NO_CLASS_COUNTS = Message("report.feedback.no_class_counts",
                          "Counts per class and per group are not shown on this board.",
                          "本榜单不显示按类别或分组的计数。")
ALL_UNITS_TITLE = Message("report.board_all", "{title}: every item", "{title}：全部样本")
FEEDBACK_TITLE = Message("report.feedback.title", "About this board", "关于本榜单")
WARNINGS_TITLE = Message("report.warnings.title", "Warnings about your file", "关于提交文件的提醒")
WARNINGS_INTRO = Message(
    "report.warnings.intro", "Your file is valid and was scored as it is; the starting kit's validate.py says the "
    "same of it: {n} warning(s) where it will lose points. They concern the whole file, not this board, and change "
    "no score.",
    "你的文件合法，已按原样评分；入门工具包的 validate.py 对它给出同样的提醒：共 {n} 条，指出它会失分的地方。"
    "这些提醒针对整个文件而非本榜单，不改变任何成绩。")


@dataclass(frozen=True)
class Digests:
    """The SHA-256 of the program folder and of the config, taken once a run (the footer, the provenance record
    and the Ladder's settings key use them)."""

    program: str
    config: str


@dataclass
class RunResult:
    board: str
    scores: dict
    summary: str
    sealed: bool = False
    language: str = "en"         # the config's, for what score.py prints (config.yaml is read once a run)
    result: object = None        # the board's Result (None on a sealed board)
    submission: object = None    # the submission as the family read it


def run(input_dir, output_dir, competition=None):
    """Score INPUT into OUTPUT and return what was scored; raises ScoringError subclasses.

    ``competition``: INPUT/ref's Competition when it is open already; the submission is then read with it.
    """
    if competition is None:
        comp, submission = Competition.open_with_submission(reference_dir(input_dir), submission_dir(input_dir),
                                                            advise=True)
    else:
        comp, submission = competition, competition.read_submission(submission_dir(input_dir), advise=True)
    private = os.path.join(output_dir, PRIVATE_DIR) if hosts.private_kept_apart(input_dir) else None
    cfg = comp.cfg
    digests = Digests(provenance.program_digest(), provenance.file_digest(cfg.file))
    if private:
        _privately(private, lambda: write_text(os.path.join(private, PROVENANCE), provenance.record(
            digests.program, digests.config, cfg.ref_dir, _answers_read(cfg))))
        if comp.advice_failure:
            _privately(private, lambda: write_text(os.path.join(private, ADVICE_FAILURE), comp.advice_failure))
    settings = ladder_settings(cfg)
    history = _ladder_history(comp, input_dir, digests.config) if settings is not None else None
    published = publish(comp, submission, history, settings, sections=True)
    if published.sealed:
        return _run_sealed(comp, published, output_dir, digests)
    write_scores(output_dir, published.written(cfg))
    if published.ladder_state is not None:
        _ladder_page(comp, published, output_dir, private, digests)
    else:
        _write_page(output_dir, comp, published, digests)
    if private:
        # Notes quote the gold (of the scored board only: a phase's reference data holds no other answers).
        notes = comp.reference.notes
        if notes and (cfg.private_output or hosts.organizer_run()):
            write_text(os.path.join(private, "reference_notes.txt"), "\n".join(notes) + "\n")
    return RunResult(cfg.board, published.scores, report.words(published.result.summary, cfg.language),
                     language=cfg.language, result=published.result, submission=submission)


def _answers_read(cfg):
    """The image folder the run reads its answers from, or None (none there, or none read on a sealed board)."""
    if cfg.answers_dir is None or cfg.report == "sealed" or not os.path.isdir(cfg.answers_dir):
        return None
    return cfg.answers_dir


def _ladder_history(comp, input_dir, key):
    """The team's Ladder state from CodaLab v1's INPUT/history/ (none elsewhere: a first submission); what the
    history held that is no state of this run is skipped, and noted for the organizer. ``key``: the config's
    digest (a state made under other settings is not continued)."""
    cfg = comp.cfg
    notes = []
    state, best_units = ladder.previous(input_dir, key, set(comp.family.leaderboard_keys(cfg.options)), notes)
    return History(state, best_units, ladder.run_metadata(input_dir)[1], key, notes)


def page_title(comp):
    title = comp.cfg.title or comp.family.title
    if comp.cfg.board == "all":   # every unit: the starting kit's dev set, not a leaderboard board
        return ALL_UNITS_TITLE(title=title)
    return report.BOARD_TITLE(title=title, board=comp.cfg.board)


def score_labels(comp, keys):
    """What the page calls each key: the competition's column label, else the family's own."""
    labels = {key: comp.cfg.columns.get(key) or comp.family.key_label(key, comp.cfg.options) for key in keys}
    return {key: label for key, label in labels.items() if label}


def warnings_sections(comp):
    """The kit's warnings about the file, on the page in the competition's language (none: no section)."""
    if not comp.warnings:
        return []
    return [report.Section(WARNINGS_TITLE, [report.Text(WARNINGS_INTRO(n=len(comp.warnings)), "note")]
                           + [report.Text(w) for w in comp.warnings])]


def page_digits(cfg):
    """Decimals of the page's scores: as many as the board rounds its public scores to, else 4 (scores.txt
    keeps every digit); a score rounded to 2 decimals is not shown with 4, which would claim more."""
    digits = rounding(cfg)
    return report.Scores.digits if digits is None else digits


def footer(digests):
    return report.FOOTER(program=provenance.short(digests.program), config=provenance.short(digests.config))


def _write_page(output_dir, comp, published, digests):
    """The page of a full report: the scores with their interval, what this board hides, the breakdowns."""
    cfg, result, bounds = comp.cfg, published.result, published.bounds
    digits = rounding(cfg)
    unit = comp.family.unit_noun()
    labels = score_labels(comp, published.scores)
    score_blocks = [report.Scores(published.scores, cfg.primary_key, labels, bounds, cfg.intervals.level,
                                  page_digits(cfg))]
    if bounds is not None:
        score_blocks.append(report.Text(report.INTERVAL_NOTE(
            key=labels.get(cfg.primary_key, cfg.primary_key), level="%g" % (100 * cfg.intervals.level),
            units=unit, resamples=cfg.intervals.resamples, seed=cfg.intervals.seed), "note"))
        if published.summed:
            score_blocks.append(report.Text(report.INTERVAL_SUMMED(summed=published.summed, units=unit,
                                                                   tail=resampling.TAIL_GROUPS), "note"))
    elif cfg.intervals.resamples > 0 and result.units and result.units_of(cfg.primary_key) is None:
        score_blocks.append(report.Text(report.NO_INTERVAL(key=labels.get(cfg.primary_key, cfg.primary_key),
                                                           units=unit), "note"))
    sections = [report.Section(report.SCORES_TITLE, score_blocks)] + warnings_sections(comp)
    feedback = []
    if digits is not None:
        feedback.append(report.Text(ROUNDED(digits=digits), "note"))
    hide_classes = cfg.board == "A" and not cfg.feedback.class_counts
    if hide_classes:
        feedback.append(report.Text(NO_CLASS_COUNTS, "note"))
    if feedback:
        sections.append(report.Section(FEEDBACK_TITLE, feedback))
    sections += [s for s in result.report_sections() if not (hide_classes and s.per_class)]
    write_text(os.path.join(output_dir, "detailed_results.html"),
               report.render(page_title(comp), sections, result.summary, cfg.language, footer(digests)))


def _ladder_page(comp, published, output_dir, private, digests):
    """The page of the Ladder's released scores (no details); its state to private/."""
    cfg = comp.cfg
    settings, after = cfg.feedback, published.ladder_state
    outcome = LADDER_IMPROVED if after.improved else LADDER_KEPT
    if settings.ladder == "fixed":
        note = LADDER_FIXED(step="%g" % settings.ladder_step, outcome=outcome())
    else:
        note = LADDER_FREE(units=comp.family.unit_noun(), outcome=outcome())
    labels = score_labels(comp, published.scores)
    sections = [report.Section(report.SCORES_TITLE, [report.Scores(published.scores, cfg.primary_key, labels,
                                                                   digits=page_digits(cfg))]),
                report.Section(LADDER_TITLE, [report.Text(note, "note")])] + warnings_sections(comp)
    write_text(os.path.join(output_dir, "detailed_results.html"),
               report.render(page_title(comp), sections, None, cfg.language, footer(digests)))
    if private:
        def save():
            write_text(os.path.join(private, ladder.STATE_FILE), after.to_json())
            if published.ladder_history_notes:   # the history held something that is no state of this run: said
                write_text(os.path.join(private, HISTORY_NOTES), "\n".join(published.ladder_history_notes) + "\n")
            if after.improved and published.table is not None:
                with open(os.path.join(private, ladder.UNITS_FILE), "wb") as fh:
                    fh.write(ladder.units_bytes(published.table))
        _privately(private, save)


def _run_sealed(comp, published, output_dir, digests):
    """Placeholders where participants look: nothing is scored while the board is sealed."""
    cfg = comp.cfg
    values = published.scores
    write_scores(output_dir, values)
    n_items = len(comp.contract.units)
    summary = report.SEALED_RECEIVED(n=n_items, board=cfg.board).text(cfg.language)
    write_text(os.path.join(output_dir, "detailed_results.html"),
               report.sealed_page(page_title(comp), cfg.board, SEALED_VALUE, n_items, cfg.language,
                                  footer(digests), warnings_sections(comp)))
    return RunResult(cfg.board, values, summary, sealed=True, language=cfg.language)


def _privately(private, work):
    """Run ``work`` (which writes into ``private``); a failure is written there, never raised."""
    try:
        work()
    except Exception:  # noqa: BLE001  the visible outcome must not depend on hidden data
        import traceback  # only on a failure
        write_text(os.path.join(private, PRIVATE_FAILURE), traceback.format_exc())
