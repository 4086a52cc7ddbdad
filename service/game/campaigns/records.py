"""Campaigns, players and characters: the records side of the application layer."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from pydantic import ValidationError
from sqlalchemy import bindparam, select

from service.dice import verifiable
from service.game.log import events as log
from service.game.deadlines import admin as deadline_admin, sync as deadline_sync
from service.game import idempotency
from service.game.log import moves as movelog, tables
from service.game.moves import pipeline
from service.game.moves.access import Glances, look
from service.game.auth import Principal, authenticate, authenticate_alone, check_operator_key, require_gm
from service.game.context import Services
from service.game.errors import GameError, forbidden, from_validation, invalid, not_found
from service.game.inputs import CampaignCreate, CharacterAssign, PlayerInvite, integral_numbers
from service.game.tokens import hash_token, new_token
from service.game.webhooks import outbox
from service.i18n.message import _
from service.rules.base import Actor, Event, RuleViolation
from service.rules.move import with_id_salt
from service.rules.registry import SYSTEMS
from service.store.records import pgdirect
from service.store.records.models import (
    Campaign,
    CampaignRow,
    Character,
    CharacterRow,
    Credential,
    DiceSession,
    Player,
    utcnow,
)

SYSTEM_ACTOR = Actor(role="gm")


def _id() -> str:
    return str(uuid.uuid4())


def campaign_view(c: Campaign | CampaignRow) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "system": c.system,
        "options": c.options,
        "dice_mode": c.dice_mode,
        "last_seq": c.last_seq,
        "version": c.table_version,
        "status": c.status,
        "language": c.language,
        "created_at": c.created_at.isoformat(),
        "imported": c.imported,
    }


def character_view(c: Character | CharacterRow, campaign: Campaign | CampaignRow, actor: Actor) -> dict[str, Any]:
    """A character as this actor may see it: the rule system's own view filters the sheet
    (hidden item traits, dark sides the GM must not read, …)."""
    system = SYSTEMS[campaign.system]
    seen = system.view(
        {
            "options": campaign.options,
            "characters": {c.id: c.sheet},
            "table": system.initial_state(system.Options.model_validate(campaign.options))["table"],
        },
        actor,
    )
    return {
        "id": c.id,
        "name": c.name,
        "player_id": c.player_id,
        "sheet": seen["characters"][c.id],
        "version": c.version,
    }


def player_view(p: Player) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "language": p.language}


def resolve_options(system_id: str, options: dict[str, Any]) -> dict[str, Any]:
    system = SYSTEMS[system_id]
    try:
        return system.Options.model_validate(options).model_dump(mode="json")
    except ValidationError as exc:
        raise from_validation(exc, "options") from None


async def open_dice_session(session, campaign_id: str, number: int) -> DiceSession:
    seed = verifiable.new_seed()
    ds = DiceSession(
        id=_id(),
        campaign_id=campaign_id,
        number=number,
        seed=seed,
        commitment=verifiable.commitment(seed),
        client_seed="",
        counter=0,
        status="open",
        opened_at=utcnow(),
    )
    session.add(ds)
    return ds


async def create_campaign(svc: Services, body: CampaignCreate, operator_key: str | None) -> dict[str, Any]:
    check_operator_key(svc.settings, operator_key)
    options = resolve_options(body.system, body.options)
    token = new_token("gm")
    async with svc.write() as s:
        c = Campaign(
            id=_id(),
            name=body.name,
            system=body.system,
            options=options,
            dice_mode=body.dice_mode,
            last_seq=0,
            language=body.language,
        )
        s.add(c)
        await s.flush()
        # A campaign this transaction creates has no webhook yet: its first events are delivered to no one.
        outbox.no_webhooks(s, c.id)
        s.add(Credential(id=_id(), campaign_id=c.id, role="gm", token_hash=hash_token(token)))
        evs = [
            Event(
                "campaign_created",
                {
                    "name": c.name,
                    "system": c.system,
                    "options": options,
                    "dice_mode": c.dice_mode,
                    "language": c.language,
                },
            )
        ]
        if c.dice_mode == "verifiable":
            ds = await open_dice_session(s, c.id, 1)
            evs.append(Event("dice_session_opened", {"number": 1, "commitment": ds.commitment}))
        log.append(s, c, evs, SYSTEM_ACTOR)
        # Version 0 of the table: every rebuild and replay of this campaign starts here. It carries the key of
        # the ids players must not guess (clocks, elements, notes): chosen here, never by an engine.
        system = SYSTEMS[c.system]
        initial = system.initial_state(system.Options.model_validate(options))
        with_id_salt(initial["table"], secrets.token_hex(16))
        movelog.snapshot(s, c, 0, initial)
        if body.turn_deadlines is not None:
            deadline_admin.keep(s, c, body.turn_deadlines, SYSTEM_ACTOR)
        await s.flush()
        return await idempotency.complete(s, {"campaign": campaign_view(c), "gm_token": token})


# A campaign's players, read with no session (Services.alone) beside the first look at the campaign.
_players = Player.__table__
_PLAYERS = pgdirect.Direct(
    select(_players.c.id, _players.c.name, _players.c.language)
    .where(_players.c.campaign_id == bindparam("campaign_id"))
    .order_by(_players.c.created_at)
)


async def get_campaign(
    svc: Services, campaign_id: str, token: str | None, glances: Glances | None = None
) -> dict[str, Any]:
    async with svc.alone() as conn:
        glance, _ = await look(svc, token, campaign_id, glances, conn)
        players = [dict(r) for r in await conn.fetch(_PLAYERS, {"campaign_id": campaign_id})]
    out = campaign_view(glance.campaign)
    out["players"] = players
    p = glance.principal
    out["you"] = {"role": p.role, "player_id": p.player_id, "character_ids": sorted(p.character_ids)}
    return out


async def invite_player(svc: Services, campaign_id: str, token: str | None, body: PlayerInvite) -> dict[str, Any]:
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await log.locked_existing(s, campaign_id)
        player = Player(id=_id(), campaign_id=campaign_id, name=body.name)
        s.add(player)
        await s.flush()
        ptoken = new_token("pl")
        s.add(
            Credential(
                id=_id(), campaign_id=campaign_id, role="player", player_id=player.id, token_hash=hash_token(ptoken)
            )
        )
        log.append(s, c, [Event("player_invited", {"player_id": player.id, "name": player.name})], principal.actor())
        return await idempotency.complete(s, {"player": player_view(player), "token": ptoken})


def build_sheet(system_id: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Validate a sheet against the rule system; a 422 names the field that is wrong."""
    system = SYSTEMS[system_id]
    try:
        parsed = system.CharacterInput.model_validate(integral_numbers(data))
        return system.new_character(parsed, system.Options.model_validate(options))
    except ValidationError as exc:
        raise from_validation(exc) from None
    except RuleViolation as exc:
        raise GameError(422 if exc.status == 409 else exc.status, exc.code, exc.detail, field=exc.field) from None


