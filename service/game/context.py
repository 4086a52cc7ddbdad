"""The resources one running service holds: made in the lifespan, passed to every command."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from service.game.log.events import appended, last_seqs
from service.game.webhooks import outbox
from service.game.errors import GameError
from service.game.log.views import Views
from service.game.moves.queue import WriterQueue
from service.i18n.message import _
from service.notify import LocalNotifier, Notifier
from service.settings import Settings
from service.store.live.base import LiveStore
from service.store.live.local import LocalTables
from service.store.records import litedirect, pgdirect
from service.store.records.insession import InSession

log = logging.getLogger("rulekeeper")


@dataclass
class Services:
    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker
    live: LiveStore
    # Tells subscribers, after each commit, which campaigns have new events.
    notifier: Notifier = field(default_factory=LocalNotifier)
    # SQLite has one writer at a time; queueing writers here beats "database is locked" retries.
    _sqlite_writer: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Set when a transaction committed webhook deliveries, so the delivery worker need not wait for its poll.
    deliveries_due: asyncio.Event = field(default_factory=asyncio.Event)
    # This process's copies of the newest tables, in front of `live` (service/store/live/local.py).
    local_tables: LocalTables = field(default_factory=LocalTables)
    # The newest tables as each viewer sees them (service/game/log/views.py).
    views: Views = field(default_factory=Views)
    # A campaign's writers in this process, in line before they take a connection (service/game/moves/queue.py).
    writers: WriterQueue = field(default_factory=WriterQueue)
    # On an embedded database in a file: a synchronous engine for the reads that need no session (`alone`).
    reader: Engine | None = None
    # On PostgreSQL: the connections those reads take, kept between reads (pgdirect.Lender).
    lender: pgdirect.Lender | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.reader is None and pgdirect.engine_on_postgres(self.engine):
            self.lender = pgdirect.Lender(self.engine)

    async def close(self) -> None:
        """Gives back what the service holds of the engine's pool; before the engine is disposed of."""
        if self.lender is not None:
            await self.lender.close()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        with unavailable_as_503():
            async with self.sessions() as session:
                yield session

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[pgdirect.Alone]:
        """A connection with no session, for reads whose statements answer by themselves (pgdirect.Alone): on
        PostgreSQL a pooled asyncpg connection, on an embedded database in a file a read-only sqlite3 connection
        (litedirect.py); an in-memory database, which no second connection sees, is read through a session."""
        with unavailable_as_503():
            if self.reader is not None:
                async with litedirect.alone(self.reader) as lite:
                    yield lite
            elif self.lender is not None:
                async with self.lender.alone() as conn:
                    yield conn
            else:
                async with self.sessions() as session:
                    yield InSession(session)

    @asynccontextmanager
    async def write(self, line: str | None = None) -> AsyncIterator[AsyncSession]:
        """One transaction; committed when the block ends without an exception, with the webhook deliveries
        of the events it appended. Only after the commit are subscribers told of those events: a rolled-back
        move is never announced.

        `line`: the campaign whose writers in this process take turns (service/game/moves/queue.py). The turn
        is taken before a connection and given up at the commit: the next writer need not wait for this one's
        copy into the live store, which `put_newer` keeps from covering a newer table."""
        async with AsyncExitStack() as turn:
            if line is not None:
                await turn.enter_async_context(self.writers.served(line))
            with unavailable_as_503():
                if self.is_sqlite:
                    await turn.enter_async_context(self._sqlite_writer)
                async with self.sessions() as session, session.begin():
                    if not self.is_sqlite:  # on SQLite the live copy is made inside the transaction
                        session.info[AFTER_COMMIT] = []
                    yield session
                    records = appended(session)
                    await outbox.enqueue(session, records, self.deliveries_due)
        for campaign_id, seq in last_seqs(records).items():
            self.notifier.announce(campaign_id, seq)
        for after in session.info.pop(AFTER_COMMIT, ()):
            await after()


# session.info key: what a `write()` block left to do once its transaction has committed (a list of coroutine
# functions), such as copying the table to Redis (service/game/log/tables.py). Absent outside `write()`.
AFTER_COMMIT = "rulekeeper.after_commit"

RETRY_AFTER_SECONDS = 1


def is_unavailable(exc: BaseException) -> bool:
    """The records database could not be reached or dropped the connection: nothing was committed
    (or, if the commit went through before the drop, an Idempotency-Key retry finds its reply)."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(
        exc, (OperationalError, InterfaceError, sa_exc.TimeoutError, ConnectionError, OSError, TimeoutError)
    )


@contextmanager
def unavailable_as_503() -> Iterator[None]:
    try:
        yield
    except GameError:
        raise
    except Exception as exc:
        if not is_unavailable(exc):
            raise
        log.warning("records database unavailable: %s", type(exc).__name__)
        raise GameError(
            503,
            "service_unavailable",
            _("the service's database is unreachable; nothing was changed, retry shortly"),
            extra={"retry_after": RETRY_AFTER_SECONDS},
        ) from None
