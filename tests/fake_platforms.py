"""Codabench's and EvalAI's web APIs as far as the organizer's reveal uses them, served on 127.0.0.1 for the tests.

Each route does what the cited function of the platform's source does to its
state (only the fields the reveal reads or writes); the scoring runs are the
project's scoring program run as the platform's worker runs it
(platform_workers.py). A real run against a local Codabench (docs/organizers.md)
checks the same reveal end to end.

Codabench, codalab/codabench @c7dbc75 (paths under src/apps/):
- POST datasets/ -> a key and a signed upload URL (api/views/datasets.py ``DataViewSet.create``); the PUT to that
  URL stores the file; PUT datasets/completed/<key>/ (``upload_completed``);
- GET tasks/<key>/, PATCH tasks/<id>/ (api/views/tasks.py ``TaskViewSet.update``: a data field the request omits
  becomes None, the scoring program excepted);
- GET competitions/<id>/ (phases with their task keys and leaderboard; leaderboards with ``submission_rule``);
- GET submissions/?phase=<id> (``SubmissionViewSet.get_queryset``: the competition's organizers see every one);
- POST submissions/<id>/re_run_submission/ (organizers; a finished, failed or cancelled submission;
  competitions/models.py ``Submission.re_run``: a new top-level submission, same owner, phase and data), scored
  on the task's reference data at that moment; the leaderboard rule is applied when its scores arrive
  (leaderboards/strategies.py: Force_Last puts the owner's last scored run on the board, the Add rules nothing);
- GET submissions/<id>/ and get_details/ (``data_file``: the submitted file's signed URL);
- POST and DELETE submissions/<id>/submission_leaderboard_connection/ (organizers, or the owner; 403 under the
  Force rules but for a superuser; POST clears the owner's other entries except under Add_And_Delete_Multiple;
  DELETE only under Add_And_Delete and Add_And_Delete_Multiple);
- GET phases/<id>/get_leaderboard/ (``PhaseViewSet.get_leaderboard``: the submissions on the phase's board).

EvalAI, Cloud-CV/EvalAI @0f04039:
- GET challenges/challenge/<c>/challenge_phase (apps/challenges/views.py ``challenge_phase_list``, paginated);
- GET challenges/<c>/challenge_phase_split (``challenge_phase_split_list``: hosts see every split);
- GET challenges/<c>/challenge_phase/<p>/submissions (``get_all_submissions_of_challenge``, hosts, paginated);
- PUT jobs/challenge/<c>/update_submission/ (apps/jobs/views.py ``update_submission``: hosts; ``result`` a JSON
  string of [{split, show_to_participant, accuracies}], every metric a leaderboard label with a number);
- PATCH challenges/challenge/create/challenge_phase_split/<id>/ (``get_or_update_challenge_phase_split``);
- GET jobs/challenge_phase_split/<id>/leaderboard/ (``leaderboard``: 400 "leaderboard is not public" to non-hosts
  unless visibility 3; then each team's best public finished submission by the primary key,
  apps/jobs/utils.py ``calculate_distinct_sorted_leaderboard_data``).
"""
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
    """One competition of a v1 bundle imported into Codabench: its phases, tasks, leaderboard and submissions."""

    def __init__(self, bundle_files, phases, program_zip, rule="Add", token="org-token", work=None):
        super().__init__()
        self.token, self.rule, self.program, self.work = token, rule, program_zip, Path(work)
        self.tasks, self.phases, self.subs, self.datasets = {}, {}, {}, {}
        for index, reference_zip in enumerate(phases):
            task = {"id": index + 1, "key": "task-%d" % (index + 1), "name": "phase %d Task" % (index + 1),
                    "scoring_program": self.dataset(program_zip), "reference_data": self.dataset(reference_zip),
                    "ingestion_program": None, "input_data": None}
            self.tasks[task["key"]] = task
            self.phases[index + 1] = {"id": index + 1, "index": index, "name": "phase %d" % (index + 1),
                                      "tasks": [task["key"]], "leaderboard": 1, "end": ENDED}
        r = self.routes
        r.append(("GET", r"/api/competitions/1/", self.competition))
        r.append(("POST", r"/api/datasets/", self.create_dataset))
        r.append(("PUT", r"/api/datasets/completed/([\w-]+)/", lambda m, q, b: {"key": m.group(1)}))
        r.append(("GET", r"/api/tasks/([\w-]+)/", self.get_task))
        r.append(("PATCH", r"/api/tasks/(\d+)/", self.update_task))
        r.append(("GET", r"/api/submissions/", self.list_submissions))
        r.append(("GET", r"/api/submissions/(\d+)/", lambda m, q, b: self.view(self.subs[int(m.group(1))])))
        r.append(("GET", r"/api/submissions/(\d+)/get_details/", self.details))
        r.append(("POST", r"/api/submissions/(\d+)/re_run_submission/", self.re_run))
        r.append(("POST", r"/api/submissions/(\d+)/submission_leaderboard_connection/", self.connect))
        r.append(("DELETE", r"/api/submissions/(\d+)/submission_leaderboard_connection/", self.disconnect))
        r.append(("GET", r"/api/phases/(\d+)/get_leaderboard/", self.leaderboard))

    def authorize(self, authorization):
        if authorization != "Token %s" % self.token:
            raise Refused(401, {"detail": "Invalid token."})

    def dataset(self, data):
        key, _ = self.signed(data)
        self.datasets[key] = key
        return {"key": key}

    # -- participants' side (the test's set-up) -----------------------------------------------------
    def submit(self, owner, phase, upload):
        """A participant's results submission, scored now as the compute worker scores it."""
        data_key, _ = self.signed(upload)
        sub = {"id": len(self.subs) + 1, "owner": owner, "phase": phase, "data": data_key, "status": "Submitting",
               "scores": {}, "leaderboard": None, "parent": None, "has_children": False}
        self.subs[sub["id"]] = sub
        self.run(sub)
        return sub["id"]

    def run(self, sub):
        task = self.tasks[self.phases[sub["phase"]]["tasks"][0]]
        run = run_codabench(self.work / ("run%d" % sub["id"]), self.storage[task["scoring_program"]["key"]],
                            self.storage[task["reference_data"]["key"]], self.storage[sub["data"]])
        if run.returncode:
            sub["status"] = "Failed"
            return
        scores = json.loads(run.output_zip["scores.json"])
        sub["scores"] = {k: "%.10f" % v for k, v in scores.items()}   # Decimal(20, 10)
        sub["status"] = "Finished"
        if self.rule == "Force_Last":
            for other in self.subs.values():
                if other["owner"] == sub["owner"] and other["phase"] == sub["phase"]:
                    other["leaderboard"] = None
            sub["leaderboard"] = 1

    def add(self, sub_id):
        """The owner puts a submission on the leaderboard (Add rules)."""
        sub = self.subs[sub_id]
        for other in self.subs.values():
            if other["owner"] == sub["owner"] and other["phase"] == sub["phase"]:
                other["leaderboard"] = None
        sub["leaderboard"] = 1

    # -- the API ---------------------------------------------------------------------------------------
    def view(self, sub):
        return dict(sub, scores=[{"column_key": k, "score": v} for k, v in sub["scores"].items()])

    def competition(self, m, q, b):
        return {"id": 1, "phases": list(self.phases.values()),
                "leaderboards": [{"id": 1, "submission_rule": self.rule}]}

    def create_dataset(self, m, q, body):
        if not body.get("file_size"):
            raise Refused(400, {"file_size": "This field is required."})
        key, url = self.signed()
        self.datasets[key] = key
        return {"key": key, "sassy_url": url}

    def get_task(self, m, q, b):
        return self.tasks[m.group(1)]

    def update_task(self, m, q, body):
        task = next(t for t in self.tasks.values() if t["id"] == int(m.group(1)))
        for piece in ("ingestion_program", "input_data", "reference_data"):
            task[piece] = {"key": body[piece]} if body.get(piece) else None
        if body.get("scoring_program"):
            task["scoring_program"] = {"key": body["scoring_program"]}
        return task

    def list_submissions(self, m, q, b):
        phase = int(q["phase"][0])
        return [self.view(s) for s in self.subs.values() if s["phase"] == phase]

    def details(self, m, q, b):
        return {"data_file": "%s/storage/%s" % (self.url, self.subs[int(m.group(1))]["data"])}

    def re_run(self, m, q, b):
        old = self.subs[int(m.group(1))]
        if old["status"] not in ("Finished", "Failed", "Cancelled"):
            raise Refused(403, {"detail": "Cannot request a re-run on a submission that has not finished processing."})
        sub = dict(old, id=len(self.subs) + 1, status="Submitting", scores={}, leaderboard=None)
        self.subs[sub["id"]] = sub
        self.run(sub)
        return {"id": sub["id"]}

    def connect(self, m, q, b):
        sub = self.subs[int(m.group(1))]
        if self.rule in AUTO_RULES:
            raise Refused(403, {"detail": "Users are not allowed to edit the leaderboard on this Competition"})
        if self.rule != "Add_And_Delete_Multiple":
            for other in self.subs.values():
                if other["owner"] == sub["owner"] and other["phase"] == sub["phase"]:
                    other["leaderboard"] = None
        sub["leaderboard"] = 1
        return {}

    def disconnect(self, m, q, b):
        if self.rule not in ("Add_And_Delete", "Add_And_Delete_Multiple"):
            raise Refused(403, {"detail": "You are not allowed to remove a submission on this phase"})
        self.subs[int(m.group(1))]["leaderboard"] = None
        return {}

    def leaderboard(self, m, q, b):
        phase = int(m.group(1))
        shown = [s for s in self.subs.values() if s["phase"] == phase and s["leaderboard"] and s["status"] == "Finished"]
        return {"id": phase, "submissions": [{"id": s["id"], "owner": s["owner"], "scores": [
            {"column_key": k, "score": v} for k, v in s["scores"].items()]} for s in shown]}


