"""What the organizer-tool tests share: every competition we ship, bundles built once, a bank oracle."""
import contextlib
import csv
import io
import zipfile
from pathlib import Path

from seqeval.metrics import f1_score, precision_score, recall_score
from seqeval.scheme import IOB2
from sklearn.metrics import cohen_kappa_score

from helpers import ROOT

from organizer import bundle  # noqa: E402


def competitions():
    """The shipped competition (the top level) and every examples/<family>/ that has a competition.yaml."""
    found = [ROOT]
    found += sorted(p.parent for p in (ROOT / "examples").glob("*/competition.yaml"))
    return found


def comp_id(path):
    return "top" if Path(path) == ROOT else Path(path).name


_BUILT = {}


def built(competition, fmt="v1"):
    """Bundle bytes of a competition folder (built once per session)."""
    key = (str(competition), fmt)
    if key not in _BUILT:
        _BUILT[key] = bundle.build_v1(competition) if fmt == "v1" else bundle.build_v2(competition)
    return _BUILT[key]


# organizer check's warning on every competition whose board-A phase holds board A's answers: Codabench serves them
# to anyone (docs/organizers.md section 3); the shipped competitions and `organizer new`'s default get it
PUBLIC_ANSWERS = "feedback-test-answers"


def board_a_answers_only(problems):
    """True when the one problem is the warning that board A's reference data holds its answers, on that zip."""
    return [(p.level, p.code, p.where) for p in problems] == [
        ("WARNING", PUBLIC_ANSWERS, "reference_data_A.zip/config.yaml")]


def says_board_a_answers_only(stdout):
    """True when a command's lint output (organizer check, bundle, new) is that warning and its summary line."""
    lines = stdout.strip().splitlines()
    warnings = [line for line in lines if line.startswith(("WARNING ", "ERROR "))]
    return (len(warnings) == 1 and warnings[0].startswith("WARNING reference_data_A.zip/config.yaml: holds the "
                                                          "answers of ")
            and warnings[0].endswith("[%s]" % PUBLIC_ANSWERS)
            and any(line.endswith(": 0 error(s), 1 warning(s)") for line in lines))


def dev_feedback_competition(base):
    """A competition made by ``organizer new --feedback dev`` in ``base``: multilabel, the demo's gold with its first
    100 samples as the dev set and the other 2,900 as the test set. Returns its folder."""
    from organizer.new import main

    lines = (ROOT / "examples" / "multilabel" / "reference_data" / "gold.csv").read_text(encoding="utf-8").splitlines()
    (base / "dev.csv").write_text("\n".join(lines[:101]) + "\n", encoding="utf-8")
    (base / "test.csv").write_text("\n".join(lines[:1] + lines[101:]) + "\n", encoding="utf-8")
    out = base / "competition"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main([str(a) for a in ("multilabel", base / "test.csv", out, "--title", "Support tickets", "--labels",
                                      ROOT / "examples" / "multilabel" / "reference_data" / "labels.txt",
                                      "--dev-gold", base / "dev.csv", "--feedback", "dev", "--start", "2026-11-02",
                                      "--no-check")])
    assert code == 0
    return out


def members(data):
    """{name: bytes} of a zip given as bytes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}


def phases(competition):
    comp = bundle.load_yaml(Path(competition) / "competition.yaml")
    return bundle.sorted_phases(comp)


def sample_submission(competition):
    """The starting kit's sample submission as {file name: bytes}: sample_submission* or a submission/ folder."""
    kit = Path(competition) / "starting_kit"
    found = sorted(kit.glob("sample_submission*"))
    if found:
        return {found[0].name: found[0].read_bytes()}
    folder = kit / "submission"
    if folder.is_dir():
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return None


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def bank_oracle(gold_path, prediction_path, ids=None):
    """S, S1, S2 from seqeval (strict IOB2) and scikit-learn, over ``ids`` (default: all gold rows)."""
    gold = {r["id"]: r for r in read_csv(gold_path)}
    pred = {r["id"]: r for r in read_csv(prediction_path)}
    keep = [i for i in gold if ids is None or i in ids]
    g_tags = [gold[i]["BIO_anno"].split() for i in keep]
    p_tags = [pred[i]["BIO_anno"].split() for i in keep]
    s1 = f1_score(g_tags, p_tags, mode="strict", scheme=IOB2)
    s2 = cohen_kappa_score([int(gold[i]["class"]) for i in keep], [int(pred[i]["class"]) for i in keep])
    return {"score": 0.5 * s1 + 0.5 * s2, "ner_f1": s1, "kappa": s2,
            "ner_precision": precision_score(g_tags, p_tags, mode="strict", scheme=IOB2),
            "ner_recall": recall_score(g_tags, p_tags, mode="strict", scheme=IOB2)}


def board_ids(competition, board):
    return {r["id"] for r in read_csv(Path(competition) / "reference_data" / "boards.csv") if r["board"] == board}
