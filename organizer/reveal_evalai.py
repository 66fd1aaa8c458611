"""The reveal on EvalAI, through its host API with the organizer's token: the final ranking as a record, then the
leaderboard made to show it.

    ORGANIZER_TOKEN=... python3 -m organizer reveal COMPETITION_DIR B OUT.zip --evalai https://eval.ai --challenge ID

While board B's phase runs, its annotation holds no answer: every evaluation
stores the placeholder -1 under the phase's split, whose leaderboard hosts alone
see (visibility 1). Each step below cites the function of Cloud-CV/EvalAI
@0f04039 it relies on (``Authorization: Bearer`` with a host's auth token):

1. ``phase``: the challenge (apps/challenges/views.py ``get_challenge_by_pk``:
   its end, its host team, ``banned_email_ids``), the token's host teams
   (apps/hosts/views.py ``challenge_host_team_list``, with their members: the
   token must be a member of the challenge's host team,
   ``is_user_a_host_of_challenge``), board B's phase by the codename
   ``organizer evalai`` gave it (``challenge_phase_list``) and its split
   (``challenge_phase_split_list``, which shows hosts every split). The rule:

   - the phase ``is_restricted_to_select_one_submission`` (``organizer evalai``
     writes it when competition.yaml has no ``force_submission_to_leaderboard``,
     as Codabench's ``Add``): rule ``chosen``, each team's entry is the one
     submission it made public ("show on leaderboard";
     apps/jobs/views.py ``change_submission_data_and_visibility`` keeps one);
   - otherwise (``force_submission_to_leaderboard``, as Codabench's
     ``Force_Last``; its submissions are public unless the team hides them,
     ``is_submission_public``): rule ``last`` among the team's public ones
     (the public leaderboard shows public submissions only).

   EvalAI alone would show each team's *best* public submission
   (apps/jobs/utils.py ``calculate_distinct_sorted_leaderboard_data``), which
   no other platform does; the record and the board follow the rule instead;
2. ``submissions``: every submission of the phase (``get_all_submissions_of_challenge``,
   150 a page), its receipt time ``submitted_at`` (a re-run keeps it:
   apps/jobs/utils.py ``handle_submission_rerun``), its status, ``is_public``,
   its team's members' e-mails (a team with one in ``banned_email_ids`` is
   banned: EvalAI drops it from the board) and who made it (a submission of a
   host is off a public phase's board). Submissions still being evaluated
   (``submitted``, ``submitting``, ``queued``, ``running``, ``resuming``,
   ``partially_evaluated``) are waited for, up to ``--wait`` seconds; then their
   teams are left out and said. ``cancelled`` (the original of a re-run) and
   ``archived`` count as failed;
3. ``fetch``: each selected file (``input_file``), downloaded without the token;
   the reveal scores it here (organizer/reveal.py) and writes the record;
4. ``show``: makes the board show the record and nothing else:

   - every submission of the phase that is no entry is flagged and every entry
     unflagged (apps/jobs/views.py ``update_submission_meta``: hosts may set a
     submission's ``is_flagged``; the board leaves flagged ones out,
     ``calculate_distinct_sorted_leaderboard_data``), so each team's one row
     is its entry, whatever EvalAI's own choice (best, or latest) would be;
   - each entry's row (the host's view of the board,
     ``get_all_entries_on_public_leaderboard``, which names the row's
     ``LeaderboardData``) gets the record's scores (``update_leaderboard_data``:
     hosts, the row's result only). Nothing else of the submission changes: its
     status, completion time, stdout and result files stay as the worker wrote
     them (``update_submission`` would reset the completion time and write the
     result file as a Python repr, ``str(public_results)``);
   - the split is made public (``get_or_update_challenge_phase_split``,
     visibility 3);
   - the phase's annotation becomes OUT_closed.zip (``challenge_phase_detail``,
     a multipart PATCH of ``test_annotation``): every later evaluation fails
     with one line and no score. EvalAI's worker reads the annotation when it
     loads the challenge (scripts/workers/submission_worker.py
     ``load_challenge``), and after the challenge's end nothing runs at all:
     ``challenge_submission`` and ``re_run_submission`` refuse any user while
     the challenge is not active. So the reveal waits for the challenge's end
     too (before it, a re-run, by a host or by a participant where
     ``allow_participants_resubmissions``, runs on the sealed annotation the
     worker holds and puts -1 back);
5. ``leaderboard`` and ``differences``: the public board read back
   (``leaderboard``), the split's settings and the schema's order
   (``get_or_update_challenge_phase_split``, ``get_or_update_leaderboard``).

What EvalAI does not let the organizer prevent, and ``--check`` reports when it
moves the board: a participant may change any field of its own submissions
through ``update_submission_meta`` at any time (``is_public``, ``is_flagged``,
``is_baseline``, ``status``), and any member of any host team (anyone may
create one: ``create_challenge_host_team``) may change a split's settings
(``get_or_update_challenge_phase_split`` asks for membership of *a* host team,
apps/challenges/utils.py ``get_challenge_host_required_error``).

EvalAI throttles each user to 60 requests a minute (settings/common.py
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["user"]``), so the calls here start
at least ``PACE`` seconds apart (55 a minute), and a 429 is waited out as its
Retry-After says (organizer/http_api.py). Every answer is checked before it is
used; a second run changes nothing on the platform unless something differs
from the record.
"""
import dataclasses
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Dict, List

