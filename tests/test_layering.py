"""The house's layering, read from the source: no import cycles, no forbidden edges, a true map.

The import graph of ``manasolver.models``, ``manasolver.solver`` and ``manasolver.benchmarks``
is built with :mod:`ast` from the source files, without importing them: every ``import``,
``from … import`` and ``importlib.import_module("…")`` of a literal name anywhere in a module
(at module level, inside functions, under ``TYPE_CHECKING``) is an edge to the most specific module it names
(``from a.b import c`` is an
edge to ``a.b.c`` when that is a module, else to ``a.b``).  Only edges between our own modules
count.  The tests check

* that the graph has no cycle (each strongly connected component is printed as a cycle);
* the dependency rules of docs/architecture.md (models never imports solver or benchmarks; solver never
  imports benchmarks but for the command line's lazy ``bench``; only the front ends import the
  protocol; a backend never imports another backend; ``validate`` imports only models, graph,
  request and payment; within models, ``text`` never imports ``rules``, ``board``, ``carddb`` or
  ``card_build``, and the value modules import none of ``text``, ``rules``, ``board``; within the
  engine, the one-way layers {casting, queries} -> {supply, backends, reasons} -> {request, payment,
  answers, graph, casting/announce.py} -> models);
* that the optimiser libraries (ortools, networkx, python-constraint) are imported only inside the
  functions that use them, and that the engine alone, imported and asked a ``can_pay`` its flow
  path answers, loads none of them nor the service;
* that the architecture map (``docs/architecture.md``) names every module file,
  and that every path it names exists.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from paths import REPO

#: Import prefix -> source folder, as pyproject.toml's package-dir maps them.
ROOMS = {"manasolver.models": "models", "manasolver.solver": "solver", "manasolver.benchmarks": "benchmarks"}


@dataclass(frozen=True, slots=True)
class Edge:
    """One import statement: ``importer`` imports ``imported`` at ``line``; ``lazy`` when the
    statement is inside a function (it runs on call, not on import)."""

    importer: str
    imported: str
    line: int
    lazy: bool


def _module_files() -> dict[str, Path]:
    """Every module of the three packages: dotted name -> source file."""
    out: dict[str, Path] = {}
    for prefix, folder in ROOMS.items():
        root = REPO / folder
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([prefix, *parts])] = path
    return out


MODULES = _module_files()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _absolute(importer: str, module: str | None, level: int) -> str:
    """The absolute module a (possibly relative) ``from`` import names."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not _is_package(importer):
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _target(name: str) -> str | None:
    """Our most specific module that ``name`` is or lies in, or ``None`` when it is not ours."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return None


class _Imports(ast.NodeVisitor):
    def __init__(self, importer: str) -> None:
        self.importer = importer
        self.depth = 0
        self.edges: list[Edge] = []

    def _add(self, name: str, line: int) -> None:
        target = _target(name)
        if target is not None and target != self.importer:
            self.edges.append(Edge(self.importer, target, line, self.depth > 0))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        """``importlib.import_module("manasolver.…")`` with a literal name is an import too."""
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                self._add(arg.value, node.lineno)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.importer, node.module, node.level)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            self._add(sub if sub in MODULES else base, node.lineno)


#: Every module's syntax tree, parsed once for all the checks.
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), filename=str(path)) for name, path in MODULES.items()}


def _edges() -> list[Edge]:
    out: list[Edge] = []
    for name in MODULES:
        visitor = _Imports(name)
        visitor.visit(TREES[name])
        out += visitor.edges
    return out


EDGES = _edges()


def _in(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _where(edge: Edge) -> str:
    path = MODULES[edge.importer].relative_to(REPO)
    return f"{path}:{edge.line}: {edge.importer} imports {edge.imported}{' (in a function)' if edge.lazy else ''}"


def _components(graph: dict[str, set[str]]) -> Iterator[list[str]]:
    """Tarjan's strongly connected components of more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        yield sorted(component)


