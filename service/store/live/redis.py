"""Live store on Redis: one hash per entry, `{v: version, d: JSON text}`, under `prefix`.

Every operation is one round trip (see STACK-NOTES: a round trip costs about as much as a whole
bare request): CAS and versioned delete are Lua scripts that check and write atomically, get is
one HMGET, get_many one non-transactional pipeline. Expiry is Redis's own (PEXPIRE/PERSIST).
Scripts go through `register_script`, i.e. EVALSHA, re-sending the source only after a
SCRIPT FLUSH or failover.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable

from .base import JSON, Versioned, VersionConflict, check_put, check_write, decode, encode

if TYPE_CHECKING:
    import redis.asyncio as aioredis

# ARGV: expected version (0 = must not exist), JSON text, ttl in ms (0 = no expiry).
# Returns the new version (> 0), or on conflict minus the current version (0 when absent).
_CAS = """
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return -current
end
local version = current + 1
redis.call('HSET', KEYS[1], 'v', version, 'd', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('PERSIST', KEYS[1])
end
return version
"""

# ARGV: version, JSON text, ttl in ms (0 = no expiry). Returns 1 written, 0 when already at that version or later.
_PUT_NEWER = """
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current >= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'd', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('PERSIST', KEYS[1])
end
return 1
"""

# ARGV: expected version. Returns 1 deleted, 0 absent, or minus the current version.
_DELETE = """
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current == 0 then
  return 0
end
if current ~= tonumber(ARGV[1]) then
  return -current
end
redis.call('DEL', KEYS[1])
return 1
"""


class RedisLiveStore:
    def __init__(self, client: aioredis.Redis, prefix: str = "rk:", *, owns_client: bool = False) -> None:
        """`client` may be shared (e.g. with the event streams); `close()` closes it only when
        `owns_client` is true, as it is for `from_url`. Works with or without decode_responses."""
        self._redis = client
        self._prefix = prefix
        self._owns_client = owns_client
        self._cas = client.register_script(_CAS)
        self._delete = client.register_script(_DELETE)
        self._put_newer = client.register_script(_PUT_NEWER)

    @classmethod
    def from_url(cls, url: str, prefix: str = "rk:", **client_kwargs: Any) -> RedisLiveStore:
        # Imported here, not with the module: a service on the embedded default never loads the Redis client.
        import redis.asyncio as aioredis

        return cls(aioredis.Redis.from_url(url, **client_kwargs), prefix, owns_client=True)

    def _key(self, key: str) -> str:
        return self._prefix + key

    @staticmethod
    def _versioned(row: list[Any]) -> Versioned | None:
        version, data = row
        return None if version is None else Versioned(decode(data), int(version))

    async def get(self, key: str) -> Versioned | None:
        return self._versioned(await self._redis.hmget(self._key(key), "v", "d"))

    async def get_many(self, keys: Iterable[str]) -> dict[str, Versioned]:
        keys = list(dict.fromkeys(keys))
        if not keys:
            return {}
        # A pipeline rather than one Lua script: same single round trip, and it stays valid on
        # Redis Cluster, where a script may only touch keys of one slot.
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hmget(self._key(key), "v", "d")
            rows = await pipe.execute()
        found = {key: self._versioned(row) for key, row in zip(keys, rows)}
        return {key: v for key, v in found.items() if v is not None}

    async def compare_and_set(
        self, key: str, expected_version: int | None, value: JSON, ttl: float | None = None
    ) -> int:
        check_write(expected_version, ttl)
        ttl_ms = 0 if ttl is None else max(1, math.ceil(ttl * 1000))
        result = int(await self._cas(keys=[self._key(key)], args=[expected_version or 0, encode(value), ttl_ms]))
        if result <= 0:
            raise VersionConflict(key, expected_version, -result or None)
        return result

    async def put_newer(self, key: str, version: int, value: JSON, ttl: float | None = None) -> bool:
        check_put(version, ttl)
        ttl_ms = 0 if ttl is None else max(1, math.ceil(ttl * 1000))
        return bool(await self._put_newer(keys=[self._key(key)], args=[version, encode(value), ttl_ms]))

    async def delete(self, key: str, expected_version: int | None = None) -> bool:
        if expected_version is None:
            return bool(await self._redis.delete(self._key(key)))
        result = int(await self._delete(keys=[self._key(key)], args=[expected_version]))
        if result < 0:
            raise VersionConflict(key, expected_version, -result)
        return result == 1

    async def close(self) -> None:
        if self._owns_client:
            await self._redis.aclose()
