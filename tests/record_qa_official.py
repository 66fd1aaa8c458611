"""Run the official SQuAD v2.0 and CMRC 2018 evaluation scripts on the cases of tests/qa_cases.py and record
what they computed, as tests/fixtures/qa_official.json.

The scripts are never part of this project: export them to a folder of your own first, e.g.::

    git -C <snapshot of a repository holding evaluate-v2.0.py> show HEAD:evaluate-v2.0.py > /tmp/qa/evaluate-v2.0.py
    git -C <snapshot of ymcui/cmrc2018> show HEAD:squad-style-data/cmrc2018_evaluate.py > /tmp/qa/cmrc2018_evaluate.py
    python3 tests/record_qa_official.py /tmp/qa/evaluate-v2.0.py /tmp/qa/cmrc2018_evaluate.py \\
        --squad-source "<owner/repo> <commit>" --cmrc-source "ymcui/cmrc2018 <commit> <last commit of the file>" \\
        --python2 <python 2.7 with nltk 3.4.5 importable> [--data ../shared/data/qa]

SQuAD v2.0 (Python 3): for every case, ``python3 evaluate-v2.0.py data.json pred.json --na-prob-file na.json``
and the same without the probabilities; the printed JSON is recorded as printed (every digit), and so are the
per-question scores of the script's own ``get_raw_scores``. CMRC 2018 (Python 2, as the script is written):
the script's ``evaluate`` and, per question, its ``calc_em_score`` and ``calc_f1_score`` are called through a
small wrapper (the script prints only three decimals), and its own command line is run too. The script's
``nltk.word_tokenize`` needs NLTK's English Punkt model, which cannot be downloaded here: the wrapper gives NLTK
an untrained Punkt model, and the data are restricted to questions where no model can cut a run of non-Chinese
characters into sentences (``qa_cases.punkt_free``; the predictions avoid such runs too).
"""
import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import qa_cases  # noqa: E402

FIXTURE = HERE / "fixtures" / "qa_official.json"

CMRC_WRAPPER = r'''
import imp, json, os, pickle, sys
from nltk.tokenize.punkt import PunktSentenceTokenizer
home = sys.argv[4]
os.makedirs(os.path.join(home, "tokenizers", "punkt"))
with open(os.path.join(home, "tokenizers", "punkt", "english.pickle"), "wb") as f:
    pickle.dump(PunktSentenceTokenizer(), f)
import nltk
nltk.data.path.insert(0, home)
sys.argv = [sys.argv[1], sys.argv[2], sys.argv[3]]
official = imp.load_source("cmrc2018_official", sys.argv[0])
data = json.load(open(sys.argv[1], "rb"))
preds = json.load(open(sys.argv[2], "rb"))
f1, em, total, skip = official.evaluate(data, preds)
per = {}
for article in data["data"]:
    for p in article["paragraphs"]:
        for qa in p["qas"]:
            qid = qa["id"].strip()
            if qid in preds:
                answers = [x["text"] for x in qa["answers"]]
                prediction = str(preds[qid]).decode("utf-8")
                per[qid] = [official.calc_em_score(answers, prediction), repr(official.calc_f1_score(answers, prediction))]
print(json.dumps({"F1": repr(f1), "EM": repr(em), "TOTAL": total, "SKIP": skip, "per_question": per}))
'''


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def run_squad(script, data, preds, probs, tmp):
    paths = {}
    for name, value in (("data", data), ("pred", preds), ("na", probs)):
        paths[name] = Path(tmp) / (name + ".json")
        paths[name].write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    out = {}
    for label, extra in (("with_na_probs", ["--na-prob-file", str(paths["na"])]), ("plain", [])):
        proc = subprocess.run([sys.executable, str(script), str(paths["data"]), str(paths["pred"])] + extra,
                              capture_output=True, text=True, check=True)
        out[label] = json.loads(proc.stdout[proc.stdout.index("{"):])
    sys.argv = [str(script)]
    import importlib.util
    spec = importlib.util.spec_from_file_location("squad_v2_official", str(script))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    exact, f1 = module.get_raw_scores(data["data"], preds)
    out["raw"] = {qid: [exact[qid], f1[qid]] for qid in exact}
    return out


