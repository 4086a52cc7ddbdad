"""Announcements shared by every service process through PostgreSQL's LISTEN/NOTIFY, when there is no Redis.

As with Redis (redis.py), each process holds one connection of its own (not one per subscriber), LISTENs on
one channel and hands what it hears to its hub; a writer's announcement reaches its own process's
subscribers at once and the others through `pg_notify`, sent on that connection by a background task after
the move's transaction has committed, so the notification never holds up a move. The connection lost: moves
go on, the sweep (see LocalNotifier) still finds other processes' moves, announcements wait to be sent, and
once it is back every subscriber of the process re-checks at once.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

import asyncpg
from sqlalchemy.engine import make_url

from .local import SWEEP_SECONDS, LocalNotifier, Probe

log = logging.getLogger("rulekeeper")

CHANNEL = "rk_events"
MAX_BACKOFF_SECONDS = 5.0
CONNECT_TIMEOUT_SECONDS = 3.0


def asyncpg_dsn(database_url: str) -> str:
    """The libpq-style DSN asyncpg takes, from the service's SQLAlchemy URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PostgresNotifier(LocalNotifier):
    def __init__(self, database_url: str, channel: str = CHANNEL, sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__(sweep_seconds)
        self._dsn = asyncpg_dsn(database_url)
        self._channel = channel
        # Our own notifications come back to us; the hub already has them.
        self._origin = uuid.uuid4().hex
        # campaign -> highest seq not yet sent; one entry per campaign however many moves wait.
        self._outbox: dict[str, int] = {}
        self._kick = asyncio.Event()
        self._conn: asyncpg.Connection | None = None
        self._gone = asyncio.Event()
        self.subscribed = asyncio.Event()

    async def start(self, probe: Probe | None = None) -> None:
        await super().start(probe)
        self._tasks += [asyncio.create_task(self._listen(), name="rulekeeper-notify-listen"),
                        asyncio.create_task(self._publish(), name="rulekeeper-notify-publish")]

    async def close(self) -> None:
        conn = self._conn
        if conn is not None and self._outbox:   # best effort: the other processes' sweep finds what is left
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send(conn, self._outbox), 1)
        await super().close()                   # the listening task closes its connection as it ends

    def announce(self, campaign_id: str, seq: int) -> None:
        super().announce(campaign_id, seq)
        self._outbox[campaign_id] = max(seq, self._outbox.get(campaign_id, 0))
        self._kick.set()

    async def _send(self, conn: asyncpg.Connection, batch: dict[str, int]) -> None:
        await conn.executemany("SELECT pg_notify($1, $2)",
                               [(self._channel, f"{self._origin}:{cid}:{seq}") for cid, seq in batch.items()])

    async def _publish(self) -> None:
        while True:
            await self._kick.wait()
            self._kick.clear()
            while self._outbox:
                await self.subscribed.wait()    # sent on the listening connection, once it is up
                conn = self._conn
                batch, self._outbox = self._outbox, {}
                try:
                    await self._send(conn, batch)
                except Exception as exc:
                    log.warning("could not send event notifications through PostgreSQL (%s); retrying",
                                type(exc).__name__)
                    for campaign_id, seq in batch.items():
                        self._outbox[campaign_id] = max(seq, self._outbox.get(campaign_id, 0))
                    self._lost(conn)
                    await asyncio.sleep(0.1)

    def _heard(self, _conn, _pid, _channel, payload: str) -> None:
        origin, _, rest = payload.partition(":")
        campaign_id, _, seq = rest.rpartition(":")
        if origin == self._origin or not campaign_id or not seq.isdigit():
            return
        self.hub.deliver(campaign_id, int(seq))

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
                await conn.add_listener(self._channel, self._heard)
                self._conn = conn
                # Listening (again): whatever was announced while we were away is lost, so every subscriber
                # looks again.
                self.subscribed.set()
                self.hub.recheck_all()
                backoff = 0.1
                await self._gone.wait()
                log.warning("PostgreSQL event channel lost; subscribers re-check every few seconds until it is back")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if backoff == 0.1:
                    log.warning("could not listen for event notifications on PostgreSQL (%s); retrying",
                                type(exc).__name__)
            finally:
                self.subscribed.clear()
                if conn is self._conn and conn is not None:
                    self._conn = None
                    with contextlib.suppress(Exception):
                        conn.terminate()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
