"""The reveal on Codabench: the record's entries re-run on the revealed reference data, the leaderboard made to show
them, then the phase closed, through Codabench's API with the organizer's token.

    ORGANIZER_TOKEN=... python3 -m organizer reveal COMPETITION_DIR B OUT.zip --codabench https://www.codabench.org
                               --competition ID [--batch 10] [--wait 3600] [--dry-run]

This module is reveal.py's ``Site`` for Codabench. Each behaviour it relies on is
a fact of codalab/codabench @c7dbc756 (paths under src/apps/), and was seen on a
Codabench run from that commit (docs/organizers.md, "Codabench"):

- the phase: the competition's detail (api/views/competitions.py
  ``CompetitionViewSet``, ``CompetitionDetailSerializer``) lists its phases
  (``PhaseDetailSerializer``: id, index, end, the tasks as instances with their
  ids) and its leaderboards (``LeaderboardSerializer``: submission_rule,
  columns, primary_index) but no phase-to-leaderboard link; the phase's own
  leaderboard is the ``leaderboard`` field of ``GET phases/<id>/``
  (``PhaseViewSet``, ``PhaseSerializer``), the one ``get_leaderboard`` and the
  rule's strategy use (leaderboards/strategies.py ``BaseModeStrategy``:
  ``phase.leaderboard``). The board's phase is found by its place among the
  phases of competition.yaml;
- who may change the task: ``TaskViewSet.update`` (api/views/tasks.py) lets
  only the task's creator or a superuser change a task, and ``get_queryset``
  shows a task to its creator and the users it is shared with. So before
  anything is uploaded the token's user (``GET my_profile/``,
  ``GetMyProfile``) must be the creator ``GET tasks/<id>/`` names
  (``TaskDetailSerializer.created_by``); else one line says whose token to use;
- the rules (leaderboards/models.py ``Leaderboard.SUBMISSION_RULES``, the
  strategies applied when a run's scores arrive: api/views/submissions.py
  ``upload_submission_scores``, leaderboards/strategies.py), mapped to the
  record's (``RULES``):
  ``Force_Last`` -> ``last`` (``LastestModeStrategy``: each scored run replaces
  its owner's rows, so an entry's re-run takes its place); ``Add``,
  ``Add_And_Delete`` -> ``chosen``, ``Add_And_Delete_Multiple`` -> ``chosen``
  with several entries a team (nothing is placed automatically:
  ``ManualModeStrategy``; ``SubmissionViewSet.submission_leaderboard_connection``
  lets the owner or an organizer put a submission there, POST clearing the
  owner's other rows except under ``Add_And_Delete_Multiple``, DELETE only under
  the two ``Add_And_Delete`` rules; no end check, so a team can re-point its
  entry after the reveal: ``--check`` reports it); ``Force_Best`` -> ``best``
  (``BestModeStrategy``: when a run's scores arrive, the owner's rows are
  cleared and the best of its finished submissions by the primary column is
  put there. The sealed submissions hold -1: where the primary column sorts
  ``desc`` an entry's re-run with a score above -1 wins and the board shows
  it; where it sorts ``asc`` -1 beats every real score, the board keeps a
  sealed row, and the command says so); ``Force_Latest_Multiple`` -> ``best``
  (``AllModeStrategy``: every scored submission is put on the board and none
  is taken off, so the sealed -1 rows stay and each team is placed by its best
  row; the board cannot show the record and the command says so). Under the
  three Force rules only a superuser may connect a row, and under every rule
  but ``Add_And_Delete`` and ``Add_And_Delete_Multiple`` no one may take one
  off, a superuser neither (``submission_leaderboard_connection``); deleting
  the submission itself (``SubmissionViewSet.destroy``, the competition's
  organizers) takes its row off;
- the submissions: ``GET submissions/?phase=<id>`` (``SubmissionViewSet.
  get_queryset``: the competition's organizers see every submission; a plain
  list at this commit, DRF's pages where a deployment paginates it) with each
  one's owner (the team), ``created_when`` (UTC, settings/base.py ``USE_TZ``),
  status (``Submission.STATUS_CHOICES``: Finished; Failed and Cancelled failed;
  None, Submitting, Submitted, Preparing, Running, Scoring still running, waited
  for up to ``--wait`` seconds) and ``leaderboard`` (the team's chosen entries
  under the Add rules). The API takes submissions after a phase's end
  (``SubmissionCreationSerializer.validate`` checks registration only): they
  are never entries (organizer/final_record.py);
- the file of a submission: ``get_details`` (``data_file``, a signed storage
  URL, fetched without the token);
- the revealed reference data: a dataset (``DataViewSet.create``, a PUT to the
  signed URL, ``upload_completed``) made the task's reference data by
  ``PATCH tasks/<id>/``. ``TaskViewSet.update`` sets to None each of
  ``ingestion_program``, ``input_data`` and ``reference_data`` that the request
  omits (unless it holds ``is_public``): the PATCH sends the task's current
  ``ingestion_program`` and ``input_data`` back with the new
  ``reference_data``, and the task is read again to check that nothing else
  changed;
- the re-runs: ``re_run_submission`` (organizers: ``has_admin_permission``; a
  finished, failed or cancelled submission) makes a new submission of the same
  owner, data and task, created now (competitions/models.py ``Submission.re_run``),
  scored on the task's reference data when it runs; ``--batch`` are started at
  a time and each is waited for, then the scores Codabench stored
  (``SubmissionScore.score``, ``DecimalField(max_digits=20, decimal_places=10)``)
  must equal the record's to those 10 decimals. Under the Add rules the re-run
  is connected in its team's place, and under ``Add_And_Delete_Multiple`` every
  other row of the team (the sealed ones) is removed;
- the quota: a re-run is created even when the owner's quota is used up
  (``Submission.save(ignore_submission_limit=True)``) but then counts in it:
  ``Phase.can_user_make_submissions`` counts the owner's submissions of the
  phase that did not fail, per day and in total;
- the close: the closed reference data (OUT_closed.zip) becomes the task's the
  same way, and the revealed dataset is deleted (``DataViewSet.destroy``: its
  creator only, once no phase's task uses it: ``check_delete_permissions``,
  ``Data.in_use``; ``Data.delete`` removes the file from storage). Its key then
  gives 404 to anyone (datasets/views.py ``download``, which has no permission
  check and served it until then): checked anonymously. Any run from then on,
  a late submission or a re-run by anyone (``re_run_many_submissions`` checks
  nothing: ``get_queryset`` builds its ValidationError without raising it),
  fails with one line and stores no score (compute_worker/compute_worker.py
  ``run_wrapper``: ``push_scores`` is skipped when the program fails), so no
  strategy moves the board;
- the leaderboard read back: the rows of ``get_leaderboard`` (open to anyone,
  and the same for anyone: ``LeaderboardPhaseSerializer`` does not read the
  request) say which submissions the board shows; their scores are rounded
  there to each column's precision and a hidden column is left out, so each
  row's scores are read from the organizer's ``GET submissions/<id>/`` (the
  stored 10 decimals) and its team is the submission's owner (the public row
  shows a display name).

A second run changes nothing on the platform unless something is missing: the
datasets are named after their content's SHA-256 and reused, the task is
PATCHed only when its reference data is not already the one needed, an entry
is re-run only when no re-run of it (``shown_as`` in the earlier record, or a
later submission of the same owner and file) shows the record's scores where
the rule needs it, and the earlier record's entries stay the teams' choices
under the Add rules (a choice changed after the reveal is reported, not
followed). If a step fails once the answers are uploaded, the phase is closed
before the command stops.

Every answer is checked before it is used (organizer/http_api.py ``need``); the
token goes to the origin of the Codabench address only.
"""
import datetime as dt
import hashlib
import re
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from . import final_record
from .bundle import REFERENCE_ZIP, load_yaml, sorted_phases
from .final_record import FAILED, FINISHED, PENDING, Phase, Row, Submission
from .http_api import DECIMAL, ApiError, Client, RevealError, mapping, need, phase_not_over
from scorer.public import aware_time

