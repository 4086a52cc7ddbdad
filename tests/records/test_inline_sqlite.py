"""The embedded database's connections run in the event loop's thread (service/store/records/inlinesqlite.py): no
thread per connection, a commit in a worker thread, a locked database waited for without stopping the loop, and a
long run of statements that lets the loop take turns."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from service.store.records import inlinesqlite
from service.store.records.db import make_engine


@pytest.fixture
async def engine(tmp_path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/inline.db")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE notes (n INTEGER)"))
    yield engine
    await engine.dispose()


class Ticker:
    """Counts the event loop's turns while it runs: a loop stopped by a statement counts none."""

    def __init__(self) -> None:
        self.turns = 0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        while True:
            self.turns += 1
            await asyncio.sleep(0.001)

    async def __aenter__(self) -> Ticker:
        self._task = asyncio.create_task(self._tick())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc) -> None:
        assert self._task is not None
        self._task.cancel()


async def count(engine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(text("SELECT count(*) FROM notes"))).scalar_one()


async def test_statements_run_without_a_thread_per_connection(engine):
    before = {t.ident for t in threading.enumerate()}
    loop_thread = threading.get_ident()
    where: list[int] = []
    async with engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        raw._conn.create_function("where_am_i", 0, lambda: where.append(threading.get_ident()) or 1)
        await conn.execute(text("SELECT where_am_i()"))
    assert isinstance(raw, inlinesqlite.InlineConnection)
    assert where == [loop_thread]
    # aiosqlite would have started a thread for the connection; the commit's worker thread is the loop's executor's.
    assert not [t for t in threading.enumerate() if t.ident not in before and "asyncio" not in t.name]


async def test_a_commit_runs_in_a_worker_thread_and_the_statements_in_the_loops(engine):
    loop_thread = threading.get_ident()
    seen: list[tuple[str, int]] = []
    async with engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        raw._conn.set_trace_callback(lambda sql: seen.append((sql.split()[0].upper(), threading.get_ident())))
        await conn.execute(text("INSERT INTO notes VALUES (1)"))
        await conn.commit()
        raw._conn.set_trace_callback(None)
    (insert,) = [ident for sql, ident in seen if sql == "INSERT"]
    (commit,) = [ident for sql, ident in seen if sql == "COMMIT"]
    assert insert == loop_thread
    assert commit != loop_thread
    assert await count(engine) == 1


async def test_a_write_waits_for_another_transactions_lock_while_the_loop_goes_on(engine):
    """Two transactions of this process: the first holds the write lock across an await; the second's insert,
    on another connection, waits for it. SQLite's own busy wait would stop the loop, and the first transaction
    could then never commit."""
    first_holds = asyncio.Event()

    async def first() -> None:
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO notes VALUES (1)"))
            first_holds.set()
            await asyncio.sleep(0.2)

    async def second() -> float:
        await first_holds.wait()
        started = time.monotonic()
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO notes VALUES (2)"))
        return time.monotonic() - started

    async with Ticker() as ticker:
        _, waited = await asyncio.gather(first(), second())
    assert waited >= 0.1  # it did wait for the first transaction's commit
    assert ticker.turns >= 10  # and the loop went on meanwhile (a turn a millisecond when idle; none if stopped)
    assert await count(engine) == 2


async def test_a_lock_held_by_another_process_is_waited_for_while_the_loop_goes_on(tmp_path):
    path = tmp_path / "locked.db"
    with sqlite3.connect(path) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE notes (n INTEGER)")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process's writer, holding the lock
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        # Released after 0.3 s: the insert waits, then goes through.
        threading.Timer(0.3, other.rollback).start()
        started = time.monotonic()
        async with Ticker() as ticker, engine.begin() as conn:
            await conn.execute(text("INSERT INTO notes VALUES (1)"))
        assert time.monotonic() - started >= 0.25
        assert ticker.turns >= 10
    finally:
        await engine.dispose()
        other.close()


async def test_a_lock_held_past_the_timeout_is_the_databases_locked_error(tmp_path):
    path = tmp_path / "locked.db"
    with sqlite3.connect(path) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE notes (n INTEGER)")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    engine = make_engine(f"sqlite+aiosqlite:///{path}", busy_seconds=0.2)
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError, match="database is locked"):
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO notes VALUES (1)"))
        assert 0.2 <= time.monotonic() - started < 2
    finally:
        await engine.dispose()
        other.rollback()
        other.close()


async def test_a_long_run_of_statements_gives_the_loop_turns(engine):
    async with Ticker() as ticker:
        async with engine.begin() as conn:
            for n in range(3000):
                await conn.execute(text("INSERT INTO notes VALUES (:n)"), {"n": n})
            turns = ticker.turns  # before the commit, which gives the loop a turn of its own
    assert turns >= 3
    assert await count(engine) == 3000


async def test_a_cancelled_commit_is_waited_for_before_the_connection_is_used_again(tmp_path):
    class SlowCommit(sqlite3.Connection):
        def commit(self) -> None:
            time.sleep(0.2)  # a slow disk
            super().commit()

    conn = await inlinesqlite.connect(str(tmp_path / "slow.db"), factory=SlowCommit)
    try:
        await conn.execute("CREATE TABLE notes (n INTEGER)")
        await conn.execute("INSERT INTO notes VALUES (1)")
        committing = asyncio.create_task(conn.commit())
        await asyncio.sleep(0.05)
        started = time.monotonic()
        committing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await committing
        assert time.monotonic() - started >= 0.1  # the commit, still in its thread, was waited for
        async with conn.execute("SELECT count(*) FROM notes") as cursor:
            assert await cursor.fetchone() == (1,)
    finally:
        await conn.close()


async def test_a_fetch_that_finds_the_database_locked_is_not_tried_again(tmp_path, monkeypatch):
    """Only a statement's start is: a fetch that failed part-way through its rows cannot be resumed."""
    conn = await inlinesqlite.connect(str(tmp_path / "fetch.db"))
    calls = []

    def locked_fetch() -> None:
        calls.append(1)
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = sqlite3.SQLITE_BUSY
        raise error

    try:
        with pytest.raises(sqlite3.OperationalError):
            await conn._execute(locked_fetch)
        assert calls == [1]
    finally:
        await conn.close()
