"""What every notifier between service processes promises, whichever broker carries it (Redis pub/sub, or
PostgreSQL's LISTEN/NOTIFY when there is no Redis): another process's waiter wakes, and a process's own
announcement reaches its own subscribers at once and once."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import pytest

from service.notify import PostgresNotifier, RedisNotifier
from service.notify.broadcast import BroadcastNotifier

Start = Callable[[str], Awaitable[BroadcastNotifier]]


@pytest.fixture(params=["redis", "postgresql"])
def started(request) -> Start:
    """Starts a notifier of the broker on `name`, listening before it is handed over."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_server")
        make = lambda name: RedisNotifier(url, f"rk-test:{name}:events")  # noqa: E731
    else:
        url = request.getfixturevalue("postgres_database")
        make = lambda name: PostgresNotifier(url, f"rk_test_{name}")  # noqa: E731

    async def start(name: str) -> BroadcastNotifier:
        notifier = make(name)
        await notifier.start()
        await asyncio.wait_for(notifier.subscribed.wait(), 10)
        return notifier

    return start


async def test_an_announcement_in_one_process_wakes_a_waiter_in_another(started: Start):
    name = uuid.uuid4().hex
    a, b = await started(name), await started(name)
    try:
        with b.watch("camp") as waiter:
            woke = asyncio.ensure_future(waiter.wait(cursor=10, timeout=5))
            await asyncio.sleep(0)
            a.announce("camp", 11)
            assert await asyncio.wait_for(woke, 5) == "announced"
    finally:
        await a.close()
        await b.close()


async def test_a_process_hears_its_own_announcement_at_once_and_only_once(started: Start):
    a = await started(uuid.uuid4().hex)
    try:
        delivered = []
        real = a.hub.deliver
        a.hub.deliver = lambda c, s: (delivered.append((c, s)), real(c, s))
        a.announce("camp", 3)
        assert delivered == [("camp", 3)]
        await asyncio.sleep(0.3)  # its echo from the broker comes back, and is dropped
        assert delivered == [("camp", 3)]
    finally:
        await a.close()
