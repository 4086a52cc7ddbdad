"""Announcements shared by every service process through one Redis pub/sub channel.

Each process holds one subscribed connection (not one per subscriber) and hands what it hears to its own
hub. A writer's announcement reaches its own process's subscribers at once, and the other processes
through PUBLISH, sent by a background task so that a slow or absent Redis never holds up a move. Redis
down: moves go on, the sweep (see LocalNotifier) still finds other processes' moves, announcements wait to
be published, and when the channel is subscribed again every subscriber of the process re-checks at once.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

import redis.asyncio as aioredis

from .local import SWEEP_SECONDS, LocalNotifier, Probe

log = logging.getLogger("rulekeeper")

IDLE_READ_SECONDS = 5.0       # how long one read on the channel waits before the loop looks around
HEALTH_CHECK_SECONDS = 10     # an idle subscribed connection is PINGed this often, so a dead one is noticed
MAX_BACKOFF_SECONDS = 5.0


class RedisNotifier(LocalNotifier):
    def __init__(self, url: str, channel: str = "rk:events", sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__(sweep_seconds)
        self._client = aioredis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=1,
                                               socket_timeout=2, socket_keepalive=True,
                                               health_check_interval=HEALTH_CHECK_SECONDS)
        self._channel = channel
        # Our own messages come back to us; the hub already has them.
        self._origin = uuid.uuid4().hex
        # campaign -> highest seq not yet published; one entry per campaign however many moves wait.
        self._outbox: dict[str, int] = {}
        self._kick = asyncio.Event()
        self.subscribed = asyncio.Event()

    async def start(self, probe: Probe | None = None) -> None:
        await super().start(probe)
        self._tasks += [asyncio.create_task(self._listen(), name="rulekeeper-notify-listen"),
                        asyncio.create_task(self._publish(), name="rulekeeper-notify-publish")]

    async def close(self) -> None:
        await super().close()
        if self._outbox:  # best effort: what is left is found by the other processes' sweep anyway
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send(self._outbox), 1)
        await self._client.aclose()

    def announce(self, campaign_id: str, seq: int) -> None:
        super().announce(campaign_id, seq)
        self._outbox[campaign_id] = max(seq, self._outbox.get(campaign_id, 0))
        self._kick.set()

    async def _send(self, batch: dict[str, int]) -> None:
        async with self._client.pipeline(transaction=False) as pipe:
            for campaign_id, seq in batch.items():
                pipe.publish(self._channel, f"{self._origin}:{campaign_id}:{seq}")
            await pipe.execute()

    async def _publish(self) -> None:
        backoff = 0.1
        while True:
            await self._kick.wait()
            self._kick.clear()
            while self._outbox:
                batch, self._outbox = self._outbox, {}
                try:
                    await self._send(batch)
                    backoff = 0.1
                except Exception as exc:
                    if backoff == 0.1:  # once per outage, not once per retry
                        log.warning("could not publish event notifications to Redis (%s); retrying",
                                    type(exc).__name__)
                    for campaign_id, seq in batch.items():
                        self._outbox[campaign_id] = max(seq, self._outbox.get(campaign_id, 0))
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)

    def _heard(self, data: str) -> None:
        origin, _, rest = data.partition(":")
        campaign_id, _, seq = rest.rpartition(":")
        if origin == self._origin or not campaign_id or not seq.isdigit():
            return
        self.hub.deliver(campaign_id, int(seq))

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
                        # First subscription, or the client's own reconnect re-subscribing: whatever was
                        # published while we were away is lost, so every subscriber looks again.
                        self.subscribed.set()
                        self.hub.recheck_all()
                        backoff = 0.1
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.subscribed.is_set():
                    log.warning("Redis event channel lost (%s); subscribers re-check every few seconds "
                                "until it is back", type(exc).__name__)
                self.subscribed.clear()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
