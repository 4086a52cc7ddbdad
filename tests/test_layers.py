"""The layers of docs/architecture.md hold: rule engines are pure (no I/O, clock or randomness of their own, nothing
from the layers above), and the transports reach the rules only through the application layer."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"
IMPURE = {"random", "time", "datetime", "secrets", "os", "socket", "asyncio", "threading", "subprocess",
          "sqlalchemy", "redis", "httpx", "starlette", "strawberry", "uvicorn", "logging"}
ABOVE_RULES = ("service.game", "service.api", "service.store", "service.app")


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