def _cycle_in(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """One cycle through the first module of a strongly connected component (breadth first)."""
    members = set(component)
    start = component[0]
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child not in came:
                    came[child] = node
                    nxt.append(child)
        frontier = nxt
    return component


def test_no_import_cycles() -> None:
    """No cycle between our modules, counting imports inside functions too (docs/architecture.md)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    lines: dict[tuple[str, str], Edge] = {}
    for edge in EDGES:
        graph[edge.importer].add(edge.imported)
        lines.setdefault((edge.importer, edge.imported), edge)
    cycles = []
    for component in _components(graph):
        cycle = _cycle_in(component, graph)
        steps = "\n".join(f"    {_where(lines[(a, b)])}" for a, b in zip(cycle, cycle[1:]))
        cycles.append(f"  {' -> '.join(cycle)}  ({len(component)} modules in the component)\n{steps}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


# -- the dependency rules of docs/architecture.md --------------------------------------------------

BACKENDS = tuple(f"manasolver.solver.backends.{b}" for b in ("flow", "fastopt", "cpsat", "csp"))
#: The backends' shared modules, which may import any backend (the registry does).
BACKENDS_SHARED = ("manasolver.solver.backends", "manasolver.solver.backends.matching",
                   "manasolver.solver.backends.problem")
#: The service around the engine (docs/architecture.md: protocol, decode, api, schema, sessions, boards, serve,
#: cli, render, demo, playground, parallel); only it imports the protocol.  ``manasolver.solver``
#: itself is the public API, which re-exports the protocol's ``answer`` and the typed ``api``.
SERVICE = "manasolver.solver.service"
#: The backends' registry and chains: the one way to a backend from outside ``backends/``.
REGISTRY = "manasolver.solver.backends"
PUBLIC_API = "manasolver.solver"
#: Castability is an application of the engine: it asks through the public API and the request types.
CASTABILITY = "manasolver.solver.castability"
#: (``supply.plain`` is a fact of a card the engine states for its callers: whether a permanent of it adds
#: mana by its own fields alone.)
CASTABILITY_MAY_IMPORT = ("manasolver.models", "manasolver.solver.request", "manasolver.solver.queries",
                          "manasolver.solver.casting.build", "manasolver.solver.supply.plain", CASTABILITY,
                          "manasolver.solver.service.api", "manasolver.solver.service.parallel")
VALIDATE_MAY_IMPORT = ("manasolver.models", "manasolver.solver.graph", "manasolver.solver.request",
                       "manasolver.solver.payment", "manasolver.solver.validate")
VALUES = tuple(f"manasolver.models.{m}" for m in
               ("symbols", "cost", "abilities", "card", "state", "tokens", "errors", "_memo"))
MODELS_TEXT = "manasolver.models.text"
MODELS_ABOVE_TEXT = ("manasolver.models.rules", "manasolver.models.board", "manasolver.models.carddb",
                     "manasolver.models.card_build")


#: The engine's one-way layers, lowest first: a module of a layer imports only from its own layer
#: and those below it (models below them all).  Modules of the engine outside these sets (policy,
#: budget, pools, plan, validate, ...) are checked by the other rules.
ENGINE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("manasolver.models",),
    tuple(f"manasolver.solver.{m}" for m in ("request", "payment", "answers", "graph", "casting.announce")),
    tuple(f"manasolver.solver.{m}" for m in ("supply", "backends", "reasons")),
    tuple(f"manasolver.solver.{m}" for m in ("casting", "queries")),
)


def _layer(name: str) -> int | None:
    """The index of ``name``'s layer in :data:`ENGINE_LAYERS` (the first that holds it), or ``None``."""
    return next((i for i, layer in enumerate(ENGINE_LAYERS) if _in(name, *layer)), None)


def _backend_of(name: str) -> str | None:
    return next((b for b in BACKENDS if _in(name, b)), None)


def _rule_breaks(edge: Edge) -> str | None:
    """Which rule of docs/architecture.md an import breaks, or ``None``."""
    src, dst = edge.importer, edge.imported
    if _in(src, "manasolver.models") and _in(dst, "manasolver.solver", "manasolver.benchmarks"):
        return "models never imports solver or benchmarks"
    if _in(src, "manasolver.solver") and _in(dst, "manasolver.benchmarks"):
        if not (src == "manasolver.solver.service.cli" and dst == "manasolver.benchmarks.runner" and edge.lazy):
            return "solver never imports benchmarks (but for solver/service/cli.py's lazy bench import)"
    engine = _in(src, "manasolver.solver") and src != PUBLIC_API and not _in(src, SERVICE, CASTABILITY)
    if engine and _in(dst, SERVICE):
        return "the engine never imports the service (solver/service/)"
    if dst == "manasolver.solver.service.protocol" and not (
            _in(src, SERVICE) or src == PUBLIC_API or _in(src, "manasolver.benchmarks")):
        return "nothing imports the protocol but the service and benchmarks"
    if _in(src, CASTABILITY) and dst not in (PUBLIC_API, REGISTRY) and not _in(dst, *CASTABILITY_MAY_IMPORT):
        return "castability imports only models, the public API (answer, api, queries over a request), the registry"\
            ", plain cards and parallel"
    mine, theirs = _backend_of(src), _backend_of(dst)
    if mine is not None and theirs is not None and mine != theirs and src not in BACKENDS_SHARED:
        return "a backend never imports another backend (they share backends/matching.py and problem.py)"
    if theirs is not None and not _in(src, "manasolver.solver.backends") and not _in(src, "manasolver.benchmarks"):
        return "nothing outside backends/ imports a backend's modules but through the registry (backends/__init__)"
    if _in(src, "manasolver.solver.backends") and _in(dst, "manasolver.solver.pools"):
        return "backends never import pools"
    if _in(src, "manasolver.solver.validate") and not _in(dst, *VALIDATE_MAY_IMPORT):
        return "solver/validate imports only models, solver.graph, solver.request and solver.payment"
    low, high = _layer(src), _layer(dst)
    if low is not None and high is not None and high > low:
        return "the engine's layers point one way: {casting, queries} -> {supply, backends, reasons} -> " \
            "{request, payment, answers, graph, casting.announce} -> models"
    if _in(src, MODELS_TEXT) and _in(dst, *MODELS_ABOVE_TEXT):
        return "models/text never imports models/rules, models/board, models/carddb or models/card_build"
    if _in(src, *VALUES) and _in(dst, MODELS_TEXT, "manasolver.models.rules", "manasolver.models.board"):
        return "the value modules of models never import models/text, models/rules or models/board"
    return None


def test_dependencies_point_the_way_design_md_says() -> None:
    """docs/architecture.md: protocol -> {casting, queries} -> {supply, backends, reasons} -> {request,
    payment, graph} -> models; within models, rules -> text -> values."""
    broken: dict[str, list[str]] = {}
    for edge in EDGES:
        rule = _rule_breaks(edge)
        if rule is not None:
            broken.setdefault(rule, []).append(_where(edge))
    report = "\n".join(f"{rule}:\n" + "\n".join(f"    {w}" for w in where) for rule, where in broken.items())
    assert not broken, "forbidden imports:\n" + report


def test_the_rules_see_imports_everywhere() -> None:
    """The graph holds function-level imports (the command line's lazy bench import) and the
    rules catch a forbidden edge: the checks above are not vacuous."""
    cli = "manasolver.solver.service.cli"
    lazy = [e for e in EDGES if e.importer == cli and _in(e.imported, "manasolver.benchmarks")]
    assert lazy and all(e.lazy for e in lazy), lazy
    assert _rule_breaks(Edge("manasolver.models.cost", "manasolver.solver.queries", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.backends.flow", "manasolver.solver.backends.cpsat", 1, False))
    assert _rule_breaks(Edge("manasolver.solver.queries", "manasolver.solver.service.protocol", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.service.cli", "manasolver.benchmarks.runner", 1, False))
    assert _rule_breaks(Edge("manasolver.solver.backends", "manasolver.solver.backends.flow", 1, False)) is None
    assert _rule_breaks(Edge("manasolver.solver.supply.build", "manasolver.solver.service.boards", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.queries", "manasolver.solver.backends.cpsat", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.backends.flow", "manasolver.solver.pools", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.castability.run", "manasolver.solver.supply", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.service.cli", "manasolver.solver.service.protocol", 1, True)) is None
    assert _rule_breaks(Edge("manasolver.solver.supply.build", "manasolver.solver.queries", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.graph", "manasolver.solver.supply.model", 1, False))
    assert _rule_breaks(Edge("manasolver.solver.casting.announce", "manasolver.solver.casting.build", 1, True))
    assert _rule_breaks(Edge("manasolver.solver.queries", "manasolver.solver.supply.build", 1, False)) is None
    layered = [e for e in EDGES if _layer(e.importer) is not None and _layer(e.imported) is not None
               and _layer(e.importer) != _layer(e.imported)]
    assert len(layered) > 20, layered


# -- the optimiser libraries are imported lazily -------------------------------------------------

#: Libraries slow to import (ortools with numpy and pandas, about 0.3 s): loaded by the backends and
#: the detailed answers that need them, inside the functions that use them.
HEAVY = ("ortools", "networkx", "constraint")


def _eager_imports(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """The modules a source imports when it is itself imported: statements at module level and
    inside module-level ``try``/``with``/``if`` blocks (but ``if TYPE_CHECKING``), not in functions."""
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                todo.extend(node.body + node.orelse)
        elif isinstance(node, (ast.Try, ast.With)):
            todo.extend(node.body)
            if isinstance(node, ast.Try):
                todo.extend([*node.orelse, *node.finalbody, *(s for h in node.handlers for s in h.body)])
        elif isinstance(node, ast.ClassDef):
            todo.extend(node.body)


def test_optimiser_libraries_are_imported_only_where_used() -> None:
    """No module of models/, solver/ or benchmarks/ imports ortools, networkx or python-constraint
    when it is imported: a light query never pays for them."""
    eager = [f"{path.relative_to(REPO)}:{line}: {module}" for name, path in MODULES.items()
             for module, line in _eager_imports(TREES[name]) if module.split(".")[0] in HEAVY]
    assert not eager, "optimiser libraries imported at module level:\n" + "\n".join(eager)
    sample = ast.parse("import ortools\ntry:\n    from networkx import DiGraph\nexcept ImportError:\n    pass\n"
                       "if TYPE_CHECKING:\n    import constraint\ndef f():\n    import ortools.sat\n")
    assert sorted(_eager_imports(sample)) == [("networkx", 3), ("ortools", 1)]


_ENGINE_ALONE = """
import json, sys
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.queries import can_pay
from manasolver.solver.request import PaymentRequest

with open(sys.argv[1], encoding="utf-8") as fh:
    state = load_state(json.load(fh))
player = state.players[0].name
answers = [can_pay(PaymentRequest(state, ManaCost.parse(cost), player)).payable for cost in ("{2}{W}", "{G}{G}")]
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2:]))
service = sorted(m for m in sys.modules if m.startswith("manasolver.solver.service"))
print(json.dumps({"answers": answers, "loaded": loaded, "service": service}))
"""


def test_the_engine_alone_answers_a_flow_query_without_optimisers_or_service(tmp_path: Path) -> None:
    """Imported without the service and asked ``can_pay`` on the Commander example board (the
    flow backend's path), the engine loads neither an optimiser library nor any module of
    ``solver/service/``: the engine never imports the service, and ortools stays lazy."""
    import json
    import subprocess
    import sys
    board = REPO / "solver" / "service" / "examples" / "commander.json"
    proc = subprocess.run([sys.executable, "-c", _ENGINE_ALONE, str(board), *HEAVY], capture_output=True,
                          text=True, timeout=120, check=False, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["answers"] == [True, True], out
    assert out["loaded"] == [], f"optimiser libraries loaded by the engine's flow path: {out['loaded']}"
    assert out["service"] == [], f"service modules loaded by the engine alone: {out['service']}"


# -- the architecture map ----------------------------------------------------------------

_PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.py|(?:[\w-]+/)+)(?![\w/.-])")


def _architecture() -> str:
    return (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def _module_paths() -> list[str]:
    """Every module file of the three packages, as a path from the repository root."""
    return [str(p.relative_to(REPO)) for p in MODULES.values()]


def _resolve(token: str, files: list[str]) -> list[str]:
    """The repository paths a path of the map may mean: itself from the repository root, or a
    module file or folder of the packages whose path ends with it (``backends/fastopt/``)."""
    if (REPO / token).exists():
        return [token]
    folders = sorted({str(Path(f).parent) + "/" for f in files})
    pool = files + folders
    return [p for p in pool if p == token or p.endswith("/" + token)]


def _map_names() -> tuple[set[str], list[str], list[str]]:
    """(module files and folders the map names, paths naming nothing, paths naming several)."""
    files = _module_paths()
    named: set[str] = set()
    missing: list[str] = []
    ambiguous: list[str] = []
    for token in sorted(set(_PATH.findall(_architecture()))):
        hits = _resolve(token, files)
        if not hits:
            missing.append(token)
        elif len(hits) > 1:
            ambiguous.append(f"{token} (could be {', '.join(hits)})")
        else:
            named.add(hits[0])
    return named, missing, ambiguous


def test_every_path_of_the_architecture_map_exists() -> None:
    """Each file or folder the architecture map names is in the repository (one place only)."""
    _, missing, ambiguous = _map_names()
    assert not missing and not ambiguous, (f"the map names paths that do not exist: {missing}; "
                                           f"paths that name several places: {ambiguous}")


def test_the_architecture_map_names_every_module() -> None:
    """Every module file of models/, solver/ and benchmarks/ is named in the architecture map by its own
    path (a folder names no file: the map is the tree)."""
    named, _, _ = _map_names()
    unnamed = [p for p in _module_paths() if p not in named]
    assert not unnamed, f"{len(unnamed)} module files the architecture map does not name:\n  " + \
        "\n  ".join(unnamed)


@pytest.mark.parametrize(("token", "named"), [("solver/queries.py", "solver/queries.py"),
                                              ("backends/fastopt/", "solver/backends/fastopt/")])
def test_map_paths_are_read_the_way_they_are_written(token: str, named: str) -> None:
    """The map's paths may start below the room (``backends/fastopt/``)."""
    if not (REPO / named).exists():
        pytest.skip(f"{named} is not in the tree")
    assert _resolve(token, _module_paths()) == [named]
