"""Alembic upgrades an empty database to head, and the models and migrations do not drift."""

from __future__ import annotations

import asyncio
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from service.store.records.db import MIGRATION_LOCK, alembic_config, head_revision, make_engine, migrate
from service.store.records.schema import metadata


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/migrate.db"
    return request.getfixturevalue("postgres_database")


async def test_upgrade_from_empty_to_head_creates_every_table(database_url):
    engine = make_engine(database_url)
    try:
        await migrate(engine)
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            rev = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
        assert set(metadata.tables) <= tables
        assert rev == ScriptDirectory.from_config(alembic_config()).get_current_head()
    finally:
        await engine.dispose()


async def test_upgrade_twice_is_a_no_op(database_url):
    engine = make_engine(database_url)
    try:
        await migrate(engine)
        await migrate(engine)
    finally:
        await engine.dispose()


async def test_models_and_migrations_do_not_drift(database_url):
    engine = make_engine(database_url)
    try:
        await migrate(engine)
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c, opts={"compare_type": True}), metadata)
            )
        assert diff == [], f"models differ from migrations; generate a revision: {diff}"
    finally:
        await engine.dispose()


def test_single_head():
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


async def test_a_database_at_head_starts_without_running_alembic_again(database_url, monkeypatch):
    engine = make_engine(database_url)
    try:
        await migrate(engine)

        def upgrade(*_args, **_kwargs):
            raise AssertionError("Alembic ran on a database already at head")

        monkeypatch.setattr("service.store.records.db.command.upgrade", upgrade)
        await migrate(engine)
    finally:
        await engine.dispose()


async def test_a_database_one_revision_behind_is_upgraded_to_head(tmp_path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/behind.db")
    scripts = ScriptDirectory.from_config(alembic_config())
    try:
        await migrate(engine, scripts.get_revision(scripts.get_current_head()).down_revision)
        await migrate(engine)
        async with engine.connect() as conn:
            rev = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
        assert rev == scripts.get_current_head()
    finally:
        await engine.dispose()


async def _revision(engine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


async def test_processes_that_start_together_on_a_new_database_both_migrate_it(new_postgres_database):
    # As `rulekeeper serve --workers 2` starts on a new database: each worker migrates at its start.
    engines = [make_engine(new_postgres_database) for _ in range(2)]
    try:
        # Without turns, one failed on the table the other had just created, or both waited on each other.
        await asyncio.wait_for(asyncio.gather(*(migrate(e) for e in engines)), 60)
        assert await _revision(engines[0]) == head_revision()
    finally:
        for e in engines:
            await e.dispose()


async def test_a_migration_waits_for_the_one_already_migrating(new_postgres_database):
    holder, engine = make_engine(new_postgres_database), make_engine(new_postgres_database)
    waiting: asyncio.Future | None = None
    try:
        async with holder.connect() as held:
            await held.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            waiting = asyncio.ensure_future(migrate(engine))
            deadline = time.monotonic() + 20
            while not await held.scalar(
                text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                )
            ):
                assert not waiting.done(), "the migration went on without waiting for the lock"
                assert time.monotonic() < deadline, "the migration never asked for the lock"
                await asyncio.sleep(0.05)
            assert await _revision(holder) is None  # it read nothing and wrote nothing before the lock
            await held.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
        await waiting
        assert await _revision(engine) == head_revision()
    finally:
        if waiting is not None:
            waiting.cancel()  # a failed check leaves it waiting on the lock
        await holder.dispose()
        await engine.dispose()
