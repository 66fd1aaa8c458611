"""Where a competition's private scoring image keeps the answers, and what a bundle names to use it.

On Codabench every phase's reference data is public (docs/organizers.md, section 3), so a phase that
scores live holds its board's answers for anyone to download. An organizer who runs their own compute
worker (a Codabench queue) can keep every board's answers in a container image that only that worker
can pull: ``python3 -m organizer image`` writes its build context, ``python3 -m organizer bundle
--answers-image TAG --queue VHOST`` the bundle whose phases name the folders below instead of holding
the answers. The paths are fixed, so that the image, the bundle and the linter agree::

    /opt/competition/answers/<BOARD>/   each board's answer files, its units only (phase_data.answer_entries)
    /opt/competition/program/           the scoring program the image runs
    /opt/competition/guard.py           the image's entry point (organizer/guard.py)
    /opt/competition/guard.json         what the guard runs, and for which program digest
"""
import re
import uuid
from dataclasses import dataclass

ROOT = "/opt/competition"
ANSWERS = ROOT + "/answers"
PROGRAM = ROOT + "/program"
GUARD = ROOT + "/guard.py"
SETTINGS = ROOT + "/guard.json"
# a reference to an image: [registry[:port]/]name[/name...][:tag][@digest], lowercase names
IMAGE_REFERENCE = re.compile(r"^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*"
                             r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$")


def answers_folder(board):
    """The image folder of ``board``'s answers.

    >>> answers_folder("A")
    '/opt/competition/answers/A'
    """
    return "%s/%s" % (ANSWERS, board)


def board_of_folder(folder):
    """The board whose answers ``folder`` is, or None when it is not a folder the image command makes."""
    head, _, board = str(folder).rpartition("/")
    return board if head == ANSWERS and board else None


def image_problem(tag):
    """Why ``tag`` is not an image reference a worker can pull, or None."""
    if not isinstance(tag, str) or not IMAGE_REFERENCE.match(tag) or len(tag) > 128:
        return ("%r is not an image reference such as registry.example.org/team/competition:1 (Codabench keeps at "
                "most 128 characters: Competition.docker_image)" % (tag,))
    return None


def queue_problem(queue):
    """Why ``queue`` is not a Codabench queue's vhost, or None (the bundle names a queue by it:
    codabench src/apps/competitions/unpackers/base_unpacker.py ``_unpack_queue``, ``Queue.vhost`` a UUID)."""
    try:
        uuid.UUID(str(queue))
    except ValueError:
        return ("%r is not a queue's vhost (a UUID, shown on the queue's page of Codabench: the bundle names a "
                "queue by it, not by its name)" % (queue,))
    return None


@dataclass(frozen=True)
class AnswersImage:
    """A bundle's private scoring image: its reference (``competition_docker_image``/``docker_image``) and the
    Codabench queue whose worker can pull it (``queue``: the queue's vhost)."""

    tag: str
    queue: str
