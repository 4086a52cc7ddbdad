"""Writers of one campaign, served in the order they came, one at a time, before they take a connection.

Every move takes its campaign's row lock in the records database, so a campaign's writers run one at a time
wherever they are. Left to the database alone, each waiting writer held a pooled connection while it waited:
32 clients on one table held 30 of the pool's 30 connections, so a read of any other campaign waited for the
pool; and the lock went to the waiters in no useful order, so a move's p99 was over twenty times its median
(benchmarks/README.md). Here a campaign's writers in this process wait in line first
(`Services.write(line=...)`), without a connection, and the line is first come, first served (asyncio's
Lock wakes its waiters in order). Writers in other processes still meet this process's at the row lock,
which stays the guarantee.

The line is named by the campaign id from the URL, before the token is checked: a writer with a bad token
waits in line like any other and is refused in one statement when its turn comes. A line exists only while
someone is in it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class _Line:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Writers waiting or being served: the line is dropped when the last leaves.
    writers: int = 0


class WriterQueue:
    def __init__(self) -> None:
        self._lines: dict[str, _Line] = {}

    @asynccontextmanager
    async def served(self, campaign_id: str) -> AsyncIterator[None]:
        """Waits for this writer's turn at the campaign (the writers before it are done or gone), and holds it
        for the block."""
        line = self._lines.get(campaign_id)
        if line is None:
            line = self._lines[campaign_id] = _Line()
        line.writers += 1
        try:
            async with line.lock:
                yield
        finally:
            line.writers -= 1
            if not line.writers:
                del self._lines[campaign_id]

    def waiting(self, campaign_id: str) -> int:
        """Writers of the campaign in line, the one being served included."""
        line = self._lines.get(campaign_id)
        return line.writers if line else 0

    def __len__(self) -> int:
        return len(self._lines)
