"""The web table's GraphQL operations (service/web/static/graphql/) are valid against the schema and within the
limits the service sets by default, each as the page sends it: the operation with the fragments it spreads."""

from __future__ import annotations

import pytest
from graphql import parse, validate
from graphql.language import Lexer, Source, TokenKind

from service.api.graphql.limits import DocumentLimits, measure
from service.api.graphql.schema import schema
from service.settings import Settings
from service.web.operations import DOCUMENTS, FRAGMENTS, OPERATIONS, as_sent, spreads


def tokens(text: str) -> int:
    lexer, count = Lexer(Source(text)), 0
    while lexer.advance().kind != TokenKind.EOF:
        count += 1
    return count


def test_the_page_s_documents_are_its_operations_and_their_fragments():
    assert [p.name for p in DOCUMENTS] == ["operations.graphql", "tables.graphql"]
    assert len(OPERATIONS) >= 15
    used = {f for name in OPERATIONS for f in spreads(parse(as_sent(name)))}
    assert set(FRAGMENTS) == used, set(FRAGMENTS) - used


@pytest.mark.parametrize("name", OPERATIONS)
def test_each_operation_of_the_page_is_valid_within_the_default_limits(name):
    text = as_sent(name)
    document = parse(text)
    settings = Settings()
    assert validate(schema._schema, document) == []
    limits = DocumentLimits(settings.graphql_max_depth, settings.graphql_max_aliases, settings.graphql_max_cost)
    assert [e.message for e in measure(document, schema._schema, limits)] == []
    assert tokens(text) <= settings.graphql_max_tokens


def test_every_rule_system_has_its_table_query():
    from service.web.tables import state_types

    for state in state_types(schema._schema):
        query = OPERATIONS[state.name.removesuffix("State") + "Table"]
        assert state.name in spreads(query)
