"""The reveal's API client against hostile servers on 127.0.0.1: whatever a server answers, the organizer's token
goes to the API's origin only and is never shown or written, nothing is written outside the work folder, memory and
time stay bounded, and the command ends with exit 2 and one line (0 where the answer is legitimate).

Each case runs the command as organizers run it (``organizer.reveal.main``) against fake_platforms.py's emulations
of Codabench and EvalAI, one answer of them made hostile. A second server on another port is "another origin": it
must never receive an Authorization header (the reveal's signed storage links may lead there, without the token).
The scoring runs are replaced by a fixed score (test_reveal.py checks the real ones): here only the answers matter.
EvalAI's throttle, which the reveal paces itself below: Cloud-CV/EvalAI @0f04039 settings/common.py,
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["user"] = "60/minute"``.
"""
import contextlib
import copy
import dataclasses
import email.utils
import functools
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from fake_platforms import FakeCodabench, FakeEvalAI, FakeServer, Reply
from helpers import ROOT

from organizer import __main__ as organizer_main
from organizer import http_api, reveal, reveal_codabench, reveal_evalai
from organizer.phase_data import phase_entries as reveal_phase_entries

TOKEN = "tok-3f9c2a7b51e04d8c9a6e"
PACE = reveal_evalai.PACE                 # the module's, before a test sets it
MARK = b"submission-bytes-7d1e"          # what each submitted file holds, to find where it was written
UPLOAD = b"PK\x03\x04" + MARK             # a zip's first bytes: the reveal names the file .zip
MiB = 2 ** 20
EVALAI_CONFIG = {
    "challenge_phases": [{"id": 1, "codename": "board_a", "is_submission_public": True},
                         {"id": 2, "codename": "board_b", "is_submission_public": True}],
    "dataset_splits": [{"id": 1, "codename": "public_split"}, {"id": 2, "codename": "private_split"}],
    "challenge_phase_splits": [
        {"challenge_phase_id": 1, "dataset_split_id": 1, "visibility": 3, "is_leaderboard_order_descending": True},
        {"challenge_phase_id": 2, "dataset_split_id": 2, "visibility": 1, "is_leaderboard_order_descending": True}],
    "leaderboard": [{"schema": {"labels": ["score"], "default_order_by": "score",
                                "metadata": {"score": {"sort_ascending": False}}}}],
}


class QuickCodabench(FakeCodabench):
    """fake_platforms' Codabench, its scoring runs replaced by a fixed score: -1 on the sealed reference data of
    board B's phase, 0.5 once the reveal has replaced it, a failed run once the phase is closed."""

    def __init__(self, work, rule="Add"):
        super().__init__(None, [b"reference A", b"reference B"], b"program", rule=rule, token=TOKEN, work=work)
        self.sealed = self.tasks[2]["reference_data"]
        for team in ("t1", "t2"):
            self.add(self.submit(team, 2, UPLOAD))

    def run(self, sub):
        key = self.tasks[self.phases[sub["phase"]]["tasks"][0]]["reference_data"]
        if b"report: closed" in _config(self.storage.get(key, b"")):
            sub["status"] = "Failed"
            return
        self.scored(sub, {"score": -1 if key == self.sealed else 0.5})


def _config(data):
    """The config.yaml of a reference zip, or nothing."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read("config.yaml")
    except (zipfile.BadZipFile, KeyError):
        return b""


class QuickEvalAI(FakeEvalAI):
    """fake_platforms' EvalAI with two finished public submissions of board B's phase, each stored with -1."""

    def __init__(self):
        super().__init__(EVALAI_CONFIG, lambda phase, upload, annotation: {"result": [
            {"private_split" if phase == 2 else "public_split": {"score": -1.0}}]}, token=TOKEN)
        for team in ("t1", "t2"):
            self.submit(team, 2, UPLOAD)


class Other(FakeServer):
    """Another origin: it answers anything, and keeps what it was sent."""

    def authorize(self, authorization):
        pass


class Case:
    """One test's servers, temp folder and runs of the command."""

    def __init__(self, tmp_path, temp):
        self.tmp_path, self.temp, self.servers, self.waits, self.uploads = tmp_path, temp, [], [], []

    def serve(self, server):
        self.servers.append(server)
        return server

    def codabench(self, rule="Add"):
        return self.serve(QuickCodabench(self.tmp_path / "platform", rule))

    def evalai(self):
        return self.serve(QuickEvalAI())

    def other(self):
        return self.serve(Other())

    def run(self, *flags, token=TOKEN, out=None, env=None):
        """(exit code, stdout, stderr) of python3 -m organizer reveal ROOT B OUT FLAGS, the token in
        ORGANIZER_TOKEN."""
        environ = dict(env or {})
        if token is not None:
            environ[reveal.TOKEN_VARIABLE] = token
        stdout, stderr = io.StringIO(), io.StringIO()
        argv = [str(ROOT), "B", str(out or self.tmp_path / "reveal.zip")] + [str(f) for f in flags]
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), _env(environ):
            code = reveal.main(argv)
        return code, stdout.getvalue(), stderr.getvalue()

    def on(self, site, *flags, **kwargs):
        """The reveal on ``site`` (either platform), with a small deadline."""
        platform = ["--codabench", site.url, "--competition", "1"] if isinstance(site, FakeCodabench) else \
            ["--evalai", site.url, "--challenge", "1"]
        return self.run(*(platform + ["--timeout", "3", "--download-timeout", "3"] + list(flags)), **kwargs)


