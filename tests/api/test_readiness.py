"""Readiness is honest: a replica is ready when the records database answers and its schema is at this
release's Alembic head; a database nobody migrated, or an older release's, keeps it out of service. A
newer release's database (a rolling upgrade) and a live store that is down do not. Liveness stays cheap."""

from __future__ import annotations

import contextlib
import uuid

import httpx
import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from servers import postgres_url, server_unavailable
from service.settings import Settings
from service.store.records.db import alembic_config, make_engine, migrate

OFF = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}


async def _pg(sql: str) -> None:
    engine = create_async_engine(postgres_url(), isolation_level="AUTOCOMMIT", connect_args={"timeout": 3})
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture
async def empty_postgres():
    """A PostgreSQL database of its own that nobody migrated."""
    name = f"rk_unmigrated_{uuid.uuid4().hex[:12]}"
    try:
        await _pg(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        server_unavailable("postgres", repr(exc))
    yield postgres_url().rsplit("/", 1)[0] + f"/{name}"
    await _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.asynccontextmanager
async def serving(database_url: str, redis_url: str | None = None):
    from service.app import create_app

    app = create_app(
        Settings(
            database_url=database_url,
            redis_url=redis_url,
            auto_migrate=False,
            webhooks_secrets_key="a key for sealing webhook secrets",
            **OFF,
        )
    )
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            yield c


async def at_revision(url: str, revision: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine, revision)
    finally:
        await engine.dispose()


async def test_a_database_nobody_migrated_is_not_ready(tmp_path):
    async with serving(f"sqlite+aiosqlite:///{tmp_path}/empty.db") as c:
        r = await c.get("/readyz")
        assert r.status_code == 503
        assert r.json()["status"] == "unavailable"
        assert r.json()["checks"]["database"] == "up" and r.json()["checks"]["schema"] == "down"
        assert (await c.get("/healthz")).status_code == 200


async def test_an_unmigrated_postgresql_behind_a_working_redis_is_not_ready(empty_postgres, redis_server):
    """The issue's case: everything answers, yet every write would be a 500."""
    async with serving(empty_postgres, redis_server) as c:
        r = await c.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable", "checks": {"database": "up", "schema": "down", "live_store": "up"}}


async def test_a_database_one_migration_behind_is_not_ready_until_migrated(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/behind.db"
    script = ScriptDirectory.from_config(alembic_config())
    previous = script.get_revision(script.get_current_head()).down_revision
    await at_revision(url, previous)
    async with serving(url) as c:
        r = await c.get("/readyz")
        assert r.status_code == 503 and r.json()["checks"]["schema"] == "down"
        await at_revision(url, "head")
        r = await c.get("/readyz")
        assert r.status_code == 200, r.text
        assert r.json() == {"status": "ok", "checks": {"database": "up", "schema": "up", "live_store": "up"}}


async def test_a_database_a_newer_release_migrated_keeps_older_replicas_ready(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/ahead.db"
    await at_revision(url, "head")
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = 'from_a_newer_release'"))
    finally:
        await engine.dispose()
    async with serving(url) as c:
        r = await c.get("/readyz")
    assert r.status_code == 200 and r.json()["checks"]["schema"] == "up"


async def test_a_database_out_of_reach_is_not_ready_and_liveness_does_not_ask_it(tmp_path):
    async with serving(f"sqlite+aiosqlite:///{tmp_path}/no/such/dir/r.db") as c:
        r = await c.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {
            "status": "unavailable",
            "checks": {"database": "down", "schema": "down", "live_store": "down"},
        }
        assert (await c.get("/healthz")).json() == {"status": "ok"}
