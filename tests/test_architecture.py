"""docs/architecture.md against the code, both ways, and the public surface the tools around the scorer use.

Every import of scoring_program/ is read (ast), at module level and inside functions. From them the test derives
which layer of the doc's table uses which, and compares that with the table's "uses" column: a use the code has
and the doc does not say fails, and so does one the doc says and the code does not have. Every module of the
program is in exactly one row and every row names modules that exist; no layer imports a layer above it; the
byte-level package imports nothing else of the scorer; the program imports nothing but the standard library,
numpy, pandas and yaml.

organizer/, adapters/, benchmarks/ and starting_kit/ import the scorer through ``scorer.public`` only, and only
names of its ``EXPORTS``; every name there exists and is used by one of them.
"""
import ast
import importlib
import re
import sys
from pathlib import Path

from helpers import PROGRAM, ROOT

SCORER = PROGRAM / "scorer"
DOC = ROOT / "docs" / "architecture.md"
THIRD_PARTY = {"numpy", "pandas", "yaml"}
TOOLS = ("organizer", "adapters", "benchmarks", "starting_kit")   # the folders that use the scorer from outside
PUBLIC = "public"
FILE_TYPES = {"txt", "json", "yaml", "yml", "csv", "tsv", "html", "zip", "md", "py", "npy", "png", "svg"}
PLATFORM_FOLDERS = ("INPUT/", "OUTPUT/", "res/", "ref/")   # folders of a run, not of the project
FENCED = "bytelevel"   # a package that imports nothing of the scorer outside itself


def modules():
    """{dotted name inside scorer/ (``score`` for score.py): path}; a package's __init__ under its own name."""
    found = {"score": PROGRAM / "score.py"}
    for path in sorted(SCORER.rglob("*.py")):
        parts = list(path.relative_to(SCORER).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1] or ["__init__"]
        found[".".join(parts)] = path
    return found


def exports(path=SCORER / "public.py"):
    """``scorer.public.EXPORTS`` read from its source (no import): {public name: module inside scorer/}."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["EXPORTS"]:
            return ast.literal_eval(node.value)
    raise AssertionError("scorer/public.py declares no EXPORTS")


def imports(name, path, known, source=None):
    """(the modules of scorer/ that ``name`` imports, the top-level names of everything else it imports).

    ``scorer.public`` imports its modules on first use (importlib): what it imports is the modules of its
    EXPORTS."""
    if name == PUBLIC and source is None:
        return set(exports(path).values()), {"importlib", "pkgutil"}
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    if name == "__init__":
        package = []
    ours, others = set(), set()

    def add(parts):
        dotted = ".".join(parts)
        while dotted and dotted not in known:   # scorer.tasks.base.Units -> tasks.base
            dotted = dotted.rpartition(".")[0]
        ours.add(dotted or "__init__")

    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
            elif node.module.split(".")[0] == "scorer":
                base = []
                node = ast.ImportFrom(module=".".join(node.module.split(".")[1:]) or None, names=node.names, level=1)
            else:
                others.add(node.module.split(".")[0])
                continue
            module = base + (node.module.split(".") if node.module else [])
            for alias in node.names:   # ``from ..metrics import label_ranking`` imports a module of scorer/
                add(module + [alias.name] if ".".join(module + [alias.name]) in known else module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == "scorer":
                    add(alias.name.split(".")[1:])
                else:
                    others.add(top)
    return ours - {name}, others


def documented_layers(text=None):
    """[(layer name, [module patterns], {layers it uses})] of the doc's table, top first: ``tasks/`` stands for a
    package, a ``-`` in the uses column for none."""
    text = text if text is not None else DOC.read_text(encoding="utf-8")
    table = text[text.index("## Layers"):text.index("## The one path")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| layer")]
    layers = []
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        names = [c[:-3] if c.endswith(".py") else c for c in re.findall(r"`([^`]+)`", cells[1])]
        uses = set() if cells[3] in ("-", "") else {u.strip() for u in cells[3].split(",")}
        layers.append((cells[0], names, uses))
    return layers


def layer_of(module, layers):
    """The rows of the doc's table that hold ``module`` (one, when the table is right)."""
    return [k for k, (_, names, _) in enumerate(layers) for n in names
            if module == n or (n.endswith("/") and (module + ".").startswith(n[:-1] + "."))]


