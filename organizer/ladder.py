"""A Ladder public board kept by the organizer: the state lives here, not in the platform's history.

    python3 -m organizer ladder COMPETITION_DIR SUBMISSIONS_DIR OUT_DIR [--board A] [--step 0.01 | --parameter-free]

The platforms give a scoring run no usable history of a team's earlier
submissions (scorer/publish/ladder.py says why), so the Ladder's state cannot travel
through them. This tool keeps it: SUBMISSIONS_DIR holds one folder per team,
and in it the team's submissions (files, zips or folders) in the order their
names sort (001.zip, 002.zip, ...), as downloaded from the platform. Each
submission is scored on the board (board A by default) by the engine, and the
Ladder (scorer/publish/ladder.py: fixed step, or parameter-free) decides what the
public board shows. OUT_DIR/ladder_state.json keeps every team's state and
the submissions already counted, so the next run only scores new ones (a team
whose earlier files changed is replayed from its first).

Writes OUT_DIR/ladder.csv and OUT_DIR/ladder.html: the public board to publish
(the released scores, not the exact ones). Use it with a board-A phase that
shows no exact score (for example ``report: sealed`` on board A, or
``feedback: {round_to: 1, class_counts: false}``), otherwise the platform's
own leaderboard gives the exact scores away.
"""
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from . import progress
from .layout import load_board_config, place_submission
from .phase_data import assemble_reference
from .rescore import SKIP, tree_hash, write_csv
from scorer.public import Competition, Feedback, History, ScoringError, ladder, publish, report, round_all
from .inputs import OrganizerError, Parser, cannot_read, existing_folder, read_bytes, refused, write_file

STATE = "ladder_state.json"


def team_submissions(folder):
    """{team: [submission paths in name order]} of SUBMISSIONS_DIR (a link to a folder is no team's: not followed)."""
    teams = {}
    for team in sorted(existing_folder(folder, "the submissions folder").iterdir()):
        if team.is_dir() and not team.is_symlink() and team.name not in SKIP and not team.name.startswith("."):
            try:
                teams[team.name] = [p for p in sorted(team.iterdir()) if p.name not in SKIP
                                    and not p.name.startswith(".")]
            except OSError:   # a folder that cannot be listed: its one entry, refused with the reason
                teams[team.name] = [team]
    return teams


def submission_digest(path):
    """(the digest of a team's submission, '') or, for one that is not scored, (its reason as a digest, the reason):
    a link (never followed out of the team's folder), a special file (never opened), or one that cannot be read.
    Once such an entry is a regular, readable file, its digest changes and the team is replayed from its first."""
    why = refused(path, "put the submission itself in the team's folder")
    if not why:
        try:
            return tree_hash(path).hexdigest(), ""
        except OSError as exc:
            why = cannot_read(path, exc)
    return "refused: " + why, why


