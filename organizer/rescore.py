"""Re-score every downloaded submission on one board and write a ranked leaderboard.

    python3 -m organizer rescore COMPETITION_DIR BOARD SUBMISSIONS_DIR OUT_DIR [-j N]

SUBMISSIONS_DIR holds one entry per team: a file, a zip or a folder; its name
(without extension) is the team's name on the leaderboard. Each one is scored
by scoring_program/score.py in a fresh process, N at a time, exactly as a
platform would (python3 -m organizer score's layout). A run is keyed by the SHA-256
of the submission, the board's reference data and the scoring program, so
running the command again only scores what is new or changed (after fixing
the reference or the program, everything is re-scored). A sealed board is
scored as revealed (``report: full``): this is one way to reveal it.

Writes OUT_DIR/leaderboard.csv and OUT_DIR/leaderboard.html (self-contained,
every string escaped): rank by the primary key (ties share a rank), each
score, and the one-line error of each failed submission. Per-team outputs are
kept in OUT_DIR/runs/<team>/.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from . import PROGRAM
from .layout import assemble_reference, load_board_config
from .score import organizer_env

SKIP = {".DS_Store", "Thumbs.db", "__MACOSX"}


def tree_hash(path, digest=None):
    """SHA-256 over the names and bytes of a file or of every file below a folder (sorted, caches skipped)."""
    digest = digest or hashlib.sha256()
    path = Path(path)
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()
                                                 and "__pycache__" not in p.parts and p.suffix != ".pyc")
    for f in files:
        digest.update(f.relative_to(path).as_posix().encode() if f != path else f.name.encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(f.read_bytes()).digest())
    return digest


def run_key(submission, ref_dir, program_dir):
    digest = hashlib.sha256()
    for part in (submission, ref_dir, program_dir):
        tree_hash(part, digest)
        digest.update(b"\1")
    return digest.hexdigest()


def team_name(path):
    name = Path(path).name
    return name if Path(path).is_dir() else Path(name).stem


def score_one(submission, ref_dir, program_dir, run_dir, key):
    """Score one submission in ``run_dir``; returns its result record (also saved as result.json)."""
    run_dir = Path(run_dir)
    if run_dir.exists():
        shutil.rmtree(run_dir)
    input_dir, output_dir = run_dir / "input", run_dir / "output"
    shutil.copytree(ref_dir, input_dir / "ref")
    res = input_dir / "res"
    if Path(submission).is_dir():
        shutil.copytree(submission, res)
    else:
        res.mkdir(parents=True)
        shutil.copy2(submission, res / Path(submission).name)
    proc = subprocess.run([sys.executable, str(Path(program_dir) / "score.py"), str(input_dir), str(output_dir)],
                          cwd=str(run_dir), capture_output=True, text=True, env=organizer_env())
    record = {"key": key, "exit_code": proc.returncode, "scores": {}, "error": ""}
    if proc.returncode == 0:
        with open(output_dir / "scores.json", encoding="utf-8") as fh:
            record["scores"] = json.load(fh)
    else:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        record["error"] = lines[-1] if lines else "exit code %d" % proc.returncode
    shutil.rmtree(input_dir)  # the reference copy is not needed any more
    (run_dir / "result.json").write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    return record


def cached(run_dir, key):
    path = Path(run_dir) / "result.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if record.get("key") == key else None


class Progress:
    """A plain-text progress bar on stderr: ``[#####.....] 5/10 (2 cached, 1 failed)``."""

    def __init__(self, total, stream=None, width=30):
        self.total, self.done, self.cached, self.failed = total, 0, 0, 0
        self.stream, self.width = stream or sys.stderr, width

    def step(self, from_cache=False, failed=False):
        self.done += 1
        self.cached += bool(from_cache)
        self.failed += bool(failed)
        filled = self.width * self.done // max(self.total, 1)
        self.stream.write("\r[%s%s] %d/%d (%d cached, %d failed)" % ("#" * filled, "." * (self.width - filled),
                                                                     self.done, self.total, self.cached, self.failed))
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def submissions_in(folder):
    return [p for p in sorted(Path(folder).iterdir()) if p.name not in SKIP and not p.name.startswith(".")]


def rescore(competition, board, submissions_dir, out_dir, jobs=1, stream=None):
    """Score every submission (cached runs skipped); returns {team: record}."""
    out_dir = Path(out_dir).resolve()
    ref_dir = out_dir / ("reference_%s" % board)
    if ref_dir.exists():
        shutil.rmtree(ref_dir)
    # the organizer re-scores to rank: a sealed board is scored as revealed
    assemble_reference(Path(competition) / "reference_data", board, ref_dir, reveal=True)
    program_dir = PROGRAM
    entries = submissions_in(submissions_dir)
    names = [team_name(p) for p in entries]
    if len(set(names)) != len(names):
        raise SystemExit("two submissions have the same team name: %s" % sorted(n for n in names if names.count(n) > 1))
    progress = Progress(len(entries), stream)
    records, todo = {}, []
    for path, name in zip(entries, names):
        key = run_key(path, ref_dir, program_dir)
        record = cached(out_dir / "runs" / name, key)
        if record is not None:
            records[name] = record
            progress.step(from_cache=True, failed=record["exit_code"] != 0)
        else:
            todo.append((path, name, key))
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(score_one, str(path), str(ref_dir), str(program_dir), str(out_dir / "runs" / name),
                               key): name for path, name, key in todo}
        for future in concurrent.futures.as_completed(futures):
            record = future.result()
            records[futures[future]] = record
            progress.step(failed=record["exit_code"] != 0)
    return records