@contextlib.contextmanager
def _env(values):
    saved = {k: os.environ.get(k) for k in list(values) + [reveal.TOKEN_VARIABLE]}
    os.environ.pop(reveal.TOKEN_VARIABLE, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@functools.lru_cache(maxsize=None)
def _entries(competition, board, reveal):
    return reveal_phase_entries(competition, board, reveal=reveal)


@pytest.fixture
def case(tmp_path, monkeypatch):
    temp = tmp_path / "a" / "b" / "tmp"   # three levels down: a name with ../../.. would still land in tmp_path
    temp.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setattr(http_api, "LIMITS", dataclasses.replace(http_api.LIMITS, retries=3, longest_wait=60))
    monkeypatch.setattr(reveal_evalai, "PACE", 0.0)
    # the Codabench reveal polls each re-run twice, some seconds apart: no pause here
    monkeypatch.setattr(reveal_codabench, "time", SimpleNamespace(monotonic=time.monotonic, strftime=time.strftime,
                                                                  sleep=lambda seconds: None))
    monkeypatch.setattr(reveal, "phase_entries", _entries)   # the same reference data in every case: made once
    c = Case(tmp_path, temp)
    monkeypatch.setattr(http_api, "_pause", c.waits.append)

    def score_here(upload, ref_dir, work, run_dir):
        holders = [p.resolve() for p in tmp_path.rglob("*") if p.is_file() and MARK in p.read_bytes()]
        c.uploads.append((Path(upload), holders))
        return {"exit_code": 0, "scores": {"score": 0.5}, "stdout": "score: 0.5\n", "error": None}

    monkeypatch.setattr(reveal, "score_here", score_here)   # the record's scoring of each file (reveal.score_file)
    yield c
    for server in c.servers:
        server.close()
    for path in tmp_path.rglob("*"):   # the token is in no file written (the token files of the test excepted)
        if path.is_file() and not path.name.startswith("token"):
            assert TOKEN.encode() not in path.read_bytes(), path
    for server in c.servers:
        if isinstance(server, Other):
            assert not [h for _, _, h, _ in server.seen if "Authorization" in h]


def refused(result, *words):
    """Exit 2, one line on stderr holding ``words``, no traceback, no token anywhere."""
    code, out, err = result
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and TOKEN not in err + out
    for word in words:
        assert word in err, (word, err)
    return err


def done(result):
    code, out, err = result
    assert code == 0 and err == "", (code, err)
    assert TOKEN not in out
    return out


def route(site, method, pattern, handler):
    """Put ``handler(the emulation's answer, match, query)`` in place of a route of the emulation."""
    originals = site.__dict__.setdefault("originals", {})
    for i, (verb, regex, current) in enumerate(site.routes):
        if verb == method and regex == pattern:
            original = originals.setdefault((verb, regex), current)
            site.routes[i] = (verb, regex, lambda m, q, b: handler(copy.deepcopy(original(m, q, b)), m, q))
            return
    raise AssertionError("no route %s %s" % (method, pattern))


def api_calls(site):
    return [(method, path) for method, path, _, _ in site.seen if path.startswith("/api/")]


# -- legitimate runs ---------------------------------------------------------------------------------------------
def test_a_reveal_with_every_answer_as_the_platforms_give_it_ends_in_0(case):
    site = case.codabench()
    out = done(case.on(site))
    assert "the leaderboard equals the final ranking: 2 entries of 2 team(s)" in out
    assert all("Authorization" in h for m, p, h, _ in site.seen if p.startswith("/api/"))
    assert not [h for m, p, h, _ in site.seen if p.startswith("/storage/") and "Authorization" in h]
    assert len(case.uploads) == 2 and all(u.name.endswith(".zip") for u, _ in case.uploads)


def test_an_evalai_reveal_with_every_answer_as_the_platform_gives_it_ends_in_0(case):
    site = case.evalai()
    out = done(case.on(site))
    assert "the leaderboard equals the final ranking: 2 entries of 2 team(s)" in out
    assert all(h.get("Authorization") == "Bearer " + TOKEN for m, p, h, _ in site.seen if p.startswith("/api/"))
    assert not [h for m, p, h, _ in site.seen if p.startswith("/storage/") and "Authorization" in h]
    assert len(case.uploads) == 2 and all(u.name.endswith(".zip") for u, _ in case.uploads)
    site.page_size = 1   # every list a page an item (EvalAI's next links are absolute URLs of its origin)
    out = done(case.on(site, "--check"))
    assert "the leaderboard equals the final ranking: 2 entries of 2 team(s)" in out
    assert [p for m, p, _, _ in site.seen if "page=2" in p]


def test_a_codabench_team_that_chose_the_same_file_twice_keeps_two_rows_and_a_second_run_changes_nothing(case):
    site = case.serve(QuickCodabench(case.tmp_path / "platform", "Add_And_Delete_Multiple"))
    site.add(site.submit("t1", 2, UPLOAD))   # t1's second entry: the same file again
    done(case.on(site))
    rows = sorted(owner for owner, _ in site.board().values())
    assert rows == ["t1", "t1", "t2"] and all(s == {"score": 0.5} for _, s in site.board().values())
    # as if the run had stopped before it wrote the re-runs' ids: they are found again, one for each entry
    path = case.tmp_path / "final_ranking.json"
    record = json.loads(path.read_text())
    path.write_text(json.dumps(dict(record, entries=[dict(e, shown_as="") for e in record["entries"]])))
    before = len(site.calls)
    done(case.on(site))
    assert [c for c in site.calls[before:] if c[0] != "GET"] == [] and sorted(
        owner for owner, _ in site.board().values()) == rows


# -- the token goes to the API's origin only ---------------------------------------------------------------------
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_an_api_call_redirected_to_another_origin_is_refused_without_sending_the_token_there(case, status):
    site, other = case.codabench(), case.other()
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(
        status, headers=[("Location", other.url + "/api/competitions/1/")]))
    err = refused(case.on(site), "GET /api/competitions/1/", "another origin", other.url)
    assert "redirected (%d)" % status in err
    assert other.seen == []


