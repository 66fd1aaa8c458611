"""The pages we write, loaded in headless Chromium: hostile strings stay text, and they read on a phone, a laptop
and paper.

Pages: every family's board-A report (as the bundle's config makes it: the competition's title and column
labels; one in Chinese) and its sealed board-B page, error pages carrying hostile file names and values,
and a page rendered with a hostile string in every field a family can fill. Each page is shown, as it is,
in a frame 400 px and a frame 1280 px wide. The frame's DOM must hold only the elements we write (no
script, image or event handler from a string), its title must be ours, and its content must be no wider
than the frame. Then every family's report is opened at 1280 and at 400 px and screenshot (PNG files in a
temporary folder): each image has the width asked for and shows a page, not a blank.

The layout is measured on every family's board-A page (as a platform shows it, and with the competition's
title and labels), its sealed board-B page and its board-B page once revealed, a Chinese page, a Ladder page
and the page of hostile fields: at 400 and 1280 px
on screen, and printed (print media at the printable width of A4 or Letter). On screen a table or chart wider
than its room must stand in its own scroll box, which fits the page; printed, nothing may reach past the page
or hide in a box. No word of a label, key, heading, caption or sentence may be broken across lines (each run
of Latin letters and digits must lie on one line: breaks come at spaces, underscores and punctuation).
Captions are wholly visible; chart text is drawn at 10 px or more at 400 px; the Scores table shows the
primary score's interval at 400 px without scrolling; the links of the contents lead to the page's sections.
One Chromium run does it all (driven over its DevTools pipe, tests/chromium.py).
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
        "td", "code", "tbody", "small", "figure", "figcaption", "footer", "nav", "ul", "li", "a", "wbr",
        # the charts' inline SVG
        "svg", "defs", "pattern", "rect", "line", "circle", "text"}
WIDTHS = (400, 1280)
REPORTS = [(family, board) for family in DEMO for board in ("A", "B")]
LABELLED = ["%s-labelled" % family for family in DEMO] + ["bank_comments-zh"]
REVEALED = ["%s-revealed" % family for family in DEMO]     # board B once revealed: the final page
HOSTILE_UPLOADS = ("file name", "id", "emotion", "long value")
# the pages whose layout is measured, and how: (media, width); 7.47 in is A4 less 1 cm margins, the narrower
# of A4's and Letter's (7.5 in less Chromium's default margins) printable widths
LAID_OUT = ["%s-%s" % p for p in REPORTS] + LABELLED + REVEALED + ["keywords-ladder", "every field"]
# the pages of real competitions (the hostile fields are no words: a run of them longer than any word is cut
# where it must be, and they make a label column as wide as they like)
SHIPPED = [key for key in LAID_OUT if key != "every field"]
PRINT_WIDTH = round(7.47 * 96)
# the competition's own pages (overview, evaluation, data, terms) of every demo, as the platform shows them
COMPETITION_PAGES = ["%s/%s" % (family, page.name) for family in DEMO
                     for page in sorted((DEMO[family] / "pages").glob("*.html"))]
MODES = (("screen", 400), ("screen", 1280), ("print", PRINT_WIDTH))
MIN_CHART_FONT = 10

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


# what a page's layout holds, measured in the page itself (DevTools evaluates it: the page's own policy forbids
# every script)
_LAYOUT = r"""
(function () {
  var view = document.documentElement.clientWidth, out = {view: view, content: document.documentElement.scrollWidth,
                                                          height: document.documentElement.scrollHeight};
  function what(el) {
    return el.tagName.toLowerCase() + " " + JSON.stringify((el.textContent || "").trim().slice(0, 60));
  }
  function scrolls(el) { var o = getComputedStyle(el).overflowX; return o === "auto" || o === "scroll"; }
  function inScrollBox(el) {
    for (var a = el.parentElement; a; a = a.parentElement) if (scrolls(a)) return true;
    return false;
  }
  var all = Array.prototype.filter.call(document.body.querySelectorAll("*"), function (el) {
    return !el.parentElement.closest("svg");
  });
  // tables and charts wider than the element they stand in: [what, own scroll box, that box fits the page]
  out.wide = [];
  all.forEach(function (el) {
    if (el.tagName !== "TABLE" && el.tagName !== "svg") return;
    var room = el.parentElement, r = el.getBoundingClientRect();
    if (r.width > room.clientWidth + 0.5) {
      out.wide.push([what(el), scrolls(room), room.getBoundingClientRect().right <= view + 0.5]);
    }
  });
  // elements reaching past the page ([what, inside a scroll box]) and boxes that hide part of what they hold
  out.beyond = [];
  out.hiding = [];
  all.forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width && (r.right > view + 0.5 || r.left < -0.5)) out.beyond.push([what(el), inScrollBox(el)]);
    if (getComputedStyle(el).overflowX !== "visible" && el.scrollWidth > el.clientWidth + 0.5) {
      out.hiding.push(what(el));
    }
  });
  // words broken across lines: every run of Latin letters and digits of every text outside the charts
  out.broken = [];
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), node, run = /[A-Za-z0-9À-ɏ]+/g;
  while ((node = walker.nextNode())) {
    if (node.parentElement.closest("svg")) continue;
    var m;
    run.lastIndex = 0;
    while ((m = run.exec(node.data))) {
      var range = document.createRange(), lines = {};
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) lines[Math.round(r.top)] = 1; });
      if (Object.keys(lines).length > 1) out.broken.push(m[0] + " in " + what(node.parentElement));
    }
  }
  // captions cut off by the page, by a box they stand in, or by their own box
  out.clipped = [];
  document.querySelectorAll("caption, figcaption").forEach(function (el) {
    var r = el.getBoundingClientRect(), cut = r.left < -0.5 || r.right > view + 0.5 || el.scrollWidth > el.clientWidth + 0.5;
    for (var a = el.parentElement; a && !cut; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") {
        var b = a.getBoundingClientRect();
        cut = r.left < b.left - 0.5 || r.right > b.left + a.clientWidth + 0.5;
      }
    }
    if (cut) out.clipped.push(what(el));
  });
  // the smallest text of each chart as drawn: its font size through the chart's scaling, and its box's height
  out.charts = [];
  document.querySelectorAll("svg").forEach(function (svg) {
    var size = Infinity, height = Infinity;
    svg.querySelectorAll("text").forEach(function (t) {
      size = Math.min(size, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
      height = Math.min(height, t.getBoundingClientRect().height);
    });
    out.charts.push([svg.getAttribute("aria-label"), size, height]);
  });
  // the Scores table: does it fit its box, and where does the primary score's interval end
  var scores = document.querySelector("table.scores");
  if (scores) {
    var box = scores.parentElement, ci = scores.querySelector("tr.primary td.ci");
    out.scores = {fits: box.scrollWidth <= box.clientWidth + 0.5,
                  interval: ci ? [ci.textContent, ci.getBoundingClientRect().right, box.getBoundingClientRect().right] : null};
  }
  // the contents: every link's target, every section's id
  out.links = Array.prototype.map.call(document.querySelectorAll("a"), function (a) {
    var href = a.getAttribute("href") || "";
    return [href, href.charAt(0) === "#" && document.getElementById(href.slice(1)) !== null];
  });
  out.sections = Array.prototype.map.call(document.querySelectorAll("h2"), function (h) { return h.id; });
  return JSON.stringify(out);
})()
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


