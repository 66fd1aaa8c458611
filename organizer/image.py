"""Write the build context of a competition's private scoring image: every board's answers, the scoring program,
and a guard that runs that program and nothing else.

    python3 -m organizer image COMPETITION_DIR OUT_DIR --tag REGISTRY/NAME:TAG [--base IMAGE] [--queue VHOST]

For organizers who run their own Codabench compute worker (a queue), so that no uploaded zip holds an answer
while every board is still scored live: the image goes to a registry that needs credentials, which only that
worker has, and the bundle (``python3 -m organizer bundle --answers-image TAG --queue VHOST``) names the image
and the queue, its phases' reference data holding the config and the public inputs only. OUT_DIR gets::

    Dockerfile     FROM the base (default: the competition's competition_docker_image), the rest copied in,
                   ENTRYPOINT the guard, CMD the scoring program's command; the build checks the image
    program/       the scoring program, as the bundle's scoring_program.zip holds it
    answers/<B>/   each board's answer files, its units only (organizer/phase_data.py answer_entries)
    guard.py       organizer/guard.py; guard.json: the command it accepts, the program's digest, what it runs

The layout in the image is organizer/answers_image.py's; why the guard is needed and what it checks,
organizer/guard.py's docstring.
"""
import json
import shlex
import sys
from pathlib import Path

import yaml

from . import answers_image as layout
from .bundle import folder_entries, load_yaml, program_dir
from .inputs import OrganizerError, Parser, competition_yaml, new_folder
from .layout import board_configs
from .phase_data import answer_entries, write_entries
from scorer.public import provenance

GUARD_SOURCE = Path(__file__).with_name("guard.py")
# Codabench's replacement of a metadata command's variables in the scoring step (kind "program", is_scoring, no
# ingestion during scoring): compute_worker/compute_worker.py ``replace_legacy_metadata_command``, in its order
SCORING_STEP = (("$input", "/app/input"), ("$output", "/app/output"), ("$program", "/app/program"),
                ("$ingestion_program", "/app/program"), ("$hidden", "/app/input/ref"), ("$shared", "/app/shared"),
                ("$submission_program", "/app/ingested_program"), ("$tmp", "/app/output"),
                ("$predictions", "/app/input/res"))
MOUNTED_PROGRAM = "/app/program/"

DOCKERFILE = """\
# The private scoring image of {title}, written by python3 -m organizer image.
# It holds every board's answers: push it only to a registry that needs credentials, which only the compute
# worker of your own Codabench queue has. Its entry point runs the scoring program and nothing else
# (/opt/competition/guard.py): a participant's command in the prediction step runs nothing.
FROM {base}
COPY program/ {program}/
COPY answers/ {answers}/
COPY guard.py guard.json {root}/
ENV PYTHONDONTWRITEBYTECODE=1
RUN ["python3", "-I", "-c", "import sys; sys.path.insert(0, '{root}'); import guard; sys.exit(guard.check_image())"]
ENTRYPOINT ["python3", "-I", "{guard}"]
CMD {command}
"""

NEXT = """\
wrote {out}: the build context of the private scoring image {tag} (program {digest}, answers of board(s) {boards}).
It holds every board's answers: keep it, and the image, away from participants. Next:
  1. build and push it to a registry that needs credentials (never a public repository):
       docker build -t {tag} {out}
       docker login {registry}
       docker push {tag}
  2. run your own Codabench compute worker on your queue (Codabench: Resources > Queues; the worker's
     BROKER_URL is the queue's), logged in to that registry as the user that starts it (docker login), so that
     it alone can pull {tag};
  3. bundle with the image and the queue's vhost; no reference zip then holds an answer:
       python3 -m organizer bundle {competition} out/bundle.zip --answers-image {tag} --queue {queue}
     (the bundle sets competition_docker_image (v2: docker_image) to the image and queue: to the vhost);
  4. upload the bundle as the queue's owner or one of its organizers; every submission is then scored by your
     worker in this image. Build the image again whenever the scoring program or an answer changes: the image
     runs only the program it was built with."""


def scoring_argv(command):
    """The argument list the worker gives the container for the scoring program's metadata ``command``.

    >>> scoring_argv("python3 $program/score.py $input $output")
    ['python3', '/app/program/score.py', '/app/input', '/app/output']
    """
    for variable, value in SCORING_STEP:
        command = command.replace(variable, value)
    return shlex.split(command)


