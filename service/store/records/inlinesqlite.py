"""The embedded database's connections, run in the event loop's thread instead of a thread of their own.

aiosqlite gives each connection a thread, and every step of a statement (the cursor, execute, each fetch, the
cursor's close, the commit) is a hop to that thread and back through the event loop. SQLite answers from a local
file in microseconds, so the hops cost more than the statements: a Step Dice move took about 6.5 ms of CPU with
them and 4.6 ms without (800 moves on one table through an in-process client, medians of three). Here a connection
is aiosqlite's, with its work done where it is asked for, except for what can take long:

- A commit waits for the disk (SQLite syncs its write-ahead log): it runs in a worker thread, and the loop serves
  other requests meanwhile.
- A statement that finds the database locked by another connection (a write transaction of this process that is
  waiting on something else, or another process's) is tried again after a pause, giving the loop a turn: SQLite's
  own busy wait would stop the loop, and with it the transaction holding the lock. It gives up after the engine's
  `timeout`, as SQLite's wait would.
- A long run of statements (an import's replay) gives the loop a turn every few milliseconds.

aiosqlite's Connection and Cursor are kept (SQLAlchemy's aiosqlite dialect drives them, and aiosqlite is pinned in
constraints.txt); what changes is where `_execute` runs a call. Plugged in through the dialect's
`async_creator_fn` (service/store/records/db.py).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import aiosqlite

# SQLITE_BUSY and SQLITE_BUSY_RECOVERY: another connection holds the lock, and waiting for it is what SQLite's busy
# handler would do. SQLITE_BUSY_SNAPSHOT is not among them: a read transaction whose snapshot is out of date can never
# write, and SQLite answers it at once, without waiting, as it does here.
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_BUSY_RECOVERY}
# Pauses between tries while the database is locked, growing to the last.
_PAUSES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
# The calls that start a statement (a cursor's), which SQLite's busy wait would have retried.
_STARTS = {"execute", "executemany", "executescript"}
# How long statements may run back to back before the loop gets a turn.
_TURN_SECONDS = 0.005
# pysqlite's own default, when the engine names no timeout.
_DEFAULT_TIMEOUT = 5.0


class _RunAtOnce:
    """Stands in for aiosqlite's queue to its thread, for the calls that reach the queue without `_execute` (its
    `_connect`, `stop`, SQLAlchemy's isolation-level setter): each runs as it is put."""

    def put_nowait(self, item: tuple[asyncio.Future | None, Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except BaseException as e:  # handed to whoever awaits the future, as aiosqlite's thread does
            if future is not None and not future.done():
                future.set_exception(e)
            return
        if future is not None and not future.done():
            future.set_result(result)


class InlineConnection(aiosqlite.Connection):
    def __init__(self, connector: Callable[[], sqlite3.Connection], iter_chunk_size: int, busy_seconds: float):
        super().__init__(connector, iter_chunk_size)
        self._tx = _RunAtOnce()  # type: ignore[assignment]
        self._busy_seconds = busy_seconds
        self._turn_since = time.monotonic()

    def __await__(self):  # aiosqlite starts its thread here; there is none
        return self._connect().__await__()

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        pauses = iter(_PAUSES)
        pause = 0.0
        deadline = None
        while True:
            try:
                result = fn(*args, **kwargs)
            except sqlite3.OperationalError as e:
                # Only a statement's start is tried again: a fetch that failed mid-way cannot be resumed.
                if e.sqlite_errorcode not in _BUSY or getattr(fn, "__name__", "") not in _STARTS:
                    raise
                now = time.monotonic()
                deadline = deadline if deadline is not None else now + self._busy_seconds
                if now >= deadline:
                    raise
                pause = next(pauses, pause)
                await asyncio.sleep(min(pause, deadline - now))
                self._turn_since = time.monotonic()
                continue
            if time.monotonic() - self._turn_since > _TURN_SECONDS:
                await asyncio.sleep(0)
                self._turn_since = time.monotonic()
            return result

    async def commit(self) -> None:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        # The connection is this session's alone until the commit returns, so the worker thread has it to itself;
        # a cancelled caller waits for the commit all the same, lest it use the connection while the thread does.
        done = asyncio.get_running_loop().run_in_executor(None, self._connection.commit)
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            while not done.done():
                try:
                    await asyncio.shield(done)
                except asyncio.CancelledError:
                    pass
            raise
        finally:
            self._turn_since = time.monotonic()


def connect(database: str, *, timeout: float = _DEFAULT_TIMEOUT, iter_chunk_size: int = 64, **kwargs: Any):
    """What SQLAlchemy's aiosqlite dialect calls instead of `aiosqlite.connect`, with the same arguments."""
    # The busy wait is done here, between tries (see the module's docstring); the commit's thread uses the
    # connection after the loop's thread made it.
    kwargs = {**kwargs, "timeout": 0, "check_same_thread": False}

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(database, **kwargs)

    return InlineConnection(connector, iter_chunk_size, busy_seconds=timeout)
