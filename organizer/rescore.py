"""Re-score every downloaded submission, rank them, and say which differences the test set can tell.

    python3 -m organizer rescore COMPETITION_DIR BOARD SUBMISSIONS_DIR OUT_DIR [-j N] [--alpha 0.05]
                                 [--permutations 2000] [--similar 0.95] [--compare A]

SUBMISSIONS_DIR holds one entry per team: a file, a zip or a folder; its name
(without extension) is the team's name on the leaderboard. Each one is scored
as scoring_program/score.py scores it (the same code, the same output bytes),
on BOARD and on every other board of the competition (``--compare``), for a
side-by-side view, in N worker processes that each open a board's reference
data once and score submission after submission. A run is keyed by the
SHA-256 of the submission, the board's reference data and the scoring
program, so running the command again only scores what is new or changed
(after fixing the reference or the program, everything is re-scored). A
sealed board is scored as revealed (``report: full``). A link or a special
file is refused by name and a submission that cannot be read is marked
failed with the reason; the others are ranked.

On BOARD, each run also keeps its per-unit counts and per-unit answers:

- significance tiers (organizer/tiers.py): a paired approximate randomization
  test between each team and the one above it, and the tiers of teams that
  are not significantly different at ``--alpha``;
- similar submissions (organizer/similar.py): teams whose answers are
  identical, or agree on at least ``--similar`` of BOARD's units.

Writes, in OUT_DIR: leaderboard.csv (rank, tier, team, status, scores,
p-values, error), tiers.csv, similar.csv, side_by_side.csv and
leaderboard.html (all of it on one self-contained page that fits a laptop
screen, every string escaped, in the competition's language:
organizer/rescore_page.py; the CSV files' column names stay English). Per-team
outputs are kept in
OUT_DIR/runs/<board>/<team>/.
"""
import concurrent.futures
import contextlib
import csv
import functools
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import yaml

from .inputs import OrganizerError, Parser, cannot_read, existing_folder, refused
from . import PROGRAM, progress as progress_of
from .layout import board_configs, load_board_config
from .phase_data import assemble_reference
from .rescore_page import method_note, page, title as page_title
from .similar import DEFAULT_THRESHOLD, groups as similar_groups
from .tiers import DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, salt, tiers
from scorer.public import DEFAULT_SEED, ORGANIZER_ENV, Competition, digests, paired_randomization, provenance, run_once

SKIP = {".DS_Store", "Thumbs.db", "__MACOSX"}
ANALYSIS = 1   # the version of what analyse() keeps; a cached run of another version is analysed again
UNITS, ANSWERS = "units.npy", "answers.npy"
DEFAULT_TIERS_TOP = 100   # submissions of the ranking given tiers: a team is tested against every member of its tier


def tree_hash(path, digest=None):
    """SHA-256 over the names and bytes of a file or of every file below a folder (sorted, caches skipped); OSError
    when a file or a folder cannot be read."""
    digest = digest or hashlib.sha256()
    path = Path(path)
    if path.is_file():
        files = [path]
    else:
        files = []
        for root, dirs, names in os.walk(path, onerror=_raise):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            files += [Path(root) / n for n in names if not n.endswith(".pyc") and (Path(root) / n).is_file()]
        files.sort()
    for f in files:
        digest.update(f.relative_to(path).as_posix().encode() if f != path else f.name.encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(f.read_bytes()).digest())
    return digest


def _raise(error):
    raise error


def run_key(submission_digest, ref_key, program_key):
    """The key of a run: the submission's bytes (names included), the board's reference data and the program."""
    return hashlib.sha256(("%s\1%s\1%s" % (submission_digest, ref_key, program_key)).encode("ascii")).hexdigest()


def team_name(path):
    name = Path(path).name
    return name if Path(path).is_dir() else Path(name).stem


