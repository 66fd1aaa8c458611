"""Codabench's and EvalAI's web APIs as far as the organizer's reveal uses them, served on 127.0.0.1 for the tests.

Each route does what the cited function of the platform's source does to its
state (only the fields the reveal reads or writes); the scoring runs are the
project's scoring program run as the platform's worker runs it
(platform_workers.py). A real run against a local Codabench (docs/organizers.md)
checks the same reveal end to end.

Codabench, codalab/codabench @c7dbc756 (paths under src/apps/; each route also checked on a Codabench run from
that commit, docs/organizers.md "Codabench"):
- who asks: TokenAuthentication, no header an anonymous visitor; org1 created the competition and its tasks, org2
  is a collaborator (``Competition.all_organizers``), admin a superuser, the others participants;
- GET competitions/<id>/ (api/serializers/competitions.py ``CompetitionDetailSerializer``: phases as
  ``PhaseDetailSerializer``, with task instances and no leaderboard; the leaderboards with submission_rule and
  columns); GET phases/<id>/ (``PhaseSerializer``: the phase's ``leaderboard``; ``PhaseViewSet``, no permission);
- GET my_profile/ (api/views/profiles.py ``GetMyProfile``: the username);
- GET tasks/<id>/ (api/views/tasks.py ``TaskViewSet.get_queryset``: its creator, the users it is shared with, or
  anyone if public, else 404; ``TaskDetailSerializer``); PATCH tasks/<id>/ (``TaskViewSet.update``: 403 "Cannot
  update a task that is not yours" but for the creator or a superuser; without ``is_public`` in the request each
  of ingestion_program, input_data and reference_data that it omits becomes None);
- POST datasets/ (api/views/datasets.py ``DataViewSet.create``: file_size required; a name unique for its user,
  ``DataSerializer.validate``) -> a key and a signed upload URL; PUT to it; PUT datasets/completed/<key>/
  (``upload_completed``: its creator); GET datasets/?name= (the user's and the public ones, ``BasicPagination``,
  10 a page); DELETE datasets/<id>/ (``DataViewSet.destroy``: its creator, not while a task of a phase uses it:
  ``check_delete_permissions``, ``Data.in_use``; ``Data.delete`` removes the file); GET /datasets/download/<key>/
  (datasets/views.py ``download``: anyone, a redirect to the file; 404 once deleted);
- submissions: made by the test (``SubmissionCreationSerializer.validate`` checks registration, not the phase's
  end) at the fake's clock; GET submissions/?phase=<id>, GET submissions/<id>/, get_details/
  (``SubmissionViewSet.get_queryset``: organizers and superusers see every one, a participant its own, an
  anonymous visitor the finished ones on a leaderboard; a plain list newest first, DRF pages with ``page_size``);
- POST submissions/<id>/re_run_submission/ (organizers: ``has_admin_permission``; finished, failed or cancelled
  only) and POST submissions/re_run_many_submissions/ (anyone logged in: ``get_queryset`` builds its
  ValidationError and never raises it): competitions/models.py ``Submission.re_run``, a new submission of the same
  owner, data and task, created now, run at once on the task's reference data as it is then;
- a run (compute_worker/compute_worker.py ``run_wrapper``): a program that fails sends no scores; scores that
  arrive are stored to 10 decimals for the leaderboard's columns and go through the rule's strategy
  (api/views/submissions.py ``upload_submission_scores``; leaderboards/strategies.py: Force_Last clears the owner's
  rows and puts the run there, Force_Best puts the owner's best finished submission there by the columns in order
  then the earliest, Force_Latest_Multiple adds the run, the Add rules nothing);
- POST and DELETE submissions/<id>/submission_leaderboard_connection/ (the owner, organizers or a superuser; 403
  under the Force rules but for a superuser; POST clears the owner's other rows except under
  Add_And_Delete_Multiple; DELETE only under Add_And_Delete and Add_And_Delete_Multiple; no end check);
- GET phases/<id>/get_leaderboard/ (``PhaseViewSet.get_leaderboard``, anyone: the phase's submissions on its
  leaderboard whatever their status, each score rounded to its column's precision, hidden columns left out, the
  owner's display name where it has one).

EvalAI, Cloud-CV/EvalAI @0f04039 (FakeEvalAI; apps/challenges/views.py, apps/jobs/views.py, apps/jobs/utils.py,
apps/hosts/views.py, scripts/workers/submission_worker.py):
- GET challenges/challenge/<c>/ (``get_challenge_by_pk``: its end, host team, banned_email_ids);
- GET hosts/challenge_host_team/ (``challenge_host_team_list``: the caller's host teams and their members);
- GET challenges/challenge/<c>/challenge_phase (``challenge_phase_list``, paginated; non-hosts see public phases);
- GET and PATCH challenges/challenge/<c>/challenge_phase/<p> (``challenge_phase_detail``: hosts read its
  test_annotation URL; a multipart PATCH replaces the annotation, which the worker reads only when it loads the
  challenge, ``load_challenge``);
- GET challenges/<c>/challenge_phase_split (``challenge_phase_split_list``: hosts see every split);
- GET and PATCH challenges/challenge/create/challenge_phase_split/<id>/ (``get_or_update_challenge_phase_split``:
  a PATCH from a member of any host team, ``get_challenge_host_required_error``); GET
  challenges/challenge/create/leaderboard/<id>/ (``get_or_update_leaderboard``);
- GET challenges/<c>/challenge_phase/<p>/submissions (``get_all_submissions_of_challenge``: hosts every submission
  not deleted, ``ChallengeSubmissionManagementSerializer``; participants their own; paginated);
- PATCH jobs/challenges/<c>/submissions/<s>/update_submission_meta/ (``update_submission_meta``: a host any
  submission, a participant his own, any field of ``SubmissionSerializer``, no date check);
- PATCH jobs/challenge/<c>/challenge_phase/<p>/submission/<s> (``change_submission_data_and_visibility``: an active
  challenge; one public submission a team where the phase is restricted to one);
- PUT jobs/challenge/<c>/update_submission/ (``update_submission``: hosts; the result file becomes
  ``str(public_results)``, completed_at now);
- PATCH jobs/leaderboard_data/<id>/ (``update_leaderboard_data``: hosts; every label, numbers);
- POST jobs/submissions/<id>/re-run/ (``re_run_submission``, ``handle_submission_rerun``: an active challenge;
  the old submission cancelled, a new one with the same submitted_at, run on the worker's annotation);
- GET jobs/challenge_phase_split/<id>/leaderboard/ and jobs/phase_split/<id>/public_leaderboard_all_entries/
  (``leaderboard``, ``get_all_entries_on_public_leaderboard``: apps/jobs/utils.py
  ``calculate_distinct_sorted_leaderboard_data``, paginated);
- submissions and runs (the test's set-up): ``challenge_submission``'s checks (an active challenge and phase,
  ``is_public`` from ``is_submission_public``), ``run_submission`` (rows made, earlier ones disabled; the result
  file ``json.dumps(submission_result)``).
"""
import copy
import datetime as dt
import io
import json
import re
import threading
import time
import zipfile
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from platform_workers import run_codabench

AUTO_RULES = ("Force_Last", "Force_Best", "Force_Latest_Multiple")
ENDED = "2026-01-01T00:00:00Z"   # the tests reveal phases that are over, unless they say otherwise


class Refused(Exception):
    def __init__(self, status, body):
        super().__init__(status)
        self.status, self.body = status, body


