"""SqlLiveStore beyond the shared contract: restart, the caller's transaction, the table."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from service.store.live import SqlLiveStore, Versioned, VersionConflict, define_live_entries
from service.store.records.db import make_engine


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _setup(engine: AsyncEngine, **kwargs) -> tuple[SqlLiveStore, Table]:
    """The live table next to another one, on one MetaData, as in the records schema."""
    metadata = MetaData()
    table = define_live_entries(metadata)
    events = Table("events", metadata, Column("id", Integer, primary_key=True), Column("n", Integer))
    async with engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    return SqlLiveStore(engine, table, **kwargs), events


async def _count(engine: AsyncEngine, table: Table) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(table))).scalar_one()


async def test_survives_restart(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'service.db'}"
    engine = make_engine(url)
    store, _ = await _setup(engine)
    await store.compare_and_set("deck:1", None, {"cards": ["AS", "Joker"]})
    await store.compare_and_set("deck:1", 1, {"cards": ["Joker"]}, ttl=3600)
    await engine.dispose()

    engine = make_engine(url)
    try:
        store = SqlLiveStore(engine)  # a fresh process: private MetaData, same table
        assert await store.get("deck:1") == Versioned({"cards": ["Joker"]}, 2)
        assert await store.compare_and_set("deck:1", 2, {"cards": []}) == 3
    finally:
        await engine.dispose()


async def test_create_table_is_idempotent(sql_engine: AsyncEngine) -> None:
    store = SqlLiveStore(sql_engine)
    await store.create_table()
    await store.create_table()
    assert await store.compare_and_set("k", None, [1]) == 1


def test_define_live_entries_once_per_metadata() -> None:
    metadata = MetaData()
    table = define_live_entries(metadata)
    assert define_live_entries(metadata) is table
    assert set(table.c.keys()) == {"key", "value", "version", "expires_at"}
    assert [c.name for c in table.primary_key] == ["key"]


async def test_cas_commits_with_the_callers_transaction(sql_engine: AsyncEngine) -> None:
    store, events = await _setup(sql_engine)
    await store.compare_and_set("k", None, {"n": 0})
    async with sql_engine.begin() as conn:
        assert await store.compare_and_set("k", 1, {"n": 1}, conn=conn) == 2
        assert await store.get("k", conn=conn) == Versioned({"n": 1}, 2)  # own writes visible
        await conn.execute(events.insert().values(n=1))
    assert await store.get("k") == Versioned({"n": 1}, 2)
    assert await _count(sql_engine, events) == 1


async def test_cas_rolls_back_with_the_callers_transaction(sql_engine: AsyncEngine) -> None:
    store, events = await _setup(sql_engine)
    await store.compare_and_set("k", None, {"n": 0})
    with pytest.raises(RuntimeError):
        async with sql_engine.begin() as conn:
            await store.compare_and_set("k", 1, {"n": 1}, conn=conn)
            await store.compare_and_set("other", None, {"n": 1}, conn=conn)
            await store.delete("gone", conn=conn)
            await conn.execute(events.insert().values(n=1))
            raise RuntimeError("the append failed after the CAS")
    assert await store.get("k") == Versioned({"n": 0}, 1)
    assert await store.get("other") is None
    assert await _count(sql_engine, events) == 0


async def test_conflict_leaves_the_callers_transaction_usable(sql_engine: AsyncEngine) -> None:
    # On PostgreSQL a failed statement would abort the whole transaction; a conflict must not.
    store, events = await _setup(sql_engine)
    await store.compare_and_set("k", None, {"n": 0})
    async with sql_engine.begin() as conn:
        with pytest.raises(VersionConflict):
            await store.compare_and_set("k", None, {"n": "dup"}, conn=conn)
        with pytest.raises(VersionConflict):
            await store.compare_and_set("k", 7, {"n": "stale"}, conn=conn)
        with pytest.raises(VersionConflict):
            await store.delete("k", expected_version=7, conn=conn)
        assert await store.compare_and_set("k", 1, {"n": 1}, conn=conn) == 2
        await conn.execute(events.insert().values(n=1))
    assert await store.get("k") == Versioned({"n": 1}, 2)
    assert await _count(sql_engine, events) == 1


async def test_cas_inside_an_orm_session(sql_engine: AsyncEngine) -> None:
    store, events = await _setup(sql_engine)
    async with AsyncSession(sql_engine) as session:
        async with session.begin():
            assert await store.compare_and_set("k", None, {"n": 0}, conn=session) == 1
            assert await store.get_many(["k"], conn=session) == {"k": Versioned({"n": 0}, 1)}
            await session.execute(events.insert().values(n=0))
    assert await store.get("k") == Versioned({"n": 0}, 1)
    assert await _count(sql_engine, events) == 1


async def test_expiry_uses_the_wall_clock_and_purge_removes_rows(sql_engine: AsyncEngine) -> None:
    clock = FakeClock()
    store, _ = await _setup(sql_engine, clock=clock)
    await store.compare_and_set("a", None, {"n": 0}, ttl=10)
    await store.compare_and_set("b", None, {"n": 0}, ttl=20)
    await store.compare_and_set("c", None, {"n": 0})
    clock.now += 10  # exactly at a's deadline: gone
    assert await store.get("a") is None
    assert await store.get("b") == Versioned({"n": 0}, 1)
    assert await _count(sql_engine, store.table) == 3  # invisible, not yet removed
    assert await store.purge_expired() == 1
    assert await _count(sql_engine, store.table) == 2
    clock.now += 1_000
    assert await store.purge_expired() == 1
    assert await store.get_many(["a", "b", "c"]) == {"c": Versioned({"n": 0}, 1)}