async def validate_character(
    svc: Services, campaign_id: str, token: str | None, data: dict[str, Any]
) -> dict[str, Any]:
    campaign = (await look(svc, token, campaign_id))[0].campaign
    return {"valid": True, "sheet": build_sheet(campaign.system, campaign.options, data)}


async def create_character(
    svc: Services, campaign_id: str, token: str | None, data: dict[str, Any], player_id: str | None = None
) -> dict[str, Any]:
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        c = await log.locked_existing(s, campaign_id)
        if not principal.is_gm:
            if player_id not in (None, principal.player_id):
                raise forbidden(
                    _("a player creates characters only for themselves"), "player_id", code="not_your_character"
                )
            player_id = principal.player_id
        elif player_id is not None:
            await _player(s, campaign_id, player_id)
        sheet = build_sheet(c.system, c.options, data)
        name = str(sheet.get("name") or "")
        if not name or len(name) > 200 or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            raise invalid(
                "invalid_input",
                _("a character needs a name of 1-200 characters without control characters"),
                "sheet.name",
            )
        pipeline.require_active(c)
        state = await tables.load(svc, s, c)
        ch = Character(
            id=_id(), campaign_id=campaign_id, player_id=player_id, name=name, sheet={**sheet, "id": None}, version=1
        )
        ch.sheet = {**sheet, "id": ch.id}
        s.add(ch)
        # The sheet stays out of the log: what each reader may see of it is the rule system's view.
        first_seq = c.last_seq + 1
        log.append(
            s,
            c,
            [Event("character_created", {"character_id": ch.id, "player_id": player_id, "name": name})],
            principal.actor(),
        )
        # A new character changes the table's state (its characters), so it is a move like any other.
        state["characters"] = {**state["characters"], ch.id: ch.sheet}
        movelog.record(
            s, c, "character", {"character_id": ch.id, "sheet": ch.sheet}, principal.actor(), [], first_seq, state
        )
        await s.flush()
        await deadline_sync.after_move(s, c, state["table"])
        await tables.publish(svc, s, c, state["table"])
        return await idempotency.complete(s, character_view(ch, c, _with(principal, ch)))