def test_a_redirect_within_the_origin_is_followed_with_the_token_and_a_redirect_loop_ends(case):
    site = case.codabench()
    moved = site.routes[0][2]
    site.routes.append(("GET", r"/api/v2/competitions/1/", moved))
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(
        301, headers=[("Location", "/api/v2/competitions/1/")]))
    done(case.on(site))
    [(_, _, headers, _)] = [s for s in site.seen if s[1] == "/api/v2/competitions/1/"]
    assert headers["Authorization"] == "Token " + TOKEN
    route(site, "GET", r"/api/v2/competitions/1/", lambda a, m, q: Reply(302, headers=[("Location", "/api/competitions/1/")]))
    before = len(site.seen)
    refused(case.on(site), "GET /api/competitions/1/", "redirected more than 5 times")
    assert len(site.seen) - before <= 6


def test_a_post_redirected_with_a_change_of_method_is_refused(case):
    site = case.codabench()
    route(site, "POST", r"/api/datasets/", lambda a, m, q: Reply(302, headers=[("Location", "/api/datasets/x/")]))
    refused(case.on(site), "POST /api/datasets/", "drop the request's body")


def test_a_next_link_of_another_origin_is_refused(case):
    site, other = case.codabench(), case.other()
    route(site, "GET", r"/api/submissions/", lambda a, m, q: {
        "results": a[:1], "next": other.url + "/api/submissions/?phase=2&page=2"})
    refused(case.on(site), "GET /api/submissions/", "another origin", other.url)
    assert other.seen == []


def test_codabench_pages_are_all_read(case):
    site = case.codabench()
    route(site, "GET", r"/api/submissions/", lambda a, m, q: {
        "results": a[:1], "next": site.url + "/api/submissions/?phase=2&page=2"} if "page" not in q else
        {"results": a[1:], "next": None})
    out = done(case.on(site, "--dry-run"))
    assert "#1 t1: submission 1" in out and "#1 t2: submission 2" in out


@pytest.mark.parametrize("platform", ["codabench", "evalai"])
def test_a_next_link_to_a_page_already_read_ends_the_walk(case, platform):
    site = getattr(case, platform)()
    pattern = r"/api/submissions/" if platform == "codabench" else r"/api/challenges/1/challenge_phase/(\d+)/submissions"
    path = "/api/submissions/" if platform == "codabench" else "/api/challenges/1/challenge_phase/2/submissions"
    listing = (lambda a: a) if platform == "codabench" else (lambda a: a["results"])
    route(site, "GET", pattern, lambda a, m, q: {"results": listing(a), "next": site.url + path + "?phase=2&page=1"})
    def reads():
        return len([c for c in api_calls(site) if c[1].startswith(path)])

    refused(case.on(site), "GET " + path, "already read (a loop)")
    assert reads() == 2
    # A -> B -> A
    route(site, "GET", pattern, lambda a, m, q: {"results": [], "next": site.url + path + (
        "?phase=2&page=b" if q.get("page") != ["b"] else "?phase=2&page=a")})
    refused(case.on(site), "already read (a loop)")
    assert reads() == 2 + 3


def test_a_list_of_endless_pages_ends_at_the_page_limit(case, monkeypatch):
    monkeypatch.setattr(http_api, "LIMITS", dataclasses.replace(http_api.LIMITS, pages=5))
    site = case.evalai()
    route(site, "GET", r"/api/challenges/challenge/1/challenge_phase", lambda a, m, q: {
        "results": [], "next": site.url + "/api/challenges/challenge/1/challenge_phase?page=%d" % (
            int(q.get("page", ["0"])[0]) + 1)})
    refused(case.on(site), "GET /api/challenges/challenge/1/challenge_phase", "more than 5 pages")
    assert len([c for c in api_calls(site) if "challenge_phase" in c[1]]) == 5


def test_files_on_another_origin_are_fetched_and_stored_without_the_token(case):
    site, other = case.codabench(), case.other()
    other.storage["elsewhere.zip"] = UPLOAD
    site.storage["moved"] = Reply(302, headers=[("Location", other.url + "/storage/elsewhere.zip")])
    route(site, "POST", r"/api/datasets/", lambda a, m, q: dict(a, sassy_url=other.url + "/storage/" + a["key"]))
    for sub in site.subs.values():
        sub["data"] = "moved"
    done(case.on(site))
    uploaded = [p for m, p, _, _ in other.seen if m == "PUT"]
    assert [p for m, p, _, _ in other.seen if m == "GET"] == ["/storage/elsewhere.zip"] * 2 and len(uploaded) == 2
    assert [other.storage[p[len("/storage/"):]] for p in uploaded] == [
        (case.tmp_path / name).read_bytes() for name in ("reveal.zip", "reveal_closed.zip")]


def test_evalai_files_on_another_origin_are_fetched_without_the_token(case):
    site, other = case.evalai(), case.other()
    other.storage["elsewhere.zip"] = UPLOAD
    site.storage["moved"] = Reply(302, headers=[("Location", other.url + "/storage/elsewhere.zip")])
    for sub in site.subs.values():
        sub["input_file"] = site.url + "/storage/moved"
    done(case.on(site))
    assert [p for m, p, _, _ in other.seen] == ["/storage/elsewhere.zip"] * 2


