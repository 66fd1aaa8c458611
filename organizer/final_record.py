"""The final ranking as a record: each team's entry, chosen by the competition's rule among the submissions made
before the phase's end, scored here, and the teams left out with the reason.

A platform's leaderboard is a view that others can move after the reveal (Codabench's API takes submissions after
a phase's end and lets a team re-point its entry; EvalAI shows each team's best public submission). The record is
what the rules say, decided from the platform's list of submissions and our own scoring of each submitted file:

1. ``plan``: for each team, the submissions the rule may select (made strictly before the end, finished; public
   where the platform ranks public ones only), or why the team has none;
2. the caller scores each planned submission here with the revealed reference data;
3. ``decide``: the entries, ranked by the primary key (ties share a rank), and the teams left out;
4. ``write``: ``final_ranking.json`` and ``final_ranking.csv``, the same bytes for the same submissions;
5. ``compare``: every difference between a leaderboard read back from the platform and the record, one line each.

The rules, one sentence each (``RULES``); each platform's own setting maps to one of them in its module:

>>> end = dt.datetime(2027, 3, 1, tzinfo=dt.timezone.utc)
>>> day = lambda d: dt.datetime(2027, 2, d, tzinfo=dt.timezone.utc)
>>> subs = [Submission("1", "ann", day(1), FINISHED), Submission("2", "ann", day(2), FAILED),
...         Submission("3", "bob", day(3), FINISHED, chosen=True), Submission("4", "bob", end, FINISHED)]
>>> p = plan(subs, "last", end)
>>> {team: [s.id for s in picks] for team, picks in p.picks.items()}
{'ann': ['1'], 'bob': ['3']}
"""
import csv
import datetime as dt
import io
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

FINISHED, FAILED, PENDING = "finished", "failed", "pending"   # a submission's run, as the record sees it
JSON_NAME, CSV_NAME = "final_ranking.json", "final_ranking.csv"
FORMAT = 1   # the record's layout version


class RecordError(SystemExit):
    """The record cannot be made or read (an organizer's input or a platform's state), said in one line."""


@dataclass(frozen=True)
class Rule:
    name: str
    says: str


RULES = {r.name: r for r in (
    Rule("last", "each team's last submission made before the phase's end whose run finished (a failed run is "
                 "passed over)"),
    Rule("chosen", "each team's own leaderboard entry or entries made before the phase's end; a team whose entry was "
                   "made after the end is ranked by its last finished submission made before the end, and a team "
                   "with no entry is not ranked"),
    Rule("best", "each team's best finished submission made before the phase's end, by the primary key as scored "
                 "here"),
)}


@dataclass(frozen=True)
class Reason:
    code: str
    says: str


REASONS = {r.code: r for r in (
    Reason("none_before_end", "no submission made before the phase's end"),
    Reason("all_failed", "every submission made before the phase's end failed"),
    Reason("pending", "a submission made before the phase's end has not finished running"),
    Reason("private", "every finished submission made before the phase's end is private, and the platform ranks "
                      "public submissions only"),
    Reason("banned", "the team is banned from the competition on the platform"),
    Reason("host", "its submissions were made by the competition's hosts, whom the platform leaves off its "
                   "leaderboard"),
    Reason("no_entry", "the team put no submission on the leaderboard, and under this rule a team chooses its entry"),
    Reason("not_scored", "its selected submission does not score with the revealed reference data"),
)}


@dataclass
class Phase:
    """The board's phase on a platform, as its module reads it."""

    id: str
    name: str
    end: dt.datetime            # aware; submissions from then on are never entries
    platform_rule: str          # the platform's own setting, as the record states it
    rule: str                   # a name of RULES
    public_only: bool = False   # the platform ranks public submissions only


@dataclass(frozen=True)
class Submission:
    """One submission as the platform lists it, already checked by the platform's module."""

    id: str                     # the platform's id, as text
    team: str                   # the team (or the user, where the platform has no teams)
    created: Optional[dt.datetime]   # when the platform received it (aware); None where the platform does not
                                     # say and refuses submissions after the end itself (CodaLab v1)
    status: str                 # FINISHED, FAILED or PENDING
    chosen: bool = False        # on the leaderboard by the team's own choice (rule "chosen")
    public: bool = True         # shown on a public board (EvalAI ranks public submissions only)
    banned: bool = False        # its team is banned
    host: bool = False          # made by one of the competition's hosts, whom the platform leaves off its board


@dataclass
class LeftOut:
    team: str
    reason: str                 # a code of REASONS
    detail: str = ""            # e.g. how many submissions came after the end, the error of the selected file

    @property
    def says(self):
        return REASONS[self.reason].says + (" (%s)" % self.detail if self.detail else "")


