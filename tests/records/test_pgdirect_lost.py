"""A direct statement on PostgreSQL (service/store/records/pgdirect.py) whose connection is gone reports a
ConnectionError, which the request answers as a 503 with Retry-After (service/game/context.py), however the loss
reaches it: from asyncpg itself, or translated by SQLAlchemy's adapter when it sends BEGIN first."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from service.game.context import is_unavailable
from service.store.records import pgdirect
from service.store.records.db import make_engine

ONE = pgdirect.Direct(select(literal(1).label("one")))


@pytest.fixture
async def engine(postgres_database):
    engine = make_engine(postgres_database)
    async with engine.connect() as conn:  # the dialect's first-connect queries, before any test patches asyncpg
        await conn.execute(select(1))
    yield engine
    await engine.dispose()


def closed_at(statement_prefix: str, error: Exception, failed: list):
    """asyncpg's Connection.execute and fetch, failing as a connection the server closed does for statements that
    begin with `statement_prefix` (BEGIN goes through execute, the direct statement through fetch); each connection
    that failed is put in `failed`."""
    execute, fetch = asyncpg.Connection.execute, asyncpg.Connection.fetch

    async def failing_execute(self, query, *args, **kwargs):
        if query.startswith(statement_prefix):
            failed.append(self)
            raise error
        return await execute(self, query, *args, **kwargs)

    async def failing_fetch(self, query, *args, **kwargs):
        if query.startswith(statement_prefix):
            failed.append(self)
            raise error
        return await fetch(self, query, *args, **kwargs)

    return failing_execute, failing_fetch


CLOSED = asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")
TERMINATED = asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command")


@pytest.mark.parametrize(
    ("statement", "error"),
    [("BEGIN", CLOSED), ("SELECT", CLOSED), ("BEGIN", TERMINATED), ("SELECT", TERMINATED)],
    ids=["closed-at-begin", "closed-at-the-statement", "terminated-at-begin", "terminated-at-the-statement"],
)
async def test_a_lost_connection_is_a_connection_error_and_is_replaced(engine, monkeypatch, statement, error):
    failed: list = []
    execute, fetch = closed_at(statement, error, failed)
    monkeypatch.setattr(asyncpg.Connection, "execute", execute)
    monkeypatch.setattr(asyncpg.Connection, "fetch", fetch)
    async with AsyncSession(engine) as s:
        with pytest.raises(ConnectionError) as lost:
            await pgdirect.fetch(s, ONE, {})
        assert is_unavailable(lost.value)
        monkeypatch.undo()
        await s.rollback()
        assert [tuple(r) for r in await pgdirect.fetch(s, ONE, {})] == [(1,)]
        # The failed connection was dropped from the pool: the session's next statement ran on a fresh one.
        raw = await (await s.connection()).get_raw_connection()
        assert len(failed) == 1 and raw.dbapi_connection._connection is not failed[0]


async def test_an_error_of_the_statement_itself_is_not_taken_for_a_lost_connection(engine):
    bad = pgdirect.Direct(select(literal(1) / literal(0)))
    async with AsyncSession(engine) as s:
        with pytest.raises(asyncpg.exceptions.DivisionByZeroError):
            await pgdirect.fetch(s, bad, {})