class Reply:
    """An answer a route gives as it is (a hostile server's, tests/test_reveal_client.py): any status and headers,
    the body in ``chunks`` (an iterable of bytes, sent one after the other with ``pause`` seconds between: a large
    body generated on the fly, or a trickle); ``raw``: the whole response's bytes (status line and headers
    included), one byte every ``pause`` seconds. Without a Content-Length header the body ends when the connection
    closes (HTTP/1.0)."""

    def __init__(self, status=200, body=b"", headers=(), chunks=None, pause=0.0, raw=None):
        self.status, self.headers, self.pause, self.raw = status, list(headers), pause, raw
        self.sent = 0   # bytes of ``raw`` written before the client went away
        self.chunks = [body] if chunks is None else chunks
        if chunks is None and not any(k.lower() == "content-length" for k, _ in self.headers):
            self.headers.append(("Content-Length", str(len(body))))

    def send(self, handler):
        try:
            if self.raw is not None:
                for i in range(len(self.raw)):
                    handler.wfile.write(self.raw[i:i + 1])
                    handler.wfile.flush()
                    self.sent += 1
                    time.sleep(self.pause)
                return
            handler.send_response(self.status)
            for key, value in self.headers:
                handler.send_header(key, value)
            handler.end_headers()
            for chunk in self.chunks:
                handler.wfile.write(chunk)
                handler.wfile.flush()
                if self.pause:
                    time.sleep(self.pause)
        except (BrokenPipeError, ConnectionResetError):   # the client stopped reading: what it should do
            pass


class FakeServer:
    """A threaded HTTP server dispatching to ``self.routes``: [(method, regex, handler(match, query, body))]; a
    handler may return a ``Reply``. ``seen`` keeps every request: (method, path with its query, headers)."""

    def __init__(self):
        self.routes, self.calls, self.storage, self.seen = [], [], {}, []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _serve(self, method):
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.calls.append((method, url.path))
                fake.seen.append((method, self.path, dict(self.headers), time.monotonic()))
                status, body, kind = fake.dispatch(method, url.path, parse_qs(url.query), raw,
                                                   self.headers.get("Authorization", ""))
                if isinstance(body, Reply):
                    body.send(self)
                    return
                data = body if isinstance(body, bytes) else json.dumps(body, default=str).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

            def do_PUT(self):
                self._serve("PUT")

            def do_PATCH(self):
                self._serve("PATCH")

            def do_DELETE(self):
                self._serve("DELETE")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def dispatch(self, method, path, query, raw, authorization):
        if path.startswith("/storage/"):
            key = path[len("/storage/"):]
            if method == "PUT":
                self.storage[key] = raw
                return 200, b"", "text/plain"
            if key not in self.storage:
                return 404, b"", "text/plain"
            return 200, self.storage[key], "application/octet-stream"
        for verb, pattern, handler in self.routes:
            match = re.fullmatch(pattern, path)
            if verb == method and match:
                try:
                    self.authorize(authorization)
                    body = json.loads(raw.decode("utf-8")) if raw else None
                    return 200, handler(match, query, body), "application/json"
                except Refused as exc:
                    return exc.status, exc.body, "application/json"
        return 404, {"detail": "Not found."}, "application/json"

    def authorize(self, authorization):
        raise NotImplementedError

    def signed(self, data=None):
        key = uuid.uuid4().hex
        if data is not None:
            self.storage[key] = data
        return key, "%s/storage/%s" % (self.url, key)


