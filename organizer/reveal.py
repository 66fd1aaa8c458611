"""Reveal a sealed board: the final ranking decided and written down, then shown on the platform and kept there.

    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --codabench URL --competition ID
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --evalai URL --challenge ID
    python3 -m organizer reveal COMPETITION_DIR BOARD OUT.zip --codabench URL --competition ID --check

While a board's phase runs with ``report: sealed``, its reference data holds no
answer and every submission gets the placeholder -1. After the phase ends,
OUT.zip is that phase's reference data with the board's answers and
``report: full``, and OUT_closed.zip (beside it) the reference data that
replaces it once the ranking is fixed: ``report: closed``, under which every
run (a late submission, a re-run by anyone) fails with one line and no score.

With a platform, the command

1. lists the phase's submissions and, by the competition's rule, each team's
   entry among those made before the phase's end (organizer/final_record.py);
2. scores each entry's file here with OUT.zip and writes the record,
   ``final_ranking.json`` and ``final_ranking.csv`` (beside OUT.zip, or in
   ``--record DIR``): the authority on the final ranking;
3. makes the platform's leaderboard show the record and closes the phase
   (organizer/reveal_codabench.py, organizer/reveal_evalai.py say how, and
   what each platform cannot do);
4. reads the leaderboard back and lists every difference from the record.

The organizer's API token is read from the environment variable
``ORGANIZER_TOKEN`` or from the first line of ``--token-file PATH``; ``--token``
still works, with a warning: every user of the machine sees a command line. A
token that holds whitespace, a line break or a non-printable character is
refused, and the token is never printed or written (organizer/redact.py). The
client trusts no answer of the platform (organizer/http_api.py): the token goes
to the origin of URL only, every call has a deadline (``--timeout``, and
``--download-timeout`` for files), a download is capped at the board's largest
submission (its ``max_submission_mb``).

With ``--answers-in-image`` (a competition bundled with ``--answers-image``: its
answers are in the private scoring image), OUT.zip holds no answer either: the
config says ``report: full`` and names the board's folder in the image, which
already holds the answers; the scores here are made with the answers themselves.

``--check`` does step 4 alone, at any later time: every difference on one line,
exit 1 on any. CodaLab v1 has no API the organizer's token reaches: the steps
are printed, and ``--codalab-v1 RESULTS.zip`` (the phase's "Download all
submissions on leaderboard") writes the same record from its files.

Exit codes: 0 done (or, with --check, the leaderboard equals the record); 1 the
leaderboard differs from the record; 2 the competition, an argument, the record
or a platform's answer says no (one line), whatever a server sends.
"""
import dataclasses
import datetime as dt
import hashlib
import os
import sys
import tempfile
from pathlib import Path
from typing import List

import yaml

from . import PROGRAM, final_record
from .answers_image import answers_folder
from .bundle import zip_bytes
from .final_record import Phase, Record, RecordError, Scored
from . import http_api
from .http_api import RevealError, check_base, check_token, printable
from .inputs import Parser
from .redact import redact
from .layout import load_board_config
from .phase_data import PhaseDataError, closed_phase_entries, phase_config, phase_entries, write_entries
from .rescore import score_here
from scorer.public import families, provenance

DIFFERS = 1
TOKEN_VARIABLE = "ORGANIZER_TOKEN"
TOKEN_FILE_BYTES = 64 * 1024
ZIP_SLACK = 2 ** 20   # a zip's headers on top of the files it holds
LONGEST_TIMEOUT = 7 * 24 * 3600
STEPS = """Next, after the phase has ended (the API token in ORGANIZER_TOKEN, or --token-file PATH):
  Codabench:   python3 -m organizer reveal {competition} {board} {out} --codabench URL --competition ID
  EvalAI:      python3 -m organizer reveal {competition} {board} {out} --evalai URL --challenge ID
  CodaLab v1:  replace the phase's reference data with {out}, re-run each submission on the phase's leaderboard
               (the organizer's submissions page, "Re-run submission") while the phase is still blind, switch its
               leaderboard to the default mode, then replace the reference data with {closed}; download the
               leaderboard's submissions ("Download all submissions on leaderboard") and write the record:
               python3 -m organizer reveal {competition} {board} {out} --codalab-v1 RESULTS.zip --end END
               (docs/organizers.md, "Reveal a sealed board")."""


