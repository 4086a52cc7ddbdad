"""Statements on asyncpg directly, inside the session's own transaction: for the few that every move runs.

SQLAlchemy costs about 110 µs of CPU per statement (cache key, execution context, result wrapping, the
greenlet hop) against about 17 µs for asyncpg alone; a move runs a handful. Here a Core statement is compiled
once, at import, into PostgreSQL's text with `$n` placeholders, and sent on the session's asyncpg connection,
whose statement cache prepares it once per connection. The statement stays defined by the models (a changed
column changes it), runs in the transaction the session opened (BEGIN is sent here when nothing ran before
it), and the session commits or rolls it back as usual. SQLAlchemy keeps everything else, and migrations.

A connection that fails under a direct statement is invalidated in the pool and reported as a ConnectionError:
the request answers 503 with Retry-After, as a failure under SQLAlchemy does (service/game/context.py). A
statement a constraint refuses raises SQLAlchemy's IntegrityError, as it would through SQLAlchemy, so callers
need not know which way it went.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import asyncpg
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_dbapi
from sqlalchemy.dialects.postgresql.asyncpg import dialect as _asyncpg_dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession
from sqlalchemy.util import greenlet_spawn

_DIALECT = _asyncpg_dialect()
_CONNECTION_LOST = (
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.InterfaceError,
    # The protocol out of step, so the connection is unusable: seen on a statement sent right after the server
    # terminated the backend, while the protocol was still consuming the termination's notice.
    asyncpg.exceptions.InternalClientError,
    # The same two, raised through SQLAlchemy's adapter when it sends BEGIN for a direct statement (_driver).
    AsyncAdapt_asyncpg_dbapi.InterfaceError,
    AsyncAdapt_asyncpg_dbapi.InternalClientError,
    asyncpg.exceptions.PostgresConnectionError,
    # The server's own word that it ends the connection (a restart, pg_terminate_backend, a crash), when it arrives
    # while a statement is in flight.
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    ConnectionError,
    OSError,
)


def _connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the connection is gone. SQLAlchemy's adapter, sending BEGIN for a direct statement
    (_driver), translates what asyncpg raised into its own classes by the error's class, and a connection closed in
    the middle of that BEGIN (ConnectionDoesNotExistError, a PostgresError to it) becomes its generic Error: the
    cause it keeps tells. Seen as a 500 in about one run in six after every connection was dropped
    (tests/api/test_reads_alone.py), when the termination had not yet reached the connection's protocol."""
    return isinstance(exc, _CONNECTION_LOST) or (
        isinstance(exc, AsyncAdapt_asyncpg_dbapi.Error) and isinstance(exc.__cause__, _CONNECTION_LOST)
    )


# Called with (sql, args) before each direct statement: SQLAlchemy's `before_cursor_execute` does not see these,
# and the benchmark's yardstick (benchmarks/yardstick.py) records a move's statements through both.
STATEMENT_HOOKS: list[Callable[[str, Sequence[Any]], None]] = []


class Direct:
    """One Core statement, compiled once for asyncpg (or `dialect`: litedirect.py prepares the same statements for
    SQLite): its text, and its parameters' names in the order the driver takes them."""

    def __init__(self, statement: Any, dialect: Any = None) -> None:
        compiled = self.compiled = statement.compile(dialect=dialect or _DIALECT)
        self.statement = statement  # as it is, for another database's reader (litedirect.py)
        self.sql: str = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.fixed: dict[str, Any] = dict(compiled.params)  # values the statement carries (a literal status)

    def args(self, params: Mapping[str, Any]) -> list[Any]:
        return [params[name] if name in params else self.fixed[name] for name in self.names]


def on_postgres(s: AsyncSession) -> bool:
    return s.bind is not None and engine_on_postgres(s.bind)


def engine_on_postgres(engine: AsyncEngine | AsyncConnection) -> bool:
    return engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg"


async def _driver(conn: AsyncConnection, begin: bool = True) -> asyncpg.Connection:
    # The pooled connection the session holds, as `get_raw_connection` returns it. That call starts a greenlet (about
    # 8 us of CPU here, a frame stack mapped and unmapped) in case the connection must be re-established, which a
    # connection the session has just handed out never needs: only when it has none is the call made. A move ran two
    # such greenlets of its seven.
    raw: Any = conn.sync_connection._dbapi_connection if conn.sync_connection is not None else None
    if raw is None:
        raw = await conn.get_raw_connection()
    adapted: Any = raw.dbapi_connection  # SQLAlchemy's asyncpg adapter
    # SQLAlchemy's adapter sends BEGIN with the first statement of a transaction; here it may be the first.
    if begin and adapted._transaction is None and adapted.isolation_level != "autocommit":
        await adapted._start_transaction()
    return adapted._connection


async def fetch(
    s: AsyncSession, direct: Direct, params: Mapping[str, Any], *, begin: bool = True
) -> list[asyncpg.Record]:
    """The statement's rows. `begin=False`, for a lone read: when nothing has run in the session yet, the
    statement runs by itself, without BEGIN and ROLLBACK around it (two round trips); whatever runs after it
    through SQLAlchemy opens the transaction as usual."""
    conn = await s.connection()
    args = direct.args(params)
    for hook in STATEMENT_HOOKS:
        hook(direct.sql, args)
    try:
        return await (await _driver(conn, begin)).fetch(direct.sql, *args)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(direct.sql, args, exc) from exc
    except Exception as exc:
        if not _connection_lost(exc):
            raise
        await _lost(conn, exc)
        raise ConnectionError(f"records database connection lost: {type(exc).__name__}") from exc


