"""Build an EvalAI challenge from a competition folder: configuration, evaluation script, annotations, pages.

    python3 -m organizer evalai COMPETITION_DIR OUT_DIR [--end-date YYYY-MM-DD]

Writes into OUT_DIR the files of an EvalAI challenge configuration, and
OUT_DIR/challenge.zip holding them all (the zip EvalAI's "upload challenge
configuration" takes; the folder is what a challenge repository built from
EvalAI-Starters holds)::

    challenge_config.yaml                 the only YAML file (EvalAI refuses a zip with two)
    evaluation_script.zip                 adapters/evalai/evaluation_script + a copy of the engine, at the zip root
    annotations/test_annotations_<B>.zip  one per phase: reference_data/ with board_<B>.yaml as config.yaml
    templates/*.html                      the competition's pages and one description per phase
    <logo>                                the competition's image

OUT_DIR is a folder (made, or replaced when it holds an earlier challenge of
this command); a path ending in .zip is refused, since the zip is written inside.

Each phase of competition.yaml becomes a challenge phase scoring the board its
reference zip names (reference_data_<B>.zip); board A's scores go to the dataset
split public_split (visibility 3, public), board B's to private_split,
visibility 1 (hosts only) when board_B.yaml says ``report: sealed``. A phase's
submissions are public unless the team makes one private, so its leaderboard
shows every team (``is_submission_public``); a sealed board's phase follows the
competition's rule (``phase_rule``), which ``organizer reveal --evalai`` applies.
Only keys EvalAI reads are written; docs/organizers.md cites where it reads each
one. Every zip is deterministic.
"""
import datetime as dt
import html
import re
import sys
from pathlib import Path

import yaml

from .inputs import Parser, competition_yaml, new_folder
from . import ROOT
from .bundle import (REFERENCE_ZIP, as_datetime, find_asset, folder_entries, load_yaml, program_dir, reference_zip,
                     sorted_phases, zip_bytes)
from .layout import board_configs
from scorer.public import ScoringError, families, ordered_keys, parse_config

SCRIPT = ROOT / "adapters" / "evalai" / "evaluation_script"
SPLITS = {"A": ("public_split", "Board A"), "B": ("private_split", "Board B")}
PUBLIC, HOST_ONLY = 3, 1                # ChallengePhaseSplit.VISIBILITY_OPTIONS (apps/challenges/models.py)
TITLE_MAX = 100                         # Challenge.title and ChallengePhase.name: max_length=100
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")   # rest_framework/fields.py SlugField (allow_unicode=False), DRF 3.10.3
QUEUE_CHARS = 50                        # apps/base/utils.py get_queue_name: max_challenge_title_len
WORKER_PYTHON = "3.9"                   # apps/challenges/constants.py: SUPPORTED_WORKER_PYTHON_VERSIONS
DEFAULT_DAYS = 90
# a sealed board's phase page: competition.yaml's text speaks of CodaLab's placeholder scores, not of EvalAI
SEALED_PAGE = {
    "en": "Scored on board {board}. Its leaderboard is shown to the organizers only until they reveal it after the "
          "phase ends; until then the result of each submission says whether it was received and is valid, "
          "without scores. {entry}",
    "zh": "在榜单 {board} 上评测。阶段结束、组织者公布之前，该榜单只对组织者可见；在此之前，每次提交的结果只说明是否"
          "已收到且格式有效，不显示成绩。{entry}",
}
# what each rule makes a team's final entry, said on the phase's page (organizer/final_record.py RULES)
ENTRY_PAGE = {
    "chosen": {"en": "Your final entry is the one submission you make public (\"Show on leaderboard\" in My "
                     "Submissions) before the phase ends; a team that makes none public is not ranked.",
               "zh": "你的最终成绩取你在阶段结束前设为公开（在“My Submissions”中勾选“Show on leaderboard”）的那一次"
                     "提交；没有公开任何提交的队伍不参与排名。"},
    "last": {"en": "Your final entry is your last submission made before the phase ends whose evaluation finished, "
                   "unless you make it private: a private submission is never ranked.",
             "zh": "你的最终成绩取阶段结束前最后一次评测完成的提交，除非你把它设为私有：私有提交不参与排名。"},
}
# challenge-level pages: EvalAI key -> the competition.yaml html: key whose page it shows
PAGES = {"description": "overview", "evaluation_details": "evaluation", "terms_and_conditions": "terms",
         "submission_guidelines": "data"}


