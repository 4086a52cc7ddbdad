"""What one move writes, in one statement on PostgreSQL: the campaign's counters, its events, the move, the
snapshot when one is due and the sheets it changed, as data-modifying CTEs of one prepared statement.

Three to five statements were three to five round trips, each while the campaign's row lock is held (every
other writer of that campaign waits for them). The statement is built from the models' columns, for each
combination of parts a move has (at most eight texts), and sent on asyncpg directly
(service/store/records/pgdirect.py), which prepares it once per connection. Events and sheets go as arrays
unnested into rows. JSON values are serialized as SQLAlchemy's JSON type does (a None is JSON `null` where
the column is JSON), so both paths write the same rows."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from sqlalchemy import JSON, Column, Table
from sqlalchemy.dialects import postgresql

from service.game.log.events import EventRow
from service.store.records import pgdirect
from service.store.records.db import json_dumps
from service.store.records.models import Campaign, Character, EventRecord, MoveRecord, SnapshotRecord, utcnow

_PG = postgresql.dialect()
_COUNTERS = ("last_seq", "table_version", "table_token")


def _table(model: Any) -> Table:
    """A mapped class's Core table (SQLAlchemy types __table__ as any FromClause)."""
    return cast(Table, model.__table__)


def _columns(table: Table) -> list[Column]:
    """The columns an insert writes: all but an autoincremented key."""
    return [c for c in table.columns if not (c.primary_key and c.autoincrement is True)]


def _type(column: Column) -> str:
    return column.type.compile(dialect=_PG)


class _Params:
    def __init__(self) -> None:
        self.n = 0

    def next(self, pg_type: str) -> str:
        self.n += 1
        return f"${self.n}::{pg_type}"


@cache
def _sql(move: bool, snapshot: bool, sheets: bool) -> str:
    p = _Params()
    campaigns, characters = _table(Campaign), _table(Character)
    sets = ", ".join(f"{c} = {p.next(_type(campaigns.c[c]))}" for c in _COUNTERS)
    parts = [f"counters AS (UPDATE campaigns SET {sets} WHERE id = {p.next(_type(campaigns.c.id))})"]
    events = _columns(_table(EventRecord))
    arrays = ", ".join(p.next(_type(c) + "[]") for c in events)
    parts.append(f"events AS (INSERT INTO events ({', '.join(c.name for c in events)}) SELECT * FROM unnest({arrays}))")
    for wanted, name, table in ((move, "move", _table(MoveRecord)), (snapshot, "snapshot", _table(SnapshotRecord))):
        if wanted:
            columns = _columns(table)
            values = ", ".join(p.next(_type(c)) for c in columns)
            parts.append(
                f"{name} AS (INSERT INTO {table.name} ({', '.join(c.name for c in columns)}) VALUES ({values}))"
            )
    if sheets:
        ids, new = p.next(_type(characters.c.id) + "[]"), p.next(_type(characters.c.sheet) + "[]")
        parts.append(
            f"sheets AS (UPDATE characters SET sheet = changed.sheet, version = characters.version + 1, "
            f"updated_at = {p.next(_type(characters.c.updated_at))} FROM unnest({ids}, {new}) "
            "AS changed(id, sheet) WHERE characters.id = changed.id)"
        )
    return "WITH " + ", ".join(parts) + " SELECT 1"


def _value(column: Column, value: Any) -> Any:
    if value is None and column.default is not None:
        default = column.default
        value = default.arg(None) if default.is_callable else default.arg  # type: ignore[attr-defined]
    if isinstance(column.type, JSON):
        return json_dumps(value)
    return value


def _row(table: Table, obj: Any) -> list[Any]:
    return [_value(c, getattr(obj, c.key, None)) for c in _columns(table)]


async def write(
    s,
    campaign: Campaign,
    records: list[EventRow],
    move: MoveRecord | None,
    snapshot: SnapshotRecord | None,
    sheets: dict[str, dict[str, Any]] | None,
) -> None:
    """As service/game/log/write.py's `write`, in one round trip."""
    args: list[Any] = [getattr(campaign, c) for c in _COUNTERS] + [campaign.id]
    columns = _columns(_table(EventRecord))
    args += [[_value(c, getattr(r, c.key)) for r in records] for c in columns]
    if move is not None:
        args += _row(_table(MoveRecord), move)
    if snapshot is not None:
        args += _row(_table(SnapshotRecord), snapshot)
    if sheets:
        args += [list(sheets), [json_dumps(sheet) for sheet in sheets.values()], utcnow()]
    await pgdirect.execute(s, _sql(move is not None, snapshot is not None, bool(sheets)), args)
