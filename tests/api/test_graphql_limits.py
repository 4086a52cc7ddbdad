"""GraphQL cannot stall the table: documents are limited in depth, aliases, tokens and cost, sockets and
their subscriptions are counted, and every refusal is a GraphQL error with `extensions.code`."""

from __future__ import annotations

import logging
import time
from contextlib import ExitStack

import pytest

from apikit import bearer, new_table
from service.api.graphql.schema import make_schema

DEFAULTS = {"max_depth": 10, "max_aliases": 20, "max_tokens": 2000, "max_cost": 2000}


async def refused(query: str, **limits) -> list[dict]:
    result = await make_schema(**{**DEFAULTS, **limits}).execute(query)
    assert result.errors and result.data is None, result
    return [e.formatted for e in result.errors]


def codes(errors: list[dict]) -> set[str]:
    return {e["extensions"]["code"] for e in errors}


async def test_a_query_nested_past_the_depth_limit_is_refused_as_query_too_deep():
    errors = await refused('{ campaign(id: "x") { you { role } } }', max_depth=2)
    assert codes(errors) == {"query_too_deep"}


async def test_aliases_past_the_limit_are_refused_as_too_many_aliases():
    query = "{ " + " ".join(f"s{i}: systems {{ id }}" for i in range(21)) + " }"
    assert codes(await refused(query)) == {"too_many_aliases"}


async def test_a_document_past_the_token_limit_is_refused_as_query_too_large():
    query = "{ systems { " + "id " * 2500 + "} }"
    assert codes(await refused(query)) == {"query_too_large"}


async def test_a_page_of_events_weighs_its_limit_and_a_costly_query_is_refused():
    page = 'events(campaignId: "x", first: 500) { edges { node { seq } } }'
    assert codes(await refused("{ " + " ".join(f"p{i}: {page}" for i in range(4)) + " }")) == {"query_too_costly"}
    result = await make_schema(**DEFAULTS).execute("{ " + " ".join(f"p{i}: {page}" for i in range(3)) + " }")
    assert all(e.extensions["code"] != "query_too_costly" for e in result.errors)  # unauthorized, not too costly


async def test_a_variable_page_size_weighs_the_largest_page():
    query = (
        "query($n: Int!) { "
        + " ".join(f'p{i}: events(campaignId: "x", first: $n) {{ pageInfo {{ hasNextPage }} }}' for i in range(4))
        + " }"
    )
    assert codes(await refused(query)) == {"query_too_costly"}


@pytest.fixture
def walked(monkeypatch) -> list[int]:
    """How many selection sets the limits rule visited: the work a refusal costs, counted rather than timed."""
    from service.api.graphql import limits

    visits = [0]
    walk = limits._Walk.selections

    def counted(self, *args, **kw):
        visits[0] += 1
        return walk(self, *args, **kw)

    monkeypatch.setattr(limits._Walk, "selections", counted)
    return visits


@pytest.fixture
def compared(monkeypatch) -> list[int]:
    """The units graphql-core's pairwise same-name check spent (its complexity budget)."""
    from graphql.validation.rules import overlapping_fields_can_be_merged as overlapping

    spent = [0]
    spend = overlapping.spend_complexity_budget

    def counted(context, cost):
        spent[0] += cost
        return spend(context, cost)

    monkeypatch.setattr(overlapping, "spend_complexity_budget", counted)
    return spent


async def test_an_alias_bomb_of_event_pages_is_refused_before_it_runs(walked):
    query = (
        "{ "
        + " ".join(f'a{i}: events(campaignId: "x", first: 500) {{ pageInfo {{ hasNextPage }} }}' for i in range(1000))
        + " }"
    )
    errors = await refused(query, max_tokens=100_000)  # refused() also checks that nothing was executed
    assert codes(errors) == {"too_many_aliases", "query_too_costly"}
    assert walked[0] <= 3 * 1000 + 1  # one visit per field's selection: linear in the document