@dataclass
class Plan:
    rule: str
    end: dt.datetime
    picks: Dict[str, List[Submission]]      # team -> the submissions to score (all of them are candidates)
    left_out: List[LeftOut]
    notes: Dict[str, str] = field(default_factory=dict)   # team -> what the record says of its choice


@dataclass
class Scored:
    """What scoring one submitted file here gave."""

    sha256: str
    scores: Dict[str, float]    # empty when it did not score
    error: str = ""


@dataclass
class Entry:
    rank: int
    team: str
    submission: str
    created: str                # ISO 8601, UTC
    sha256: str
    scores: Dict[str, float]
    shown_as: str = ""          # the submission the leaderboard shows for it, where the platform re-ran it
    note: str = ""


@dataclass
class Record:
    """The final ranking of one board, as written to final_ranking.json."""

    title: str
    board: str
    platform: str               # codabench, evalai, codalab_v1 or offline
    site: str                   # the platform's origin (no path, no token)
    competition: str            # its id there
    phase: str                  # the phase's id there
    phase_name: str
    phase_end: str              # ISO 8601, UTC
    platform_rule: str          # the platform's own setting (Force_Last, Add, ...)
    rule: str                   # a name of RULES
    primary_key: str
    sort: str                   # desc (higher is better) or asc
    keys: List[str]
    reference_sha256: str       # the revealed reference data (the zip reveal wrote)
    program_sha256: str
    entries: List[Entry]
    left_out: List[LeftOut]
    format: int = FORMAT

    @property
    def rule_says(self):
        return RULES[self.rule].says


def plan(submissions: Sequence[Submission], rule: str, end: dt.datetime, public_only=False) -> Plan:
    """Which submissions of each team the rule may select (``Plan.picks``), and the teams it cannot rank.

    A submission counts only if the platform received it strictly before ``end``; a submission still running
    leaves its team out (the platform's module waits for the queue first, or says why it cannot).
    """
    if rule not in RULES:
        raise RecordError("unknown selection rule %r (known: %s)" % (rule, ", ".join(RULES)))
    teams: Dict[str, List[Submission]] = {}
    for s in sorted(submissions, key=_received):
        teams.setdefault(s.team, []).append(s)
    picks, left, notes = {}, [], {}
    for team in sorted(teams):
        subs = teams[team]
        if all(s.host for s in subs):
            left.append(LeftOut(team, "host"))
            continue
        subs = [s for s in subs if not s.host]
        before = [s for s in subs if s.created is None or s.created < end]
        after = len(subs) - len(before)
        finished = [s for s in before if s.status == FINISHED]
        if any(s.banned for s in subs):
            left.append(LeftOut(team, "banned"))
        elif not before:
            left.append(LeftOut(team, "none_before_end", "%d made after it" % after if after else ""))
        elif any(s.status == PENDING for s in before):
            left.append(LeftOut(team, "pending", ", ".join(s.id for s in before if s.status == PENDING)))
        elif not finished:
            left.append(LeftOut(team, "all_failed", "%d failed" % len(before)))
        elif public_only and not any(s.public for s in finished):
            left.append(LeftOut(team, "private", "%d private" % len(finished)))
        else:
            ranked = [s for s in finished if s.public or not public_only]
            if rule == "last":
                picks[team] = ranked[-1:]
            elif rule == "best":
                picks[team] = ranked
            else:
                chosen = [s for s in ranked if s.chosen]
                late = [s for s in subs[len(before):] if s.chosen]
                if chosen:
                    picks[team] = chosen
                elif late:
                    picks[team] = ranked[-1:]
                    notes[team] = ("its leaderboard entry %s was made after the end; its last finished submission "
                                   "before the end is ranked" % late[-1].id)
                else:
                    left.append(LeftOut(team, "no_entry"))
    return Plan(rule, end, picks, left, notes)


def decide(the_plan: Plan, scored: Dict[str, Scored], primary: str, sort: str) -> (List[Entry], List[LeftOut]):
    """The ranked entries and the teams left out, from the plan and each planned submission's scoring here."""
    sign = 1.0 if sort == "asc" else -1.0   # the first of a team's equal best scores is its earlier submission
    rows, left = [], list(the_plan.left_out)
    for team, picks in sorted(the_plan.picks.items()):
        ok = [s for s in picks if scored[s.id].scores]
        # a selected file that the platform ran but that does not score here is said, never dropped silently
        # (under "best" only when no candidate of the team scores)
        for bad in [s for s in picks if s not in ok] if (the_plan.rule != "best" or not ok) else []:
            left.append(LeftOut(team, "not_scored", "submission %s: %s" % (bad.id, scored[bad.id].error)))
        if not ok:
            continue
        if the_plan.rule == "best":
            ok = [min(ok, key=lambda s: (sign * round(scored[s.id].scores[primary], 10),) + _received(s))]
        for s in ok:
            rows.append(Entry(0, team, s.id, iso(s.created), scored[s.id].sha256, dict(scored[s.id].scores),
                              note=the_plan.notes.get(team, "")))
    left.sort(key=lambda l: (l.team, l.reason))
    return ranked(rows, primary, sort), left


