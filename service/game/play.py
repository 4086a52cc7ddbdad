"""Playing: load state, authorize, apply the rules, then commit state, dice and events together."""
from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select

from service.dice.types import DiceError
from service.game import events as log
from service.game.auth import authenticate
from service.game.context import Services
from service.game.dicesource import BUG, consume_refused, current_session, dice_for, drawn, finish
from service.game.errors import GameError, from_validation, not_found
from service.game.inputs import ActionRequest
from service.rules.base import RuleViolation
from service.rules.registry import SYSTEMS
from service.store.live.base import VersionConflict
from service.store.records.models import Character
from service.store.live.sql import SqlLiveStore

_ADAPTERS: dict[str, TypeAdapter] = {}


def action_adapter(system_id: str) -> TypeAdapter:
    if system_id not in _ADAPTERS:
        _ADAPTERS[system_id] = TypeAdapter(SYSTEMS[system_id].Action)
    return _ADAPTERS[system_id]


def table_key(campaign_id: str) -> str:
    return f"campaign:{campaign_id}:table"


def etag(version: int) -> str:
    return f'"{version}"'


def parse_if_match(value: str | None) -> int | None:
    if value is None or value.strip() == "*":
        return None
    raw = value.strip().removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise GameError(400, "invalid_if_match", "If-Match must be an ETag this service returned, like \"3\"",
                        field="If-Match")
    return int(raw)


async def get_state(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        principal = await authenticate(s, token, campaign_id)
        campaign = await s.get(log.Campaign, campaign_id)
        if campaign is None:
            raise not_found("campaign", "campaign_id")
        system = SYSTEMS[campaign.system]
        state, version = await _load(s, svc, campaign)
        return {"version": version, "state": system.view(state, principal.actor())}


async def live_options(svc: Services, s) -> dict[str, Any]:
    """The embedded live store reads and writes on the request's own connection: inside its transaction,
    and without a second pooled connection per request (which, under load, exhausts the pool)."""
    return {"conn": await s.connection()} if isinstance(svc.live, SqlLiveStore) else {}


async def _load(s, svc: Services, campaign) -> tuple[dict[str, Any], int]:
    system = SYSTEMS[campaign.system]
    chars = await s.scalars(select(Character).where(Character.campaign_id == campaign.id))
    live = await svc.live.get(table_key(campaign.id), **await live_options(svc, s))
    table = live.value if live else system.initial_state(system.Options.model_validate(campaign.options))["table"]
    state = {"options": campaign.options, "characters": {c.id: c.sheet for c in chars}, "table": table}
    return state, (live.version if live else 0)


async def act(svc: Services, campaign_id: str, token: str | None, body: ActionRequest,
              if_match: str | None = None) -> dict[str, Any]:
    """One move. Refused before its first die, it changes nothing; refused after drawing dice, it still logs
    them (service/game/dicesource.py) and the refusal says so in `dice_consumed`."""
    expected = parse_if_match(if_match)
    refusal: BaseException | None = None
    try:
        async with svc.write() as s:
            principal = await authenticate(s, token, campaign_id)
            campaign = await log.locked_campaign(s, campaign_id)
            if campaign is None:
                raise not_found("campaign", "campaign_id")
            system = SYSTEMS[campaign.system]
            try:
                action = action_adapter(campaign.system).validate_python(body.action)
            except ValidationError as exc:
                raise from_validation(exc, "action") from None
            state, version = await _load(s, svc, campaign)
            if expected is not None and expected != version:
                raise GameError(412, "version_mismatch",
                                f"the table is at version {version}, not {expected}; reload and retry",
                                field="If-Match", extra={"current_version": version})
            dice, dice_session = await dice_for(s, campaign, body.dice)
            start = (dice_session.number, dice_session.counter) if dice_session is not None else None
            actor = principal.actor()
            try:
                new_state, all_events = _decide(system, state, action, actor, dice, dice_session)
                changed = await _changed_characters(s, campaign.id, state["characters"], new_state["characters"])
            except Exception as exc:
                if not drawn(dice):
                    raise
                error = exc if isinstance(exc, GameError) else BUG
                consumed = await consume_refused(s, campaign, drawn(dice), dice_session, purpose=action.type,
                                                 error=error, principal=principal)
                refusal = consumed if isinstance(exc, GameError) else exc
            else:
                for ch, sheet in changed:
                    ch.sheet = sheet
                    ch.version += 1
                records = log.append(s, campaign, all_events, actor)
                await s.flush()
                try:
                    new_version = await svc.live.compare_and_set(table_key(campaign.id), version or None,
                                                                 new_state["table"], **await live_options(svc, s))
                except VersionConflict:
                    raise _Conflict(version, drawn(dice), start, action.type, principal) from None
                return {
                    "version": new_version,
                    "events": [v for v in (log.view(r, principal) for r in records) if v is not None],
                    "state": system.view(new_state, actor),
                }
    except _Conflict as c:
        raise await _conflict_after_rollback(svc, campaign_id, c) from None
    raise refusal


def _decide(system, state, action, actor, dice, dice_session) -> tuple[dict[str, Any], list]:
    """The rules' answer: the next state and every event, the dice first. Writes nothing."""
    try:
        new_state, events = system.apply(state, action, actor, dice)
    except RuleViolation as exc:
        raise GameError(exc.status, exc.code, exc.detail, field=_action_field(exc.field)) from None
    except DiceError as exc:
        raise GameError(422, exc.code, exc.detail, field=exc.field) from None
    return new_state, finish(dice, dice_session, purpose=action.type) + events


class _Conflict(Exception):
    """The live table moved under this move after it was decided; its transaction is rolled back."""

    def __init__(self, version: int, dice: list, start: tuple[int, int] | None, purpose: str, principal) -> None:
        super().__init__("concurrent update")
        self.version, self.dice, self.start, self.purpose, self.principal = version, dice, start, purpose, principal


async def _conflict_after_rollback(svc: Services, campaign_id: str, c: _Conflict) -> GameError:
    """The 409 for a lost race. Its dice are logged in a transaction of their own when nobody has drawn
    those dice since (the verifiable counter is where this move left it): the refusal does not depend on
    them, but a drawn die is still accounted for. If another move drew them meanwhile, it logged them."""
    error = GameError(409, "concurrent_update", "another move changed this table at the same moment; reload and retry",
                      extra={"current_version": c.version})
    if not c.dice:
        return error
    async with svc.write() as s:
        campaign = await log.locked_campaign(s, campaign_id)
        ds = await current_session(s, campaign_id) if c.start is not None else None
        if c.start is not None and (ds is None or (ds.number, ds.counter) != c.start):
            return error
        return await consume_refused(s, campaign, c.dice, ds, purpose=c.purpose, error=error, principal=c.principal)


def _action_field(field: str | None) -> str | None:
    if field is None:
        return "action"
    return field if field.startswith(("action", "dice")) else f"action.{field}"


async def _changed_characters(s, campaign_id: str, before: dict, after: dict) -> list[tuple[Character, dict]]:
    """The sheets this move changes, checked before anything is written."""
    out = []
    for cid, sheet in after.items():
        if before.get(cid) == sheet:
            continue
        ch = await s.get(Character, cid)
        if ch is None or ch.campaign_id != campaign_id:
            raise GameError(409, "unknown_character", f"character {cid} is not in this campaign", field="action")
        out.append((ch, sheet))
    return out
