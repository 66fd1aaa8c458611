"""Make a complete competition folder from a gold file, a task family and a few flags.

    python3 -m organizer new FAMILY GOLD OUT_DIR --title TITLE [--language en|zh] [--ratio-a 0.4] [--seed 2024]
        [--start 2026-11-02] [--final-start DATE] [--end DATE] [--dev-gold FILE] [--feedback test|dev]
        [--option KEY=VALUE ...] [--no-check]
        multilabel:      --labels labels.txt
        classification:  [--labels labels.txt]
        view_sentiment:  --inputs SENTENCES --views VIEWS [--dev-inputs SENTENCES]
        emotion_cause:   --subtask2-gold FILE

GOLD is in the family's gold format (docs/<family>.md; docs/organizers.md,
"Start a competition", turns public data sets into it). OUT_DIR gets:

    competition.yaml         phases A (feedback) and B (final, sealed), columns from the family's keys
    pages/, logo.png         overview, evaluation, data, terms in the competition's language
    reference_data/          the gold, boards.csv (seeded, stratified), board_A.yaml, board_B.yaml
    starting_kit/            public test inputs (the gold without its answers), a sample submission
                             (a plain baseline from public inputs only), README.md, dev/ with --dev-gold

With ``--feedback dev`` the first phase scores the dev set of ``--dev-gold``
instead of board A (its answers are in the kit anyway), and the final phase
scores every test unit, sealed until the reveal: no test answer is in any
phase's reference data, which Codabench serves to anyone. reference_data/ then
holds board_all.yaml and no board split.

What can be checked is checked before OUT_DIR exists (the title, at least two test
items, the gold as the scoring program reads it, a split with units on both boards):
the competition is made in a hidden folder beside OUT_DIR, linted there as
``python3 -m organizer check`` does (``--no-check`` skips it), and moved into place
only without an error; a refusal leaves nothing. Then the next steps are printed.
Options of the family (``--option k=5``, values in YAML) go into both board
configs; the pages describe the options given.
"""
import argparse
import dataclasses
import datetime as dt
import json
import shutil
import sys
from pathlib import Path

import yaml

from . import progress
from .inputs import OrganizerError, Parser, new_folder, seed, share
from .lint_rules import COMPETITION, FIELDS_OF
from . import ROOT
from .boards import counts, gold_notes, make_boards
from .start import FAMILIES, start_of
from .start.base import code_list
from .start.render import column_labels, fill, markdown_html, reflow, texts
from scorer.public import ScoringError, families, ordered_keys, parse_config

PAGES = ("overview", "evaluation", "data", "terms")
FEEDBACK = ("test", "dev")
# with --feedback dev, the texts of common.yaml named <key>_dev stand for these: the phases, the boards' paragraph,
# what each phase scores (evaluation page) and takes (data page, kit README)
DEV_TEXTS = ("phase_a_label", "phase_a_description", "phase_b_label", "phase_b_description", "boards", "phases",
             "submit_phases")


def main(argv=None):
    args = parse_arguments(argv)
    progress.start("organizer new", args.progress)
    out = Path(args.out)
    start = start_of(args.family)
    progress.note("reading the gold")
    test = start.read(args.gold, args)
    if len(test.units) < 2:
        raise OrganizerError("the gold %s holds %d test item(s); board A and board B need at least one each (and "
                             "enough to rank teams: a few hundred or more)" % (args.gold, len(test.units)))
    dev = start.read(args.dev_gold, args, dev=True) if args.dev_gold else None
    if dev is not None:
        shared = sorted(set(test.units) & set(dev.units))
        if shared:
            raise OrganizerError("the dev gold and the gold share %d id(s) (first: %s); a dev item must not be a test "
                                 "item, since the dev answers ship in the starting kit" % (len(shared), shared[0]))
    options = family_options(args.family, start.options(args), args.option)
    if args.feedback == "dev":
        dev_feedback_keys(args, start, options)
    for items, what in ((test, "the gold"), (dev, "the dev gold")):
        if items is not None and items.dropped:   # said, not done silently
            print("note: %s's column(s) %s are neither scored nor public: they are not written into the competition"
                  % (what, ", ".join(items.dropped)))
    for note in start.notes(options, test, args):
        print("note: %s" % note)
    # Everything is made in a hidden folder beside OUT_DIR, checked there (the gold as the scoring program reads
    # it, the board split, the linter), and moved into place only when nothing is wrong: a refusal leaves no
    # OUT_DIR, or the empty one given, untouched.
    try:
        with new_folder(out, "OUT_DIR") as folder:
            try:
                build(folder, args, start, test, dev, options)
            except ScoringError as exc:  # the gold does not load: the organizer reads every detail
                raise OrganizerError("the gold %s does not load, as the competition's %s: %s"
                                     % (args.gold, "reference data", exc.message))
            problems = [] if args.no_check else lint(folder, out)
    except Unfit as unfit:
        from . import check

        check.print_problems(unfit.problems, out)
        print("nothing was written to %s: the competition made from the gold breaks the rules above (--no-check "
              "writes it anyway, to fix it there)" % out)
        return 1
    print("wrote %s: competition.yaml, pages/, logo.png, reference_data/, starting_kit/%s"
          % (out, " (with dev/)" if dev is not None else ""))
    if not args.no_check:
        from . import check

        check.print_problems(problems, out)
    print(NEXT.format(out=out.as_posix(), zip=(out.parent / (out.name + ".zip")).as_posix()))
    return 0


