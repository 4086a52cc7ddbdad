"""Where the test servers are, and what to do when one is not there.

Server backends run whenever reachable. When one is not, its tests are skipped locally, but under
`CI=true` they fail: CI has both servers, so an unreachable one is a broken CI, not a reason to go
green while testing only the embedded path. Both conftest files use these helpers.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest
from sqlalchemy.engine import make_url

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
    """TEST_REDIS_URL (default: the local Redis, database 0). Under pytest-xdist each worker takes a database
    number of its own after that one (gw0 the next, gw1 the one after), so no worker sees another's keys: rate
    buckets, live tables, whatever a test counts or clears."""
    url = make_url(os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return url.render_as_string(hide_password=False)
    base = int(url.database or 0)
    return url.set(database=str((base + 1 + int(worker[2:])) % 16)).render_as_string(hide_password=False)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def server_unavailable(name: str, reason: str) -> NoReturn:
    """Skip locally; fail under CI=true."""
    _down[name] = reason
    message = f"{name} unreachable: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true requires it)", pytrace=False)
    pytest.skip(message)


def check_down(name: str) -> None:
    if name in _down:
        server_unavailable(name, _down[name])


async def drop_every_connection(database_url: str) -> None:
    """What a restart of PostgreSQL does to every pool on the database: each connection it holds is gone."""
    import asyncpg

    admin = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
