"""The reveal on Codabench, through its API with the organizer's token: each team's real score on the leaderboard.

    ORGANIZER_TOKEN=... python3 -m organizer reveal COMPETITION_DIR B OUT.zip --codabench https://www.codabench.org
                               --competition ID [--batch 10] [--wait 3600] [--dry-run]

While board B's phase runs its reference data holds no answer, so every
submission got the placeholder -1. After the phase ends, this command (each
step cites the function of codalab/codabench @c7dbc75 it relies on):

1. reads the competition (``CompetitionViewSet``, its detail serializer): the
   phase of board B (the phase's place among the phases of competition.yaml)
   and its leaderboard's ``submission_rule``. Add, Add_And_Delete and
   Add_And_Delete_Multiple let the organizer put a submission on the
   leaderboard; with Force_Last Codabench puts each owner's last scored run
   there itself. Force_Best and Force_Latest_Multiple keep the placeholder rows
   (only a superuser may change those leaderboards: ``SubmissionViewSet.
   submission_leaderboard_connection``), so the command stops and says so;
2. uploads OUT.zip (the board's reference data with its answers) as a
   reference_data dataset (``DataViewSet.create``, a PUT to the signed URL,
   ``upload_completed``) and makes it the phase's task's reference data
   (``TaskViewSet.update``, which empties every data field the request omits:
   they are all sent back);
3. takes the submission each team has on the phase's leaderboard (the one the
   platform's rule put there: the team's choice under Add, its last one under
   Force_Last; ``SubmissionViewSet.get_queryset`` lists a competition's
   submissions to its organizers) and re-runs it, ``--batch`` at a time
   (``SubmissionViewSet.re_run_submission``: open to the competition's
   organizers, no cap; the phase-wide re-run is capped at 30 on the public
   queue and re-runs every submission, ``PhaseViewSet.rerun_submissions``). A
   re-run is a new submission of the same owner, file and phase
   (``Submission.re_run``); it counts toward the owner's quota, which no longer
   matters once the phase has ended;
4. waits for each re-run, downloads the submitted file (``get_details``),
   scores it here with the same program and reference data and checks that
   Codabench stored the same numbers (to its 10 decimals);
5. puts each re-run on the leaderboard in its team's place under the Add rules
   (the connection removes the owner's other entries, and under
   Add_And_Delete_Multiple the placeholder entry is removed by the command);
6. reads the leaderboard back (``PhaseViewSet.get_leaderboard``) and fails
   unless every team's entry is its re-run with the real scores.

Teams without a leaderboard entry in the phase (under Add, a team that never
put a submission on it) get none, as the platform's rule says; the command
lists them. ``--dry-run`` does steps 1 and 3 and prints the plan.

Every answer is checked before it is used (organizer/http_api.py ``need``:
a JSON object where one is expected, an integer id, a number or a decimal text
for a score; anything else ends the command with one line naming the call).
The token goes to the origin of the Codabench address only; the signed storage
URLs (MinIO or S3, another origin) are used without it.
"""
import json
import shutil
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from . import PROGRAM
from .bundle import REFERENCE_ZIP, load_yaml, sorted_phases
from .http_api import DECIMAL, Client, RevealError, listing, mapping, need, phase_not_over
from .rescore import score_here

ADD_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple")
AUTO_RULES = ("Force_Last",)
DONE = ("Finished", "Failed", "Cancelled")
DECIMALS = 10   # Codabench stores scores as Decimal(max_digits=20, decimal_places=10) (leaderboards/models.py)
SEALED = -1.0   # scorer/published.py: every key of a sealed board
LARGEST = 2 ** 31   # bytes of a downloaded submission when the caller gives no cap (score.py's own ceiling)


@dataclass
class Entry:
    owner: str
    submission: int                 # the team's submission on the leaderboard
    revealed: bool = False          # it already holds real scores (a re-run of an earlier reveal)
    rerun: int = 0
    scores: Dict[str, float] = field(default_factory=dict)


@dataclass
class Plan:
    competition: int
    phase: dict
    rule: str
    entries: List[Entry]
    without_entry: List[str]