RULES = {"Force_Last": "last", "Add": "chosen", "Add_And_Delete": "chosen", "Add_And_Delete_Multiple": "chosen",
         "Force_Best": "best", "Force_Latest_Multiple": "best"}
ADD_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple")
REMOVABLE = ("Add_And_Delete", "Add_And_Delete_Multiple")      # DELETE of a connection allowed
STATUSES = {"Finished": FINISHED, "Failed": FAILED, "Cancelled": FAILED}   # any other: still running
DONE = ("Finished", "Failed", "Cancelled")
DECIMALS = 10          # SubmissionScore.score: DecimalField(max_digits=20, decimal_places=10)
TOLERANCE = 0.5 * 10 ** -DECIMALS + 1e-15
SEALED = -1.0          # scorer/publish/policy.py: every key of a sealed board
PAUSE = 3.0            # seconds between two reads of a running submission
LATE_ENTRY = re.compile(r"its leaderboard entry (\S+) was made after the end")   # final_record.plan's note


@dataclass
class _Sub:
    """A submission as GET submissions/ lists it, checked."""
    id: int
    owner: str
    created: dt.datetime
    status: str             # Codabench's
    filename: str
    on_board: bool
    scores: Dict[str, float] = field(default_factory=dict)


@dataclass
class _Board:
    """The board's phase on Codabench: its ids, end, task, and its own leaderboard."""
    phase: dict
    end: Optional[dt.datetime]
    task_id: int
    leaderboard: int
    rule: str
    primary: str            # the primary column's key
    sorting: str            # the primary column's sorting: desc or asc
    columns: List[str]      # every column's key
    creator: str            # the competition's creator (a hint when the token is another user's)