def saved_state(path):
    """The previous run's state (``{}`` without one); OrganizerError when the file is not such a state."""
    if not path.exists():
        return {}
    try:
        saved = json.loads(read_bytes(path, "the Ladder's state").decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise OrganizerError("the Ladder's state %s is damaged (%s); delete it to replay every team's submissions "
                             "from the first" % (path, " ".join(str(exc).split())[:120]))
    if not isinstance(saved, dict) or not all(isinstance(v, dict) for v in saved.values()):
        raise OrganizerError("the Ladder's state %s is not a mapping of teams; delete it to replay every team's "
                             "submissions from the first" % path)
    return saved


def settings_of(config, step=None, parameter_free=False):
    """The Ladder's settings: the command line's, else the board config's feedback, else a fixed step of 0.01."""
    given = (config or {}).get("feedback") or {}
    if parameter_free:
        return Feedback(ladder="parameter_free", round_to=given.get("round_to"))
    if step is not None:
        return Feedback(ladder="fixed", ladder_step=step, round_to=given.get("round_to"))
    if given.get("ladder") in ("fixed", "parameter_free"):
        return Feedback(ladder=given["ladder"], ladder_step=float(given.get("ladder_step", 0.01)),
                        round_to=given.get("round_to"))
    return Feedback(ladder="fixed", ladder_step=0.01, round_to=given.get("round_to"))


def update(comp, board, teams, saved, settings, units_dir):
    """The state of every team after its submissions; ``saved`` is the previous run's (kept where unchanged).

    Each submission is published on ``comp``'s board as score.py publishes it (scorer/publish/policy.py), with
    these Ladder ``settings`` and the team's state kept here.
    """
    primary = comp.cfg.primary_key
    key = json.dumps([board, settings.ladder, settings.ladder_step, primary])
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for done_teams, (team, paths) in enumerate(teams.items()):
            progress.count("teams", done_teams, len(teams))
            digests, refusals = zip(*map(submission_digest, paths)) if paths else ((), ())
            before = saved.get(team) or {}
            done = before.get("done", [])
            if before.get("key") != key or list(digests[:len(done)]) != done:
                before, done = {}, []   # changed files or settings: replay the team from its first submission
            try:
                state = ladder.State.from_json(json.dumps(before["state"])) if before.get("state") else None
            except ValueError as exc:
                raise OrganizerError("the Ladder's state of team %s is damaged (%s); delete the state file to replay "
                                     "every team from its first submission" % (team, exc))
            errors = dict(before.get("errors", {}))
            best_name = before.get("best_name", "")
            units_path = Path(units_dir) / ("%s.npy" % hashlib.sha256(team.encode("utf-8")).hexdigest()[:16])
            best_units = np.load(units_path) if state is not None and units_path.exists() else None
            for number, (path, digest, why) in enumerate(zip(paths, digests, refusals), start=1):
                if number <= len(done):
                    continue
                done.append(digest)
                if why:   # a link or a special file, never followed nor opened; an unreadable file
                    errors[path.name] = why
                    continue
                try:
                    submission = comp.read_submission(str(place_submission(path, Path(tmp) / "res")))
                except ScoringError as exc:
                    errors[path.name] = exc.message
                    continue
                except OrganizerError as exc:   # a link or a special file: refused, never opened
                    errors[path.name] = str(exc)
                    continue
                published = publish(comp, submission, History(state, best_units, number, key), settings,
                                    interval=False)
                for note in published.ladder_history_notes:   # e.g. best counts saved by another program
                    print("note: team %s, %s: %s" % (team, path.name, note), file=sys.stderr)
                state = published.ladder_state
                if state.improved:
                    best_name = path.name
                    if published.table is not None:   # the parameter-free Ladder's margin needs the best's counts
                        np.save(units_path, published.table, allow_pickle=False)
                        best_units = published.table
            out[team] = {"key": key, "done": done, "errors": errors, "best_name": best_name,
                         "state": dict(state.__dict__) if state else {}}
    return out


def board_rows(records, primary, sort, keys, settings):
    """[rank, team, released primary, other released keys, best submission, submissions counted], best first."""
    scored = [(t, r) for t, r in records.items() if r["state"].get("released")]
    sign = 1.0 if sort == "asc" else -1.0
    scored.sort(key=lambda tr: (sign * tr[1]["state"]["released"][primary], tr[0]))
    rows, rank, previous = [], 0, None
    for position, (team, record) in enumerate(scored, start=1):
        released = round_all(record["state"]["released"], settings.round_to)
        if released[primary] != previous:
            rank, previous = position, released[primary]
        rows.append([rank, team] + [float(released.get(k, 0.0)) for k in keys] + [record["best_name"],
                                                                                    len(record["done"])])
    return rows


def main(argv=None):
    parser = Parser(prog="python3 -m organizer ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("submissions", help="one folder per team holding its submissions, in name order")
    parser.add_argument("out", help="output folder (keeps the state between runs)")
    parser.add_argument("--board", default="A")
    parser.add_argument("--step", type=float, default=None, help="the fixed Ladder's step (default: the config's, "
                                                                 "else 0.01)")
    parser.add_argument("--parameter-free", action="store_true", help="the parameter-free Ladder")
    progress.add_argument(parser)
    args = parser.parse_args(argv)
    progress.start("organizer ladder", args.progress)
    if args.step is not None and not 0 < args.step <= 0.5:
        parser.error("--step must be in (0, 0.5]")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise OrganizerError("the output folder %s is a file; give a folder's path" % out)
    reference = Path(args.competition) / "reference_data"
    settings = settings_of(load_board_config(reference, args.board), args.step, args.parameter_free)
    teams = team_submissions(args.submissions)
    path = out / STATE
    saved = saved_state(path)
    (out / "units").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        comp = Competition.open(str(assemble_reference(reference, args.board, Path(tmp) / "ref", reveal=True)))
        records = update(comp, args.board, teams, saved, settings, out / "units")
    write_file(path, json.dumps(records, indent=1, sort_keys=True).encode("utf-8"), "the Ladder's state")
    keys = list(comp.family.leaderboard_keys(comp.cfg.options))
    primary = comp.cfg.primary_key
    keys = [primary] + [k for k in keys if k != primary]
    sort = "asc" if primary in comp.family.lower_is_better else "desc"
    rows = board_rows(records, primary, sort, keys, settings)
    header = ["rank", "team"] + keys + ["best submission", "submissions"]
    write_csv(out / "ladder.csv", header, rows)
    how = ("a new score is shown when it beats the team's shown score by more than %g, rounded to %g"
           % (settings.ladder_step, settings.ladder_step) if settings.ladder == "fixed" else
           "a new score is shown when it beats the team's shown score by more than one standard error of the "
           "paired difference over the board's units")
    labels = comp.cfg.columns
    title = report.words(comp.cfg.title or comp.family.title)  # a family's title is a Message
    page = report.render("%s: public board %s (the Ladder)" % (title, args.board), [
        report.Section("Public board", [
            report.Table(["rank", "team", labels.get(primary, primary), "best submission", "submissions"],
                         [[r[0], r[1], r[2], r[-2], r[-1]] for r in rows]),
            report.Text("The Ladder: %s; otherwise the team's best shown scores stay." % how, "note")]),
        report.Section("Every released score", [report.Table(
            ["rank", "team"] + [labels.get(k, k) for k in keys], [r[:-2] for r in rows])]),
    ], lang=comp.cfg.language)
    (out / "ladder.html").write_text(page, encoding="utf-8")
    errors = sum(len(r["errors"]) for r in records.values())
    print("wrote %s and %s (%d teams, %d submissions counted, %d refused)" % (
        out / "ladder.csv", out / "ladder.html", len(rows), sum(len(r["done"]) for r in records.values()), errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
