"""Reveal a sealed board: its phase's reference data with the answers, and the real scores on the leaderboard.

    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip
    ORGANIZER_TOKEN=... python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --codabench URL --competition ID
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --evalai URL --token-file PATH --challenge ID

While a board's phase runs with ``report: sealed``, its reference data holds no
answer and every submission gets the placeholder -1. After the phase ends,
OUT.zip is that phase's reference data with the board's answers and
``report: full``. Then:

- Codabench: ``--codabench`` does the whole reveal through Codabench's API with
  the organizer's token (organizer/reveal_codabench.py): the new reference
  data, a re-run of each team's leaderboard submission, each re-run checked
  against the same scoring here and put on the leaderboard;
- EvalAI: ``--evalai`` scores each submission of the phase here and stores the
  scores through EvalAI's host API, then makes the phase's split public
  (organizer/reveal_evalai.py);
- CodaLab v1: the steps are the organizer's, on the site's pages
  (docs/organizers.md, "Reveal a sealed board"): replace the phase's reference
  data with OUT.zip, re-run each submission on the phase's leaderboard while
  the phase is still blind, then switch the phase to the default mode.

The organizer's API token is read from the environment variable
``ORGANIZER_TOKEN`` or from the first line of ``--token-file PATH``; ``--token``
still works, with a warning: every user of the machine sees a command line. A
token that holds whitespace, a line break or a non-printable character is
refused, and the token is never printed or written (organizer/redact.py). The
client trusts no answer of the platform (organizer/http_api.py): the token goes
to the origin of URL only, every call has a deadline (``--timeout``, and
``--download-timeout`` for files), a download is capped at the board's largest
submission (its ``max_submission_mb``).

``python3 -m organizer rescore COMPETITION_DIR BOARD DOWNLOADS OUT`` ranks the
downloaded submissions offline with the same scores, on any platform.
Exit codes: 0 done, 2 the competition, an argument or a platform's answer says no (one line), whatever a server
sends.
"""
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

import yaml

from .layout import load_board_config
from .phase_data import PhaseDataError, phase_entries, write_entries
from .bundle import zip_bytes
from . import http_api
from .http_api import RevealError, check_base, check_token, printable
from .inputs import Parser
from .redact import redact

TOKEN_VARIABLE = "ORGANIZER_TOKEN"
TOKEN_FILE_BYTES = 64 * 1024
ZIP_SLACK = 2 ** 20   # a zip's headers on top of the files it holds
LONGEST_TIMEOUT = 7 * 24 * 3600
STEPS = """Next, after the phase has ended (the API token in ORGANIZER_TOKEN, or --token-file PATH):
  Codabench:   python3 -m organizer reveal {competition} {board} {out} --codabench URL --competition ID
  EvalAI:      python3 -m organizer reveal {competition} {board} {out} --evalai URL --challenge ID
  CodaLab v1:  replace the phase's reference data with {out}, re-run each submission on the phase's leaderboard
               (the organizer's submissions page, "Re-run submission") while the phase is still blind, then switch
               its leaderboard to the default mode (docs/organizers.md, "Reveal a sealed board")."""


