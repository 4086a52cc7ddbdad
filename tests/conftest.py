"""App-level fixtures: the whole service on each backend, driven over HTTP in process.

`backend` runs a test twice: on the embedded defaults (SQLite file + SQL live store) and on
PostgreSQL + Redis. The servers are used when reachable; locally an unreachable one skips, and
under CI=true it fails, because CI has both.
"""

from __future__ import annotations

import asyncio
import gc
import shutil
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

import engines
import property_examples  # noqa: F401 - registers the `dev` profile before --hypothesis-profile loads it
from serve_process import START_SECONDS, answers
from servers import postgres_url, redis_url, server_unavailable
from service.settings import Settings

engines.install()

# The suite drives the service far faster than any table plays, with one token per campaign, from one
# address, and on the servers backend every run shares one Redis: rate limits would throttle it at
# random. They are tested on their own (tests/api/test_rate_limits.py); the other limits stay on.
NO_RATE_LIMITS = {
    "rate_per_token": None,
    "rate_per_address": None,
    "rate_auth_failures": None,
    # Imports are off by default; the suite's deployment lets anyone import, and
    # tests/api/test_import_trust.py checks the default on its own.
    "import_policy": "anyone",
}
# PostgreSQL does not start without the key that seals webhook secrets (service/game/webhooks/sealkey.py).
SECRETS_KEY = "the test suite's key for sealing webhook secrets"