@pytest.mark.parametrize("link", ["file:///etc/passwd", "ftp://127.0.0.1/x.zip", "data:,hello", "javascript:alert(1)",
                                  "storage/x.zip", "//127.0.0.1:9/x", "http://", "http://127.0.0.1:99999/x",
                                  "http://127.0.0.1/a b", "http://[::1/x.zip"])
def test_a_file_link_that_is_not_an_http_url_is_refused(case, link):
    site = case.codabench()
    route(site, "GET", r"/api/submissions/(\d+)/get_details/", lambda a, m, q: {"data_file": link})
    refused(case.on(site), "GET /api/submissions/")
    site.storage = {k: Reply(302, headers=[("Location", link)]) for k in site.storage}
    route(site, "GET", r"/api/submissions/(\d+)/get_details/", lambda a, m, q: a)
    refused(case.on(site), "downloading")


@pytest.mark.parametrize("link", ["file:///etc/passwd", "ftp://127.0.0.1/x.zip", "data:,hello", "storage/x.zip",
                                  "//127.0.0.1:9/x", "http://127.0.0.1:99999/x", "http://[::1/x.zip"])
def test_an_evalai_file_link_that_is_not_an_http_url_is_refused(case, link):
    site = case.evalai()
    site.subs[1]["input_file"] = link
    refused(case.on(site), "GET /api/challenges/1/challenge_phase/2/submissions")
    site.subs[1]["input_file"] = site.url + "/storage/moved"
    site.storage["moved"] = Reply(302, headers=[("Location", link)])
    refused(case.on(site), "downloading")
    assert case.uploads == [] and [c for c in api_calls(site) if c[0] != "GET"] == []


def test_an_upload_link_that_is_not_an_http_url_is_refused(case):
    site = case.codabench()
    route(site, "POST", r"/api/datasets/", lambda a, m, q: dict(a, sassy_url="file:///tmp/x"))
    refused(case.on(site), "POST /api/datasets/", "not an http or https URL")


# -- file names ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["..%2F..%2F..%2Fevil.zip", "a%2Fb%2Fevil.zip", "%2e%2e%2f%2e%2e%2fevil", "evil%00.zip",
                                  "%5C..%5C..%5Cevil", "%E2%80%AEpiz.exe", ".hidden", "..", "%2e%2e", "x" * 5000 + ".zip",
                                  "CON", "%0Aevil%0D.zip", "%C3%A9t%C3%A9.zip", "%FF%FE.zip"])
@pytest.mark.parametrize("platform", ["codabench", "evalai"])
def test_a_file_name_from_a_url_stays_inside_the_work_folder(case, name, platform):
    site = getattr(case, platform)()
    site.storage[name] = UPLOAD
    for sub in site.subs.values():
        sub["data"] = name
        sub["input_file"] = "%s/storage/%s" % (site.url, name)
    done(case.on(site))
    assert len(case.uploads) == 2
    temp = case.temp.resolve()
    for upload, holders in case.uploads:   # every file that holds a submission is in TMP/reveal-*/files/<id>/
        assert upload in holders and all(temp in h.parents and h.relative_to(temp).parts[0].startswith("reveal-")
                                         and h.parent.parent.name == "files" for h in holders)
        assert upload.name.endswith(".zip") and not upload.name.startswith(".") and ".." not in upload.name
        assert len(upload.name) <= http_api.NAME_CHARS + 4
        assert all(c.isalnum() or c in "._-+=,()@ " for c in upload.name)


def test_a_file_is_written_inside_the_work_folder_whatever_name_it_is_given(case, monkeypatch):
    """The resolved path is checked too: a name that would leave the folder is refused, not written."""
    monkeypatch.setattr(http_api, "file_name", lambda url, head: "../../escaped.zip")
    refused(case.on(case.codabench()), "does not stay inside the work folder")
    assert not [p for p in case.tmp_path.rglob("escaped*")] and case.uploads == []