from . import http_api
from .bundle import load_yaml
from .final_record import FAILED, FINISHED, PENDING, Phase, Row, Submission
from .http_api import NUMBER, ApiError, Client, RevealError, listing, mapping, need, origin_of, phase_not_over
from scorer.public import aware_time

PUBLIC = 3                    # ChallengePhaseSplit.VISIBILITY_OPTIONS (apps/challenges/models.py)
SEALED = -1.0                 # every key of a sealed board's run (scorer/publish/policy.py)
VISIBILITY = {1: "hosts only", 2: "owner and hosts", 3: "public"}
SPLITS = {"A": "public_split", "B": "private_split"}   # the split codenames organizer evalai writes
PACE = 60 / 55                # seconds between two calls: below EvalAI's 60 a minute per user
POLL = 30.0                   # seconds between two reads of a queue still being evaluated
# Submission.STATUS_OPTIONS (apps/jobs/models.py), as the record sees each
STATUSES = {"finished": FINISHED, "failed": FAILED, "cancelled": FAILED, "archived": FAILED,
            "submitted": PENDING, "submitting": PENDING, "queued": PENDING, "running": PENDING,
            "resuming": PENDING, "partially_evaluated": PENDING}
RULES = {   # the phase's setting -> (the rule, what the record says of the platform's setting)
    True: ("chosen", "is_restricted_to_select_one_submission: each team's one public submission, its choice"),
    False: ("last", "each team's public submissions (is_public), of which EvalAI alone shows the best"),
}


def _time(value, where, what):
    """An aware datetime from EvalAI's ISO text (``Z``, any number of fractional digits)."""
    text = re.sub(r"\.(\d+)", lambda m: "." + (m.group(1) + "000000")[:6], value) if isinstance(value, str) else value
    when = aware_time(text)
    if when is None:
        raise ApiError("%s answered something unexpected: %s %s is not a date and time with its offset"
                       % (where, what, json.dumps(value)))
    return when


