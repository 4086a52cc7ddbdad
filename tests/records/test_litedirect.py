"""The embedded database's reader (service/store/records/litedirect.py): a read-only connection on the same file,
rows answering as asyncpg's do, and none for a database a second connection would not see."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from sqlalchemy import column, select, table, text

from service.store.records import litedirect, pgdirect
from service.store.records.db import JSON_CODEC


@pytest.fixture
def lite(tmp_path):
    path = tmp_path / "lite.db"
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('a', 1), ('b', 2);")
    engine = litedirect.reader_engine(f"sqlite+aiosqlite:///{path}", JSON_CODEC)
    assert engine is not None
    yield engine, path
    engine.dispose()


T = table("t", column("id"), column("n"))


async def test_rows_answer_by_name_by_position_and_as_their_values(lite):
    engine, _ = lite
    async with litedirect.alone(engine) as conn:
        rows = await conn.fetch(pgdirect.Direct(select(T.c.id, T.c.n).order_by(T.c.n)), {})
    assert [(r["id"], r[1], tuple(r), dict(r)) for r in rows] == [
        ("a", 1, ("a", 1), {"id": "a", "n": 1}),
        ("b", 2, ("b", 2), {"id": "b", "n": 2}),
    ]


async def test_more_readers_at_once_than_a_pool_would_hold_all_finish(lite):
    """One connection serves every reader (a pool of them, checked out in the event loop's thread, would stop the
    loop once empty while its holders wait for that loop)."""
    engine, _ = lite
    everything = pgdirect.Direct(select(T.c.id))

    async def read() -> int:
        async with litedirect.alone(engine) as conn:
            first = await conn.fetch(everything, {})
            return len(first) + len(await conn.fetch(everything, {}))

    assert await asyncio.wait_for(asyncio.gather(*(read() for _ in range(40))), 10) == [4] * 40


async def test_each_read_sees_what_was_committed_before_it(lite):
    engine, path = lite
    count = pgdirect.Direct(select(T.c.n).where(T.c.id == "c"))
    async with litedirect.alone(engine) as conn:
        assert await conn.fetch(count, {}) == []
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO t VALUES ('c', 3)")
        assert [r["n"] for r in await conn.fetch(count, {})] == [3]


def test_the_reader_writes_nothing(lite):
    engine, _ = lite
    with engine.connect() as conn, pytest.raises(Exception, match="readonly"):
        conn.execute(text("INSERT INTO t VALUES ('x', 9)"))


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:", "postgresql+asyncpg://u@h/db"])
def test_no_reader_for_a_database_a_second_connection_would_not_see_or_that_is_not_sqlite(url):
    assert litedirect.reader_engine(url, JSON_CODEC) is None
