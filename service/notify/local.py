"""The embedded default: writers and subscribers live in one process, so the hub is the whole broker."""
from __future__ import annotations

from contextlib import AbstractContextManager

from .hub import Hub, Waiter


class LocalNotifier:
    """Announces committed events to this process's subscribers only. Writers in other processes (more
    uvicorn workers on one SQLite file) are seen at the subscribers' safety re-check."""

    def __init__(self) -> None:
        self.hub = Hub()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    def announce(self, campaign_id: str, seq: int) -> None:
        """Called after a transaction that appended events to `campaign_id`, up to `seq`, has committed."""
        self.hub.deliver(campaign_id, seq)

    def watch(self, campaign_id: str) -> AbstractContextManager[Waiter]:
        return self.hub.watch(campaign_id)