class Platform:
    """What a platform's module gives the reveal (reveal_codabench.Site, reveal_evalai.Site, reveal_v1.Site)."""

    name = ""
    site = ""                   # origin, for the record
    competition = ""            # its id there
    places = 10                 # the decimals its leaderboard stores (None: exact)

    def phase(self) -> Phase:
        raise NotImplementedError

    def submissions(self, phase: Phase) -> List[final_record.Submission]:
        """Every submission of the phase (the platform's queue waited for, or a refusal saying why)."""
        raise NotImplementedError

    def fetch(self, phase: Phase, submission: final_record.Submission, folder: Path, largest: int) -> Path:
        """The submitted file, downloaded into ``folder`` (at most ``largest`` bytes: the board's size cap)."""
        raise NotImplementedError

    def show(self, phase: Phase, record: Record, reveal_zip: Path, closed_zip: Path) -> None:
        """Make the leaderboard show the record (setting ``Entry.shown_as`` where the platform re-runs a
        submission), then close the phase; say on the log what the platform cannot do."""
        raise NotImplementedError

    def leaderboard(self, phase: Phase) -> List[final_record.Row]:
        raise NotImplementedError

    def differences(self, phase: Phase, record: Record) -> List[str]:
        """What else of the board differs from the record (its order, a setting), one line each; optional."""
        return []


