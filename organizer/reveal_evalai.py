"""The reveal on EvalAI, through its host API with the organizer's token: each team's real score on the leaderboard.

    python3 -m organizer reveal COMPETITION_DIR B OUT.zip --evalai https://eval.ai --token TOKEN --challenge ID

While board B's phase runs its annotation file holds no answer, so the
evaluation stored the placeholder -1 under the phase's split, and that split's
leaderboard is shown to hosts only (visibility 1). After the phase ends, this
command (each step cites the function of Cloud-CV/EvalAI @0f04039 it relies on;
``Authorization: Bearer`` with the host's auth token, JWTAuthentication):

1. finds the board's phase by the codename ``organizer evalai`` gave it
   (``board_b``; apps/challenges/views.py ``challenge_phase_list``) and its
   split (``challenge_phase_split_list``, which shows hosts every split);
2. lists the phase's submissions (``get_all_submissions_of_challenge``, hosts,
   150 a page) and, for each finished one, downloads its file (``input_file``),
   scores it here with the revealed reference data (score.py, as the worker's
   evaluation script would) and stores the scores under the split
   (apps/jobs/views.py ``update_submission``: hosts, no date check; it updates
   the submission's leaderboard row and rewrites its stdout and result files,
   which then show the real scores). EvalAI's worker is not involved: it keeps
   each phase's annotation in memory from its start (scripts/workers/
   submission_worker.py ``load_challenge``), and re-runs stop at the
   challenge's end date;
3. makes the split's leaderboard public (``get_or_update_challenge_phase_split``,
   visibility 3). EvalAI then shows each team's best public submission by the
   primary key (apps/jobs/utils.py ``calculate_distinct_sorted_leaderboard_data``:
   only submissions with ``is_public`` on a public split; ``organizer evalai``
   makes board B's submissions public by default, ``is_submission_public``);
4. reads the public leaderboard back (apps/jobs/views.py ``leaderboard``) and
   fails unless every row shows real scores.

A failed submission stays failed. ``--dry-run`` does step 1 and lists the
submissions that would be scored.
"""
import json
import shutil
import tempfile
from pathlib import Path

from .http_api import Client, RevealError, phase_not_over, upload_name
from .rescore import score_here

PUBLIC = 3                    # ChallengePhaseSplit.VISIBILITY_OPTIONS (apps/challenges/models.py)
SPLITS = {"A": "public_split", "B": "private_split"}   # the split codenames organizer evalai writes
SEALED = -1.0


def _pages(client, path):
    """Every item of a paginated EvalAI list (``results`` and ``next``), or the list itself."""
    items, url = [], path
    while url:
        answer = client.get(url)
        if isinstance(answer, list):
            return items + answer
        items += answer.get("results") or []
        url = answer.get("next")
    return items


def find_phase(client, challenge, board):
    codename = "board_%s" % board.lower()
    phases = [p for p in _pages(client, "challenges/challenge/%d/challenge_phase" % challenge)
              if p.get("codename") == codename]
    if not phases:
        raise RevealError("challenge %d has no phase with codename %s (the codename python3 -m organizer evalai "
                          "gives board %s's phase)" % (challenge, codename, board))
    phase = phases[0]
    splits = [s for s in client.get("challenges/%d/challenge_phase_split" % challenge)
              if s.get("challenge_phase") == phase["id"]]
    if len(splits) != 1:
        raise RevealError("phase %s shows %d dataset splits to this token, and the reveal needs exactly one (a host's "
                          "token sees every split of the challenge's phases)" % (codename, len(splits)))
    return phase, splits[0]


def reveal(competition_dir, board, ref_dir, server, token, challenge, dry_run=False, early=False, log=print):
    """The whole reveal (the module's steps); returns {submission id: scores stored}."""
    client = Client(server.rstrip("/") + "/api/", "Bearer %s" % token)
    phase, split = find_phase(client, challenge, board)
    running = phase_not_over(phase.get("end_date"))
    if running and not early and not dry_run:
        raise RevealError("phase %s is not over: %s, and a submission made after the reveal would show its board-%s "
                          "scores at once; reveal after its end, or pass --early" % (phase.get("codename"), running,
                                                                                     board))
    labels = list((split.get("leaderboard_schema") or {}).get("labels") or [])
    submissions = _pages(client, "challenges/%d/challenge_phase/%d/submissions" % (challenge, phase["id"]))
    finished = [s for s in submissions if str(s.get("status", "")).lower() == "finished"]
    waiting = [s for s in submissions if str(s.get("status", "")).lower() in ("submitted", "running", "queued")]
    if waiting:
        raise RevealError("%d submission(s) of phase %s are still being evaluated (first: %s); run this when the "
                          "queue is empty" % (len(waiting), phase.get("codename"), waiting[0]["id"]))
    log("phase %s (id %d), split %s (id %d): %d finished submission(s) of %d team(s)" % (
        phase.get("codename"), phase["id"], SPLITS.get(board), split["id"], len(finished),
        len({s.get("participant_team") for s in finished})))
    if dry_run:
        for s in finished:
            log("would score submission %s of %s" % (s["id"], s.get("participant_team")))
        return {}
    stored = {}
    work = tempfile.mkdtemp(prefix="reveal-evalai-")
    try:
        for s in finished:
            stored[s["id"]] = _store(client, challenge, phase, board, s, labels, ref_dir, Path(work), log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    client.patch("challenges/challenge/create/challenge_phase_split/%d/" % split["id"], {"visibility": PUBLIC})
    log("split %s is public" % SPLITS.get(board))
    _check_leaderboard(client, split, log)
    return stored


def _store(client, challenge, phase, board, submission, labels, ref_dir, work, log):
    url = submission.get("input_file")
    if not url:
        raise RevealError("EvalAI gives no file for submission %s" % submission["id"])
    data = client.download(url)
    upload = work / str(submission["id"]) / upload_name(url, data)
    upload.parent.mkdir(parents=True)
    upload.write_bytes(data)
    record = score_here(upload, ref_dir, work, work / ("run%s" % submission["id"]))
    if record["exit_code"] != 0:
        raise RevealError("submission %s does not score here: %s" % (submission["id"], record["error"]))
    scores = {k: v for k, v in record["scores"].items() if not labels or k in labels}
    result = [{"split": SPLITS.get(board), "show_to_participant": True, "accuracies": scores}]
    client.put("jobs/challenge/%d/update_submission/" % challenge, {
        "challenge_phase": phase["id"], "submission": submission["id"], "submission_status": "FINISHED",
        "result": json.dumps(result), "stdout": _shown(record["stdout"]), "stderr": "", "metadata": ""})
    log("%s: submission %s, scores %s" % (submission.get("participant_team"), submission["id"], json.dumps(scores)))
    return scores


def _shown(stdout):
    """What score.py printed, without the line naming its output files (the worker's own paths)."""
    return "".join(line for line in stdout.splitlines(True) if "OUTPUT" not in line)


def _check_leaderboard(client, split, log):
    rows = _pages(client, "jobs/challenge_phase_split/%d/leaderboard/" % split["id"])
    sealed = [r for r in rows if all(float(v) == SEALED for v in (r.get("result") or [SEALED]))]
    if sealed:
        raise RevealError("the public leaderboard still shows %d placeholder row(s)" % len(sealed))
    log("the public leaderboard shows %d team(s) with their real scores" % len(rows))
