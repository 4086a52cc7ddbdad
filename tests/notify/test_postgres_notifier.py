"""Notifications between service processes through PostgreSQL LISTEN/NOTIFY when there is no Redis: one
connection per process; a lost connection costs a delay (every subscriber re-checks once it is back), never a
crash or a lost event."""
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


async def test_an_announcement_in_one_process_wakes_a_waiter_in_another(postgres_database):
    name = channel()
    a, b = await started(postgres_database, name), await started(postgres_database, name)
    try:
        with b.watch("camp") as waiter:
            woke = asyncio.ensure_future(waiter.wait(cursor=10, timeout=5))
            await asyncio.sleep(0)
            a.announce("camp", 11)
            assert await asyncio.wait_for(woke, 5) == "announced"
    finally:
        await a.close()
        await b.close()


async def test_a_process_hears_its_own_announcement_at_once_and_only_once(postgres_database):
    a = await started(postgres_database, channel())
    try:
        delivered = []
        real = a.hub.deliver
        a.hub.deliver = lambda c, s: (delivered.append((c, s)), real(c, s))
        a.announce("camp", 3)
        assert delivered == [("camp", 3)]
        await asyncio.sleep(0.3)  # its echo from PostgreSQL comes back, and is dropped
        assert delivered == [("camp", 3)]
    finally:
        await a.close()


async def test_a_lost_connection_comes_back_and_every_subscriber_rechecks(postgres_database):
    name = channel()
    a, b = await started(postgres_database, name), await started(postgres_database, name)
    try:
        rechecks = []
        b.hub.recheck_all = lambda: rechecks.append(True)
        admin = await asyncpg.connect(asyncpg_dsn(postgres_database))
        try:   # the listening connection killed from the server's side, as a failover or a restart would
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE pid = $1", b._conn.get_server_pid())
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
