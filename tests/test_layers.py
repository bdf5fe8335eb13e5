"""The package is built in layers, and the import graph says so.

The graph is derived from the source tree of the package (every ``import``
and ``from ... import`` of a ``.py`` file, wherever it stands: at the top,
inside a function, under ``if TYPE_CHECKING``; every ``cimport`` of a
``.pyx``/``.pxd`` file).  It must have no cycle, and no edge may run up the
layers:

    front-ends   grundy (the facade), grundy.__main__, grundy.cli, grundy.play,
                 grundy.plot, grundy.distributed
    games        grundy.games, grundy.impartial
    engine       grundy.engine
    common       grundy._common, grundy._progress, grundy._version
    kernels      grundy._core

An import of ``a.b.c`` also runs the ``__init__`` of the packages ``a`` and
``a.b``: those edges are in the graph too, but for the package ``grundy``
itself, which every import runs: its module-level code may import the
common layer only (checked on its own), while what it imports on demand
(its lazy exports, ``grundy.load``) sits at the top.  The tree is the one in ``src/``
(these tests read sources, not the installed package, whose ``.pyx`` files
are not installed); the test that the two hold the same modules is in
``test_packaging.py``.
"""
import ast
import os
import re

import pytest
from locations import ROOT

PACKAGE = os.path.join(ROOT, "src", "grundy")

# Layer of each module, by its longest matching prefix (higher: further up).
LAYERS = {
    "grundy._core": 0,
    "grundy._common": 1, "grundy._progress": 1, "grundy._version": 1,
    "grundy.engine": 2,
    "grundy.games": 3, "grundy.impartial": 3,
    "grundy": 4, "grundy.__main__": 4, "grundy.cli": 4, "grundy.play": 4, "grundy.plot": 4,
    "grundy.distributed": 4,
}
NAMES = {0: "kernels", 1: "common", 2: "engine", 3: "games", 4: "front-ends"}

_CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+cimport\b|cimport\s+([\w.]+))", re.M)


def module_files():
    """{module name: path} of every module of the package's source tree."""
    out = {}
    for folder, _, files in os.walk(PACKAGE):
        for f in files:
            stem, ext = os.path.splitext(f)
            if ext not in (".py", ".pyx", ".pxd"):
                continue
            rel = os.path.relpath(os.path.join(folder, stem), os.path.dirname(PACKAGE))
            name = rel.replace(os.sep, ".")
            if name.endswith(".__init__"):
                name = name[: -len(".__init__")]
            out.setdefault(name, []).append(os.path.join(folder, f))
    return out


def layer(module):
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def _resolve(name, modules, importer):
    """The modules an import of ``name`` by ``importer`` runs: it and its
    packages (those of the package tree), but for the importer's own
    packages (initialized before it) and the root package unless it is
    ``name`` itself."""
    parts = name.split(".")
    own = {".".join(importer.split(".")[:k]) for k in range(1, importer.count(".") + 2)}
    found = [".".join(parts[:k]) for k in range(2 if len(parts) > 1 else 1, len(parts) + 1)]
    return [m for m in found if m in modules and (m == name or m not in own)]


def imports_of(path, module, modules):
    """The package's modules imported by the file at ``path``, with a line number each."""
    text = open(path, encoding="utf-8").read()
    found = []
    if path.endswith(".py"):
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(text, path)):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:                       # relative: from the package down
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # ``from a import b`` runs a, and b when b is a module; from
                # the importer's own package, modules only need it begun.
                names = [f"{base}.{a.name}" for a in node.names]
                if not (all(n in modules for n in names) and module.startswith(base + ".")):
                    names = [base] + names
            else:
                continue
            for name in names:
                found += [(target, node.lineno) for target in _resolve(name, modules, module)]
    else:
        for m in _CIMPORT.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found += [(target, line)
                      for target in _resolve(m.group(1) or m.group(2), modules, module)]
    return [(t, line) for t, line in found if t != module]


def import_graph():
    modules = module_files()
    graph = {}
    for module, paths in modules.items():
        graph[module] = {}
        for path in paths:
            for target, line in imports_of(path, module, modules):
                graph[module].setdefault(target, f"{os.path.relpath(path, ROOT)}:{line}")
    return graph


