"""docs/architecture.md's table of layers against the code: every import of scoring_program/ is read (ast) and
must go to a module of the same layer or of a layer below; every module is in exactly one row; the program
imports nothing but the standard library, numpy, pandas and yaml."""
import ast
import re
import sys

from helpers import PROGRAM, ROOT

SCORER = PROGRAM / "scorer"
DOC = ROOT / "docs" / "architecture.md"
THIRD_PARTY = {"numpy", "pandas", "yaml"}


def modules():
    """{dotted name inside scorer/ (``score`` for score.py): path}; a package's __init__ under its own name."""
    found = {"score": PROGRAM / "score.py"}
    for path in sorted(SCORER.rglob("*.py")):
        parts = list(path.relative_to(SCORER).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1] or ["__init__"]
        found[".".join(parts)] = path
    return found


def imports(name, path, known):
    """(the modules of scorer/ that ``name`` imports, the top-level names of everything else it imports)."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    if name == "__init__":
        package = []
    ours, others = set(), set()

    def add(parts):
        dotted = ".".join(parts)
        while dotted and dotted not in known:   # scorer.tasks.base.Units -> tasks.base
            dotted = dotted.rpartition(".")[0]
        ours.add(dotted or "__init__")

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def documented_layers():
    """[(layer name, [module patterns])] of the doc's table, top first: ``tasks/`` stands for a package."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## Layers"):text.index("## The one path")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| layer")]
    return [(cells[0], [c[:-3] if c.endswith(".py") else c for c in re.findall(r"`([^`]+)`", cells[1])])
            for cells in ([c.strip() for c in row.strip("|").split("|")] for row in rows)]


def layer_of(module, layers):
    found = [k for k, (_, names) in enumerate(layers) for n in names
             if module == n or (n.endswith("/") and (module + ".").startswith(n[:-1] + "."))]
    return found


def test_every_module_is_in_one_layer_and_imports_only_its_own_layer_or_those_below():
    known = modules()
    layers = documented_layers()
    assert len(layers) >= 10, layers
    placed = {m: layer_of(m, layers) for m in known if m != "__init__"}
    assert {m: k for m, k in placed.items() if len(k) != 1} == {}, "modules in no layer or in several"
    upward = []
    for name, path in known.items():
        if name == "__init__":
            continue
        ours, _ = imports(name, path, known)
        for target in ours - {"__init__"}:
            if placed[target][0] < placed[name][0]:
                upward.append("%s (%s) imports %s (%s)" % (name, layers[placed[name][0]][0], target,
                                                             layers[placed[target][0]][0]))
    assert upward == [], upward


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


def test_the_checker_sees_an_upward_import(tmp_path):
    """A metric kernel that imported the page would be reported (the reading above is not blind)."""
    known = modules()
    layers = documented_layers()
    source = (SCORER / "metrics" / "prf.py").read_text(encoding="utf-8")
    assert "report" not in imports("metrics.prf", SCORER / "metrics" / "prf.py", known)[0]
    probe = tmp_path / "prf.py"
    probe.write_text(source + "\nfrom .. import report\nfrom ..tasks.base import Units\n", encoding="utf-8")
    got = imports("metrics.prf", probe, known)[0]
    assert {"report", "tasks.base"} <= got
    assert layer_of("report", layers)[0] < layer_of("metrics.prf", layers)[0]
    assert layer_of("tasks.base", layers)[0] < layer_of("metrics.prf", layers)[0]
