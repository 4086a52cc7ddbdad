"""A campaign's table: the version in the records database is the truth, the live store a cache of it.

Reading a table asks the live store for the copy at the campaign's `table_version`. A copy that is
missing (expired, evicted, a Redis that lost its data), behind, or out of reach is rebuilt from the
move log (`movelog.state_at`) and put back. Writes go to the live store only after the records
database has committed the move, so the cache is never ahead of the truth; `put_newer` keeps writers
that finish out of order from putting an older copy over a newer one.
"""
from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select

from service.game.context import Services
from service.game.movelog import state_at
from service.store.live.sql import SqlLiveStore
from service.store.records.models import Campaign, Character

log = logging.getLogger("rulekeeper.tables")


def table_key(campaign_id: str) -> str:
    return f"campaign:{campaign_id}:table"


def joins_transaction(svc: Services) -> bool:
    """True when the live store writes inside the records transaction (the embedded SQL store)."""
    return isinstance(svc.live, SqlLiveStore)


async def _on_session(svc: Services, s) -> dict[str, Any]:
    """The embedded live store reads and writes on the request's own connection: inside its transaction,
    and without a second pooled connection per request (which, under load, exhausts the pool)."""
    return {"conn": await s.connection()} if joins_transaction(svc) and s is not None else {}


async def _cached(svc: Services, s, campaign: Campaign) -> dict[str, Any] | None:
    try:
        hit = await svc.live.get(table_key(campaign.id), **await _on_session(svc, s))
    except Exception as exc:  # an unreachable live store is a cache miss, not a failed request
        log.warning("live store unavailable on read (%s); rebuilding table %s from the move log",
                    type(exc).__name__, campaign.id)
        return None
    if hit is None or hit.version != campaign.table_version:
        return None
    return hit.value


async def load(svc: Services, s, campaign: Campaign) -> dict[str, Any]:
    """The whole engine state at the campaign's current version: options, characters, table."""
    table = await _cached(svc, s, campaign) if campaign.table_version else None
    if table is not None:
        chars = await s.scalars(select(Character).where(Character.campaign_id == campaign.id))
        return {"options": campaign.options, "characters": {c.id: c.sheet for c in chars}, "table": table}
    state = await state_at(s, campaign, campaign.table_version)
    if campaign.status == "active":
        await publish(svc, s, campaign.id, campaign.table_version, state["table"])
    return state


async def publish(svc: Services, s, campaign_id: str, version: int, table: dict[str, Any]) -> None:
    """Put the table at `version` into the live store. On the embedded store this joins the request's
    transaction; on Redis call it after the commit (a failure only means the next reader rebuilds)."""
    if version < 1:
        return
    try:
        await svc.live.put_newer(table_key(campaign_id), version, table, ttl=svc.settings.table_idle_ttl,
                                 **await _on_session(svc, s))
    except Exception as exc:
        if joins_transaction(svc):
            raise  # the embedded store shares the records transaction: its failure is the request's
        log.warning("live store unavailable on write (%s); table %s will be rebuilt on its next read",
                    type(exc).__name__, campaign_id)


async def evict(svc: Services, s, campaign_id: str) -> None:
    """Drop the cached table (a finished campaign is served from the records database)."""
    try:
        await svc.live.delete(table_key(campaign_id), **await _on_session(svc, s))
    except Exception as exc:
        if joins_transaction(svc):
            raise
        log.warning("live store unavailable (%s); table %s stays cached until it expires", type(exc).__name__,
                    campaign_id)
