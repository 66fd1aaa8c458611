"""The usual export mistakes get a line that says what the file is and how to save it right (exit 1, one line,
no gold), on the platform and in the kit alike:

- a spreadsheet's CSV in a German or French locale (';' between the columns, decimal commas): said to be that,
  with how to write ',' and '.'; the header it proposes is the one this task asks for (the probability header
  on a probabilities task, never ``id,label`` there);
- a pandas index column (an unnamed first column): write with ``index=False``;
- an Excel workbook: as an .xlsx in the upload, unpacked by the platform (an .xlsx is a zip, which CodaLab v1
  extracts), or renamed .csv: save as CSV UTF-8.
"""
import io
import zipfile

import pandas as pd
import pytest
import yaml

from helpers import ROOT, assert_participant_error, make_input, run_score, zipped
from scorer.kit import check, report_lines

CLASSIFICATION = ROOT / "examples" / "classification"
REGRESSION = ROOT / "examples" / "regression"
CLASSES = (CLASSIFICATION / "starting_kit" / "labels.txt").read_text(encoding="utf-8").split()
PROBA_HEADER = "id," + ",".join(CLASSES)


def reference(folder, **options):
    ref = {p.name: p.read_bytes() for p in (folder / "reference_data").iterdir() if p.name != "board_B.yaml"}
    raw = yaml.safe_load(ref.pop("board_A.yaml"))
    raw["options"] = dict(raw.get("options") or {}, **options)
    ref["config.yaml"] = yaml.safe_dump(raw)
    return ref


def submit(tmp_path, folder, files, **options):
    inp = make_input(tmp_path, reference(folder, **options), files)
    return run_score(inp, tmp_path / "out")


def probabilities():
    ids = pd.read_csv(CLASSIFICATION / "starting_kit" / "test_public.csv", dtype=str)["id"]
    frame = pd.DataFrame({c: [0.05, 0.2, 0.5, 0.2, 0.05][k] for k, c in enumerate(CLASSES)}, index=range(len(ids)))
    frame.insert(0, "id", ids)
    return frame


def regression():
    return pd.read_csv(REGRESSION / "starting_kit" / "sample_submission.csv", dtype={"id": str})


def german(frame):
    """What Excel writes as CSV in a German locale: ';' between the columns, a comma as the decimal mark."""
    return frame.to_csv(index=False, sep=";", decimal=",").encode("utf-8")


def test_a_german_excel_export_of_probabilities_is_named_and_the_probability_header_proposed(tmp_path):
    proc = submit(tmp_path, CLASSIFICATION, {"p.csv": german(probabilities())}, submission="probabilities")
    line = assert_participant_error(proc, "p.csv line 1", "spreadsheet export with ';' between the columns and "
                                    "decimal commas (such as 0,05)", "read_csv(path, sep=';', decimal=',')",
                                    "header: " + PROBA_HEADER)
    assert "id,label" not in line and "Expected" not in line


def test_a_german_excel_export_of_values_is_named(tmp_path):
    proc = submit(tmp_path, REGRESSION, {"p.csv": german(regression())})
    assert_participant_error(proc, "spreadsheet export with ';'", "'.' as the decimal mark", "header: id,value")


@pytest.mark.parametrize("submission,header", [("probabilities", PROBA_HEADER), ("labels", "id,label")])
def test_semicolons_without_decimal_commas_propose_the_header_this_task_asks_for(tmp_path, submission, header):
    frame = probabilities() if submission == "probabilities" else probabilities()[["id"]].assign(label="good")
    proc = submit(tmp_path, CLASSIFICATION, {"p.csv": frame.to_csv(index=False, sep=";")}, submission=submission)
    assert_participant_error(proc, "the header is separated by ';'; separate the columns with ','",
                             "(header: %s)" % header)


@pytest.mark.parametrize("folder,frame,options", [(CLASSIFICATION, probabilities, {"submission": "probabilities"}),
                                                  (CLASSIFICATION, lambda: probabilities()[["id"]].assign(
                                                      label="good"), {}),
                                                  (REGRESSION, regression, {})], ids=["probabilities", "labels",
                                                                                       "regression"])
def test_a_pandas_index_column_says_to_write_with_index_false(tmp_path, folder, frame, options):
    proc = submit(tmp_path, folder, {"p.csv": frame().to_csv(index=True)}, **options)
    line = assert_participant_error(proc, "p.csv line 1: the columns are", "unnamed first column is pandas' index",
                                    "index=False")
    assert "is not a class" not in line


def _xlsx():
    """The parts of a minimal .xlsx (a zip): what Excel writes at the top of every workbook."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name in ("[Content_Types].xml", "_rels/.rels", "docProps/app.xml", "xl/workbook.xml",
                     "xl/worksheets/sheet1.xml"):
            archive.writestr(name, "<x/>")
    return buf.getvalue()


@pytest.mark.parametrize("layout", ["zipped", "as uploaded", "unpacked", "named .csv"])
def test_an_excel_workbook_says_to_save_as_csv_utf8(tmp_path, layout):
    workbook = _xlsx()
    files = {"zipped": {"upload.zip": zipped({"predictions.xlsx": workbook})},
             "as uploaded": {"predictions.xlsx": workbook},
             "unpacked": {n: zipfile.ZipFile(io.BytesIO(workbook)).read(n)
                          for n in zipfile.ZipFile(io.BytesIO(workbook)).namelist()},
             "named .csv": {"predictions.csv": workbook}}[layout]
    line = assert_participant_error(submit(tmp_path, REGRESSION, files), "CSV UTF-8 (Comma delimited)")
    assert "top of the zip" not in line, line
    assert ("Excel workbook" in line or "spreadsheet workbook" in line), line


def test_the_kit_says_the_same(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(german(probabilities()))
    raw = yaml.safe_load(reference(CLASSIFICATION, submission="probabilities")["config.yaml"])
    lines, code = report_lines(check(str(path), str(CLASSIFICATION / "starting_kit"), raw), path.name)
    assert code == 1 and "spreadsheet export" in lines[1] and PROBA_HEADER in lines[1], lines
