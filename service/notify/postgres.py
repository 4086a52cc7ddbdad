"""Announcements shared by every service process through PostgreSQL's LISTEN/NOTIFY, when there is no Redis
(how, and what a lost connection costs: broadcast.py). The notifications are sent with `pg_notify` on the
listening connection itself, so a process holds one connection for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg
from sqlalchemy.engine import make_url

from .broadcast import MAX_BACKOFF_SECONDS, BroadcastNotifier
from .local import SWEEP_SECONDS

log = logging.getLogger("rulekeeper")

CHANNEL = "rk_events"
CONNECT_TIMEOUT_SECONDS = 3.0


def asyncpg_dsn(database_url: str) -> str:
    """The libpq-style DSN asyncpg takes, from the service's SQLAlchemy URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PostgresNotifier(BroadcastNotifier):
    broker = "PostgreSQL"
    # A failed send drops the connection (`_lost`); the listener's reconnect carries the backoff, and sending
    # waits for it (`_ready_to_send`).
    max_send_backoff = 0.1

    def __init__(self, database_url: str, channel: str = CHANNEL, sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__(channel, sweep_seconds)
        self._dsn = asyncpg_dsn(database_url)
        self._conn: asyncpg.Connection | None = None
        self._gone = asyncio.Event()

    async def close(self) -> None:
        if self._conn is not None:
            await self._send_what_is_left()
        await super().close()  # the listening task closes its connection as it ends

    async def _ready_to_send(self) -> None:
        await self.subscribed.wait()  # sent on the listening connection, once it is up

    async def _send(self, batch: dict[str, int]) -> None:
        conn = self._conn
        if conn is None:
            raise ConnectionError("the listening connection is not up")
        try:
            await conn.executemany(
                "SELECT pg_notify($1, $2)", [(self._channel, self._message(cid, seq)) for cid, seq in batch.items()]
            )
        except Exception:
            self._lost(conn)
            raise

    def _heard_on(self, _conn, _pid, _channel, payload: str) -> None:
        self._heard(payload)

    def _lost(self, conn: asyncpg.Connection | None) -> None:
        if conn is not None and conn is self._conn:
            self.subscribed.clear()
            self._gone.set()

    async def _listen(self) -> None:
        backoff = 0.1
        while True:
            self._gone = asyncio.Event()
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT_SECONDS)
                conn.add_termination_listener(lambda c: self._lost(c))
                await conn.add_listener(self._channel, self._heard_on)
                self._conn = conn
                self.listening()
                backoff = 0.1
                await self._gone.wait()
                log.warning("PostgreSQL event channel lost; subscribers re-check every few seconds until it is back")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if backoff == 0.1:
                    log.warning(
                        "could not listen for event notifications on PostgreSQL (%s); retrying", type(exc).__name__
                    )
            finally:
                self.subscribed.clear()
                if conn is self._conn and conn is not None:
                    self._conn = None
                    with contextlib.suppress(Exception):
                        conn.terminate()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
