"""The web table's GraphQL operations (static/graphql/) as the page sends each one: the operation with every
fragment it reaches (static/api.js does the same in the browser). For the contract tests, which validate each,
and for the benchmark, which sends the table's query as the page does."""

from __future__ import annotations

from graphql import FragmentDefinitionNode, OperationDefinitionNode, parse, print_ast
from graphql.language import Visitor, visit

from service.web import STATIC

DOCUMENTS = sorted((STATIC / "graphql").glob("*.graphql"))
DOC = parse("\n".join(p.read_text() for p in DOCUMENTS))
FRAGMENTS = {d.name.value: d for d in DOC.definitions if isinstance(d, FragmentDefinitionNode)}
OPERATIONS = {d.name.value: d for d in DOC.definitions if isinstance(d, OperationDefinitionNode) and d.name}


def spreads(node) -> list[str]:
    found: list[str] = []

    class Spreads(Visitor):
        def enter_fragment_spread(self, spread, *_args) -> None:
            found.append(spread.name.value)

    visit(node, Spreads())
    return found


def as_sent(name: str) -> str:
    """What static/api.js sends for `name`: the operation and every fragment it reaches."""
    need: list[str] = []
    todo = spreads(OPERATIONS[name])
    while todo:
        fragment = todo.pop()
        if fragment not in need:
            need.append(fragment)
            todo += spreads(FRAGMENTS[fragment])
    return "\n".join([print_ast(OPERATIONS[name]), *(print_ast(FRAGMENTS[f]) for f in need)])
