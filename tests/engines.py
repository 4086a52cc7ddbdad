"""Every test app's engine shares one dialect, and with it one cache of compiled statements, with the other
engines of its kind in this process (one for SQLite, one for PostgreSQL).

SQLAlchemy caches a statement's compiled SQL per engine, keyed by the dialect object. The service makes one engine
for its life, so it compiles each statement once; a test makes one per app, and every app compiled every statement
it ran afresh: about a fifth of the API tests' CPU. The compiled SQL depends only on the dialect (and the server's
version, the same for every database here), so sharing it changes no statement a test sends.

The first engine of a kind lends its dialect and cache once it has connected (its dialect is then initialized for
that server); engines made after it take them before their first connection. `engine.dialect`, `_compiled_cache`
and the pool's `_dialect` are SQLAlchemy's own attributes, read at each use (SQLAlchemy is pinned in
constraints.txt); tests/test_shared_engines.py checks that the sharing still happens."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

import service.app

_SHARED: dict[tuple[str, str], tuple[Any, Any]] = {}
_make_engine = service.app.make_engine


def sharing_make_engine(url: str) -> AsyncEngine:
    engine = _make_engine(url)
    sync = engine.sync_engine
    kind = (sync.dialect.name, sync.dialect.driver)
    shared = _SHARED.get(kind)
    if shared is not None:
        sync.dialect, sync._compiled_cache = shared
        sync.pool._dialect = shared[0]
    else:

        @event.listens_for(sync, "first_connect")
        def lend(_dbapi_connection, _record) -> None:
            _SHARED.setdefault(kind, (sync.dialect, sync._compiled_cache))

    return engine


def install() -> None:
    service.app.make_engine = sharing_make_engine  # type: ignore[assignment]
