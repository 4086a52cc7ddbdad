"""Live store on the service's own SQL database: the embedded default.

In-flight state lives in one table, `live_entries`, so it survives a restart and needs no
other server. The table is defined on a MetaData the caller passes in (`define_live_entries`)
so the records MetaData, its models and its Alembic migration can include it.

Joining a caller's transaction: `get`, `compare_and_set` and `delete` take an optional
keyword `conn=` (an `AsyncConnection` or `AsyncSession` inside a transaction). With it, the
store runs its statements there and neither commits nor rolls back, so a CAS and, say, an
event-log append commit or roll back together:

    async with engine.begin() as conn:
        version = await live.compare_and_set(key, 3, state, conn=conn)
        await conn.execute(events.insert().values(...))

A VersionConflict leaves that transaction usable: no statement fails on a conflict (creates use
`INSERT ... ON CONFLICT` rather than catching IntegrityError, which on PostgreSQL would abort
the caller's whole transaction).

Expiry uses the injectable wall clock (`time.time`), stored as unix seconds, so it holds across
restarts. Expired rows are invisible at once and removed by the next create of the same key or
by `purge_expired()`.
"""

from __future__ import annotations

import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, Iterable, cast

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    and_,
    bindparam,
    delete,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import CursorResult
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from .base import JSON, Versioned, VersionConflict, check_put, check_write, decode, encode

TABLE_NAME = "live_entries"

# Both dialects we run on have an upsert that can say "insert unless a live row exists".
_INSERTS: dict[str, Callable[[Table], sqlite.Insert | postgresql.Insert]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}

Conn = AsyncConnection | AsyncSession


async def _affected(db: Conn, stmt: UpdateBase, params: dict[str, Any] | None = None) -> int:
    """How many rows a write changed: an INSERT, UPDATE or DELETE answers with a cursor result on either kind of
    connection, though a session's execute() is typed for any statement."""
    return cast(CursorResult[Any], await db.execute(stmt, params)).rowcount


def define_live_entries(metadata: MetaData) -> Table:
    """Define (once) the `live_entries` table on `metadata` and return it."""
    for table in metadata.tables.values():
        if table.name == TABLE_NAME:
            return table
    return Table(
        TABLE_NAME,
        metadata,
        Column("key", Text, primary_key=True),
        # JSON as text: byte-identical round trip on SQLite and PostgreSQL alike.
        Column("value", Text, nullable=False),
        Column("version", Integer, nullable=False),
        Column("expires_at", Float, nullable=True),  # unix seconds; NULL = never
        Index("ix_live_entries_expires_at", "expires_at"),  # for purge_expired()
    )


