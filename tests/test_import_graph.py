"""Issue 13, "the shape of the code": no import cycles among the modules of bot/ and cogs/.

A cycle works only as long as each module happens to be imported in the right order (a
partly initialised module is handed to the other side), so a newcomer's harmless-looking
import can break start-up. The graph is read statically with ``ast``: every import a module
runs when it is imported (module level, also inside ``if``/``try``/class bodies), but not
the ones under ``if TYPE_CHECKING:`` (never run) or inside functions (run on call, after
every module finished loading).

Those two are how the issue's cycles (``bot/app.py`` <-> ``cogs/league.py``,
``guts/game.py`` <-> ``guts/setup.py``, the flop hand and its snapshot) were kept from
failing at run time, so a second test counts them too: a module that needs another only
for its types, or only later, still depends on it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")


def module_files() -> dict[str, Path]:
    """Every module of bot/ and cogs/ by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(
    body: list[ast.stmt], *, type_checking: bool, functions: bool
) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements executed when the module is imported; also those under
    ``if TYPE_CHECKING:`` with ``type_checking``, and inside functions with ``functions``."""
    flags = {"type_checking": type_checking, "functions": functions}
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if type_checking or not _is_type_checking(node.test):
                yield from _import_nodes(node.body, **flags)
            yield from _import_nodes(node.orelse, **flags)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _import_nodes(block, **flags)
            for handler in node.handlers:
                yield from _import_nodes(handler.body, **flags)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _import_nodes(node.body, **flags)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and functions:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def imports_of(
    name: str, path: Path, known: set[str], *, type_checking: bool = False, functions: bool = False
) -> set[str]:
    """The project modules ``name`` imports at import time (``from pkg import sub`` counts
    as importing the submodule ``pkg.sub`` when there is one, else ``pkg``); optionally also
    for its types and inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _import_nodes(tree.body, type_checking=type_checking, functions=functions):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = name.split(".")
            if not is_package:
                anchor = anchor[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            targets.add(sub if sub in known else base)
    return {t for t in targets if t in known and t != name}


#: Modules whose imports inside functions the second test leaves out, each with its reason.
FUNCTION_IMPORTS_ALLOWED = {
    # adapters() imports the four family adapters (guts.py, ...) inside the function, which
    # make_family/load_family ask by the game's family in bot/games.py, because the adapters
    # build on games.py; moving the table to a module above them would remove this entry.
    "bot.tables.games",
}


def import_graph(*, deferred: bool = False) -> dict[str, set[str]]:
    """The graph at import time; with ``deferred`` also counting ``TYPE_CHECKING`` imports
    and imports inside functions (but see :data:`FUNCTION_IMPORTS_ALLOWED`)."""
    files = module_files()
    known = set(files)
    return {
        name: imports_of(
            name,
            path,
            known,
            type_checking=deferred,
            functions=deferred and name not in FUNCTION_IMPORTS_ALLOWED,
        )
        for name, path in files.items()
    }


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm):
    each is a set of modules that all import one another, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a closed path ``a -> b -> a``) per strongly connected component."""
    return [_cycle_in(graph, component) for component in strongly_connected(graph)]


def describe_cycles(graph: dict[str, set[str]]) -> str:
    return "\n".join(
        f"{' -> '.join(_cycle_in(graph, c))}  (all of: {', '.join(sorted(c))})"
        for c in strongly_connected(graph)
    )


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest closed path through the component's first module (breadth-first)."""
    start = min(component)
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(graph[node] & component):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if nxt not in parents:
                    parents[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {start} in {sorted(component)}")


def test_no_import_cycles_in_bot_and_cogs() -> None:
    graph = import_graph()
    assert not find_cycles(graph), "import cycles:\n" + describe_cycles(graph)


def test_no_import_cycles_counting_type_checking_and_function_imports() -> None:
    graph = import_graph(deferred=True)
    assert not find_cycles(graph), (
        "import cycles (counting TYPE_CHECKING and function-level imports):\n"
        + describe_cycles(graph)
    )


def test_cycle_finder_names_cycles_and_tells_import_time_from_deferred_imports(
    tmp_path: Path,
) -> None:
    """The checker itself: a cycle run at import time is named by both tests; one closed
    only by imports under ``TYPE_CHECKING`` or inside a function is named by the second."""
    package = tmp_path / "pkg"
    package.mkdir()
    sources = {
        "__init__": "",
        "a": "from pkg import b\n",
        "b": "from . import c\n",
        "c": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    import pkg.a\n"
            "def later():\n    from pkg import d\n"
        ),
        "d": "import pkg.c\n",
        "e": "import pkg.f\n",
        "f": "from pkg.e import name\n",
    }
    for stem, text in sources.items():
        (package / f"{stem}.py").write_text(text)
    files = {("pkg" if s == "__init__" else f"pkg.{s}"): package / f"{s}.py" for s in sources}

    def graph(*, deferred: bool) -> dict[str, set[str]]:
        return {
            n: imports_of(n, p, set(files), type_checking=deferred, functions=deferred)
            for n, p in files.items()
        }

    at_import = graph(deferred=False)
    assert at_import["pkg.b"] == {"pkg.c"}
    assert at_import["pkg.c"] == set()
    assert find_cycles(at_import) == [["pkg.e", "pkg.f", "pkg.e"]]
    everything = graph(deferred=True)
    assert everything["pkg.c"] == {"pkg.a", "pkg.d"}
    c_path, known = files["pkg.c"], set(files)
    assert imports_of("pkg.c", c_path, known, type_checking=True) == {"pkg.a"}
    assert imports_of("pkg.c", c_path, known, functions=True) == {"pkg.d"}
    assert sorted(find_cycles(everything)) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
        ["pkg.e", "pkg.f", "pkg.e"],
    ]