def main(argv=None):
    parser = Parser(prog="python3 -m organizer reveal", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (holds reference_data/)")
    parser.add_argument("board", help="the sealed board, e.g. B")
    parser.add_argument("out", help="the reference zip to write, e.g. out/reference_data_B_reveal.zip")
    platform = parser.add_mutually_exclusive_group()
    platform.add_argument("--codabench", metavar="URL", help="reveal on this Codabench (its address)")
    platform.add_argument("--evalai", metavar="URL", help="reveal on this EvalAI (its API's address)")
    parser.add_argument("--token-file", metavar="PATH", help="a file whose first line is the organizer's API token "
                        "on that platform (else the environment variable %s)" % TOKEN_VARIABLE)
    parser.add_argument("--token", help="the token itself: every user of this machine can read it in the process "
                        "list; prefer %s or --token-file" % TOKEN_VARIABLE)
    parser.add_argument("--competition-id", "--competition", dest="competition_id", type=int,
                        help="Codabench: the competition's id (in its address)")
    parser.add_argument("--challenge", type=int, help="EvalAI: the challenge's id")
    parser.add_argument("--batch", type=int, default=10, help="submissions re-run at a time (default 10)")
    parser.add_argument("--wait", type=int, default=3600, help="seconds to wait for the re-runs (default 3600)")
    parser.add_argument("--timeout", type=float, default=http_api.LIMITS.deadline, metavar="SECONDS",
                        help="the longest an API call may take (default %(default)g)")
    parser.add_argument("--download-timeout", type=float, default=http_api.LIMITS.transfer_deadline,
                        metavar="SECONDS", help="the longest a file's download or upload may take (default %(default)g)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
    parser.add_argument("--early", action="store_true", help="reveal although the phase has not ended (its answers "
                        "then reach anyone while participants can still submit)")
    args = parser.parse_args(argv)
    try:
        return _reveal(args)
    except (PhaseDataError, RevealError) as exc:
        _say("reveal: %s" % exc, sys.stderr)
        return 2


def _say(line, stream=None):
    """Print a line that may quote a platform's answer: one line, control characters escaped, no token."""
    print(printable(redact(str(line))), file=stream or sys.stdout)


def _reveal(args):
    from .reveal_codabench import reveal as reveal_codabench
    from .reveal_evalai import reveal as reveal_evalai

    config = load_board_config(Path(args.competition) / "reference_data", args.board)
    if (config or {}).get("report", "full") != "sealed":
        raise RevealError("board %s is not sealed (its config has no report: sealed); its phase already shows the "
                           "scores" % args.board)
    server = args.codabench if args.codabench is not None else args.evalai
    if server is not None:   # refused before anything is written
        check_base(server)
        token, source = read_token(args)
        if args.codabench and args.competition_id is None:
            raise RevealError("--competition is needed: the Codabench competition's id")
        if args.evalai and args.challenge is None:
            raise RevealError("--challenge is needed: the EvalAI challenge's id")
        for option, seconds in (("--timeout", args.timeout), ("--download-timeout", args.download_timeout)):
            if not 0 < seconds <= LONGEST_TIMEOUT:
                raise RevealError("%s %g is not a number of seconds above 0 and at most %d (a week)"
                                  % (option, seconds, LONGEST_TIMEOUT))
    entries = phase_entries(args.competition, args.board, reveal=True)
    out = write_out(args.out, zip_bytes(entries))
    _say("wrote %s: board %s's reference data with its answers and report: full." % (out, args.board))
    if server is None:
        print(STEPS.format(competition=args.competition, board=args.board, out=out))
        return 0
    limits = dataclasses.replace(http_api.LIMITS, deadline=args.timeout, transfer_deadline=args.download_timeout)
    cap = download_cap(entries)
    with tempfile.TemporaryDirectory(prefix="reveal-ref-") as tmp:
        ref_dir = write_entries(entries, tmp)
        if args.codabench is not None:
            reveal_codabench(args.competition, args.board, out, ref_dir, args.codabench, token,
                             args.competition_id, batch=args.batch, wait=args.wait, dry_run=args.dry_run,
                             early=args.early, log=_say, limits=limits, largest=cap, source=source)
        else:
            reveal_evalai(args.competition, args.board, ref_dir, args.evalai, token, args.challenge,
                          dry_run=args.dry_run, early=args.early, log=_say, limits=limits, largest=cap,
                          source=source)
    return 0


def read_token(args):
    """(the organizer's API token, where it came from): --token-file's first line, --token (with a warning: the
    process list shows it), or the environment variable ORGANIZER_TOKEN; checked, never shown."""
    if args.token_file is not None and args.token is not None:
        raise RevealError("give the API token once: --token-file or --token, not both")
    if args.token_file is not None:
        source = "--token-file %s" % args.token_file
        token = _first_line(args.token_file, source)
    elif args.token is not None:
        source, token = "--token", args.token
    elif os.environ.get(TOKEN_VARIABLE) is not None:
        source, token = TOKEN_VARIABLE, os.environ[TOKEN_VARIABLE]
    else:
        raise RevealError("the organizer's API token on the platform is needed: set the environment variable %s "
                          "or give --token-file PATH (a file whose first line is the token)" % TOKEN_VARIABLE)
    check_token(token, source)
    if source == "--token":
        _say("reveal: warning: --token puts the token on the command line, where every user of this machine can "
             "read it (the process list); prefer %s or --token-file PATH" % TOKEN_VARIABLE, sys.stderr)
    return token, source


def _first_line(path, source):
    if not os.path.isfile(path):
        raise RevealError("%s: %s" % (source, "no such file" if not os.path.exists(path) else
                                      "not a regular file; give the file that holds the token"))
    try:
        with open(path, "rb") as fh:
            data = fh.read(TOKEN_FILE_BYTES)
    except OSError as exc:
        raise RevealError("%s cannot be read (%s)" % (source, exc.strerror or type(exc).__name__))
    try:
        text = str(data, "utf-8-sig")
    except UnicodeDecodeError:
        raise RevealError("%s is not UTF-8 text; its first line must be the token" % source)
    return (text.splitlines() or [""])[0].strip()


def write_out(path, data):
    """Write OUT.zip (its folder made if needed); RevealError in one line when it cannot be written there."""
    out = Path(path)
    if out.is_dir():
        raise RevealError("OUT %s is a folder; give the path of the zip to write, e.g. %s" % (out, out / "reveal.zip"))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise RevealError("OUT %s cannot be written (%s); give a path in a folder you can write"
                          % (out, exc.strerror or type(exc).__name__))
    return out


def download_cap(entries):
    """The most bytes a submission's file may hold: the board's max_submission_mb (what score.py accepts), plus a
    zip's headers."""
    config = yaml.safe_load(entries["config.yaml"])
    return int(float(config["max_submission_mb"]) * 2 ** 20) + ZIP_SLACK


if __name__ == "__main__":
    sys.exit(main())
