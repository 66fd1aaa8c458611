"""The reveal's record on CodaLab v1, from the phase's leaderboard download (no API the organizer's token reaches).

    python3 -m organizer reveal COMPETITION_DIR B OUT.zip --codalab-v1 RESULTS.zip --end 2027-03-01T00:00:00+00:00

On CodaLab v1 the reveal's steps are the organizer's, on the site's pages
(docs/organizers.md, "Reveal a sealed board"): the revealed reference data, a
re-run of each leaderboard submission while the phase is blind, the default
leaderboard mode, then the closed reference data. The organizer then downloads
the phase's leaderboard ("Download all submissions on leaderboard":
codalab-competitions @c7ef5e2, apps/web/views.py ``download_leaderboard_results``),
a zip holding, for each leaderboard entry, ``<user> - <n> submission.zip`` (the
submitted file) and ``<user> - <n> output.zip`` (the run's outputs, whose
scores.txt is what the leaderboard shows), where ``<user>`` is the user name or
``Team <team name> ``.

This module reads that zip: each entry's submitted file is scored here (the
record) and each output's scores.txt is the leaderboard read back (``--check``
compares them). The rule is "last": in a blind phase each finished run replaces
its participant's entry (apps/web/tasks.py ``update_submission``). The site
refuses a submission to a phase that is over (apps/api/views/competition_views.py
``CompetitionSubmissionViewSet.perform_create``: "Competition phase is closed."),
so every entry was made before the end; the download gives no creation time,
and the record leaves it empty.
"""
import re
import zipfile
from pathlib import Path

from .final_record import FINISHED, Phase, Row, Submission
from .http_api import RevealError
from scorer.public import aware_time

MEMBER = re.compile(r"^(?P<user>.+?) - (?P<n>\d+) (?P<kind>submission|output)\.zip$")
BLOCK = 1 << 20


class Site:
    name = "codalab_v1"
    site = ""
    competition = ""
    places = 10     # scores.txt as our program writes it: 10 decimals

    def __init__(self, results_zip, end):
        self.path = Path(results_zip)
        self.end = aware_time(end)
        if self.end is None:
            raise RevealError("--end %r is not a date and time with its offset (e.g. 2027-03-01T00:00:00+00:00)" % (
                end,))
        try:
            self.archive = zipfile.ZipFile(self.path)
            names = self.archive.namelist()
        except (OSError, zipfile.BadZipFile, ValueError) as exc:
            raise RevealError("%s is not a readable zip (%s); give the phase's \"Download all submissions on "
                              "leaderboard\" zip" % (self.path, exc))
        self.members = {}
        for name in names:
            match = MEMBER.match(name)
            if match:
                self.members[(match.group("user").strip(), match.group("n"), match.group("kind"))] = name
        if not any(kind == "submission" for _, _, kind in self.members):
            raise RevealError("%s holds no '<user> - <n> submission.zip' (the leaderboard download's form)" % self.path)

    def phase(self):
        return Phase(id="", name="", end=self.end, platform_rule="hide_results: each participant's last finished run",
                     rule="last")

    def submissions(self, phase):
        return [Submission(n, user, None, FINISHED) for (user, n, kind) in sorted(self.members)
                if kind == "submission"]

    def fetch(self, phase, submission, folder, largest):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "submission.zip"
        self._extract(self.members[(submission.team, submission.id, "submission")], path, largest)
        return path

    def show(self, phase, record, reveal_zip, closed_zip):
        print("CodaLab v1: no API to change the leaderboard; the record is written. If the steps of the reveal are "
              "done, the leaderboard download's outputs are compared with it below; then replace the phase's "
              "reference data with %s." % closed_zip)

    def leaderboard(self, phase):
        rows = []
        for (user, n, kind), name in sorted(self.members.items()):
            if kind == "output":
                rows.append(Row(user, n, self._scores(name)))
        return rows

    def _extract(self, name, path, largest):
        info = self.archive.getinfo(name)
        if info.file_size > largest:
            raise RevealError("%s in %s declares %d bytes, more than the board's largest submission (%d)" % (
                name, self.path, info.file_size, largest))
        written = 0
        try:
            with self.archive.open(info) as src, open(path, "wb") as dst:
                for block in iter(lambda: src.read(BLOCK), b""):
                    written += len(block)
                    if written > info.file_size:
                        raise RevealError("%s in %s holds more than the size its directory declares" % (
                            name, self.path))
                    dst.write(block)
        except (OSError, zipfile.BadZipFile, RuntimeError) as exc:
            raise RevealError("%s in %s cannot be read (%s)" % (name, self.path, exc))

    def _scores(self, name):
        """The scores.txt of an output zip (``key: value`` lines), or {} when it has none."""
        try:
            with self.archive.open(name) as fh, zipfile.ZipFile(fh) as inner:
                member = next((m for m in inner.namelist() if m.rsplit("/", 1)[-1] == "scores.txt"), None)
                if member is None or inner.getinfo(member).file_size > BLOCK:
                    return {}
                text = inner.read(member).decode("utf-8", "replace")
        except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
            return {}
        scores = {}
        for line in text.splitlines():
            key, sep, value = line.partition(":")
            try:
                scores[key.strip()] = float(value)
            except ValueError:
                continue
        return scores
