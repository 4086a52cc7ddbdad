"""MemoryLiveStore details, and choosing a backend with open_live_store."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from service.store.live import (
    MemoryLiveStore,
    RedisLiveStore,
    SqlLiveStore,
    Versioned,
    open_live_store,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_expires_exactly_at_the_deadline() -> None:
    clock = FakeClock()
    store = MemoryLiveStore(clock=clock)
    await store.compare_and_set("k", None, {"n": 0}, ttl=5)
    clock.now = 4.999
    assert await store.get("k") == Versioned({"n": 0}, 1)
    assert await store.compare_and_set("k", 1, {"n": 1}, ttl=5) == 2  # each write resets the ttl
    clock.now = 9.998
    assert await store.get("k") == Versioned({"n": 1}, 2)
    clock.now = 9.999
    assert await store.get("k") is None


async def test_values_are_copies() -> None:
    store = MemoryLiveStore()
    value = {"pool": [1, 2]}
    await store.compare_and_set("k", None, value)
    value["pool"].append(3)
    read = await store.get("k")
    read.value["pool"].append(4)
    assert (await store.get("k")).value == {"pool": [1, 2]}


async def test_open_live_store_prefers_redis_when_given_a_url(sqlite_engine: AsyncEngine) -> None:
    store = open_live_store("redis://127.0.0.1:6379/0", sqlite_engine)  # connects lazily
    assert isinstance(store, RedisLiveStore)
    await store.close()
    assert isinstance(open_live_store(None, sqlite_engine), SqlLiveStore)
    assert isinstance(open_live_store("", sqlite_engine), SqlLiveStore)
    with pytest.raises(ValueError):
        open_live_store(None, None)