class FakeEvalAI(FakeServer):
    """One challenge of python3 -m organizer evalai's configuration: phases, splits, submissions, leaderboards."""

    def __init__(self, config, evaluate, token="host-token"):
        super().__init__()
        self.token, self.evaluate = token, evaluate
        self.phases = {p["id"]: dict(p, end_date=ENDED) for p in config["challenge_phases"]}
        codenames = {s["id"]: s["codename"] for s in config["dataset_splits"]}
        self.splits = {}
        for n, link in enumerate(config["challenge_phase_splits"], start=1):
            self.splits[n] = {"id": n, "challenge_phase": link["challenge_phase_id"],
                              "codename": codenames[link["dataset_split_id"]], "visibility": link["visibility"],
                              "leaderboard_schema": config["leaderboard"][0]["schema"],
                              "descending": link["is_leaderboard_order_descending"]}
        self.subs = {}
        r = self.routes
        r.append(("GET", r"/api/challenges/challenge/1/challenge_phase", self.phase_list))
        r.append(("GET", r"/api/challenges/1/challenge_phase_split", self.split_list))
        r.append(("GET", r"/api/challenges/1/challenge_phase/(\d+)/submissions", self.submissions))
        r.append(("PUT", r"/api/jobs/challenge/1/update_submission/", self.update_submission))
        r.append(("PATCH", r"/api/challenges/challenge/create/challenge_phase_split/(\d+)/", self.update_split))
        r.append(("GET", r"/api/jobs/challenge_phase_split/(\d+)/leaderboard/", self.leaderboard))
        self.host = True

    def authorize(self, authorization):
        """The host's token, no token (an anonymous visitor) or a participant's; any other is refused
        (JWTAuthentication: 401)."""
        if authorization not in ("", "Bearer %s" % self.token, "Bearer participant-token"):
            raise Refused(401, {"detail": "Given token not valid for any token type"})
        self.host = authorization == "Bearer %s" % self.token

    def submit(self, team, phase, upload, is_public=True):
        """A participant's submission, evaluated as the worker evaluates it (``evaluate`` of the script)."""
        key, url = self.signed(upload)
        sub = {"id": len(self.subs) + 1, "participant_team": team, "challenge_phase": phase, "input_file": url,
               "is_public": is_public, "status": "submitted", "results": {}, "stdout": ""}
        self.subs[sub["id"]] = sub
        output = self.evaluate(phase, upload)
        if "result" not in output:
            sub["status"] = "failed"
            return sub["id"]
        for item in output["result"]:
            for codename, scores in item.items():
                sub["results"][codename] = scores
        sub["status"] = "finished"
        return sub["id"]

    def _host_only(self):
        if not self.host:
            raise Refused(400, {"error": "Sorry, you are not authorized to make this request!"})

    def phase_list(self, m, q, b):
        return {"count": len(self.phases), "next": None, "results": list(self.phases.values())}

    def split_list(self, m, q, b):
        return [s for s in self.splits.values() if self.host or s["visibility"] == 3]

    def submissions(self, m, q, b):
        self._host_only()
        phase = int(m.group(1))
        return {"next": None, "results": [dict(s) for s in self.subs.values() if s["challenge_phase"] == phase]}

    def update_submission(self, m, q, body):
        self._host_only()
        sub = self.subs[int(body["submission"])]
        if str(body["submission_status"]).lower() != "finished":
            raise Refused(400, {"error": "this emulation stores finished submissions only"})
        try:
            results = json.loads(body["result"])
        except (TypeError, ValueError) as exc:
            raise Refused(400, {"error": "`result` key contains invalid data with error %s." % exc})
        for item in results:
            split = next((s for s in self.splits.values() if s["challenge_phase"] == int(body["challenge_phase"])
                          and s["codename"] == item["split"]), None)
            if split is None:
                raise Refused(400, {"error": "Challenge Phase Split does not exist"})
            labels = split["leaderboard_schema"]["labels"]
            if [k for k in item["accuracies"] if k not in labels]:
                raise Refused(400, {"error": "Following metrics are missing in the leaderboard data"})
            if [v for v in item["accuracies"].values() if not isinstance(v, (int, float))]:
                raise Refused(400, {"error": "Values for following metrics are not of float/int"})
            sub["results"][item["split"]] = item["accuracies"]
        sub["stdout"] = body.get("stdout", "")
        sub["status"] = "finished"
        return {"success": "Submission result has been successfully updated"}

    def update_split(self, m, q, body):
        self._host_only()
        self.splits[int(m.group(1))].update(body)
        return self.splits[int(m.group(1))]

    def leaderboard(self, m, q, b):
        split = self.splits[int(m.group(1))]
        if split["visibility"] != 3 and not self.host:
            raise Refused(400, {"error": "Sorry, the leaderboard is not public!"})
        schema = split["leaderboard_schema"]
        key = schema["default_order_by"]
        rows = [s for s in self.subs.values() if s["challenge_phase"] == split["challenge_phase"]
                and s["status"] == "finished" and split["codename"] in s["results"]
                and (s["is_public"] or split["visibility"] != 3)]
        rows.sort(key=lambda s: s["results"][split["codename"]][key], reverse=split["descending"])
        best = {}
        for s in rows:
            best.setdefault(s["participant_team"], s)
        return {"next": None, "results": [
            {"submission__participant_team__team_name": team, "id": s["id"],
             "result": [s["results"][split["codename"]][k] for k in schema["labels"]]} for team, s in best.items()]}


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