class Site:
    """Codabench, as organizer/reveal.py's ``Platform``."""

    name = "codabench"
    places = DECIMALS

    def __init__(self, server, token, competition_id, competition_dir, board, batch=10, wait=3600, dry_run=False,
                 early=False, log=print, limits=None, source="the command line", record_dir=None):
        if batch < 1:
            raise RevealError("--batch %d: give the number of submissions re-run at a time, at least 1" % batch)
        if wait < 0:
            raise RevealError("--wait %d: give the seconds to wait for the runs, 0 or more" % wait)
        self.server = server.rstrip("/")
        self.site = self.server
        self.competition = str(competition_id)
        self.client = Client(self.server + "/api/", "Token", token, limits=limits, source=source)
        self.competition_dir, self.board_name = competition_dir, board
        self.batch, self.wait, self.dry_run, self.early, self.log = batch, wait, dry_run, early, log
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self._board_info = None
        self._me = None
        self._listed: List[_Sub] = []
        self._earlier = None

    # -- Platform -------------------------------------------------------------------------------------------------
    def phase(self) -> Phase:
        b = self._board()
        if b.end is None:
            raise RevealError("phase %s (id %d) has no end on Codabench, and the final ranking counts the "
                              "submissions made before it: set the phase's end, then run this again"
                              % (b.phase.get("name"), b.phase["id"]))
        return Phase(id=str(b.phase["id"]), name=str(b.phase.get("name") or ""), end=b.end, platform_rule=b.rule,
                     rule=RULES[b.rule])

    def submissions(self, phase) -> List[Submission]:
        b = self._board()
        self._check_creator()
        not_over = phase_not_over(b.phase.get("end"))
        if not_over and self.dry_run:
            self.log("the phase is not over: %s" % not_over)
        elif not_over and not self.early:
            raise RevealError("phase %s is not over: %s, and once revealed its reference data (which Codabench serves "
                              "to anyone) holds the answers; reveal after its end, or pass --early" % (
                                  b.phase.get("name"), not_over))
        self._earlier = self._earlier_record(phase)
        deadline = time.monotonic() + (0 if self.dry_run else self.wait)
        said = False
        while True:
            listed = self._list()
            running = [s for s in listed if s.status not in STATUSES and s.created < phase.end]
            if not running or time.monotonic() >= deadline:
                break
            if not said:
                self.log("waiting up to %d s for %d submission(s) made before the end that are still running "
                         "(first: %d, %s)" % (self.wait, len(running), running[0].id, running[0].status))
                said = True
            time.sleep(PAUSE)
        if running:
            self.log("%d submission(s) made before the end are still running (first: %d, %s): their team(s) are left "
                     "out as pending (%s); run this again once they have finished" % (
                         len(running), running[0].id, running[0].status,
                         ", ".join(sorted({s.owner for s in running}))))
        self._listed = listed
        chosen = self._chosen(listed, phase)
        return [Submission(str(s.id), s.owner, s.created, STATUSES.get(s.status, PENDING), chosen=s.id in chosen)
                for s in listed]

    def fetch(self, phase, submission, folder, largest):
        path = "submissions/%d/get_details/" % int(submission.id)
        where = self.client.where("GET", path)
        url = need(self.client.get(path), "data_file", str, where, default="")
        if not url:
            raise RevealError("Codabench gives no file for submission %s of %s (get_details has no data_file)" % (
                submission.id, submission.team))
        return self.client.download(url, folder, largest, given=where)

    def show(self, phase, record, reveal_zip, closed_zip):
        b = self._board()
        running = phase_not_over(b.phase.get("end"))
        if running and not self.early:
            raise RevealError("phase %s is not over: %s; reveal after its end, or pass --early" % (
                b.phase.get("name"), running))
        task = self._task()
        names = self._names(reveal_zip, closed_zip)
        shown = self._shown(record)
        try:
            if shown is not None:   # a record without entries still takes the rows it does not hold off the board
                todo = self._verified(record, shown) if shown else []
                if todo:
                    key = self._dataset(reveal_zip, names["reveal"])
                    self._set_reference(task, key, "the revealed reference data %s" % Path(reveal_zip).name)
                    self._rerun(todo, record)
                if b.rule in ADD_RULES:
                    self._connect(shown)
                self._say_leftovers(shown)
        except BaseException:
            self._close_after_failure(names, closed_zip)
            raise
        self._close(self._task(), closed_zip, names)

    def _close_after_failure(self, names, closed_zip):
        """A step failed: if the task holds the revealed answers, the phase is closed before the command stops."""
        try:
            task = self._task()
            if (task.get("reference_data") or {}).get("name") == names["reveal"]:
                self.log("closing the phase before stopping: its reference data holds the answers")
                self._close(task, closed_zip, names)
        except Exception as exc:   # the failure that stopped the reveal is the one reported
            self.log("the phase could not be closed (%s): run this again" % exc)

    def leaderboard(self, phase) -> List[Row]:
        path = "phases/%d/get_leaderboard/" % int(phase.id)
        where = self.client.where("GET", path)
        rows = []
        for row in need(self.client.get(path), "submissions", list, where, default=[]):
            sub_id = need(row, "id", int, where, "a row")
            for score in need(row, "scores", list, where, "a row", default=[]):
                need(score, "score", DECIMAL, where, "a row's score", default=0)
            detail = self._detail(sub_id)
            rows.append(Row(need(detail, "owner", str, self.client.where("GET", "submissions/%d/" % sub_id),
                                 "a submission"), str(sub_id), _scores(detail, where)))
        return rows

    # -- the phase, its leaderboard and task -------------------------------------------------------------------
    def _board(self) -> _Board:
        if self._board_info is not None:
            return self._board_info
        index = board_phase_index(self.competition_dir, self.board_name)
        path = "competitions/%d/" % int(self.competition)
        where = self.client.where("GET", path)
        comp = mapping(self.client.get(path), where)
        phases = [mapping(p, where, "a phase") for p in need(comp, "phases", list, where, default=[])]
        for p in phases:
            need(p, "id", int, where, "a phase")
            need(p, "index", int, where, "a phase", default=0)
            need(p, "end", str, where, "a phase", default=None)
            for task in need(p, "tasks", list, where, "a phase", default=[]):
                need(task, "id", int, where, "a phase's task")
        phases.sort(key=lambda p: p.get("index") or 0)
        if index >= len(phases):
            raise RevealError("competition %s has %d phase(s) on Codabench; competition.yaml puts board %s's phase at "
                              "place %d" % (self.competition, len(phases), self.board_name, index + 1))
        phase = phases[index]
        if len(phase.get("tasks") or []) != 1:
            raise RevealError("phase %s has %d tasks on Codabench; this command reveals a phase of one task (as "
                              "organizer bundle makes them)" % (phase.get("name"), len(phase.get("tasks") or [])))
        path = "phases/%d/" % phase["id"]
        board_id = need(self.client.get(path), "leaderboard", int, self.client.where("GET", path), "the phase")
        boards = {}
        for lb in need(comp, "leaderboards", list, where, default=[]):
            boards[need(lb, "id", int, where, "a leaderboard")] = lb
        if board_id not in boards:
            raise RevealError("phase %s's leaderboard %d is not among competition %s's leaderboards (%s)" % (
                phase.get("name"), board_id, self.competition, ", ".join(str(k) for k in sorted(boards)) or "none"))
        lb = boards[board_id]
        rule = need(lb, "submission_rule", str, where, "a leaderboard", default="Add")
        if rule not in RULES:
            raise RevealError("leaderboard %d's submission_rule is %s, which this command does not know (known: %s)"
                              % (board_id, rule, ", ".join(RULES)))
        primary_index = need(lb, "primary_index", int, where, "a leaderboard", default=0)
        columns = [mapping(c, where, "a column") for c in need(lb, "columns", list, where, "a leaderboard")]
        keys = [need(c, "key", str, where, "a column") for c in columns]
        primary = [c for c in columns if need(c, "index", int, where, "a column") == primary_index]
        if len(primary) != 1:
            raise RevealError("leaderboard %d has no column of index %d, its primary_index" % (board_id, primary_index))
        sorting = need(primary[0], "sorting", str, where, "a column", default="desc")
        end = aware_time(phase["end"]) if phase.get("end") else None
        if phase.get("end") and end is None:
            raise ApiError("%s answered something unexpected: phase %d's end %r is not a date and time with its "
                           "offset" % (where, phase["id"], phase.get("end")))
        self._board_info = _Board(phase, end, phase["tasks"][0]["id"], board_id, rule, primary[0]["key"], sorting,
                                  keys, need(comp, "created_by", str, where, default="?"))
        self.log("phase %s (id %d), leaderboard %d, rule %s" % (phase.get("name"), phase["id"], board_id, rule))
        return self._board_info

    def _user(self):
        if self._me is None:
            where = self.client.where("GET", "my_profile/")
            self._me = need(self.client.get("my_profile/"), "username", str, where, "the profile")
        return self._me

    def _check_creator(self):
        """The token's user is the creator of the phase's task (TaskViewSet.update refuses anyone else but a
        superuser, and get_queryset hides the task from a user it is not shared with): one line if not."""
        b, me = self._board(), self._user()
        task = self._task(missing_ok=True)
        rule = ("Codabench lets only a task's creator or a superuser change it (api/views/tasks.py "
                "TaskViewSet.update), and the reveal sets its reference data")
        if task is None:
            raise RevealError("the token is user %s's, and phase %s's task %d is not shown to %s: %s; run this with "
                              "the token of the task's creator (the competition's creator is %s)" % (
                                  me, b.phase.get("name"), b.task_id, me, rule, b.creator))
        if task["created_by"] != me:
            raise RevealError("the token is user %s's, but phase %s's task %d was created by %s: %s; run this "
                              "with %s's token" % (me, b.phase.get("name"), b.task_id, task["created_by"], rule,
                                                   task["created_by"]))

    def _task(self, missing_ok=False):
        """The phase's task as GET tasks/<id>/ shows it (its data pieces None or {id, name, key}), checked."""
        path = "tasks/%d/" % self._board().task_id
        where = self.client.where("GET", path)
        task = mapping(self.client.call("GET", path, ok=(200, 404) if missing_ok else (200,)), where)
        if missing_ok and task.get("id") is None:
            return None
        need(task, "id", int, where, "the task")
        need(task, "created_by", str, where, "the task")
        for piece in ("ingestion_program", "input_data", "reference_data", "scoring_program"):
            value = need(task, piece, dict, where, "the task", default=None)
            if value is not None:
                need(value, "key", str, where, "the task's " + piece)
                need(value, "name", str, where, "the task's " + piece, default="")
        return task

    # -- the submissions -------------------------------------------------------------------------------------------
    def _list(self) -> List[_Sub]:
        phase_id = self._board().phase["id"]
        path = "submissions/?phase=%d" % phase_id
        where = self.client.where("GET", path)
        out = []
        for sub in self.client.pages(path):
            sub_id = need(sub, "id", int, where, "a submission")
            if need(sub, "phase", int, where, "a submission", default=phase_id) != phase_id:
                raise ApiError("%s answered something unexpected: submission %d is of phase %s, not %d" % (
                    where, sub_id, sub.get("phase"), phase_id))
            if need(sub, "parent", int, where, "a submission", default=None) is not None or \
                    need(sub, "is_specific_task_re_run", bool, where, "a submission", default=False):
                continue   # one task's run of a submission, never an entry of its own
            if need(sub, "has_children", bool, where, "a submission", default=False):
                raise RevealError("submission %d has one run per task; this command reveals phases of one task (as "
                                  "organizer bundle makes them)" % sub_id)
            created = aware_time(need(sub, "created_when", str, where, "a submission"))
            if created is None:
                raise ApiError("%s answered something unexpected: submission %d's created_when %r is not a date "
                               "and time with its offset" % (where, sub_id, sub.get("created_when")))
            out.append(_Sub(sub_id, need(sub, "owner", str, where, "a submission"), created,
                            need(sub, "status", str, where, "a submission", default="None"),
                            need(sub, "filename", str, where, "a submission", default=""),
                            need(sub, "leaderboard", int, where, "a submission", default=None) is not None,
                            _scores(sub, where)))
        out.sort(key=lambda s: (s.created, s.id))
        return out

    def _earlier_record(self, phase):
        """The record an earlier run wrote for this phase and end, or None."""
        if self.record_dir is None or not (self.record_dir / final_record.JSON_NAME).exists():
            return None
        earlier = final_record.read(self.record_dir)
        same = (earlier.platform, earlier.competition, earlier.phase, earlier.phase_end) == (
            self.name, self.competition, str(phase.id), final_record.iso(phase.end))
        return earlier if same else None

    def _chosen(self, listed, phase):
        """The ids of the teams' chosen entries: the leaderboard's rows, but the earlier record's choices for the
        teams it ranked or left out for choosing nothing (a team's entry re-pointed after the reveal is not
        followed: --check reports it), and never a re-run an earlier reveal made."""
        earlier = self._earlier
        ours = {e.shown_as for e in earlier.entries if e.shown_as} if earlier else set()
        chosen = {s.id for s in listed if s.on_board and str(s.id) not in ours}
        if earlier is None:
            return chosen
        frozen = {e.team for e in earlier.entries} | {l.team for l in earlier.left_out if l.reason == "no_entry"}
        keep = set()
        for e in earlier.entries:   # a team whose entry was made after the end: that entry, as the record says
            late = LATE_ENTRY.match(e.note or "")
            keep.add(late.group(1) if late else e.submission)
        owner = {s.id: s.owner for s in listed}
        return {i for i in chosen if owner[i] not in frozen} | \
            {s.id for s in listed if s.owner in frozen and str(s.id) in keep}

    # -- showing the record ----------------------------------------------------------------------------------------
    def _shown(self, record):
        """The entries the leaderboard can be made to show (all, some with one line saying which not), or None with
        the one line saying why it cannot show the record."""
        b = self._board()
        if b.rule == "Force_Latest_Multiple":
            self.log("Codabench cannot show the final ranking on this leaderboard: under Force_Latest_Multiple every "
                     "scored submission stays on it, the sealed -1 rows included, and no one may take a row off it, "
                     "a superuser neither (leaderboards/strategies.py AllModeStrategy; SubmissionViewSet."
                     "submission_leaderboard_connection); nothing is re-run, and the record is the authority")
            return None
        if b.rule == "Force_Best" and b.sorting != "desc":
            self.log("Codabench cannot show the final ranking on this leaderboard: under Force_Best it shows each "
                     "team's best finished submission by %s, which sorts %s, so a sealed row's -1 beats every real "
                     "score (leaderboards/strategies.py BestModeStrategy); nothing is re-run, and the record is the "
                     "authority" % (b.primary, b.sorting))
            return None
        entries = list(record.entries)
        if b.rule == "Force_Best":
            low = [e for e in entries if e.scores.get(record.primary_key, SEALED) <= SEALED]
            if low:
                self.log("Codabench cannot show %d entr%s of the final ranking under Force_Best: %s scores %s or less, "
                         "and the team's sealed -1 rows rank before it (leaderboards/strategies.py BestModeStrategy); "
                         "the record is the authority (first: %s)" % (len(low), "y" if len(low) == 1 else "ies",
                                                                      record.primary_key, SEALED, low[0].team))
                entries = [e for e in entries if e not in low]
        return entries

    def _verified(self, record, entries):
        """The entries still to re-run; the others get ``shown_as``: a re-run of theirs (the earlier record's, or a
        later finished submission of the same owner and file) stores the record's scores, and under a Force rule is
        on the leaderboard."""
        b = self._board()
        earlier = {(e.team, e.submission): e.shown_as for e in (self._earlier.entries if self._earlier else [])}
        by_id = {s.id: s for s in self._listed}
        todo, used = [], set()
        for e in entries:
            original = by_id.get(int(e.submission))
            candidates = [s for s in reversed(self._listed) if original is not None and s.owner == e.team
                          and s.id != original.id and s.created > original.created and s.id not in used
                          and s.filename == original.filename and s.status == "Finished"]
            first = earlier.get((e.team, e.submission))
            candidates.sort(key=lambda s: str(s.id) != first)
            found = next((s for s in candidates if not _differ(s.scores, e.scores, b.columns)
                          and (b.rule in ADD_RULES or s.on_board)), None)
            if found is None:
                todo.append(e)
            else:   # one re-run shows one entry (a team may have chosen the same file twice)
                e.shown_as = str(found.id)
                used.add(found.id)
        if entries:
            self.log("%d entr%s already shown by a re-run, %d to re-run" % (
                len(entries) - len(todo), "y" if len(entries) - len(todo) == 1 else "ies", len(todo)))
        return todo

    def _rerun(self, todo, record):
        """Re-run the entries, ``--batch`` at a time; each re-run's stored scores must be the record's."""
        b = self._board()
        deadline = time.monotonic() + self.wait
        for start in range(0, len(todo), self.batch):
            group = todo[start:start + self.batch]
            started = {}
            for e in group:
                path = "submissions/%d/re_run_submission/" % int(e.submission)
                started[e.submission] = need(self.client.post(path), "id", int, self.client.where("POST", path),
                                             "the re-run")
            for e in group:
                sub = self._wait_for(started[e.submission], deadline, [k for k in b.columns if k in e.scores])
                where = self.client.where("GET", "submissions/%d/" % started[e.submission])
                if sub.get("status") != "Finished":
                    raise RevealError("the re-run %d of %s's submission %s ended %s (%s)" % (
                        started[e.submission], e.team, e.submission, sub.get("status"),
                        sub.get("status_details") or "no details"))
                stored = _scores(sub, where)
                wrong = _differ(stored, e.scores, b.columns)
                if wrong:
                    raise RevealError("the re-run %d of %s's submission %s stored %s, but the record (this program, "
                                      "the same file and reference data) has %s" % (
                                          started[e.submission], e.team, e.submission,
                                          {k: stored.get(k) for k in wrong}, {k: e.scores.get(k) for k in wrong}))
                e.shown_as = str(started[e.submission])
                self.log("%s: submission %s re-run as %s, %s %r" % (e.team, e.submission, e.shown_as,
                                                                  record.primary_key, stored.get(record.primary_key)))

    def _wait_for(self, sub_id, deadline, keys):
        """The submission once it has ended, its scores of ``keys`` have arrived and its scores and place have
        stopped changing between two reads (the worker sets Finished before it sends the scores, which arrive one
        by one: compute_worker.py ``run_wrapper``, api/views/submissions.py ``upload_submission_scores``)."""
        previous, once_more = None, True
        while True:
            sub = self._detail(sub_id)
            status = need(sub, "status", str, self.client.where("GET", "submissions/%d/" % sub_id), "a submission")
            scores = _scores(sub, "")
            if status in DONE:
                seen = (sorted(scores.items()), sub.get("leaderboard"))
                if status != "Finished" or (set(keys) <= set(scores) and seen == previous):
                    return sub
                previous = seen
                if set(keys) <= set(scores) and once_more:   # all there: read once more, even at the deadline
                    once_more = False
                    time.sleep(PAUSE)
                    continue
            if time.monotonic() > deadline:
                raise RevealError("the re-run %d was not finished after --wait %d s (status %s, %d of its %d scores "
                                  "stored); run this again later: it re-runs only what is missing" % (
                                      sub_id, self.wait, status, len(set(keys) & set(scores)), len(keys)))
            time.sleep(PAUSE)

    def _detail(self, sub_id):
        path = "submissions/%d/" % sub_id
        where = self.client.where("GET", path)
        sub = mapping(self.client.get(path), where)
        need(sub, "id", int, where, "a submission")
        need(sub, "status", str, where, "a submission", default=None)
        _scores(sub, where)
        return sub

    def _connect(self, entries):
        """Under the Add rules: each entry's re-run connected in its team's place, and where the rule lets the
        organizer remove a row, every row the record does not hold removed."""
        listed = {s.id: s for s in self._list()}
        wanted = {int(e.shown_as) for e in entries if e.shown_as}
        missing = [i for i in sorted(wanted) if not getattr(listed.get(i), "on_board", False)]
        for sub_id in missing:
            self.client.post("submissions/%d/submission_leaderboard_connection/" % sub_id)
        if missing:
            self.log("connected %d re-run(s) to the leaderboard in their team's place" % len(missing))
            listed = {s.id: s for s in self._list()}
        extra = [s for s in listed.values() if s.on_board and s.id not in wanted]
        if extra and self._board().rule in REMOVABLE:
            for s in extra:
                self.client.call("DELETE", "submissions/%d/submission_leaderboard_connection/" % s.id)
            self.log("removed %d row(s) the final ranking does not hold (%s)" % (
                len(extra), ", ".join("%s's %d" % (s.owner, s.id) for s in extra[:10])))

    def _say_leftovers(self, entries):
        """One line for rows the rule keeps on the leaderboard that the record does not hold."""
        b = self._board()
        if b.rule in REMOVABLE:
            return
        wanted = {int(e.shown_as) for e in entries if e.shown_as}
        extra = [s for s in self._list() if s.on_board and s.id not in wanted]
        if extra:
            # submission_leaderboard_connection refuses DELETE under these rules, a superuser's too (seen on the
            # real Codabench); destroy lets the competition's organizers delete the submission, row and all. Deleting
            # a participant's submission is the organizer's decision, never this command's.
            self.log("the leaderboard keeps %d row(s) the final ranking does not hold (%s): under %s no one may take "
                     "a row off the board, a superuser neither (SubmissionViewSet.submission_leaderboard_connection "
                     "allows DELETE only under Add_And_Delete and Add_And_Delete_Multiple); the competition's "
                     "organizers may delete such a submission itself, which takes its row off (DELETE "
                     "/api/submissions/ID/: SubmissionViewSet.destroy); this command deletes no one's submission, "
                     "and the record is the authority" % (
                         len(extra), ", ".join("%s's %d" % (s.owner, s.id) for s in extra[:10]), b.rule))

    # -- the reference data ------------------------------------------------------------------------------------
    def _names(self, reveal_zip, closed_zip):
        """The datasets' names: unique for a user (DataSerializer.validate), so the content's SHA-256 in the name
        finds a dataset an earlier run uploaded."""
        names = {}
        for what, path in (("reveal", reveal_zip), ("closed", closed_zip)):
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            names[what] = "%s: competition %s, phase %s, board %s, sha256 %s" % (
                "revealed" if what == "reveal" else "closed", self.competition, self._board().phase["id"],
                self.board_name, digest[:16])
        return names

    def _find_dataset(self, name):
        """(id, key, file size) of the token user's dataset named ``name``, or None."""
        path = "datasets/?name=%s" % urllib.parse.quote(name, safe="")
        where = self.client.where("GET", path)
        for data in self.client.pages(path):
            if need(data, "name", str, where, "a dataset", default="") == name and \
                    need(data, "created_by", str, where, "a dataset", default="") == self._user():
                return (need(data, "id", int, where, "a dataset"), need(data, "key", str, where, "a dataset"),
                        need(data, "file_size", DECIMAL, where, "a dataset", default=0))
        return None

    def _dataset(self, zip_path, name):
        """The key of the token user's dataset holding ``zip_path``: the one an earlier run uploaded under
        ``name``, else a new upload."""
        size = Path(zip_path).stat().st_size
        found = self._find_dataset(name)
        if found is not None and found[2] == size:
            return found[1]
        if found is not None:   # an upload that did not complete
            self._delete_dataset(found, name)
        where = self.client.where("POST", "datasets/")
        created = self.client.post("datasets/", {"type": "reference_data", "name": name,
                                                 "request_sassy_file_name": Path(zip_path).name,
                                                 "file_name": Path(zip_path).name[:64], "file_size": size})
        key = need(created, "key", str, where, "the new dataset")
        self.client.put_file(need(created, "sassy_url", str, where, "the new dataset"), zip_path, given=where)
        self.client.put("datasets/completed/%s/" % _segment(key, where))
        self.log("uploaded %s as dataset %s" % (Path(zip_path).name, key))
        return key

    def _set_reference(self, task, key, what):
        """Make ``key`` the task's reference data, every other field kept (TaskViewSet.update empties the data
        fields a request omits: they are sent back as they are); the task read again."""
        if (task.get("reference_data") or {}).get("key") == key:
            return task
        body = {"reference_data": key}
        for piece in ("ingestion_program", "input_data"):
            body[piece] = (task.get(piece) or {}).get("key")
        self.client.patch("tasks/%d/" % task["id"], body)
        after = self._task()
        kept = [p for p in ("ingestion_program", "input_data", "scoring_program")
                if (after.get(p) or {}).get("key") != (task.get(p) or {}).get("key")]
        if (after.get("reference_data") or {}).get("key") != key or kept or after.get("is_public") != \
                task.get("is_public"):
            raise RevealError("task %d after PATCH tasks/%d/: reference data %s (not %s), and %s changed; check the "
                              "task on Codabench" % (task["id"], task["id"], (after.get("reference_data") or {}).get(
                                  "key"), key, ", ".join(kept) or "nothing else"))
        self.log("task %d: its reference data is now %s" % (task["id"], what))
        return after

    def _close(self, task, closed_zip, names):
        """The closed reference data made the task's, then the revealed dataset deleted and checked gone."""
        task = self._set_reference(task, self._dataset(closed_zip, names["closed"]),
                                   "the closed reference data %s: every run from now on fails" % Path(closed_zip).name)
        found = self._find_dataset(names["reveal"])
        if found is None:
            return
        self._delete_dataset(found, names["reveal"])
        if self._downloads(found[1]):
            raise RevealError("the revealed reference data (dataset %s) still downloads after its deletion; delete it "
                              "on Codabench (Resources)" % found[1])
        self.log("deleted the revealed dataset %s: its answers no longer download (checked without a token)"
                 % found[1])

    def _delete_dataset(self, found, name):
        path = "datasets/%d/" % found[0]
        answer = self.client.call("DELETE", path, ok=(200, 204, 400))
        if answer is not None:
            raise RevealError("Codabench refused to delete dataset %s (%s): %s; the answers stay downloadable by its "
                              "key until it is deleted (Resources)" % (found[1], name, need(
                                  answer, "error", str, self.client.where("DELETE", path), default="no reason")))

    def _downloads(self, key):
        """Whether an anonymous visitor still downloads the dataset ``key`` (datasets/views.py ``download``)."""
        url = "%s/datasets/download/%s/" % (self.server, _segment(key, "the dataset"))
        with tempfile.TemporaryDirectory(prefix="reveal-gone-") as folder:
            try:
                self.client.download(url, folder, 2 ** 31, given="the deleted dataset's link")
            except ApiError as exc:
                if " answered 404" in str(exc):
                    return False
                raise
        return True