class FakeCodabench(FakeServer):
    """One competition of a v1 bundle imported into Codabench: users, phases, tasks, datasets, one leaderboard and
    submissions, with the permissions and side effects of the functions cited in the module's docstring.

    ``columns``: the leaderboard's columns ({key, sorting, precision, hidden}); ``now``: the time a participant's
    submission is created at (each one a second later; None: the real time), re-runs are created at the real time,
    as ``Submission.re_run`` creates them "now"; ``page_size``: list the submissions in DRF's pages of that size
    (c7dbc756 gives a plain list)."""

    USERS = ("org1", "org2", "admin", "alice", "bob", "carol", "dave")

    def __init__(self, bundle_files, phases, program_zip, rule="Add", token="org-token", work=None, columns=None,
                 end=ENDED, page_size=None):
        super().__init__()
        self.token, self.program, self.work, self.page_size = token, program_zip, Path(work), page_size
        self.users = {name: {"username": name, "superuser": name == "admin", "display_name": None}
                      for name in self.USERS}
        self.users["alice"]["display_name"] = "Alice's team"   # the public row shows it, not the owner
        self.tokens = {"%s-token" % name: name for name in self.USERS}
        self.tokens[token] = "org1"
        self.collaborators = {"org2"}
        self.datasets, self.tasks, self.phases, self.subs = {}, {}, {}, {}
        self.leaderboards = {1: {"id": 1, "title": "Results", "key": "results", "hidden": False, "primary_index": 0,
                                 "submission_rule": rule, "columns": [
                                     dict({"index": i, "hidden": False, "precision": 4, "sorting": "desc"}, **c)
                                     for i, c in enumerate(columns or [{"key": "score"}])]}}
        self.now = _time(end) - dt.timedelta(days=30)
        self._local = threading.local()
        program = self.dataset(program_zip, "scoring_program")
        for index, reference_zip in enumerate(phases):
            task = {"id": index + 1, "key": "task-%d" % (index + 1), "name": "phase %d Task" % (index + 1),
                    "created_by": "org1", "is_public": False, "shared_with": [], "scoring_program": program,
                    "reference_data": self.dataset(reference_zip, "reference_data"),
                    # a task of an imported bundle has neither; these show that the reveal's PATCH keeps them
                    "ingestion_program": self.dataset(b"PK\x05\x06" + b"\x00" * 18, "ingestion_program"),
                    "input_data": self.dataset(b"PK\x05\x06" + b"\x00" * 18, "input_data")}
            self.tasks[task["id"]] = task
            self.phases[index + 1] = {"id": index + 1, "index": index, "name": "phase %d" % (index + 1),
                                      "start": "2025-01-01T00:00:00Z", "end": end, "tasks": [task["id"]],
                                      "leaderboard": 1}
        r = self.routes
        r.append(("GET", r"/api/competitions/1/", self.competition))
        r.append(("GET", r"/api/phases/(\d+)/", self.get_phase))
        r.append(("GET", r"/api/my_profile/", self.my_profile))
        r.append(("POST", r"/api/datasets/", self.create_dataset))
        r.append(("PUT", r"/api/datasets/completed/([\w-]+)/", self.upload_completed))
        r.append(("GET", r"/api/datasets/", self.list_datasets))
        r.append(("DELETE", r"/api/datasets/(\d+)/", self.delete_dataset))
        r.append(("GET", r"/datasets/download/([\w-]+)/", self.download))
        r.append(("GET", r"/api/tasks/(\d+)/", self.get_task))
        r.append(("PATCH", r"/api/tasks/(\d+)/", self.update_task))
        r.append(("GET", r"/api/submissions/", self.list_submissions))
        r.append(("GET", r"/api/submissions/(\d+)/", self.get_submission))
        r.append(("GET", r"/api/submissions/(\d+)/get_details/", self.details))
        r.append(("POST", r"/api/submissions/(\d+)/re_run_submission/", self.re_run))
        r.append(("POST", r"/api/submissions/re_run_many_submissions/", self.re_run_many))
        r.append(("POST", r"/api/submissions/(\d+)/submission_leaderboard_connection/", self.connect))
        r.append(("DELETE", r"/api/submissions/(\d+)/submission_leaderboard_connection/", self.disconnect))
        r.append(("GET", r"/api/phases/(\d+)/get_leaderboard/", self.leaderboard))

    # -- who asks ------------------------------------------------------------------------------------------------
    def authorize(self, authorization):
        """TokenAuthentication: no header is an anonymous visitor; an unknown token is refused (401)."""
        if authorization and not authorization.startswith("Token ") or \
                authorization and authorization[len("Token "):] not in self.tokens:
            raise Refused(401, {"detail": "Invalid token."})
        self._local.user = self.tokens[authorization[len("Token "):]] if authorization else None

    @property
    def user(self):
        return getattr(self._local, "user", None)

    def _logged_in(self):
        if self.user is None:
            raise Refused(403, {"detail": "Authentication credentials were not provided."})
        return self.user

    def _admin(self, user=None):
        """has_admin_permission: a superuser or one of the competition's organizers."""
        user = user or self.user
        return user is not None and (self.superuser(user) or user == "org1" or user in self.collaborators)

    def superuser(self, user):
        return self.users.get(user, {}).get("superuser", False)

    # -- participants' side (the test's set-up) -----------------------------------------------------
    def tick(self):
        if self.now is None:
            return dt.datetime.now(dt.timezone.utc)
        self.now += dt.timedelta(seconds=1)
        return self.now

    def dataset(self, data, kind, owner="org1", name=None):
        key = str(uuid.uuid4())
        self.storage[key] = data
        self.datasets[key] = {"id": len(self.datasets) + 1, "key": key, "type": kind, "created_by": owner,
                              "name": name or "%s @ %d" % (kind, len(self.datasets) + 1), "is_public": False,
                              "file_size": float(len(data))}
        return key

    def submit(self, owner, phase, upload, filename="submission.zip"):
        """A participant's submission (SubmissionCreationSerializer.validate checks registration only, not the
        phase's end), created at ``tick()``, scored now as the compute worker scores it."""
        sub = {"id": len(self.subs) + 1, "owner": owner, "phase": phase, "status": "Submitting", "scores": {},
               "data": self.dataset(upload, "submission", owner), "leaderboard": None, "parent": None,
               "has_children": False, "created": self.tick(), "filename": filename, "stderr": ""}
        self.subs[sub["id"]] = sub
        self.run(sub)
        return sub["id"]

    def run(self, sub):
        """compute_worker.py ``run_wrapper``: the task's reference data as it is when the run starts; a failed
        program sends no scores; scores that arrive go through the rule's strategy."""
        task = self.tasks[self.phases[sub["phase"]]["tasks"][0]]
        reference = self.storage.get(task["reference_data"]) if task["reference_data"] else None
        if reference is None:
            sub["status"] = "Failed"
            return
        run = run_codabench(self.work / ("run%d" % sub["id"]), self.storage[task["scoring_program"]], reference,
                            self.storage[sub["data"]])
        sub["stderr"] = run.stderr
        if run.returncode:
            sub["status"] = "Failed"
            return
        self.scored(sub, json.loads(run.output_zip["scores.json"]))

    def scored(self, sub, scores):
        """upload_submission_scores: each leaderboard column's score as Decimal(20, 10), then the strategy."""
        keys = [c["key"] for c in self.leaderboards[1]["columns"]]
        sub["scores"] = {k: "%.10f" % float(v) for k, v in scores.items() if k in keys}
        sub["status"] = "Finished"
        self.strategy(sub)

    def strategy(self, sub):
        """leaderboards/strategies.py, by the leaderboard's submission_rule."""
        rule = self.leaderboards[1]["submission_rule"]
        same = [s for s in self.subs.values() if s["owner"] == sub["owner"] and s["phase"] == sub["phase"]]
        if rule == "Force_Last":                       # LastestModeStrategy
            for s in same:
                s["leaderboard"] = None
            sub["leaderboard"] = 1
        elif rule == "Force_Latest_Multiple":          # AllModeStrategy
            sub["leaderboard"] = 1
        elif rule == "Force_Best":                     # BestModeStrategy._choose_best_submission
            for s in same:
                s["leaderboard"] = None
            columns = sorted(self.leaderboards[1]["columns"],
                             key=lambda c: (c["index"] != self.leaderboards[1]["primary_index"], c["index"]))

            def order(s):
                return [(-1 if c["sorting"] == "desc" else 1) * float(s["scores"].get(c["key"], 0)) for c in columns] \
                    + [s["created"]]
            best = min([s for s in same if s["status"] == "Finished"], key=order)
            best["leaderboard"] = 1
        # Add, Add_And_Delete, Add_And_Delete_Multiple: ManualModeStrategy, nothing

    def add(self, sub_id):
        """The owner puts a submission on the leaderboard (as the connection below does)."""
        self._local.user = self.subs[sub_id]["owner"]
        self.connect(re.match(r"(\d+)", str(sub_id)), {}, None)

    # -- the API ---------------------------------------------------------------------------------------
    def _task_detail(self, task):
        """TaskDetailSerializer: the data pieces as {id, type, name, key}."""
        def piece(key):
            d = self.datasets.get(key) if key else None
            return None if d is None else {k: d[k] for k in ("id", "type", "name", "key")}
        return dict({k: task[k] for k in ("id", "key", "name", "created_by", "is_public", "shared_with")},
                    **{p: piece(task[p]) for p in ("ingestion_program", "input_data", "reference_data",
                                                   "scoring_program")})

    def _data_detail(self, d):
        """DataDetailSerializer; in_use: the competitions whose phases' tasks use it (Data.in_use)."""
        used = any(d["key"] in (t["ingestion_program"], t["input_data"], t["reference_data"], t["scoring_program"])
                   for t in self.tasks.values())
        return dict(d, value=d["key"], in_use=[{"pk": 1, "title": "the competition"}] if used else [])

    def competition(self, m, q, b):
        """CompetitionDetailSerializer: phases (PhaseDetailSerializer: no leaderboard field) and leaderboards."""
        phases = []
        for p in self.phases.values():
            task = self.tasks[p["tasks"][0]]
            phases.append(dict({k: v for k, v in p.items() if k not in ("leaderboard", "tasks")}, tasks=[
                {"task": task["key"], "id": task["id"], "key": task["key"], "name": task["name"], "phase": p["id"],
                 "public_datasets": [self._data_detail(self.datasets[task[k]]) for k in
                                     ("input_data", "reference_data", "ingestion_program", "scoring_program")
                                     if task[k] in self.datasets]}]))
        return {"id": 1, "created_by": "org1", "phases": phases, "leaderboards": list(self.leaderboards.values())}

    def get_phase(self, m, q, b):
        """PhaseSerializer: the phase's leaderboard and its tasks' keys (PhaseViewSet: no permission)."""
        p = self.phases[int(m.group(1))]
        return dict(p, tasks=[self.tasks[t]["key"] for t in p["tasks"]])

    def my_profile(self, m, q, b):
        return {"username": self._logged_in(), "name": None, "email": "%s@example.org" % self.user}

    def create_dataset(self, m, q, body):
        user = self._logged_in()
        if not body.get("file_size"):
            raise Refused(400, {"file_size": "This field is required."})
        if any(d["name"] == body.get("name") and d["created_by"] == user for d in self.datasets.values()):
            raise Refused(400, {"non_field_errors": ["You already have a dataset by this name, please delete that "
                                                     "dataset or rename this one"]})
        key = self.dataset(b"", body.get("type"), user, body.get("name"))
        return {"key": key, "sassy_url": "%s/storage/%s" % (self.url, key)}   # 201 on Codabench

    def upload_completed(self, m, q, b):
        d = self.datasets.get(m.group(1))
        if d is None or d["created_by"] != self.user:
            raise Refused(404, {"detail": "Not found."})
        d["file_size"] = float(len(self.storage.get(d["key"], b"")))
        return {"key": d["key"]}

    def list_datasets(self, m, q, b):
        """DataViewSet.list: the user's and the public datasets, filtered by name, 10 a page (BasicPagination)."""
        user = self._logged_in()
        found = [self._data_detail(d) for d in sorted(self.datasets.values(), key=lambda d: -d["id"])
                 if (d["is_public"] or d["created_by"] == user) and ("name" not in q or d["name"] == q["name"][0])]
        return self.page(found, q, 10, "/api/datasets/")

    def delete_dataset(self, m, q, b):
        """DataViewSet.destroy: the user's (or a public) dataset, deleted by its creator when no task uses it;
        Data.delete removes its file."""
        user = self._logged_in()
        d = next((d for d in self.datasets.values() if d["id"] == int(m.group(1))), None)
        if d is None or not (d["is_public"] or d["created_by"] == user):
            raise Refused(404, {"detail": "Not found."})
        if d["created_by"] != user:
            raise Refused(400, {"error": "Cannot delete a dataset that is not yours"})
        if self._data_detail(d)["in_use"]:
            raise Refused(400, {"error": "Cannot delete dataset: dataset is in use"})
        del self.datasets[d["key"]]
        self.storage.pop(d["key"], None)
        return Reply(204)

    def download(self, m, q, b):
        """datasets/views.py ``download``: anyone, to a signed storage URL."""
        if m.group(1) not in self.datasets:
            raise Refused(404, b"<h1>Not Found</h1>")
        return Reply(302, headers=[("Location", "%s/storage/%s" % (self.url, m.group(1))), ("Content-Length", "0")])

    def get_task(self, m, q, b):
        """TaskViewSet.retrieve: its creator, the users it is shared with, anyone if public; else 404."""
        task = self.tasks.get(int(m.group(1)))
        if task is None or not (task["is_public"] or self.user == task["created_by"] or
                                self.user in task["shared_with"]):
            raise Refused(404, {"detail": "No Task matches the given query."})
        return self._task_detail(task)

    def update_task(self, m, q, body):
        """TaskViewSet.update: its creator or a superuser; without is_public, each data field the request omits
        becomes None (the scoring program excepted); the answer is TaskSerializer's (keys)."""
        task = self.tasks[int(m.group(1))]
        user = self._logged_in()
        if user != task["created_by"] and not self.superuser(user):
            raise Refused(403, {"detail": "Cannot update a task that is not yours"})
        for piece in ("ingestion_program", "input_data", "reference_data", "scoring_program"):
            if body.get(piece) is not None and body[piece] not in self.datasets:
                raise Refused(400, {piece: ["Object with key=%s does not exist." % body[piece]]})
        if "is_public" not in body:
            for piece in ("ingestion_program", "input_data", "reference_data"):
                if piece not in body:
                    task[piece] = None
        for piece in ("ingestion_program", "input_data", "reference_data", "scoring_program", "is_public"):
            if piece in body:
                task[piece] = body[piece]
        return dict({k: task[k] for k in ("id", "key", "name", "is_public")}, created_by=2,
                    **{p: task[p] for p in ("ingestion_program", "input_data", "reference_data", "scoring_program")})

    def _visible(self, sub):
        """SubmissionViewSet.get_queryset on a GET: anonymous visitors see finished leaderboard submissions; a
        user its own, the competition's organizers (and superusers) every one."""
        if self.user is None:
            return bool(sub["leaderboard"]) and sub["status"] == "Finished"
        return self._admin() or sub["owner"] == self.user

    def view(self, sub):
        """SubmissionSerializer."""
        task = self.tasks[self.phases[sub["phase"]]["tasks"][0]]
        return {"id": sub["id"], "pk": sub["id"], "owner": sub["owner"], "phase": sub["phase"],
                "status": sub["status"], "status_details": None, "filename": sub["filename"],
                "created_when": sub["created"].isoformat().replace("+00:00", "Z"), "parent": sub["parent"],
                "has_children": sub["has_children"], "is_specific_task_re_run": False, "children": [],
                "leaderboard": sub["leaderboard"], "on_leaderboard": bool(sub["leaderboard"]),
                "scores": [{"index": i, "column_key": k, "score": v} for i, (k, v) in enumerate(sub["scores"].items())],
                "task": {"id": task["id"], "key": task["key"], "created_by": 2,
                         "reference_data": task["reference_data"]}}

    def page(self, items, q, size, path):
        """DRF's PageNumberPagination: results and an absolute next link."""
        number = int(q.get("page", ["1"])[0])
        rest = "".join("&%s=%s" % (k, v[0]) for k, v in sorted(q.items()) if k != "page")
        more = len(items) > number * size
        return {"count": len(items), "previous": None, "results": items[(number - 1) * size:number * size],
                "next": "%s%s?page=%d%s" % (self.url, path, number + 1, rest) if more else None}

    def list_submissions(self, m, q, b):
        phase = int(q["phase"][0])
        found = [self.view(s) for s in sorted(self.subs.values(), key=lambda s: -s["id"])
                 if s["phase"] == phase and self._visible(s)]
        return self.page(found, q, self.page_size, "/api/submissions/") if self.page_size else found

    def get_submission(self, m, q, b):
        sub = self.subs.get(int(m.group(1)))
        if sub is None or not self._visible(sub):
            raise Refused(404, {"detail": "Not found."})
        return self.view(sub)

    def details(self, m, q, b):
        sub = self.subs[int(m.group(1))]
        if not self._visible(sub):
            raise Refused(404, {"detail": "Not found."})
        return {"data_file": "%s/storage/%s" % (self.url, sub["data"])}

    def _re_run(self, old):
        """Submission.re_run: a new submission of the same owner, data and task, created now, run now."""
        sub = dict(old, id=len(self.subs) + 1, status="Submitting", scores={}, leaderboard=None,
                   created=dt.datetime.now(dt.timezone.utc))
        self.subs[sub["id"]] = sub
        self.run(sub)
        return sub["id"]

    def re_run(self, m, q, b):
        """re_run_submission: organizers (has_admin_permission); a finished, failed or cancelled submission."""
        old = self.subs[int(m.group(1))]
        if not self._admin():
            raise Refused(403, {"detail": "You do not have permission to re-run submissions"})
        if old["status"] not in ("Finished", "Failed", "Cancelled"):
            raise Refused(403, {"detail": "Cannot request a re-run on a submission that has not finished processing."})
        return {"id": self._re_run(old)}

    def re_run_many(self, m, q, body):
        """re_run_many_submissions: anyone logged in, any submission (get_queryset builds its ValidationError and
        never raises it); finished, failed or cancelled ones are re-run."""
        self._logged_in()
        for sub_id in body:
            if self.subs[int(sub_id)]["status"] in ("Finished", "Failed", "Cancelled"):
                self._re_run(self.subs[int(sub_id)])
        return {}

    def connect(self, m, q, b):
        """submission_leaderboard_connection, POST: a superuser, the owner or an organizer; not under a Force rule
        but for a superuser; clears the owner's other rows of the phase unless Add_And_Delete_Multiple."""
        sub = self.subs[int(m.group(1))]
        rule = self.leaderboards[1]["submission_rule"]
        if not (self._admin() or self.user == sub["owner"]):
            raise Refused(403, {"detail": "You cannot perform this action, contact the competition organizer!"})
        if rule in AUTO_RULES and not self.superuser(self.user):
            raise Refused(403, {"detail": "Users are not allowed to edit the leaderboard on this Competition"})
        if rule != "Add_And_Delete_Multiple":
            for other in self.subs.values():
                if other["owner"] == sub["owner"] and other["phase"] == sub["phase"]:
                    other["leaderboard"] = None
        sub["leaderboard"] = 1
        return {}

    def disconnect(self, m, q, b):
        """submission_leaderboard_connection, DELETE: only under Add_And_Delete and Add_And_Delete_Multiple."""
        sub = self.subs[int(m.group(1))]
        rule = self.leaderboards[1]["submission_rule"]
        if not (self._admin() or self.user == sub["owner"]):
            raise Refused(403, {"detail": "You cannot perform this action, contact the competition organizer!"})
        if rule in AUTO_RULES and not self.superuser(self.user):
            raise Refused(403, {"detail": "Users are not allowed to edit the leaderboard on this Competition"})
        if rule not in ("Add_And_Delete", "Add_And_Delete_Multiple"):
            raise Refused(403, {"detail": "You are not allowed to remove a submission on this phase"})
        sub["leaderboard"] = None
        return {}

    def leaderboard(self, m, q, b):
        """PhaseViewSet.get_leaderboard (anyone): the phase's submissions on its leaderboard, whatever their
        status, best first; each score rounded to its column's precision, hidden columns left out; the owner's
        display name where it has one."""
        phase = int(m.group(1))
        board = self.leaderboards[self.phases[phase]["leaderboard"]]
        columns = {c["key"]: c for c in board["columns"]}
        primary = next(c for c in board["columns"] if c["index"] == board["primary_index"])
        shown = sorted([s for s in self.subs.values() if s["phase"] == phase and s["leaderboard"]],
                       key=lambda s: ((-1 if primary["sorting"] == "desc" else 1) *
                                      float(s["scores"].get(primary["key"], 0)), s["created"]))
        return {"id": phase, "title": board["title"], "primary_index": board["primary_index"], "submissions": [
            {"id": s["id"], "owner": self.users.get(s["owner"], {}).get("display_name") or s["owner"],
             "created_when": s["created"].isoformat(), "scores": [
                {"index": columns[k]["index"], "column_key": k, "score": str(round(float(v), columns[k]["precision"]))}
                for k, v in s["scores"].items() if not columns[k]["hidden"]]} for s in shown]}

    # -- the organizer's view, for the tests -------------------------------------------------------------
    def board(self, phase=2):
        """{submission id: (owner, {key: stored score})} of the rows the phase's leaderboard shows."""
        self._local.user = None
        return {row["id"]: (self.subs[row["id"]]["owner"], {k: float(v) for k, v in
                                                              self.subs[row["id"]]["scores"].items()})
                for row in self.leaderboard(re.match(r"(\d+)", str(phase)), {}, None)["submissions"]}


