"""The embedded database's reader (service/store/records/litedirect.py): a read-only connection on the same file,
rows answering as asyncpg's do, and none for a database a second connection would not see."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    bindparam,
    column,
    create_engine,
    select,
    table,
    text,
)
from sqlalchemy.exc import OperationalError

from service.game.context import is_unavailable
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


async def test_a_read_runs_on_the_sqlite3_connection_and_converts_as_sqlalchemy_does(tmp_path):
    """Datetimes, JSON, booleans and a fixed parameter, each through the same converters a SQLAlchemy execution
    applies; the statement is prepared once (not through SQLAlchemy's execution)."""
    metadata = MetaData()
    rows = Table(
        "rows",
        metadata,
        Column("id", String, primary_key=True),
        Column("at", DateTime(timezone=True)),
        Column("sheet", JSON),
        Column("active", Boolean),
        Column("status", String),
    )
    engine = litedirect.reader_engine(f"sqlite+aiosqlite:///{tmp_path}/typed.db", JSON_CODEC)
    assert engine is not None
    writer = create_engine(f"sqlite:///{tmp_path}/typed.db", **JSON_CODEC)
    metadata.create_all(writer)
    at = datetime(2026, 11, 29, 10, 0, tzinfo=timezone.utc)
    with writer.begin() as db:
        db.execute(rows.insert(), [{"id": "a", "at": at, "sheet": {"hp": [1, 2]}, "active": True, "status": "on"}])
        db.execute(rows.insert(), [{"id": "b", "at": None, "sheet": None, "active": False, "status": "off"}])
    read = pgdirect.Direct(
        select(rows.c.id, rows.c.at.label("when"), rows.c.sheet, rows.c.active)
        .where(rows.c.status == "on", rows.c.id == bindparam("id"))
        .order_by(rows.c.id)
    )
    try:
        async with litedirect.alone(engine) as conn:
            got = [dict(r) for r in await conn.fetch(read, {"id": "a"})]
        with engine.connect() as conn:
            expected = [dict(r._mapping) for r in conn.execute(read.statement, {"id": "a"})]
        assert got == expected == [{"id": "a", "when": expected[0]["when"], "sheet": {"hp": [1, 2]}, "active": True}]
        assert isinstance(got[0]["when"], datetime)
        assert litedirect._prepared(read, engine.dialect) is not None
    finally:
        engine.dispose()
        writer.dispose()


async def test_a_list_expanded_into_an_in_is_read_through_sqlalchemy(lite):
    engine, _ = lite
    some = pgdirect.Direct(select(T.c.id).where(T.c.id.in_(bindparam("ids", expanding=True))).order_by(T.c.id))
    async with litedirect.alone(engine) as conn:
        assert [r["id"] for r in await conn.fetch(some, {"ids": ["a", "b", "z"]})] == ["a", "b"]
    assert litedirect._prepared(some, engine.dialect) is None


async def test_a_database_locked_past_the_wait_is_sqlalchemys_operational_error_which_answers_503(lite):
    engine, path = lite
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # this file keeps a rollback journal: its readers wait for the lock
    try:
        async with litedirect.alone(engine) as conn:
            with pytest.raises(OperationalError, match="database is locked") as raised:
                await conn.fetch(pgdirect.Direct(select(T.c.id)), {})
        assert is_unavailable(raised.value)
    finally:
        other.rollback()
        other.close()