def column_order(competition, board):
    """(primary key, sort 'asc'|'desc', other keys in leaderboard order) from the board config and competition.yaml."""
    config = load_board_config(Path(competition) / "reference_data", board)
    columns = {}
    path = Path(competition) / "competition.yaml"
    if path.is_file():
        with open(path, encoding="utf-8") as fh:
            comp = yaml.safe_load(fh) or {}
        columns = (comp.get("leaderboard") or {}).get("columns") or {}
    keys = sorted((k for k, c in columns.items() if not c.get("computed")),
                  key=lambda k: (columns[k].get("rank", 10 ** 6), k))
    primary = config.get("primary_key") or (keys[0] if keys else None)
    sort = (columns.get(primary) or {}).get("sort", "desc")
    return primary, sort, keys


def leaderboard(records, primary, sort, keys):
    """Rows [rank, team, status, scores..., error], best first; ties share a rank; failures unranked, last."""
    keys = keys or sorted({k for r in records.values() for k in r["scores"]})
    if primary is None and keys:
        primary = keys[0]
    ok = [(t, r) for t, r in records.items() if r["exit_code"] == 0]
    failed = sorted((t, r) for t, r in records.items() if r["exit_code"] != 0)
    sign = 1.0 if sort == "asc" else -1.0
    ok.sort(key=lambda tr: (sign * round(float(tr[1]["scores"].get(primary, 0.0)), 10), tr[0]))
    rows, rank, previous = [], 0, None
    for position, (team, record) in enumerate(ok, start=1):
        value = round(float(record["scores"].get(primary, 0.0)), 10)
        if value != previous:
            rank, previous = position, value
        rows.append([rank, team, "scored"] + [record["scores"].get(k, "") for k in keys] + [""])
    for team, record in failed:
        rows.append(["", team, "failed"] + [""] * len(keys) + [record["error"]])
    return ["rank", "submission", "status"] + list(keys) + ["error"], rows


def write_csv(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([[spreadsheet_safe(v) for v in row] for row in rows])


def spreadsheet_safe(value):
    """A cell a spreadsheet shows as text: a team name or error starting with = + - @ (or TAB, CR) is not a formula.

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe(-0.5), spreadsheet_safe("team-1")
    ("'=HYPERLINK(1)", -0.5, 'team-1')
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _cell(value):
    if isinstance(value, float):
        return "%.4f" % value
    return html.escape(str(value))


def write_html(path, title, header, rows, primary):
    head = "".join("<th%s>%s</th>" % (' class="primary"' if h == primary else "", html.escape(h)) for h in header)
    body = "\n".join("<tr class=\"%s\">%s</tr>" % (html.escape(str(r[2])), "".join("<td>%s</td>" % _cell(v) for v in r))
                     for r in rows)
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>"
            "body{font-family:sans-serif;margin:24px}table{border-collapse:collapse}"
            "th,td{border:1px solid #ccc;padding:4px 8px}th{background:#f3f3f3}.primary{background:#eef6ff}"
            "tr.failed td{color:#a00}</style></head><body><h1>%s</h1>\n<table><tr>%s</tr>\n%s\n</table>"
            "</body></html>\n" % (html.escape(title), html.escape(title), head, body))
    Path(path).write_text(page, encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m organizer rescore", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("board", help="A, B or any board_<X>.yaml name")
    parser.add_argument("submissions", help="folder with one file, zip or folder per team")
    parser.add_argument("out", help="output folder (kept between runs: finished submissions are skipped)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    records = rescore(args.competition, args.board, args.submissions, out, args.jobs)
    primary, sort, keys = column_order(args.competition, args.board)
    header, rows = leaderboard(records, primary, sort, keys)
    write_csv(out / "leaderboard.csv", header, rows)
    write_html(out / "leaderboard.html", "Board %s: %d submissions" % (args.board, len(rows)), header, rows, primary)
    failed = sum(r[2] == "failed" for r in rows)
    print("wrote %s and %s (%d scored, %d failed)" % (out / "leaderboard.csv", out / "leaderboard.html",
                                                       len(rows) - failed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
