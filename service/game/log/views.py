"""The newest table as each viewer sees it, kept in this process: a read of the table is then the campaign's
row (the token check reads it anyway) and a lookup here, with no live-store round trip and no view computed.

A view counts only for the exact version and per-move tag (`table_token`) the records database holds for the
campaign, the same characters at the same sheet versions and the same options: a move anywhere (any replica)
changes the tag, a sheet edit its version, so a view here is never taken for a newer truth. Viewers are told
apart by role, player and characters, which is all `SYSTEM.view` reads of the caller. Views are kept as JSON
bytes, so no caller can change another's. The moves' names (`moves`) are in them; deadlines are not: they are
added per read.

A campaign's views are kept for at most `max_age` seconds from the read that loaded its table through the
live store (the live store's idle TTL): a table that went idle and expired there is then loaded, so put back,
by the next read, as it would be without this cache.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import orjson

from service.rules.base import Actor
from service.store.records.models import CharacterRow

_Stamp = tuple[int, str, tuple[tuple[str, int, str | None], ...], bytes]


class Row(Protocol):
    """What a kept view is checked against: the campaign's row, as an ORM instance (a move, a read through a
    session) or as plain values (a read's first look, service/game/moves/access.py `read_alone`)."""

    @property
    def id(self) -> str: ...

    @property
    def table_version(self) -> int: ...

    @property
    def table_token(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]: ...


class Views:
    def __init__(self, max_campaigns: int = 2048) -> None:
        self.max_campaigns = max_campaigns
        # campaign id -> (stamp, when its table was loaded, {viewer: JSON bytes}), least recently used first
        self._entries: OrderedDict[str, tuple[_Stamp, float, dict[Actor, bytes]]] = OrderedDict()

    @staticmethod
    def _stamp(campaign: Row, characters: Iterable[CharacterRow]) -> _Stamp:
        sheets = tuple(sorted((c.id, c.version, c.player_id) for c in characters))
        return (
            campaign.table_version,
            campaign.table_token,
            sheets,
            orjson.dumps(campaign.options, option=orjson.OPT_SORT_KEYS),
        )

    def kept(self, campaign: Row, characters: list[CharacterRow], viewer: Actor, max_age: float) -> bytes | None:
        """The viewer's view of the table at the campaign's current version when one is kept here, as its JSON
        bytes (a REST reply splices them in as they are), else None."""
        entry = self._current(campaign, characters, max_age)
        hit = entry[2].get(viewer) if entry is not None else None
        if hit is None:
            return None
        self._entries.move_to_end(campaign.id)
        return hit

    async def view(
        self,
        campaign: Row,
        characters: list[CharacterRow],
        viewer: Actor,
        compute: Callable[[], Awaitable[dict[str, Any]]],
        max_age: float,
    ) -> dict[str, Any]:
        """The viewer's view of the table at the campaign's current version: from here, or `compute()`d and kept."""
        entry = self._current(campaign, characters, max_age)
        if entry is not None:
            self._entries.move_to_end(campaign.id)
            hit = entry[2].get(viewer)
            if hit is not None:
                return orjson.loads(hit)
        else:
            entry = (self._stamp(campaign, characters), time.monotonic(), {})
            self._entries[campaign.id] = entry
            while len(self._entries) > self.max_campaigns:
                self._entries.popitem(last=False)
        seen = await compute()
        entry[2][viewer] = orjson.dumps(seen, option=orjson.OPT_NON_STR_KEYS)
        return seen

    def _current(
        self, campaign: Row, characters: list[CharacterRow], max_age: float
    ) -> tuple[_Stamp, float, dict[Actor, bytes]] | None:
        """The campaign's entry if it holds views of this very table and is young enough."""
        entry = self._entries.get(campaign.id)
        if (
            entry is not None
            and entry[0] == self._stamp(campaign, characters)
            and time.monotonic() - entry[1] < max_age
        ):
            return entry
        return None