NEXT = """Next:
  1. read and edit the pages in {out}/pages/ (the data's origin and licence belong in terms.html and data.html)
     and the dates and submission limits in {out}/competition.yaml
  2. build the bundle to upload: python3 -m organizer bundle {out} {zip}"""


class Unfit(Exception):
    """The competition made breaks rules of the linter (its problems): it is not moved into place."""

    def __init__(self, problems):
        super().__init__(len(problems))
        self.problems = problems


def lint(folder, out):
    """The linter's problems of the competition made in ``folder`` (named as ``out``, where it will be); Unfit when
    one is an error."""
    from . import check

    progress.note("linting the competition")
    problems = check.check_path(folder)
    named = [dataclasses.replace(p, where=p.where.replace(str(folder), str(out)),
                                 message=p.message.replace(str(folder), str(out))) for p in problems]
    if check.has_errors(named):
        raise Unfit(named)
    return named


def dev_feedback_keys(args, start, options):
    """The dev phase and the final phase share one leaderboard, ranked by its first column: the dev set must be scored
    with the test set's primary key (OrganizerError otherwise)."""
    keys = families()[args.family].leaderboard_keys
    dev, test = keys(dict(options, **start.options(args, dev=True)))[0], keys(options)[0]
    if dev != test:
        raise OrganizerError("--feedback dev: the dev set is ranked by %s, the test set by %s, and both phases share "
                             "one leaderboard ranked by its first column; give options under which both are ranked "
                             "alike, or keep --feedback test" % (dev, test))


