"""Token buckets for rate limits, as GCRA (one timestamp per bucket: when it will be full again).

`MemoryBuckets` counts in this process (the embedded default: one process). `RedisBuckets` keeps the
timestamps in Redis and checks and charges every bucket of a request in one Lua script, one round
trip, on Redis's clock, so that all replicas share one budget. When Redis cannot be reached, requests
pass (limits fail open: the live store's own errors will say what is wrong) and a warning is logged.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import Protocol

import redis.asyncio as aioredis

from service.settings import Rate

log = logging.getLogger("rulekeeper.ratelimit")


@dataclass(frozen=True)
class Bucket:
    key: str
    rate: Rate
    charge: bool = True  # False: only ask whether the bucket has room for one more
    cost: int = 1

    @property
    def interval(self) -> float:
        return 1.0 / self.rate.per_second

    @property
    def step(self) -> float:
        return self.interval * self.cost

    @property
    def capacity(self) -> float:
        return self.interval * self.rate.burst


class Buckets(Protocol):
    async def take(self, buckets: list[Bucket]) -> float:
        """0 when every bucket has room (and the charged ones are charged), else the seconds to wait
        until they all would; then nothing is charged."""

    async def close(self) -> None: ...


class MemoryBuckets:
    def __init__(self, clock=time.monotonic, max_keys: int = 100_000) -> None:
        self.clock = clock
        self.full_at: dict[str, float] = {}
        self.sweep_at = max_keys
        self.max_keys = max_keys

    async def take(self, buckets: list[Bucket]) -> float:
        now = self.clock()
        wait, due = 0.0, []
        for b in buckets:
            tat = max(self.full_at.get(b.key, now), now) + b.step
            wait = max(wait, tat - now - b.capacity)
            due.append(tat)
        if wait > 1e-9:
            return wait
        for b, tat in zip(buckets, due):
            if b.charge:
                self.full_at[b.key] = tat
        if len(self.full_at) > self.sweep_at:
            self.full_at = {k: t for k, t in self.full_at.items() if t > now}
            # Sweep again only after as many new keys: a sweep costs O(keys), spread over that many requests.
            self.sweep_at = max(self.max_keys, 2 * len(self.full_at))
        return 0.0

    async def close(self) -> None:
        pass


# KEYS: the buckets. ARGV, three per bucket: step (interval x cost) and capacity in microseconds, 1 to charge or 0
# to check. Returns 0 (all had room; the charged ones are charged) or the microseconds to wait.
_GCRA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local wait = 0
local due = {}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  due[i] = tat + tonumber(ARGV[3 * i - 2])
  local over = due[i] - now - tonumber(ARGV[3 * i - 1])
  if over > wait then wait = over end
end
if wait > 0 then
  return math.ceil(wait)
end
for i, key in ipairs(KEYS) do
  if ARGV[3 * i] == '1' then
    redis.call('SET', key, string.format('%.0f', due[i]), 'PX', math.ceil((due[i] - now) / 1000) + 1)
  end
end
return 0
"""


class RedisBuckets:
    def __init__(self, client: aioredis.Redis, prefix: str = "rk:rate:") -> None:
        self.redis = client
        self.prefix = prefix
        self.script = client.register_script(_GCRA)
        self.warned_at = -math.inf

    @classmethod
    def from_url(cls, url: str, prefix: str = "rk:rate:") -> RedisBuckets:
        return cls(aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2), prefix)

    async def take(self, buckets: list[Bucket]) -> float:
        if not buckets:
            return 0.0
        args: list[int] = []
        for b in buckets:
            args += [max(1, round(b.step * 1e6)), round(b.capacity * 1e6), 1 if b.charge else 0]
        try:
            waited = int(await self.script(keys=[self.prefix + b.key for b in buckets], args=args))
        # RuntimeError: under uvloop, redis-py writing to a connection Redis has just dropped raises "unable to
        # perform operation on <TCPTransport closed=True>" instead of a ConnectionError (seen in the fault test, as
        # a 500 on a move while Redis was killed).
        except (aioredis.RedisError, OSError, RuntimeError) as exc:
            if time.monotonic() - self.warned_at > 60:
                self.warned_at = time.monotonic()
                log.warning("rate limits are not enforced: Redis is unreachable (%s)", type(exc).__name__)
            return 0.0
        return waited / 1e6

    async def close(self) -> None:
        await self.redis.aclose()


def open_buckets(redis_url: str | None) -> Buckets:
    return RedisBuckets.from_url(redis_url) if redis_url else MemoryBuckets()