GRAPH = import_graph()


def test_the_graph_sees_the_package(tmp_path):
    assert {"grundy", "grundy._core.retrograde", "grundy.engine.graph", "grundy.games.police",
            "grundy.impartial.octal.game", "grundy.cli"} <= set(GRAPH)
    assert "grundy.engine.store" in GRAPH["grundy.engine.graph"]
    # An import inside a function counts (the façade's load imports the store there).
    assert "grundy.engine.store" in GRAPH["grundy"]
    # A module's own package is initialized before it: importing a sibling
    # does not run it again; another package's __init__ runs on the way.
    # ``from grundy.distributed import transport`` there is the module only.
    assert "grundy.distributed" not in GRAPH["grundy.distributed.client"]
    assert "grundy.distributed.transport" in GRAPH["grundy.distributed.client"]
    assert "grundy.engine" in GRAPH["grundy.games.police"]
    # A name defined by a package's __init__ needs all of it: an edge to it.
    modules = module_files()
    text = "from grundy.distributed import solve\nfrom grundy.distributed import transport\n"
    path = tmp_path / "probe.py"
    path.write_text(text)
    got = {t for t, _ in imports_of(str(path), "grundy.distributed.probe", modules)}
    assert got == {"grundy.distributed", "grundy.distributed.transport"}


def test_the_facade_imports_only_the_common_layer_when_imported():
    # Every import of a module of the package runs grundy/__init__.py first.
    tree = ast.parse(open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8").read())
    loaded = []
    for node in tree.body:                       # module level, not in a function
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) or (
                isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test)):
            continue                             # run when called; for type checkers only
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and (sub.module or "").startswith("grundy"):
                loaded.append(sub.module)
            elif isinstance(sub, ast.Import):
                loaded += [a.name for a in sub.names if a.name.startswith("grundy")]
    assert loaded and all(layer(m) == 1 for m in loaded), loaded


def test_every_module_has_a_layer():
    for module in GRAPH:
        assert layer(module) in NAMES, module


def test_nothing_imports_upward():
    upward = [f"{where}: {module} ({NAMES[layer(module)]}) imports {target} "
              f"({NAMES[layer(target)]})"
              for module, targets in GRAPH.items() for target, where in targets.items()
              if layer(target) > layer(module)]
    assert not upward, "\n".join(upward)


def find_cycle(graph):
    """One cycle of ``graph`` ({node: {successor: where}}) as a list of
    nodes, first = last, or None: an iterative depth-first search, where an
    edge back to a node still open closes a cycle."""
    state = {}
    for root in sorted(graph):
        if root in state:
            continue
        state[root] = "open"
        path, stack = [root], [iter(sorted(graph[root]))]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                state[path.pop()] = "done"
                stack.pop()
            elif state.get(child) == "open":
                return path[path.index(child):] + [child]
            elif child not in state:
                state[child] = "open"
                path.append(child)
                stack.append(iter(sorted(graph.get(child, ()))))
    return None


def test_no_import_cycle():
    cycle = find_cycle(GRAPH)
    if cycle is not None:
        steps = [f"{a} -> {b} ({GRAPH[a][b]})" for a, b in zip(cycle, cycle[1:])]
        pytest.fail("import cycle:\n" + "\n".join(steps))


def test_the_kernels_never_import_python_modules():
    for module, targets in GRAPH.items():
        if layer(module) == 0:
            assert all(layer(t) == 0 for t in targets), (module, targets)


@pytest.mark.parametrize("graph, cycle", [
    ({"a": {"b": 1}, "b": {"a": 1}}, ["a", "b", "a"]),
    ({"a": {"b": 1}, "b": {"c": 1}, "c": {"b": 1}}, ["b", "c", "b"]),
    ({"a": {"b": 1, "c": 1}, "b": {"c": 1}, "c": {}}, None),          # a diamond: no cycle
    ({"x": {"x": 1}}, ["x", "x"]),
])
def test_the_cycle_search(graph, cycle):
    assert find_cycle(graph) == cycle
