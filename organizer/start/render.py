"""The texts of a new competition: templates of organizer/templates/ filled in the competition's language.

``common.yaml`` holds what every competition says (phases, boards, the kit's
README); ``<family>.yaml`` what the family says (task, inputs, format, metric,
column labels). Fields are ``$name`` (``string.Template``); a field's own text
may hold fields too. Texts are a small Markdown (paragraphs, ``- `` lists,
fenced blocks, `code`, **bold**), turned into HTML for the pages.

>>> markdown_html("A **b** `c<d`.\\n\\n- one\\n  two\\n- three")
'<p>A <b>b</b> <code>c&lt;d</code>.</p>\\n<ul>\\n<li>one two</li>\\n<li>three</li>\\n</ul>'
"""
import html
import re
from pathlib import Path
from string import Template

import yaml

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
LABEL_MAX = 36   # Codabench Column.title; CodaLab v1 allows 50


_CJK = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
# no space between two Chinese characters, nor after Chinese punctuation
_CJK_GAP = re.compile("(?<=[%s]) (?=[%s])|(?<=[\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f\uff09]) " % (_CJK, _CJK))


def texts(family, lang):
    """The common and the family texts in ``lang``, one mapping (``lang`` and ``ascending`` included)."""
    common = _load("common.yaml")
    own = _load("%s.yaml" % family)
    out = dict(common[lang])
    out.update(own[lang])
    # YAML folds a line break into a space, which Chinese does not put between two of its characters
    out = {k: _CJK_GAP.sub("", v) if isinstance(v, str) else v for k, v in out.items()}
    # the submission's declaration filled in at once: a text that quotes it may sit inside another field
    declared = submission_fields(family)
    out = {k: Template(v).safe_substitute(declared) if isinstance(v, str) else v for k, v in out.items()}
    out["lang"] = lang
    out["ascending"] = own.get("ascending") or []
    return out


def submission_fields(family):
    """The fields the family's declaration of its submission gives the texts (``scorer.tasks.base.SubmissionFile``),
    so that no template restates it: ``header`` (the required columns), ``header_full`` (with the optional
    ones) and ``separators`` of the submission table; ``file_<slot>``, the file name of each JSON file.

    >>> submission_fields("multilabel")["header_full"], submission_fields("emotion_cause")["file_subtask2"]
    ('id,labels,scores', 'Subtask_2_pred.json')
    """
    from scorer.public import families

    fields = {}
    for declared in families()[family].submission_files:
        if declared.columns:
            fields.update(header=declared.header, header_full=",".join(declared.columns + declared.optional))
        else:
            fields["file_" + declared.slot] = declared.pattern
    return fields


def _load(name):
    with open(TEMPLATES / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def fill(text, values, strip=True):
    """``text`` with its ``$fields`` filled; the values' own fields are filled first. Unknown fields stay. A
    fragment put inside a sentence keeps its spaces (``strip=False``): " and the ..." joins the word before it."""
    resolved = {k: Template(v).safe_substitute(values) for k, v in values.items() if isinstance(v, str)}
    filled = Template(str(text)).safe_substitute(resolved)
    return filled.strip() if strip else filled


def column_labels(keys, labels, values, family, lang):
    """{key: label} for the leaderboard keys: the template's own label where it says more for this competition
    (its weights, which key is the main one; ``{k}`` in a key stands for a number), else the label the scoring
    program's page gives the key (``TaskFamily.key_label``), so both name a score alike."""
    out = {}
    for key in keys:
        label = labels.get(key)
        if label is None:
            for pattern, template in labels.items():
                found = re.fullmatch(re.escape(pattern).replace(r"\{k\}", r"(\d+)"), key) if "{k}" in pattern else None
                if found:
                    label = template.replace("{k}", found.group(1))
                    break
        if label is None:
            own = family.key_label(key)
            label = own.text(lang) if own is not None else key
        label = fill(label, values)
        if len(label) > LABEL_MAX:
            raise ValueError("the label of column %s is longer than %d characters: %r" % (key, LABEL_MAX, label))
        out[key] = label
    return out


def joined(lines):
    """Lines of one paragraph as one line: a space between them, except between two Chinese characters.

    >>> joined(["a", "b"]), joined(["中", "文"])
    ('a b', '中文')
    """
    out = ""
    for line in lines:
        gap = "" if not out or (_CJK_GAP.search(out[-1] + " " + line[:1])) else " "
        out += gap + line
    return out


def _fence_end(lines, i):
    """The line that closes the fenced block opened at line ``i`` (``len(lines)`` if none does)."""
    end = i + 1
    while end < len(lines) and not lines[end].startswith("```"):
        end += 1
    return end


def reflow(text):
    """The small Markdown with each paragraph and list item on one line (fenced and indented blocks kept).

    >>> reflow("a\\nb\\n\\n- c\\n  d\\n\\n```\\nx\\ny\\n```")
    'a b\\n\\n- c d\\n\\n```\\nx\\ny\\n```'
    """
    out, lines, i = [], text.strip("\n").split("\n"), 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            end = _fence_end(lines, i)
            out += lines[i:end + 1]
            i = end + 1
        elif line.startswith("- ") or (line.strip() and not line.startswith("    ")):
            item = [line]
            i += 1
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("- ", "```")) and \
                    (not item[0].startswith("- ") or lines[i].startswith("  ")) and not lines[i].startswith("    "):
                item.append(lines[i].strip())
                i += 1
            out.append(joined(item))
        else:
            out.append(line)
            i += 1
    return "\n".join(out)


# -- a small Markdown ----------------------------------------------------------------------------------------
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*")


def _inline(text):
    out, last = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[last:m.start()], quote=False))
        if m.group(1) is not None:
            out.append("<code>%s</code>" % html.escape(m.group(1), quote=False))
        else:
            out.append("<b>%s</b>" % _inline(m.group(2)))
        last = m.end()
    out.append(html.escape(text[last:], quote=False))
    return "".join(out)


def markdown_html(text):
    """HTML of the small Markdown the templates use (every character of the text escaped)."""
    blocks, lines, i = [], text.strip("\n").split("\n"), 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            end = _fence_end(lines, i)
            # a format example's long line wraps at its spaces: on a phone the page must not scroll sideways
            blocks.append('<pre style="white-space:pre-wrap">%s</pre>'
                          % html.escape("\n".join(lines[i + 1:end]), quote=False))
            i = end + 1
        elif line.startswith("- "):
            items = []
            while i < len(lines) and (lines[i].startswith("- ") or (lines[i].startswith("  ") and items)):
                if lines[i].startswith("- "):
                    items.append(lines[i][2:].strip())
                else:
                    items[-1] = joined([items[-1], lines[i].strip()])
                i += 1
            blocks.append("<ul>\n%s\n</ul>" % "\n".join("<li>%s</li>" % _inline(item) for item in items))
        elif line.strip():
            paragraph = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("- ", "```")):
                paragraph.append(lines[i].strip())
                i += 1
            blocks.append("<p>%s</p>" % _inline(joined(paragraph)))
        else:
            i += 1
    return "\n".join(blocks)
