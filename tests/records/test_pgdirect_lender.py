"""The connections of lone reads on PostgreSQL (service/store/records/pgdirect.py `Lender`): kept from one read to
the next instead of going back to the pool, at most `keep` of them, and never one the pool has given up on."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy import literal, select

from servers import drop_every_connection
from service.store.records import pgdirect
from service.store.records.db import make_engine

ONE = pgdirect.Direct(select(literal(1).label("one")))


@pytest.fixture
async def engine(postgres_database):
    engine = make_engine(postgres_database)
    yield engine
    await engine.dispose()


async def read(lender: pgdirect.Lender) -> asyncpg.Connection:
    """One lone read; the asyncpg connection it ran on."""
    async with lender.alone() as conn:
        assert [tuple(r) for r in await conn.fetch(ONE, {})] == [(1,)]
        return conn._connection


async def test_the_next_read_takes_the_connection_the_last_one_gave_back(engine):
    lender = pgdirect.Lender(engine)
    first = await read(lender)
    assert await read(lender) is first
    # Held out of the pool between reads, not checked in there.
    assert lender.kept == 1 and engine.pool.checkedout() == 1
    await lender.close()


async def test_at_most_keep_connections_are_kept_and_the_rest_go_back_to_the_pool(engine):
    lender = pgdirect.Lender(engine, keep=2)
    in_reads = asyncio.Event()
    started = 0

    async def slow_read() -> None:
        nonlocal started
        async with lender.alone() as conn:
            started += 1
            if started == 5:
                in_reads.set()
            await in_reads.wait()  # all five hold a connection at once
            await conn.fetch(ONE, {})

    await asyncio.gather(*(slow_read() for _ in range(5)))
    assert lender.kept == 2 and engine.pool.checkedout() == 2
    await lender.close()


async def test_by_default_a_quarter_of_the_pool_is_kept(engine):
    assert pgdirect.Lender(engine).keep == engine.pool.size() // 4 > 0


async def test_a_read_that_fails_gives_its_connection_back_to_the_pool(engine):
    lender = pgdirect.Lender(engine)
    with pytest.raises(asyncpg.exceptions.DivisionByZeroError):
        async with lender.alone() as conn:
            await conn.fetch(pgdirect.Direct(select(literal(1) / literal(0))), {})
    assert lender.kept == 0 and engine.pool.checkedout() == 0


async def test_a_read_cancelled_gives_its_connection_back_to_the_pool(engine):
    lender = pgdirect.Lender(engine)
    holding = asyncio.Event()

    async def held() -> None:
        async with lender.alone():
            holding.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(held())
    await holding.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert lender.kept == 0 and engine.pool.checkedout() == 0


async def test_after_the_database_dropped_every_connection_one_read_is_refused_and_the_next_is_served(
    engine, postgres_database
):
    lender = pgdirect.Lender(engine, keep=3)
    hold = asyncio.Event()

    async def holding_read() -> asyncpg.Connection:
        async with lender.alone() as conn:
            await hold.wait()
            return conn._connection

    # Three kept, as after three reads at once.
    tasks = [asyncio.create_task(holding_read()) for _ in range(3)]
    await asyncio.sleep(0.05)
    hold.set()
    before = set(await asyncio.gather(*tasks))
    assert lender.kept == 3
    await asyncio.sleep(0.01)  # the pool tells connections opened before a loss by wall-clock time
    await drop_every_connection(postgres_database)

    # The first read finds its connection gone: a ConnectionError (a 503 with Retry-After).
    with pytest.raises(ConnectionError):
        await read(lender)
    # The two still kept were opened before the loss and are not used: the next read runs on a new connection.
    assert (await read(lender)) not in before
    assert lender.kept == 1 and engine.pool.checkedout() == 1
    await lender.close()


async def test_close_gives_every_kept_connection_back_and_later_reads_keep_none(engine):
    lender = pgdirect.Lender(engine)
    await read(lender)
    await lender.close()
    assert engine.pool.checkedout() == 0
    await read(lender)
    assert lender.kept == 0 and engine.pool.checkedout() == 0
