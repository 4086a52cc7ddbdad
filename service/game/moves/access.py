"""The first round trip of every move: who is asking, the campaign locked for writing, its characters, its
turn clock, and whether any webhook listens, in one statement (on PostgreSQL sent on asyncpg directly:
service/store/records/pgdirect.py).

Asked one after another these were four queries, each a round trip on the request's critical path while it
holds the campaign's lock (service/game/log/events.py: the lock orders every writer of one campaign). The rows
come back as Core rows, not ORM entities: the campaign and the characters are built here, outside the
session, and everything a move changes is written by service/game/log/write.py.

A read's first look is the same statement without the lock (`read_alone`, `look`), on a connection with no
session; the fields of one GraphQL query share it (`Glances`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import and_, bindparam, exists, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.util import identity_key

from service.game.deadlines import sync as deadline_sync
from service.game.webhooks import outbox
from service.game.auth import Principal, credential_params, invalid_token
from service.game.context import Services
from service.i18n import context as i18n_context
from service.store.records import pgdirect
from service.store.records.clocks import CampaignClock
from service.store.records.models import (
    CAMPAIGN_COLUMNS,
    CHARACTER_COLUMNS,
    Campaign,
    CampaignRow,
    Character,
    CharacterRow,
    Credential,
    Player,
    Webhook,
)

_campaigns, _credentials, _characters = Campaign.__table__, Credential.__table__, Character.__table__
_players, _clocks = Player.__table__, CampaignClock.__table__
_CHARACTER_LABELS = [f"character_{name}" for name in CHARACTER_COLUMNS]
_CLOCK_COLUMNS = [c.key for c in _clocks.columns]


def _statement(with_characters: bool, lock: bool = True):
    hooks = (
        exists()
        .where(Webhook.__table__.c.campaign_id == _campaigns.c.id, Webhook.__table__.c.status == "active")
        .label("hooks")
    )
    columns = [
        *_campaigns.columns,
        _credentials.c.id.label("credential_id"),
        _credentials.c.role,
        _credentials.c.player_id.label("credential_player_id"),
        _players.c.language.label("player_language"),
        hooks,
        *[c.label(f"clock_{c.key}") for c in _clocks.columns],
    ]
    if with_characters:
        columns += [c.label(f"character_{c.key}") for c in _characters.columns]
    stmt = select(*columns).join(
        _credentials,
        and_(_credentials.c.campaign_id == _campaigns.c.id, _credentials.c.token_hash == bindparam("token_hash")),
    )
    # The player's own language comes along (service/i18n): no round trip of its own.
    stmt = stmt.outerjoin(_players, _players.c.id == _credentials.c.player_id)
    # The turn clock too (service/game/deadline_sync.py): every move and every view of the table asks for it.
    stmt = stmt.outerjoin(_clocks, _clocks.c.campaign_id == _campaigns.c.id)
    if with_characters:
        stmt = stmt.outerjoin(_characters, _characters.c.campaign_id == _campaigns.c.id)
    stmt = stmt.where(_campaigns.c.id == bindparam("campaign_id"))
    return stmt.with_for_update(of=_campaigns) if lock else stmt


# Built once: constructing a statement costs as much as executing a cached one.
_WITH_CHARACTERS = _statement(True)
_WITHOUT_CHARACTERS = _statement(False)
_READING = _statement(True, lock=False)
_DIRECT = {id(s): pgdirect.Direct(s) for s in (_WITH_CHARACTERS, _WITHOUT_CHARACTERS, _READING)}
_PLAYERS_CHARACTERS = select(_characters.c.id).where(
    _characters.c.campaign_id == bindparam("campaign_id"), _characters.c.player_id == bindparam("player_id")
)


@dataclass(frozen=True)
class Opened:
    principal: Principal
    # Built from the row, not loaded into the session: changing it writes nothing by itself.
    campaign: Campaign
    # None when not asked for; else every character of the campaign, likewise outside the session.
    characters: list[CharacterRow] | None
    # Whether the campaign keeps a turn clock (its deadlines annotate what the table awaits).
    timed: bool = False


@dataclass(frozen=True, slots=True)
class Glance:
    """A read's first look, with no session (`read_alone`): as `Opened`, with the campaign's row as plain values."""

    principal: Principal
    campaign: CampaignRow
    characters: list[CharacterRow]
    timed: bool


async def open_for_writing(s: AsyncSession, token: str | None, campaign_id: str, *, characters: bool = True) -> Opened:
    """As `authenticate` then `locked_campaign` (and the campaign's characters): a 401 without a token that
    belongs to this campaign. A campaign that does not exist has no token, so that is a 401 too."""
    statement = _WITH_CHARACTERS if characters else _WITHOUT_CHARACTERS
    return await _in_session(s, await _rows(s, token, campaign_id, statement), characters)


async def open_for_reading(s: AsyncSession, token: str | None, campaign_id: str, *, rows: Any = None) -> Opened:
    """The same, without the lock: for reading the table. `rows`: `read_alone`'s, when it was asked first."""
    if rows is None:
        rows = await _rows(s, token, campaign_id, _READING)
    return await _in_session(s, rows, True)


async def read_alone(conn: pgdirect.Alone, token: str | None, campaign_id: str) -> tuple[Glance, Any]:
    """`open_for_reading`'s statement and checks with no session (Services.alone): what they found and
    the rows, for `open_for_reading(rows=...)` should the read need a session after all."""
    rows = await conn.fetch(_DIRECT[id(_READING)], credential_params(token, campaign_id))
    if not rows:
        raise invalid_token()
    campaign = CampaignRow(*(rows[0][k] for k in CAMPAIGN_COLUMNS))
    principal, characters, timed = _looked(rows, campaign)
    return Glance(principal, campaign, characters or [], timed), rows


class Glances:
    """The first looks of one GraphQL query, shared by its fields. The web table asks for its table, its campaign
    and its characters in one query after every move; each field looked for the credential, the campaign's row and
    the characters on its own (seven statements). Shared, they are read once, and the fields agree with each
    other even when a move lands meanwhile. Reads only: one per query (service/api/graphql/app.py makes one per
    HTTP request; a WebSocket, which carries many operations, gets none)."""

    def __init__(self) -> None:
        self._looks: dict[tuple[str | None, str], asyncio.Task[tuple[Glance, Any]]] = {}

    def look(self, svc: Services, token: str | None, campaign_id: str) -> asyncio.Task[tuple[Glance, Any]]:
        key = (token, campaign_id)
        task = self._looks.get(key)
        if task is None:
            # A task of its own: no field's cancellation cancels what the others wait on.
            task = self._looks[key] = asyncio.ensure_future(_look(svc, token, campaign_id))
        return task


async def look(
    svc: Services,
    token: str | None,
    campaign_id: str,
    glances: Glances | None = None,
    conn: pgdirect.Alone | None = None,
) -> tuple[Glance, Any]:
    """The look this query already made, else `read_alone` on `conn` or on a connection of its own."""
    if glances is not None:
        return await glances.look(svc, token, campaign_id)
    if conn is not None:
        return await read_alone(conn, token, campaign_id)
    return await _look(svc, token, campaign_id)


async def _look(svc: Services, token: str | None, campaign_id: str) -> tuple[Glance, Any]:
    async with svc.alone() as conn:
        return await read_alone(conn, token, campaign_id)


async def _rows(s: AsyncSession, token: str | None, campaign_id: str, statement) -> Any:
    params = credential_params(token, campaign_id)
    if pgdirect.on_postgres(s):
        # A reader's statement needs no transaction of its own: it takes no lock.
        return await pgdirect.fetch(s, _DIRECT[id(statement)], params, begin=statement is not _READING)
    return (await (await s.connection()).execute(statement, params)).mappings().all()


def _opened(rows: Any, characters: bool) -> Opened:
    """Who asks and the campaign, from the rows (the characters' rows only when asked for): a 401 for none."""
    if not rows:
        raise invalid_token()
    campaign = Campaign(**{k: rows[0][k] for k in CAMPAIGN_COLUMNS})
    principal, chars, timed = _looked(rows, campaign, characters)
    return Opened(principal, campaign, chars, timed=timed)


def _looked(
    rows: Any, campaign: Campaign | CampaignRow, characters: bool = True
) -> tuple[Principal, list[CharacterRow] | None, bool]:
    """Who asks, the characters (when asked for) and whether a turn clock is kept, from the (non-empty) rows."""
    first = rows[0]
    i18n_context.note_preferences(player=first["player_language"], campaign=campaign.language)
    chars = None
    if characters:
        chars = [
            CharacterRow(*(row[label] for label in _CHARACTER_LABELS))
            for row in rows
            if row["character_id"] is not None
        ]
    player_id = first["credential_player_id"]
    own = frozenset(c.id for c in chars if c.player_id == player_id) if player_id and chars is not None else frozenset()
    principal = Principal(first["credential_id"], campaign.id, first["role"], player_id, own)
    return principal, chars, first["clock_campaign_id"] is not None


async def _in_session(s: AsyncSession, rows: Any, characters: bool) -> Opened:
    """`_opened`, with what the rows tell the session: no webhooks to look for, the clock as if loaded there, and
    the player's own characters when the characters were not read."""
    opened = _opened(rows, characters)
    first, campaign, principal = rows[0], opened.campaign, opened.principal
    if not first["hooks"]:
        outbox.no_webhooks(s, campaign.id)
    deadline_sync.remember(s, campaign.id, _clock(s, first))
    if principal.player_id and not characters:
        conn = await s.connection()
        own = frozenset(
            (
                await conn.execute(_PLAYERS_CHARACTERS, {"campaign_id": campaign.id, "player_id": principal.player_id})
            ).scalars()
        )
        principal = Principal(principal.credential_id, campaign.id, principal.role, principal.player_id, own)
        opened = replace(opened, principal=principal)
    return opened


def _clock(s: AsyncSession, row: Any) -> CampaignClock | None:
    """The campaign's clock from the row, in the session as if loaded there (a move may change it), or None."""
    if row["clock_campaign_id"] is None:
        return None
    known = s.sync_session.identity_map.get(identity_key(CampaignClock, row["clock_campaign_id"]))
    if known is not None:
        return known
    clock = CampaignClock(**{k: row[f"clock_{k}"] for k in _CLOCK_COLUMNS})
    make_transient_to_detached(clock)
    s.add(clock)
    return clock
