"""The pages we write, loaded in headless Chromium: hostile strings stay text, and nothing scrolls sideways at 400 px.

Pages: every family's board-A report (as the bundle's config makes it: the competition's title and column
labels; one in Chinese) and its sealed board-B page, error pages carrying hostile file names and values,
and a page rendered with a hostile string in every field a family can fill. Each page is shown, as it is,
in a frame 400 px and a frame 1280 px wide. The frame's DOM must hold only the elements we write (no
script, image or event handler from a string), its title must be ours, and its content must be no wider
than the frame. Then every family's report is opened at 1280 and at 400 px and screenshot (PNG files in a
temporary folder): each image has the width asked for and shows a page, not a blank. One Chromium run
does it all (driven over its DevTools pipe, tests/chromium.py).
"""
import html
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from chromium import Browser
from helpers import score_in_process, write_files
from hostile_corpus import DEMO, HOSTILE, sample
from test_hostile_uploads import build_input

from organizer.phase_data import assemble_reference

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring_program"))
from scorer import report  # noqa: E402
from scorer.errors import printable  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian package "
                                                         "chromium; tools/test.sh installs it when run as root)")
OURS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "table", "caption", "tr", "th",
        "td", "code", "tbody", "small", "figure", "figcaption", "footer",
        # the charts' inline SVG
        "svg", "defs", "pattern", "rect", "line", "circle", "text"}
WIDTHS = (400, 1280)
REPORTS = [(family, board) for family in DEMO for board in ("A", "B")]
LABELLED = ["%s-labelled" % family for family in DEMO] + ["bank_comments-zh"]
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
    var boxes = [];
    doc.querySelectorAll(".wide").forEach(function (box) { boxes.push([box.scrollWidth, box.clientWidth]); });
    out[frame.id] = {tags: Object.keys(tags), handlers: handlers, title: doc.title, boxes: boxes,
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


def _labelled_page(base, family, lang=None):
    """Board A's page from the reference folder the organizer tools assemble (title and labels included)."""
    folder = base / ("%s-%s" % (family, lang or "labelled"))
    ref = assemble_reference(DEMO[family] / "reference_data", "A", folder / "input" / "ref")
    if lang:
        (ref / "config.yaml").write_text((ref / "config.yaml").read_text(encoding="utf-8") + "language: %s\n" % lang,
                                         encoding="utf-8")
    write_files(folder / "input" / "res", sample(family))
    got, _, err = score_in_process(folder / "input", folder / "out")
    assert got == 0, err
    return folder / "out" / "detailed_results.html"


def _rescore_page(base):
    """The organizer's re-scored leaderboard of the bank demo: two teams, a copy, and a long refusal."""
    from helpers import organizer

    subs = base / "rescore_subs"
    sample_file = DEMO["bank_comments"] / "starting_kit" / "sample_submission.csv"
    write_files(subs, {"team_a.csv": sample_file.read_bytes(), "team_copy.csv": sample_file.read_bytes(),
                       "team with a rather long name that goes on.csv": sample_file.read_bytes(),
                       "broken.csv": "id,BIO_anno,class\n0,O,%s\n" % ("7" * 300)})
    proc = organizer("rescore", DEMO["bank_comments"], "B", subs, base / "rescore", "-j", "2",
                     "--permutations", "200")
    assert proc.returncode == 0, proc.stderr
    # a task with many score keys (23): the page still fits
    subs = base / "rescore_subs_multilabel"
    sample_file = DEMO["multilabel"] / "starting_kit" / "sample_submission.csv"
    write_files(subs, {"team_a.csv": sample_file.read_bytes(), "team_b.csv": sample_file.read_bytes()})
    proc = organizer("rescore", DEMO["multilabel"], "B", subs, base / "rescore_multilabel", "-j", "2",
                     "--permutations", "200", "--compare")
    assert proc.returncode == 0, proc.stderr
    return base / "rescore" / "leaderboard.html", base / "rescore_multilabel" / "leaderboard.html"


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """{page id: (expected title, {width: what Chromium's frame holds}, path)} and the screenshots, one run."""
    base = tmp_path_factory.mktemp("pages")
    pages = {}
    for family, board in REPORTS:
        path = _page(base, "%s-%s" % (family, board), family, None, board, 0)
        pages["%s-%s" % (family, board)] = (path, None)
    for family in DEMO:
        pages["%s-labelled" % family] = (_labelled_page(base, family), None)
    pages["bank_comments-zh"] = (_labelled_page(base, "bank_comments", "zh"), None)
    pages["rescore"], pages["rescore-multilabel"] = ((path, None) for path in _rescore_page(base))
    for kind in HOSTILE_UPLOADS:
        family, files = hostile_files(kind)
        pages[kind] = (_page(base, kind.replace(" ", "_"), family, files, code=1), "Scoring failed")
    sections = [report.Section(HOSTILE, [report.Text(HOSTILE, "note"),
                                         report.Table([HOSTILE, "n"], [[HOSTILE, 1], ["x" * 500, 2.5]], caption=HOSTILE),
                                         report.Bars(HOSTILE, [HOSTILE, "x" * 500], [(HOSTILE, [0.5, 1.0])]),
                                         report.Heatmap(HOSTILE, [HOSTILE, "b"], [HOSTILE, "d"], [[1, 2], [3, 4]]),
                                         report.Scores({HOSTILE: 0.5}, HOSTILE, {HOSTILE: HOSTILE}, (0.25, 0.75))])]
    write_files(base, {"every_field.html": report.render(HOSTILE, sections, HOSTILE, footer=HOSTILE)})
    pages["every field"] = (base / "every_field.html", printable(HOSTILE))
    frames = "".join('<iframe id="%s|%d" src="%s" style="width:%dpx;height:900px;border:0"></iframe>'
                     % (html.escape(key), width, path.as_uri(), width)
                     for key, (path, _) in pages.items() for width in WIDTHS)
    harness = base / "harness.html"
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><title>harness</title></head><body>'
                       '<pre id="result"></pre>%s<script>%s</script></body></html>' % (frames, _READER),
                       encoding="utf-8")
    shots = base / "screenshots"
    shots.mkdir()
    with Browser(CHROMIUM, base / "profile") as browser:
        browser.viewport(1400)
        browser.open(harness.as_uri())
        results = json.loads(browser.evaluate("document.getElementById('result').textContent"))
        for family in DEMO:
            for width in WIDTHS:
                browser.viewport(width)
                browser.open(pages["%s-labelled" % family][0].as_uri())
                (shots / ("%s-%d.png" % (family, width))).write_bytes(browser.screenshot(width))
    out = {}
    for key, (path, title) in pages.items():
        out[key] = (title, {w: results["%s|%d" % (key, w)] for w in WIDTHS}, path)
    return out, shots