def import_graph(known):
    return {name: imports(name, path, known)[0] - {"__init__"} for name, path in known.items() if name != "__init__"}


def used_layers(layers, graph):
    """{layer name: the other layers its modules import}, derived from the code."""
    placed = {m: layer_of(m, layers)[0] for m in graph}
    found = {name: set() for name, _, _ in layers}
    for module, targets in graph.items():
        for target in targets:
            if placed[target] != placed[module]:
                found[layers[placed[module]][0]].add(layers[placed[target]][0])
    return found


# -- the doc's table against the code -------------------------------------------------------------------------------
def test_every_module_is_in_one_layer_and_every_name_of_the_table_is_a_module():
    known = modules()
    layers = documented_layers()
    assert len(layers) >= 10, layers
    placed = {m: layer_of(m, layers) for m in known if m != "__init__"}
    assert {m: k for m, k in placed.items() if len(k) != 1} == {}, "modules in no layer or in several"
    packages = {m.rsplit(".", 1)[0] + "/" for m in known if "." in m} | {m + "/" for m in known}
    named = [n for _, names, _ in layers for n in names]
    assert [n for n in named if n not in known and n not in packages] == [], "the table names what is not there"
    assert len(named) == len(set(named))


def disagreement(layers, graph):
    """({layer: uses the code has and the doc does not say}, {layer: uses the doc says and the code has not})."""
    derived = used_layers(layers, graph)
    said = {name: uses for name, _, uses in layers}
    return ({name: sorted(derived[name] - said[name]) for name in said if derived[name] - said[name]},
            {name: sorted(said[name] - derived[name]) for name in said if said[name] - derived[name]})


def test_each_layer_uses_exactly_the_layers_the_doc_says():
    layers = documented_layers()
    names = [name for name, _, _ in layers]
    assert set().union(*(uses for _, _, uses in layers)) <= set(names), "a use names no layer of the table"
    missing, extra = disagreement(layers, import_graph(modules()))
    assert missing == {}, "uses the code has and docs/architecture.md does not say"
    assert extra == {}, "uses docs/architecture.md says and the code does not have"


def test_no_layer_imports_a_layer_above_it():
    known = modules()
    layers = documented_layers()
    placed = {m: layer_of(m, layers)[0] for m in known if m != "__init__"}
    upward = ["%s (%s) imports %s (%s)" % (name, layers[placed[name]][0], target, layers[placed[target]][0])
              for name, targets in import_graph(known).items() for target in targets
              if placed[target] < placed[name]]
    assert upward == [], upward


def test_no_modules_import_each_other_in_a_circle():
    graph = import_graph(modules())
    state, cycles = {}, []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_byte_level_package_imports_nothing_else_of_the_scorer():
    known = modules()
    outside = {name: sorted(t for t in targets if t != FENCED and not t.startswith(FENCED + "."))
               for name, targets in import_graph(known).items() if name == FENCED or name.startswith(FENCED + ".")}
    assert len(outside) >= 6 and {n: t for n, t in outside.items() if t} == {}


def test_the_program_imports_only_the_standard_library_numpy_pandas_and_yaml():
    known = modules()
    stdlib = set(sys.stdlib_module_names) if hasattr(sys, "stdlib_module_names") else None
    outside = set()
    for name, path in known.items():
        _, others = imports(name, path, known)
        outside |= {m for m in others if m not in THIRD_PARTY and (stdlib is None or m not in stdlib)}
    if stdlib is None:   # Python 3.9: no list of the standard library's modules; the known third parties only
        outside = {m for m in outside if m in {"sklearn", "seqeval", "scipy", "ranx", "nervaluate", "pytest"}}
    assert outside == set()


