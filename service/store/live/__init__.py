"""Live store: in-flight game state (open tests, combat rounds, decks) as versioned JSON with
compare-and-set, so two requests can never both spend the same benny.

Backends: `RedisLiveStore` in production, `SqlLiveStore` as the embedded default (state
survives a restart on the service's own database), `MemoryLiveStore` as the unit-test fake.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from .base import JSON, LiveStore, Versioned, VersionConflict
from .memory import MemoryLiveStore
from .redis import RedisLiveStore
from .sql import SqlLiveStore, define_live_entries

__all__ = [
    "JSON",
    "LiveStore",
    "MemoryLiveStore",
    "RedisLiveStore",
    "SqlLiveStore",
    "Versioned",
    "VersionConflict",
    "define_live_entries",
    "open_live_store",
]


def open_live_store(redis_url: str | None, engine: AsyncEngine | None, *, prefix: str = "rk:") -> LiveStore:
    """Redis when a URL is given (the store owns that client), else SQL on `engine`.

    With SQL, the `live_entries` table must exist (the Alembic migration creates it), and the
    engine stays the caller's to dispose. No connection is made here.
    """
    if redis_url:
        # Short timeouts: the live store is a cache of the records database, so a Redis that does not answer
        # is better treated as a miss at once than waited on.
        return RedisLiveStore.from_url(redis_url, prefix, socket_connect_timeout=1, socket_timeout=2)
    if engine is None:
        raise ValueError("open_live_store needs a Redis URL or a SQL engine")
    return SqlLiveStore(engine)
