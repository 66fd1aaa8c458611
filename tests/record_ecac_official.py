"""Run the official SemEval-2024 Task 3 scorer on every case of tests/ecac_corpus.py and record what it did.

Usage (the scorer is never part of this project: export it to a folder of your own first)::

    git -C <clone of NUSTM/SemEval-2024_ECAC> show HEAD:CodaLab/evaluation/evaluate.py > /tmp/ecac/evaluate.py
    python3 tests/record_ecac_official.py /tmp/ecac/evaluate.py --commit <snapshot commit> \\
        [--file-commit <last commit of evaluate.py>] [--data ../shared/data/ecac]

For each case it runs ``python3 evaluate.py INPUT OUTPUT`` (INPUT/ref = the real
test gold as Subtask_{1,2}_gold.json, INPUT/res = the case's files) and records
the verdict (``scored``: exit code 0; ``rejected``: anything else), the numbers of
scores.txt, or the last line of stderr. For scored subtask 1 files it also runs
the scorer's own fuzzy matching (defined in evaluate.py, never printed by it)
through a wrapper that calls its ``cal_prf_span_pair_emocate`` a second time with
``span_mode='fuzzy'`` on a copy of the gold. Writes
tests/fixtures/ecac_official_corpus.json. Plain standard library besides what
the scorer itself imports (numpy).
"""
import argparse
import copy
import hashlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ecac_corpus import SEED, corpus  # noqa: E402

FIXTURE = HERE / "fixtures" / "ecac_official_corpus.json"
FUZZY_KEYS = ("weighted_fuzzy_precision", "weighted_fuzzy_recall", "weighted_fuzzy_f1",
              "fuzzy_precision", "fuzzy_recall", "fuzzy_f1")


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_official(scorer, gold, files, python):
    """(verdict, scores or None, last stderr line or None) of one plain run of the scorer."""
    with tempfile.TemporaryDirectory() as tmp:
        ref, res, out = (Path(tmp) / d for d in ("input/ref", "input/res", "output"))
        for folder in (ref, res, out):
            folder.mkdir(parents=True)
        for subtask, text in gold.items():
            (ref / ("Subtask_%d_gold.json" % subtask)).write_text(text, encoding="utf-8")
        for subtask, text in files.items():
            if text is not None:
                (res / ("Subtask_%d_pred.json" % subtask)).write_text(text, encoding="utf-8")
        env = dict(os.environ, PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8", PYTHONUTF8="1")
        proc = subprocess.run([python, str(scorer), str(Path(tmp) / "input"), str(out)], capture_output=True,
                              text=True, env=env, timeout=600)
        if proc.returncode != 0:
            lines = [line for line in proc.stderr.splitlines() if line.strip()]
            return "rejected", None, lines[-1] if lines else "exit %d" % proc.returncode
        scores = {}
        for line in (out / "scores.txt").read_text(encoding="utf-8").splitlines():
            key, value = line.split(":", 1)
            scores[key] = float(value)
        return "scored", scores, None


def official_fuzzy(scorer, gold1_text, pred1_text):
    """The scorer's fuzzy numbers for one subtask 1 file, through its own functions."""
    saved = sys.argv
    sys.argv = [str(scorer)]  # the module reads its folders from argv at import
    try:
        spec = importlib.util.spec_from_file_location("official_ecac_evaluate", str(scorer))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.argv = saved
    original = module.cal_prf_span_pair_emocate
    seen = {}

    def with_fuzzy(true_dict, pred_pairs, span_mode="strict"):
        seen["fuzzy"] = original(copy.deepcopy(true_dict), pred_pairs, span_mode="fuzzy")
        return original(true_dict, pred_pairs, span_mode=span_mode)

    module.cal_prf_span_pair_emocate = with_fuzzy
    module.evaluate_1_2(json.loads(pred1_text), json.loads(gold1_text))
    return dict(zip(FUZZY_KEYS, (float(v) for v in seen["fuzzy"])))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scorer", help="path of the exported evaluate.py")
    parser.add_argument("--commit", required=True, help="commit of the scorer's repository snapshot")
    parser.add_argument("--file-commit", default="", help="last commit that changed evaluate.py")
    parser.add_argument("--data", default=str(HERE.parents[1] / "shared" / "data" / "ecac"),
                        help="folder with Subtask_1_test.json and Subtask_2_test.json")
    parser.add_argument("--python", default=sys.executable, help="interpreter that runs the scorer")
    parser.add_argument("--out", default=str(FIXTURE))
    args = parser.parse_args(argv)

    scorer = Path(args.scorer).resolve()
    gold_text = {k: (Path(args.data) / ("Subtask_%d_test.json" % k)).read_text(encoding="utf-8") for k in (1, 2)}
    gold = {k: json.loads(t) for k, t in gold_text.items()}
    numpy_version = subprocess.run([args.python, "-c", "import numpy; print(numpy.__version__)"],
                                   capture_output=True, text=True).stdout.strip()
    python_version = subprocess.run([args.python, "-c", "import platform; print(platform.python_version())"],
                                    capture_output=True, text=True).stdout.strip()
    record = {
        "about": ("Verdicts and printed numbers of the official SemEval-2024 Task 3 scorer "
                  "(NUSTM/SemEval-2024_ECAC, CodaLab/evaluation/evaluate.py) on the edge-case corpus of "
                  "tests/ecac_corpus.py, recorded by tests/record_ecac_official.py: verdict 'scored' = exit code "
                  "0 and the numbers of its scores.txt; 'rejected' = any other exit (sys.exit or a traceback), "
                  "with its last stderr line. 'fuzzy' = the scorer's own fuzzy matching, which it defines but "
                  "does not print. Gold: the released test gold Subtask_{1,2}_test.json."),
        "scorer": {"repository": "NUSTM/SemEval-2024_ECAC", "path": "CodaLab/evaluation/evaluate.py",
                   "repository_snapshot": args.commit, "last_commit_of_file": args.file_commit,
                   "sha256": hashlib.sha256(scorer.read_bytes()).hexdigest(),
                   "python": python_version, "numpy": numpy_version},
        "recorded_with": "python %s on %s" % (platform.python_version(), platform.system()),
        "seed": SEED,
        "gold_sha256": {str(k): sha256_text(t) for k, t in gold_text.items()},
        "cases": {},
    }
    for case in corpus(gold[1], gold[2]):
        verdict, scores, message = run_official(scorer, gold_text, case.files, args.python)
        entry = {"group": case.group, "about": case.about,
                 "sha256": {str(k): (sha256_text(t) if t is not None else None) for k, t in case.files.items()},
                 "verdict": verdict}
        if case.group == "difference":
            entry["ours"] = case.ours
        if scores is not None:
            entry["scores"] = scores
            if case.files[1] is not None:
                entry["fuzzy"] = official_fuzzy(scorer, gold_text[1], case.files[1].lstrip("\ufeff"))
        else:
            entry["message"] = message
        expected = case.extra.get("refused")
        if expected is not None and expected != (verdict == "rejected"):
            print("note: %s was expected to be %s" % (case.name, "rejected" if expected else "scored"))
        record["cases"][case.name] = entry
        print("%-40s %s%s" % (case.name, verdict, "" if message is None else "  (%s)" % message[:70]))
    Path(args.out).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote %s (%d cases)" % (args.out, len(record["cases"])))


if __name__ == "__main__":
    main()