def _time(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


class FakeEvalAI(FakeServer):
    """One challenge of python3 -m organizer evalai's configuration on EvalAI: its phases, splits, leaderboard,
    submissions, leaderboard rows, host teams and participants, as the module docstring's functions keep them.

    Users are named by their tokens (``tokens``: token -> user name): the challenge's host (``token``), a member of
    another host team (``rogue-token``, who made a host team of his own), and a participant per team
    (``<team>-token``, user ``<team>``, e-mail ``<team>@teams.test``). Each team's submissions are evaluated by
    ``evaluate(phase id, upload bytes, annotation bytes)``, the worker's run of the evaluation script, which returns
    the script's output plus its ``stdout`` and ``stderr``; the worker evaluates with the annotations it loaded when
    it started (``restart_worker``). ``page_size`` is the pages' length (settings/common.py ``PAGE_SIZE``: 150).
    """

    HOST = "host"

    def __init__(self, config, evaluate, token="host-token", end=ENDED, challenge_end=None, annotations=None):
        super().__init__()
        self.token, self.evaluate, self.page_size = token, evaluate, 150
        self.tokens = {token: self.HOST, "rogue-token": "rogue"}
        self.host_teams = {1: {"id": 1, "team_name": "Hosts", "members": [self.HOST]},
                           2: {"id": 2, "team_name": "Rogue hosts", "members": ["rogue"]}}
        self.challenge = {"id": 1, "end_date": challenge_end or end, "creator": {"id": 1, "team_name": "Hosts"},
                          "banned_email_ids": [], "allow_participants_resubmissions": False, "published": True}
        self.phases, self.annotations = {}, {}
        for p in config["challenge_phases"]:
            self.phases[p["id"]] = {
                "id": p["id"], "name": p.get("name", p["codename"]), "codename": p["codename"], "end_date": end,
                "start_date": "2025-01-01T00:00:00Z", "is_public": p.get("is_public", True),
                "is_submission_public": p.get("is_submission_public", False),
                "is_restricted_to_select_one_submission": p.get("is_restricted_to_select_one_submission", False),
                "leaderboard_public": p.get("leaderboard_public", True),
                "is_partial_submission_evaluation_enabled": False}
            self.annotations[p["id"]] = (annotations or {}).get(p["id"], b"annotation of phase %d" % p["id"])
        codenames = {s["id"]: s["codename"] for s in config["dataset_splits"]}
        self.leaderboards = {b.get("id", 1): {"id": b.get("id", 1), "schema": copy.deepcopy(b["schema"])}
                             for b in config["leaderboard"]}
        self.splits = {}
        for n, link in enumerate(config["challenge_phase_splits"], start=1):
            self.splits[n] = {"id": n, "challenge_phase": link["challenge_phase_id"],
                              "dataset_split": link["dataset_split_id"],
                              "codename": codenames[link["dataset_split_id"]],
                              "leaderboard": link.get("leaderboard_id", 1), "visibility": link["visibility"],
                              "leaderboard_decimal_precision": link.get("leaderboard_decimal_precision", 2),
                              "is_leaderboard_order_descending": link["is_leaderboard_order_descending"],
                              "show_leaderboard_by_latest_submission": False, "show_execution_time": False,
                              "show_scores_on_leaderboard": True}
        self.subs, self.rows, self.teams, self.clock = {}, {}, {}, 0
        self.restart_worker()
        r = self.routes
        r.append(("GET", r"/api/challenges/challenge/1/", self.challenge_detail))
        r.append(("GET", r"/api/hosts/challenge_host_team/", self.host_team_list))
        r.append(("GET", r"/api/challenges/challenge/1/challenge_phase", self.phase_list))
        r.append(("GET", r"/api/challenges/challenge/1/challenge_phase/(\d+)", self.phase_detail))
        r.append(("GET", r"/api/challenges/1/challenge_phase_split", self.split_list))
        r.append(("GET", r"/api/challenges/challenge/create/challenge_phase_split/(\d+)/", self.split_detail))
        r.append(("PATCH", r"/api/challenges/challenge/create/challenge_phase_split/(\d+)/", self.update_split))
        r.append(("GET", r"/api/challenges/challenge/create/leaderboard/(\d+)/", self.leaderboard_detail))
        r.append(("GET", r"/api/challenges/1/challenge_phase/(\d+)/submissions", self.submissions))
        r.append(("PATCH", r"/api/jobs/challenges/1/submissions/(\d+)/update_submission_meta/", self.update_meta))
        r.append(("PATCH", r"/api/jobs/challenge/1/challenge_phase/(\d+)/submission/(\d+)", self.change_visibility))
        r.append(("PUT", r"/api/jobs/challenge/1/update_submission/", self.update_submission))
        r.append(("PATCH", r"/api/jobs/leaderboard_data/(\d+)/", self.update_leaderboard_data))
        r.append(("POST", r"/api/jobs/submissions/(\d+)/re-run/", self.re_run))
        r.append(("GET", r"/api/jobs/challenge_phase_split/(\d+)/leaderboard/", self.leaderboard))
        r.append(("GET", r"/api/jobs/phase_split/(\d+)/public_leaderboard_all_entries/", self.all_entries))
        self.user = None

    # -- the caller -----------------------------------------------------------------------------------
    def authorize(self, authorization):
        """``Bearer <token>`` of a known user, or none (an anonymous visitor); any other is refused
        (JWTAuthentication: 401)."""
        if authorization == "":
            self.user = None
            return
        token = authorization[len("Bearer "):] if authorization.startswith("Bearer ") else None
        if token not in self.tokens:
            raise Refused(401, {"detail": "Given token not valid for any token type"})
        self.user = self.tokens[token]

    def dispatch(self, method, path, query, raw, authorization):
        """The phase's PATCH is a multipart form (the annotation file); the other routes take JSON."""
        match = re.fullmatch(r"/api/challenges/challenge/1/challenge_phase/(\d+)", path)
        if method == "PATCH" and match:
            try:
                self.authorize(authorization)
                return 200, self.update_phase(match, raw), "application/json"
            except Refused as exc:
                return exc.status, exc.body, "application/json"
        return super().dispatch(method, path, query, raw, authorization)

    @property
    def is_host(self):
        """is_user_a_host_of_challenge: a member of the challenge's host team (the creator)."""
        return self.user in self.host_teams[self.challenge["creator"]["id"]]["members"]

    def _host_only(self, status=400):
        if not self.is_host:
            raise Refused(status, {"error": "Sorry, you are not authorized to make this request!"})

    def active(self, what):
        """``is_active`` of the challenge or of a phase: started and not ended."""
        return what["end_date"] > now_iso()

    def page(self, items, query, path):
        """DRF's PageNumberPagination: ``count``, absolute ``next`` and ``previous`` links, ``results``."""
        asked = query.get("page", ["1"])[0]
        number = int(asked) if asked.isdigit() and int(asked) > 0 else 1
        start = (number - 1) * self.page_size
        more = start + self.page_size < len(items)
        return {"count": len(items), "next": "%s%s?page=%d" % (self.url, path, number + 1) if more else None,
                "previous": None, "results": items[start:start + self.page_size]}

    # -- the participants' side (the test's set-up) -----------------------------------------------------
    def team(self, name, members=None):
        """A participant team (its user ``name``, token ``<name>-token``), made once."""
        if name not in self.teams:
            self.teams[name] = {"id": len(self.teams) + 1, "team_name": name,
                                "members": members or ["%s@teams.test" % name]}
            self.tokens["%s-token" % name] = name
        return self.teams[name]

    def submit(self, team, phase, upload, is_public=None, at=None, by=None, run=True, enforce=False, ext=".zip"):
        """challenge_submission (apps/jobs/views.py), then the worker's run (``run``; else it stays submitted).
        ``enforce``: refused as EvalAI refuses a submission to a challenge or phase that is not active (406);
        ``at``: its submitted_at (default: a minute after the one before, from 2025-12-01, before the phases'
        end); ``by``: its creator's user name (default: the team's user)."""
        t = self.team(team)
        ph = self.phases[phase]
        if enforce and not (self.active(self.challenge) and self.active(ph)):
            raise Refused(406, {"error": "Challenge is not active"})
        if is_public is None:
            is_public = ph["is_submission_public"]
        elif is_public and ph["is_restricted_to_select_one_submission"]:
            for other in self.subs.values():
                if other["team"] == team and other["phase"] == phase and other["is_public"]:
                    other["is_public"] = False
        key, url = self.signed(upload)
        self.clock += 1
        sub = {"id": len(self.subs) + 1, "team": team, "phase": phase, "created_by": by or team,
               "status": "submitted", "is_public": bool(is_public), "is_flagged": False, "is_baseline": False,
               "ignore_submission": False, "completed_at": None,
               "submitted_at": at or (dt.datetime(2025, 12, 1, tzinfo=dt.timezone.utc) + dt.timedelta(
                   minutes=self.clock)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
               "input_file": url.replace(key, "%s%s" % (uuid.uuid4(), ext)), "key": key, "files": {}}
        self.storage[sub["input_file"].rsplit("/", 1)[1]] = upload
        self.subs[sub["id"]] = sub
        if run:
            self.run(sub["id"])
        return sub["id"]

    def restart_worker(self):
        """The worker loads each phase's annotation when it starts (submission_worker.py ``load_challenge``)."""
        self.loaded = dict(self.annotations)

    def run(self, sub_id):
        """run_submission: FINISHED only when the output has "result" and every split of it is linked to the phase;
        the submission's earlier rows are disabled and new ones made; stdout kept, stderr for a failed one, the
        result file json.dumps(submission_result)."""
        sub = self.subs[sub_id]
        upload = self.storage[sub["input_file"].rsplit("/", 1)[1]]
        output = self.evaluate(sub["phase"], upload, self.loaded[sub["phase"]])
        finished, made = "result" in output, []
        for item in output.get("result", []):
            codename, scores = next(iter(item.items()))
            split = next((s for s in self.splits.values() if s["challenge_phase"] == sub["phase"]
                          and s["codename"] == codename), None)
            if split is None:
                finished = False
                break
            made.append((split["id"], scores))
        if finished and made:
            for row in self.rows.values():
                if row["submission"] == sub_id:
                    row["is_disabled"] = True
            for split_id, scores in made:
                self.clock += 1
                self.rows[len(self.rows) + 1] = {"id": len(self.rows) + 1, "submission": sub_id, "split": split_id,
                                                 "result": dict(scores), "is_disabled": False, "created": self.clock}
        sub["status"] = "finished" if finished else "failed"
        sub["completed_at"] = now_iso()
        sub["files"]["stdout"] = output.get("stdout", "")
        if not finished:
            sub["files"]["stderr"] = output.get("stderr", "")
        else:
            sub["files"]["result"] = json.dumps(output.get("submission_result", ""))

    # -- the API -------------------------------------------------------------------------------------------
    def challenge_detail(self, m, q, b):
        return self.challenge

    def host_team_list(self, m, q, b):
        if self.user is None:
            raise Refused(401, {"detail": "Authentication credentials were not provided."})
        mine = [dict(t, members=[{"user": u, "status": "Self", "permissions": "Admin"} for u in t["members"]])
                for t in self.host_teams.values() if self.user in t["members"]]
        return self.page(mine, q, "/api/hosts/challenge_host_team/")

    def phase_list(self, m, q, b):
        shown = [dict(p) for p in self.phases.values() if self.is_host or p["is_public"]]
        return self.page(shown, q, "/api/challenges/challenge/1/challenge_phase")

    def phase_detail(self, m, q, b):
        phase = dict(self.phases[int(m.group(1))])
        if self.is_host:   # ChallengePhaseCreateSerializer: the annotation's URL too
            key = "annotation-%s-%d" % (m.group(1), len(self.storage))
            self.storage[key] = self.annotations[int(m.group(1))]
            phase["test_annotation"] = "%s/storage/%s" % (self.url, key)
        return phase

    def update_phase(self, m, raw):
        """challenge_phase_detail's PATCH (IsChallengeCreator): a multipart form; its test_annotation file replaces
        the phase's annotation."""
        self._host_only(403)
        parts = re.findall(rb'name="test_annotation"; filename="[^"]*"\r\n(?:[^\r\n]+\r\n)*\r\n(.*?)\r\n--', raw,
                           re.S)
        if parts:
            self.annotations[int(m.group(1))] = parts[0]
        return dict(self.phases[int(m.group(1))])

    def split_view(self, s):
        """ChallengePhaseSplitSerializer (the list)."""
        return {"id": s["id"], "challenge_phase": s["challenge_phase"], "dataset_split": s["dataset_split"],
                "visibility": s["visibility"], "leaderboard_schema": self.leaderboards[s["leaderboard"]]["schema"],
                "show_leaderboard_by_latest_submission": s["show_leaderboard_by_latest_submission"],
                "show_scores_on_leaderboard": s["show_scores_on_leaderboard"]}

    def split_list(self, m, q, b):
        return [self.split_view(s) for s in self.splits.values() if self.is_host or s["visibility"] == 3]

    def split_detail(self, m, q, b):
        """ZipChallengePhaseSplitSerializer."""
        return {k: v for k, v in self.splits[int(m.group(1))].items() if k != "codename"}

    def update_split(self, m, q, body):
        """get_or_update_challenge_phase_split: a member of any host team (get_challenge_host_required_error)."""
        if not any(self.user in t["members"] for t in self.host_teams.values()):
            raise Refused(401, {"error": "Sorry, you are not authorized to perform this operation!"})
        split = self.splits[int(m.group(1))]
        split.update({k: v for k, v in body.items() if k in split and k != "id"})
        return self.split_detail(m, q, body)

    def leaderboard_detail(self, m, q, b):
        return self.leaderboards[int(m.group(1))]

    def management(self, s):
        """ChallengeSubmissionManagementSerializer (the host's list)."""
        return {"id": s["id"], "participant_team": s["team"], "challenge_phase": self.phases[s["phase"]]["name"],
                "created_by": s["created_by"], "status": s["status"], "is_public": s["is_public"],
                "is_flagged": s["is_flagged"], "submitted_at": s["submitted_at"], "input_file": s["input_file"],
                "participant_team_members_email_ids": self.team(s["team"])["members"],
                "created_at": s["submitted_at"], "method_name": ""}

    def submissions(self, m, q, b):
        """get_all_submissions_of_challenge: hosts see every submission not deleted, newest first; a participant
        his team's (SubmissionSerializer)."""
        phase = int(m.group(1))
        path = "/api/challenges/1/challenge_phase/%d/submissions" % phase
        subs = sorted((s for s in self.subs.values() if s["phase"] == phase), key=lambda s: s["submitted_at"],
                      reverse=True)
        if self.is_host:
            return self.page([self.management(s) for s in subs if not s["ignore_submission"]], q, path)
        if self.user in self.teams:
            return self.page([dict(self.management(s), participant_team=self.teams[s["team"]]["id"])
                              for s in subs if s["team"] == self.user], q, path)
        raise Refused(400, {"error": "You are neither host nor participant of the challenge!"})

    WRITABLE = ("is_public", "is_flagged", "is_baseline", "status", "method_name", "ignore_submission",
                "completed_at")   # fields of SubmissionSerializer a PATCH may set (a few of them)

    def update_meta(self, m, q, body):
        """update_submission_meta: a host may change any submission; a participant his team's, any field of
        SubmissionSerializer, whatever the dates."""
        sub = self.subs.get(int(m.group(1)))
        if not self.is_host and (sub is None or sub["team"] != self.user):
            raise Refused(404, {"error": "Submission %s does not exist" % m.group(1)})
        sub.update({k: v for k, v in body.items() if k in self.WRITABLE})
        return self.management(sub)

    def change_visibility(self, m, q, body):
        """change_submission_data_and_visibility: the challenge must be active; one public submission a team where
        the phase is restricted to one."""
        if not self.active(self.challenge):
            raise Refused(403, {"error": "Challenge is not active"})
        sub = self.subs[int(m.group(2))]
        if sub["team"] != self.user:
            raise Refused(403, {"error": "Submission does not exist"})
        phase = self.phases[sub["phase"]]
        if body.get("is_public") is True and phase["is_restricted_to_select_one_submission"]:
            for other in self.subs.values():
                if other["team"] == sub["team"] and other["phase"] == sub["phase"] and other["is_public"]:
                    other["is_public"] = False
        sub.update({k: v for k, v in body.items() if k in ("is_public", "method_name")})
        return self.management(sub)

    def update_submission(self, m, q, body):
        """update_submission (PUT): hosts; the rows of each split get the accuracies; the result file is written as
        ``str(public_results)``, a Python repr; completed_at becomes now."""
        self._host_only()
        sub = self.subs[int(body["submission"])]
        status = str(body.get("submission_status", "")).lower()
        if status not in ("failed", "cancelled", "finished"):
            raise Refused(400, {"error": "Sorry, submission status is invalid"})
        public = []
        if status == "finished":
            try:
                results = json.loads(body["result"])
            except (TypeError, ValueError) as exc:
                raise Refused(400, {"error": "`result` key contains invalid data with error %s." % exc})
            for item in results:
                split = next((s for s in self.splits.values() if s["challenge_phase"] == int(body["challenge_phase"])
                              and s["codename"] == item["split"]), None)
                if split is None:
                    raise Refused(400, {"error": "Challenge Phase Split does not exist"})
                labels = self.leaderboards[split["leaderboard"]]["schema"]["labels"]
                if [k for k in item["accuracies"] if k not in labels]:
                    raise Refused(400, {"error": "Following metrics are missing in the leaderboard data"})
                row = next((r for r in self.rows.values() if r["submission"] == sub["id"]
                            and r["split"] == split["id"] and not r["is_disabled"]), None)
                if row is None:
                    self.clock += 1
                    row = self.rows[len(self.rows) + 1] = {"id": len(self.rows) + 1, "submission": sub["id"],
                                                            "split": split["id"], "is_disabled": False,
                                                            "created": self.clock}
                row["result"] = item["accuracies"]
                if item.get("show_to_participant"):
                    public.append(item["accuracies"])
        sub["status"], sub["completed_at"] = status, now_iso()
        sub["files"].update(stdout=body.get("stdout", ""), stderr=body.get("stderr", ""), result=str(public))
        return {"success": "Submission result has been successfully updated"}

    def update_leaderboard_data(self, m, q, body):
        """update_leaderboard_data: a host of the row's challenge; every label, numbers only."""
        row = self.rows.get(int(m.group(1)))
        if row is None or row["is_disabled"]:
            raise Refused(404, {"error": "Leaderboard data does not exist"})
        self._host_only()
        data = json.loads(body["leaderboard_data"])
        labels = self.leaderboards[self.splits[row["split"]]["leaderboard"]]["schema"]["labels"]
        if set(data) != set(labels):
            raise Refused(400, {"error": "Following metrics are missing or invalid in the leaderboard data"})
        if [v for v in data.values() if not isinstance(v, (int, float)) or isinstance(v, bool)]:
            raise Refused(400, {"error": "Values for following metrics are not of float/int"})
        row["result"] = data
        return {"id": row["id"], "result": data}

    def re_run(self, m, q, b):
        """re_run_submission: hosts (participants where allow_participants_resubmissions); refused once the
        challenge is not active; the old one is cancelled, a new one keeps its submitted_at
        (handle_submission_rerun) and the worker evaluates it with the annotation it holds."""
        old = self.subs[int(m.group(1))]
        if not self.challenge["allow_participants_resubmissions"] and not self.is_host:
            raise Refused(403, {"error": "Only challenge hosts or admins are allowed to re-run a submission"})
        if not self.active(self.challenge):
            raise Refused(406, {"error": "Challenge is not active"})
        old["status"] = "cancelled"
        new = dict(old, id=len(self.subs) + 1, status="submitted", files={}, completed_at=None)
        self.subs[new["id"]] = new
        self.run(new["id"])
        return {"success": "Submission is successfully submitted for re-running"}

    def board(self, split_id, only_public):
        """calculate_distinct_sorted_leaderboard_data: the split's rows not disabled, of finished submissions not
        flagged, newest first; a host's submissions off a public phase's board (baselines excepted); only public
        submissions on a public split when ``only_public``; banned teams dropped; sorted by default_order_by (its
        metadata's sort_ascending, else the split's direction) unless show_leaderboard_by_latest_submission; then
        one row a team (baselines all kept)."""
        split = self.splits[split_id]
        if split["visibility"] != 3 and not self.is_host:
            raise Refused(400, {"error": "Sorry, the leaderboard is not public!"})
        schema = self.leaderboards[split["leaderboard"]]["schema"]
        key = schema["default_order_by"]
        ascending = (schema.get("metadata") or {}).get(key, {}).get("sort_ascending")
        descending = split["is_leaderboard_order_descending"] if ascending is None else ascending is False
        hosts = self.host_teams[self.challenge["creator"]["id"]]["members"]
        rows = []
        for row in sorted(self.rows.values(), key=lambda r: -r["created"]):
            sub = self.subs[row["submission"]]
            if row["split"] != split_id or row["is_disabled"] or sub["is_flagged"] or sub["status"] != "finished":
                continue
            if self.phases[sub["phase"]]["is_public"] and sub["created_by"] in hosts and not sub["is_baseline"]:
                continue
            if only_public and split["visibility"] == 3 and not sub["is_public"]:
                continue
            if set(self.team(sub["team"])["members"]) & set(self.challenge["banned_email_ids"]):
                continue
            rows.append((row, sub))
        if not split["show_leaderboard_by_latest_submission"]:
            rows = sorted(rows, key=lambda rs: float(rs[0]["result"].get(key) or 0), reverse=descending)
        shown, teams = [], set()
        for row, sub in rows:
            if sub["team"] in teams:
                continue
            if not sub["is_baseline"]:
                teams.add(sub["team"])
            result = [row["result"].get(k, "#") for k in schema["labels"]]
            shown.append({"id": row["id"], "submission__participant_team": self.team(sub["team"])["id"],
                          "submission__participant_team__team_name": sub["team"], "submission__id": sub["id"],
                          "submission__is_public": sub["is_public"], "submission__is_baseline": sub["is_baseline"],
                          "challenge_phase_split": split_id, "filtering_score": row["result"].get(key),
                          "result": result if split["show_scores_on_leaderboard"] else []})
        return shown

    def leaderboard(self, m, q, b):
        split_id = int(m.group(1))
        return self.page(self.board(split_id, True), q, "/api/jobs/challenge_phase_split/%d/leaderboard/" % split_id)

    def all_entries(self, m, q, b):
        """get_all_entries_on_public_leaderboard: hosts only, private submissions too."""
        self._host_only()
        split_id = int(m.group(1))
        return self.page(self.board(split_id, False), q,
                         "/api/jobs/phase_split/%d/public_leaderboard_all_entries/" % split_id)

    def public_board(self, split_id):
        """What anyone sees: the rows of the public leaderboard (an anonymous call)."""
        self.user = None
        return self.board(split_id, True)


def now_iso(delta=0.0):
    """The current time as DRF writes it, ``delta`` seconds on."""
    when = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=delta)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class CodaLabV1Phase:
    """A CodaLab v1 phase's submissions and leaderboard, as codalab-competitions @c7ef5e2 keeps them.

    - a finished run in a blind phase (``leaderboard_management_mode: hide_results``) replaces its participant's
      leaderboard entry (apps/web/tasks.py ``update_submission``; apps/web/models.py
      ``add_submission_to_leaderboard``), so the entry is the participant's last run to finish;
    - ``re_run`` is the organizer's "Re-run submission" (apps/web/views.py ``submission_re_run``): a new submission
      of the same participant and file, scored on the phase's reference data at that moment, placed as above;
    - ``reference`` is what the phase's edit form sets (apps/web/views.py ``CompetitionEdit``); the runs read it when
      they start (tasks.py ``score``).
    """

    def __init__(self, program_zip, reference_zip, work):
        from platform_workers import run_v1

        self.run_v1, self.program, self.reference, self.work = run_v1, program_zip, reference_zip, Path(work)
        self.subs, self.leaderboard, self.blind = [], {}, True

    def submit(self, participant, upload):
        sub = {"id": len(self.subs) + 1, "participant": participant, "upload": upload, "scores": None}
        self.subs.append(sub)
        return sub["id"]

    def finish(self, sub_id):
        """The run of a submission ends (runs end in any order: several workers)."""
        sub = self.subs[sub_id - 1]
        run = self.run_v1(self.work / ("run%d" % sub_id), self.program, self.reference, sub["upload"], phase=2,
                          submission=sub_id)
        assert run.returncode == 0, run.stderr
        sub["scores"] = {l.split(":")[0].strip(): float(l.split(":")[1]) for l in run.scores_txt.splitlines() if l}
        sub["output"] = run.output_zip
        if self.blind:
            self.leaderboard[sub["participant"]] = sub_id

    def download_leaderboard(self):
        """"Download all submissions on leaderboard" (apps/web/views.py ``download_leaderboard_results``): for each
        entry ``<user> - <n> submission.zip`` (the upload) and ``<user> - <n> output.zip`` (the run's output)."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as archive:
            for participant, sub_id in sorted(self.leaderboard.items()):
                sub = self.subs[sub_id - 1]
                archive.writestr("%s - %d submission.zip" % (participant, sub_id), sub["upload"])
                inner = io.BytesIO()
                with zipfile.ZipFile(inner, "w") as out:
                    for name, data in sorted(sub["output"].items()):
                        out.writestr(name, data)
                archive.writestr("%s - %d output.zip" % (participant, sub_id), inner.getvalue())
        return buf.getvalue()

    def re_run(self, sub_id):
        old = self.subs[sub_id - 1]
        return self.submit(old["participant"], old["upload"])
