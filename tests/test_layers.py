"""The layers of docs/architecture.md hold: rule engines are pure (no I/O, clock or randomness of their own,
nothing from the layers above), each layer imports only the layers below it, the two transports share what
they share through a module below both rather than through each other, and no module of the service is in an
import circle (a circle hidden in a function-level import included)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"
IMPURE = {
    "random",
    "time",
    "datetime",
    "secrets",
    "os",
    "socket",
    "asyncio",
    "threading",
    "subprocess",
    "sqlalchemy",
    "redis",
    "httpx",
    "starlette",
    "strawberry",
    "uvicorn",
    "logging",
}
ABOVE_RULES = ("service.game", "service.api", "service.store", "service.app")

# From the bottom up; a module may import its own layer and the ones below it, never one above.
LAYERS = [
    (
        "foundation",
        (
            "service.rules",
            "service.dice",
            "service.store",
            "service.notify",
            "service.i18n",
            "service.settings",
            "service.logs",
            "service.requestid",
            "service.metrics",
        ),
    ),
    ("application", ("service.game",)),
    ("transports", ("service.api",)),
    (
        "composition",
        (
            "service.app",
            "service.asgi",
            "service.cli",
            "service.contracts",
            "service.health",
            "service.heap",
            "service.web",
        ),
    ),
]
TRANSPORTS = ("service.api.rest", "service.api.graphql")


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


RULE_FILES = sorted((SERVICE / "rules").rglob("*.py"))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(SERVICE)))
def test_rule_engines_do_no_io_and_bring_no_randomness(path):
    bad = {m for m in imports(path) if m.split(".")[0] in IMPURE or m.startswith(ABOVE_RULES)}
    assert not bad, f"{path.relative_to(SERVICE)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((SERVICE / "api").rglob("*.py")), ids=lambda p: str(p.relative_to(SERVICE)))
def test_transports_hold_no_rules(path):
    """REST and GraphQL may list the registered systems (for schemas), never call into an engine's modules."""
    bad = {m for m in imports(path) if m.startswith("service.rules.") and m != "service.rules.registry"}
    assert not bad, f"{path.relative_to(SERVICE)} imports {sorted(bad)}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SERVICE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in SERVICE.rglob("*.py")}


def imported_modules(name: str) -> set[str]:
    """The service's modules `name` imports anywhere in it (a function's body too): `from a.b import c` is the
    module a.b.c when there is one, else a.b; relative imports are resolved."""
    path, known = modules()[name], modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    return found - {name}


def layer_of(name: str) -> int | None:
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return i
    return None


def test_every_module_of_the_service_has_a_layer():
    assert [m for m in modules() if m != "service" and layer_of(m) is None] == []


@pytest.mark.parametrize("name", sorted(modules()), ids=str)
def test_a_module_imports_only_its_own_layer_and_those_below(name):
    mine = layer_of(name)
    if mine is None:
        return
    above = {m: LAYERS[layer_of(m)][0] for m in imported_modules(name) if (layer_of(m) or 0) > mine}
    assert not above, f"{name} ({LAYERS[mine][0]}) imports {above}"


@pytest.mark.parametrize("name", sorted(m for m in modules() if m.startswith(TRANSPORTS)), ids=str)
def test_one_transport_does_not_lean_on_the_other(name):
    """What REST and GraphQL share (reply models, body parsing, problem members) lives in service/api/."""
    own = next(t for t in TRANSPORTS if name.startswith(t))
    other = {m for m in imported_modules(name) if m.startswith(TRANSPORTS) and not m.startswith(own)}
    assert not other, f"{name} imports {sorted(other)}"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
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
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_circles_are_found_however_they_are_hidden():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_of_the_service_is_in_an_import_circle():
    graph = {name: imported_modules(name) for name in modules()}
    assert circles(graph) == []
