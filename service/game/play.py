"""Playing: load state, authorize, apply the rules, then commit state, dice and events together."""
from __future__ import annotations

import re
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select

from service.dice.types import DiceError
from service.game import events as log
from service.game.auth import authenticate
from service.game.context import Services
from service.game.dicesource import dice_for, finish
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


# The If-Match formats the service takes, stated as is in the OpenAPI parameter so the document is exact:
# `*`, one ETag it returned (`"3"`; the weak `W/"3"` names the same version), or the bare version (`3`, which
# clients that read `version` from a body send). A list of ETags, or anything else, is a 400.
IF_MATCH_PATTERN = r'^(\*|[0-9]{1,10}|(W/)?"[0-9]{1,10}")$'
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    if not _IF_MATCH.fullmatch(value):
        raise GameError(400, "invalid_if_match", "If-Match must be * or an ETag this service returned, like \"3\"",
                        field="If-Match")
    return None if value == "*" else int(value.removeprefix("W/").strip('"'))


async def get_state(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        principal = await authenticate(s, token, campaign_id)
        campaign = await s.get(log.Campaign, campaign_id)
        if campaign is None:
            raise not_found("campaign", "campaign_id")
        system = SYSTEMS[campaign.system]
        state, version = await _load(s, svc, campaign)
        return {"version": version, "state": system.view(state, principal.actor())}


async def _on_session(svc: Services, s) -> dict[str, Any]:
    """The embedded live store reads and writes on the request's own connection: inside its transaction,
    and without a second pooled connection per request (which, under load, exhausts the pool)."""
    return {"conn": await s.connection()} if isinstance(svc.live, SqlLiveStore) else {}


async def _load(s, svc: Services, campaign) -> tuple[dict[str, Any], int]:
    system = SYSTEMS[campaign.system]
    chars = await s.scalars(select(Character).where(Character.campaign_id == campaign.id))
    live = await svc.live.get(table_key(campaign.id), **await _on_session(svc, s))
    table = live.value if live else system.initial_state(system.Options.model_validate(campaign.options))["table"]
    state = {"options": campaign.options, "characters": {c.id: c.sheet for c in chars}, "table": table}
    return state, (live.version if live else 0)


async def act(svc: Services, campaign_id: str, token: str | None, body: ActionRequest,
              if_match: str | None = None) -> dict[str, Any]:
    expected = parse_if_match(if_match)
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
            raise GameError(412, "version_mismatch", f"the table is at version {version}, not {expected}; reload and retry",
                            field="If-Match", extra={"current_version": version})
        dice, dice_session = await dice_for(s, campaign, body.dice)
        actor = principal.actor()
        try:
            new_state, events = system.apply(state, action, actor, dice)
        except RuleViolation as exc:
            raise GameError(exc.status, exc.code, exc.detail, field=_action_field(exc.field)) from None
        except DiceError as exc:
            raise GameError(422, exc.code, exc.detail, field=exc.field) from None
        all_events = finish(dice, dice_session, purpose=action.type,
                                       secret_purposes=system.secret_dice_purposes) + events
        await _save_characters(s, campaign.id, state["characters"], new_state["characters"])
        records = log.append(s, campaign, all_events, actor)
        await s.flush()
        try:
            new_version = await svc.live.compare_and_set(table_key(campaign.id), version or None, new_state["table"],
                                                         **await _on_session(svc, s))
        except VersionConflict:
            raise GameError(409, "concurrent_update", "another move changed this table at the same moment; reload and retry",
                            extra={"current_version": version}) from None
        return {
            "version": new_version,
            "events": [v for v in (log.view(r, principal) for r in records) if v is not None],
            "state": system.view(new_state, actor),
        }


def _action_field(field: str | None) -> str | None:
    if field is None:
        return "action"
    return field if field.startswith(("action", "dice")) else f"action.{field}"


async def _save_characters(s, campaign_id: str, before: dict, after: dict) -> None:
    for cid, sheet in after.items():
        if before.get(cid) == sheet:
            continue
        ch = await s.get(Character, cid)
        if ch is None or ch.campaign_id != campaign_id:
            raise GameError(409, "unknown_character", f"character {cid} is not in this campaign", field="action")
        ch.sheet = sheet
        ch.version += 1
