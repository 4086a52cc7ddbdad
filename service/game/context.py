"""The resources one running service holds: made in the lifespan, passed to every command."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from service.settings import Settings
from service.store.live.base import LiveStore


@dataclass
class Services:
    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker
    live: LiveStore
    # SQLite has one writer at a time; queueing writers here beats "database is locked" retries.
    _sqlite_writer: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One transaction; committed when the block ends without an exception."""
        if self.is_sqlite:
            async with self._sqlite_writer:
                async with self.sessions() as session, session.begin():
                    yield session
        else:
            async with self.sessions() as session, session.begin():
                yield session