async def test_fragments_that_double_at_every_level_are_refused_in_linear_time(walked):
    """Each fragment spreads the next twice: 2^40 fields if expanded. Counted once per fragment."""
    frags = "\n".join(f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(40))
    query = "{ ...F0 }\nfragment F40 on Query { systems { id } }\n" + frags
    assert codes(await refused(query)) == {"query_too_costly"}
    assert walked[0] <= 2 * 41 + 1


async def test_hundreds_of_repeated_fields_are_refused_before_their_pairwise_check_stalls(compared):
    """graphql-core compares same-named fields in pairs: ~500 `systems { id }` took 1.6 s to validate within its
    default budget of 500,000 units. Ours stops the comparison at 10,000."""
    assert codes(await refused("{ " + "systems { id } " * 495 + "}")) == {"query_too_complex"}
    assert 0 < compared[0] <= 10_000 + 2


async def test_introspection_is_not_refused_for_its_depth():
    from graphql import get_introspection_query

    result = await make_schema(**DEFAULTS).execute(get_introspection_query())
    assert not result.errors


async def test_limits_keep_the_parser_and_validation_caches_hitting(client, monkeypatch):
    """STACK-NOTES: the two caches are worth six times the throughput; a rule made per request would
    make every validation a miss (the rules are part of the cache key)."""
    from strawberry.extensions.parser_cache import _get_parse_cache

    from service.api.graphql import validated

    validations = []

    def counted(*args):
        validations.append(args)
        return validate_document(*args)

    validate_document = validated.validate_document
    monkeypatch.setattr(validated, "validate_document", counted)
    parsed = _get_parse_cache(256)
    query = {"query": "{ systems { id name } }"}
    await client.post("/graphql", json=query)
    hits, validated_once = parsed.cache_info().hits, len(validations)
    await client.post("/graphql", json=query)
    assert parsed.cache_info().hits == hits + 1
    assert validated_once <= 1 and len(validations) == validated_once  # the second one was not validated again


async def test_the_validation_verdict_is_kept_per_query_text_and_each_text_gets_its_own(client):
    """graphql/validated.py keys the verdict by the query's text: another text is validated for itself."""
    ok = await client.post("/graphql", json={"query": "{ systems { id } }"})
    assert ok.status_code == 200 and "errors" not in ok.json(), ok.text
    wrong = await client.post("/graphql", json={"query": "{ systems { id nope } }"})
    assert [e["extensions"]["code"] for e in wrong.json()["errors"]] == ["graphql_validation_failed"], wrong.text
    again = await client.post("/graphql", json={"query": "{ systems { id } }"})
    assert again.json() == ok.json()


async def test_refusals_over_http_are_graphql_errors_with_a_code(client):
    r = await client.post(
        "/graphql", json={"query": "{ " + " ".join(f"s{i}: systems {{ id }}" for i in range(30)) + " }"}
    )
    assert r.status_code == 200 and r.json()["errors"][0]["extensions"]["code"] == "too_many_aliases"
    r = await client.post("/graphql", json={"query": "{ systems { id "})
    assert r.json()["errors"][0]["extensions"]["code"] == "graphql_parse_failed"
    r = await client.post("/graphql", json={"query": "{ systems { nope } }"})
    assert r.json()["errors"][0]["extensions"]["code"] == "graphql_validation_failed"


async def test_an_unexpected_error_is_masked_for_the_client_and_logged_in_full(client, monkeypatch, caplog):
    from service.game.campaigns import records as campaigns

    t = await new_table(client)
    secret = "(psycopg) SELECT token_hash FROM credentials WHERE id = 'x' [redis://10.9.8.7:6379]"

    async def broken(*_a, **_k):
        raise RuntimeError(secret)

    monkeypatch.setattr(campaigns, "read_events", broken)
    with caplog.at_level(logging.ERROR, logger="rulekeeper.errors"):
        r = await client.post(
            "/graphql",
            json={"query": '{ events(campaignId: "%s") { pageInfo { hasNextPage } } }' % t.id},
            headers=bearer(t.gm),
        )
    error = r.json()["errors"][0]
    assert error["extensions"]["code"] == "internal_error"
    assert "SELECT" not in r.text and "10.9.8.7" not in r.text
    assert any(secret in (rec.getMessage() + str(rec.exc_info)) for rec in caplog.records)


