"""A campaign's table: the version in the records database is the truth, the live store a cache of it.

Reading a table asks the live store for the copy at the campaign's `table_version` and `table_token`
(a random tag each move sets). A copy that is missing (expired, evicted, a Redis that lost its data),
behind, ahead (written by a transaction that then failed to commit), or out of reach is rebuilt from
the move log (`movelog.state_at`) and put back. Writers put their table while they still hold the
campaign's lock, just before the commit: the next writer then finds it, and `put_newer` keeps writers
that finish out of order from putting an older copy over a newer one.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select

from service import metrics
from service.game.context import AFTER_COMMIT, Services
from service.game.errors import GameError
from service.game.log.moves import snapshot, state_at
from service.i18n.message import _
from service.rules.move import with_id_salt
from service.rules.registry import SYSTEMS
from service.store.live.sql import SqlLiveStore
from service.store.records.models import Campaign, CharacterRow, campaign_characters, SnapshotRecord

log = logging.getLogger("rulekeeper.tables")


def table_key(campaign_id: str) -> str:
    return f"campaign:{campaign_id}:table"


def _joins_transaction(svc: Services) -> bool:
    """The embedded SQL store writes inside the records transaction; its failure is the request's."""
    return isinstance(svc.live, SqlLiveStore)


async def _on_session(svc: Services, s) -> dict[str, Any]:
    """The embedded live store reads and writes on the request's own connection: inside its transaction,
    and without a second pooled connection per request (which, under load, exhausts the pool)."""
    return {"conn": await s.connection()} if _joins_transaction(svc) and s is not None else {}


async def _cached(svc: Services, s, campaign: Campaign, writing: bool) -> dict[str, Any] | None:
    key = table_key(campaign.id)
    try:
        hit = await svc.live.get(key, **await _on_session(svc, s))
        if writing and hit is not None and hit.version > campaign.table_version:
            # Under the campaign's lock the records are current, so a later copy is from a transaction that
            # did not commit. (A reader holds no lock: a later copy there is a move committed meanwhile.)
            await svc.live.delete(key, **await _on_session(svc, s))
            return None
    except Exception as exc:
        metrics.LIVE_STORE_ERRORS.labels("get").inc()
        if _joins_transaction(svc):
            raise
        # An unreachable live store is a cache miss, not a failed request.
        log.warning(
            "live store unavailable on read (%s); rebuilding table %s from the move log",
            type(exc).__name__,
            campaign.id,
        )
        return None
    if hit is None or hit.version != campaign.table_version:
        return None
    value = hit.value
    if not isinstance(value, dict) or value.get("token") != campaign.table_token:
        return None
    return value["table"]


def by_joining(characters: Iterable[CharacterRow]) -> dict[str, Any]:
    """Sheets by id in the order the characters joined, as a replay of the move log adds them: an engine may
    take seat order from it (Trikus does), so the live table and its replay must agree."""
    return {c.id: c.sheet for c in sorted(characters, key=lambda c: (c.created_at, c.id))}


async def load(
    svc: Services, s, campaign: Campaign, *, writing: bool = True, characters: list[CharacterRow] | None = None
) -> dict[str, Any]:
    """The whole engine state at the campaign's current version: options, characters, table.
    `writing=False` from a read-only session: a rebuilt table is put back into Redis (never over a newer
    copy), but not into the embedded store, whose writes wait for the campaign's writers. `characters`: every
    character of the campaign, when the caller has them already (service/game/moves/access.py)."""
    table = None
    if campaign.table_version:
        # Writers take this process's copy (checked against the row they hold locked); readers ask the live
        # store, so a copy it lost is rebuilt and put back there for every replica.
        if writing:
            table = svc.local_tables.get(campaign.id, campaign.table_version, campaign.table_token)
        if table is None:
            table = await _cached(svc, s, campaign, writing)
            if table is not None:
                svc.local_tables.put(campaign.id, campaign.table_version, campaign.table_token, table)
        metrics.TABLE_LOOKUPS.labels("miss" if table is None else "hit").inc()
    if table is not None:
        if characters is None:
            characters = await campaign_characters(s, campaign.id)
        return {"options": campaign.options, "characters": by_joining(characters), "table": table}
    if not await has_history(s, campaign):
        return await _adopt(svc, s, campaign, writing)
    state = await state_at(s, campaign, campaign.table_version)
    if campaign.table_version:
        metrics.REBUILDS.labels(campaign.system).inc()
    if campaign.status == "active" and (writing or not _joins_transaction(svc)):
        await publish(svc, s if writing else None, campaign, state["table"])
    return state


