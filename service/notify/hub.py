"""In-process fan-out of "campaign X has events up to seq N" to the subscribers waiting in this process.

A notification carries no event: the records database stays the truth, and each subscriber reads the new
events itself, through its own role filter. So a notification may be late, repeated or lost without
harm; a lost one only costs the subscriber its next safety re-check.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


class Waiter:
    """One subscriber's doorbell for one campaign."""

    def __init__(self) -> None:
        self._bell = asyncio.Event()
        self._announced = 0  # the highest seq announced so far
        self._answered = 0  # the highest announced seq a wait has already returned for
        self._recheck = False

    def ring(self, seq: int) -> None:
        self._announced = max(self._announced, seq)
        self._bell.set()

    def recheck(self) -> None:
        """Notifications may have been missed (the broker was away): look at the database once more."""
        self._recheck = True
        self._bell.set()

    def _due(self, cursor: int) -> bool:
        # `_answered`: an announced seq that never shows up (its transaction's events were rolled back to a
        # savepoint, say) wakes the subscriber once, not in a loop.
        return self._recheck or self._announced > max(cursor, self._answered)

    async def wait(self, cursor: int, timeout: float) -> str:
        """Return once an event past `cursor` is announced ("announced"), a re-check is asked for
        ("recheck"), or `timeout` passes ("timeout")."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._due(cursor):
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            self._bell.clear()
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow the subscriber's cancellation.
                async with asyncio.timeout(remaining):
                    await self._bell.wait()
            except TimeoutError:
                break
        why = "recheck" if self._recheck else "announced" if self._due(cursor) else "timeout"
        self._recheck = False
        self._answered = max(self._answered, self._announced)
        return why


class Hub:
    """The waiters of this process, by campaign."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[Waiter]] = defaultdict(set)

    @contextmanager
    def watch(self, campaign_id: str) -> Iterator[Waiter]:
        waiter = Waiter()
        self._waiters[campaign_id].add(waiter)
        try:
            yield waiter
        finally:
            waiters = self._waiters.get(campaign_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[campaign_id]

    def deliver(self, campaign_id: str, seq: int) -> None:
        for waiter in self._waiters.get(campaign_id, ()):
            waiter.ring(seq)

    def recheck(self, campaign_id: str) -> None:
        for waiter in self._waiters.get(campaign_id, ()):
            waiter.recheck()

    def recheck_all(self) -> None:
        for campaign_id in self.campaigns():
            self.recheck(campaign_id)

    def campaigns(self) -> list[str]:
        """The campaigns somebody in this process is watching."""
        return list(self._waiters)

    @property
    def watching(self) -> int:
        return sum(len(w) for w in self._waiters.values())
