"""Faults: concurrent play on PostgreSQL and a Redis this test starts itself, while Redis (with and
without persistence) and the service process are killed and restarted at random moments.

Afterwards: every acknowledged move is in the log exactly once and in the table exactly once, no
retry applied twice, replaying the move log from version 0 gives every table exactly, no
Idempotency-Key is left stuck, and every failure a client saw was a 503 with Retry-After or a
dropped connection. The service runs as a real process, started the README's way (`rulekeeper serve`).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from processes import ServiceProcess
from redis_process import RedisProcess
from serve_process import LOOPBACK_TLS
from service.game.log import moves as movelog
from service.game.deadlines.sync import named_moves
from service.rules.base import Actor
from service.rules.registry import SYSTEMS
from service.store.records.db import sessionmaker
from service.store.records.models import Campaign, MoveRecord, SnapshotRecord

CAMPAIGNS = 3
WORKERS_PER_CAMPAIGN = 2
MOVES_PER_WORKER = 12
FAULTS = 6


class Ledger:
    """What the clients saw: acknowledged moves, and every failure."""

    def __init__(self) -> None:
        self.acked: dict[str, dict] = {}  # idempotency key -> {campaign, label, version}
        self.failures: list[str] = []
        self.bad_failures: list[str] = []


async def play_one(client_url, campaign, key: str, label: str, ledger: Ledger, deadline: float) -> None:
    """One logical move, retried with the same Idempotency-Key until it is acknowledged."""
    body = {"action": {"type": "create_clock", "label": label, "consequence": "the tower falls"}}
    headers = {"Authorization": f"Bearer {campaign['gm']}", "Idempotency-Key": key}
    while time.monotonic() < deadline:
        try:
            # A client per attempt (a new connection after a kill), all sharing one SSL context (serve_process.py).
            async with httpx.AsyncClient(base_url=client_url(), timeout=10, verify=LOOPBACK_TLS) as c:
                r = await c.post(f"/v1/campaigns/{campaign['id']}/actions", json=body, headers=headers)
        except httpx.TransportError as exc:
            ledger.failures.append(f"dropped: {type(exc).__name__}")
            await asyncio.sleep(0.1)
            continue
        if r.status_code == 200:
            ledger.acked[key] = {"campaign": campaign["id"], "label": label, "version": r.json()["version"]}
            return
        ledger.failures.append(f"{r.status_code} {r.headers.get('content-type')}")
        if (
            r.status_code in (503, 409)
            and "retry-after" in {h.lower() for h in r.headers}
            and r.headers["content-type"].startswith("application/problem+json")
        ):
            await asyncio.sleep(min(float(r.headers["retry-after"]), 1.0))
            continue
        ledger.bad_failures.append(f"{r.status_code}: {r.text[:300]}")
        return


async def replay_from_version_0(database_url: str, campaign_id: str) -> dict:
    """The table rebuilt from the first snapshot and every move, without the service's own shortcuts."""
    engine = create_async_engine(database_url)
    try:
        async with sessionmaker(engine)() as s:
            c = await s.get(Campaign, campaign_id)
            snap = await s.scalar(
                select(SnapshotRecord).where(SnapshotRecord.campaign_id == campaign_id, SnapshotRecord.version == 0)
            )
            state = snap.state
            moves = list(
                await s.scalars(
                    select(MoveRecord).where(MoveRecord.campaign_id == campaign_id).order_by(MoveRecord.version)
                )
            )
            assert [m.version for m in moves] == list(range(1, c.table_version + 1))
            for m in moves:
                state = movelog.replay_move(SYSTEMS[c.system], c.dice_mode, state, m.kind, m.body, m.actor, m.dice)
            # As the service serves a view: with each awaited move's REST and GraphQL names.
            return named_moves(SYSTEMS[c.system].view(json.loads(json.dumps(state)), Actor(role="gm")))
    finally:
        await engine.dispose()


