"""Prometheus metrics at /metrics: request latency by route template (never a raw path), moves and rolls
by rule system and outcome, tables served from the live store or rebuilt from the move log, live-store
errors. The registry is the process's: each test reads the change its own requests made."""

from __future__ import annotations

import socket

import httpx
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from apikit import bearer, new_table
from service.game.log.tables import table_key
from service.settings import Settings

OFF = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}
ACTIONS = "/v1/campaigns/{campaign_id}/actions"


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def scrape(client: httpx.AsyncClient, **headers) -> dict[tuple[str, tuple], float]:
    r = await client.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


async def clock_table(client):
    t = await new_table(client, dice_mode="server", options={"use_time_pressure_clocks": True})
    await t.ok({"type": "start_scene", "kind": "narrative"})
    return t


async def test_request_latency_is_labelled_by_route_template_never_by_raw_path(client):
    t = await clock_table(client)
    before = value("rulekeeper_http_request_duration_seconds_count", method="POST", route=ACTIONS)
    await t.ok({"type": "gm_note", "text": "watched"})
    samples = await scrape(client)
    count = samples[("rulekeeper_http_request_duration_seconds_count", (("method", "POST"), ("route", ACTIONS)))]
    assert count == before + 1
    labels = " ".join(str(k[1]) for k in samples if k[0].startswith("rulekeeper_http"))
    assert t.id not in labels


async def test_a_path_no_route_matches_is_counted_as_unmatched(client):
    before = value("rulekeeper_http_requests_total", method="GET", route="unmatched", status="404")
    await client.get("/no/such/thing/12345")
    assert value("rulekeeper_http_requests_total", method="GET", route="unmatched", status="404") == before + 1


async def test_moves_are_counted_by_system_and_outcome_with_the_refusal_code(client):
    t = await clock_table(client)
    applied = value("rulekeeper_moves_total", system="stepdice", outcome="applied", code="")
    refused = value("rulekeeper_moves_total", system="stepdice", outcome="refused", code="version_mismatch")
    await t.ok({"type": "gm_note", "text": "one"})
    r = await t.act({"type": "gm_note", "text": "stale"}, headers={"If-Match": '"0"'})
    assert r.status_code == 412
    assert value("rulekeeper_moves_total", system="stepdice", outcome="applied", code="") == applied + 1
    assert value("rulekeeper_moves_total", system="stepdice", outcome="refused", code="version_mismatch") == refused + 1


async def test_free_rolls_are_counted_by_system_and_outcome(client):
    t = await clock_table(client)
    applied = value("rulekeeper_rolls_total", system="stepdice", outcome="applied", code="")
    refused = value("rulekeeper_rolls_total", system="stepdice", outcome="refused", code="expression_invalid")
    assert (await client.post(f"{t.base}/rolls", json={"expression": "2d6"}, headers=bearer(t.gm))).status_code == 200
    r = await client.post(f"{t.base}/rolls", json={"expression": "1d20/(1d6-1)"}, headers=bearer(t.gm))
    assert r.status_code == 422
    assert value("rulekeeper_rolls_total", system="stepdice", outcome="applied", code="") == applied + 1
    assert (
        value("rulekeeper_rolls_total", system="stepdice", outcome="refused", code="expression_invalid") == refused + 1
    )


async def test_a_table_the_live_store_lost_counts_a_miss_and_a_rebuild(app, client):
    t = await clock_table(client)
    await t.state()
    hits, misses = (
        value("rulekeeper_table_cache_lookups_total", result="hit"),
        value("rulekeeper_table_cache_lookups_total", result="miss"),
    )
    rebuilds = value("rulekeeper_table_rebuilds_total", system="stepdice")
    # Each read below must reach the live store, not the views this process keeps (service/game/log/views.py).
    forget_views = app.state.services.views._entries.clear
    forget_views()
    await t.state()
    assert value("rulekeeper_table_cache_lookups_total", result="hit") == hits + 1
    await app.state.services.live.delete(table_key(t.id))
    forget_views()
    await t.state()
    assert value("rulekeeper_table_cache_lookups_total", result="miss") == misses + 1
    assert value("rulekeeper_table_rebuilds_total", system="stepdice") == rebuilds + 1


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_live_store_errors_are_counted_while_play_goes_on(postgres_database):
    from service.app import create_app

    app = create_app(
        Settings(
            database_url=postgres_database,
            redis_url=f"redis://127.0.0.1:{_closed_port()}/0",
            webhooks_secrets_key="a key for sealing webhook secrets",
            **OFF,
        )
    )
    before = value("rulekeeper_live_store_errors_total", operation="put")
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            t = await clock_table(c)
            await t.ok({"type": "gm_note", "text": "no cache today"})
    assert value("rulekeeper_live_store_errors_total", operation="put") >= before + 2


async def test_the_webhook_subscriber_and_deadline_metrics_are_exposed(client):
    """Each moves where it happens: tests/api/test_metrics_that_move.py, tests/deadlines/test_deadline_lag_metric.py."""
    names = {name for name, _ in await scrape(client)}
    assert {
        "rulekeeper_subscribers",
        "rulekeeper_webhook_queue_depth",
        "rulekeeper_webhook_oldest_pending_seconds",
        "rulekeeper_deadline_lag_seconds",
    } <= names


async def test_a_metrics_token_guards_the_metrics(tmp_path):
    from service.app import create_app

    app = create_app(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/m.db", metrics_token="s3cret-scrape", **OFF)
    )
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            r = await c.get("/metrics")
            assert r.status_code == 401 and r.json()["code"] == "metrics_token_required"
            assert (await c.get("/metrics", headers=bearer("wrong"))).status_code == 401
            await scrape(c, **bearer("s3cret-scrape"))
