"""Liveness and readiness.

/healthz (liveness) answers from memory: the process runs its event loop. It never touches a server, so a
slow database cannot get healthy replicas restarted.

/readyz (readiness) says whether this replica can serve: the records database answers, and its schema is
at this release's Alembic head (a database nobody migrated, or one migrated by an older release, would
turn every write into a 500). A database at a revision this release does not know was migrated by a newer
release during a rolling upgrade; migrations add and never take away within one release, so the older
replicas stay ready until they are replaced. The live store is a cache: when it is down, play goes on
from the records database (slower), so the replica reports `degraded` and stays in service. The answer is
up or down per component and nothing more: an anonymous caller learns no address, version or error.
"""

from __future__ import annotations

import functools
import logging

from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import JSONResponse

from service.store.records.db import alembic_config

log = logging.getLogger("rulekeeper")


@functools.cache
def _release_revisions() -> tuple[frozenset[str], frozenset[str]]:
    """This release's heads and every revision it knows, read from its migration scripts once per process: they do
    not change while it runs, and reading them took about 1.6 ms of CPU for each app built (every API test builds
    one)."""
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(script.get_heads()), frozenset(rev.revision for rev in script.walk_revisions())


class Schema:
    """This release's migrations: the head it needs, and every revision it knows."""

    def __init__(self) -> None:
        self.heads, self.known = _release_revisions()
        self._warned_ahead = False

    def verdict(self, current: tuple[str, ...]) -> bool:
        """True when a database at `current` serves this release."""
        if not current:
            log.warning("not ready: the database has no schema; run `rulekeeper migrate`")
            return False
        if set(current) == self.heads:
            return True
        if set(current) <= self.known:
            log.warning(
                "not ready: the database is at revision %s, this release needs %s; run `rulekeeper migrate`",
                ",".join(sorted(current)),
                ",".join(sorted(self.heads)),
            )
            return False
        if not self._warned_ahead:
            self._warned_ahead = True
            log.warning(
                "the database is at revision %s, newer than this release knows (%s): a newer release "
                "migrated it; serving until this replica is replaced",
                ",".join(sorted(current)),
                ",".join(sorted(self.heads)),
            )
        return True


def _revisions(conn) -> tuple[str, ...]:
    # Read directly: Alembic's MigrationContext would log two INFO lines on every probe.
    if not inspect(conn).has_table("alembic_version"):
        return ()
    return tuple(row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version")))


async def current_revisions(engine: AsyncEngine) -> tuple[str, ...]:
    """The database's Alembic revisions; () when it was never migrated. Raises when it is out of reach."""
    async with engine.connect() as conn:
        return await conn.run_sync(_revisions)


def readiness(schema: Schema):
    async def readyz(request: Request) -> JSONResponse:
        svc = request.app.state.services
        checks: dict[str, str] = {}
        try:
            current = await current_revisions(svc.engine)
            checks["database"] = "up"
            checks["schema"] = "up" if schema.verdict(current) else "down"
        except Exception as exc:  # readiness must answer, not raise: say what is down, log why
            log.warning("not ready: the database is down: %s: %s", type(exc).__name__, exc)
            checks["database"] = checks["schema"] = "down"
        try:
            await svc.live.get("readyz")
            checks["live_store"] = "up"
        except Exception as exc:
            log.warning(
                "degraded: the live store is down (tables are rebuilt from the records database): %s: %s",
                type(exc).__name__,
                exc,
            )
            checks["live_store"] = "down"
        ready = checks["database"] == "up" and checks["schema"] == "up"
        status = ("ok" if checks["live_store"] == "up" else "degraded") if ready else "unavailable"
        return JSONResponse({"status": status, "checks": checks}, status_code=200 if ready else 503)

    return readyz


async def healthz(_: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})
