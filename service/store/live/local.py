"""The newest tables this process has written or read, kept in its own memory in front of the live store.

A copy counts only for the exact version and per-move tag (`table_token`) the records database holds for
its campaign, which a writer reads under the campaign's lock anyway: another replica's move changes the tag,
so a copy here is never taken for a newer truth. A hit saves a writer the live store's round trip (Redis, or
the embedded store's query) while it holds the lock. Copies are kept as JSON bytes, so no caller can change
another's.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import orjson


class LocalTables:
    def __init__(self, max_entries: int = 2048) -> None:
        self.max_entries = max_entries
        # campaign id -> (version, token, JSON bytes), least recently used first
        self._entries: OrderedDict[str, tuple[int, str, bytes]] = OrderedDict()

    def get(self, campaign_id: str, version: int, token: str) -> dict[str, Any] | None:
        entry = self._entries.get(campaign_id)
        if entry is None or entry[0] != version or entry[1] != token:
            return None
        self._entries.move_to_end(campaign_id)
        return orjson.loads(entry[2])

    def put(self, campaign_id: str, version: int, token: str, table: dict[str, Any]) -> None:
        # Last put wins: an older copy put by a slow reader only costs the next request a live-store lookup.
        self._entries[campaign_id] = (version, token, orjson.dumps(table))
        self._entries.move_to_end(campaign_id)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def drop(self, campaign_id: str) -> None:
        self._entries.pop(campaign_id, None)
