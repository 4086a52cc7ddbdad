"""Engines and migrations. Created in the app's lifespan, never at import."""

from __future__ import annotations

import asyncio
import functools
from importlib import resources
from pathlib import Path

import orjson
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from service.store import jsontext
from service.store.records import inlinesqlite

# A source checkout keeps the migrations at its top level; an installed wheel carries them inside the package.
CHECKOUT = Path(__file__).resolve().parents[3]

# The records' JSON columns are written as the live store writes its copies (service/store/jsontext.py).
json_dumps = jsontext.dumps
JSON_CODEC = {"json_serializer": json_dumps, "json_deserializer": orjson.loads}


def make_engine(url: str, busy_seconds: float = 30) -> AsyncEngine:
    """`busy_seconds`: on SQLite, how long a statement waits for another connection's lock before it fails."""
    if url.startswith("sqlite"):
        # Statements run in the event loop's thread (inlinesqlite.py), which waits for a locked database itself.
        connect_args = {"timeout": busy_seconds, "async_creator_fn": inlinesqlite.connect}
        engine = create_async_engine(url, connect_args=connect_args, **JSON_CODEC)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            # WAL lets readers go on while one request writes; foreign keys are off by default in SQLite.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    # No pre-ping: on asyncpg it is three round trips (BEGIN, a ping, ROLLBACK) before every transaction. A
    # connection the server dropped fails its request as a 503 with Retry-After (service/game/context.py), and
    # SQLAlchemy then replaces every connection opened before the failure.
    # Every connection is kept once opened: an overflow connection is closed at its checkin, and opened again at
    # the next burst, a backend process started and ended in PostgreSQL each time. With 20 kept and 10 overflow,
    # GET state over 32 connections opened about 30 a second (119 in 4 s, pg_stat_database.sessions); with 30
    # kept and none overflowing, the pool filled once (28) and opened none after. The ceiling stays 30.
    return create_async_engine(url, pool_size=30, max_overflow=0, **JSON_CODEC)


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def migrations_dir() -> Path:
    """The Alembic script directory: `service/migrations` in an installed wheel (setup.py maps the top-level
    alembic/ there), else the checkout's alembic/ (a source tree or an editable install)."""
    packaged = resources.files("service") / "migrations"
    if packaged.is_dir() and (packaged / "env.py").is_file():
        return Path(str(packaged))
    return CHECKOUT / "alembic"


def alembic_config() -> Config:
    """The configuration the service migrates with, built in code: alembic.ini is for developers' `alembic`
    commands in a checkout (it names the same directory) and is not installed."""
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("path_separator", "os")
    return cfg


@functools.cache
def head_revision() -> str | None:
    """The newest revision of this release's migrations, read from its scripts once per process."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


# The key of the PostgreSQL advisory lock a migration holds for its transaction ("rk:migr" as a number).
MIGRATION_LOCK = int.from_bytes(b"rk:migr", "big")


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database behind `engine` to `revision` (idempotent).

    On PostgreSQL, migrations of one database take turns: `rulekeeper serve --workers N`, replicas started together
    and a migration Job all migrate at their start, and two of them upgrading a new database at once both created
    its first table (`alembic_version`), so one failed, and uvicorn stopped every worker with it (seen in two of
    eight starts of `serve --workers 2`). Each holds an advisory lock for its transaction, taken before it reads the
    database's revision: the first upgrades, the others wait for its commit and then find the database at head."""

    def _upgrade(conn) -> None:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        # A database already at head (every start but the first after an upgrade) is left alone without
        # running Alembic's environment, which reads every migration script again on each call.
        if revision == "head" and MigrationContext.configure(conn).get_current_revision() == head_revision():
            return
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)

    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)


def migrate_sync(url: str) -> None:
    async def _run() -> None:
        engine = make_engine(url)
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(_run())
