"""The pages we write, loaded in headless Chromium: hostile strings stay text, and nothing scrolls sideways at 400 px.

Pages: every family's board-A report and its sealed board-B page, error pages carrying hostile file names
and values, and a page rendered with a hostile string in every field a family can fill. For each, the DOM
Chromium builds must hold only the elements we write (no script, image or event handler from a string)
and the title must be ours. Widths are measured inside a 400 px (and a 1280 px) frame, since headless
Chromium's own window is at least 500 px wide.
"""
import html.parser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import score_in_process, write_files
from hostile_corpus import DEMO, HOSTILE, sample
from test_hostile_uploads import build_input

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian package "
                                                         "chromium; tools/test.sh installs it when run as root)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OURS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "table", "caption", "tr", "th",
        "td", "code", "tbody"}


def chromium_dom(url, profile, width=1280):
    proc = subprocess.run([CHROMIUM] + FLAGS + ["--user-data-dir=%s" % profile, "--window-size=%d,900" % width,
                                                "--virtual-time-budget=5000", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


class _Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.handlers, self.title, self._in_title = set(), [], "", False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def assert_inert(page, tmp_path, expected_title):
    """Chromium's DOM of ``page`` holds only our elements, no handler, and our title."""
    dom = _Elements()
    dom.feed(chromium_dom(page.as_uri(), tmp_path / "profile"))
    assert dom.tags <= OURS, dom.tags - OURS
    assert not dom.handlers and dom.title == expected_title and "PWNED" not in dom.title


def scroll_width(page, tmp_path, width):
    """(document width, frame width) of ``page`` shown in a frame ``width`` pixels wide."""
    text = page.read_text(encoding="utf-8")
    probe = tmp_path / ("probe_%d.html" % width)
    # a copy without the policy that forbids scripts, reporting its own width to the frame's parent
    text = text.replace(text[text.index('<meta http-equiv="Content-Security-Policy"'):].split(">", 1)[0] + ">", "")
    probe.write_text(text.replace("</body>", "<script>parent.postMessage(document.documentElement.scrollWidth + '/' "
                                              "+ window.innerWidth, '*')</script></body>"), encoding="utf-8")
    harness = tmp_path / ("frame_%d.html" % width)
    harness.write_text('<!DOCTYPE html><html><head><title>pending</title></head><body style="margin:0">'
                       '<iframe src="%s" style="width:%dpx;height:900px;border:0"></iframe><script>'
                       'addEventListener("message", function (e) { document.title = e.data; });</script></body></html>'
                       % (probe.name, width), encoding="utf-8")
    dom = _Elements()
    dom.feed(chromium_dom(harness.as_uri(), tmp_path / "profile"))
    content, frame = dom.title.split("/")
    return int(content), int(frame)


def title_of(page):
    text = page.read_text(encoding="utf-8")
    parser = _Elements()
    parser.feed(text)
    return parser.title


PAGES = [(family, board) for family in DEMO for board in ("A", "B")]


@pytest.mark.parametrize("family,board", PAGES, ids=["%s-%s" % p for p in PAGES])
def test_reports_fit_a_phone_and_a_laptop(tmp_path, family, board):
    inp = build_input(tmp_path, family, board=board)
    code, _, err = score_in_process(inp, tmp_path / "out")
    assert code == 0, err
    page = tmp_path / "out" / "detailed_results.html"
    assert_inert(page, tmp_path, title_of(page))
    for width in (400, 1280):
        content, frame = scroll_width(page, tmp_path, width)
        assert frame == width and content <= width, (width, content)


HOSTILE_UPLOADS = {
    "file name": ("keywords", {"%s.txt" % HOSTILE.replace("/", "_"): b"x"}),
    "id": ("keywords", None),
    "emotion": ("emotion_cause", None),
    "long value": ("bank_comments", None),
}


def hostile_files(kind):
    family, files = HOSTILE_UPLOADS[kind]
    if files is not None:
        return family, files
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


@pytest.mark.parametrize("kind", sorted(HOSTILE_UPLOADS))
def test_error_pages_show_hostile_uploads_as_text(tmp_path, kind):
    family, files = hostile_files(kind)
    inp = build_input(tmp_path, family, files)
    code, _, err = score_in_process(inp, tmp_path / "out")
    assert code == 1, err
    page = tmp_path / "out" / "detailed_results.html"
    assert_inert(page, tmp_path, "Scoring failed")
    content, frame = scroll_width(page, tmp_path, 400)
    assert content <= frame == 400


def test_every_field_of_a_report_holds_a_hostile_string_as_text(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring_program"))
    from scorer import report

    sections = [report.Section(HOSTILE, [report.Text(HOSTILE, "note"),
                                         report.Table([HOSTILE, "n"], [[HOSTILE, 1], ["x" * 500, 2.5]], caption=HOSTILE),
                                         report.Scores({HOSTILE: 0.5}, HOSTILE)])]
    page = tmp_path / "page.html"
    write_files(tmp_path, {"page.html": report.render(HOSTILE, sections, HOSTILE)})
    dom = _Elements()
    dom.feed(chromium_dom(page.as_uri(), tmp_path / "profile"))
    from scorer.errors import printable
    # the title is the hostile string itself, as text (with its invisible characters escaped): no script ran
    assert dom.tags <= OURS and not dom.handlers and dom.title == printable(HOSTILE)
    content, frame = scroll_width(page, tmp_path, 400)
    assert content <= frame == 400