class SqlLiveStore:
    def __init__(
        self, engine: AsyncEngine, table: Table | None = None, *, clock: Callable[[], float] = time.time
    ) -> None:
        """`table` defaults to one defined on a private MetaData; pass the records one's table
        (from `define_live_entries`) when it exists. The engine belongs to the caller: `close()`
        does not dispose it."""
        dialect = engine.dialect.name
        if dialect not in _INSERTS:
            raise NotImplementedError(f"SqlLiveStore supports sqlite and postgresql, not {dialect}")
        self._engine = engine
        self._insert = _INSERTS[dialect]
        self.table = table if table is not None else define_live_entries(MetaData())
        self._clock = clock
        self._put_newer = self._newer_upsert()

    async def create_table(self) -> None:
        """For tests and tools; the service itself gets the table from the Alembic migration."""
        async with self._engine.begin() as conn:
            await conn.run_sync(self.table.create, checkfirst=True)

    @asynccontextmanager
    async def _conn(self, conn: Conn | None, write: bool) -> AsyncIterator[Conn]:
        if conn is not None:
            yield conn  # the caller's transaction: it decides commit or rollback
        elif write:
            async with self._engine.begin() as own:
                yield own
        else:
            async with self._engine.connect() as own:
                yield own

    def _live(self, now: float) -> Any:
        c = self.table.c
        return or_(c.expires_at.is_(None), c.expires_at > now)

    async def get(self, key: str, *, conn: Conn | None = None) -> Versioned | None:
        c = self.table.c
        query = select(c.value, c.version).where(c.key == key, self._live(self._clock()))
        async with self._conn(conn, write=False) as db:
            row = (await db.execute(query)).first()
        return None if row is None else Versioned(decode(row.value), row.version)

    async def get_many(self, keys: Iterable[str], *, conn: Conn | None = None) -> dict[str, Versioned]:
        keys = list(dict.fromkeys(keys))
        if not keys:
            return {}
        c = self.table.c
        query = select(c.key, c.value, c.version).where(c.key.in_(keys), self._live(self._clock()))
        async with self._conn(conn, write=False) as db:
            rows = (await db.execute(query)).all()
        return {row.key: Versioned(decode(row.value), row.version) for row in rows}

    async def compare_and_set(
        self,
        key: str,
        expected_version: int | None,
        value: JSON,
        ttl: float | None = None,
        *,
        conn: Conn | None = None,
    ) -> int:
        check_write(expected_version, ttl)
        data = encode(value)
        now = self._clock()
        expires_at = None if ttl is None else now + ttl
        c = self.table.c
        stmt: UpdateBase
        if expected_version is None:
            # Insert, or take over the row only if it has expired: one statement, no error to
            # catch, and two racing creators cannot both see "rowcount 1".
            insert = self._insert(self.table).values(key=key, value=data, version=1, expires_at=expires_at)
            stmt = insert.on_conflict_do_update(
                index_elements=[c.key],
                set_={"value": data, "version": 1, "expires_at": expires_at},
                where=and_(c.expires_at.is_not(None), c.expires_at <= now),
            )
        else:
            stmt = (
                update(self.table)
                .where(c.key == key, c.version == expected_version, self._live(now))
                .values(value=data, version=expected_version + 1, expires_at=expires_at)
            )
        async with self._conn(conn, write=True) as db:
            if await _affected(db, stmt) != 1:
                raise VersionConflict(key, expected_version, await self._version(db, key, now))
        return 1 if expected_version is None else expected_version + 1

    async def put_newer(
        self, key: str, version: int, value: JSON, ttl: float | None = None, *, conn: Conn | None = None
    ) -> bool:
        check_put(version, ttl)
        now = self._clock()
        params = {
            "key": key,
            "value": encode(value),
            "version": version,
            "expires_at": None if ttl is None else now + ttl,
            "now": now,
        }
        async with self._conn(conn, write=True) as db:
            return await _affected(db, self._put_newer, params) == 1

    def _newer_upsert(self) -> UpdateBase:
        """put_newer's statement, built once: every move of a campaign writes its live copy with it (building it
        cost as much as running it)."""
        c = self.table.c
        insert = self._insert(self.table).values(
            key=bindparam("key"),
            value=bindparam("value"),
            version=bindparam("version"),
            expires_at=bindparam("expires_at"),
        )
        return insert.on_conflict_do_update(
            index_elements=[c.key],
            set_={
                "value": insert.excluded.value,
                "version": insert.excluded.version,
                "expires_at": insert.excluded.expires_at,
            },
            where=or_(
                c.version < insert.excluded.version, and_(c.expires_at.is_not(None), c.expires_at <= bindparam("now"))
            ),
        )

    async def delete(self, key: str, expected_version: int | None = None, *, conn: Conn | None = None) -> bool:
        now = self._clock()
        c = self.table.c
        stmt = delete(self.table).where(c.key == key, self._live(now))
        if expected_version is not None:
            stmt = stmt.where(c.version == expected_version)
        async with self._conn(conn, write=True) as db:
            if await _affected(db, stmt) == 1:
                return True
            actual = None if expected_version is None else await self._version(db, key, now)
        if actual is None:
            return False
        raise VersionConflict(key, expected_version, actual)

    async def purge_expired(self) -> int:
        """Delete expired rows (housekeeping; they are already invisible). Returns how many."""
        c = self.table.c
        async with self._engine.begin() as db:
            result = await db.execute(delete(self.table).where(c.expires_at <= self._clock()))
        return result.rowcount

    async def _version(self, db: Conn, key: str, now: float) -> int | None:
        c = self.table.c
        return (await db.execute(select(c.version).where(c.key == key, self._live(now)))).scalar()

    async def close(self) -> None:
        pass  # the engine is shared with the records store; its owner disposes it