# Tests that start processes of their own (`rulekeeper serve`, uvicorn, redis-server, Chromium, pip, kubectl). Each
# such process wants a core while it starts: beside two workers busy with in-process tests their start-ups time out,
# so .ci/run runs these in a step of their own (marker `processes`, with the fuzzing), one per worker at a time. A
# directory covers everything in it.
PROCESS_TESTS = (
    "faults/",
    "web/",
    "docs/",
    "deploy/",
    "api/test_forwarded_for.py",
    "api/test_import_live.py",
    "api/test_limits_live.py",
    "api/test_metrics_workers.py",
    "api/test_serve_ready.py",
    "api/test_subscriptions_live.py",
    "api/test_subscriptions_origin.py",
    "contracts/test_example_bodies.py",
    "contracts/test_python_client.py",
    "contracts/test_schemathesis_cli.py",
    "dice/test_dice_generated_http.py",
    "notify/test_redis_notifier.py",
    "store/test_live_servers.py",
    "test_checkout_stays_clean.py",
    "test_heap_import.py",
    "test_log_format.py",
)
_TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Collection imports the service and every test module: objects that live as long as the worker, which the
    collector walked again and again while they were made, and then in every full pass of every test after. As a
    served process does (service/heap.py settle): paused while they are made, then kept out of the full passes, and
    the youngest generation collected after 10,000 new objects rather than 700 (the workers' collections, unit step:
    about 21 s of CPU in all with neither, 17 s with the first, 9 s with both)."""
    from service.heap import settle

    gc.disable()
    try:
        return (yield)
    finally:
        gc.enable()
        settle()


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        where = item.path.resolve().relative_to(_TESTS).as_posix()
        if any(where == p or (p.endswith("/") and where.startswith(p)) for p in PROCESS_TESTS):
            item.add_marker(pytest.mark.processes)


async def _pg(sql: str) -> None:
    engine = create_async_engine(postgres_url(), isolation_level="AUTOCOMMIT", connect_args={"timeout": 3})
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database of its own for this test session, dropped at the end."""
    name = f"rk_test_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # refused, auth, timeout: all mean "not usable here"
        server_unavailable("postgres", repr(exc))
    base = postgres_url().rsplit("/", 1)[0]
    yield f"{base}/{name}"
    asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def new_postgres_database(postgres_database) -> Iterator[str]:
    """A PostgreSQL database nobody has migrated (`postgres_database`, the session's, is migrated by then); it is
    asked for first so that a PostgreSQL out of reach skips or fails this test as it does every other."""
    name = f"rk_new_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    yield postgres_database.rsplit("/", 1)[0] + f"/{name}"
    asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def redis_server() -> str:
    try:
        client = redis.Redis.from_url(redis_url(), socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        server_unavailable("redis", repr(exc))
    return redis_url()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite database migrated to head once per session (per worker under xdist): each test's database starts
    as a copy of it, as a fresh migration costs more than the rest of a small test. The app still runs its
    migrations at start-up, which find the copy at head (tests/records checks the migrations themselves)."""
    from service.store.records.db import migrate_sync

    path = tmp_path_factory.mktemp("template") / "rulekeeper.db"
    migrate_sync(f"sqlite+aiosqlite:///{path}")
    # The last connection closed checkpoints the WAL into the file: the one file is the whole database.
    assert not path.with_name(path.name + "-wal").exists()
    return path


def sqlite_settings(template: Path, tmp_path: Path) -> Settings:
    db = tmp_path / "rulekeeper.db"
    shutil.copyfile(template, db)
    return Settings(database_url=f"sqlite+aiosqlite:///{db}", **NO_RATE_LIMITS)


@pytest.fixture(params=["embedded", "servers"])
def settings(request, tmp_path) -> Settings:
    if request.param == "embedded":
        return sqlite_settings(request.getfixturevalue("migrated_sqlite"), tmp_path)
    return Settings(
        database_url=request.getfixturevalue("postgres_database"),
        redis_url=request.getfixturevalue("redis_server"),
        webhooks_secrets_key=SECRETS_KEY,
        **NO_RATE_LIMITS,
    )


@pytest.fixture
def embedded_settings(migrated_sqlite, tmp_path) -> Settings:
    return sqlite_settings(migrated_sqlite, tmp_path)


@pytest.fixture
async def app(settings, request):
    from service.app import create_app  # imported late: engine-only test modules need no app

    application = create_app(settings)
    async with application.router.lifespan_context(application):
        before = await _campaign_ids(application.state.services)
        yield application
        if request.node.get_closest_marker("stand_in_engine") is None:
            await _every_table_replays_from_its_move_log(application.state.services, before)


async def _campaign_ids(svc) -> set[str]:
    from sqlalchemy import select

    from service.store.records.models import Campaign

    async with svc.read() as s:
        return set(await s.scalars(select(Campaign.id)))


async def _every_table_replays_from_its_move_log(svc, before: set[str]) -> None:
    """After every API test: each table the test made, as the service serves it, equals its move log
    replayed from version 0 through the engine with the recorded dice, so no test can leave the live copy
    and the log apart. (The PostgreSQL database is shared by the session: earlier tests' tables are theirs.)"""
    from sqlalchemy import select

    from service.game.log import moves as movelog, tables
    from service.store.records.models import Campaign

    async with svc.read() as s:
        for campaign in await s.scalars(select(Campaign).where(Campaign.id.not_in(before) if before else True)):
            served = await tables.load(svc, s, campaign, writing=False)
            replayed = await movelog.state_at(s, campaign, campaign.table_version, from_scratch=True)
            assert served["table"] == replayed["table"], f"campaign {campaign.id}: the table differs from its log"
            assert served["characters"] == replayed["characters"], f"campaign {campaign.id}: sheets differ from the log"


@pytest.fixture
async def client(app) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rulekeeper.test") as c:
        yield c


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[str]:
    """A real uvicorn server on a free loopback port, on the embedded defaults; yields its base URL."""
    import uvicorn

    from service.app import create_app

    db = tmp_path_factory.mktemp("live") / "rulekeeper.db"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **NO_RATE_LIMITS)),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    if not answers(f"{base}/healthz", time.monotonic() + START_SECONDS):
        pytest.fail("the live server did not start")
    yield base
    server.should_exit = True
    thread.join(timeout=10)