def _labelled_page(base, family, lang=None, name=None, extra="", board="A"):
    """A board's page from the reference folder the organizer tools assemble (title and labels included;
    board B revealed); ``extra`` adds lines to its config."""
    folder = base / ("%s-%s" % (family, name or lang or "labelled"))
    ref = assemble_reference(DEMO[family] / "reference_data", board, folder / "input" / "ref", reveal=board == "B")
    extra += "language: %s\n" % lang if lang else ""
    if extra:
        (ref / "config.yaml").write_text((ref / "config.yaml").read_text(encoding="utf-8") + extra, encoding="utf-8")
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
    for family in DEMO:
        pages["%s-revealed" % family] = (_labelled_page(base, family, name="revealed", board="B"), None)
    pages["keywords-ladder"] = (_labelled_page(base, "keywords", name="ladder", extra="feedback: {ladder: fixed}\n"),
                                None)
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
    layouts = {}
    with Browser(CHROMIUM, base / "profile") as browser:
        browser.viewport(1400)
        browser.open(harness.as_uri())
        results = json.loads(browser.evaluate("document.getElementById('result').textContent"))
        for family in DEMO:
            for width in WIDTHS:
                browser.viewport(width)
                browser.open(pages["%s-labelled" % family][0].as_uri())
                (shots / ("%s-%d.png" % (family, width))).write_bytes(browser.screenshot(width))
        for key in LAID_OUT:
            browser.open(pages[key][0].as_uri())
            for media, width in MODES:
                browser.media(media)
                browser.viewport(width)
                layouts[key, media, width] = json.loads(browser.evaluate(_LAYOUT))
            browser.media("")
        for key in COMPETITION_PAGES:
            family, name = key.split("/")
            browser.open((DEMO[family] / "pages" / name).as_uri())
            for media, width in MODES:
                browser.media(media)
                browser.viewport(width)
                layouts[key, media, width] = json.loads(browser.evaluate(_LAYOUT))
            browser.media("")
    out = {}
    for key, (path, title) in pages.items():
        out[key] = (title, {w: results["%s|%d" % (key, w)] for w in WIDTHS}, path)
    return out, shots, layouts