async def test_a_refused_command_keeps_its_message_and_code(client):
    t = await new_table(client)
    r = await client.post(
        "/graphql",
        json={"query": '{ events(campaignId: "%s") { pageInfo { hasNextPage } } }' % t.id},
        headers=bearer("rk_gm_wrong"),
    )
    error = r.json()["errors"][0]
    assert error["extensions"]["code"] == "unauthorized" and "token" in error["message"]


def _socket(stack: ExitStack, http, token: str):
    session = stack.enter_context(http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]))
    session.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
    return session


def test_operations_past_the_per_socket_limit_get_an_error_with_a_code(embedded_settings):
    from dataclasses import replace

    from starlette.testclient import TestClient

    from service.app import create_app

    with TestClient(create_app(replace(embedded_settings, graphql_max_subscriptions=2))) as http, ExitStack() as stack:
        created = http.post("/v1/campaigns", json={"name": "ws", "system": "stepdice"}).json()
        cid, gm = created["campaign"]["id"], created["gm_token"]
        session = _socket(stack, http, gm)
        assert session.receive_json()["type"] == "connection_ack"
        sub = "subscription($c: ID!) { campaignEvents(campaignId: $c) { seq } }"
        for i in range(3):
            session.send_json({"id": str(i), "type": "subscribe", "payload": {"query": sub, "variables": {"c": cid}}})
        seen = [session.receive_json() for _ in range(3)]
        errors = [m for m in seen if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["id"] == "2"
        assert errors[0]["payload"][0]["extensions"]["code"] == "too_many_subscriptions"


def test_sockets_past_the_per_token_limit_are_closed_and_a_closed_one_frees_its_place(embedded_settings):
    from dataclasses import replace

    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from service.app import create_app

    with TestClient(create_app(replace(embedded_settings, graphql_max_sockets=2))) as http, ExitStack() as stack:
        gm = http.post("/v1/campaigns", json={"name": "ws", "system": "stepdice"}).json()["gm_token"]
        with ExitStack() as first:
            s1 = _socket(first, http, gm)
            s2 = _socket(stack, http, gm)
            assert s1.receive_json()["type"] == s2.receive_json()["type"] == "connection_ack"
            s3 = _socket(stack, http, gm)
            with pytest.raises(WebSocketDisconnect) as closed:
                s3.receive_json()
            assert closed.value.code == 4429
        time.sleep(0.2)  # the server notices the first socket's close and frees its place
        s4 = _socket(stack, http, gm)
        assert s4.receive_json()["type"] == "connection_ack"


def test_limits_are_settings_read_from_the_environment():
    from service.settings import Rate, Settings

    s = Settings.from_env(
        {
            "RULEKEEPER_MAX_BODY_BYTES": "1024",
            "RULEKEEPER_GRAPHQL_MAX_DEPTH": "4",
            "RULEKEEPER_GRAPHQL_MAX_ALIASES": "3",
            "RULEKEEPER_GRAPHQL_MAX_TOKENS": "500",
            "RULEKEEPER_GRAPHQL_MAX_COST": "700",
            "RULEKEEPER_GRAPHQL_MAX_SUBSCRIPTIONS": "2",
            "RULEKEEPER_GRAPHQL_MAX_SOCKETS": "3",
        }
    )
    assert (
        s.max_body_bytes,
        s.graphql_max_depth,
        s.graphql_max_aliases,
        s.graphql_max_tokens,
        s.graphql_max_cost,
        s.graphql_max_subscriptions,
        s.graphql_max_sockets,
    ) == (1024, 4, 3, 500, 700, 2, 3)
    assert Settings.from_env({}).rate_per_token == Rate(20, 100)
    with pytest.raises(ValueError):
        Settings.from_env({"RULEKEEPER_GRAPHQL_MAX_DEPTH": "0"})