def ranked(rows: List[Entry], primary: str, sort: str) -> List[Entry]:
    """The entries best first by the primary key (to 10 decimals, as the platforms store it), each with its rank:
    equal values share the rank of the first of them; among them the earlier submission comes first."""
    sign = 1.0 if sort == "asc" else -1.0
    rows = sorted(rows, key=lambda e: (sign * round(e.scores[primary], 10), e.created, e.team, e.submission))
    previous = None
    for position, entry in enumerate(rows, start=1):
        value = round(entry.scores[primary], 10)
        entry.rank = rows[position - 2].rank if value == previous else position
        previous = value
    return rows


KEPT_FIELDS = ("platform", "competition", "phase", "phase_end", "rule", "primary_key", "sort", "reference_sha256",
               "program_sha256")


def keep(old: Record, fresh: Record) -> (Record, List[str]):
    """What a later run of the reveal keeps: the first record, whatever the platform lists now.

    The record is decided once; a team may change its submissions on a platform after the end (EvalAI lets it
    edit its own submission's status and visibility, Codabench lets it re-point an entry), and a later run must not
    take that for the rules' choice. Only a team the first record left out because a submission made before the
    end was still running is decided again (that run has finished since). Every other way ``fresh`` (the record the
    platform's state would give now) differs is returned as a line, and changes nothing. A record of other
    reference data, another program, rule or phase is refused: making a new one is the organizer's explicit choice.
    """
    for name in KEPT_FIELDS:
        if getattr(old, name) != getattr(fresh, name):
            raise RecordError("the final ranking already written was made with another %s (%s, now %s); it is "
                              "kept unless you pass --new-record (or write the new one elsewhere with --record DIR)"
                              % (name.replace("_", " "), getattr(old, name), getattr(fresh, name)))
    pending = {l.team for l in old.left_out if l.reason == "pending"}
    teams = {e.team for e in old.entries} | {l.team for l in old.left_out}
    entries = [e for e in old.entries] + [e for e in fresh.entries if e.team in pending]
    left = [l for l in old.left_out if l.team not in pending] + [l for l in fresh.left_out if l.team in pending]
    lines = []
    for team in sorted(teams | {e.team for e in fresh.entries} | {l.team for l in fresh.left_out}):
        if team in pending:
            continue
        was, now = _standing(old, team), _standing(fresh, team)
        if was != now:
            lines.append("team %s: the platform's submissions now give %s; the record keeps %s" % (team, now, was))
    record = Record(**dict(vars(old), entries=ranked(entries, old.primary_key, old.sort),
                           left_out=sorted(left, key=lambda l: (l.team, l.reason))))
    return record, lines


def _standing(record, team):
    """A team's place in a record, in words: its entries (submission and primary score) or why it is left out."""
    rows = [e for e in record.entries if e.team == team]
    if rows:
        return ", ".join("submission %s (%s %r)" % (e.submission, record.primary_key, e.scores[record.primary_key])
                         for e in sorted(rows, key=lambda e: e.submission))
    reasons = [l.says for l in record.left_out if l.team == team]
    return "no entry: " + "; ".join(sorted(reasons)) if reasons else "nothing (the team is not listed)"


def iso(when: Optional[dt.datetime]) -> str:
    """An aware datetime as ISO 8601 in UTC (the record's one form of a time); "" for an unknown one."""
    return "" if when is None else when.astimezone(dt.timezone.utc).isoformat()


def _received(s):
    """Order of receipt: by time, then by id (a number as a number) where the platform gives no time."""
    number = int(s.id) if s.id.isdigit() else -1
    return (s.created or dt.datetime.min.replace(tzinfo=dt.timezone.utc), number, s.id)


# -- the files ---------------------------------------------------------------------------------------------------

