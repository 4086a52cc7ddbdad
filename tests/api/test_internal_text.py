"""Errors never carry internal text (SQL, parameters, addresses, exception messages), and nothing a client
sends can forge a line of the service's log."""

from __future__ import annotations

import logging

import httpx

from apikit import assert_problem, bearer, new_table
from service.settings import Settings

OFF = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}
SECRET = "SELECT token_hash FROM credentials WHERE id = $1 [parameters: ('x',)] redis://10.9.8.7:6379"


async def test_readyz_says_only_up_or_down_per_component(tmp_path):
    from service.app import create_app

    app = create_app(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/r.db", redis_url="redis://127.0.0.1:1/0", **OFF)
    )
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            r = await c.get("/readyz")
    assert r.status_code == 200  # the live store is a cache: the replica serves from the records database
    assert r.json() == {"status": "degraded", "checks": {"database": "up", "schema": "up", "live_store": "down"}}


async def test_readyz_when_everything_is_up(client):
    r = await client.get("/readyz")
    assert r.json() == {"status": "ok", "checks": {"database": "up", "schema": "up", "live_store": "up"}}


async def test_a_rest_500_says_nothing_but_that_it_is_a_bug(app, monkeypatch, caplog):
    from service.game.campaigns import records as campaigns

    async def broken(*_a, **_k):
        raise RuntimeError(SECRET)

    monkeypatch.setattr(campaigns, "get_campaign", broken)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        t = await new_table(c)
        with caplog.at_level(logging.ERROR, logger="rulekeeper.errors"):
            r = await c.get(t.base, headers=bearer(t.gm))
    assert_problem(r, 500, "internal_error")
    assert "SELECT" not in r.text and "10.9.8.7" not in r.text
    assert any(SECRET in str(rec.exc_info) for rec in caplog.records)


async def test_a_newline_in_the_path_cannot_forge_an_access_log_line(client, caplog):
    with caplog.at_level(logging.INFO, logger="rulekeeper"):
        await client.get("/v1/x%0a2026-01-01 INFO rulekeeper: GET /v1/forged 200 1.0ms%0d%00")
    lines = [rec.getMessage() for rec in caplog.records if rec.name == "rulekeeper" and "forged" in rec.getMessage()]
    assert len(lines) == 1
    assert "\n" not in lines[0] and "\r" not in lines[0] and "\x00" not in lines[0]
    assert "\\x0a" in lines[0]


async def test_a_graphql_value_its_type_does_not_allow_is_an_internal_error_and_logged(client, monkeypatch, caplog):
    """A resolver's value the schema does not allow (a map where a list is declared: "Expected Iterable") is the
    service's bug, not the query's: `internal_error`, not `graphql_validation_failed`, and the log has it."""
    from service.game import systems

    real = systems.summaries
    monkeypatch.setattr(systems, "summaries", lambda: [{**s, "actions": {"a": 1}} for s in real()])
    with caplog.at_level(logging.ERROR, logger="rulekeeper.errors"):
        r = await client.post("/graphql", json={"query": "{ systems { id actions } }"})
    errors = r.json()["errors"]
    assert {e["extensions"]["code"] for e in errors} == {"internal_error"}
    assert "Iterable" not in r.text
    assert any("Expected Iterable" in rec.getMessage() for rec in caplog.records)