# -- sizes -------------------------------------------------------------------------------------------------------
def test_an_answer_or_a_download_larger_than_its_cap_is_refused(case, monkeypatch):
    monkeypatch.setattr(http_api, "LIMITS", dataclasses.replace(http_api.LIMITS, json_bytes=MiB))
    site = case.codabench()
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(chunks=[b" " * MiB, b"{}"]))
    refused(case.on(site), "GET /api/competitions/1/", "sent more than 1.0 MiB")
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(
        chunks=[b"{}"], headers=[("Content-Length", str(200 * MiB))]))
    refused(case.on(site), "GET /api/competitions/1/", "announces %d bytes" % (200 * MiB))
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: a)
    site.storage = {k: Reply(chunks=[MARK * (MiB // len(MARK))] * 20) for k in site.storage}   # 20 MiB, no length
    refused(case.on(site), "downloading", "sent more than 17.0 MiB (the board's largest submission)")
    assert case.uploads == []


MEMORY = r"""
import dataclasses, json, resource, sys, tempfile, time, types
from organizer import http_api, reveal, reveal_codabench
tempfile.tempdir = sys.argv[1]
http_api.LIMITS = dataclasses.replace(http_api.LIMITS, json_bytes=2 ** 20)
reveal.download_cap = lambda entries: 100 * 2 ** 20
reveal.score_here = lambda *a, **k: {"exit_code": 0, "scores": {"score": 0.5}, "stdout": "", "error": None}
reveal_codabench.time = types.SimpleNamespace(monotonic=time.monotonic, strftime=time.strftime, sleep=lambda s: None)
report = []
for url in sys.argv[2:]:
    code = reveal.main(["%s", "B", sys.argv[1] + "/reveal.zip", "--codabench", url, "--competition", "1"])
    report.append([code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss])
print(json.dumps(report))
""" % ROOT


def test_memory_stays_bounded_by_the_chunk_whatever_the_size_of_an_answer_or_a_download(case):
    """200 MB sent with no length, on the fly: a JSON answer capped at 1 MiB and a download capped at 100 MiB are
    refused while the process' peak memory stays where a legitimate run left it."""
    def flood():
        return Reply(chunks=(b" " * MiB for _ in range(200)))

    legit, big_answer, big_file = case.codabench(), case.codabench(), case.codabench()
    route(big_answer, "GET", r"/api/competitions/1/", lambda a, m, q: flood())
    big_file.storage = {k: flood() for k in big_file.storage}
    proc = subprocess.run([sys.executable, "-c", MEMORY, str(case.temp), legit.url, big_answer.url, big_file.url],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **{reveal.TOKEN_VARIABLE: TOKEN}))
    assert proc.returncode == 0, proc.stderr
    (code0, peak0), (code1, peak1), (code2, peak2) = json.loads(proc.stdout.splitlines()[-1])
    assert (code0, code1, code2) == (0, 2, 2), proc.stderr
    assert "sent more than 1.0 MiB" in proc.stderr and "sent more than 100.0 MiB" in proc.stderr
    assert peak1 - peak0 < 30 * 1024 and peak2 - peak0 < 30 * 1024   # KiB: far below 100 and 200 MiB


# -- time --------------------------------------------------------------------------------------------------------
def test_a_server_that_trickles_its_answer_ends_at_the_deadline(case):
    site = case.codabench()
    body = json.dumps({"id": 1, "phases": []}).encode()
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(
        chunks=[body[i:i + 1] for i in range(len(body))], pause=0.3, headers=[("Content-Length", str(len(body)))]))
    refused(case.run("--codabench", site.url, "--competition", "1", "--timeout", "1.5"),
            "GET /api/competitions/1/ did not end within 1.5 s", "--timeout")
    slow = Reply(raw=b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nX-Slow: " + b"y" * 40 + b"\r\n\r\n{}",
                 pause=0.3)
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: slow)
    refused(case.run("--codabench", site.url, "--competition", "1", "--timeout", "1.5"), "did not end within 1.5 s")
    assert slow.sent < len(slow.raw) - 20   # the client went away while the headers were still coming
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: a)
    site.storage = {k: Reply(chunks=[UPLOAD[i:i + 1] for i in range(len(UPLOAD))] * 5, pause=0.3)
                    for k in site.storage}
    refused(case.run("--codabench", site.url, "--competition", "1", "--download-timeout", "1.5"),
            "downloading", "did not end within 1.5 s", "--download-timeout")


def test_429_waits_as_retry_after_says_a_bounded_number_of_times(case):
    site = case.codabench()
    answers = []

    def throttled(first):
        def handler(a, m, q):
            answers.append(1)
            return first if len(answers) == 1 else a
        return handler

    route(site, "GET", r"/api/competitions/1/", throttled(Reply(429, headers=[("Retry-After", "7")])))
    done(case.on(site))
    assert case.waits == [7.0]
    answers.clear(), case.waits.clear()
    when = email.utils.format_datetime(email.utils.localtime() + __import__("datetime").timedelta(seconds=40),
                                       usegmt=False)
    route(site, "GET", r"/api/competitions/1/", throttled(Reply(429, headers=[("Retry-After", when)])))
    done(case.on(site))
    assert len(case.waits) == 1 and 30 <= case.waits[0] <= 40
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(429, headers=[("Retry-After", "3600")]))
    refused(case.on(site), "answered 429", "asks to wait 3600 s")
    case.waits.clear()
    before = len(api_calls(site))
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(429, body=b"slow down"))
    refused(case.on(site), "answered 429 (too many requests) 4 times")
    assert case.waits == [1.0, 2.0, 4.0] and len(api_calls(site)) - before == 4


def test_the_evalai_reveal_paces_its_calls(case, monkeypatch):
    monkeypatch.setattr(reveal_evalai, "PACE", 0.1)
    monkeypatch.setattr(http_api, "_pause", time.sleep)
    assert 60 / PACE < 60   # the real pace: below EvalAI's 60 calls a minute
    site = case.evalai()
    done(case.on(site))
    starts = [t for _, p, _, t in site.seen if p.startswith("/api/")]
    assert len(starts) >= 6
    assert min(b - a for a, b in zip(starts, starts[1:])) >= 0.08


RAW_PIECES = [b"HTTP/1.1 200 OK\r\n", b"HTTP/1.0 302 Found\r\n", b"HTTP/1.1 429 X\r\n", b"HTTP/1.1 999999 x\r\n",
              b"HTTP/9 1\r\n", b"Content-Length: 5\r\n", b"Content-Length: -1\r\n", b"Content-Length: abc\r\n",
              b"Transfer-Encoding: chunked\r\n", b"Location: http://[::1\r\n", b"Location: file:///etc/passwd\r\n",
              b"Location: /x\r\n", b"Location: \r\n", b"Retry-After: Mon, 99 Foo 2020\r\n", b"Retry-After: 1\r\n",
              b"Retry-After: 99999999999999999999999\r\n", b"X: \xff\xfe\r\n", b"\r\n", b"{", b"}", b"[]", b"null",
              b"\xff", b"0\r\n\r\n", b"5\r\nhello\r\n", b"zz\r\n", b'{"results": [], "next": "http://127.0.0.1:1/x"}',
              b"\x00" * 10]