async def _lost(conn: AsyncConnection, exc: BaseException) -> None:
    """As SQLAlchemy does when one of its own statements finds the connection gone: this connection is dropped and
    every other the pool opened before now is replaced at its next checkout, since a database that restarted
    dropped them all (else each would fail one request of its own)."""
    raw = await conn.get_raw_connection()
    raw._pool._invalidate(raw, exc, _checkin=False)
    await conn.invalidate()


class Alone(Protocol):
    """A connection for reads whose statements answer the request by themselves, with no session, no transaction
    and no ORM (service/game/context.py: Services.alone): a view of the table kept in this process, a page of the
    log, a campaign, its characters. A session's set-up, checkout and close cost such a read about as much CPU as
    the rest of it did. Each statement stands alone (no snapshot is shared); its rows answer by column name, by
    position, and as their values when iterated, as asyncpg's Records do.

    On PostgreSQL: `PgAlone` (here); on an embedded database in a file: litedirect.py; on an in-memory one, which a
    connection of its own would not see: insession.py."""

    async def fetch(self, direct: Direct, params: Mapping[str, Any]) -> Sequence[Any]: ...


class PgAlone:
    """`Alone` on a pooled asyncpg connection, taken from SQLAlchemy's pool with no session around it."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def fetch(self, direct: Direct, params: Mapping[str, Any]) -> list[asyncpg.Record]:
        args = direct.args(params)
        for hook in STATEMENT_HOOKS:
            hook(direct.sql, args)
        return await self._connection.fetch(direct.sql, *args)


class Lender:
    """Pooled connections for lone reads (`Alone`), kept here from one read to the next instead of going back to
    SQLAlchemy's pool after each.

    Taking a connection from the pool and giving it back cost a read 29 µs of CPU here (a greenlet each way, about
    8 µs apiece as each maps a frame stack of its own, and the pool's bookkeeping; 2 µs when kept here), a tenth of
    a GET …/state served from a kept view (service/game/log/views.py): served on PostgreSQL + Redis under wrk over
    32 tables, six runs alternating with the pool's way, 0.32-0.42 ms of server CPU per read (median 0.36) against
    0.37-0.44 (0.41). A connection kept here goes to the next read as it is: a pop from a list.

    At most `keep` are kept (by default a quarter of the pool), so reads never hold more of the pool idle; a read that
    finds none kept takes one from the pool, and one that finds `keep` kept already gives its own back. A read that
    fails in any way gives its connection back to the pool, which resets it, as before; one that finds the connection
    gone also invalidates it and every other opened before then, so a kept connection the pool has since invalidated
    (a database restart drops them all) is given back when next taken, not used: one read is refused, not one per kept
    connection.
    `close` gives every kept connection back, before the engine is disposed of."""

    def __init__(self, engine: AsyncEngine, keep: int | None = None) -> None:
        self._engine = engine
        self.keep = max(1, engine.pool.size() // 4) if keep is None else keep  # type: ignore[attr-defined]
        self._kept: list[Any] = []
        self._closed = False

    @property
    def kept(self) -> int:
        return len(self._kept)

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[PgAlone]:
        raw = await self._take()
        try:
            adapted: Any = raw.dbapi_connection  # SQLAlchemy's asyncpg adapter; nothing here begins a transaction
            yield PgAlone(adapted._connection)
        except BaseException as exc:
            if isinstance(exc, Exception) and _connection_lost(exc):
                await greenlet_spawn(raw._pool._invalidate, raw, exc)
                await greenlet_spawn(raw.close)
                raise ConnectionError(f"records database connection lost: {type(exc).__name__}") from exc
            # Back to the pool, through its reset (a rollback of nothing here), which may await the driver.
            await greenlet_spawn(raw.close)
            raise
        if self._closed or len(self._kept) >= self.keep:
            await greenlet_spawn(raw.close)
        else:
            self._kept.append(raw)

    async def _take(self) -> Any:
        while self._kept:
            raw = self._kept.pop()
            record = raw._connection_record
            if record is not None and raw.is_valid and not record._is_hard_or_soft_invalidated():
                return raw
            await greenlet_spawn(raw.close)  # the pool opens it again at a later checkout
        return await self._engine.raw_connection()

    async def close(self) -> None:
        self._closed = True
        while self._kept:
            await greenlet_spawn(self._kept.pop().close)


async def execute(s: AsyncSession, sql: str, args: Sequence[Any]) -> None:
    conn = await s.connection()
    for hook in STATEMENT_HOOKS:
        hook(sql, args)
    try:
        await (await _driver(conn)).execute(sql, *args)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(sql, args, exc) from exc
    except Exception as exc:
        if not _connection_lost(exc):
            raise
        await _lost(conn, exc)
        raise ConnectionError(f"records database connection lost: {type(exc).__name__}") from exc
