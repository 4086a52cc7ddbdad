"""What a table rebuild from the move log costs, beside a read that finds the table in the live store.

    .venv/bin/python benchmarks/rebuild_bench.py [--reads 60] [--servers]

In process, on the embedded defaults (and with --servers on PostgreSQL + Redis, in a database of its own):
a Step Dice table is played to 0, 25 and 49 moves past its latest snapshot (the most a rebuild ever replays
is 49: snapshots are taken every 50 moves), then `GET …/state` is timed with the live copy present and with
it deleted before every read (a Redis that lost it). Prints medians and their ratio, from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from service.app import create_app
from service.game.log.moves import SNAPSHOT_EVERY
from service.game.log.tables import table_key
from service.settings import Settings


async def measure(settings: Settings, reads: int) -> list[tuple[int, float, float]]:
    app = create_app(settings)
    rows = []
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as c:
            r = (
                await c.post(
                    "/v1/campaigns",
                    json={"name": "bench", "system": "stepdice", "options": {"use_time_pressure_clocks": True}},
                )
            ).json()
            cid, h = r["campaign"]["id"], {"Authorization": f"Bearer {r['gm_token']}"}
            act = lambda a: c.post(f"/v1/campaigns/{cid}/actions", json={"action": a}, headers=h)  # noqa: E731
            await act({"type": "start_scene", "kind": "narrative"})
            version = 1
            for past in (0, 25, SNAPSHOT_EVERY - 1):
                while version % SNAPSHOT_EVERY != past:
                    await act({"type": "create_clock", "label": f"c{version}", "consequence": "x"})
                    version += 1
                live = app.state.services.live
                hit, miss = [], []
                for _ in range(reads):
                    t0 = time.perf_counter()
                    assert (await c.get(f"/v1/campaigns/{cid}/state", headers=h)).status_code == 200
                    hit.append(time.perf_counter() - t0)
                    await live.delete(table_key(cid))
                    t0 = time.perf_counter()
                    got = await c.get(f"/v1/campaigns/{cid}/state", headers=h)
                    assert got.status_code == 200, got.text
                    miss.append(time.perf_counter() - t0)
                rows.append((past, statistics.median(hit) * 1000, statistics.median(miss) * 1000))
    return rows


async def pg_database() -> tuple[str, str]:
    base = os.environ.get("TEST_DATABASE_URL") or "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    name = f"rk_bench_{uuid.uuid4().hex[:10]}"
    engine = create_async_engine(base, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await engine.dispose()
    return base.rsplit("/", 1)[0] + "/" + name, base


async def drop(url: str, base: str) -> None:
    engine = create_async_engine(base, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
    await engine.dispose()


def show(title: str, rows) -> None:
    print(f"\n{title}")
    print(f"{'moves past snapshot':>20} {'cached p50 ms':>14} {'rebuilt p50 ms':>15} {'ratio':>7}")
    for past, hit, miss in rows:
        print(f"{past:>20} {hit:>14.2f} {miss:>15.2f} {miss / hit:>6.1f}x")


# The benchmark reads one campaign as fast as it can: the per-token limit a
# deployment sets against one greedy client would answer 429 instead.
NO_LIMITS: dict = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=60)
    parser.add_argument("--servers", action="store_true", help="also on PostgreSQL + Redis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        show(
            "embedded (SQLite + SQL live store)",
            await measure(Settings(database_url=f"sqlite+aiosqlite:///{tmp}/bench.db", **NO_LIMITS), args.reads),
        )
    if args.servers:
        url, base = await pg_database()
        try:
            show(
                "PostgreSQL + Redis",
                await measure(
                    Settings(
                        database_url=url,
                        redis_url=os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/0",
                        webhooks_secrets_key="a benchmark key for sealing webhook secrets",
                        **NO_LIMITS,
                    ),
                    args.reads,
                ),
            )
        finally:
            await drop(url, base)


if __name__ == "__main__":
    asyncio.run(main())