def evaluation_script_zip(competition):
    entries = folder_entries(SCRIPT)
    entries.update(folder_entries(program_dir(competition) / "scorer", "scorer/"))
    return zip_bytes(entries)


def _board(spec):
    match = REFERENCE_ZIP.match(str(spec.get("reference_data") or ""))
    if not match or match.group(1) not in SPLITS:
        raise SystemExit("phase %r: EvalAI phases need reference_data: reference_data_A.zip or reference_data_B.zip"
                         % spec.get("label"))
    return match.group(1)


def _board_config(competition, board):
    path = board_configs(Path(competition) / "reference_data").get(board)
    if path is None:
        raise SystemExit("no reference_data/board_%s.yaml in %s" % (board, competition))
    raw = load_yaml(path)
    try:
        cfg = parse_config(raw, families(), ref_dir=str(path.parent))
    except ScoringError as exc:
        raise SystemExit("%s: %s" % (path, exc.text("en")))
    if cfg.feedback.ladder != "none":
        raise SystemExit("%s: feedback.ladder needs each team's earlier scores, which EvalAI does not give the "
                         "evaluation script; set ladder: none for EvalAI" % path)
    return cfg


def _family_title(competition, comp):
    """The English title of the competition's task family, from its first phase's board config."""
    title = families()[_board_config(competition, _board(sorted_phases(comp)[0])).task].title
    return title.texts["en"] if hasattr(title, "texts") else str(title)


def _page(title, text):
    return ("<h2>%s</h2>\n<p>%s</p>\n" % (html.escape(title), html.escape(text))).encode("utf-8")


def _title(value, what):
    text = " ".join(str(value or "").split())
    if not text or len(text) > TITLE_MAX:
        raise SystemExit("%s must be 1 to %d characters for EvalAI (got %r)" % (what, TITLE_MAX, text))
    return text


def title_problem(title):
    """Why EvalAI would refuse ``title`` as a challenge's title, or None.

    - Each phase's slug is ``<first word of the title, lower>-<codename>-<pk>``
      (apps/challenges/views.py ``create_challenge_using_zip_file``) and goes
      through DRF 3.10's SlugField, which takes only ``[-a-zA-Z0-9_]``: the
      upload fails with 406.
    - The challenge's queue is named after the title's first 50 characters, word
      characters kept (apps/base/utils.py ``get_queue_name``), and SQS queue names
      take ASCII letters, digits, ``-`` and ``_`` only.

    >>> title_problem("BDCI 2021: bank comments"), title_problem("银行评论")[:24]
    (None, "its first word '银行评论' is")
    """
    first = title.split(" ")[0].lower()
    if not SLUG.match(first):
        return "its first word %r is not made of ASCII letters, digits, - and _ (each phase's slug starts with it)" % first
    head = title[:QUEUE_CHARS]
    if not head.isascii():
        return "its first %d characters %r are not all ASCII (the challenge's queue is named after them)" % (
            QUEUE_CHARS, head)
    return None


def evalai_title(competition, comp, given=None):
    """(the challenge's title, a note or None): ``given``, else competition.yaml's title, else the family's English
    title when EvalAI would refuse competition.yaml's (the original then opens the short description)."""
    if given is not None:
        title = _title(given, "--title")
        problem = title_problem(title)
        if problem:
            raise SystemExit("--title %r cannot be an EvalAI title: %s" % (title, problem))
        return title, None
    title = _title(comp.get("title"), "competition.yaml title")
    problem = title_problem(title)
    if problem is None:
        return title, None
    fallback = _title(_family_title(competition, comp), "the task family's title")
    return fallback, ("competition.yaml's title %r cannot be EvalAI's: %s; the challenge is titled %r and its "
                      "short description starts with the title (--title chooses another)" % (title, problem, fallback))