class Raw(FakeServer):
    """The API's own origin, answering whatever bytes it is given."""

    def authorize(self, authorization):
        pass


def test_whatever_bytes_a_server_sends_a_call_ends_in_an_answer_or_one_refusal_line(case):
    """Responses pieced together at random (status lines, lying lengths, broken chunks, bad redirects and
    Retry-After, bytes that are not text): never another exception than RevealError, never a line break in it."""
    rng = __import__("random").Random(20260101)
    server = case.serve(Raw())
    limits = dataclasses.replace(http_api.LIMITS, deadline=1, transfer_deadline=1, retries=1, longest_wait=0)
    client = http_api.Client(server.url + "/api/", "Token", TOKEN, limits=limits)
    for _ in range(60):
        reply = Reply(raw=b"".join(rng.choice(RAW_PIECES) for _ in range(rng.randint(0, 8))))
        server.routes = [(method, r".*", lambda m, q, b: reply) for method in ("GET", "POST")]
        server.storage["f"] = reply
        for call in (lambda: client.get("x/"), lambda: client.pages("x/"), lambda: client.post("x/", {"a": 1}),
                     lambda: client.download(server.url + "/storage/f", case.temp / "files", 100)):
            try:
                call()
            except http_api.RevealError as exc:
                assert "\n" not in str(exc) and TOKEN not in str(exc)


# -- answers that are not what the API gives ----------------------------------------------------------------------
@pytest.mark.parametrize("body, words", [
    (Reply(500, b"<html>\n<h1>Server Error</h1>\n</html>", [("Content-Type", "text/html")]),
     ["answered 500", "<html> <h1>Server Error</h1> </html>"]),
    (Reply(200, b"<html>maintenance</html>"), ["not JSON", "maintenance"]),
    (Reply(200, b'{"id": "\xff\xfe"}'), ["not UTF-8"]),
    (Reply(200, b"[" * 100000), ["nested too deeply"]),
    (Reply(200, b'{"id": ' + b"9" * 1000 + b"}"), ["not JSON", "1000 digits"]),
    (Reply(200, b'{"detail": "\x1b[2J\x1b]0;owned\x07"}'), ["\\x1b[2J"]),
    (Reply(404, b'{"detail": "Not found.\xe2\x80\xae"}'), ["answered 404", "\\u202e"]),
])
def test_an_answer_that_is_not_json_is_one_line(case, body, words):
    site = case.codabench()
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: body)
    refused(case.on(site), "GET /api/competitions/1/", *words)


def drop(key, where=lambda a: a):
    def change(answer):
        del where(answer)[key]
        return answer
    return change


def put(key, value, where=lambda a: a):
    def change(answer):
        where(answer)[key] = value
        return answer
    return change


def whole(value):
    return lambda answer: value