class Site:
    """One challenge on an EvalAI, as the reveal sees it (organizer/reveal.py ``Platform``)."""

    name = "evalai"
    places = None   # LeaderboardData.result is JSON: the floats sent are the floats stored

    def __init__(self, server, token, challenge, competition_dir, board, dry_run=False, early=False, log=print,
                 limits=None, source="the command line", wait=3600, check=False):
        limits = limits or http_api.LIMITS
        limits = dataclasses.replace(limits, pace=max(PACE, limits.pace))
        self.client = Client(server.rstrip("/") + "/api/", "Bearer", token, limits=limits, source=source)
        self.site = origin_of(server)
        self.competition = str(challenge)
        self.challenge, self.board, self.log = challenge, board, log
        self.dry_run, self.early, self.wait, self.check = dry_run, early, wait, check
        self.codename = "board_%s" % board.lower()
        comp = load_yaml(Path(competition_dir) / "competition.yaml") or {}
        self.wanted = "last" if comp.get("force_submission_to_leaderboard") else "chosen"
        self.listed: Dict[str, dict] = {}
        self.split, self.waiting = None, []

    # -- 1. the phase ---------------------------------------------------------------------------------------
    def phase(self) -> Phase:
        c = self.client
        where = c.where("GET", "challenges/challenge/%d/" % self.challenge)
        challenge = c.get("challenges/challenge/%d/" % self.challenge)
        end = need(challenge, "end_date", str, where, "the challenge")
        creator = need(need(challenge, "creator", dict, where, "the challenge"), "id", int, where,
                       "the challenge's creator")
        self.banned = {str(e) for e in listing(need(challenge, "banned_email_ids", list, where, "the challenge",
                                                    default=[]), where, "banned_email_ids")}
        teams_path = "hosts/challenge_host_team/"
        teams_where = c.where("GET", teams_path)
        mine = [t for t in c.pages(teams_path) if need(t, "id", int, teams_where, "a host team") == creator]
        if not mine:
            raise RevealError("this token is no host of challenge %d (a member of its host team %d): EvalAI shows "
                              "a challenge's submissions and hidden split to its hosts only; use a host's token"
                              % (self.challenge, creator))
        members = listing(need(mine[0], "members", list, teams_where, "the host team", default=[]), teams_where,
                          "the host team's members")
        self.hosts = {need(m, "user", str, teams_where, "a host") for m in members}

        path = "challenges/challenge/%d/challenge_phase" % self.challenge
        where = c.where("GET", path)
        phases = [p for p in c.pages(path) if need(p, "codename", str, where, "a phase", default=None) == self.codename]
        if not phases:
            raise RevealError("challenge %d has no phase with codename %s (the codename python3 -m organizer evalai "
                              "gives board %s's phase)" % (self.challenge, self.codename, self.board))
        p = phases[0]
        pid = need(p, "id", int, where, "a phase")
        restricted = need(p, "is_restricted_to_select_one_submission", bool, where, "a phase", default=False)
        self.phase_is_public = need(p, "is_public", bool, where, "a phase", default=True)
        name = need(p, "name", str, where, "a phase", default=self.codename)
        phase_end = need(p, "end_date", str, where, "a phase", default="")
        self.split = self._split(pid)

        for what, when in (("phase %s" % self.codename, phase_end), ("challenge %d" % self.challenge, end)):
            running = phase_not_over(when)
            if running and not self.early and not self.check:
                if self.dry_run:
                    self.log("dry run: %s is not over: %s" % (what, running))
                    continue
                raise RevealError(
                    "%s is not over: %s%s; reveal after its end, or pass --early" % (
                        what, running, "" if what.startswith("phase") else
                        ", and until then EvalAI re-runs submissions (a host's re-run, or a participant's where the "
                        "challenge allows it) on the sealed annotation its worker holds, putting -1 back"))
        if not phase_end:
            raise RevealError("phase %s has no end date, and the record needs one (submissions made from then on are "
                              "no entries)" % self.codename)
        rule, says = RULES[restricted]
        if rule != self.wanted:
            self.log("note: competition.yaml asks for rule %s (force_submission_to_leaderboard is %s), but phase %s "
                     "on EvalAI is %srestricted to one public submission a team, which makes it %s: the record "
                     "follows the phase, whose setting the teams saw" % (
                         self.wanted, "set" if self.wanted == "last" else "not set", self.codename,
                         "" if restricted else "not ", rule))
        return Phase(id=str(pid), name=name, end=_time(phase_end, where, "the phase's end_date"),
                     platform_rule=says, rule=rule, public_only=rule == "last")

    def _split(self, pid):
        path = "challenges/%d/challenge_phase_split" % self.challenge
        where = self.client.where("GET", path)
        splits = [s for s in listing(self.client.get(path), where)
                  if need(s, "challenge_phase", int, where, "a split", default=None) == pid]
        if len(splits) != 1:
            raise RevealError("phase %s shows %d dataset splits to this token, and the reveal needs exactly one (a "
                              "host's token sees every split of the challenge's phases)" % (self.codename, len(splits)))
        s = splits[0]
        schema = need(s, "leaderboard_schema", dict, where, "a split")
        labels = listing(need(schema, "labels", list, where, "the split's leaderboard_schema"), where,
                         "the split's labels")
        return {"id": need(s, "id", int, where, "a split"), "labels": [str(l) for l in labels],
                "visibility": need(s, "visibility", int, where, "a split")}

    # -- 2. the submissions -------------------------------------------------------------------------------
    def submissions(self, phase) -> List[Submission]:
        path = "challenges/%d/challenge_phase/%s/submissions" % (self.challenge, phase.id)
        start = time.monotonic()
        deadline = start + self.wait
        while True:
            raw = self._list(path)
            waiting = [s for s in raw if s["state"] == PENDING and s["created"] < phase.end]
            if not waiting or self.dry_run or time.monotonic() >= deadline:
                break
            self.log("waiting for %d submission(s) made before the end to be evaluated (%s)" % (
                len(waiting), ", ".join("%s: %s" % (s["id"], s["status"]) for s in waiting[:10])))
            _sleep(min(POLL, max(0.0, deadline - time.monotonic())))
        for s in waiting:
            self.log("submission %s of %s is still %s after %d s: its team is left out (run this again once "
                     "EvalAI has evaluated it)" % (s["id"], s["team"], s["status"], time.monotonic() - start))
        self.waiting = [s["id"] for s in waiting]
        self.listed = {s["id"]: s for s in raw}
        chosen = {}
        if phase.rule == "chosen":   # the team's public submission; were there several, its last
            for s in sorted(raw, key=lambda s: (s["created"], int(s["id"]))):
                if s["public"] and s["state"] != FAILED:
                    if s["team"] in chosen and s["created"] < phase.end:   # (one made after it: the record says)
                        self.log("note: team %s has more than one public submission (%s and %s); its last, %s, is its "
                                 "choice" % (s["team"], chosen[s["team"]], s["id"], s["id"]))
                    chosen[s["team"]] = s["id"]
        counts = {}
        for s in raw:
            counts[s["status"]] = counts.get(s["status"], 0) + 1
        self.log("phase %s (id %s), split %s (id %d): %d submission(s) of %d team(s) (%s)" % (
            self.codename, phase.id, SPLITS.get(self.board), self.split["id"], len(raw),
            len({s["team"] for s in raw}), ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
        return [Submission(s["id"], s["team"], s["created"], s["state"], chosen=chosen.get(s["team"]) == s["id"],
                           public=s["public"], banned=bool(self.banned & set(s["emails"])),
                           host=self.phase_is_public and s["by"] in self.hosts)
                for s in raw]

    def _list(self, path):
        where = self.client.where("GET", path)
        found = []
        for s in self.client.pages(path):
            status = need(s, "status", str, where, "a submission").lower()
            if status not in STATUSES:
                self.log("note: submission %s has status %r, which this command does not know: taken as still "
                         "being evaluated" % (s.get("id"), status))
            emails = need(s, "participant_team_members_email_ids", (list, str), where, "a submission", default=[])
            found.append({
                "id": str(need(s, "id", int, where, "a submission")),
                "team": need(s, "participant_team", str, where, "a submission"),
                "by": need(s, "created_by", str, where, "a submission", default=""),
                "status": status, "state": STATUSES.get(status, PENDING),
                "public": need(s, "is_public", bool, where, "a submission"),
                "flagged": need(s, "is_flagged", bool, where, "a submission", default=False),
                "created": _time(need(s, "submitted_at", str, where, "a submission"), where,
                                 "a submission's submitted_at"),
                "file": need(s, "input_file", str, where, "a submission", default=""),
                "emails": [str(e) for e in emails] if isinstance(emails, list) else []})
        return found

    # -- 3. a file --------------------------------------------------------------------------------------
    def fetch(self, phase, submission, folder, largest):
        url = self.listed[submission.id]["file"]
        if not url:
            raise RevealError("EvalAI gives no file for submission %s (its input_file is empty)" % submission.id)
        return self.client.download(url, folder, largest, given=self.client.where(
            "GET", "challenges/%d/challenge_phase/%s/submissions" % (self.challenge, phase.id)))

    # -- 4. the board made to show the record, then the phase closed ----------------------------------------
    def show(self, phase, record, reveal_zip, closed_zip):
        c = self.client
        entries = {e.submission: e for e in record.entries}
        changed = 0
        # flags first (the split may still be hidden): each team's one unflagged row is its entry
        for sid, s in sorted(self._listing(phase).items(), key=lambda kv: int(kv[0])):
            if s["flagged"] == (sid not in entries):
                continue
            self._flag(sid, sid not in entries)
            changed += 1
        for sid, e in sorted(entries.items()):
            if sid in self.listed and not self.listed[sid]["public"]:
                # rule chosen, a team whose public submission came after the end: its entry is its last one before
                self.client.patch("jobs/challenges/%d/submissions/%s/update_submission_meta/" % (self.challenge, sid),
                                  {"is_public": True})
                changed += 1
                self.log("%s: submission %s made public, the record's entry (%s)" % (
                    e.team, sid, e.note or "the public board shows public submissions only"))
        rows, tried = self._board(phase, all_entries=True), set()
        while True:   # rows of submissions the list does not show (deleted by their team), each flagged once
            extra = [r for r in rows if r["submission"] not in entries and r["submission"] not in tried]
            if not extra:
                break
            for r in extra:
                self._flag(r["submission"], True)
                tried.add(r["submission"])
                changed += 1
            rows = self._board(phase, all_entries=True)
        by_submission = {r["submission"]: r for r in rows}
        public = self._split_settings()["visibility"] == PUBLIC
        said = not all(v == SEALED for r in rows for v in r["scores"].values())   # no reveal has stored scores yet
        for e in record.entries:
            row = by_submission.get(e.submission)
            if row is None:
                self.log("cannot show submission %s of %s: EvalAI's board holds no row of it for split %s (its run "
                         "stored no scores there, or its team flagged it or changed its status); the record ranks it "
                         "#%d" % (
                             e.submission, e.team, SPLITS.get(self.board), e.rank))
                continue
            scores = {k: float(e.scores[k]) for k in self.split["labels"] if k in e.scores}
            if all(row["scores"].get(k) == v for k, v in scores.items()) and len(scores) == len(self.split["labels"]):
                continue
            if public and not said:
                self.log("note: split %s (id %d) was public before any reveal stored scores (visibility 3): a member "
                         "of a host team made it so (a member of any host team may change a split on EvalAI)"
                         % (SPLITS.get(self.board), self.split["id"]))
                said = True
            c.patch("jobs/leaderboard_data/%d/" % row["row"], {"leaderboard_data": json.dumps(scores)})
            changed += 1
            self.log("%s: submission %s now shows %s" % (e.team, e.submission, json.dumps(scores)))
        if not public:
            c.patch("challenges/challenge/create/challenge_phase_split/%d/" % self.split["id"], {"visibility": PUBLIC})
            changed += 1
            self.log("split %s (id %d) is public" % (SPLITS.get(self.board), self.split["id"]))
        if self.waiting:   # closed now, the phase would fail them: they were made in time
            self.log("phase %s is not closed yet: %d submission(s) made before its end are still being evaluated "
                     "(%s); run this command again once EvalAI has evaluated them, which closes it" % (
                         self.codename, len(self.waiting), ", ".join(self.waiting)))
        else:
            changed += self._close(phase, closed_zip)
        self.log("EvalAI: %s" % ("%d change(s) made" % changed if changed else "nothing to change, the board already "
                                                                                 "showed the record"))
        self.log("EvalAI cannot stop a team from changing its own submissions (update_submission_meta: is_public, "
                 "is_flagged, is_baseline, status) nor a member of any host team from changing the split: run this "
                 "command with --check to compare the board with the record again")

    def _listing(self, phase):
        path = "challenges/%d/challenge_phase/%s/submissions" % (self.challenge, phase.id)
        self.listed = {s["id"]: s for s in self._list(path)}
        return self.listed

    def _flag(self, sid, flagged):
        self.client.patch("jobs/challenges/%d/submissions/%s/update_submission_meta/" % (self.challenge, sid),
                          {"is_flagged": flagged})

    def _close(self, phase, closed_zip):
        """The phase's annotation becomes the closed one (0 when it already is; 1 when uploaded)."""
        data = closed_zip.read_bytes()
        path = "challenges/challenge/%d/challenge_phase/%s" % (self.challenge, phase.id)
        where = self.client.where("GET", path)
        current = need(self.client.get(path), "test_annotation", str, where, "the phase", default="")
        if current:
            try:
                with tempfile.TemporaryDirectory(prefix="annotation-") as tmp:
                    if self.client.download(current, tmp, len(data), given=where).read_bytes() == data:
                        return 0
            except ApiError:   # larger than the closed annotation, or unreadable: not it
                pass
        self.client.form("PATCH", path, files={"test_annotation": (closed_zip.name, data)})
        self.log("phase %s's annotation is now %s (report: closed): an evaluation of it fails with one line and no "
                 "score. EvalAI's worker reads annotations when it loads the challenge, which it does not after the "
                 "challenge's end; nothing runs then anyway (no submission, no re-run)" % (self.codename,
                                                                                           closed_zip.name))
        return 1

    # -- 5. the board read back -------------------------------------------------------------------------
    def _board(self, phase, all_entries=False):
        """The board's rows: the public view (``leaderboard``), or the host's (every row, private ones too)."""
        path = ("jobs/phase_split/%d/public_leaderboard_all_entries/" if all_entries else
                "jobs/challenge_phase_split/%d/leaderboard/") % self.split["id"]
        where = self.client.where("GET", path)
        labels = self.split["labels"]
        rows = []
        for r in self.client.pages(path):
            result = listing(need(r, "result", list, where, "a row"), where, "a row's result")
            scores = {}
            for label, value in zip(labels, result):
                if value != "#":   # a key the submission's run did not give (partial evaluation)
                    scores[label] = float(need({"result": value}, "result", NUMBER, where, "a row"))
            rows.append({"row": need(r, "id", int, where, "a row"),
                         "submission": str(need(r, "submission__id", int, where, "a row")),
                         "team": need(r, "submission__participant_team__team_name", str, where, "a row"),
                         "scores": scores})
        return rows

    def leaderboard(self, phase) -> List[Row]:
        if self.split is None:
            self.split = self._split(int(phase.id))
        return [Row(r["team"], r["submission"], r["scores"]) for r in self._board(phase)]

    def _split_settings(self):
        path = "challenges/challenge/create/challenge_phase_split/%d/" % self.split["id"]
        where = self.client.where("GET", path)
        s = mapping(self.client.get(path), where)
        return {"visibility": need(s, "visibility", int, where, "the split"),
                "descending": need(s, "is_leaderboard_order_descending", bool, where, "the split", default=True),
                "scores": need(s, "show_scores_on_leaderboard", bool, where, "the split", default=True),
                "leaderboard": need(s, "leaderboard", int, where, "the split")}

    def differences(self, phase, record) -> List[str]:
        """What else of the board differs from the record: the split's settings and the order of its rows."""
        lines = []
        settings = self._split_settings()
        if settings["visibility"] != PUBLIC:
            lines.append("split %s (id %d) is %s (visibility %d), where the reveal made it public" % (
                SPLITS.get(self.board), self.split["id"], VISIBILITY.get(settings["visibility"], "?"),
                settings["visibility"]))
        if not settings["scores"]:
            lines.append("split %s (id %d) hides the scores (show_scores_on_leaderboard is false)" % (
                SPLITS.get(self.board), self.split["id"]))
        path = "challenges/challenge/create/leaderboard/%d/" % settings["leaderboard"]
        where = self.client.where("GET", path)
        schema = need(self.client.get(path), "schema", dict, where, "the leaderboard")
        order_by = need(schema, "default_order_by", str, where, "the leaderboard's schema", default="")
        meta = need(schema, "metadata", dict, where, "the leaderboard's schema", default={})
        ascending = need(mapping(meta.get(order_by) or {}, where, "the metadata of %s" % order_by), "sort_ascending",
                         bool, where, "the metadata of %s" % order_by, default=None)
        descending = settings["descending"] if ascending is None else not ascending   # as EvalAI decides it
        if order_by != record.primary_key:
            lines.append("the board is ordered by %s (default_order_by), the record by %s" % (
                json.dumps(order_by), record.primary_key))
        if descending != (record.sort == "desc"):
            lines.append("the board is ordered %s by %s, the record ranks %s first" % (
                "highest first" if descending else "lowest first", order_by,
                "the highest" if record.sort == "desc" else "the lowest"))
        ranks = {(e.team, e.submission): e.rank for e in record.entries}
        shown = [(r.team, ranks[(r.team, r.submission)]) for r in self.leaderboard(phase)
                 if (r.team, r.submission) in ranks]
        for (above, a), (below, b) in zip(shown, shown[1:]):
            if a > b:
                lines.append("the board lists team %s (#%d in the record) above team %s (#%d)" % (above, a, below, b))
        return lines


def _sleep(seconds):
    time.sleep(seconds)