def run_cmrc(script, python2, data, preds, tmp):
    data_path, pred_path = Path(tmp) / "cmrc_data.json", Path(tmp) / "cmrc_pred.json"
    data_path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    pred_path.write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
    wrapper = Path(tmp) / "wrapper.py"
    wrapper.write_text(CMRC_WRAPPER, encoding="utf-8")
    home = tempfile.mkdtemp(dir=tmp)
    os.rmdir(home)
    proc = subprocess.run([python2, str(wrapper), str(script), str(data_path), str(pred_path), home],
                          capture_output=True, check=True)
    result = json.loads(proc.stdout.decode("utf-8"))
    env = dict(os.environ, NLTK_DATA=home)
    printed = subprocess.run([python2, str(script), str(data_path), str(pred_path)], capture_output=True, env=env,
                             check=True)
    result["printed"] = json.loads(printed.stdout.decode("utf-8").strip().splitlines()[-1])
    result["printed"].pop("FILE", None)
    result["F1"], result["EM"] = float(result["F1"]), float(result["EM"])
    result["per_question"] = {k: [v[0], float(v[1])] for k, v in result["per_question"].items()}
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("squad_script")
    parser.add_argument("cmrc_script")
    parser.add_argument("--squad-source", required=True, help="'owner/repo commit' of the SQuAD script's copy")
    parser.add_argument("--cmrc-source", required=True, help="'ymcui/cmrc2018 snapshot last-commit-of-file'")
    parser.add_argument("--python2", required=True, help="Python 2.7 that imports nltk 3.4.5")
    parser.add_argument("--data", default=str(HERE.parents[1] / "shared" / "data" / "qa"))
    parser.add_argument("--out", default=str(FIXTURE))
    args = parser.parse_args(argv)
    data_dir = Path(args.data)
    squad_script, cmrc_script = Path(args.squad_script).resolve(), Path(args.cmrc_script).resolve()
    nltk_version = subprocess.run([args.python2, "-c", "import nltk; print(nltk.__version__)"],
                                  capture_output=True, text=True, check=True).stdout.strip()
    python2_version = subprocess.run([args.python2, "-c", "import platform; print(platform.python_version())"],
                                     capture_output=True, text=True, check=True).stdout.strip()
    record = {
        "about": ("Numbers computed by the official SQuAD v2.0 evaluation script (evaluate-v2.0.py, Python %s) and "
                  "the official CMRC 2018 script (squad-style-data/cmrc2018_evaluate.py, Python %s, nltk %s with an "
                  "untrained Punkt model, see tests/record_qa_official.py) on the cases of tests/qa_cases.py, "
                  "recorded by tests/record_qa_official.py." % (platform.python_version(), python2_version,
                                                                nltk_version)),
        "squad_script": {"source": args.squad_source, "sha256": sha256_bytes(squad_script.read_bytes())},
        "cmrc_script": {"source": args.cmrc_source, "sha256": sha256_bytes(cmrc_script.read_bytes())},
        "seed": qa_cases.SEED,
        "squad": {}, "cmrc": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        squad_text = (data_dir / qa_cases.SQUAD_FILE).read_text(encoding="utf-8")
        record["squad_data_sha256"] = sha256_bytes(squad_text.encode("utf-8"))
        squad = json.loads(squad_text)
        for scenario in qa_cases.SCENARIOS:
            preds, probs = qa_cases.squad_predictions(squad, scenario)
            record["squad"][scenario] = run_squad(squad_script, squad, preds, probs, tmp)
            print("squad", scenario, record["squad"][scenario]["with_na_probs"]["exact"])
        data, preds, probs = qa_cases.squad_edge()
        record["squad"]["edge"] = run_squad(squad_script, data, preds, probs, tmp)
        record["cmrc_data_sha256"] = {}
        for name in qa_cases.CMRC_FILES:
            text = (data_dir / name).read_text(encoding="utf-8")
            record["cmrc_data_sha256"][name] = sha256_bytes(text.encode("utf-8"))
            data, dropped = qa_cases.punkt_free(json.loads(text))
            for scenario in qa_cases.SCENARIOS:
                preds = qa_cases.cmrc_predictions(data, scenario)
                entry = run_cmrc(cmrc_script, args.python2, data, preds, tmp)
                entry["dropped_questions"] = dropped
                record["cmrc"]["%s/%s" % (name, scenario)] = entry
                print("cmrc", name, scenario, entry["printed"])
        data, preds = qa_cases.cmrc_edge()
        record["cmrc"]["edge"] = run_cmrc(cmrc_script, args.python2, data, preds, tmp)
    Path(args.out).write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                              encoding="utf-8")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