def analyse(comp, outcome, run_dir):
    """Per-unit counts of the primary score and per-unit answers of a scored run (``outcome``: its RunResult),
    saved in ``run_dir``. Returns what the record keeps: the Units group of the primary key and the digest of
    every answer."""
    group = outcome.result.units_of(comp.cfg.primary_key)
    found = {"version": ANALYSIS, "group": group.name if group else None}
    if group is not None:
        np.save(Path(run_dir) / UNITS, group.make(), allow_pickle=False)
    try:
        answers = comp.family.unit_answers(comp.reference, outcome.submission)
    except NotImplementedError:
        answers = None
    if answers is not None:
        np.save(Path(run_dir) / ANSWERS, answers, allow_pickle=False)
        found["digest"] = digests.whole(answers)
    return found


# -- the worker processes: each opens a board's reference once and scores submission after submission in itself ---
_OPEN = {}   # (reference folder, its key) -> (the worker's INPUT folder, its Competition)


def _worker_start():
    """A worker's environment: an organizer's run (full reference-data messages, OUTPUT/private/ written), as
    ``python3 -m organizer score`` runs score.py."""
    os.environ[ORGANIZER_ENV] = "1"
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _opened(ref_dir, ref_key, work):
    """This worker's INPUT folder for the board (its own copy of the reference data in ref/) and the Competition
    opened from it, made once per worker and board."""
    if (ref_dir, ref_key) not in _OPEN or not (_OPEN[ref_dir, ref_key][0] / "ref").is_dir():
        input_dir = Path(tempfile.mkdtemp(prefix="worker-", dir=work)) / "input"
        shutil.copytree(ref_dir, input_dir / "ref")
        _OPEN[ref_dir, ref_key] = (input_dir, Competition.open(str(input_dir / "ref")))
    return _OPEN[ref_dir, ref_key]


def score_one(submission, ref_dir, ref_key, work, run_dir, key, analysed=False):
    """Score one submission as score.py scores it (its outputs in ``run_dir``/output, the same bytes), with the
    board's reference opened once in this process; its record (also ``run_dir``/result.json)."""
    input_dir, comp = _opened(ref_dir, ref_key, work)
    run_dir = Path(run_dir)
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    output_dir = run_dir / "output"
    res = input_dir / "res"
    if res.exists():
        shutil.rmtree(res)
    if Path(submission).is_dir():
        shutil.copytree(submission, res, symlinks=True)   # a link stays a link: score.py refuses it by name
    else:
        res.mkdir(parents=True)
        shutil.copy2(submission, res / Path(submission).name)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code, outcome = run_once(str(input_dir), str(output_dir.resolve()), comp)
    record = {"key": key, "exit_code": code, "scores": {}, "error": "",
              "stdout": out.getvalue().replace(str(output_dir.resolve()), "OUTPUT")}
    if code == 0:
        with open(output_dir / "scores.json", encoding="utf-8") as fh:
            record["scores"] = json.load(fh)
        if analysed:
            record["analysis"] = analyse(comp, outcome, run_dir)
    else:
        lines = [l for l in err.getvalue().splitlines() if l.strip()]
        record["error"] = lines[-1] if lines else "exit code %d" % code
    (run_dir / "result.json").write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    return record


def score_here(submission, ref_dir, work, run_dir):
    """``score_one`` in this process, as an organizer's run, ``SCORER_ORGANIZER`` set for the run only: what the
    reveal compares a platform's scores with."""
    before = os.environ.get(ORGANIZER_ENV)
    os.environ[ORGANIZER_ENV] = "1"
    try:
        return score_one(str(submission), str(ref_dir), tree_hash(ref_dir).hexdigest(), str(work), str(run_dir), "")
    finally:
        if before is None:
            del os.environ[ORGANIZER_ENV]
        else:
            os.environ[ORGANIZER_ENV] = before


def cached(run_dir, key, analysed=False):
    path = Path(run_dir) / "result.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    if analysed and record.get("exit_code") == 0 and (record.get("analysis") or {}).get("version") != ANALYSIS:
        return None
    return record