def board_phase_index(competition_dir, board):
    """The place (0, 1, ...) of ``board``'s phase among the phases of competition.yaml."""
    comp = load_yaml(Path(competition_dir) / "competition.yaml")
    for i, spec in enumerate(sorted_phases(comp)):
        match = REFERENCE_ZIP.match(str((spec or {}).get("reference_data", "")))
        if match and match.group(1) == board:
            return i
    raise RevealError("competition.yaml has no phase whose reference data is reference_data_%s.zip" % board)


def plan(client, competition_id, index, log):
    """Step 1 and 3: the phase, its leaderboard rule and each team's leaderboard submission."""
    path = "competitions/%d/" % competition_id
    where = client.where("GET", path)
    comp = mapping(client.get(path), where)
    phases = [mapping(p, where, "a phase") for p in need(comp, "phases", list, where, default=[])]
    for p in phases:
        need(p, "id", int, where, "a phase")
        need(p, "index", int, where, "a phase", default=0)
        need(p, "end", str, where, "a phase", default=None)
        for task in need(p, "tasks", list, where, "a phase", default=[]):
            _task(task, where) if isinstance(task, dict) else _key(task, where)
        need(p, "leaderboard", (int, str), where, "a phase", default=None)
    phases.sort(key=lambda p: p.get("index") or 0)
    if index >= len(phases):
        raise RevealError("competition %d has %d phase(s) on Codabench; competition.yaml puts the board's phase at "
                          "place %d" % (competition_id, len(phases), index + 1))
    phase = phases[index]
    boards = {}
    for b in need(comp, "leaderboards", list, where, default=[]):
        boards[need(b, "id", (int, str), where, "a leaderboard")] = b
        need(b, "submission_rule", str, where, "a leaderboard", default="Add")
    board = boards.get(phase.get("leaderboard")) or (list(boards.values()) or [{}])[0]
    rule = board.get("submission_rule") or "Add"
    if rule not in ADD_RULES + AUTO_RULES:
        raise RevealError("the leaderboard's submission_rule is %s: Codabench lets only a superuser change such a "
                          "leaderboard (SubmissionViewSet.submission_leaderboard_connection), so each team's "
                          "placeholder row would stay; set the rule to Add or Force_Last (the competition's "
                          "leaderboard settings) and run this again" % rule)
    log("phase %s (id %d), leaderboard rule %s" % (phase.get("name"), phase["id"], rule))
    path = "submissions/?phase=%d" % phase["id"]
    where = client.where("GET", path)
    submissions = client.pages(path)   # a plain list at c7dbc75; DRF's pages where the view is paginated
    chosen, owners = {}, set()
    for sub in submissions:
        _submission(sub, where)
        owners.add(sub["owner"])
        if sub.get("leaderboard") and sub.get("status") == "Finished" and not sub.get("parent"):
            if sub.get("has_children"):
                raise RevealError("submission %s has one run per task; this command reveals phases of one task "
                                  "(as organizer bundle makes them)" % sub["id"])
            scores = stored_scores(sub, where)
            chosen.setdefault(sub["owner"], Entry(sub["owner"], sub["id"], bool(scores) and set(scores.values()) != {SEALED}))
    without = sorted(o for o in owners if o not in chosen)
    log("%d team(s) on the leaderboard; %d with submissions but no leaderboard entry%s" % (
        len(chosen), len(without), (" (%s)" % ", ".join(without[:10])) if without else ""))
    return Plan(competition_id, phase, rule, [chosen[o] for o in sorted(chosen)], without)


def _submission(sub, where):
    """A submission of an answer, checked for the fields the reveal reads."""
    need(sub, "id", int, where, "a submission")
    need(sub, "owner", str, where, "a submission")
    need(sub, "status", str, where, "a submission", default=None)
    need(sub, "scores", list, where, "a submission", default=[])
    need(sub, "leaderboard", (int, str, bool), where, "a submission", default=None)
    need(sub, "parent", (int, str), where, "a submission", default=None)
    need(sub, "has_children", bool, where, "a submission", default=False)
    return sub


