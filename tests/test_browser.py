"""The pages we write, loaded in headless Chromium: hostile strings stay text, and nothing scrolls sideways at 400 px.

Pages: every family's board-A report and its sealed board-B page, error pages carrying hostile file names
and values, and a page rendered with a hostile string in every field a family can fill. Each page is shown,
as it is, in a frame 400 px and a frame 1280 px wide (headless Chromium's own window is at least 500 px).
The frame's DOM must hold only the elements we write (no script, image or event handler from a string),
its title must be ours, and its content must be no wider than the frame. One Chromium run reads them all.
"""
import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import score_in_process, write_files
from hostile_corpus import DEMO, HOSTILE, sample
from test_hostile_uploads import build_input

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring_program"))
from scorer import report  # noqa: E402
from scorer.errors import printable  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian package "
                                                         "chromium; tools/test.sh installs it when run as root)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--allow-file-access-from-files"]
OURS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "table", "caption", "tr", "th",
        "td", "code", "tbody"}
WIDTHS = (400, 1280)
REPORTS = [(family, board) for family in DEMO for board in ("A", "B")]
HOSTILE_UPLOADS = ("file name", "id", "emotion", "long value")

# the frame reader: every frame's elements, event-handler attributes, title and widths, written into the page
_READER = """
window.addEventListener("load", function () {
  var out = {};
  document.querySelectorAll("iframe").forEach(function (frame) {
    var doc = frame.contentDocument, tags = {}, handlers = [];
    doc.querySelectorAll("*").forEach(function (el) {
      tags[el.tagName.toLowerCase()] = 1;
      for (var i = 0; i < el.attributes.length; i++) {
        if (el.attributes[i].name.indexOf("on") === 0) handlers.push(el.attributes[i].name);
      }
    });
    out[frame.id] = {tags: Object.keys(tags), handlers: handlers, title: doc.title,
                     content: doc.documentElement.scrollWidth, frame: frame.contentWindow.innerWidth};
  });
  document.getElementById("result").textContent = JSON.stringify(out);
});
"""


def hostile_files(kind):
    if kind == "file name":
        return "keywords", {"%s.txt" % HOSTILE.replace("/", "_"): b"x"}
    family = {"id": "keywords", "emotion": "emotion_cause", "long value": "bank_comments"}[kind]
    files = dict(sample(family))
    name = sorted(files)[0]
    if kind == "id":
        lines = files[name].decode("utf-8").splitlines()
        lines[1] = HOSTILE.replace(",", ";") + "," + lines[1].split(",", 1)[1]
        files[name] = ("\n".join(lines) + "\n").encode("utf-8")
    elif kind == "emotion":
        files[name] = files[name].replace(b'_joy"', ('_%s"' % HOSTILE.replace('"', "'")).encode("utf-8"), 1)
    else:
        lines = files[name].decode("utf-8").splitlines()
        lines[1] = lines[1].rsplit(",", 1)[0] + "," + "\u202e" * 3000
        files[name] = ("\n".join(lines) + "\n").encode("utf-8")
    return family, files


def _page(base, name, family=None, files=None, board="A", code=None):
    folder = base / name
    inp = build_input(folder, family, files, board=board)
    got, _, err = score_in_process(inp, folder / "out")
    assert got == code, err
    return folder / "out" / "detailed_results.html"


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """{page id: (expected title, {width: what Chromium's frame holds})}, from one Chromium run."""
    base = tmp_path_factory.mktemp("pages")
    pages = {}
    for family, board in REPORTS:
        path = _page(base, "%s-%s" % (family, board), family, None, board, 0)
        pages["%s-%s" % (family, board)] = (path, None)
    for kind in HOSTILE_UPLOADS:
        family, files = hostile_files(kind)
        pages[kind] = (_page(base, kind.replace(" ", "_"), family, files, code=1), "Scoring failed")
    sections = [report.Section(HOSTILE, [report.Text(HOSTILE, "note"),
                                         report.Table([HOSTILE, "n"], [[HOSTILE, 1], ["x" * 500, 2.5]], caption=HOSTILE),
                                         report.Scores({HOSTILE: 0.5}, HOSTILE)])]
    write_files(base, {"every_field.html": report.render(HOSTILE, sections, HOSTILE)})
    pages["every field"] = (base / "every_field.html", printable(HOSTILE))
    frames = "".join('<iframe id="%s|%d" src="%s" style="width:%dpx;height:900px;border:0"></iframe>'
                     % (html.escape(key), width, path.as_uri(), width)
                     for key, (path, _) in pages.items() for width in WIDTHS)
    harness = base / "harness.html"
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><title>harness</title></head><body>'
                       '<pre id="result"></pre>%s<script>%s</script></body></html>' % (frames, _READER),
                       encoding="utf-8")
    proc = subprocess.run([CHROMIUM] + FLAGS + ["--user-data-dir=%s" % (base / "profile"), "--window-size=1400,900",
                                                "--virtual-time-budget=20000", "--dump-dom", harness.as_uri()],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    raw = proc.stdout.split('<pre id="result">', 1)[1].split("</pre>", 1)[0]
    results = json.loads(html.unescape(raw))
    out = {}
    for key, (path, title) in pages.items():
        out[key] = (title, {w: results["%s|%d" % (key, w)] for w in WIDTHS}, path)
    return out


def _title_of(path):
    text = path.read_text(encoding="utf-8")
    return html.unescape(text.split("<title>", 1)[1].split("</title>", 1)[0])


@pytest.mark.parametrize("key", ["%s-%s" % p for p in REPORTS] + list(HOSTILE_UPLOADS) + ["every field"])
def test_pages_hold_only_our_elements_and_fit_a_phone_and_a_laptop(shown, key):
    title, frames, path = shown[key]
    title = title if title is not None else _title_of(path)
    for width, frame in frames.items():
        assert set(frame["tags"]) <= OURS, set(frame["tags"]) - OURS
        assert not frame["handlers"] and frame["title"] == title  # a script that ran would have changed it
        assert frame["frame"] == width and frame["content"] <= width, (width, frame)