@pytest.mark.parametrize("persistent", [True, False], ids=["redis-aof", "redis-no-persistence"])
def test_kills_of_redis_and_the_service_lose_or_double_nothing(persistent, postgres_database, tmp_path):
    seed = int(os.environ.get("FAULT_SEED") or random.randrange(1 << 30))
    rng = random.Random(seed)
    redis = RedisProcess(tmp_path, persistent)
    redis.start()
    env = {
        **os.environ,
        "DATABASE_URL": postgres_database,
        "REDIS_URL": redis.url,
        "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
        "RULEKEEPER_IDEMPOTENCY_LEASE_SECONDS": "2",
        "RULEKEEPER_LOG_LEVEL": "WARNING",
        # Six clients on three GM tokens from one address, far faster than a table plays.
        "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
        "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
    }
    # Kept, so that a failure shows the service's own account of any 500 (its ERROR lines carry the traceback).
    service_log = tmp_path / "serve.log"
    service = ServiceProcess(env, log=service_log)
    service.start()
    ledger = Ledger()
    try:
        campaigns = []
        for i in range(CAMPAIGNS):
            r = httpx.post(
                f"{service.url}/v1/campaigns",
                json={
                    "name": f"Siege {i}",
                    "system": "stepdice",
                    "dice_mode": "server",
                    "options": {"use_time_pressure_clocks": True},
                },
            )
            assert r.status_code == 201, r.text
            c = {"id": r.json()["campaign"]["id"], "gm": r.json()["gm_token"]}
            r = httpx.post(
                f"{service.url}/v1/campaigns/{c['id']}/actions",
                headers={"Authorization": f"Bearer {c['gm']}"},
                json={"action": {"type": "start_scene", "kind": "narrative"}},
            )
            assert r.status_code == 200, r.text
            campaigns.append(c)

        async def worker(campaign, w: int, deadline: float) -> None:
            for n in range(MOVES_PER_WORKER):
                await play_one(lambda: service.url, campaign, str(uuid.uuid4()), f"w{w}-m{n}", ledger, deadline)

        async def chaos() -> None:
            for _ in range(FAULTS):
                await asyncio.sleep(rng.uniform(0.2, 0.8))
                if rng.random() < 0.5:
                    redis.kill()
                    await asyncio.sleep(rng.uniform(0.05, 0.4))
                    await asyncio.to_thread(redis.start)
                else:
                    service.kill()
                    await asyncio.to_thread(service.start)

        async def run() -> None:
            deadline = time.monotonic() + 90
            await asyncio.gather(
                chaos(), *(worker(c, w, deadline) for c in campaigns for w in range(WORKERS_PER_CAMPAIGN))
            )

        asyncio.run(run())
        total = CAMPAIGNS * WORKERS_PER_CAMPAIGN * MOVES_PER_WORKER
        lines = service_log.read_text().splitlines()
        errors = [line for line in lines if '"level": "ERROR"' in line]
        alive = service.proc is not None and service.proc.poll() is None
        context = (
            f"seed {seed} (FAULT_SEED={seed} repeats it); failures seen: {sorted(set(ledger.failures))}; "
            f"the service's ERROR lines: {errors[:3]}; the service is {'running' if alive else 'not running'} at "
            f"{service.url}, and its log ends: {lines[-3:]}"
        )
        print(context)
        assert ledger.bad_failures == [], context
        assert len(ledger.acked) == total, context

        gm = lambda c: {"Authorization": f"Bearer {c['gm']}"}  # noqa: E731
        for c in campaigns:
            acked = {a["label"]: a["version"] for a in ledger.acked.values() if a["campaign"] == c["id"]}
            assert len(set(acked.values())) == len(acked), "two acknowledged moves got one version"
            events = httpx.get(
                f"{service.url}/v1/campaigns/{c['id']}/events", params={"limit": 500}, headers=gm(c)
            ).json()["items"]
            logged = [e["data"]["label"] for e in events if e["type"] == "clock_created"]
            assert sorted(logged) == sorted(acked), f"log and acknowledgements disagree; {context}"
            state = httpx.get(f"{service.url}/v1/campaigns/{c['id']}/state", headers=gm(c)).json()
            labels = sorted(k["label"] for k in state["state"]["table"]["clocks"].values())
            assert labels == sorted(acked), f"table and acknowledgements disagree; {context}"
            assert asyncio.run(replay_from_version_0(postgres_database, c["id"])) == state["state"], context

        # No key is stuck: every one of them answers with its first reply, and nothing applies again.
        time.sleep(2.1)  # past the lease of any claim a killed process left behind
        for key, a in ledger.acked.items():
            c = next(x for x in campaigns if x["id"] == a["campaign"])
            r = httpx.post(
                f"{service.url}/v1/campaigns/{c['id']}/actions",
                headers={**gm(c), "Idempotency-Key": key},
                json={"action": {"type": "create_clock", "label": a["label"], "consequence": "the tower falls"}},
            )
            assert r.status_code == 200 and r.json()["version"] == a["version"], (r.status_code, r.text[:300])
        for c in campaigns:
            state = httpx.get(f"{service.url}/v1/campaigns/{c['id']}/state", headers=gm(c)).json()
            assert len(state["state"]["table"]["clocks"]) == WORKERS_PER_CAMPAIGN * MOVES_PER_WORKER
    finally:
        service.kill()
        redis.kill()