class Tally:
    """How many of a board's submissions are done, from the cache, failed; said through the command's Progress."""

    def __init__(self, board, total, progress):
        self.board, self.total, self.progress = board, total, progress
        self.done = self.cached = self.failed = 0

    def step(self, from_cache=False, failed=False):
        self.done += 1
        self.cached += bool(from_cache)
        self.failed += bool(failed)
        self.progress.count("board %s" % self.board, self.done, self.total, self.counts())

    def counts(self):
        return "%d cached, %d failed" % (self.cached, self.failed)


def submissions_in(folder):
    folder = existing_folder(folder, "the submissions folder")
    return [p for p in sorted(folder.iterdir()) if p.name not in SKIP and not p.name.startswith(".")]


def reference_folder(refs, board):
    """Where a board's reference data is assembled: in ``refs``, a temporary folder outside the output, since the
    output (leaderboard.csv, leaderboard.html) is what organizers publish and the reference holds the answers."""
    return Path(refs) / ("reference_%s" % board)


def failed_record(error):
    """The record of a submission that was not scored: its one line."""
    return {"key": "", "exit_code": 1, "scores": {}, "error": error, "stdout": ""}


def rescore(competition, board, submissions_dir, out_dir, refs, pool, progress, analysed=False, hashes=None):
    """Score every submission on ``board`` in ``pool`` (cached runs skipped); returns ({team: record}, the Tally).

    The reference data is assembled once (a sealed board revealed: the organizer ranks the real scores); each
    worker opens it once. A link or a special file is refused by name, a submission that cannot be read is marked
    failed with the reason, and the others are scored. ``hashes``: the submissions' digests by path, kept from
    one board to the next (each submission is read once to be keyed).
    """
    hashes = {} if hashes is None else hashes
    out_dir = Path(out_dir).resolve()
    ref_dir = reference_folder(refs, board)
    if ref_dir.exists():
        shutil.rmtree(ref_dir)
    progress.step("the reference data of board %s" % board)
    assemble_reference(Path(competition) / "reference_data", board, ref_dir, reveal=True)
    ref_key = tree_hash(ref_dir).hexdigest()
    entries = submissions_in(submissions_dir)
    names = [team_name(p) for p in entries]
    if len(set(names)) != len(names):
        raise OrganizerError("two submissions have the same team name: %s"
                             % sorted(n for n in names if names.count(n) > 1))
    tally = Tally(board, len(entries), progress)
    runs = out_dir / "runs" / board
    records, todo = {}, []
    for path, name in zip(entries, names):
        refused = refused_entry(path)
        if not refused:
            try:
                if path not in hashes:
                    hashes[path] = tree_hash(path).hexdigest()
                key = run_key(hashes[path], ref_key, program_key())
            except OSError as exc:   # unreadable (permissions, a vanished file): this team only
                refused = cannot_read(path, exc)
        if refused:   # never followed nor opened: its line, and the others are ranked
            records[name] = failed_record(refused)
            tally.step(failed=True)
            continue
        record = cached(runs / name, key, analysed)
        if record is not None:
            records[name] = record
            tally.step(from_cache=True, failed=record["exit_code"] != 0)
        else:
            todo.append((path, name, key))
    futures = {pool.submit(score_one, str(path), str(ref_dir), ref_key, str(refs), str(runs / name), key, analysed):
               (name, path) for path, name, key in todo}
    for future in concurrent.futures.as_completed(futures):
        name, path = futures[future]
        try:
            record = future.result()
        except OSError as exc:   # the submission could not be copied for its run
            record = failed_record(cannot_read(path, exc))
        records[name] = record
        tally.step(failed=record["exit_code"] != 0)
    return records, tally


def refused_entry(path):
    """Why a team's entry is not scored without reading it (a link, a special file), or ''."""
    return refused(path, "put the submission itself in the folder")


@functools.lru_cache(maxsize=1)
def program_key():
    """The scoring program's digest (scorer/publish/provenance.py): every file of scoring_program/."""
    return provenance.program_digest(str(PROGRAM))


def column_order(competition, board):
    """(primary key, sort 'asc'|'desc', other keys in leaderboard order, {key: label}) from the board config and
    competition.yaml."""
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
    labels = {k: str(c.get("label")) for k, c in columns.items() if c.get("label")}
    return primary, sort, keys, labels