def main(argv=None):
    parser = Parser(prog="python3 -m organizer reveal", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition", help="competition folder (holds reference_data/)")
    parser.add_argument("board", help="the sealed board, e.g. B")
    parser.add_argument("out", help="the reference zip to write, e.g. out/reference_data_B_reveal.zip")
    platform = parser.add_mutually_exclusive_group()
    platform.add_argument("--codabench", metavar="URL", help="reveal on this Codabench (its address)")
    platform.add_argument("--evalai", metavar="URL", help="reveal on this EvalAI (its API's address)")
    platform.add_argument("--codalab-v1", metavar="RESULTS.zip", dest="codalab_v1",
                          help="CodaLab v1: the phase's leaderboard download, to write the record from")
    parser.add_argument("--token-file", metavar="PATH", help="a file whose first line is the organizer's API token "
                        "on that platform (else the environment variable %s)" % TOKEN_VARIABLE)
    parser.add_argument("--token", help="the token itself: every user of this machine can read it in the process "
                        "list; prefer %s or --token-file" % TOKEN_VARIABLE)
    parser.add_argument("--competition-id", "--competition", dest="competition_id", type=int,
                        help="Codabench: the competition's id (in its address)")
    parser.add_argument("--challenge", type=int, help="EvalAI: the challenge's id")
    parser.add_argument("--end", help="CodaLab v1: the phase's end, ISO 8601 with its offset")
    parser.add_argument("--record", metavar="DIR", help="where the record is written and read (default: the folder "
                        "of OUT.zip)")
    parser.add_argument("--new-record", action="store_true", help="make the final ranking again from the "
                        "platform's submissions now, instead of keeping the one written before (which a later run "
                        "otherwise keeps)")
    parser.add_argument("--check", action="store_true", help="only compare the live leaderboard with the record: "
                        "every difference on one line, exit 1 on any")
    parser.add_argument("--batch", type=int, default=10, help="submissions re-run at a time (default 10)")
    parser.add_argument("--wait", type=int, default=3600, help="seconds to wait for the re-runs (Codabench) or for "
                        "the submissions still being evaluated (EvalAI) (default 3600)")
    parser.add_argument("--timeout", type=float, default=http_api.LIMITS.deadline, metavar="SECONDS",
                        help="the longest an API call may take (default %(default)g)")
    parser.add_argument("--download-timeout", type=float, default=http_api.LIMITS.transfer_deadline,
                        metavar="SECONDS", help="the longest a file's download or upload may take (default %(default)g)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
    parser.add_argument("--answers-in-image", action="store_true", help="the answers are in the competition's private "
                        "scoring image (bundle --answers-image): OUT.zip holds none, its config names their folder")
    parser.add_argument("--early", action="store_true", help="reveal although the phase has not ended (its answers "
                        "then reach anyone while participants can still submit)")
    args = parser.parse_args(argv)
    try:
        return _reveal(args)
    except (PhaseDataError, RevealError, RecordError) as exc:
        say("reveal: %s" % exc, sys.stderr)
        return 2


def say(line, stream=None):
    """Print a line that may quote a platform's answer: one line, control characters escaped, no token."""
    print(printable(redact(str(line))), file=stream or sys.stdout)


def _reveal(args):
    config = load_board_config(Path(args.competition) / "reference_data", args.board)
    if (config or {}).get("report", "full") != "sealed":
        raise RevealError("board %s is not sealed (its config has no report: sealed); its phase already shows the "
                          "scores" % args.board)
    site = _site(args)   # every argument checked before anything is written
    record_dir = Path(args.record) if args.record else Path(args.out).parent
    if args.check:
        if site is None:
            raise RevealError("--check needs the platform: --codabench URL --competition ID, --evalai URL "
                              "--challenge ID, or --codalab-v1 RESULTS.zip --end END")
        return check(site, record_dir)
    entries = phase_entries(args.competition, args.board, reveal=True)   # what the scores here are made with
    uploaded = entries
    if args.answers_in_image:
        uploaded = phase_entries(args.competition, args.board, reveal=True, answers_dir=answers_folder(args.board))
    reveal_bytes = zip_bytes(entries)
    out = write_out(args.out, zip_bytes(uploaded))
    say("wrote %s: board %s's reference data with %s and report: full." % (
        out, args.board, "no answer (they are in %s of the scoring image)" % answers_folder(args.board)
        if args.answers_in_image else "its answers"))
    if site is None:
        say(STEPS.format(competition=args.competition, board=args.board, out=out, closed=closed_path(out)))
        return 0
    phase = site.phase()
    with tempfile.TemporaryDirectory(prefix="reveal-") as tmp:
        ref_dir = write_entries(entries, Path(tmp) / "ref")
        record = make_record(site, phase, args.competition, args.board, reveal_bytes, ref_dir, Path(tmp),
                             download_cap(entries))
    if (record_dir / final_record.JSON_NAME).exists() and not args.new_record:
        record, changed = final_record.keep(final_record.read(record_dir), record)
        say("the final ranking in %s was written before: it is kept (only teams left out as pending are decided "
            "again)" % (record_dir / final_record.JSON_NAME))
        for line in changed:
            say("changed since the record: %s" % line)
    if args.dry_run:
        say_record(record)
        say("dry run: nothing written, nothing changed on the platform")
        return 0
    closed = write_out(closed_path(out), zip_bytes(closed_phase_entries(args.competition, args.board, phase.end)))
    paths = final_record.write(record, record_dir)
    say_record(record)
    say("wrote %s: the final ranking (and %s), the authority on it" % (paths[0], paths[1].name))
    site.show(phase, record, out, closed)
    final_record.write(record, record_dir)   # with the ids the leaderboard shows for re-run entries
    return check(site, record_dir, phase)


def make_record(site, phase, competition, board, reveal_bytes, ref_dir, work, largest) -> Record:
    """Steps 1 and 2: each team's entry by the rule, scored here with the revealed reference data."""
    plan = final_record.plan(site.submissions(phase), phase.rule, phase.end, phase.public_only)
    scored = {}
    for team, picks in sorted(plan.picks.items()):
        for s in picks:
            folder = work / "files" / _safe_id(s.id)
            path = site.fetch(phase, s, folder, largest)
            scored[s.id] = score_file(path, ref_dir, work / "runs" / _safe_id(s.id))
    raw, cfg = phase_config(Path(competition) / "reference_data", board, reveal=True)
    family = families()[cfg.task]
    keys = [cfg.primary_key] + [k for k in family.leaderboard_keys(cfg.options) if k != cfg.primary_key]
    sort = "asc" if cfg.primary_key in family.lower_is_better else "desc"
    entries, left = final_record.decide(plan, scored, cfg.primary_key, sort)
    return Record(title=str(raw.get("title") or family.title), board=board, platform=site.name, site=site.site,
                  competition=str(site.competition), phase=str(phase.id), phase_name=phase.name,
                  phase_end=final_record.iso(phase.end), platform_rule=phase.platform_rule, rule=phase.rule,
                  primary_key=cfg.primary_key, sort=sort, keys=keys,
                  reference_sha256=hashlib.sha256(reveal_bytes).hexdigest(),
                  program_sha256=provenance.program_digest(str(PROGRAM)), entries=entries, left_out=left)


def score_file(path, ref_dir, run_dir) -> Scored:
    """A submitted file scored here as the platform's run of the revealed reference data scores it."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    work = Path(run_dir).parent / "scoring"   # where the reference is opened once for every file
    work.mkdir(parents=True, exist_ok=True)
    record = score_here(path, ref_dir, work, run_dir)
    return Scored(digest.hexdigest(), record["scores"] if record["exit_code"] == 0 else {}, record["error"])


def check(site, record_dir, phase=None):
    """Step 4: the live leaderboard against the record; 0 when they agree, 1 and one line a difference."""
    record = final_record.read(record_dir)
    phase = phase or site.phase()
    if str(phase.id) != record.phase or site.name != record.platform:
        raise RecordError("the record is of %s phase %s, not of %s phase %s" % (record.platform, record.phase,
                                                                               site.name, phase.id))
    lines = final_record.compare(record, site.leaderboard(phase), site.places)
    lines += site.differences(phase, record) if hasattr(site, "differences") else []
    for line in lines:
        say("differs: %s" % line)
    if lines:
        say("the leaderboard differs from the final ranking (%s) in %d place(s)" % (
            Path(record_dir) / final_record.JSON_NAME, len(lines)))
        return DIFFERS
    say("the leaderboard equals the final ranking: %d entr%s of %d team(s), %d team(s) left out" % (
        len(record.entries), "y" if len(record.entries) == 1 else "ies", len({e.team for e in record.entries}),
        len(record.left_out)))
    return 0


def say_record(record):
    say("final ranking of board %s (%s phase %s, ended %s), rule: %s" % (
        record.board, record.platform, record.phase, record.phase_end, record.rule_says))
    for e in record.entries:
        say("  #%d %s: submission %s, %s %r" % (e.rank, e.team, e.submission, record.primary_key,
                                                 e.scores[record.primary_key]) + (" (%s)" % e.note if e.note else ""))
    for l in record.left_out:
        say("  left out %s: %s" % (l.team, l.says))


def closed_path(out):
    out = Path(out)
    return out.with_name(out.stem + "_closed" + out.suffix)


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
        say("reveal: warning: --token puts the token on the command line, where every user of this machine can "
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


def _safe_id(text):
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in str(text))[:64] or "submission"


def _site(args):
    """The platform the arguments name (its module's Site, every argument checked), or None."""
    if args.codalab_v1:
        from .reveal_v1 import Site as V1
        if not args.end:
            raise RevealError("--end is needed with --codalab-v1: the phase's end, e.g. 2027-03-01T00:00:00+00:00")
        return V1(args.codalab_v1, args.end)
    server = args.codabench if args.codabench is not None else args.evalai
    if server is None:
        return None
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
    limits = dataclasses.replace(http_api.LIMITS, deadline=args.timeout, transfer_deadline=args.download_timeout)
    if args.codabench is not None:
        from .reveal_codabench import Site as Codabench
        return Codabench(server, token, args.competition_id, args.competition, args.board, batch=args.batch,
                         wait=args.wait, dry_run=args.dry_run, early=args.early, log=say, limits=limits,
                         source=source, record_dir=Path(args.record) if args.record else Path(args.out).parent)
    from .reveal_evalai import Site as EvalAI
    return EvalAI(server, token, args.challenge, args.competition, args.board, dry_run=args.dry_run,
                  early=args.early, log=say, limits=limits, source=source, wait=args.wait, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