def _title_of(path):
    text = path.read_text(encoding="utf-8")
    return html.unescape(text.split("<title>", 1)[1].split("</title>", 1)[0])


@pytest.mark.parametrize("key", ["%s-%s" % p for p in REPORTS] + LABELLED + REVEALED + list(HOSTILE_UPLOADS)
                         + ["keywords-ladder", "every field", "rescore", "rescore-multilabel"])
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
        page = path.read_text(encoding="utf-8").replace("<wbr>", "")   # a key may break after its underscores
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


# -- layout: a phone, a laptop, paper ------------------------------------------------------------------
def _layouts(shown, key):
    return [((media, width), shown[2][key, media, width]) for media, width in MODES]


@pytest.mark.parametrize("key", LAID_OUT)
def test_no_table_or_chart_is_cut_off_on_a_phone_a_laptop_or_paper(shown, key):
    for (media, width), page in _layouts(shown, key):
        assert page["view"] == width
        if media == "print":    # paper does not scroll: everything within the page, nothing hidden in a box
            assert not page["beyond"] and not page["hiding"], (media, width, page["beyond"], page["hiding"])
            continue
        assert page["content"] <= width, (media, width, page["content"])
        for element, own_box, box_fits in page["wide"]:
            assert own_box and box_fits, (media, width, element)
        assert all(in_box for _, in_box in page["beyond"]), (media, width, page["beyond"])


@pytest.mark.parametrize("key", SHIPPED)
def test_no_word_is_broken_across_lines(shown, key):
    for mode, page in _layouts(shown, key):
        assert not page["broken"], (mode, page["broken"][:10])


@pytest.mark.parametrize("key", LAID_OUT)
def test_captions_are_wholly_visible(shown, key):
    for mode, page in _layouts(shown, key):
        assert not page["clipped"], (mode, page["clipped"])


@pytest.mark.parametrize("key", LAID_OUT)
def test_chart_text_is_drawn_at_10_px_or_more_on_a_phone(shown, key):
    page = shown[2][key, "screen", 400]
    for label, size, height in page["charts"]:
        assert size >= MIN_CHART_FONT - 1e-3 and height >= MIN_CHART_FONT, (label, size, height)
    if key.endswith("-labelled"):
        assert page["charts"]   # every family's report has charts


@pytest.mark.parametrize("key", SHIPPED)
def test_the_scores_table_shows_the_interval_on_a_phone(shown, key):
    for (media, width), page in _layouts(shown, key):
        if "scores" not in page:     # sealed and error pages show no score
            continue
        assert page["scores"]["fits"], (media, width)
        if page["scores"]["interval"] is not None:
            text, right, box_right = page["scores"]["interval"]
            assert text.startswith("[") and right <= min(box_right, width) + 0.5, (media, width, text, right)
    if key.endswith(("-A", "-labelled", "-zh", "-revealed")):
        assert shown[2][key, "screen", 400]["scores"]["interval"] is not None


@pytest.mark.parametrize("key", LAID_OUT)
def test_the_contents_lead_to_every_section(shown, key):
    page = shown[2][key, "screen", 1280]
    assert all(ok for _, ok in page["links"]), page["links"]
    sections = page["sections"]
    assert all(sections) and len(set(sections)) == len(sections), sections
    if len(sections) >= 3:
        assert sorted(href[1:] for href, _ in page["links"]) == sorted(sections)
    if key.endswith(("-A", "-labelled", "-zh", "-revealed")):
        assert len(sections) >= 3


@pytest.mark.parametrize("key", COMPETITION_PAGES)
def test_the_competition_pages_fit_a_phone_and_paper(shown, key):
    """A format example's long line wraps instead of pushing the page sideways."""
    for (media, width), page in _layouts(shown, key):
        assert page["content"] <= width and not page["hiding"], (media, width, page["content"], page["hiding"])
        assert all(in_box for _, in_box in page["beyond"]) and not page["broken"], (media, width, page["beyond"],
                                                                                 page["broken"][:5])


def test_the_classification_page_is_one_a_reader_can_take_in(shown):
    """Each table once (the confusion matrix was drawn three times: counts, shares, heat map): the five-class demo's
    page measured 3,419 px at 1280 px wide and 4,331 px at 400 before, about 1,850 and 2,550 now."""
    _, _, layouts = shown
    assert layouts["classification-labelled", "screen", 1280]["height"] <= 2200
    assert layouts["classification-labelled", "screen", 400]["height"] <= 3000
    page = shown[0]["classification-labelled"][2].read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and "gold total" not in page   # one heat map, no counts or shares tables
