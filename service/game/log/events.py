"""The campaign's event log: appended inside the writer's transaction, read per role."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from service import requestid
from service.game.auth import Principal
from service.game.errors import not_found
from service.i18n.describe import describe
from service.rules.base import Actor, Event, seen_by
from service.store.records import pgdirect
from service.store.records.models import Campaign, EventRecord, utcnow

MAX_PAGE = 500
# session.info key: the records `append` numbered in this transaction, in order (`appended`).
_APPENDED = "rulekeeper.appended_events"


async def locked_campaign(session: AsyncSession, campaign_id: str) -> Campaign | None:
    """Load the campaign row for writing. On PostgreSQL the row lock orders every writer of one
    campaign, so sequence numbers are gapless and reads inside the transaction are current."""
    return await session.scalar(select(Campaign).where(Campaign.id == campaign_id).with_for_update())


async def locked_existing(session: AsyncSession, campaign_id: str) -> Campaign:
    """As locked_campaign, for a caller that has authenticated against this campaign: it exists, and a campaign
    gone since is a 404 like any other."""
    campaign = await locked_campaign(session, campaign_id)
    if campaign is None:
        raise not_found("campaign", "campaign_id")
    return campaign


# The actor the log names when the service itself acts: the deadline worker's events, and the moves it makes when
# a deadline runs out, need the GM's authority in the rules but are the clock's, and a client must be able to
# tell them from the GM's (`actor.role` "clock"). A context, not a parameter, because the same application code
# (play, dice refusals) writes a client's move and the clock's.
_acting_as: ContextVar[str | None] = ContextVar("rulekeeper_acting_as", default=None)
CLOCK = "clock"


@contextmanager
def acting_as(role: str) -> Iterator[None]:
    """Events appended inside are logged as `role`'s, with no player."""
    token = _acting_as.set(role)
    try:
        yield
    finally:
        _acting_as.reset(token)


# What a writer that inserts the rows itself (service/game/log/write.py) takes from each record.
EVENT_COLUMNS = (
    "campaign_id",
    "seq",
    "type",
    "data",
    "redacted",
    "visibility",
    "actor_role",
    "actor_player_id",
    "request_id",
    "created_at",
)


@dataclass(frozen=True, slots=True)
class EventRow:
    """An event as `view` and the webhook outbox read it: appended by this transaction (never loaded back as an ORM
    record), or fetched on asyncpg directly, whose records have no attributes. Fields in EVENT_COLUMNS' order."""

    campaign_id: str
    seq: int
    type: str
    data: dict[str, Any]
    redacted: dict[str, Any] | None
    visibility: str
    actor_role: str
    actor_player_id: str | None
    request_id: str | None
    created_at: datetime


def append(
    session: AsyncSession, campaign: Campaign, events: list[Event], actor: Actor, *, add: bool = True
) -> list[EventRow]:
    """Number the events after the campaign's last and note them for the webhook outbox and the subscribers.
    `add=False`: the caller inserts the rows itself (service/game/log/write.py), so no ORM record is built."""
    rows = []
    now = utcnow()
    acting = _acting_as.get()
    role, player_id = (acting, None) if acting is not None else (actor.role, actor.player_id)
    request_id = requestid.current.get()
    for ev in events:
        campaign.last_seq += 1
        row = EventRow(
            campaign.id,
            campaign.last_seq,
            ev.type,
            ev.data,
            ev.redacted,
            ev.visibility,
            role,
            player_id,
            request_id,
            now,
        )
        if add:
            session.add(EventRecord(**{c: getattr(row, c) for c in EVENT_COLUMNS}))
        rows.append(row)
    session.info.setdefault(_APPENDED, []).extend(rows)
    return rows


def appended(session: AsyncSession) -> list[EventRow]:
    """Every event this session's transaction appended, in order: what the transaction's end hands to the
    webhook outbox before it commits and announces to the subscribers after (service/game/context.py)."""
    return list(session.info.get(_APPENDED, ()))


def last_seqs(rows: list[EventRow]) -> dict[str, int]:
    """Each campaign among `rows` with the last seq appended to it."""
    out: dict[str, int] = {}
    for row in rows:
        out[row.campaign_id] = max(out.get(row.campaign_id, 0), row.seq)
    return out


def utc_iso(at: datetime | None) -> str | None:
    """Stored in UTC; SQLite hands it back without its zone, so every reader (the log, a move's reply, a
    webhook) shows the same text on every backend."""
    if at is None:
        return None
    return (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).isoformat()


def view(rec: Any, principal: Principal) -> dict[str, Any] | None:
    """An event as this principal may see it, or None when it is GM-only."""
    data = seen_by(rec.visibility, rec.data, rec.redacted, principal.is_gm)
    if data is None:
        return None
    return {
        "seq": rec.seq,
        "type": rec.type,
        "description": describe(rec.type, data),
        "data": data,
        "actor": {"role": rec.actor_role, "player_id": rec.actor_player_id},
        "created_at": utc_iso(rec.created_at),
    }


_events = EventRecord.__table__
# Core rows, not ORM entities: a page is up to 500 events that are only read, and loading them as entities
# cost more than the query. The rows have the attributes `view` reads. Built once, with its parameters bound.
_AFTER = (
    select(*[_events.c[c] for c in EVENT_COLUMNS])
    .where(_events.c.campaign_id == bindparam("campaign_id"), _events.c.seq > bindparam("after"))
    .order_by(_events.c.seq)
    .limit(bindparam("limit"))
)


_AFTER_DIRECT = pgdirect.Direct(_AFTER)


async def rows_after(conn: pgdirect.Alone, campaign_id: str, after: int, limit: int) -> list[EventRow]:
    """The next `limit` events after `after`, for everyone: `page` filters them per reader."""
    rows = await conn.fetch(_AFTER_DIRECT, {"campaign_id": campaign_id, "after": after, "limit": limit})
    return [EventRow(*row) for row in rows]


def page(rows: list[Any], principal: Principal, after: int, limit: int) -> dict[str, Any]:
    """One page of the log as this principal sees it. The cursor moves past hidden events too, so resuming
    from `next_after` neither repeats nor skips anything."""
    items = [v for v in (view(r, principal) for r in rows) if v is not None]
    last = rows[-1].seq if rows else after
    return {"items": items, "next_after": last, "has_more": len(rows) == limit}


async def read(conn: pgdirect.Alone, principal: Principal, after: int, limit: int) -> dict[str, Any]:
    limit = max(1, min(limit, MAX_PAGE))
    return page(await rows_after(conn, principal.campaign_id, after, limit), principal, after, limit)
