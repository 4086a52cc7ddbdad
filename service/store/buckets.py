"""Token buckets for rate limits, as GCRA (one timestamp per bucket: when it will be full again).

`MemoryBuckets` counts in this process (the embedded default: one process). `RedisBuckets` decides in this
process too, and shares the timestamps through Redis in the background, so that all replicas share one budget
without a round trip on any request's way (its docstring says how closely).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from service.settings import Rate

if TYPE_CHECKING:
    import redis.asyncio as aioredis

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


# KEYS: the buckets charged or consulted since the last reconciliation. ARGV, one per bucket: the microseconds this
# process charged it meanwhile (its steps, summed), 0 for a bucket it only consulted. Each charge is added to the
# bucket as every replica has charged it; returns Redis's clock, then each bucket's time of being full again
# (both in microseconds).
_RECONCILE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local out = {now}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  local step = tonumber(ARGV[i])
  if step > 0 then
    if tat < now then tat = now end
    tat = tat + step
    redis.call('SET', key, string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000) + 1)
  end
  out[i + 1] = tat
end
return out
"""

# How long a charge waits before it goes to Redis with the others made meanwhile: one script call per interval in
# which the process charged anything, instead of one per request; and how stale a replica's copy can be.
RECONCILE_SECONDS = 0.05


class RedisBuckets:
    """Buckets every replica shares through Redis, decided in this process and reconciled in the background.

    A request is decided against this process's own copy (a MemoryBuckets), with no round trip on its way; what it
    charged, and which buckets it consulted, go to Redis at most RECONCILE_SECONDS later, with everything else
    charged meanwhile, in one script call. Its answer, each bucket as every replica has charged it, is merged into
    the copy (the fuller of the two wins). So the replicas share one budget over time; but a replica decides from
    what it knew at its last reconciliation, so a burst spread over N replicas at once can reach N times a bucket's
    burst before they all know. What they admitted beyond it is paid back: a GCRA bucket charged past its capacity
    refuses for that much longer. When Redis cannot be reached, each replica goes on limiting on its own, and a
    warning is logged."""

    def __init__(
        self, client: aioredis.Redis, prefix: str = "rk:rate:", every: float = RECONCILE_SECONDS, clock=time.monotonic
    ) -> None:
        from redis.exceptions import RedisError

        self.redis = client
        # RuntimeError: under uvloop, redis-py writing to a connection Redis has just dropped raises "unable to
        # perform operation on <TCPTransport closed=True>" instead of a ConnectionError (seen in the fault test, as
        # a 500 on a move while Redis was killed).
        self.unreachable = (RedisError, OSError, RuntimeError)
        self.prefix = prefix
        self.every = every
        self.clock = clock
        self.local = MemoryBuckets(clock=clock)
        self.script = client.register_script(_RECONCILE)
        self.warned_at = -math.inf
        # Key -> microseconds charged since the last reconciliation (0: only consulted).
        self.pending: dict[str, int] = {}
        self.reconciling: asyncio.Task | None = None

    @classmethod
    def from_url(cls, url: str, prefix: str = "rk:rate:") -> RedisBuckets:
        # Imported here, not with the module: a service on the embedded default never loads the Redis client.
        import redis.asyncio as aioredis

        return cls(aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2), prefix)

    async def take(self, buckets: list[Bucket]) -> float:
        # The request yields to the event loop here once, as it did while it waited for Redis. Without it GET state
        # over 32 connections answered 0.74-0.90x the requests/s of one round trip per request (two paired bench.py
        # runs and a 6-round A/B); with it, 1.21-1.24x in two A/B runs. Why, not found: the loop's batching of the
        # other connections' reads is a guess.
        await asyncio.sleep(0)
        wait = await self.local.take(buckets)
        for b in buckets:
            step = round(b.step * 1e6) if b.charge and not wait else 0
            self.pending[b.key] = self.pending.get(b.key, 0) + step
        if self.pending and self.reconciling is None:
            self.reconciling = asyncio.get_running_loop().create_task(self._reconcile_soon())
        return wait

    async def _reconcile_soon(self) -> None:
        try:
            await asyncio.sleep(self.every)
            await self.reconcile()
        finally:
            self.reconciling = None
        if self.pending:  # charged while the script ran
            self.reconciling = asyncio.get_running_loop().create_task(self._reconcile_soon())

    async def reconcile(self) -> None:
        """Send what this process charged and consulted since the last call; take every replica's charges back."""
        sent, self.pending = self.pending, {}
        if not sent:
            return
        keys = list(sent)
        try:
            now_us, *full_us = await self.script(keys=[self.prefix + k for k in keys], args=[sent[k] for k in keys])
        except asyncio.CancelledError:
            # Stopped mid-call (close): the charges go with the last reconciliation instead.
            for key, step in sent.items():
                self.pending[key] = self.pending.get(key, 0) + step
            raise
        except self.unreachable as exc:
            if time.monotonic() - self.warned_at > 60:
                self.warned_at = time.monotonic()
                log.warning("rate limits are kept by each replica alone: Redis is unreachable (%s)", type(exc).__name__)
            return
        now = self.clock()
        for key, full in zip(keys, full_us):
            shared = now + (int(full) - int(now_us)) / 1e6
            if shared > self.local.full_at.get(key, -math.inf):
                self.local.full_at[key] = shared

    async def close(self) -> None:
        if self.reconciling is not None:
            self.reconciling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reconciling
        # What was charged last still counts for the other replicas.
        await self.reconcile()
        await self.redis.aclose()


def open_buckets(redis_url: str | None) -> Buckets:
    return RedisBuckets.from_url(redis_url) if redis_url else MemoryBuckets()