def upload_reference(client, phase, reveal_zip, log):
    """Step 2: the reveal zip as a new reference_data dataset of the phase's task(s)."""
    size = Path(reveal_zip).stat().st_size
    name = "%s (revealed %s)" % (Path(reveal_zip).name, time.strftime("%Y-%m-%d %H:%M:%S"))  # names are unique
    where = client.where("POST", "datasets/")
    created = client.post("datasets/", {"type": "reference_data", "name": name,
                                        "request_sassy_file_name": Path(reveal_zip).name,
                                        "file_name": Path(reveal_zip).name, "file_size": size})
    key = need(created, "key", str, where, "the new dataset")
    client.put_file(need(created, "sassy_url", str, where, "the new dataset"), reveal_zip, given=where)
    client.put("datasets/completed/%s/" % _key(key, where))
    for task in phase.get("tasks") or []:   # checked by plan
        if not isinstance(task, dict):
            path = "tasks/%s/" % _key(task, where)
            task = _task(client.get(path), client.where("GET", path))
        body = {"reference_data": key}
        for piece in ("ingestion_program", "input_data", "scoring_program"):
            value = task.get(piece)
            if value:
                body[piece] = value["key"] if isinstance(value, dict) else value
        client.patch("tasks/%d/" % task["id"], body)
        log("task %s: reference data is now %s" % (task.get("name", task["id"]), key))
    return key


def _task(task, where):
    """A task of an answer, checked for its id and the keys of its data."""
    need(task, "id", int, where, "a task")
    for piece in ("ingestion_program", "input_data", "scoring_program"):
        value = need(task, piece, (dict, str), where, "a task", default=None)
        if isinstance(value, dict):
            need(value, "key", str, where, "a task's " + piece)
    return task


def _key(key, where):
    """A key an answer gave, as one segment of a path (whatever it holds, the call stays on the API's path)."""
    return urllib.parse.quote(need({"key": key}, "key", str, where), safe="")


def wait_for(client, sub_id, deadline, pause=3.0):
    """The submission once it has finished and its scores have arrived (the worker sets Finished first:
    compute_worker.py ``run_wrapper`` posts the scores after the status)."""
    previous = None
    path = "submissions/%d/" % sub_id
    while True:
        sub = _submission(client.get(path), client.where("GET", path))
        stored_scores(sub, client.where("GET", path))
        if sub.get("status") in DONE:
            seen = json.dumps([sub.get("scores"), sub.get("leaderboard")], sort_keys=True)
            if sub.get("status") != "Finished" or (sub.get("scores") and seen == previous):
                return sub
            previous = seen
        if time.monotonic() > deadline:
            raise RevealError("submission %d was not finished in time (status %s); run this again later, it "
                              "re-runs only what is missing" % (sub_id, sub.get("status")))
        time.sleep(pause)


def stored_scores(sub, where="the answer"):
    """{column key: score} of a submission (Codabench writes a score as a decimal text, Decimal(20, 10))."""
    scores = {}
    for s in need(sub, "scores", list, where, "a submission", default=[]):
        key = need(s, "column_key", str, where, "a score", default=None)
        if key:
            scores[key] = need(s, "score", DECIMAL, where, "a score")
    return scores


def offline_scores(client, sub_id, ref_dir, work, largest=LARGEST):
    """The scores score.py gives here to the file the submission holds (the same program and reference data)."""
    path = "submissions/%d/get_details/" % sub_id
    where = client.where("GET", path)
    url = need(client.get(path), "data_file", str, where, default="")
    if not url:
        raise RevealError("Codabench gives no file for submission %d (get_details has no data_file)" % sub_id)
    upload = client.download(url, Path(work) / ("s%d" % sub_id), largest, given=where)
    record = score_here(upload, ref_dir, work, Path(work) / ("run%d" % sub_id))
    if record["exit_code"] != 0:
        raise RevealError("submission %d does not score here: %s" % (sub_id, record["error"]))
    return record["scores"]