def _title_of(path):
    text = path.read_text(encoding="utf-8")
    return html.unescape(text.split("<title>", 1)[1].split("</title>", 1)[0])


@pytest.mark.parametrize("key", ["%s-%s" % p for p in REPORTS] + LABELLED + list(HOSTILE_UPLOADS)
                         + ["every field", "rescore", "rescore-multilabel"])
def test_pages_hold_only_our_elements_and_fit_a_phone_and_a_laptop(shown, key):
    title, frames, path = shown[0][key]
    title = title if title is not None else _title_of(path)
    for width, frame in frames.items():
        assert set(frame["tags"]) <= OURS, set(frame["tags"]) - OURS
        assert not frame["handlers"] and frame["title"] == title  # a script that ran would have changed it
        assert frame["frame"] == width and frame["content"] <= width, (width, frame)


@pytest.mark.parametrize("family", sorted(DEMO))
def test_every_report_has_charts_and_shows_in_a_screenshot_at_both_widths(shown, family):
    from PIL import Image

    _, frames, path = shown[0]["%s-labelled" % family]
    assert "svg" in frames[1280]["tags"]  # at least one chart drawn
    for width in WIDTHS:
        png = shown[1] / ("%s-%d.png" % (family, width))
        with Image.open(png) as image:
            assert image.format == "PNG" and image.size[0] == width and image.size[1] > 600, image.size
            grey = np.asarray(image.convert("L"))
        ink = (grey < 128).mean()              # share of dark pixels: text, rules, bars
        assert 0.005 < ink < 0.5, ink           # a page of text and charts, not a blank or a black image
        assert len(np.unique(grey)) > 20        # anti-aliased text and the charts' greys


def test_the_labelled_pages_show_the_competition_title_and_labels(shown):
    import yaml

    for family in DEMO:
        _, _, path = shown[0]["%s-labelled" % family]
        page = path.read_text(encoding="utf-8")
        comp = yaml.safe_load((DEMO[family] / "competition.yaml").read_text(encoding="utf-8"))
        assert html.escape(comp["title"]) in page
        for key, column in comp["leaderboard"]["columns"].items():
            assert html.escape(column["label"]) in page and "<code>%s</code>" % key in page
    zh = shown[0]["bank_comments-zh"][2].read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in zh and "成绩" in zh and "区间" in zh


def test_the_rescored_leaderboard_has_no_column_off_screen_on_a_laptop(shown):
    """At 1280 px every table of a re-scored board fits its box: no column is hidden to the right (the bank
    board with a long error, the multi-label board with 23 score keys)."""
    for key in ("rescore", "rescore-multilabel"):
        _, frames, _ = shown[0][key]
        for scroll, client in frames[1280]["boxes"]:
            assert scroll <= client, (key, scroll, client)
        assert len(frames[1280]["boxes"]) >= 4
