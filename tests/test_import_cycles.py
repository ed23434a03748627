"""The project's modules import each other without circles, and none is over 500 lines (issue 23).

The import graph is read with ``ast``, as ``tests/test_layers.py`` reads it. Every import
statement is an edge, at module level or inside a function (a function-local import that dodges
a circle at run time still ties the two modules together), except those under
``if TYPE_CHECKING:``, which never run. ``from package import name`` is an edge to the
submodule ``package.name`` when there is one, else to the package's ``__init__``, where the
name is defined or re-exported: a submodule that imports from its own package's ``__init__``,
which imports that submodule back, is a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("makruk", "renderers", "storage", "bot", "bench", "scripts", "tests")
MAX_LINES = 500


def test_no_module_imports_itself_in_a_circle() -> None:
    graph = import_graph()
    circles = [component for component in strongly_connected(graph) if len(component) > 1
               or component[0] in graph[component[0]]]
    assert not circles, "import circles:\n" + "\n".join(describe(graph, component) for component in circles)


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_is_over_500_lines(folder: str) -> None:
    too_long = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        if lines > MAX_LINES:
            too_long.append(f"{name}: {lines} lines")
    assert not too_long, "\n".join(too_long)


# --- the graph ------------------------------------------------------------------------------

def import_graph() -> dict[str, set[str]]:
    """Each project module (dotted name; a package is its ``__init__``) -> the project modules it imports."""
    paths = {module_name(path): path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")}
    return {name: imported(name, path, set(paths)) for name, path in paths.items()}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` (module ``name``) imports outside ``if TYPE_CHECKING:``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in run_time_imports(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {nearest_module(target, modules) for target in found} - {""}


def nearest_module(dotted: str, modules: set[str]) -> str:
    """The project module ``dotted`` names, or its closest enclosing one ("" if none: not ours)."""
    while dotted and dotted not in modules:
        dotted = dotted.rpartition(".")[0]
    return dotted


def run_time_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, at any depth, except under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                yield from run_time_imports(ast.Module(body=[child], type_ignores=[]))
        else:
            yield from run_time_imports(node)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, each sorted, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return sorted(components)


def describe(graph: dict[str, set[str]], component: list[str]) -> str:
    """The component's modules and, for each, one shortest way back to itself."""
    members = set(component)
    lines = [f"- {len(component)} module(s): {', '.join(component)}"]
    for start in component:
        lines.append("    " + " -> ".join(shortest_cycle(graph, members, start)))
    return "\n".join(lines)


def shortest_cycle(graph: dict[str, set[str]], members: set[str], start: str) -> list[str]:
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & members):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    return [start]


def test_the_graph_sees_relative_imports_submodules_and_package_names() -> None:
    graph = import_graph()
    assert "bot.services.errors" in graph["bot.services.games.service"]  # from ..errors import ...
    assert "makruk.attacks" in graph["makruk.board"]  # from . import attacks as A: the submodule
    assert "makruk" in graph["renderers.board"]  # from makruk import Board: the package's __init__
    assert "makruk.board" not in graph["makruk.notation"]  # only under TYPE_CHECKING there
    assert {"a", "b"} in [set(c) for c in strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}})]
