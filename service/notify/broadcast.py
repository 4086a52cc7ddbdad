"""What every notifier that reaches the other service processes shares, whatever carries the messages
(Redis pub/sub in redis.py, PostgreSQL's LISTEN/NOTIFY in postgres.py).

Each process holds one connection of its own (not one per subscriber), listens on one channel and hands what
it hears to its hub. A writer's announcement reaches its own process's subscribers at once and the other
processes through the channel, sent by a background task after the move's transaction has committed, so a
slow or absent broker never holds up a move. The broker away: moves go on, the sweep (see LocalNotifier)
still finds other processes' moves, announcements wait to be sent (one per campaign, its highest seq), and
once the channel is listened to again every subscriber of the process re-checks at once (`listening`).

A subclass says how to send a batch (`_send`) and how to listen (`_listen`, calling `_heard` with each
message and `listening` each time it is subscribed again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

from .local import SWEEP_SECONDS, LocalNotifier, Probe

log = logging.getLogger("rulekeeper")

MAX_BACKOFF_SECONDS = 5.0


class BroadcastNotifier(LocalNotifier):
    # What the broker is called in the log.
    broker = "the broker"
    # The longest pause between two failed sends.
    max_send_backoff = MAX_BACKOFF_SECONDS

    def __init__(self, channel: str, sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__(sweep_seconds)
        self._channel = channel
        # Our own messages come back to us; the hub already has them.
        self._origin = uuid.uuid4().hex
        # campaign -> highest seq not yet sent; one entry per campaign however many moves wait.
        self._outbox: dict[str, int] = {}
        self._kick = asyncio.Event()
        self.subscribed = asyncio.Event()

    async def start(self, probe: Probe | None = None) -> None:
        await super().start(probe)
        self._tasks += [
            asyncio.create_task(self._listen(), name="rulekeeper-notify-listen"),
            asyncio.create_task(self._publish(), name="rulekeeper-notify-publish"),
        ]

    def announce(self, campaign_id: str, seq: int) -> None:
        super().announce(campaign_id, seq)
        self._hold({campaign_id: seq})
        self._kick.set()

    def _hold(self, batch: dict[str, int]) -> None:
        for campaign_id, seq in batch.items():
            self._outbox[campaign_id] = max(seq, self._outbox.get(campaign_id, 0))

    def _message(self, campaign_id: str, seq: int) -> str:
        return f"{self._origin}:{campaign_id}:{seq}"

    def _heard(self, message: str) -> None:
        origin, _, rest = message.partition(":")
        campaign_id, _, seq = rest.rpartition(":")
        if origin == self._origin or not campaign_id or not seq.isdigit():
            return
        self.hub.deliver(campaign_id, int(seq))

    def listening(self) -> None:
        """Subscribed (again): whatever was sent while this process was away is lost, so every subscriber
        looks again."""
        self.subscribed.set()
        self.hub.recheck_all()

    async def _send_what_is_left(self) -> None:
        """On close, best effort: what is left is found by the other processes' sweep anyway."""
        if self._outbox:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send(self._outbox), 1)

    async def _ready_to_send(self) -> None:
        """Waits until a batch may be sent; at once unless the channel says otherwise."""

    async def _send(self, batch: dict[str, int]) -> None:
        raise NotImplementedError

    async def _listen(self) -> None:
        raise NotImplementedError

    async def _publish(self) -> None:
        backoff = 0.1
        while True:
            await self._kick.wait()
            self._kick.clear()
            while self._outbox:
                await self._ready_to_send()
                batch, self._outbox = self._outbox, {}
                try:
                    await self._send(batch)
                    backoff = 0.1
                except Exception as exc:
                    if backoff == 0.1:  # once per outage, not once per retry
                        log.warning(
                            "could not send event notifications through %s (%s); retrying",
                            self.broker,
                            type(exc).__name__,
                        )
                    self._hold(batch)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, self.max_send_backoff)