# -- the public surface -------------------------------------------------------------------------------------------
def tool_imports(path, source=None):
    """[(line, what)] of every import of the scorer in a tool's file: ``what`` is a public name, or the module
    imported when it is not ``scorer.public``."""
    found = []
    for node in ast.walk(ast.parse(source if source is not None else path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "scorer":
            if node.module == "scorer.public":
                found += [(node.lineno, alias.name) for alias in node.names]
            else:
                found += [(node.lineno, "%s.%s" % (node.module, alias.name)) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.split(".")[0] == "scorer"]
    return found


def tools_files():
    return [p for folder in TOOLS for p in sorted((ROOT / folder).rglob("*.py"))]


def test_every_folder_of_python_is_the_program_the_tests_or_a_tool():
    """A new folder of Python beside these is a tool too: it joins TOOLS, and uses the scorer through
    scorer.public."""
    ignored = {line.strip().strip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()}
    folders = {d.name for d in ROOT.iterdir() if d.is_dir() and not d.name.startswith(".") and d.name not in ignored
               and next(d.rglob("*.py"), None) is not None}
    assert folders - {PROGRAM.name, "tests"} == set(TOOLS)


def refused(found, allowed):
    """What of ``found`` (tool_imports) is no public name: an import of another module of the scorer, or a name
    that scorer.public does not export."""
    return [(line, what) for line, what in found if what != "scorer.public" and what not in allowed]


def test_the_tools_import_the_scorer_through_its_public_surface_only():
    allowed = set(exports()) | {"every_message"}
    wrong = {str(p.relative_to(ROOT)): refused(tool_imports(p), allowed) for p in tools_files()}
    assert {p: w for p, w in wrong.items() if w} == {}


def test_every_public_name_exists_and_a_tool_uses_it():
    import scorer.public as public

    declared = set(exports())
    assert declared == set(public.EXPORTS)
    for name in sorted(declared) + ["every_message"]:
        assert getattr(public, name) is not None, name
    used = {what for p in tools_files() for _, what in tool_imports(p)}
    assert sorted(declared - used) == [], "public names no tool imports: the surface is wider than its use"


def test_the_checks_see_what_they_look_for(tmp_path):
    """Each check above fails on its fault: an upward import, a use the doc does not say, a use it says that is
    not there, a byte-level module importing the scorer, a tool importing a module of the scorer."""
    known = modules()
    layers = documented_layers()
    graph = import_graph(known)
    prf = SCORER / "metrics" / "prf.py"
    probe = prf.read_text(encoding="utf-8") + "\nfrom .. import report\nfrom ..tasks.base import Units\n"
    got = imports("metrics.prf", prf, known, source=probe)[0]
    assert {"report", "tasks.base"} <= got
    assert layer_of("report", layers)[0] < layer_of("metrics.prf", layers)[0]
    assert layer_of("tasks.base", layers)[0] < layer_of("metrics.prf", layers)[0]

    kernels = layers[layer_of("metrics.prf", layers)[0]][0]
    page = layers[layer_of("report", layers)[0]][0]
    assert disagreement(layers, dict(graph, **{"metrics.prf": got}))[0][kernels] == sorted([page, "task families"])
    said_more = [(name, names, uses | {page} if name == kernels else uses) for name, names, uses in layers]
    assert disagreement(said_more, graph)[1] == {kernels: [page]}

    cells = SCORER / "bytelevel" / "cells.py"
    fenced = imports("bytelevel.cells", cells, known, source=cells.read_text(encoding="utf-8")
                     + "\nfrom ..quoting import clip\n")[0]
    assert "quoting" in fenced

    allowed = set(exports())
    source = "from scorer.public import Competition\nfrom scorer.tasks._ecac_io import read_json\nimport scorer.api\n"
    assert refused(tool_imports(None, source), allowed) == [(2, "scorer.tasks._ecac_io.read_json"), (3, "scorer.api")]
    assert refused(tool_imports(None, "from scorer.public import Undeclared\n"), allowed) == [(1, "Undeclared")]


def test_a_public_name_is_imported_on_first_use_only():
    """A tool pays for what it uses: importing scorer.public imports no module of the scorer yet."""
    import subprocess
    probe = ("import sys; sys.path.insert(0, %r); import scorer.public as p; "
             "print(sorted(m for m in sys.modules if m.startswith('scorer'))); p.aware_time; "
             "print(sorted(m for m in sys.modules if m.startswith('scorer.tasks')))" % str(PROGRAM))
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "['scorer', 'scorer.public']"
    assert out[1] == "[]"   # the config's time reader brings no family
    assert importlib.import_module("scorer.public").Competition.__module__ == "scorer.api"


# -- the doc's names ------------------------------------------------------------------------------------------------
def stale_names(text, known, paths=True):
    """The backticked names of ``text`` that name nothing: a file or folder (``runner.py``, ``publish/``) found
    under neither scorer/ nor the project, or ``module.name`` (a module of scorer/ by its dotted name or, when that
    is unique, its last part) without that attribute. Names with ``<``, spaces or calls are prose, not names.
    ``paths=False``: module names only (a page about a competition names the files of its folders too)."""
    by_last = {}
    for name in known:
        by_last.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    files = [str(p.relative_to(ROOT)) for folder in (PROGRAM, ROOT / "starting_kit") for p in folder.rglob("*")]
    stale = []
    path = text[text.index("## The one path"):].split("\n## ")[0] if "## The one path" in text else text
    code = [line for line in path.splitlines() if line.startswith("    ")]   # the one path's block of calls
    named = set(re.findall(r"`([^`]+)`", text)) | set(re.findall(r"(?<![\w.])[a-z_]\w*(?:\.\w+)+", "\n".join(code)))
    for token in sorted(named):
        if token.startswith(PLATFORM_FOLDERS):
            continue
        if re.fullmatch(r"[\w/.]+(\.py|\.md|/)", token):
            if not paths:
                continue
            bare = token.rstrip("/")
            if not ((ROOT / bare).exists() or any(f == bare or f.endswith("/" + bare) for f in files)):
                stale.append(token)
        elif re.fullmatch(r"[a-z_]\w*(\.\w+)+", token) and token.rpartition(".")[2] not in FILE_TYPES:
            full = token.startswith("scorer.")   # a full name: its module by its dotted name only
            parts = token.split(".")[1:] if full else token.split(".")
            for cut in range(len(parts), 0, -1):
                head = ".".join(parts[:cut])
                module = head if head in known else None
                if module is None and not full and len(by_last.get(head, [])) == 1:
                    module = by_last[head][0]
                if module is not None:
                    found = importlib.import_module("scorer" if module == "__init__" else "scorer." + module)
                    for attr in parts[cut:]:
                        found = getattr(found, attr, None)
                    if found is None:
                        stale.append(token)
                    break
            else:
                if full:
                    stale.append(token)
    return stale


def test_every_file_module_and_name_the_doc_gives_is_there():
    import scorer  # noqa: F401  (the modules are imported as the program imports them)

    known = {m: p for m, p in modules().items() if m != "score"}
    text = DOC.read_text(encoding="utf-8")
    assert stale_names(text, known) == []
    # the check is not blind: names of the layout before scorer/publish/ and scorer/platform/ are stale
    assert stale_names("`published.py`, `published.OVERLAP_UNITS`, `runner.no_such_function`, `cli.main`", known) \
        == ["published.py", "runner.no_such_function"]
    assert stale_names("## The one path\n    platform.cli.main -> publish.ladder\n    runner.nothing(cfg.language)\n", known) \
        == ["runner.nothing"]
    readme = (SCORER / "bytelevel" / "README.md").read_text(encoding="utf-8")
    assert stale_names(readme, known) == []


def test_every_page_of_the_docs_names_modules_that_are_there():
    """A module moved or a function renamed leaves no page naming it by its old name (``scorer.cli.run_once``)."""
    import scorer  # noqa: F401

    known = {m: p for m, p in modules().items() if m != "score"}
    pages = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    stale = {page.name: stale_names(page.read_text(encoding="utf-8"), known, paths=False) for page in pages}
    assert {page: names for page, names in stale.items() if names} == {}
    assert stale_names("`scorer.cli.run_once` and `scorer.platform.cli.run_once`", known, paths=False) == \
        ["scorer.cli.run_once"]
