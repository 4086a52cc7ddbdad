"""Announcements shared by every service process through one Redis pub/sub channel (how, and what a Redis
that is down or restarts costs: broadcast.py). An idle subscribed connection is PINGed, so a dead one is
noticed and subscribed again."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from .broadcast import MAX_BACKOFF_SECONDS, BroadcastNotifier
from .local import SWEEP_SECONDS

log = logging.getLogger("rulekeeper")

IDLE_READ_SECONDS = 5.0  # how long one read on the channel waits before the loop looks around
HEALTH_CHECK_SECONDS = 10  # an idle subscribed connection is PINGed this often, so a dead one is noticed


class RedisNotifier(BroadcastNotifier):
    broker = "Redis"

    def __init__(self, url: str, channel: str = "rk:events", sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__(channel, sweep_seconds)
        # Imported here, not with the module: a service on the embedded default never loads the Redis client.
        import redis.asyncio as aioredis

        self._client = aioredis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=1,
            socket_timeout=2,
            socket_keepalive=True,
            health_check_interval=HEALTH_CHECK_SECONDS,
        )

    async def close(self) -> None:
        await super().close()
        await self._send_what_is_left()
        await self._client.aclose()

    async def _send(self, batch: dict[str, int]) -> None:
        async with self._client.pipeline(transaction=False) as pipe:
            for campaign_id, seq in batch.items():
                pipe.publish(self._channel, self._message(campaign_id, seq))
            await pipe.execute()

    async def _listen(self) -> None:
        backoff = 0.1
        while True:
            pubsub = self._client.pubsub()
            try:
                await pubsub.subscribe(self._channel)
                while True:
                    msg = await pubsub.get_message(timeout=IDLE_READ_SECONDS)
                    if msg is None:
                        continue
                    if msg["type"] == "message":
                        self._heard(msg["data"])
                    elif msg["type"] == "subscribe":
                        # First subscription, or the client's own reconnect re-subscribing.
                        self.listening()
                        backoff = 0.1
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.subscribed.is_set():
                    log.warning(
                        "Redis event channel lost (%s); subscribers re-check every few seconds until it is back",
                        type(exc).__name__,
                    )
                self.subscribed.clear()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
