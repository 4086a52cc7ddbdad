"""The campaign's event log: appended inside the writer's transaction, read per role."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from service import requestid
from service.game.auth import Principal
from service.rules.base import Actor, Event, seen_by
from service.store.records.models import Campaign, EventRecord

MAX_PAGE = 500


async def locked_campaign(session: AsyncSession, campaign_id: str) -> Campaign | None:
    """Load the campaign row for writing. On PostgreSQL the row lock orders every writer of one
    campaign, so sequence numbers are gapless and reads inside the transaction are current."""
    return await session.scalar(select(Campaign).where(Campaign.id == campaign_id).with_for_update())


def append(session: AsyncSession, campaign: Campaign, events: list[Event], actor: Actor) -> list[EventRecord]:
    records = []
    for ev in events:
        campaign.last_seq += 1
        rec = EventRecord(
            campaign_id=campaign.id, seq=campaign.last_seq, type=ev.type, data=ev.data,
            redacted=ev.redacted, visibility=ev.visibility, actor_role=actor.role,
            actor_player_id=actor.player_id, request_id=requestid.current.get(),
        )
        session.add(rec)
        records.append(rec)
    return records


def view(rec: EventRecord, principal: Principal) -> dict[str, Any] | None:
    """An event as this principal may see it, or None when it is GM-only."""
    data = seen_by(rec.visibility, rec.data, rec.redacted, principal.is_gm)
    if data is None:
        return None
    return {
        "seq": rec.seq,
        "type": rec.type,
        "data": data,
        "actor": {"role": rec.actor_role, "player_id": rec.actor_player_id},
        "created_at": rec.created_at.isoformat() if rec.created_at else None,
    }


async def read(session: AsyncSession, principal: Principal, after: int, limit: int) -> dict[str, Any]:
    limit = max(1, min(limit, MAX_PAGE))
    rows = list(await session.scalars(
        select(EventRecord)
        .where(EventRecord.campaign_id == principal.campaign_id, EventRecord.seq > after)
        .order_by(EventRecord.seq)
        .limit(limit)
    ))
    items = [v for v in (view(r, principal) for r in rows) if v is not None]
    last = rows[-1].seq if rows else after
    return {"items": items, "next_after": last, "has_more": len(rows) == limit}