CODABENCH = [   # (method, route, the path in the line, [changes])
    ("GET", r"/api/competitions/1/", "GET /api/competitions/1/", [
        whole([]), whole(None), whole("ok"), put("phases", "x"), drop("id", lambda a: a["phases"][1]),
        put("id", "2", lambda a: a["phases"][1]), put("index", "1", lambda a: a["phases"][0]),
        put("tasks", [5], lambda a: a["phases"][1]), put("leaderboards", {"id": 1}),
        put("submission_rule", 5, lambda a: a["leaderboards"][0]), put("end", 20260101, lambda a: a["phases"][1]),
        put("end", "2026-01-01", lambda a: a["phases"][1]), drop("columns", lambda a: a["leaderboards"][0]),
        put("key", None, lambda a: a["leaderboards"][0]["columns"][0]), put("created_by", 5)]),
    ("GET", r"/api/phases/(\d+)/", "GET /api/phases/2/", [
        whole([]), whole(None), drop("leaderboard"), put("leaderboard", "1")]),
    ("GET", r"/api/my_profile/", "GET /api/my_profile/", [
        whole([]), whole(None), drop("username"), put("username", 5)]),
    ("GET", r"/api/tasks/(\d+)/", "GET /api/tasks/2/", [
        whole([]), whole(None), drop("created_by"), put("created_by", 2), put("reference_data", "a-key"),
        put("key", 5, lambda a: a["input_data"])]),
    ("GET", r"/api/submissions/", "GET /api/submissions/", [
        whole(None), whole({"results": None}), whole([None]), whole(["x"]), drop("id", lambda a: a[0]),
        put("id", "1", lambda a: a[0]), put("owner", None, lambda a: a[0]), put("owner", ["t1"], lambda a: a[0]),
        put("score", "abc", lambda a: a[0]["scores"][0]), put("score", "NaN", lambda a: a[0]["scores"][0]),
        put("scores", {"score": 1}, lambda a: a[0]), drop("created_when", lambda a: a[0]),
        put("created_when", "yesterday", lambda a: a[0]), put("created_when", "2025-12-01T00:00:00", lambda a: a[0]),
        put("leaderboard", "yes", lambda a: a[0]), put("phase", 1, lambda a: a[0])]),
    ("GET", r"/api/datasets/", "GET /api/datasets/", [
        whole(None), whole([5]), whole({"results": "x"}), put("next", 5)]),
    ("POST", r"/api/datasets/", "POST /api/datasets/", [
        whole([]), whole(None), drop("key"), put("key", 5), drop("sassy_url")]),
    ("POST", r"/api/submissions/(\d+)/re_run_submission/", "POST /api/submissions/", [
        whole([]), whole(None), drop("id"), put("id", "3"), put("id", 3.5), put("id", True)]),
    ("GET", r"/api/submissions/(\d+)/", "GET /api/submissions/", [
        whole([]), whole(None), drop("id"), put("score", "abc", lambda a: a["scores"][0]),
        put("score", None, lambda a: a["scores"][0]), put("status", 5)]),
    ("GET", r"/api/submissions/(\d+)/get_details/", "GET /api/submissions/", [
        whole([]), whole(None), put("data_file", 5), put("data_file", {"url": "x"})]),
    ("GET", r"/api/phases/(\d+)/get_leaderboard/", "GET /api/phases/2/get_leaderboard/", [
        whole([]), whole(None), put("submissions", "x"), drop("id", lambda a: a["submissions"][0]),
        put("id", "x", lambda a: a["submissions"][0]), put("score", "abc", lambda a: a["submissions"][0]["scores"][0])]),
]
EVALAI = [
    ("GET", r"/api/challenges/challenge/1/challenge_phase", "GET /api/challenges/challenge/1/challenge_phase", [
        whole(None), whole([5]), whole({"results": "x"}), put("next", 5), drop("id", lambda a: a["results"][1]),
        put("id", "2", lambda a: a["results"][1]), put("codename", 2, lambda a: a["results"][1]),
        put("end_date", 5, lambda a: a["results"][1])]),
    ("GET", r"/api/challenges/1/challenge_phase_split", "GET /api/challenges/1/challenge_phase_split", [
        whole(None), whole({"count": 2}), whole([None]), drop("id", lambda a: a[1]), put("challenge_phase", "2", lambda a: a[1]),
        put("leaderboard_schema", "x", lambda a: a[1]), put("labels", "score", lambda a: a[1]["leaderboard_schema"])]),
    ("GET", r"/api/challenges/1/challenge_phase/(\d+)/submissions", "GET /api/challenges/1/challenge_phase/2/submissions", [
        whole(None), whole({"results": [5]}), drop("id", lambda a: a["results"][0]),
        put("id", "1", lambda a: a["results"][0]), put("status", 5, lambda a: a["results"][0]),
        put("input_file", 5, lambda a: a["results"][0]), put("participant_team", {"a": 1}, lambda a: a["results"][0])]),
    ("GET", r"/api/jobs/challenge_phase_split/(\d+)/leaderboard/", "GET /api/jobs/challenge_phase_split/2/leaderboard/", [
        whole(None), whole({"results": [None]}), put("result", "x", lambda a: a["results"][0]),
        put("result", ["0.5"], lambda a: a["results"][0]), put("result", [None], lambda a: a["results"][0]),
        put("result", [float("inf")], lambda a: a["results"][0]), drop("submission__id", lambda a: a["results"][0]),
        put("submission__participant_team__team_name", 7, lambda a: a["results"][0])]),
    ("GET", r"/api/challenges/challenge/1/", "GET /api/challenges/challenge/1/", [
        whole(None), whole([]), drop("end_date"), put("end_date", 5), drop("creator"), put("creator", 1),
        put("id", "1", lambda a: a["creator"]), put("banned_email_ids", "x@y.z")]),
    ("GET", r"/api/hosts/challenge_host_team/", "GET /api/hosts/challenge_host_team/", [
        whole(None), whole({"results": None}), put("id", "1", lambda a: a["results"][0]),
        put("members", "host", lambda a: a["results"][0]), put("user", 5, lambda a: a["results"][0]["members"][0])]),
    ("GET", r"/api/jobs/phase_split/(\d+)/public_leaderboard_all_entries/",
     "GET /api/jobs/phase_split/2/public_leaderboard_all_entries/", [
        whole(None), whole({"results": [None]}), drop("id", lambda a: a["results"][0]),
        put("id", "1", lambda a: a["results"][0]), put("submission__id", 1.5, lambda a: a["results"][0])]),
    ("GET", r"/api/challenges/challenge/create/challenge_phase_split/(\d+)/",
     "GET /api/challenges/challenge/create/challenge_phase_split/2/", [
        whole(None), whole([]), put("visibility", "3"), drop("visibility"), put("leaderboard", None)]),
    ("GET", r"/api/challenges/challenge/1/challenge_phase/(\d+)", "GET /api/challenges/challenge/1/challenge_phase/2", [
        whole(None), whole([]), put("test_annotation", 5)]),
    ("GET", r"/api/challenges/challenge/create/leaderboard/(\d+)/", "GET /api/challenges/challenge/create/leaderboard/1/", [
        whole(None), drop("schema"), put("default_order_by", 5, lambda a: a["schema"]),
        put("metadata", "x", lambda a: a["schema"]), put("score", "x", lambda a: a["schema"]["metadata"]),
        put("score", {"sort_ascending": "no"}, lambda a: a["schema"]["metadata"])]),
]


@pytest.mark.parametrize("platform, method, pattern, where, change", [
    (platform, method, pattern, where, change) for platform, table in (("codabench", CODABENCH), ("evalai", EVALAI))
    for method, pattern, where, changes in table for change in changes])
def test_an_answer_of_the_wrong_shape_is_one_line_naming_the_call(case, platform, method, pattern, where, change):
    site = getattr(case, platform)()
    route(site, method, pattern, lambda a, m, q: change(a))
    err = refused(case.on(site), where)
    assert "?" not in err.split(where)[1].split()[0]   # the path, never its query