def phase_rule(comp):
    """The rule of a sealed board's phase (organizer/final_record.py RULES), as on the other platforms: ``last``
    when competition.yaml sets ``force_submission_to_leaderboard`` (Codabench's Force_Last), else ``chosen``
    (Codabench's Add: each team puts its own entry on the board).

    On EvalAI ``chosen`` is a phase ``is_restricted_to_select_one_submission`` whose submissions are private until
    the team makes one public (EvalAI refuses ``is_submission_public`` with it: apps/challenges/views.py
    ``create_challenge_using_zip_file``), ``last`` a phase whose submissions are public unless the team hides one.

    >>> phase_rule({"force_submission_to_leaderboard": True}), phase_rule({})
    ('last', 'chosen')
    """
    return "last" if comp.get("force_submission_to_leaderboard") else "chosen"


def challenge(competition, end_date=None, title=None):
    """(challenge_config mapping, {file name: bytes} of every other file of the challenge configuration): its texts
    and pages, its dates, its one leaderboard, then its phases and the dataset splits they score."""
    competition = Path(competition)
    comp = load_yaml(competition / "competition.yaml")
    phases = sorted_phases(comp)
    files = {"evaluation_script.zip": evaluation_script_zip(competition)}
    config = _texts(competition, comp, title)
    config.update(_pages(competition, comp, files))
    config.update({"evaluation_script": "evaluation_script.zip", "remote_evaluation": False,
                   "is_docker_based": False, "worker_python_version": WORKER_PYTHON})
    starts = [as_datetime(p["start_date"]) for p in phases]
    config["start_date"], config["end_date"] = starts[0], _end(comp, starts, end_date)
    boards = [_board(p) for p in phases]
    cfgs = {b: _board_config(competition, b) for b in sorted(set(boards))}
    family = families()[cfgs[boards[0]].task]
    config.update(_leaderboard(comp, cfgs, boards, family))
    config.update(_phases(competition, comp, phases, boards, cfgs, family, starts, config["end_date"], files))
    return config, files


def _texts(competition, comp, title):
    """The challenge's title and short description (which opens with competition.yaml's title when EvalAI
    refuses that as the challenge's)."""
    chosen, note = evalai_title(competition, comp, title)
    description = " ".join(str(comp.get("description") or comp.get("title")).split())
    if note is not None:
        description = "%s: %s" % (" ".join(str(comp.get("title")).split()), description)
    return {"title": chosen, "short_description": description}


def _pages(competition, comp, files):
    """The challenge's pages (competition.yaml's html pages, each required) and its image, when it is one EvalAI
    shows; their bytes go into ``files``."""
    config = {}
    for key, page in PAGES.items():
        name = (comp.get("html") or {}).get(page)
        path = find_asset(competition, str(name)) if name else None
        if path is None:
            raise SystemExit("competition.yaml html.%s names no page in %s (EvalAI needs %s)" % (page, competition, key))
        config[key] = "templates/%s.html" % key
        files[config[key]] = path.read_bytes()
    image = comp.get("image")
    if image and str(image).lower().endswith((".png", ".jpg", ".jpeg")) and find_asset(competition, str(image)):
        config["image"] = str(image)
        files[str(image)] = find_asset(competition, str(image)).read_bytes()
    return config


def _end(comp, starts, end_date):
    """The challenge's end: ``end_date``, else competition.yaml's, else DEFAULT_DAYS after the last phase starts."""
    end = as_datetime(end_date or comp.get("end_date") or (starts[-1] + dt.timedelta(days=DEFAULT_DAYS)))
    if end <= starts[-1]:
        raise SystemExit("the end date %s is not after the last phase's start %s" % (end, starts[-1]))
    return end