def to_json(record: Record) -> bytes:
    value = asdict(record)
    value["rule_says"] = record.rule_says
    value["left_out"] = [dict(asdict(l), says=l.says) for l in record.left_out]
    return (json.dumps(value, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8")


def to_csv(record: Record) -> bytes:
    """One row per entry, best first, then one per team left out; cells a spreadsheet shows as text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "team", "submission", "shown_as", "created", "sha256"] + list(record.keys)
                    + ["note"])
    for e in record.entries:
        writer.writerow([e.rank] + [_text(v) for v in (e.team, e.submission, e.shown_as, e.created, e.sha256)]
                        + [repr(float(e.scores[k])) if k in e.scores else "" for k in record.keys] + [_text(e.note)])
    for l in record.left_out:
        writer.writerow(["", _text(l.team), "", "", "", ""] + [""] * len(record.keys) + [_text("left out: " + l.says)])
    return out.getvalue().encode("utf-8")


def _text(value):
    """A cell a spreadsheet shows as text: a team name starting with = + - @ (or TAB, CR) is not a formula."""
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def write(record: Record, folder) -> List[Path]:
    """Write both files into ``folder`` (made if needed), each whole or not at all; their paths."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, data in ((JSON_NAME, to_json(record)), (CSV_NAME, to_csv(record))):
            path = folder / name
            part = folder / (name + ".part")
            part.write_bytes(data)
            part.replace(path)
            paths.append(path)
    except OSError as exc:
        raise RecordError("cannot write the final ranking into %s (%s)" % (folder, exc.strerror or exc))
    return paths


def read(path) -> Record:
    """The record of ``final_ranking.json`` (``path``, or the folder holding it), checked."""
    path = Path(path)
    if path.is_dir():
        path = path / JSON_NAME
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
        if not isinstance(value, dict) or value.get("format") != FORMAT:
            raise ValueError("not a final ranking of format %d" % FORMAT)
        value = {k: v for k, v in value.items() if k != "rule_says"}
        value["entries"] = [Entry(**e) for e in value["entries"]]
        value["left_out"] = [LeftOut(**{k: v for k, v in l.items() if k != "says"}) for l in value["left_out"]]
        record = Record(**value)
        if record.rule not in RULES:
            raise ValueError("unknown rule %r" % record.rule)
        for e in record.entries:
            if not all(isinstance(e.scores.get(k), (int, float)) for k in (record.primary_key,)):
                raise ValueError("entry of %r has no %s" % (e.team, record.primary_key))
    except OSError as exc:
        raise RecordError("cannot read the final ranking %s (%s); the reveal writes it" % (path, exc.strerror or exc))
    except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise RecordError("%s is not a final ranking this tool wrote (%s)" % (path, " ".join(str(exc).split())[:200]))
    return record


# -- the record against a leaderboard ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One row of a live leaderboard, as the platform's module reads it."""

    team: str
    submission: str
    scores: Dict[str, float]


def compare(record: Record, rows: Sequence[Row], places: Optional[int] = 10) -> List[str]:
    """Every difference between the live leaderboard ``rows`` and the record, one line each (none: they agree).

    A row must show, for each entry, the submission the record names (or the one it was re-run as) with the
    record's scores to ``places`` decimals (the platform's storage), and nothing else.
    """
    tolerance = 0.0 if places is None else 0.5 * 10 ** -places + 1e-15
    lines = []
    shown: Dict[str, List[Row]] = {}
    for row in rows:
        shown.setdefault(row.team, []).append(row)
    expected: Dict[str, List[Entry]] = {}
    for e in record.entries:
        expected.setdefault(e.team, []).append(e)
    for team in sorted(set(shown) | set(expected)):
        have, want = shown.get(team, []), expected.get(team, [])
        if not want:
            reason = next((l.says for l in record.left_out if l.team == team), "not in the record")
            for row in have:
                lines.append("team %s: the leaderboard shows submission %s (%s %s), but the record ranks no entry "
                             "of this team: %s" % (team, row.submission, record.primary_key,
                                                  _number(row.scores.get(record.primary_key)), reason))
            continue
        unmatched = list(have)
        for e in want:
            ids = {e.submission, e.shown_as} - {""}
            row = next((r for r in unmatched if r.submission in ids), None)
            if row is None:
                others = ", ".join(r.submission for r in unmatched) or "nothing"
                lines.append("team %s: the leaderboard shows %s where the record ranks submission %s%s (#%d, %s %s)"
                             % (team, others, e.submission, " (re-run as %s)" % e.shown_as if e.shown_as else "",
                                e.rank, record.primary_key, _number(e.scores[record.primary_key])))
                unmatched = []
                continue
            unmatched.remove(row)
            for key in record.keys:
                if key not in e.scores:
                    continue
                value = row.scores.get(key)
                if value is None or abs(float(value) - e.scores[key]) > tolerance:
                    lines.append("team %s: submission %s shows %s = %s on the leaderboard, %s in the record" % (
                        team, row.submission, key, _number(value), _number(e.scores[key])))
        for row in unmatched:
            lines.append("team %s: the leaderboard also shows submission %s, which is no entry of the record" % (
                team, row.submission))
    return lines


def _number(value):
    return "nothing" if value is None else repr(float(value))