# -- the platform's address and the OUT file ---------------------------------------------------------------------
@pytest.mark.parametrize("base", ["", "ftp://127.0.0.1/", "www.codabench.org", "http://", "https://127.0.0.1:99999",
                                  "file:///etc", "javascript:alert(1)", "http://user:pw@127.0.0.1", "http://a b",
                                  "http://127.0.0.1/?x=1", "http://127.0.0.1/\n"])
def test_a_bad_platform_address_is_one_line_and_nothing_is_written(case, base):
    refused(case.run("--codabench", base, "--competition", "1"), "the platform's address")
    refused(case.run("--evalai", base, "--challenge", "1"), "the platform's address")
    assert not (case.tmp_path / "reveal.zip").exists()


@pytest.mark.parametrize("flag", ["--timeout", "--download-timeout"])
@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "1e308"])
def test_a_timeout_that_is_not_a_number_of_seconds_is_one_line(case, flag, seconds):
    refused(case.run("--codabench", case.codabench().url, "--competition", "1", flag, seconds), flag)


def test_an_out_path_that_cannot_be_written_is_one_line(case):
    (case.tmp_path / "a-file").write_text("x")
    refused(case.run(out=case.tmp_path), "is a folder")
    refused(case.run(out=case.tmp_path / "a-file" / "reveal.zip"), "cannot be written")
    site = case.codabench()
    refused(case.on(site, out=case.tmp_path / "a-file" / "reveal.zip"), "cannot be written")


# -- the token -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad, what", [(TOKEN + "\nsecond-line", "a line break"), (TOKEN + "\r", "a line break"),
                                       ("tok en-with-space", "whitespace"), (TOKEN + "\x00", "non-printable"),
                                       (TOKEN + "\u202e", "non-printable"), ("", "is empty"), ("short", "5 characters")])
def test_a_token_that_cannot_be_sent_as_it_is_is_refused_without_showing_it(case, bad, what):
    site = case.codabench()
    for how in ("env", "file", "argv"):
        if how != "file" and "\x00" in bad:   # neither an environment variable nor an argument can hold a NUL
            continue
        if how == "file" and bad == TOKEN + "\r":   # a file's first line is stripped: the token itself
            continue
        if how == "env":
            result = case.on(site, token=bad)
        elif how == "file":
            (case.tmp_path / "token.txt").write_bytes(bad.replace("\n", " ").encode("utf-8", "surrogatepass") + b"\n")
            result = case.on(site, "--token-file", case.tmp_path / "token.txt", token=None)
        else:
            result = case.on(site, "--token", bad, token=None)
        err = refused(result, "the API token from", what if how != "file" or "\n" not in bad else "whitespace")
        for part in bad.split():
            assert len(part) < 8 or part not in err + result[1]
    assert site.seen == [] and not (case.tmp_path / "reveal.zip").exists()


def test_the_token_comes_from_the_environment_or_a_file_and_the_command_line_is_warned_about(case):
    site = case.codabench()
    done(case.on(site, "--dry-run"))
    (case.tmp_path / "token.txt").write_text("  %s  \nsecond line\n" % TOKEN)
    done(case.on(site, "--dry-run", "--token-file", case.tmp_path / "token.txt", token="not-this-one-x"))
    assert [h for _, p, h, _ in site.seen if p.startswith("/api/")][-1]["Authorization"] == "Token " + TOKEN
    code, out, err = case.on(site, "--dry-run", "--token", TOKEN, token=None)
    assert code == 0 and err.count("\n") == 1 and "warning" in err and "process list" in err and TOKEN not in err
    refused(case.on(site, "--token", TOKEN, "--token-file", case.tmp_path / "token.txt", token=None), "not both")
    refused(case.on(site, token=None), "ORGANIZER_TOKEN", "--token-file")
    refused(case.on(site, "--token-file", case.tmp_path / "missing.txt", token=None), "no such file")
    refused(case.on(site, "--token-file", case.tmp_path, token=None), "not a regular file")


def test_a_server_that_echoes_the_token_does_not_get_it_shown(case):
    site = case.codabench()
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(
        401, json.dumps({"detail": "Invalid token %s." % TOKEN}).encode()))
    assert "[token]" in refused(case.on(site), "answered 401")
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: Reply(500, b" " * 4090 + TOKEN.encode()))
    assert "[token]" in refused(case.on(site), "answered 500")
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: dict(a, leaderboards=[
        {"id": 1, "submission_rule": "Force_Best " + TOKEN}]))
    refused(case.on(site), "submission_rule is Force_Best [token]")
    route(site, "GET", r"/api/competitions/1/", lambda a, m, q: a)
    route(site, "GET", r"/api/submissions/", lambda a, m, q: [dict(s, owner="team " + TOKEN + "\x1b[31m") for s in a])
    out = done(case.on(site, "--dry-run"))
    assert "team [token]\\x1b[31m" in out


def test_an_internal_error_that_quotes_the_token_writes_it_nowhere(case, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("the token was %s" % TOKEN)

    monkeypatch.setattr(reveal_codabench.Site, "phase", broken)
    site = case.codabench()
    with _env({reveal.TOKEN_VARIABLE: TOKEN}):
        code = organizer_main.main(["reveal", str(ROOT), "B", str(case.tmp_path / "reveal.zip"), "--codabench",
                                    site.url, "--competition", "1"])
    err = capsys.readouterr().err
    assert code == 3 and "internal error" in err and TOKEN not in err and "[token]" in err
    [kept] = list(case.temp.glob("organizer-reveal-*.txt"))
    assert "RuntimeError" in kept.read_text() and TOKEN not in kept.read_text()
