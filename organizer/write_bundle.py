"""Write a competition folder's uploadable bundle, then lint it as python3 -m organizer check does.

    python3 -m organizer bundle COMPETITION_DIR OUT.zip [--format v1|v2] [--no-check]

The layouts are organizer/bundle.py's; the rules, organizer/check.py's.
"""
import sys
from pathlib import Path

from .bundle import build_v1, build_v2
from .check import check_path, has_errors, print_problems
from .inputs import OrganizerError, Parser, competition_yaml, write_file


def build(competition, out, fmt="v1", lint=True):
    competition_yaml(competition)
    if Path(out).is_dir():
        raise OrganizerError("the bundle's path %s is a folder; give a .zip file's path" % out)
    data = build_v1(competition) if fmt == "v1" else build_v2(competition)
    out = write_file(out, data, "the bundle")
    print("wrote %s (%s)" % (out, fmt))
    if lint:
        problems = check_path(out)
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
    args = parser.parse_args(argv)
    return build(args.competition, args.out, args.format, lint=not args.no_check)


if __name__ == "__main__":
    sys.exit(main())
