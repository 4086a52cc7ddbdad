"""Direct statements inside a session on PostgreSQL (service/store/records/pgdirect.py) run on the connection the
session holds, taken as it is: asking SQLAlchemy for it again starts a greenlet each time."""

from __future__ import annotations

import pytest
from sqlalchemy import func, literal, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from service.store.records import pgdirect
from service.store.records.db import make_engine

ONE = pgdirect.Direct(select(literal(1).label("one")))
TRANSACTION = select(func.txid_current())


@pytest.fixture
async def engine(postgres_database):
    engine = make_engine(postgres_database)
    yield engine
    await engine.dispose()


async def test_a_direct_statement_takes_the_sessions_connection_without_asking_for_it_again(engine, monkeypatch):
    async def asked(self):
        raise AssertionError("get_raw_connection was called")

    monkeypatch.setattr(AsyncConnection, "get_raw_connection", asked)
    async with AsyncSession(engine) as s, s.begin():
        assert [tuple(r) for r in await pgdirect.fetch(s, ONE, {})] == [(1,)]
        await pgdirect.execute(s, "SELECT 2", [])
        # In the session's own transaction, which BEGIN opened before the first direct statement.
        direct = (await pgdirect.fetch(s, pgdirect.Direct(TRANSACTION), {}))[0][0]
        assert (await s.execute(TRANSACTION)).scalar_one() == direct


async def test_a_session_whose_connection_was_invalidated_asks_for_a_new_one(engine):
    async with AsyncSession(engine) as s:
        conn = await s.connection()
        await conn.invalidate()
        await s.rollback()
        assert [tuple(r) for r in await pgdirect.fetch(s, ONE, {})] == [(1,)]
