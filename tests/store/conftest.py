"""Store fixtures on each backend: SQLite files, a fresh PostgreSQL schema, a Redis key prefix.

Reachability (skip locally, fail under CI=true) is `tests/servers.py`, shared with tests/conftest.py.

Test modules use the fixtures at the end, never `import conftest` (not a unique module name
once tests/ has several conftest files). The `open_*` context managers behind them give each
test its own namespace and remove it afterwards, so runs can share one server: a fresh
PostgreSQL schema (as search_path) or a random Redis key prefix.
"""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, NamedTuple

import pytest
import redis.asyncio as aioredis
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from servers import check_down, postgres_url, redis_url, server_unavailable

from service.store.records.db import make_engine


@asynccontextmanager
async def open_sqlite_engine(path: Path) -> AsyncIterator[AsyncEngine]:
    """The service's engine on a SQLite file: its statements in the event loop's thread (inlinesqlite.py)."""
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        yield engine
    finally:
        await engine.dispose()


@asynccontextmanager
async def open_postgres_engine() -> AsyncIterator[AsyncEngine]:
    """An engine whose search_path is a fresh schema, dropped (with its tables) afterwards."""
    check_down("postgres")
    url = postgres_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(url, connect_args={"timeout": 3})
    try:
        try:
            async with admin.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        except Exception as exc:  # refused, timeout, auth, no database: all mean "not usable"
            server_unavailable("postgres", f"{make_url(url).render_as_string()}: {exc!r}")
        engine = create_async_engine(url, connect_args={"timeout": 3, "server_settings": {"search_path": schema}})
        try:
            yield engine
        finally:
            await engine.dispose()
            async with admin.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        await admin.dispose()


class RedisNamespace(NamedTuple):
    client: aioredis.Redis
    prefix: str  # random; every key under it is deleted afterwards
    url: str


@asynccontextmanager
async def open_redis_client() -> AsyncIterator[RedisNamespace]:
    check_down("redis")
    url = redis_url()
    client = aioredis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=10)
    prefix = f"rk-test:{uuid.uuid4().hex}:"
    try:
        try:
            await client.ping()
        except (OSError, aioredis.RedisError) as exc:
            server_unavailable("redis", f"{url.split('@')[-1]}: {exc!r}")
        try:
            yield RedisNamespace(client, prefix, url)
        finally:
            keys = [k async for k in client.scan_iter(match=prefix + "*", count=500)]
            if keys:
                await client.delete(*keys)
    finally:
        await client.aclose()


# --- fixtures -------------------------------------------------------------------------------


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An aiosqlite engine on a file in tmp_path (a file, so a second engine can reopen it)."""
    async with open_sqlite_engine(tmp_path / "test.db") as engine:
        yield engine


@pytest.fixture
async def postgres_engine() -> AsyncIterator[AsyncEngine]:
    async with open_postgres_engine() as engine:
        yield engine


@pytest.fixture
async def redis_namespace() -> AsyncIterator[RedisNamespace]:
    async with open_redis_client() as namespace:
        yield namespace


@pytest.fixture(params=["sqlite", "postgres"])
def sql_engine(request: pytest.FixtureRequest) -> AsyncEngine:
    """Each SQL database in turn. Sync on purpose: it only picks which async fixture to run,
    so the server ones are set up (or skipped) only for their own parameter."""
    return request.getfixturevalue(f"{request.param}_engine")
