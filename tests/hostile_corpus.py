"""A generated corpus of hostile and broken uploads and configurations, for every family.

Each case starts from the family's demo (its board-A reference data and its valid sample submission)
and changes one thing. Nothing is stored: the same code always makes the same bytes. Cases say what
must happen: the exit code and the words of the one stderr line (or, for reference-data errors, of
the organizer's private details).
"""
import codecs
import io
import json
import random
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEMO = {
    "bank_comments": ROOT,
    "view_sentiment": ROOT / "examples" / "view_sentiment",
    "keywords": ROOT / "examples" / "keywords",
    "multilabel": ROOT / "examples" / "multilabel",
    "emotion_cause": ROOT / "examples" / "emotion_cause",
    "regression": ROOT / "examples" / "regression",
    "classification": ROOT / "examples" / "classification",
    "qa": ROOT / "examples" / "qa",
    "generation": ROOT / "examples" / "generation",
}
TABLES = ("bank_comments", "view_sentiment", "keywords", "multilabel", "regression", "classification", "generation")
HOSTILE = "<script>document.title='PWNED'</script><img src=x onerror=alert(1)>\u202e\u200b"


@dataclass
class Case:
    family: str
    name: str
    code: int
    words: Tuple[str, ...]
    files: Optional[Dict[str, bytes]] = None       # res/ content (None: the valid sample)
    config: Optional[Callable] = None               # edits the config mapping in place
    reference: Optional[Callable] = None            # edits the ref/ folder (a Path)
    res_setup: Optional[Callable] = None            # makes res/ itself (a Path), for file-system tricks
    raw_config: Optional[bytes] = None              # config.yaml bytes as they are
    subprocess: bool = False                        # run as a process (file-system tricks, bounded time)

    @property
    def id(self):
        return "%s-%s" % (self.family, self.name)


@dataclass
class Shape:
    """A valid upload that differs from the sample only in shape: it must score exactly the same."""

    family: str
    name: str
    files: Dict[str, bytes] = field(default_factory=dict)

    @property
    def id(self):
        return "%s-%s" % (self.family, self.name)


# -- the valid starting point ----------------------------------------------------------------------------
def sample(family):
    kit = DEMO[family] / "starting_kit"
    if (kit / "submission").is_dir():
        folder = kit / "submission"
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    path = kit / "sample_submission.csv"
    return {path.name: path.read_bytes()}


def sample_table(family):
    """(file name, header fields, rows as lists of fields) of a table family's sample."""
    (name, data), = sample(family).items()
    lines = data.decode("utf-8").splitlines()
    split = [l.split(",") for l in lines]
    return name, split[0], split[1:]


def as_csv(header, rows, sep=",", newline="\n"):
    return (newline.join(sep.join(r) for r in [header] + rows) + newline).encode("utf-8")