def board_phase_index(competition_dir, board):
    """The place (0, 1, ...) of ``board``'s phase among the phases of competition.yaml."""
    comp = load_yaml(Path(competition_dir) / "competition.yaml")
    for i, spec in enumerate(sorted_phases(comp)):
        match = REFERENCE_ZIP.match(str((spec or {}).get("reference_data", "")))
        if match and match.group(1) == board:
            return i
    raise RevealError("competition.yaml has no phase whose reference data is reference_data_%s.zip" % board)


def _scores(sub, where):
    """{column key: score} of a submission (Codabench writes a score as a decimal text, Decimal(20, 10))."""
    scores = {}
    for s in need(sub, "scores", list, where, "a submission", default=[]):
        key = need(s, "column_key", str, where, "a score", default=None)
        if key:
            scores[key] = need(s, "score", DECIMAL, where, "a score")
    return scores


def _differ(stored, expected, columns):
    """The leaderboard columns whose stored score is not the record's to 10 decimals (a missing one included)."""
    keys = [k for k in columns if k in expected]
    return [k for k in keys if k not in stored or abs(stored[k] - expected[k]) > TOLERANCE] if keys else ["(none)"]


def _segment(key, where):
    """A key an answer gave, as one segment of a path (whatever it holds, the call stays on the API's path)."""
    return urllib.parse.quote(need({"key": key}, "key", str, where), safe="")
