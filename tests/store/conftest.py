"""Reaching the test servers (PostgreSQL, Redis) — reusable outside tests/store.

Server backends run whenever reachable. When one is not, its tests are skipped locally, but
under `CI=true` they fail: CI has both servers, so an unreachable one is a broken CI, not a
reason to go green while testing only the embedded path.

Test modules use the fixtures at the end, never `import conftest` (not a unique module name
once tests/ has several conftest files). The `open_*` context managers behind them give each
test its own namespace and remove it afterwards, so runs can share one server: a fresh
PostgreSQL schema (as search_path) or a random Redis key prefix.
"""
from __future__ import annotations

import os
import uuid
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, NamedTuple, NoReturn

import pytest
import redis.asyncio as aioredis
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

DEFAULT_DATABASE_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

# Why a server was unreachable, so later tests skip/fail at once instead of waiting on timeouts.
_down: dict[str, str] = {}


def postgres_url() -> str:
    """TEST_DATABASE_URL (default: local `test` database), always with the asyncpg driver."""
    url = make_url(os.environ.get("TEST_DATABASE_URL") or DEFAULT_DATABASE_URL)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
    return url.render_as_string(hide_password=False)


def redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def server_unavailable(name: str, reason: str) -> NoReturn:
    """Skip locally; fail under CI=true."""
    _down[name] = reason
    message = f"{name} unreachable: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true requires it)", pytrace=False)
    pytest.skip(message)


def _check_down(name: str) -> None:
    if name in _down:
        server_unavailable(name, _down[name])


@asynccontextmanager
async def open_sqlite_engine(path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
    try:
        yield engine
    finally:
        await engine.dispose()


@asynccontextmanager
async def open_postgres_engine() -> AsyncIterator[AsyncEngine]:
    """An engine whose search_path is a fresh schema, dropped (with its tables) afterwards."""
    _check_down("postgres")
    url = postgres_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(url, connect_args={"timeout": 3})
    try:
        try:
            async with admin.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        except Exception as exc:  # refused, timeout, auth, no database: all mean "not usable"
            server_unavailable("postgres", f"{make_url(url).render_as_string()}: {exc!r}")
        engine = create_async_engine(
            url, connect_args={"timeout": 3, "server_settings": {"search_path": schema}}
        )
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
    _check_down("redis")
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