async def has_history(s, campaign: Campaign) -> bool:
    return (
        await s.scalar(
            select(SnapshotRecord.version).where(SnapshotRecord.campaign_id == campaign.id, SnapshotRecord.version == 0)
        )
        is not None
    )


async def _adopt(svc: Services, s, campaign: Campaign, writing: bool) -> dict[str, Any]:
    """A campaign from before the move log: its table lived only in the live store, under that store's own
    version. That table becomes the campaign's first snapshot; history before it cannot be replayed."""
    system = SYSTEMS[campaign.system]
    chars = by_joining(await campaign_characters(s, campaign.id))
    state = system.initial_state(system.Options.model_validate(campaign.options))
    version = 0
    try:
        old = await svc.live.get(table_key(campaign.id), **await _on_session(svc, s))
    except Exception:
        if _joins_transaction(svc):
            raise
        raise GameError(
            503,
            "service_unavailable",
            _("this campaign's table is in the live store, which is out of reach; retry shortly"),
            extra={"retry_after": 1},
        ) from None
    if old is not None and "token" not in old.value:
        state["table"], version = old.value, old.version
    with_id_salt(state["table"], secrets.token_hex(16))
    state = {"options": campaign.options, "characters": chars, "table": state["table"]}
    if writing:
        snapshot(s, campaign, 0, state)
        if version:
            snapshot(s, campaign, version, state)
        campaign.table_version = version
        await s.flush()
        log.info("campaign %s adopted into the move log at version %d", campaign.id, version)
    return state


async def publish(svc: Services, s, campaign: Campaign, table: dict[str, Any]) -> None:
    """Put the table at the campaign's version into the live store (a failure of Redis only means the
    next reader rebuilds). `s` is the writing transaction the embedded store joins; None: its own.

    Redis is written once the transaction has committed, when `s` is a `Services.write()` session: not while
    the campaign's row lock is held, where its round trip made every other writer of the campaign wait. The
    next writer in this process takes the copy in `local_tables`; one elsewhere that comes before the copy
    finds it behind and rebuilds, and `put_newer` keeps a late put from covering a newer copy. The request
    still waits for the put before it answers, so a reader it tells about the move finds the copy."""
    if campaign.table_version < 1:
        return
    svc.local_tables.put(campaign.id, campaign.table_version, campaign.table_token, table)
    key, version = table_key(campaign.id), campaign.table_version
    value = {"token": campaign.table_token, "table": table}
    joins = _joins_transaction(svc)

    async def put() -> None:
        try:
            await svc.live.put_newer(key, version, value, ttl=svc.settings.table_idle_ttl, **await _on_session(svc, s))
        except Exception as exc:
            metrics.LIVE_STORE_ERRORS.labels("put").inc()
            if joins and s is not None:
                raise
            log.warning(
                "live store unavailable on write (%s); table %s will be rebuilt on its next read",
                type(exc).__name__,
                campaign.id,
            )

    after_commit = s.info.get(AFTER_COMMIT) if s is not None and not joins else None
    if after_commit is not None:
        after_commit.append(put)
    else:
        await put()


async def evict(svc: Services, s, campaign_id: str) -> None:
    """Drop the cached table (a finished campaign is served from the records database)."""
    svc.local_tables.drop(campaign_id)
    try:
        await svc.live.delete(table_key(campaign_id), **await _on_session(svc, s))
    except Exception as exc:
        metrics.LIVE_STORE_ERRORS.labels("delete").inc()
        if _joins_transaction(svc):
            raise
        log.warning(
            "live store unavailable (%s); table %s stays cached until it expires", type(exc).__name__, campaign_id
        )
