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

from .answers_image import AnswersImage, image_problem, queue_problem
from .bundle import build_v1, build_v2
from .check import check_path, has_errors, print_problems
from .inputs import OrganizerError, Parser, competition_yaml, write_file


def build(competition, out, fmt="v1", lint=True, answers_image=None):
    competition_yaml(competition)
    if Path(out).is_dir():
        raise OrganizerError("the bundle's path %s is a folder; give a .zip file's path" % out)
    data = build_v1(competition, answers_image) if fmt == "v1" else build_v2(competition, answers_image)
    out = write_file(out, data, "the bundle")
    print("wrote %s (%s%s)" % (out, fmt, "" if answers_image is None else
                               ", answers in %s, queue %s" % (answers_image.tag, answers_image.queue)))
    if lint:
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
    return 0


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
    args = parser.parse_args(argv)
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