def zip_of(files, method=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buf.getvalue()


def _patch_zip_flags(data, flag=0, method=None):
    """Set a general-purpose flag bit (and optionally the method) in every local and central header."""
    data = bytearray(data)
    for sig, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        start = 0
        while True:
            at = data.find(sig, start)
            if at < 0:
                break
            old = struct.unpack_from("<H", data, at + flag_at)[0]
            struct.pack_into("<H", data, at + flag_at, old | flag)
            if method is not None:
                struct.pack_into("<H", data, at + method_at, method)
            start = at + 4
    return bytes(data)


def _bad_crc(data):
    """A zip whose first member's stored CRC does not match its data."""
    data = bytearray(data)
    for sig, crc_at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
        at = data.find(sig)
        struct.pack_into("<I", data, at + crc_at, struct.unpack_from("<I", data, at + crc_at)[0] ^ 0xFFFF)
    return bytes(data)


def _bad_utf8_name(data, old, new):
    """Rename a member to bytes that are not UTF-8 while flagging the name as UTF-8 (bit 11)."""
    assert len(old) == len(new)
    return _patch_zip_flags(data.replace(old, new), flag=0x800)


def _lying(data, declared=1000):
    """A zip whose members' local headers and central directory say they unpack to ``declared`` bytes."""
    data = bytearray(data)
    for sig, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while True:
            at = data.find(sig, start)
            if at < 0:
                break
            struct.pack_into("<I", data, at + size_at, declared)
            start = at + 4
    return bytes(data)


def _lying_bomb(name, inflated=20 << 20):
    """A small zip whose member says it holds 1000 bytes and inflates to ``inflated`` bytes of zeros."""
    return _lying(zip_of({name: b"\0" * inflated}))


def _bomb(name):
    """A small zip whose member inflates to 200 MB of zeros."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open(name, "w", force_zip64=True) as member:
            chunk = b"\0" * (1 << 20)
            for _ in range(200):
                member.write(chunk)
    return buf.getvalue()


# -- uploads every family can receive ------------------------------------------------------------------------
def generic_cases(family):
    files = sample(family)
    main = sorted(files)[0]
    data = files[main]
    rng = random.Random(sum(map(ord, family)))
    others = {k: v for k, v in files.items() if k != main}
    with_main = lambda new: dict(others, **{main: new})  # noqa: E731
    mid = len(data) // 2
    cases = [
        Case(family, "empty-file", 1, ("empty",), with_main(b"")),
        Case(family, "blank-lines-only", 1, ("empty",), with_main(b"\n \n\t\n")),
        Case(family, "random-bytes", 1, ("cannot be read",), with_main(bytes(rng.randrange(128, 256) for _ in range(3000)))),
        Case(family, "nul-in-the-middle", 1, ("NUL", "line"), with_main(data[:mid] + b"\0" + data[mid:])),
        # mostly-Chinese files name the damage as such; mostly-ASCII ones cannot be GB18030 either
        Case(family, "bad-byte-in-utf8", 1, ("cannot be read as UTF-8",), with_main(data[:mid] + b"\xff" + data[mid:])),
        Case(family, "utf16-without-bom", 1, ("UTF-16 text without a byte-order mark",),
             with_main(data.decode("utf-8").encode("utf-16-le"))),
        Case(family, "utf16-bom-odd-length", 1, ("cannot be read as UTF-16",),
             with_main(codecs.BOM_UTF16_LE + data.decode("utf-8").encode("utf-16-le") + b"\x00\xd8")),
        Case(family, "excel-workbook-as-csv", 1, ("zip archive", "CSV UTF-8"), with_main(b"PK\x03\x04" + b"\0" * 40)),
        Case(family, "excel-workbook-uploaded", 1, ("spreadsheet workbook", "CSV UTF-8"),
             {"upload.zip": zip_of({"predictions.xlsx": zip_of({"[Content_Types].xml": b"<x/>",
                                                                "xl/workbook.xml": b"<x/>"})})}),
        Case(family, "excel-workbook-unpacked", 1, ("Excel workbook", "CSV UTF-8"),
             {"[Content_Types].xml": b"<x/>", "xl/workbook.xml": b"<x/>", "docProps/app.xml": b"<x/>"}),
        Case(family, "gzip-as-file", 1, ("NUL",), with_main(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + data[:50])),
        Case(family, "nothing-matching", 1, ("no file matching", "readme.txt"), {"readme.txt": b"hello\n"}),
        Case(family, "truncated-zip", 1, ("not a readable zip file", "again"),
             {"upload.zip": zip_of(files)[:-30]}),
        Case(family, "bad-crc-member", 1, ("cannot be read from the zip", "again"),
             {"upload.zip": _bad_crc(zip_of(files))}),
        Case(family, "encrypted-member", 1, ("encrypted", "without a password"),
             {"upload.zip": _patch_zip_flags(zip_of(files), flag=0x1)}),
        Case(family, "unsupported-compression", 1, ("cannot be read from the zip", "again"),
             {"upload.zip": _patch_zip_flags(zip_of(files, zipfile.ZIP_STORED), method=99)}),
        Case(family, "non-utf8-member-name", 1, ("not a readable zip file",),
             {"upload.zip": _bad_utf8_name(zip_of(dict(files, **{"naïve.txt": b"x"})), "naïve".encode(), b"na\xff\xfeve"[:6])}),
        Case(family, "many-entries", 1, ("entries", "zip just those"),
             {"upload.zip": zip_of(dict(files, **{"junk/%05d.txt" % i: b"" for i in range(10001)}), zipfile.ZIP_STORED)}),
        Case(family, "zip-bomb", 1, ("more than the", "accepts"), {"upload.zip": _bomb(main)}),
        # the directory says 1000 bytes: the size check lets it through, the reading stops past 1000 bytes
        Case(family, "zip-bomb-its-directory-understates", 1, ("unpacks to more than the 1000 B", "cap of"),
             {"upload.zip": _lying_bomb(main)}),
        Case(family, "zip-member-larger-than-its-directory-says", 1, ("unpacks to more than the 1000 B", "forged"),
             {"upload.zip": _lying(zip_of(files))}),
        Case(family, "bzip2-member-larger-than-its-directory-says", 1, ("unpacks to more than the 1000 B",),
             {"upload.zip": _lying(zip_of(files, zipfile.ZIP_BZIP2))}),
        Case(family, "oversized-by-config", 1, ("more than the 0.0 MB", "accepts"), files,
             config=lambda c: c.__setitem__("max_submission_mb", 0.001)),
        Case(family, "two-matching-files", 1, ("files matching", "upload exactly one"),
             dict(files, **{"copy/" + main: data})),
        Case(family, "hostile-file-name", 1, ("no file matching",),
             {HOSTILE.replace("/", "_") + ".txt": b"x"}),
        Case(family, "long-file-name", 1, ("no file matching",), {"n" * 200 + ".txt": b"x"}),
        Case(family, "stale-outputs-are-removed", 1, ("no file matching",), {"notes.txt": b"x"}),
    ]
    return cases


def fs_cases(family):
    """File-system tricks a zip cannot make but a worker's res/ may hold: run as processes, with a timeout."""
    files = sample(family)
    main = sorted(files)[0]

    def symlink_to_gold(res):
        gold = next(p for p in (res.parent / "ref").iterdir() if "gold" in p.name.lower())
        for name, data in files.items():
            (res / name).write_bytes(data)
        (res / main).unlink()
        (res / main).symlink_to(gold)

    def symlink_to_environ(res):
        for name, data in files.items():
            (res / name).write_bytes(data)
        (res / main).unlink()
        (res / main).symlink_to("/proc/self/environ")

    def fifo(res):
        import os
        for name, data in files.items():
            (res / name).write_bytes(data)
        (res / main).unlink()
        os.mkfifo(str(res / main))

    def deep(res):
        folder = res
        for k in range(40):
            folder = folder / ("d%d" % k)
        folder.mkdir(parents=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)

    def undecodable_name(res):
        import os
        for name, data in files.items():
            (res / name).write_bytes(data)
        folder = os.path.join(os.fsencode(str(res)), b"copy\xff\xfe\x1b[31m")
        os.mkdir(folder)
        with open(os.path.join(folder, os.fsencode(main)), "wb") as fh:
            fh.write(files[main])

    def sparse_giant(res):
        for name, data in files.items():
            (res / name).write_bytes(data)
        with open(res / main, "r+b") as fh:
            fh.truncate(3 * 2 ** 30)  # 3 GB on paper, nothing on disk

    return [
        Case(family, "symlink-to-gold", 1, ("symbolic link", "not a regular file"), res_setup=symlink_to_gold,
             subprocess=True),
        Case(family, "symlink-to-environment", 1, ("symbolic link",), res_setup=symlink_to_environ, subprocess=True),
        Case(family, "fifo-named-like-the-file", 1, ("special file",), res_setup=fifo, subprocess=True),
        Case(family, "folders-40-deep", 1, ("nested more than 32 deep",), res_setup=deep, subprocess=True),
        Case(family, "undecodable-folder-name", 1, ("files matching", "copy\\udcff\\udcfe\\x1b[31m"),
             res_setup=undecodable_name, subprocess=True),
        Case(family, "sparse-3-gb-file", 1, ("3072.0 MB", "more than the"), res_setup=sparse_giant, subprocess=True),
    ]


# -- table families -------------------------------------------------------------------------------------------
def table_cases(family):
    name, header, rows = sample_table(family)
    body = [list(r) for r in rows]
    cases = []

    def add(label, words, header_=None, rows_=None, raw=None, code=1, **kw):
        data = raw if raw is not None else as_csv(header_ or header, rows_ if rows_ is not None else body)
        cases.append(Case(family, label, code, words, {name: data}, **kw))

    add("semicolon-separated", ("separated by ';'",), raw=as_csv(header, body, sep=";"))
    # a spreadsheet's CSV in a German locale: ';' between the columns, a decimal comma in the first data row
    add("semicolons-and-decimal-commas", ("spreadsheet export", "decimal commas"),
        raw=as_csv(header, [body[0][:-1] + ["0,5"]] + body[1:], sep=";"))
    add("header-only", ("no rows",), rows_=[])
    add("missing-column", ("columns are", "must be exactly"), header_=header[:1] + header[2:],
        rows_=[r[:1] + r[2:] for r in body])
    add("index-column-written", ("pandas' index", "index=False"), header_=[""] + header, rows_=[[str(i)] + r for i, r in enumerate(body)])
    add("misspelled-header", ("columns are",), header_=[header[0] + "x"] + header[1:])
    add("duplicated-row", ("twice" if family != "view_sentiment" else "again",), rows_=body + [body[0]])
    add("unknown-id", ("not in the test set",), rows_=[["no-such-id"] + body[0][1:]] + body[1:])
    add("empty-id", ("empty",), rows_=[[""] + body[0][1:]] + body[1:])
    huge = "9" * 100000
    add("100k-character-id", ("not in the test set", "..."), rows_=[[huge] + body[0][1:]] + body[1:])
    add("2mb-id", ("not in the test set", "'7777777777"), rows_=[["7" * (2 << 20)] + body[0][1:]] + body[1:])
    add("1mb-header", ("columns are", "..."), header_=["h" * 1000000] + header[1:])
    add("hostile-id", ("not in the test set",), rows_=[[HOSTILE] + body[0][1:]] + body[1:])
    add("formula-id", ("not in the test set",), rows_=[["=cmd|'/c calc'!A0"] + body[0][1:]] + body[1:])
    add("unclosed-quote", ("check quotes",), rows_=body[:3] + [['"' + body[3][0]] + body[3][1:]] + body[4:])
    # a quoted field with a line break, then a bad id: the line named is the file's own (physical) line
    quoted = [list(body[0])]
    quoted[0][-1] = '"%s\nsecond line"' % quoted[0][-1] if family != "bank_comments" else quoted[0][-1]
    if family != "bank_comments":
        bad_line = 4  # header 1, the two-line row 2-3, then line 4
        add("line-break-in-a-quoted-field", ("line %d" % bad_line, "not in the test set"),
            rows_=quoted + [["no-such-id"] + body[1][1:]] + body[2:])
    if family in ("bank_comments", "view_sentiment"):
        add("full-width-comma", ("full-width comma",), raw=as_csv(header, body).replace(b",", "，".encode(), 3))
    if family == "view_sentiment":
        add("leading-zeros-dropped", ("leading zeros",), rows_=[[body[0][0].lstrip("0")] + body[0][1:]] + body[1:])
    return cases


def family_cases(family):
    name = None
    if family in TABLES:
        name, header, rows = sample_table(family)
        body = [list(r) for r in rows]

        def one(row, col, value, label, words):
            changed = [list(r) for r in body]
            changed[row][col] = value
            return Case(family, label, 1, words, {name: as_csv(header, changed)})

    if family == "bank_comments":
        tags = body[0][1].split()
        return [
            one(0, 2, "7", "class-7", ("is not a class",)),
            one(0, 2, "1.5", "class-1.5", ("is not a class",)),
            one(0, 2, HOSTILE, "hostile-class", ("is not a class",)),
            one(0, 1, " ".join(["B-BNK"] + tags[1:]), "unknown-tag", ("not a tag",)),
            one(0, 1, " ".join(t.lower() for t in tags), "lower-case-tags", ("not a tag",)),
            one(0, 1, " ".join(tags[:-1]), "one-tag-short", ("tags for a comment of",)),
            one(0, 1, " ".join(tags + ["O"]), "one-tag-long", ("tags for a comment of",)),
            Case(family, "a-row-missing", 1, ("have no row",), {name: as_csv(header, body[1:])}),
        ]
    if family == "view_sentiment":
        return [
            one(0, 1, "", "empty-view", ("View is empty",)),
            one(0, 2, "positive", "unknown-opinion", ("not an opinion",)),
            one(0, 2, HOSTILE, "hostile-opinion", ("not an opinion",)),
            Case(family, "conflicting-opinions", 1, ("with another opinion",),
                 {name: as_csv(header, body + [[body[0][0], body[0][1], "neg" if body[0][2] != "neg" else "pos"]])}),
        ]
    if family == "keywords":
        return [
            one(0, 0, body[0][0] + "，x", "full-width-comma-in-id", ("full-width comma",)),
        ]
    if family == "multilabel":
        labels = body[0][1].split()
        scores = body[0][2].split()
        return [
            one(0, 1, " ".join(["no_such_label"] + labels[1:]), "unknown-label", ("not a label",)),
            one(0, 1, " ".join([labels[0]] + labels[:-1]), "repeated-label", ("listed twice",)),
            one(0, 2, " ".join(scores[:-1]), "one-score-short", ("score",)),
            one(0, 2, " ".join(["abc"] + scores[1:]), "score-not-a-number", ("score",)),
            one(0, 2, " ".join(["nan"] + scores[1:]), "score-nan", ("score",)),
            one(0, 2, " ".join(["inf"] + scores[1:]), "score-inf", ("score",)),
            # a number of 2 MB of digits is above 1e308: no finite number, quoted cut short
            one(0, 2, " ".join(["1" + "0" * (2 << 20)] + scores[1:]), "score-of-2mb-digits",
                ("score 1 is '1000000000", "...', which is not a finite number")),
            one(0, 1, " ".join(["x" * (1 << 20)] + labels[1:]), "label-of-1mb", ("label 1 is 'xxxxxxxx", "...'")),
            one(0, 1, " ".join(["x" * (1 << 20) + "|" + labels[0]] + labels[1:]), "labels-joined-by-bars-1mb-on",
                ("not a label", "not '|'")),
            Case(family, "scores-column-missing", 1, ("needs a scores column",),
                 {name: as_csv(header[:2], [r[:2] for r in body])}),
        ]
    if family == "regression":
        return regression_cases(one) + [
            Case(family, "swapped-columns", 1, ("look swapped", "header id,value"),
                 {name: as_csv(header, [[r[1], r[0]] for r in body])}),
            one(0, 1, '"1,5"', "decimal-comma-quoted", ("is not a number", "decimal mark")),
        ]
    if family == "classification":
        return classification_cases(name, header, body)
    if family == "generation":
        return [
            one(0, 0, body[0][0] + "，x", "full-width-comma-in-id", ("full-width comma",)),
            Case(family, "jsonl-not-an-object", 1, ("predictions.jsonl line 1", "not an object"),
                 {"predictions.jsonl": b'["g00000", "a title"]\n'}),
            Case(family, "jsonl-number-text", 1, ("predictions.jsonl line 1", "JSON number", "not a string"),
                 {"predictions.jsonl": b'{"id": "g00000", "text": 3}\n'}),
            Case(family, "jsonl-no-text", 1, ("line 2", "no \"text\""),
                 {"predictions.jsonl": b'{"id": "g00000", "text": "a"}\n{"id": "g00001"}\n'}),
            Case(family, "jsonl-huge-integer", 1, ("line 1", "not valid JSON"),
                 {"predictions.jsonl": b'{"id": "g00000", "text": ' + b"9" * 5000 + b"}\n"}),
            Case(family, "jsonl-deeply-nested", 1, ("line 1", "not valid JSON"),
                 {"predictions.jsonl": b"[" * 100000 + b"]" * 100000 + b"\n"}),
            Case(family, "predictions-csv-and-jsonl", 1, ("files matching", "upload exactly one"),
                 dict(sample(family), **{"predictions.jsonl": b'{"id": "g00000", "text": "a"}\n'})),
        ]
    if family == "qa":
        files = sample(family)
        answers = json.loads(files["predictions.json"])
        first = next(iter(answers))

        def with_answers(raw):
            return {"predictions.json": raw}
        return [
            Case(family, "not-json", 1, ("not valid JSON",), with_answers(b'{"q": oops')),
            Case(family, "json-list-not-object", 1, ("JSON array", "not one object"),
                 with_answers(json.dumps(list(answers.items())).encode("utf-8"))),
            Case(family, "answer-a-number", 1, ("JSON number", "not a string"),
                 with_answers(json.dumps(dict(answers, **{first: 1066})).encode("utf-8"))),
            Case(family, "answer-a-list", 1, ("JSON array", "not a string"),
                 with_answers(json.dumps(dict(answers, **{first: ["a", "b"]})).encode("utf-8"))),
            Case(family, "answer-null", 1, ("JSON null", "not a string"),
                 with_answers(json.dumps(dict(answers, **{first: None})).encode("utf-8"))),
            Case(family, "id-given-twice", 1, ("given twice",),
                 with_answers(b"{" + ("%s, %s" % (json.dumps(first) + ': "a"', json.dumps(first) + ': "b"')).encode()
                              + b"}")),
            Case(family, "unknown-id", 1, ("not in the test set",),
                 with_answers(json.dumps(dict(answers, **{HOSTILE: "x"})).encode("utf-8"))),
            Case(family, "empty-id", 1, ("the id is empty",), with_answers(json.dumps(dict(answers, **{" ": "x"}))
                                                                         .encode("utf-8"))),
            Case(family, "huge-integer", 1, ("not valid JSON",), with_answers(b'{"q": ' + b"9" * 5000 + b"}")),
            Case(family, "deeply-nested", 1, ("not valid JSON",), with_answers(b"[" * 100000 + b"]" * 100000)),
            Case(family, "no-probabilities-when-asked", 1, ("na_probs.json",), files,
                 config=lambda c: c.setdefault("options", {}).__setitem__("no_answer_probabilities", True)),
            Case(family, "probability-not-a-number", 1, ("no-answer probability", "JSON string"),
                 dict(files, **{"na_probs.json": json.dumps({first: "high"}).encode("utf-8")}),
                 config=lambda c: c.setdefault("options", {}).__setitem__("no_answer_probabilities", True)),
            Case(family, "csv-with-json", 1, ("files matching", "upload exactly one"),
                 dict(files, **{"predictions.csv": b"id,answer\n"})),
        ]
    # emotion_cause
    files = sample(family)
    s1 = json.loads(files["Subtask_1_pred.json"])

    def with_s1(value, raw=None):
        # ensure_ascii: a lone surrogate travels as the escape \ud800, as json.dump writes it
        return dict(files, **{"Subtask_1_pred.json": raw if raw is not None else json.dumps(value).encode("utf-8")})

    def edit_first_pair(pair):
        convs = json.loads(files["Subtask_1_pred.json"])
        first = next(c for c in convs if c["emotion-cause_pairs"])
        first["emotion-cause_pairs"][0] = pair
        return with_s1(convs)

    def clean(config):
        config.setdefault("options", {})["mode"] = "clean"

    convs_pairs = next(c for c in s1 if c["emotion-cause_pairs"])
    good = convs_pairs["emotion-cause_pairs"][0]
    utt = good[0].split("_")[0]
    return [
        Case(family, "not-json", 1, ("not valid JSON",), with_s1(None, b"[{oops")),
        Case(family, "json-object-not-list", 1, ("list",), with_s1({"a": 1})),
        Case(family, "list-of-numbers", 1, ("conversation",), with_s1([1, 2, 3])),
        Case(family, "huge-integer", 1, ("not valid JSON", "4300 digits"), with_s1(None, b"[" + b"9" * 5000 + b"]")),
        Case(family, "deeply-nested", 1, ("nested too deeply",), with_s1(None, b"[" * 100000 + b"]" * 100000)),
        Case(family, "lone-surrogate-escape", 1, ("\\ud800",), edit_first_pair(["\ud800_joy", good[1]])),
        Case(family, "hostile-emotion", 1, ("unknown emotion",), edit_first_pair([utt + "_pwned", good[1]])),
        Case(family, "pair-not-a-list", 1, ("a pair must be a list",), edit_first_pair("3_joy")),
        Case(family, "pair-of-three", 1, ("a pair must be a list",), edit_first_pair([good[0], good[1], "x"])),
        # mode official scores what the official scorer scores (such a pair just never matches): mode clean refuses it
        Case(family, "utterance-out-of-range", 1, ("does not exist",), edit_first_pair(["999_joy", good[1]]),
             config=clean),
        Case(family, "cause-as-text", 1, ("token indices, not the cause text",), edit_first_pair([good[0], "1_we won"])),
        Case(family, "missing-conversation", 1, ("is missing",), with_s1(s1[1:])),
        Case(family, "unknown-conversation", 1, ("not a test conversation",),
             with_s1(s1 + [{"conversation_ID": 999999, "emotion-cause_pairs": []}])),
        Case(family, "conversation-id-bool", 1, ("conversation_ID",),
             with_s1([dict(s1[0], conversation_ID=True)] + s1[1:]), config=clean),
    ]


def regression_cases(one):
    """The value cell of the first row, changed (``one(row, column, value, label, words)``)."""
    return [
        one(0, 1, "", "empty-value", ("is empty", "one number")),
        one(0, 1, "nan", "value-nan", ("not a finite number",)),
        one(0, 1, "-Infinity", "value-minus-infinity", ("not a finite number",)),
        one(0, 1, "1e999", "value-overflowing", ("is not a number",)),   # pandas' C parser reads no number there
        one(0, 1, "1e200", "value-too-large", ("too large",)),
        one(0, 1, "12 13", "two-values", ("holds 2 numbers",)),
        one(0, 1, "0x1A", "hexadecimal", ("is not a number",)),
        one(0, 1, "1_000", "underscored-digits", ("is not a number",)),
        one(0, 1, HOSTILE, "hostile-value", ("holds", "exactly one number per row")),
        one(0, 1, "-3", "negative-under-rmsle", ("is negative", "RMSLE")),
        one(0, 1, "9" * 400, "400-digit-value", ("is not a number",)),
    ]


def classification_cases(name, header, body):
    """Labels a participant gets wrong, and the probability form made from the sample (one column per class)."""
    family = "classification"
    classes = (DEMO[family] / "reference_data" / "labels.txt").read_text(encoding="utf-8").split()

    def one(row, value, label, words):
        changed = [list(r) for r in body]
        changed[row][1] = value
        return Case(family, label, 1, words, {name: as_csv(header, changed)})

    def proba(columns, cell=None):
        """The sample as probabilities (0.9 on its label), the columns given; ``cell`` replaces the first value."""
        rows = [[r[0]] + ["0.9" if c == r[1] else "0.025" for c in columns] for r in body]
        if cell is not None:
            rows[0][1] = cell
        return {name: as_csv(["id"] + columns, rows)}

    def probabilities(config):
        config.setdefault("options", {})["submission"] = "probabilities"

    return [
        one(0, "no_such_class", "unknown-class", ("is not a class of this task",)),
        one(0, classes[0].upper() + "x", "misspelt-class", ("is not a class of this task",)),
        one(0, HOSTILE.replace(",", ";").split()[0], "hostile-class", ("is not a class of this task",)),
        one(0, "", "empty-label", ("is empty",)),
        one(0, " ".join(classes[:2]), "two-classes-in-a-row", ("holds 2 words", "exactly one class")),
        one(0, "3", "class-number", ("is not a class of this task",)),
        Case(family, "a-row-missing", 1, ("have no row",), {name: as_csv(header, body[1:])}),
        Case(family, "probability-column-missing", 1, ("no column for class",), proba(classes[1:])),
        Case(family, "probability-column-unknown", 1, ("column 'unknown' is not a class",),
             proba(classes + ["unknown"])),
        Case(family, "probability-not-a-number", 1, ("is not a finite number",), proba(classes, "abc")),
        Case(family, "probability-nan", 1, ("is not a finite number",), proba(classes, "nan")),
        Case(family, "probability-inf", 1, ("is not a finite number",), proba(classes, "-inf")),
        Case(family, "probability-empty", 1, ("is not a finite number",), proba(classes, "")),
        # 2 MB of digits is above 1e308: no finite number, quoted cut short; a 1 MB label the same
        Case(family, "probability-of-2mb-digits", 1, ("'1000000000", "...' is not a finite number"),
             proba(classes, "1" + "0" * (2 << 20))),
        one(0, "x" * (1 << 20), "label-of-1mb", ("'xxxxxxxx", "...' is not a class of this task")),
        Case(family, "labels-where-probabilities-are-scored", 1, ("cannot be scored", "id," + ",".join(classes)),
             sample(family), config=probabilities),
    ]


# -- configurations and reference data ------------------------------------------------------------------------
def config_cases(family):
    def cfg(label, edit, words):
        return Case(family, "config-" + label, 2, words, config=edit)

    def set_(key, value):
        return lambda c: c.__setitem__(key, value)

    def opt(key, value):
        return lambda c: c.setdefault("options", {}).__setitem__(key, value)

    cases = [
        cfg("task-list", set_("task", [family]), ("task is", "allowed")),
        cfg("task-mapping", set_("task", {"x": 1}), ("task is", "allowed")),
        cfg("board-list", set_("board", ["A"]), ("board is", "allowed: A, B, all")),
        cfg("boards-file-number", set_("boards", {"file": 123}), ("boards.file is 123",)),
        cfg("boards-usage-list", set_("boards", {"usage_column": ["Usage"]}), ("boards.usage_column is",)),
        cfg("files-not-mapping", set_("files", "gold.csv"), ("files must be a mapping",)),
        cfg("bad-submission-glob", lambda c: c.setdefault("files", {}).__setitem__(
            {"emotion_cause": "subtask1", "qa": "predictions", "generation": "predictions"}.get(family, "submission"),
            "[z-a].csv"),
            ("not a valid file-name pattern",)),
        cfg("unknown-option", opt("colour", "red"), ("is not an option of task",)),
        cfg("primary-key-list", set_("primary_key", ["x"]), ("primary_key is",)),
        cfg("language-fr", set_("language", "fr"), ("language is 'fr'",)),
        cfg("report-hidden", set_("report", "hidden"), ("report is 'hidden'",)),
        cfg("max-submission-negative", set_("max_submission_mb", -1), ("max_submission_mb is -1",)),
        Case(family, "config-not-yaml", 2, ("not valid UTF-8 YAML",), raw_config=b"task: [unclosed\n"),
        Case(family, "config-not-utf8", 2, ("not valid UTF-8 YAML",), raw_config=b"task: \xff\xfe\n"),
        Case(family, "config-a-list", 2, ("must be a mapping",), raw_config=b"- task\n- board\n"),
    ]
    bad_options = {
        "bank_comments": [("scheme", 5), ("ner_weight", "half"), ("entity_types", "BANK")],
        "view_sentiment": [("opinion_labels", ["en"]), ("view_normalisation", "strip")],
        "keywords": [("keyword_separator", ""), ("mode", {"x": 1})],
        "multilabel": [("k", 0), ("k", [1, 1]), ("classes", None)],
        "emotion_cause": [("subtasks", 3), ("mode", ["clean"])],
        "regression": [("rmsle", "yes"), ("smape_zero", 0), ("value_range", [3, 1])],
        # the demo lists five classes: binary averaging and a positive class need two
        "classification": [("average", "binary"), ("average", "samples"), ("positive_class", "good"),
                           ("ordinal_order", ["terrible", "poor"]), ("ordinal_weights", "cubic"), ("top_k", 0),
                           ("log_loss_eps", 1), ("submission", "scores")],
        "qa": [("rules", "squad"), ("no_answer_probabilities", "yes"), ("na_prob_thresh", 2)],
        "generation": [("bleu_tokenizer", "spm"), ("lowercase", 1), ("rouge_tokenizer", "zh"), ("rouge_stem", "yes")],
    }[family]
    for key, value in bad_options:
        label = "option-%s-%s" % (key, type(value).__name__)
        label += "-%s" % value if any(k == key and type(v) is type(value) and v != value for k, v in bad_options) \
            else ""
        cases.append(cfg(label, opt(key, value), ("options.%s is" % key,)))
    return cases


def reference_cases(family):
    """Broken reference data: exit 2; the details (checked in private/ on CodaLab v1) name the problem."""
    gold = {"emotion_cause": "Subtask_1_gold.json", "qa": "gold.json"}.get(family, "gold.csv")

    def ref(label, edit, words):
        return Case(family, "reference-" + label, 2, words, reference=edit)

    def gold_bytes(transform):
        def edit(folder):
            path = folder / gold
            path.write_bytes(transform(path.read_bytes()))
        return edit

    def remove(name):
        return lambda folder: (folder / name).unlink()

    cases = [
        ref("gold-missing", remove(gold), ("not in the reference data",)),
        ref("gold-empty", gold_bytes(lambda b: b""), ("empty",)),
        ref("gold-nul", gold_bytes(lambda b: b[:100] + b"\0" + b[100:]), ("NUL",)),
        ref("gold-bad-utf8", gold_bytes(lambda b: b[:len(b) // 2] + b"\xff" + b[len(b) // 2:]),
            ("cannot be read as UTF-8",)),
        ref("boards-wrong-columns", lambda f: (f / "boards.csv").write_text("unit,phase\n1,A\n"),
            ("exactly the columns id,board",)),
        ref("boards-missing", remove("boards.csv"), ("boards file boards.csv",)),
    ]
    if family == "qa":
        cases += [ref("gold-not-a-list", lambda f: (f / "gold.json").write_text('{"data": []}'), ("JSON list",)),
                  ref("gold-answers-not-strings", gold_bytes(lambda b: b.replace(b'"answers": [', b'"answers": [1, ', 1)),
                      ("no list of strings",)),
                  ref("gold-unanswerable-under-cmrc", lambda f: None, ("has no gold answer", "squad_v2"))]
        cases[-1].config = lambda c: c.setdefault("options", {}).__setitem__("rules", "cmrc2018")
    if family == "generation":
        cases.append(ref("gold-empty-id", gold_bytes(lambda b: b.replace(b"\ng", b"\n ,x\ng", 1)), ("empty",)))
    if family in TABLES and family != "generation":   # generation: an id repeated is one more reference
        cases.append(ref("gold-repeated-id", gold_bytes(lambda b: b + b.splitlines(True)[1]),
                         ("twice",) if family == "view_sentiment" else ("repeats",)) if family != "view_sentiment"
                     else ref("sentences-repeated", lambda f: (f / "sentences.csv").write_bytes(
                         (f / "sentences.csv").read_bytes() + (f / "sentences.csv").read_bytes().splitlines(True)[1]),
                         ("twice",)))
    if family == "multilabel":
        cases.append(ref("labels-empty", lambda f: (f / "labels.txt").write_text(""), ("lists no label",)))
    if family == "regression":
        cases.append(ref("gold-negative-under-rmsle", gold_bytes(lambda b: b.replace(b",", b",-", 2).replace(
            b"id,-value", b"id,value")), ("is negative", "options.rmsle: false")))
    if family == "classification":
        def first_gold(value):
            return gold_bytes(lambda b: _first_gold_label(b, value))
        cases += [
            ref("labels-one-class", lambda f: (f / "labels.txt").write_text("good\n"), ("lists 1 class(es)",)),
            ref("labels-twice-by-case", lambda f: (f / "labels.txt").write_text(
                (f / "labels.txt").read_text() + "GOOD\n"), ("cannot tell apart",)),
            ref("labels-with-a-space", lambda f: (f / "labels.txt").write_text(
                (f / "labels.txt").read_text() + "very good\n"), ("white space",)),
            ref("labels-named-id", lambda f: (f / "labels.txt").write_text(
                (f / "labels.txt").read_text() + "id\n"), ("name of a submission column",)),
            ref("gold-unknown-class", first_gold(b"superb"), ("'superb' is not a class of labels.txt",)),
            ref("gold-empty-class", first_gold(b""), ("is empty", "gold class")),
        ]
    return cases


def _first_gold_label(data, value):
    """gold.csv with the label of its first row replaced by ``value``."""
    lines = data.split(b"\n")
    lines[1] = lines[1].split(b",")[0] + b"," + value
    return b"\n".join(lines)


def all_cases():
    out = []
    for family in DEMO:
        out += generic_cases(family) + (table_cases(family) if family in TABLES else []) + family_cases(family)
        out += fs_cases(family)
        out += config_cases(family) + reference_cases(family)
    return out


# -- shape-only variants ----------------------------------------------------------------------------------------
def shape_variants(family):
    files = sample(family)
    out = [Shape(family, "zipped", {"upload.zip": zip_of(files)}),
           Shape(family, "zip-in-a-wrapping-folder", {"upload.zip": zip_of({"team/" + k: v for k, v in files.items()})}),
           Shape(family, "with-codabench-metadata-and-mac-junk",
                 dict(files, **{"metadata": b"exitCode: 0\n", ".DS_Store": b"\0\0", "__MACOSX/._x": b"\0"})),
           Shape(family, "zipped-bzip2", {"upload.zip": zip_of(files, zipfile.ZIP_BZIP2)}),
           Shape(family, "zipped-lzma", {"upload.zip": zip_of(files, zipfile.ZIP_LZMA)}),
           Shape(family, "zipped-stored", {"upload.zip": zip_of(files, zipfile.ZIP_STORED)}),
           Shape(family, "utf8-bom", {k: codecs.BOM_UTF8 + v for k, v in files.items()}),
           Shape(family, "utf16-with-bom", {k: v.decode("utf-8").encode("utf-16") for k, v in files.items()})]
    if family in TABLES:
        name, header, rows = sample_table(family)
        rng = random.Random(7)
        shuffled = list(rows)
        rng.shuffle(shuffled)
        quoted = [['"%s"' % c.replace('"', '""') for c in r] for r in rows]
        out += [
            Shape(family, "rows-shuffled", {name: as_csv(header, shuffled)}),
            Shape(family, "crlf", {name: as_csv(header, rows, newline="\r\n")}),
            Shape(family, "every-field-quoted", {name: as_csv(['"%s"' % h for h in header], quoted)}),
            Shape(family, "header-upper-case", {name: as_csv([h.upper() for h in header], rows)}),
            Shape(family, "trailing-blank-lines", {name: as_csv(header, rows) + b"\n\n"}),
            Shape(family, "gb18030", {name: as_csv(header, rows).decode("utf-8").encode("gb18030")}),
        ]
        if family in ("view_sentiment", "keywords", "regression"):
            out.append(Shape(family, "tab-separated", {name: as_csv(header, rows, sep="\t")}))
        padding = " " * 70000 + "\u3000" * 30000   # stripped like str.strip(), however long
        padded = [[padding + rows[0][0] + padding] + rows[0][1:]] + rows[1:]
        out.append(Shape(family, "an-id-padded-with-160k-spaces", {name: as_csv(header, padded)}))
        if family == "multilabel":   # the first score written with 2 MB of zeros: the same number
            longer = [list(r) for r in rows]
            first, rest = longer[0][2].split(" ", 1)
            longer[0][2] = first + ("" if "." in first else ".") + "0" * (2 << 20) + " " + rest
            out.append(Shape(family, "a-score-written-with-2mb-of-zeros", {name: as_csv(header, longer)}))
    elif family == "qa":
        answers = json.loads(files["predictions.json"])
        rows = [["id", "answer"]] + [[k, v] for k, v in answers.items()]
        buf = io.StringIO()
        import csv
        csv.writer(buf, lineterminator="\n").writerows(rows)
        out += [Shape(family, "compact-json", {"predictions.json": json.dumps(answers, separators=(",", ":")).encode()}),
                Shape(family, "ids-reversed", {"predictions.json": json.dumps(dict(reversed(list(answers.items()))),
                                                                                 ensure_ascii=False).encode("utf-8")}),
                Shape(family, "as-csv", {"predictions.csv": buf.getvalue().encode("utf-8")}),
                Shape(family, "as-json-lines", {"predictions.jsonl": "".join(
                    json.dumps({"id": k, "answer": v}) + "\n" for k, v in answers.items()).encode("utf-8")})]
    else:
        compact = {k: json.dumps(json.loads(v), separators=(",", ":")).encode("utf-8") for k, v in files.items()}
        reordered = {k: json.dumps(list(reversed(json.loads(v))), indent=2).encode("utf-8") for k, v in files.items()}
        out += [Shape(family, "compact-json", compact), Shape(family, "conversations-reversed", reordered)]
    return out


def all_shapes():
    return [s for family in DEMO for s in shape_variants(family)]


def board_config(family, board="A"):
    """The demo's board config, in English: the cases name the English words their one line must hold."""
    config = yaml.safe_load((DEMO[family] / "reference_data" / ("board_%s.yaml" % board)).read_text(encoding="utf-8"))
    config["language"] = "en"
    return config
