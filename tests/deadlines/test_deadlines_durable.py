"""Deadlines live in the records database: a restarted service fires them, and two replicas never fire one twice."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import httpx
import pytest

from apikit import Table, bearer
from clockkit import events, install, of_type, scan
from service.settings import Settings
from test_deadlines_iskra import iskra_fight


@contextlib.asynccontextmanager
async def running(settings: Settings):
    from service.app import create_app

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rulekeeper.test") as c:
            yield app, c


async def test_a_deadline_survives_a_restart_and_the_new_process_fires_it(settings, monkeypatch):
    clock = install(monkeypatch)
    async with running(settings) as (app, client):
        t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 0})
        campaign_id, gm = t.id, t.gm
    clock.advance(61)
    async with running(settings) as (app, client):
        t = Table(client=client, id=campaign_id, gm=gm)
        assert await scan(app, t) == 1
        (fired,) = of_type(await events(t), "deadline_expired")
        assert fired["data"]["default_action"] == {"type": "end_turn", "participant_id": hero}
        r = await client.get(f"{t.base}/export", headers=bearer(gm))
        assert r.json()["moves"][-1]["body"]["action"] == {"type": "end_turn", "participant_id": hero}


@pytest.mark.backends
async def test_two_replicas_scanning_at_once_fire_each_deadline_once(postgres_database, redis_server, monkeypatch):
    clock = install(monkeypatch)
    settings = dataclasses.replace(
        Settings(
            database_url=postgres_database,
            redis_url=redis_server,
            webhooks_secrets_key="a key for sealing webhook secrets",
            rate_per_token=None,
            rate_per_address=None,
            rate_auth_failures=None,
        ),
        deadline_scan_seconds=3600.0,
    )
    async with running(settings) as (one, client), running(settings) as (two, _):
        tables = [await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 0}) for _ in range(4)]
        clock.advance(61)
        await asyncio.gather(*(w.state.deadlines.run_due() for w in (one, two, one, two)))
        # A campaign another replica held at that moment is taken up by the next scan, never fired again.
        await asyncio.gather(one.state.deadlines.run_due(), two.state.deadlines.run_due())
        for t, _hero, _foe, _token in tables:
            evs = await events(t)
            assert len(of_type(evs, "deadline_expired")) == 1
            r = await client.get(f"{t.base}/export", headers=bearer(t.gm))
            ends = [m for m in r.json()["moves"] if m["body"].get("action", {}).get("type") == "end_turn"]
            assert len(ends) == 1


async def test_the_worker_loop_fires_a_due_deadline_on_its_own(settings, monkeypatch, real_loop):
    clock = install(monkeypatch)
    async with running(dataclasses.replace(settings, deadline_scan_seconds=0.05)) as (app, client):
        t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 0})
        clock.advance(61)
        for _ in range(40):  # at most a second
            if of_type(await events(t), "deadline_expired"):
                break
            await asyncio.sleep(0.025)
        assert len(of_type(await events(t), "deadline_expired")) == 1


async def test_a_campaign_with_default_moves_exports_and_imports_by_replay(app, client, monkeypatch):
    """A move made on expiry is an ordinary move: the export replays on import like any other."""
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 0})
    clock.advance(61)
    assert await scan(app, t) == 1
    doc = (await client.get(f"{t.base}/export", headers=bearer(t.gm))).json()
    r = await client.post("/v1/campaigns/import", json=doc, headers={"Idempotency-Key": "k" * 32})
    assert r.status_code == 201, r.text
