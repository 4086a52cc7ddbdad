"""Notifications between service processes through Redis pub/sub: one shared connection per process; a
Redis that is down or restarts costs a delay, never a crash or a lost event. (What every broker's notifier
promises: test_broadcast.py.)"""

from __future__ import annotations

import asyncio
import socket
import time
import uuid

import pytest

from redis_process import RedisProcess
from service.notify import RedisNotifier


def channel() -> str:
    return f"rk-test:{uuid.uuid4().hex}:events"


async def started(url: str, name: str) -> RedisNotifier:
    notifier = RedisNotifier(url, name)
    await notifier.start()
    return notifier


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_with_redis_unreachable_announcing_does_not_fail_and_local_waiters_still_wake():
    notifier = await started(f"redis://127.0.0.1:{free_port()}/0", channel())
    try:
        with notifier.watch("camp") as waiter:
            notifier.announce("camp", 1)
            assert await asyncio.wait_for(waiter.wait(0, 5), 1) == "announced"
        await asyncio.sleep(0.3)  # the background tasks meet the refused connection and carry on
        assert all(not t.done() for t in notifier._tasks)
    finally:
        started_closing = time.monotonic()
        await notifier.close()
        assert time.monotonic() - started_closing < 3


@pytest.fixture
def own_redis(tmp_path):
    server = RedisProcess(tmp_path)
    server.start()
    yield server
    server.kill()


async def test_when_redis_comes_back_every_waiter_rechecks_and_held_announcements_go_out(own_redis):
    """What was announced while Redis was down is not lost: the publisher sends it when Redis is back, and
    the listener, subscribing again, makes every subscriber look at the database once more."""
    name = channel()
    a, b = await started(own_redis.url, name), await started(own_redis.url, name)
    try:
        await asyncio.wait_for(asyncio.gather(a.subscribed.wait(), b.subscribed.wait()), 5)
        with b.watch("camp") as waiter:
            own_redis.kill()
            await asyncio.sleep(0.3)
            a.announce("camp", 5)  # a move made while Redis is down
            woke = asyncio.ensure_future(waiter.wait(cursor=4, timeout=10))
            await asyncio.sleep(0.3)
            assert not woke.done()
            own_redis.start()
            assert await asyncio.wait_for(woke, 8) in {"announced", "recheck"}
    finally:
        await a.close()
        await b.close()