def _with(principal: Principal, ch: Character) -> Actor:
    """The creator's actor, counting the character just created as theirs when it is."""
    actor = principal.actor()
    if ch.player_id and ch.player_id == principal.player_id:
        return Actor(role=actor.role, player_id=actor.player_id, character_ids=actor.character_ids | {ch.id})
    return actor


async def _player(s, campaign_id: str, player_id: str) -> Player:
    p = await s.get(Player, player_id)
    if p is None or p.campaign_id != campaign_id:
        raise invalid("unknown_player", _("no player {player_id} in this campaign", player_id=player_id), "player_id")
    return p


async def assign_character(
    svc: Services, campaign_id: str, character_id: str, token: str | None, body: CharacterAssign
) -> dict[str, Any]:
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await log.locked_existing(s, campaign_id)
        ch = await s.get(Character, character_id)
        if ch is None or ch.campaign_id != campaign_id:
            raise not_found("character", "character_id")
        if body.player_id is not None:
            await _player(s, campaign_id, body.player_id)
        ch.player_id = body.player_id
        ch.version += 1
        log.append(
            s, c, [Event("character_assigned", {"character_id": ch.id, "player_id": body.player_id})], principal.actor()
        )
        # Only a player's waits are timed, so who plays the character decides whether its wait has a deadline.
        if c.status == "active" and await deadline_sync.clock_of(s, c.id) is not None:
            await s.flush()
            await deadline_sync.after_move(s, c, (await tables.load(svc, s, c))["table"])
        return character_view(ch, c, principal.actor())


async def list_characters(
    svc: Services, campaign_id: str, token: str | None, glances: Glances | None = None
) -> list[dict[str, Any]]:
    """Every character, oldest first, from the first look at the campaign (access.py: its statement already
    carries them)."""
    glance, _ = await look(svc, token, campaign_id, glances)
    actor = glance.principal.actor()
    characters = sorted(glance.characters, key=lambda c: c.created_at)
    return [character_view(c, glance.campaign, actor) for c in characters]


async def get_character(
    svc: Services, campaign_id: str, character_id: str, token: str | None, glances: Glances | None = None
) -> dict[str, Any]:
    glance, _ = await look(svc, token, campaign_id, glances)
    for c in glance.characters:
        if c.id == character_id:
            return character_view(c, glance.campaign, glance.principal.actor())
    raise not_found("character", "character_id")


async def read_events(svc: Services, campaign_id: str, token: str | None, after: int, limit: int) -> dict[str, Any]:
    async with svc.alone() as conn:  # two statements, each answering by itself: no session
        return await log.read(conn, await authenticate_alone(conn, token, campaign_id), after, limit)
