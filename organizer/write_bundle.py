"""Write a competition folder's uploadable bundle, then lint it as python3 -m organizer check does.

    python3 -m organizer bundle COMPETITION_DIR OUT.zip [--format v1|v2] [--no-check]
                                [--answers-image TAG --queue VHOST]

With ``--answers-image``, for Codabench with the organizer's own compute worker: the answers are in the private
image TAG (python3 -m organizer image), which the worker of the queue VHOST can pull; no reference zip holds an
answer. The layouts are organizer/bundle.py's; the rules, organizer/check.py's.
"""
import sys
import tempfile
from pathlib import Path

import yaml

from .answers_image import AnswersImage, image_problem, queue_problem
from .bundle import build_v1, build_v2
from .check import check_path, has_errors, print_problems
from . import progress
from .inputs import OrganizerError, Parser, competition_yaml, write_file
from .layout import board_configs


def build(competition, out, fmt="v1", lint=True, answers_image=None):
    competition_yaml(competition)
    if Path(out).is_dir():
        raise OrganizerError("the bundle's path %s is a folder; give a .zip file's path" % out)
    data = build_v1(competition, answers_image) if fmt == "v1" else build_v2(competition, answers_image)
    out = write_file(out, data, "the bundle")
    print("wrote %s (%s%s)" % (out, fmt, "" if answers_image is None else
                               ", answers in %s, queue %s" % (answers_image.tag, answers_image.queue)))
    if lint:
        progress.note("linting the bundle")
        if answers_image is None:
            problems = check_path(out)
        else:   # the linter scores the sample on the answers the image will hold
            from .image import write_answers
            with tempfile.TemporaryDirectory(prefix="bundle-answers-") as tmp:
                write_answers(competition, tmp)
                problems = check_path(out, answers=tmp)
        print_problems(problems, out)
        if has_errors(problems):
            print("%s has errors (above): fix them before uploading it" % out)
            return 1
    print(next_steps(competition, out, fmt, answers_image is not None))
    return 0


def next_steps(competition, out, fmt, in_image=False):
    """What the organizer does with the bundle: where to upload it, and the reveal of each sealed board."""
    # the pages that take a bundle: codalab-competitions apps/web/templates/web/my/index.html ("Create Competition");
    # codabench src/templates/base.html (My Resources > Competitions) and src/static/riot/competitions/management.tag
    codabench = "Codabench (your menu > Competitions > Upload)"
    where = "CodaLab v1 (My Codalab > Competitions I'm Running > Create Competition) or " + codabench \
        if fmt == "v1" else codabench
    lines = ["Next:", "  1. upload %s on %s; submit the starting kit's sample submission to each phase once"
             % (out, where)]
    for board in sealed_boards(competition):
        lines.append("  2. after the final phase, reveal board %s: python3 -m organizer reveal %s %s %s%s (--codabench "
                     "or --evalai to do it through the platform; docs/organizers.md, section 4)"
                     % (board, Path(competition).as_posix(), board,
                        (Path(out).parent / ("reference_data_%s_reveal.zip" % board)).as_posix(),
                        " --answers-in-image" if in_image else ""))
    return "\n".join(lines)


def sealed_boards(competition):
    """The boards whose config says ``report: sealed``."""
    found = []
    for board, path in sorted(board_configs(Path(competition) / "reference_data").items()):
        try:
            raw = yaml.safe_load(path.read_bytes().decode("utf-8-sig"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            continue
        if isinstance(raw, dict) and raw.get("report") == "sealed":
            found.append(board)
    return found


def main(argv=None):
    parser = Parser(prog="python3 -m organizer bundle", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (competition.yaml, pages/, reference_data/, ...)")
    parser.add_argument("out", help="the bundle zip to write")
    parser.add_argument("--format", choices=("v1", "v2"), default="v1")
    parser.add_argument("--no-check", action="store_true", help="do not lint the written bundle")
    parser.add_argument("--answers-image", metavar="TAG", help="Codabench with your own worker: the private image "
                        "that holds every board's answers (python3 -m organizer image); no reference zip holds any")
    parser.add_argument("--queue", metavar="VHOST", help="with --answers-image: the vhost of your Codabench queue, "
                        "whose worker can pull the image")
    progress.add_argument(parser)
    args = parser.parse_args(argv)
    progress.start("organizer bundle", args.progress)
    answers_image = None
    if args.answers_image is not None or args.queue is not None:
        if args.answers_image is None or args.queue is None:
            raise OrganizerError("--answers-image and --queue go together: the private image and the queue whose "
                                 "worker can pull it")
        problem = image_problem(args.answers_image) or queue_problem(args.queue)
        if problem:
            raise OrganizerError(problem)
        answers_image = AnswersImage(args.answers_image, args.queue)
    return build(args.competition, args.out, args.format, lint=not args.no_check, answers_image=answers_image)


if __name__ == "__main__":
    sys.exit(main())