def _leaderboard(comp, cfgs, boards, family):
    """The challenge's one leaderboard: the keys every board writes (the same on each), the primary key first,
    labelled as competition.yaml labels them, each sorted as the family ranks it."""
    first = cfgs[boards[0]]
    keys = ordered_keys(family.leaderboard_keys(first.options), first.primary_key)
    for b, cfg in cfgs.items():
        if ordered_keys(family.leaderboard_keys(cfg.options), cfg.primary_key) != keys:
            raise SystemExit("board_%s.yaml writes other leaderboard keys than board_%s.yaml; one EvalAI leaderboard "
                             "needs the same keys on every board" % (b, boards[0]))
    columns = (comp.get("leaderboard") or {}).get("columns") or {}
    label = lambda k: str((columns.get(k) or {}).get("label") or k)  # noqa: E731
    lower = set(family.lower_is_better)
    return {"leaderboard_description": "Ranked by %s (%s)." % (label(first.primary_key), first.primary_key),
            "leaderboard": [{"id": 1, "schema": {
                "labels": keys, "default_order_by": first.primary_key,
                "metadata": {k: {"sort_ascending": k in lower, "description": label(k)} for k in keys}}}]}


def _phases(competition, comp, phases, boards, cfgs, family, starts, end, files):
    """The challenge's phases, one per phase of competition.yaml, the dataset split of each board, and which
    split each phase scores; each phase's annotation zip and page go into ``files``."""
    out = {"challenge_phases": [], "dataset_splits": [], "challenge_phase_splits": []}
    split_ids, rule = {}, phase_rule(comp)
    for n, (spec, board) in enumerate(zip(phases, boards), start=1):
        phase_end = starts[n] - dt.timedelta(seconds=1) if n < len(phases) else end
        phase = _phase(competition, n, spec, board, cfgs[board], rule, starts[n - 1], phase_end, files)
        if any(p["codename"] == phase["codename"] for p in out["challenge_phases"]):   # codenames are unique
            phase["codename"] += "_phase_%d" % n
        out["challenge_phases"].append(phase)
        if board not in split_ids:
            split_ids[board] = len(split_ids) + 1
            codename, split_name = SPLITS[board]
            out["dataset_splits"].append({"id": split_ids[board], "name": split_name, "codename": codename})
        out["challenge_phase_splits"].append(_phase_split(comp, n, split_ids[board], cfgs[board], cfgs[boards[0]],
                                                          family))
    return out


def _phase(competition, n, spec, board, cfg, rule, start, end, files):
    """Challenge phase ``n``: its name, page, dates and limits, the annotation zip of its board (both put into
    ``files``), whose submissions are public and how a team's entry is chosen."""
    name = _title(spec.get("label") or "Phase %d" % n, "phase %d label" % n)
    annotation = "annotations/test_annotations_%s.zip" % board
    files[annotation] = reference_zip(competition, board)
    description = "templates/challenge_phase_%d_description.html" % n
    text = str(spec.get("description") or name)
    if cfg.report == "sealed":
        text = SEALED_PAGE[cfg.language].format(board=board, entry=ENTRY_PAGE[rule][cfg.language])
    files[description] = _page(name, text)
    phase = {"id": n, "name": name, "description": description, "leaderboard_public": True, "is_public": True,
             "start_date": start, "end_date": end, "codename": "board_%s" % board.lower(),
             "test_annotation_file": annotation}
    # a leaderboard shows public submissions only (apps/jobs/utils.py calculate_distinct_sorted_leaderboard_data),
    # and a submission is public unless the team says not (apps/jobs/views.py challenge_submission: is_public
    # defaults to the phase's is_submission_public, false by default): every team is on the board
    phase["is_submission_public"] = True
    if cfg.report == "sealed" and rule == "chosen":
        # each team shows the one submission it chooses (change_submission_data_and_visibility makes its other
        # public one private), the entry the reveal ranks
        phase["is_submission_public"] = False
        phase["is_restricted_to_select_one_submission"] = True
    for key in ("max_submissions_per_day", "max_submissions"):
        if spec.get(key) is not None:
            phase[key] = int(spec[key])
    return phase


