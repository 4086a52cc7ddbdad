"""Reads with no session on the embedded database (SQLite), as pgdirect.Alone serves them on PostgreSQL.

Through an AsyncSession on aiosqlite, every step of a statement (the session's connection, the cursor, execute,
fetch, close, the commit) is a hop to the connection's own thread and back: reading a campaign's row cost about
800 µs of CPU that way against about 40 µs on a plain sqlite3 connection (the same statement, the same file). So
these reads run on a connection of their own, in the event loop's thread, where a read of a local file in WAL
mode takes microseconds and never waits for a writer. The connection is read-only (`PRAGMA query_only`).
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Dialect, Result
from sqlalchemy.exc import DBAPIError
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

    __slots__ = ("_values", "_index")

    def __init__(self, values: tuple[Any, ...], index: Mapping[str, int]) -> None:
        self._values = values
        self._index = index

    def __getitem__(self, key: str | int) -> Any:
        return self._values[self._index[key]] if isinstance(key, str) else self._values[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> Any:
        return self._index.keys()

    @staticmethod
    def every(result: Result[Any]) -> list[Record]:
        """The rows of a statement SQLAlchemy executed."""
        index = {key: i for i, key in enumerate(result.keys())}
        return [Record(tuple(row), index) for row in result]


class _Prepared(pgdirect.Direct):
    """A statement compiled once for SQLite and run on the sqlite3 connection itself: its text and its parameters
    in order (as pgdirect.Direct has them for asyncpg), each parameter through its type's bind processor, and each
    result column through its type's result processor, the very converters SQLAlchemy's execution applies
    (datetimes, JSON), taken from the compiled statement. What is left out is SQLAlchemy's execution context and
    result objects, built for every read: about a quarter of the samples of `GET .../state` served from the
    embedded database (in process, its CPU per request fell from 0.70 to 0.60 ms, the client's included)."""

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        super().__init__(statement, dialect)
        self.binds = self.compiled._bind_processors
        columns = self.compiled._result_columns
        self.index: dict[str, int] = {c.keyname: i for i, c in enumerate(columns)}
        self.procs = [c.type._cached_result_processor(dialect, None) for c in columns]

    @staticmethod
    def of(statement: Any, dialect: Dialect) -> _Prepared | None:
        """None for what this does not handle (a parameter rendered at execution, such as a list expanded into
        an IN; a statement whose columns SQLAlchemy does not describe): SQLAlchemy's own execution runs those."""
        prepared = _Prepared(statement, dialect)
        compiled = prepared.compiled
        if compiled.post_compile_params or compiled.literal_execute_params or not compiled._result_columns:
            return None
        return prepared

    def args(self, params: Mapping[str, Any]) -> list[Any]:
        binds = self.binds
        return [
            value if value is None or name not in binds else binds[name](value)
            for name, value in zip(self.names, super().args(params))
        ]

    def rows(self, cursor: sqlite3.Cursor) -> list[Record]:
        if cursor.description is None or len(cursor.description) != len(self.procs):
            raise RuntimeError(f"{self.sql!r} answered other columns than it was compiled with")
        procs = self.procs
        index = self.index
        return [
            Record(tuple(v if p is None or v is None else p(v) for p, v in zip(procs, row)), index)
            for row in cursor.fetchall()
        ]


# Each reader engine's dialect (one per app) with the statements prepared for it; None where SQLAlchemy runs one.
_PREPARED: weakref.WeakKeyDictionary[Dialect, dict[pgdirect.Direct, _Prepared | None]] = weakref.WeakKeyDictionary()


def _prepared(direct: pgdirect.Direct, dialect: Dialect) -> _Prepared | None:
    known = _PREPARED.setdefault(dialect, {})
    if direct not in known:
        known[direct] = _Prepared.of(direct.statement, dialect)
    return known[direct]


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
        prepared = _prepared(direct, self._lite.dialect)
        try:
            if prepared is not None:
                raw = self._lite.connection.dbapi_connection
                args = prepared.args(params)
                try:
                    return prepared.rows(raw.execute(prepared.sql, args))
                except sqlite3.Error as e:
                    # As SQLAlchemy's execution raises it: a locked database is its OperationalError, a 503.
                    raise DBAPIError.instance(prepared.sql, args, e, sqlite3.Error) from e
            return Record.every(self._lite.execute(direct.statement, dict(params)))
        finally:
            # Ends the implicit transaction, so the next read sees what was committed since.
            self._lite.rollback()


@asynccontextmanager
async def alone(engine: Engine) -> AsyncIterator[LiteAlone]:
    with engine.connect() as connection:
        yield LiteAlone(connection)
