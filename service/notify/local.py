"""The embedded default: writers and subscribers live in one process, so the hub is the whole broker."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager

from .hub import Hub, Waiter

log = logging.getLogger("rulekeeper")

# What the records database says each campaign's last seq is; a campaign that is gone is left out.
Probe = Callable[[list[str]], Awaitable[dict[str, int]]]

SWEEP_SECONDS = 15.0


class LocalNotifier:
    """Announces committed events to this process's subscribers. What no announcement brings — a move made
    by another process without a broker between them (more uvicorn workers on one SQLite file, PostgreSQL
    without Redis), or one announced while the broker was away — the sweep finds: every SWEEP_SECONDS, one
    query for the last seq of every campaign watched in this process, however many subscribers it has."""

    def __init__(self, sweep_seconds: float = SWEEP_SECONDS) -> None:
        self.hub = Hub()
        self.sweep_seconds = sweep_seconds
        self._tasks: list[asyncio.Task] = []

    async def start(self, probe: Probe | None = None) -> None:
        if probe is not None:
            self._tasks.append(asyncio.create_task(self._sweep(probe), name="rulekeeper-notify-sweep"))

    async def close(self) -> None:
        # Cancel until done: redis-py connects and sends with asyncio.wait_for, which on Python 3.11 can swallow a
        # cancellation that lands just as it completes (a notifier closed while it still subscribes). Such a
        # task is cancelled again at once: waiting long for it made every short-lived app's stop 0.2 s longer.
        pending = {task for task in self._tasks if not task.done()}
        while pending:
            for task in pending:
                task.cancel()
            _, pending = await asyncio.wait(pending, timeout=0.01)
        self._tasks = []

    def announce(self, campaign_id: str, seq: int) -> None:
        """Called after a transaction that appended events to `campaign_id`, up to `seq`, has committed."""
        self.hub.deliver(campaign_id, seq)

    def watch(self, campaign_id: str) -> AbstractContextManager[Waiter]:
        return self.hub.watch(campaign_id)

    async def _sweep(self, probe: Probe) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.sweep_seconds)
            watched = self.hub.campaigns()
            if not watched:
                continue
            try:
                latest = await probe(watched)
            except Exception as exc:
                if not failing:
                    log.warning("subscription sweep could not read the records database (%s)", type(exc).__name__)
                failing = True
                continue
            failing = False
            for campaign_id in watched:
                if campaign_id in latest:
                    self.hub.deliver(campaign_id, latest[campaign_id])
                else:  # deleted: its subscribers find out when they ask again who they are
                    self.hub.recheck(campaign_id)