def ranked_teams(records, primary, sort):
    """[(rank, team)] of the scored teams, best first; ties share a rank."""
    ok = [(t, r) for t, r in records.items() if r["exit_code"] == 0]
    sign = 1.0 if sort == "asc" else -1.0
    ok.sort(key=lambda tr: (sign * round(float(tr[1]["scores"].get(primary, 0.0)), 10), tr[0]))
    out, rank, previous = [], 0, None
    for position, (team, record) in enumerate(ok, start=1):
        value = round(float(record["scores"].get(primary, 0.0)), 10)
        if value != previous:
            rank, previous = position, value
        out.append((rank, team))
    return out


def leaderboard(records, primary, sort, keys, tier_rows=None):
    """Rows [rank, tier, team, status, scores..., p vs previous, p in tier, error], best first; ties share a rank;
    failures unranked, last."""
    keys = keys or sorted({k for r in records.values() for k in r["scores"]})
    if primary is None and keys:
        primary = keys[0]
    tier_of = {row.team: row for row in (tier_rows or [])}
    rows = []
    for rank, team in ranked_teams(records, primary, sort):
        record, t = records[team], tier_of.get(team)
        rows.append([rank, t.tier if t else "", team, "scored"] + [record["scores"].get(k, "") for k in keys]
                    + [_p(t.p_vs_previous) if t else "", _p(t.p_in_tier) if t else "", ""])
    for team, record in sorted((t, r) for t, r in records.items() if r["exit_code"] != 0):
        rows.append(["", "", team, "failed"] + [""] * len(keys) + ["", "", record["error"]])
    return ["rank", "tier", "submission", "status"] + list(keys) + ["p_vs_previous", "p_in_tier", "error"], rows


def _p(value):
    return "" if value is None else round(float(value), 6)


