"""Every GraphQL operation the documentation shows and the tests and benchmarks send is valid against the checked-in SDL, as
graphql-codegen (or any client generator) would check it: the SDL alone, read by graphql-core."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from doc_pages import blocks, pages
from graphql import GraphQLSyntaxError, build_schema, parse, validate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = build_schema((ROOT / "schema" / "schema.graphql").read_text())
DOCS = "\n".join(page.read_text() for page in pages())
# Tests that send documents the service must refuse (limits, malformed requests, translated validation errors):
# not examples.
REFUSALS = {
    "test_graphql_limits.py",
    "test_request_limits.py",
    "test_limits_live.py",
    "test_graphql_operations.py",
    "test_library_messages.py",
}
OPENERS = ("query", "mutation", "subscription", "{")


def _document(text: str) -> bool:
    stripped = text.strip()
    # `{campaign_id}` (a path template) parses too: a document selects at least one field's fields.
    if not stripped.startswith(OPENERS) or stripped.count("{") < 2:
        return False
    try:
        parse(stripped)
    except GraphQLSyntaxError:
        return False  # JSON, or a fragment of a larger string
    return True


def documented_operations() -> list[str]:
    ops = blocks("graphql")
    # The GraphQL in the curl examples' JSON bodies and in the JavaScript subscription example.
    for body in re.findall(r'-d "(\{\\"query\\": .*?\})"', DOCS, flags=re.S):
        unescaped = body.replace('\\\\\\"', '"').replace('\\"', '"')
        ops.append(re.search(r'"query": "(.*?)"\}', unescaped, flags=re.S).group(1).replace('\\"', '"'))
    ops += re.findall(r'query: "(subscription.*?)"', DOCS)
    return ops


def test_operations_found_in_the_documentation():
    ops = documented_operations()
    assert len(ops) >= 3, ops
    assert any("campaignEvents" in op for op in ops) and any(op.strip().startswith("mutation") for op in ops)


@pytest.mark.parametrize("operation", documented_operations())
def test_every_documented_operation_validates_against_the_sdl(operation):
    errors = validate(SCHEMA, parse(operation))
    assert errors == [], [e.message for e in errors]


def _strings(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
        ):
            out.append(node.left.value.replace("%s", "x"))
    return out


def test_operations() -> list[tuple[str, str]]:
    found = []
    for path in sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]):
        if path.name in REFUSALS:
            continue
        for text in _strings(ast.parse(path.read_text())):
            if _document(text):
                found.append((path.name, text.strip()))
    return found


test_operations.__test__ = False  # a collector, not a test


def test_the_tests_send_graphql_operations():
    assert len(test_operations()) >= 30


@pytest.mark.parametrize(
    ("source", "operation"), test_operations(), ids=lambda v: v if v.endswith(".py") else json.dumps(v[:40])
)
def test_every_operation_the_tests_send_validates_against_the_sdl(source, operation):
    errors = validate(SCHEMA, parse(operation))
    assert errors == [], [e.message for e in errors]