def _phase_split(comp, n, split_id, cfg, first, family):
    """Which split phase ``n`` scores, who sees it (hosts only while its board is sealed) and how it ranks."""
    columns = (comp.get("leaderboard") or {}).get("columns") or {}
    precision = (columns.get(first.primary_key) or {}).get("numeric_format", 4)
    return {"challenge_phase_id": n, "leaderboard_id": 1, "dataset_split_id": split_id,
            "visibility": HOST_ONLY if cfg.report == "sealed" else PUBLIC,
            "leaderboard_decimal_precision": int(precision),
            "is_leaderboard_order_descending": first.primary_key not in set(family.lower_is_better)}


class _Dumper(yaml.SafeDumper):
    """Plain YAML: a date used twice is written twice, not as an anchor and an alias."""

    def ignore_aliases(self, data):
        return True


def config_bytes(config):
    header = "# EvalAI challenge configuration written by python3 -m organizer evalai; docs/organizers.md says why.\n"
    body = yaml.dump(config, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=120)
    return (header + body).encode("utf-8")


def _check_out(out_dir):
    """OUT_DIR is a folder: a path ending in .zip (the name of the zip to upload, a common slip) is refused."""
    if str(out_dir).rstrip("/").lower().endswith(".zip"):
        raise SystemExit("OUT_DIR %s ends in .zip, but it is the folder this command makes (challenge.zip and the "
                         "challenge's files are written inside it); give a folder, e.g. %s" % (
                             out_dir, Path(str(out_dir).rstrip("/")).with_suffix("")))


def build(competition, out_dir, end_date=None, title=None):
    """Write the challenge's files and challenge.zip into ``out_dir``; returns the path of challenge.zip."""
    _check_out(out_dir)
    competition_yaml(competition)
    config, files = challenge(competition, end_date, title)
    files["challenge_config.yaml"] = config_bytes(config)
    out_dir = Path(out_dir)
    # the whole folder is ours: made aside, it replaces an earlier one (or an empty folder), never other files
    with new_folder(out_dir, "OUT_DIR", allow_existing=(out_dir / "challenge_config.yaml").is_file()) as made:
        for name, data in files.items():
            path = made / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (made / "challenge.zip").write_bytes(zip_bytes(files))
    return out_dir / "challenge.zip"


def main(argv=None):
    parser = Parser(prog="python3 -m organizer evalai", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="the competition folder (holds competition.yaml)")
    parser.add_argument("out", metavar="OUT_DIR", help="the folder to write: the challenge's files and "
                        "OUT_DIR/challenge.zip, the zip EvalAI's upload takes (made; replaced when it holds an earlier "
                        "challenge of this command)")
    parser.add_argument("--end-date", help="the challenge's end (YYYY-MM-DD[ HH:MM:SS]); default: competition.yaml's "
                        "end_date, else %d days after the last phase starts" % DEFAULT_DAYS)
    parser.add_argument("--title", help="the challenge's title on EvalAI (default: competition.yaml's, when EvalAI "
                        "takes it: its first word ASCII letters, digits, - or _, and its first %d characters ASCII)"
                        % QUEUE_CHARS)
    args = parser.parse_args(argv)
    _check_out(args.out)
    comp = load_yaml(competition_yaml(args.competition))
    if not args.end_date and not comp.get("end_date"):
        print("note: competition.yaml has no end_date: the challenge ends %d days after the last phase starts "
              "(--end-date sets it)" % DEFAULT_DAYS)
    note = evalai_title(args.competition, comp, args.title)[1]
    if note:
        print("note: " + note)
    path = build(args.competition, args.out, args.end_date, args.title)
    print("wrote %s and its files in %s" % (path, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
