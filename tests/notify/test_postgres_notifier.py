"""Notifications between service processes through PostgreSQL LISTEN/NOTIFY when there is no Redis: one
connection per process; a lost connection costs a delay (every subscriber re-checks once it is back), never a
crash or a lost event. (What every broker's notifier promises: test_broadcast.py.)"""

from __future__ import annotations

import asyncio
import uuid

import asyncpg

from service.notify import PostgresNotifier, open_notifier
from service.notify.postgres import asyncpg_dsn


def channel() -> str:
    return f"rk_test_{uuid.uuid4().hex}"


async def started(url: str, name: str) -> PostgresNotifier:
    notifier = PostgresNotifier(url, name)
    await notifier.start()
    await asyncio.wait_for(notifier.subscribed.wait(), 10)
    return notifier


def test_postgresql_without_redis_gets_the_postgresql_notifier():
    assert type(open_notifier(None, database_url="postgresql+asyncpg://u@h/db")) is PostgresNotifier
    assert type(open_notifier("redis://h/0", database_url="postgresql+asyncpg://u@h/db")).__name__ == "RedisNotifier"
    assert type(open_notifier(None, database_url="sqlite+aiosqlite:///x.db")).__name__ == "LocalNotifier"


async def test_a_lost_connection_comes_back_and_every_subscriber_rechecks(postgres_database):
    name = channel()
    a, b = await started(postgres_database, name), await started(postgres_database, name)
    try:
        rechecks = []
        b.hub.recheck_all = lambda: rechecks.append(True)
        admin = await asyncpg.connect(asyncpg_dsn(postgres_database))
        try:  # the listening connection killed from the server's side, as a failover or a restart would
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1", b._conn.get_server_pid()
            )
        finally:
            await admin.close()
        for _ in range(100):
            if rechecks and b.subscribed.is_set():
                break
            await asyncio.sleep(0.1)
        assert rechecks and b.subscribed.is_set()
        with b.watch("camp") as waiter:
            woke = asyncio.ensure_future(waiter.wait(cursor=1, timeout=5))
            await asyncio.sleep(0)
            a.announce("camp", 2)
            assert await asyncio.wait_for(woke, 5) == "announced"
    finally:
        await a.close()
        await b.close()
