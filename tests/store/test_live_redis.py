"""RedisLiveStore beyond the shared contract: layout, expiry commands, one round trip each."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from redis.asyncio.connection import Connection

from service.store.live import RedisLiveStore, Versioned, VersionConflict


@pytest.fixture
def store(redis_namespace) -> RedisLiveStore:
    return RedisLiveStore(redis_namespace.client, prefix=redis_namespace.prefix)


async def test_hash_layout_and_expiry_commands(store: RedisLiveStore, redis_namespace) -> None:
    client, prefix = redis_namespace.client, redis_namespace.prefix
    await store.compare_and_set("k", None, {"n": 0}, ttl=60)
    assert await client.hgetall(prefix + "k") == {b"v": b"1", b"d": b'{"n":0}'}
    assert 0 < await client.pttl(prefix + "k") <= 60_000
    await store.compare_and_set("k", 1, {"n": 1})
    assert await client.pttl(prefix + "k") == -1  # PERSIST: no ttl means no expiry
    await store.compare_and_set("k", 2, {"n": 2}, ttl=0.0001)  # rounds up to 1 ms, never 0
    assert await client.pttl(prefix + "k") in (-2, 0, 1)


async def test_each_operation_is_one_round_trip(store: RedisLiveStore, monkeypatch) -> None:
    # Warm up: connect, and load both scripts (the first EVALSHA of a script may need a load).
    await store.compare_and_set("warm", None, [0])
    await store.delete("warm", expected_version=1)
    sends = 0
    original = Connection.send_packed_command

    async def counting(self, *args, **kwargs):
        nonlocal sends
        sends += 1
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "send_packed_command", counting)

    async def trips(operation) -> int:
        nonlocal sends
        sends = 0
        try:
            await operation
        except VersionConflict:
            pass
        return sends

    assert await trips(store.compare_and_set("k", None, {"n": 0}, ttl=30)) == 1
    assert await trips(store.compare_and_set("k", 1, {"n": 1})) == 1
    assert await trips(store.compare_and_set("k", 1, {"n": "stale"})) == 1
    assert await trips(store.get("k")) == 1
    assert await trips(store.get_many(["k", "a", "b", "c"])) == 1
    assert await trips(store.delete("k", expected_version=1)) == 1
    assert await trips(store.delete("k", expected_version=2)) == 1
    assert await trips(store.delete("k")) == 1


async def test_works_with_decoded_responses(redis_namespace) -> None:
    client = aioredis.Redis.from_url(redis_namespace.url, decode_responses=True)
    store = RedisLiveStore(client, prefix=redis_namespace.prefix, owns_client=True)
    try:
        await store.compare_and_set("k", None, {"s": "é"})
        assert await store.get("k") == Versioned({"s": "é"}, 1)
        assert await store.get_many(["k"]) == {"k": Versioned({"s": "é"}, 1)}
    finally:
        await store.close()


async def test_prefixes_keep_stores_apart(redis_namespace) -> None:
    one = RedisLiveStore(redis_namespace.client, prefix=redis_namespace.prefix + "one:")
    two = RedisLiveStore(redis_namespace.client, prefix=redis_namespace.prefix + "two:")
    await one.compare_and_set("k", None, [1])
    assert await two.get("k") is None
    assert await two.compare_and_set("k", None, [2]) == 1


async def test_close_leaves_a_shared_client_open(store: RedisLiveStore, redis_namespace) -> None:
    await store.close()
    assert await redis_namespace.client.ping()
