"""pgdirect.Alone through a session, for an in-memory embedded database: a connection of its own, as
litedirect.py opens on a database in a file, would see another, empty database. With it every read that runs with
no session elsewhere has the one path on every backend (service/game/context.py: Services.alone)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from service.store.records import pgdirect
from service.store.records.litedirect import Record


class InSession:
    """Each statement on the session's connection; the session (and whatever transaction the driver began)
    ends with the `Services.alone()` block."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def fetch(self, direct: pgdirect.Direct, params: Mapping[str, Any]) -> list[Record]:
        for hook in pgdirect.STATEMENT_HOOKS:
            hook(direct.sql, direct.args(params))
        return Record.every(await (await self._session.connection()).execute(direct.statement, dict(params)))