def reveal(competition_dir, board, reveal_zip, ref_dir, server, token, competition_id, batch=10, wait=3600,
           dry_run=False, early=False, log=print, pause=3.0, limits=None, largest=LARGEST,
           source="the command line"):
    """The whole reveal (the module's steps); returns the entries with their re-runs and scores. ``largest``:
    the most bytes a submission's file may hold (the board's max_submission_mb)."""
    client = Client(server.rstrip("/") + "/api/", "Token", token, limits=limits, source=source)
    index = board_phase_index(competition_dir, board)
    found = plan(client, competition_id, index, log)
    running = phase_not_over(found.phase.get("end"))
    if dry_run:
        for e in found.entries:
            log("%s: submission %d %s" % (e.owner, e.submission, "already revealed" if e.revealed else
                                           "would be re-run"))
        if running:
            log("the phase is not over: %s" % running)
        return found
    if running and not early:
        raise RevealError("phase %s is not over: %s, and once revealed its reference data (which Codabench serves "
                          "to anyone) holds the answers; reveal after its end, or pass --early" % (
                              found.phase.get("name"), running))
    upload_reference(client, found.phase, reveal_zip, log)
    deadline = time.monotonic() + wait
    work = tempfile.mkdtemp(prefix="reveal-")
    try:
        todo = [e for e in found.entries if not e.revealed]
        for e in found.entries:
            if e.revealed:   # an earlier run of this command: checked again, not re-run
                e.rerun = e.submission
                _finish(client, e, found, ref_dir, work, deadline, pause, log, largest)
        for start in range(0, len(todo), max(batch, 1)):
            group = todo[start:start + max(batch, 1)]
            for e in group:
                path = "submissions/%d/re_run_submission/" % e.submission
                e.rerun = need(client.post(path), "id", int, client.where("POST", path), "the re-run")
            for e in group:
                _finish(client, e, found, ref_dir, work, deadline, pause, log, largest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _check_leaderboard(client, found, log)
    return found


def _finish(client, e, found, ref_dir, work, deadline, pause, log, largest=LARGEST):
    sub = wait_for(client, e.rerun, deadline, pause)
    if sub.get("status") != "Finished":
        raise RevealError("the re-run %d of %s's submission %d ended %s (%s)" % (
            e.rerun, e.owner, e.submission, sub.get("status"), sub.get("status_details") or "no details"))
    e.scores = stored_scores(sub)
    expected = offline_scores(client, e.rerun, ref_dir, work, largest)
    wrong = [k for k, v in e.scores.items() if k in expected and abs(v - round(expected[k], DECIMALS)) > 10 ** -DECIMALS]
    if wrong or not e.scores:
        raise RevealError("the re-run %d of %s's submission stored %s, but the same program scores its file %s here" % (
            e.rerun, e.owner, {k: e.scores.get(k) for k in wrong} or "no score",
            {k: expected.get(k) for k in wrong}))
    if found.rule in ADD_RULES and e.rerun != e.submission:
        client.post("submissions/%d/submission_leaderboard_connection/" % e.rerun)
        if found.rule == "Add_And_Delete_Multiple":   # this rule keeps the owner's other entries
            client.call("DELETE", "submissions/%d/submission_leaderboard_connection/" % e.submission)
    log("%s: submission %d %s, scores %s" % (e.owner, e.submission, "already revealed" if e.revealed else
                                             "re-run as %d" % e.rerun, json.dumps(e.scores)))


def _check_leaderboard(client, found, log):
    path = "phases/%d/get_leaderboard/" % found.phase["id"]
    where = client.where("GET", path)
    shown = {}
    for row in need(client.get(path), "submissions", list, where, default=[]):
        shown[need(row, "id", int, where, "a row")] = row
        for s in need(row, "scores", list, where, "a row", default=[]):
            need(s, "score", DECIMAL, where, "a row's score", default=0)
    missing = [e for e in found.entries if e.rerun not in shown]
    if missing:
        raise RevealError("the leaderboard does not show the re-run of %d team(s) (first: %s, re-run %d); under "
                          "rule %s" % (len(missing), missing[0].owner, missing[0].rerun, found.rule))
    placeholders = [row for row in shown.values()
                    if all(float(s.get("score") or 0) == -1.0 for s in row.get("scores") or [{}])]
    if placeholders:
        raise RevealError("the leaderboard still shows %d placeholder row(s) (first: %s)" % (
            len(placeholders), placeholders[0].get("owner")))
    log("the leaderboard shows the real scores of all %d team(s)" % len(found.entries))