def guard_settings(program, digest, language, boards):
    """guard.json: the command the guard accepts, what it runs instead (the baked copy), the program's digest."""
    metadata = program / "metadata"
    try:
        command = (yaml.safe_load(metadata.read_bytes().decode("utf-8")) or {}).get("command")
    except (OSError, yaml.YAMLError, UnicodeDecodeError, AttributeError):
        command = None
    if not isinstance(command, str) or not command.strip():
        raise OrganizerError("%s has no command: the image runs the scoring program's own command" % metadata)
    argv = scoring_argv(command)
    if Path(argv[0]).name not in ("python3", "python") or len(argv) < 2 or not argv[1].startswith(MOUNTED_PROGRAM):
        raise OrganizerError("%s's command %r does not run a Python script of the program (python3 $program/...): the "
                             "image's guard runs the program's own script only" % (metadata, command))
    run = [layout.PROGRAM + "/" + a[len(MOUNTED_PROGRAM):] if a.startswith(MOUNTED_PROGRAM) else a for a in argv[1:]]
    return {"argv": argv, "run": run, "digest": digest, "program": layout.PROGRAM, "language": language,
            "answers": [layout.answers_folder(board) for board in boards]}


def write_answers(competition, target):
    """Every board's answer files under ``target/<BOARD>/``; the boards, in order."""
    boards = sorted(board_configs(Path(competition) / "reference_data"))
    if not boards:
        raise OrganizerError("%s/reference_data has no board_<X>.yaml: no board to hold answers for" % competition)
    for board in boards:
        write_entries(answer_entries(competition, board), Path(target) / board)
    return boards


def build_context(competition, out, tag, base=None):
    """Write the build context into the new folder ``out``; returns (boards, program digest)."""
    competition = Path(competition)
    comp = load_yaml(competition_yaml(competition)) or {}
    base = base or comp.get("competition_docker_image")
    if not base:
        raise OrganizerError("competition.yaml names no competition_docker_image: give the image to build on with "
                             "--base (one with python3, numpy, pandas and PyYAML: the project's Dockerfile, or "
                             "codalab/codalab-legacy:py312)")
    problem = layout.image_problem(tag) or layout.image_problem(base)
    if problem:
        raise OrganizerError(problem)
    configs = board_configs(competition / "reference_data")
    languages = {(yaml.safe_load(p.read_bytes().decode("utf-8-sig")) or {}).get("language", "en")
                 for p in configs.values()}
    with new_folder(out, "the build context") as tmp:
        boards = write_answers(competition, tmp / "answers")
        write_entries(folder_entries(program_dir(competition)), tmp / "program")
        digest = provenance.tree_digest(str(tmp / "program"))
        settings = guard_settings(tmp / "program", digest, sorted(languages)[0] if len(languages) == 1 else "en",
                                  boards)
        (tmp / "guard.py").write_bytes(GUARD_SOURCE.read_bytes())
        (tmp / "guard.json").write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        title = " ".join(str(comp.get("title") or competition.resolve().name).split())
        (tmp / "Dockerfile").write_text(DOCKERFILE.format(
            title=title, base=base, program=layout.PROGRAM, answers=layout.ANSWERS, root=layout.ROOT,
            guard=layout.GUARD, command=json.dumps(settings["argv"])), encoding="utf-8")
    return boards, digest


def main(argv=None):
    parser = Parser(prog="python3 -m organizer image", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (competition.yaml, reference_data/, ...)")
    parser.add_argument("out", help="the build context to write (a new or empty folder)")
    parser.add_argument("--tag", required=True, help="the image's name in your private registry, such as "
                        "registry.example.org/team/competition:1")
    parser.add_argument("--base", help="the image to build on (default: competition.yaml's competition_docker_image)")
    parser.add_argument("--queue", default="QUEUE_VHOST", help="your Codabench queue's vhost, for the next steps")
    args = parser.parse_args(argv)
    boards, digest = build_context(args.competition, args.out, args.tag, args.base)
    registry = args.tag.split("/", 1)[0] if "/" in args.tag and ("." in args.tag.split("/", 1)[0]
                                                                  or ":" in args.tag.split("/", 1)[0]) else "docker.io"
    print(NEXT.format(out=args.out, tag=args.tag, digest=digest[:12], boards=", ".join(boards), registry=registry,
                      competition=args.competition, queue=args.queue))
    return 0


if __name__ == "__main__":
    sys.exit(main())