def significance(refs, board, out_dir, records, primary, sort, alpha, permutations, seed, top=0, pool=None,
                 jobs=1, progress=None):
    """(the tier rows of the first ``top`` scored teams on ``board`` (0: every one), the competition used to
    compute them, the Units group).

    The paired tests of a team are computed at once in ``pool`` (each worker opens the board and the teams' tables
    itself) and kept in runs/<board>/tiers_cache.json, keyed by the two tables' bytes, the reference data, the
    program and the test's settings: a run that changes nothing computes none again.
    """
    ref_dir = reference_folder(refs, board)
    comp = Competition.open(str(ref_dir))
    order = [team for _, team in ranked_teams(records, primary, sort)]
    order = order[:top] if top else order
    group = {records[t].get("analysis", {}).get("group") for t in order} - {None}
    if not order or len(group) != 1:
        return [], comp, None
    group = group.pop()
    runs = Path(out_dir).resolve() / "runs" / board
    tables = {t: np.load(runs / t / UNITS, allow_pickle=False) for t in order}
    statistic = comp.family.statistic(group, comp.cfg.primary_key, comp.cfg)
    known = _tests_cache(runs)
    ref_key = tree_hash(ref_dir).hexdigest()
    digest = {t: hashlib.sha256((runs / t / UNITS).read_bytes()).hexdigest() for t in order}
    setting = "%s\1%s\1%s\1%s\1%d\1%d" % (ref_key, program_key(), group, comp.cfg.primary_key, permutations, seed)
    done = [0]

    def key(a, b):
        return hashlib.sha256(("%s\1%s\1%s\1%s" % (setting, digest[a], digest[b], salt(a, b))).encode("utf-8")
                              ).hexdigest()

    def tested(pairs):
        keys = [key(a, b) for a, b in pairs]
        todo = [(pair, k) for pair, k in zip(pairs, keys) if k not in known]
        if todo and pool is not None and len(todo) > 1:
            size = -(-len(todo) // max(1, jobs))
            chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
            futures = [pool.submit(_p_values, str(ref_dir), ref_key, str(refs), group,
                                   [(str(runs / a / UNITS), str(runs / b / UNITS), salt(a, b)) for (a, b), _ in chunk],
                                   permutations, seed) for chunk in chunks]
            for chunk, future in zip(chunks, futures):
                known.update(zip([k for _, k in chunk], future.result()))
        else:
            for (a, b), k in todo:
                known[k] = paired_randomization(tables[a], tables[b], statistic, permutations, seed,
                                                salt=salt(a, b)).p_value
        done[0] += 1
        if progress is not None:
            progress.count("tiers of board %s" % board, done[0], len(order) - 1)
        return [known[k] for k in keys]

    rows = tiers(order, tables, statistic, alpha, permutations, seed, tested=tested)
    (runs / TESTS).write_text(json.dumps(known, sort_keys=True), encoding="utf-8")
    return rows, comp, group


TESTS = "tiers_cache.json"


def _tests_cache(runs):
    """{key: p-value} of the paired tests an earlier run computed ({} without one, or a damaged one)."""
    try:
        known = json.loads((Path(runs) / TESTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in known.items() if isinstance(v, (int, float))} if isinstance(known, dict) else {}


@functools.lru_cache(maxsize=64)
def _table(path):
    return np.load(path, allow_pickle=False)


def _p_values(ref_dir, ref_key, work, group, pairs, permutations, seed):
    """In a worker: the p-values of the paired tests of ``pairs`` (units file, units file, salt)."""
    comp = _opened(ref_dir, ref_key, work)[1]
    statistic = comp.family.statistic(group, comp.cfg.primary_key, comp.cfg)
    return [paired_randomization(_table(a), _table(b), statistic, permutations, seed, salt=pair_salt).p_value
            for a, b, pair_salt in pairs]


def similar(out_dir, board, records, comp, threshold):
    runs = Path(out_dir).resolve() / "runs" / board
    answers = {t: np.load(runs / t / ANSWERS, allow_pickle=False) for t, r in records.items()
               if r["exit_code"] == 0 and (runs / t / ANSWERS).exists()}
    return similar_groups(answers, comp.boards.mask(board), threshold)


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


def side_by_side(boards, primary, sort, all_records):
    """Rows [team, then rank and primary score on each board, rank change]: the main board first."""
    ranks = {b: dict((team, rank) for rank, team in ranked_teams(all_records[b], primary, sort)) for b in boards}
    teams = sorted(set().union(*[set(all_records[b]) for b in boards]),
                   key=lambda t: (ranks[boards[0]].get(t, 10 ** 9), t))
    rows = []
    for team in teams:
        row = [team]
        for b in boards:
            record = all_records[b].get(team) or {"exit_code": None, "scores": {}}
            row += [ranks[b].get(team, ""), record["scores"].get(primary, "") if record["exit_code"] == 0 else ""]
        main, other = ranks[boards[0]].get(team), ranks[boards[-1]].get(team) if len(boards) > 1 else None
        row.append(other - main if main is not None and other is not None and len(boards) > 1 else "")
        rows.append(row)
    header = ["submission"]
    for b in boards:
        header += ["rank %s" % b, "%s %s" % (primary, b)]
    return header + ["rank change (%s - %s)" % (boards[-1], boards[0]) if len(boards) > 1 else "rank change"], rows


def other_boards(competition, board):
    return [b for b in board_configs(Path(competition) / "reference_data") if b != board]


def main(argv=None):
    parser = Parser(prog="python3 -m organizer rescore", description=__doc__.split("\n\n")[0])
    parser.add_argument("competition")
    parser.add_argument("board", help="the board to rank: A, B or any board_<X>.yaml name")
    parser.add_argument("submissions", help="folder with one file, zip or folder per team")
    parser.add_argument("out", help="output folder (kept between runs: finished submissions are skipped)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, help="level of the tier tests (default 0.05)")
    parser.add_argument("--permutations", type=int, default=DEFAULT_PERMUTATIONS,
                        help="permutations of each paired test (default %d)" % DEFAULT_PERMUTATIONS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--similar", type=float, default=DEFAULT_THRESHOLD,
                        help="agreement on the board's units that flags two submissions (default 0.95)")
    parser.add_argument("--compare", nargs="*", default=None,
                        help="other boards to score for the side-by-side view (default: every other board)")
    parser.add_argument("--tiers-top", type=int, default=DEFAULT_TIERS_TOP, metavar="N",
                        help="significance tiers of the first N submissions of the ranking (default %d; 0: every "
                             "one: the tests grow with the square of a tier's size)" % DEFAULT_TIERS_TOP)
    progress_of.add_argument(parser)
    args = parser.parse_args(argv)
    if args.tiers_top < 0:
        parser.error("--tiers-top must be 0 (every submission) or more")
    if not 0 < args.alpha < 1 or not 0 < args.similar <= 1 or args.permutations < 1 or args.jobs < 1:
        parser.error("--alpha must be in (0, 1), --similar in (0, 1], --permutations and -j at least 1")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise OrganizerError("the output folder %s is a file; give a folder's path" % out)
    submissions_in(args.submissions)
    out.mkdir(parents=True, exist_ok=True)
    compare = other_boards(args.competition, args.board) if args.compare is None else args.compare
    refs = tempfile.mkdtemp(prefix="rescore-references-")
    try:
        return _rescore(args, out, compare, refs)
    finally:
        shutil.rmtree(refs, ignore_errors=True)


def _rescore(args, out, compare, refs):
    progress = progress_of.start("organizer rescore", args.progress)
    all_records = {}
    primary, sort, keys, labels = column_order(args.competition, args.board)
    hashes = {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs, initializer=_worker_start) as pool:
        for board in [args.board] + list(compare):
            all_records[board], tally = rescore(args.competition, board, args.submissions, out, refs, pool, progress,
                                                analysed=board == args.board, hashes=hashes)
            print("board %s: %d submissions (%s)" % (board, tally.total, tally.counts()))
        records = all_records[args.board]
        tier_rows, comp, group = significance(refs, args.board, out, records, primary, sort, args.alpha,
                                              args.permutations, args.seed, args.tiers_top, pool, args.jobs, progress)
    header, rows = leaderboard(records, primary, sort, keys, tier_rows)
    write_csv(out / "leaderboard.csv", header, rows)
    write_csv(out / "tiers.csv", ["tier", "rank", "submission", primary, "p_vs_previous", "p_in_tier", "method"],
              [[t.tier, r[0], t.team, t.score, _p(t.p_vs_previous), _p(t.p_in_tier),
                "paired approximate randomization, %d permutations, alpha %g" % (args.permutations, args.alpha)]
               for t, r in zip(tier_rows, [r for r in rows if r[3] == "scored"])])
    found = similar(out, args.board, records, comp, args.similar)
    write_csv(out / "similar.csv", ["group", "kind", "submission", "other", "agreement"],
              [[k + 1, g.kind, a, b, round(share, 6)] for k, g in enumerate(found) for a, b, share in g.pairs])
    boards = [args.board] + [b for b in compare if b in all_records]
    sbs = side_by_side(boards, primary, sort, all_records)
    write_csv(out / "side_by_side.csv", *sbs)
    lang = comp.cfg.language   # the page speaks the competition's language
    title = page_title(comp.cfg.title, args.board)
    scored = sum(r[3] == "scored" for r in rows)
    note = method_note(comp, group, args.alpha, args.permutations, args.seed, max(len(tier_rows) - 1, 0),
                       len(tier_rows), scored, lang)
    (out / "leaderboard.html").write_text(page(title, args.board, labels, primary, keys, rows, note, found,
                                               (boards, sbs[1]) if len(boards) > 1 else None, args.similar,
                                               comp.family.unit_noun, lang), encoding="utf-8")
    failed = sum(r[3] == "failed" for r in rows)
    print("wrote %s, tiers.csv, similar.csv, side_by_side.csv and leaderboard.html (%d scored, %d failed, %d tiers, "
          "%d groups of similar submissions)" % (out / "leaderboard.csv", len(rows) - failed, failed,
                                                 max([t.tier for t in tier_rows] + [0]), len(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
