"""What one move writes, as Core statements: the campaign's counters, its events, the move (and a snapshot
when one is due) and the sheets it changed.

The ORM's unit of work computed all of this again on every flush (states, dependencies, per-object
bookkeeping) and was the largest cost of a move. The rows are built by the same functions the ORM path uses
(`events.append`, `movelog.next_move`), so both paths write the same thing. (Folding the three statements
into one with PostgreSQL's data-modifying CTEs measured slower: the statement is compiled afresh each time.)"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from service.game.log import onetrip
from service.game.log.events import EVENT_COLUMNS, EventRow
from service.store.records import pgdirect
from service.store.records.models import Campaign, Character, EventRecord, MoveRecord, SnapshotRecord, utcnow

# Core tables: SQLAlchemy types a mapped class's __table__ as any FromClause.
_campaigns, _characters = cast(Table, Campaign.__table__), cast(Table, Character.__table__)
_CAMPAIGN = update(_campaigns).where(_campaigns.c.id == bindparam("campaign_id"))
_EVENTS = insert(cast(Table, EventRecord.__table__))
_MOVES = insert(cast(Table, MoveRecord.__table__))
_SNAPSHOTS = insert(cast(Table, SnapshotRecord.__table__))
_SHEETS = (
    update(_characters)
    .where(_characters.c.id == bindparam("character_id"))
    .values(
        sheet=bindparam("new_sheet", type_=_characters.c.sheet.type),
        version=_characters.c.version + 1,
        updated_at=bindparam("now"),
    )
)


async def write(
    s: AsyncSession,
    campaign: Campaign,
    records: list[EventRow],
    move: MoveRecord | None = None,
    snapshot: SnapshotRecord | None = None,
    sheets: dict[str, dict[str, Any]] | None = None,
) -> None:
    """`campaign` is outside the session (service/game/moves/access.py), so its new counters are written here; the
    records are transient too. Without a move, only events (a free roll). The statements go to the session's
    connection, past the ORM; on PostgreSQL, as one statement (service/game/log/onetrip.py)."""
    if pgdirect.on_postgres(s):
        await onetrip.write(s, campaign, records, move, snapshot, sheets)
        return
    conn = await s.connection()
    counters = {
        "last_seq": campaign.last_seq,
        "table_version": campaign.table_version,
        "table_token": campaign.table_token,
    }
    events = [{c: getattr(r, c) for c in EVENT_COLUMNS} for r in records]
    await conn.execute(_CAMPAIGN, {"campaign_id": campaign.id, **counters})
    if events:
        await conn.execute(_EVENTS, events)
    if move is not None:
        await conn.execute(_MOVES, [_row(move)])
    if snapshot is not None:
        await conn.execute(_SNAPSHOTS, [_row(snapshot)])
    if sheets:
        now = utcnow()
        await conn.execute(
            _SHEETS, [{"character_id": cid, "new_sheet": sheet, "now": now} for cid, sheet in sheets.items()]
        )


def _row(obj: Any) -> dict[str, Any]:
    table = obj.__table__
    row = {c.key: getattr(obj, c.key) for c in table.columns if getattr(obj, c.key, None) is not None}
    row.setdefault("created_at", utcnow())
    return row