def parse_arguments(argv):
    parser = Parser(prog="python3 -m organizer new", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("gold", help="the gold file of the test set, in the family's gold format")
    parser.add_argument("out", help="the competition folder to write (new or empty)")
    parser.add_argument("--title", required=True, type=title,
                        help="the competition's title, as participants see it (1 to %d characters)" % TITLE.limit)
    parser.add_argument("--language", choices=("en", "zh"), default="en",
                        help="the language of the pages, the kit and every message participants read (default en)")
    parser.add_argument("--ratio-a", type=share, help="share of the test units on board A (default 0.4)")
    parser.add_argument("--seed", type=seed, help="seed of the board split (default 2024)")
    parser.add_argument("--start", type=_date, default=dt.date.today(), help="start of phase A (default today)")
    parser.add_argument("--final-start", type=_date, help="start of phase B (default 8 weeks after --start)")
    parser.add_argument("--end", type=_date, help="end of phase B, the competition's end_date (default 4 weeks after "
                        "--final-start); the reveal comes after it")
    parser.add_argument("--dev-gold", help="a dev set in the same format: ships with its answers in the kit's dev/")
    parser.add_argument("--feedback", choices=FEEDBACK, default="test",
                        help="what the first phase scores: test = board A, a share of the test set, its answers in "
                        "that phase's reference data (which Codabench serves to anyone); dev = the dev set of "
                        "--dev-gold, every test answer sealed until the reveal (default test). With test, board A's "
                        "answers can instead live in a private image on your own Codabench worker (python3 -m "
                        "organizer image, then bundle --answers-image; docs/organizers.md section 3)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a task option for both boards, the value in YAML (e.g. k=[1,3]); repeatable")
    parser.add_argument("--no-check", action="store_true", help="do not lint the folder afterwards")
    progress.add_argument(parser)
    for name in FAMILIES:
        start_of(name).arguments(parser)
    args = parser.parse_args(argv)
    if args.feedback == "dev":
        if not args.dev_gold:
            parser.error("--feedback dev needs --dev-gold FILE: the feedback phase scores that dev set")
        if args.ratio_a is not None or args.seed is not None:
            parser.error("--ratio-a and --seed make board A; with --feedback dev the final phase scores every test "
                         "unit and there is no board split")
    args.ratio_a = 0.4 if args.ratio_a is None else args.ratio_a
    args.seed = 2024 if args.seed is None else args.seed
    args.final_start = args.final_start or args.start + dt.timedelta(weeks=8)
    if args.final_start <= args.start:
        parser.error("--final-start must be after --start")
    args.end = args.end or args.final_start + dt.timedelta(weeks=4)
    if args.end <= args.final_start:
        parser.error("--end must be after --final-start")
    return args


TITLE = FIELDS_OF[COMPETITION]["title"].kind


def title(text):
    """An argparse type: a title every platform takes (its spaces collapsed), not empty."""
    text = " ".join(text.split())
    if not text:
        raise argparse.ArgumentTypeError("the title is empty; give the competition's title")
    if TITLE.problem(text) is not None:
        raise argparse.ArgumentTypeError("the title is %d characters; CodaLab v1 and EvalAI take at most %d"
                                         % (len(text), TITLE.limit))
    return text


def _date(text):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a date YYYY-MM-DD" % text)


def family_options(family, fixed, given):
    """Every option of the family: its default, what the files fix, then --option KEY=VALUE (checked)."""
    spec = families()[family].options
    options = {name: option.default for name, option in spec.items()}
    options.update(fixed)
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in spec:
            raise OrganizerError("--option %s: give KEY=VALUE with KEY one of %s" % (item, ", ".join(spec)))
        try:
            options[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise OrganizerError("--option %s: the value is not plain YAML (%s); write a number, a string or a "
                                 "list such as [1,3]" % (item, " ".join(str(exc).split())[:120]))
    try:
        parse_config({"task": family, "options": options}, families())
    except ScoringError as exc:
        raise OrganizerError("--option: %s" % exc.message)
    return options


# -- the folder ---------------------------------------------------------------------------------------------
def without_answers(items, family, files):
    """``items`` as the pages' example sees them: without the reference files that hold the units' answers (the
    family's unit files). An example that read them, even to avoid the true answer, would tell participants
    something of it."""
    answers = {files[slot] for slot in family.unit_files if slot in files}
    return dataclasses.replace(items, reference={k: v for k, v in items.reference.items() if k not in answers})


def build(out, args, start, test, dev, options):
    family = families()[args.family]
    reference, kit = out / "reference_data", out / "starting_kit"
    progress.note("writing reference_data/")
    write_files(reference, test.reference)
    primary = family.leaderboard_keys(options)[0]
    files = start.files(args)
    dev_feedback = args.feedback == "dev"
    for board in ("all",) if dev_feedback else ("A", "B"):
        (reference / ("board_%s.yaml" % board)).write_text(
            config_yaml(args.family, board, files, primary, args.language, options, sealed=dev_feedback),
            encoding="utf-8")
    if dev_feedback:   # every test unit on the final phase: no split
        notes = gold_notes(out)
        print("final phase: all %d test units, sealed until the reveal; feedback phase: the %d dev units"
              % (len(test.units), len(dev.units)))
    else:
        progress.note("the board split")
        boards_file, table, strata, notes = make_boards(out, args.ratio_a, args.seed)
        sizes = table["board"].value_counts()
        empty = [board for board in ("A", "B") if not sizes.get(board, 0)]
        if empty:
            raise OrganizerError("--ratio-a %g puts board %s's share of the gold's %d units at none; give a share "
                                 "that leaves units on both boards (0.4 is usual)" % (args.ratio_a, empty[0],
                                                                                      len(table)))
        print("board split: %d units\n%s" % (len(table), "\n".join(counts(table, strata))))
    for note in notes:   # e.g. labels of the label list that no gold sample has: the kit would speak of them
        print("warning: reference_data/%s" % note)

    progress.note("the starting kit")
    write_files(kit, test.public)
    sample = start.baseline(test, options, args)
    write_files(kit, sample)
    if dev is not None:
        write_files(kit / "dev", dev_folder(args, start, dev, options))

    progress.note("the pages")
    text = texts(args.family, args.language)
    values = dict(text)
    values.update(start.values(options, text, test))
    values.update(title=args.title, ratio_a="%g%%" % round(100 * args.ratio_a, 2),
                  ratio_b="%g%%" % round(100 * (1 - args.ratio_a), 2), sample=start.sample,
                  dev_sample=start.dev_sample,
                  dev_gold=code_list(sorted(dev.reference), args.language) if dev is not None else "")
    if dev_feedback:   # the phases, the overview and the kit speak of the dev and test boards
        values.update(n_test="{:,}".format(len(test.units)), n_dev="{:,}".format(len(dev.units)),
                      **{key: text[key + "_dev"] for key in DEV_TEXTS})
    # made-up answers on public ids; a $ of the data is no field of the templates
    shown = start.example(without_answers(test, family, files), sample, options, text, args)
    values.update({k: v.replace("$", "$$") for k, v in shown.items()})
    for page in PAGES:
        write_files(out / "pages", {"%s.html" % page: page_html(page, values).encode("utf-8")})
    write_files(kit, {"README.md": kit_readme(values, dev is not None, start).encode("utf-8")})
    keys = ordered_keys(family.leaderboard_keys(options), primary)
    labels = column_labels(keys, text.get("columns", {}), values, family, args.language)
    (out / "competition.yaml").write_text(competition_yaml(args, values, keys, labels, text["ascending"],
                                                           dev_feedback), encoding="utf-8")
    shutil.copyfile(ROOT / "logo.png", out / "logo.png")


def dev_folder(args, start, dev, options):
    """dev/: the dev gold (it ships in the kit), its config (every item scored) and a baseline prediction."""
    dev_options = dict(options, **start.options(args, dev=True))
    files = dict(dev.reference)
    primary = families()[args.family].leaderboard_keys(dev_options)[0]
    files["config.yaml"] = config_yaml(args.family, "all", start.files(args, dev=True), primary, args.language,
                                       dev_options).encode("utf-8")
    for name, data in start.baseline(dev, dev_options, args).items():
        # sample_submission.csv becomes sample_prediction.csv; a sample folder keeps its files' names
        files[start.dev_sample + name[len(start.sample):] if start.sample.endswith("/") else start.dev_sample] = data
    return files


def write_files(folder, files):
    for name, data in files.items():
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def config_yaml(task, board, files, primary, language, options, sealed=False):
    """A board config (or the dev set's, board ``all``; ``sealed``: the final phase's of every test unit) with every
    option and what it means."""
    spec = families()[task].options
    if board == "all" and sealed:
        lines = ["# config.yaml of the final phase's reference data: every test item, sealed until the reveal (the "
                 "bundle renames this file)."]
    elif board == "all":
        lines = ["# config.yaml of the dev set: the task and options of the competition, every item scored."]
    else:
        lines = ["# config.yaml of the board-%s phase's reference data (the bundle renames this file)." % board]
    lines += ["task: %s" % task, "board: %s" % board]
    if board == "B" or sealed:
        lines.append("report: sealed            # placeholders and no report while the phase runs; reveal: "
                     "python3 -m organizer reveal")
    if board != "all":
        lines.append("boards: {file: boards.csv}")
    lines += ["files: %s" % _flow(files), "primary_key: %s" % primary, "language: %s" % language, "options:"]
    for name in spec:
        lines.append("  %-22s # %s" % ("%s: %s" % (name, _flow(options[name])), spec[name].doc))
    return "\n".join(lines) + "\n"


def _flow(value):
    """A YAML flow value (JSON is YAML): strings quoted, lists in brackets, null."""
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s: %s" % (k, _flow(v)) for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)


def page_html(page, values):
    heading = fill(values["heading_" + page], values)
    if page == "overview":
        body = markdown_html(fill(values["task"], values)) + "\n" + markdown_html(fill(values["boards"], values))
    elif page == "data":
        body = "\n".join(markdown_html(fill(values[k], values)) for k in ("inputs", "format", "submit_phases", "check")
                         if values.get(k))
    elif page == "evaluation":
        body = markdown_html(fill(values["metric"], values))
        if values.get("phases"):   # --feedback dev: what each phase scores
            body += "\n" + markdown_html(fill(values["phases"], values))
    else:
        body = markdown_html(fill(values["terms"], values))
    return "<h3>%s</h3>\n%s\n" % (_escape(heading), body)


def _escape(text):
    import html

    return html.escape(text, quote=False)


def kit_readme(values, has_dev, start):
    """The kit's README.md: written for someone who has only the kit."""
    f = lambda key: fill(values[key], values)  # noqa: E731
    dev = "_dev" if has_dev else ""   # score_local.py is in the kit, and spoken of, only with a dev set
    files = [f("inputs"), "- " + f("kit_file_sample")]
    if has_dev:
        files.append("- " + f("kit_file_dev"))
    files.append("- " + f("kit_file_tools" + dev))
    parts = ["# " + f("kit_title"), f("task"), f("kit_intro" + dev),
             "## " + f("kit_files"), "\n".join(files),
             "## " + f("kit_setup"), f("kit_setup_text"), "    python3 -m pip install -r requirements.txt",
             "## " + f("kit_submit"), f("format")] + ([f("submit_phases")] if values.get("submit_phases") else []) + [
             "## " + f("kit_check"), "    python3 validate.py %s" % values["sample"], f("kit_check_text")]
    if has_dev:
        parts += ["## " + f("kit_dev"), "    python3 score_local.py dev/%s" % values["dev_sample"], f("kit_dev_text")]
    parts += ["## " + f("kit_scoring"), f("metric"), f("boards")]
    return "\n\n".join(reflow(part) for part in parts) + "\n"


def competition_yaml(args, values, keys, labels, ascending, dev_feedback=False):
    """competition.yaml (CodaLab v1, which Codabench imports): two phases, one leaderboard, the columns. With
    ``dev_feedback`` the first phase scores the kit's dev set (reference_data_dev.zip) and the second every test unit,
    sealed (reference_data_all.zip)."""
    q = lambda text: json.dumps(" ".join(str(text).split()), ensure_ascii=False)  # noqa: E731
    f = lambda key: fill(values[key], values)  # noqa: E731
    lines = [
        "# CodaLab v1 competition bundle definition (Codabench accepts v1 bundles too), made by",
        "# python3 -m organizer new.",
        "# Build the uploadable zip with: python3 -m organizer bundle %s OUT.zip" % Path(args.out).as_posix(),
    ] + ([
        "# reference_data_dev.zip is the dev phase's reference data: the kit's dev/ set, whose answers the kit ships.",
        "# reference_data_all.zip is the final phase's, made from reference_data/: the public test inputs and no",
        "# answer until python3 -m organizer reveal (the phase scores every test item, sealed).",
    ] if dev_feedback else [
        "# reference_data_A.zip / _B.zip are each phase's reference data, made from reference_data/: the public",
        "# test inputs and the answers of that board only (none for the sealed board B until python3 -m organizer",
        "# reveal).",
    ]) + [
        "title: %s" % q(args.title),
        "description: %s" % q(f("summary")),
        "image: logo.png",
        "has_registration: False",
        "end_date: %s     # the final phase ends here (a v1 phase ends when the next one starts)" % args.end.isoformat(),
        "competition_docker_image: codalab/codalab-legacy:py312",
        "enable_detailed_results: True",
        "html:",
    ]
    lines += ["  %s: %s.html" % (page, page) for page in PAGES]
    lines.append("phases:")
    zips = ("dev", "all") if dev_feedback else ("A", "B")
    phases = ((1, "a", args.start, "green", "default", 5, 100),
              (2, "b", args.final_start, "purple", "hide_results", 2, 5))
    for (number, board, start, color, mode, per_day, total), data in zip(phases, zips):
        lines += [
            "  %d:" % number,
            "    phasenumber: %d" % number,
            "    label: %s" % q(f("phase_%s_label" % board)),
            "    description: %s" % q(f("phase_%s_description" % board)),
            "    start_date: %s" % start.isoformat(),
            "    max_submissions_per_day: %d" % per_day,
            "    max_submissions: %d" % total,
            "    is_scoring_only: True",
            "    execution_time_limit: 600",
            "    color: %s" % color,
            "    leaderboard_management_mode: %s" % mode,
            "    scoring_program: scoring_program.zip",
            "    reference_data: reference_data_%s.zip" % data,
            "    starting_kit: starting_kit.zip",
        ]
    lines += ["leaderboard:", "  leaderboards:", "    Results: &RESULTS", "      label: %s" % q(f("leaderboard")),
              "      rank: 1", "  columns:"]
    for rank, key in enumerate(keys, start=1):
        lines += ["    %s:" % key, "      label: %s" % q(labels[key]), "      leaderboard: *RESULTS",
                  "      rank: %d" % rank, "      numeric_format: 4",
                  "      sort: %s" % ("asc" if key in ascending else "desc")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
