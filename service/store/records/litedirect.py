"""Reads with no session on the embedded database (SQLite), as pgdirect.Alone serves them on PostgreSQL.

Through an AsyncSession on aiosqlite, every step of a statement (the session's connection, the cursor, execute,
fetch, close, the commit) is a hop to the connection's own thread and back: reading a campaign's row cost about
800 µs of CPU that way against about 40 µs on a plain sqlite3 connection (the same statement, the same file). So
these reads run on a connection of their own, in the event loop's thread, where a read of a local file in WAL
mode takes microseconds and never waits for a writer. The connection is read-only (`PRAGMA query_only`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Row
from sqlalchemy.pool import StaticPool

from service.store.records import pgdirect

# A reader never waits for a writer in WAL mode; only a change of the file's journal or a recovery locks it out,
# and the event loop must not stand still for long while it does: then the request answers 503 (service/game/
# context.py), as it would on any database that cannot be read.
BUSY_SECONDS = 0.5


def reader_engine(url: str, codec: Mapping[str, Any]) -> Engine | None:
    """A synchronous engine on the embedded database's file, for reads: None for an in-memory database, which
    a second connection would not see."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[1].split("?", 1)[0] if "///" in url else ""
    if not path or path.startswith(":memory:") or "mode=memory" in path:
        return None
    # One connection for every reader: each statement runs and ends its transaction without giving the event loop
    # a turn, so readers never overlap on it, and none can wait for a pool's connection while holding the loop.
    engine = create_engine(f"sqlite:///{path}", poolclass=StaticPool, connect_args={"timeout": BUSY_SECONDS}, **codec)

    @event.listens_for(engine, "connect")
    def _read_only(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA query_only=ON")
        cur.close()

    return engine


class Record:
    """A row as asyncpg's Record answers: by column name, by position, and as its values when iterated."""

    __slots__ = ("_row",)

    def __init__(self, row: Row) -> None:
        self._row = row

    def __getitem__(self, key: str | int) -> Any:
        return self._row._mapping[key] if isinstance(key, str) else self._row[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._row)

    def __len__(self) -> int:
        return len(self._row)

    def keys(self) -> Any:
        return self._row._mapping.keys()


class LiteAlone:
    """pgdirect.Alone on a SQLite connection: each statement by itself, no transaction kept open."""

    def __init__(self, connection: Any) -> None:
        self._lite = connection

    async def fetch(self, direct: pgdirect.Direct, params: Mapping[str, Any]) -> list[Any]:
        for hook in pgdirect.STATEMENT_HOOKS:
            hook(direct.sql, direct.args(params))
        # A turn for the event loop first, as an async driver's round trip gives it: without one, a read ran from
        # its request to its reply with no socket read in between, and under 32 connections the p99 rose from
        # about 0.1 to 0.3-2.3 s while the median fell.
        await asyncio.sleep(0)
        try:
            rows = self._lite.execute(direct.statement, dict(params)).all()
        finally:
            # Ends the implicit transaction, so the next read sees what was committed since.
            self._lite.rollback()
        return [Record(row) for row in rows]


@asynccontextmanager
async def alone(engine: Engine) -> AsyncIterator[LiteAlone]:
    with engine.connect() as connection:
        yield LiteAlone(connection)
