"""The published set of error codes (GraphQL `ErrorCode`) holds every code the source can raise."""

from __future__ import annotations

import ast
from pathlib import Path

from service.game.errorcodes import ERROR_CODES
from service.api.graphql.app import HTTP_CODES

ROOT = Path(__file__).resolve().parents[2]
# Callables whose first string argument is a code (GameError and problem take the status first).
RAISERS = {
    "GameError",
    "DiceError",
    "RuleViolation",
    "violation",
    "invalid",
    "problem",
    "_error",
    "_refuse",
    "GraphQLError",
    "conflict",
}
# (`_bad_query(message, field)` always answers `invalid_query`, set in its own body.)


def _is_code(value: object) -> bool:
    return isinstance(value, str) and value.islower() and value.replace("_", "").isalpha()


def raised_codes() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if name in RAISERS and strings and _is_code(strings[0]):
                    found.setdefault(strings[0], str(path))
                for k in node.keywords:
                    if k.arg == "code" and isinstance(k.value, ast.Constant) and _is_code(k.value.value):
                        found.setdefault(k.value.value, str(path))
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "code"
                        and isinstance(v, ast.Constant)
                        and _is_code(v.value)
                    ):
                        found.setdefault(v.value, str(path))
    return found


def test_every_code_the_source_raises_is_published():
    raised = raised_codes()
    assert len(raised) > 50
    missing = {code: where for code, where in raised.items() if code not in ERROR_CODES}
    assert missing == {}


def test_the_transports_http_codes_are_published():
    assert set(HTTP_CODES.values()) <= set(ERROR_CODES)


def test_error_codes_are_a_graphql_enum():
    from service.contracts import graphql_sdl

    sdl = graphql_sdl()
    assert "enum ErrorCode {" in sdl and "  system_mismatch\n" in sdl and "  not_your_turn\n" in sdl
