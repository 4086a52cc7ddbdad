"""Playing: load state, authorize, apply the rules, then commit state, dice and events together."""
from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select

from service import metrics
from service.dice.types import DiceError
from service.game.log import events as log
from service.game.deadlines import sync as deadline_sync
from service.game import idempotency
from service.game.log import moves as movelog, write as movewrite, tables
from service.game.moves.access import open_for_reading, open_for_writing
from service.game.context import Services
from service.game.moves.dicesource import BUG, consume_refused, dice_for, drawn, finish
from service.game.errors import GameError, from_validation
from service.game.inputs import ActionRequest
from service.i18n.message import _
from service.rules.base import RuleViolation
from service.rules.registry import SYSTEMS
from service.store.records.models import Character


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
        raise GameError(400, "invalid_if_match", _("If-Match must be * or an ETag this service returned, like "
                                                   "\"3\""),
                        field="If-Match")
    return None if value == "*" else int(value.removeprefix("W/").strip('"'))


async def get_state(svc: Services, campaign_id: str, token: str | None, version: int | None = None) -> dict[str, Any]:
    """The table as this caller may see it: now, or as it stood at an earlier `version`."""
    async with svc.read() as s:
        opened = await open_for_reading(s, token, campaign_id)
        principal, campaign = opened.principal, opened.campaign
        system = SYSTEMS[campaign.system]
        viewer = principal.actor()
        if version is None or version == campaign.table_version:
            version = campaign.table_version
            if campaign.table_version:
                # Loaded and viewed only when no view is kept for this version (service/game/log/views.py).
                async def viewed() -> dict[str, Any]:
                    state = await tables.load(svc, s, campaign, writing=False, characters=opened.characters)
                    return system.view(state, viewer)

                seen = await svc.views.view(campaign, opened.characters or [], viewer, viewed,
                                            max_age=svc.settings.table_idle_ttl)
            else:
                seen = system.view(await tables.load(svc, s, campaign, writing=False,
                                                     characters=opened.characters), viewer)
        elif version > campaign.table_version:
            raise GameError(404, "not_found", _("the table is at version {table_version}; version {version} does "
                                                "not exist yet",
                                                table_version=campaign.table_version, version=version), field="version")
        else:
            seen = system.view(await movelog.state_at(s, campaign, version), viewer)
        if version == campaign.table_version:   # deadlines belong to the table as it is now
            seen = await deadline_sync.annotate(s, campaign.id, seen)
        else:
            seen = deadline_sync.named_moves(seen)
        return {"version": version, "system": campaign.system, "state": seen}


def require_active(campaign) -> None:
    if campaign.status != "active":
        raise GameError(409, "campaign_finished", _("this campaign is {status}: its log and tables stay "
                                                    "readable, but it accepts no new move",
                                                    status=campaign.status))


@metrics.counted(metrics.MOVES)
async def act(svc: Services, campaign_id: str, token: str | None, body: ActionRequest,
              if_match: str | None = None) -> dict[str, Any]:
    """One move. Refused before its first die, it changes nothing; refused after drawing dice, it still logs
    them (service/game/moves/dicesource.py) and the refusal says so in `dice_consumed`. Applied, it is recorded in
    the move log with its dice, events and sheets in one transaction, and the live copy follows."""
    expected = parse_if_match(if_match)
    refusal: BaseException | None = None
    async with svc.write() as s:
        opened = await open_for_writing(s, token, campaign_id)
        principal, campaign = opened.principal, opened.campaign
        metrics.system_is(campaign.system)
        require_active(campaign)
        system = SYSTEMS[campaign.system]
        if body.system is not None and body.system != campaign.system:
            raise GameError(409, "system_mismatch", _("this campaign plays {expected}, not {sent}", expected=campaign.system,
                                                      sent=body.system),
                            field="system")
        try:
            action = movelog.action_adapter(campaign.system).validate_python(body.action)
        except ValidationError as exc:
            raise from_validation(exc, "action") from None
        version = campaign.table_version
        if expected is not None and expected != version:
            raise GameError(412, "version_mismatch", _("the table is at version {version}, not {expected}; "
                                                       "reload and retry",
                                                       version=version, expected=expected),
                            field="If-Match", extra={"current_version": version})
        state = await tables.load(svc, s, campaign, characters=opened.characters)
        dice, dice_session = await dice_for(s, campaign, body.dice)
        actor = principal.actor()
        try:
            new_state, all_events = _decide(system, state, action, actor, dice, dice_session)
            sheets = _changed_sheets(opened.characters, state["characters"], new_state["characters"])
        except Exception as exc:
            if not drawn(dice):
                raise
            error = exc if isinstance(exc, GameError) else BUG
            consumed = await consume_refused(s, campaign, drawn(dice), dice_session, purpose=action.type,
                                             error=error, principal=principal)
            refusal = consumed if isinstance(exc, GameError) else exc
        else:
            first_seq = campaign.last_seq + 1
            records = log.append(s, campaign, all_events, actor, add=False)
            move, snap = movelog.next_move(campaign, "action", {"action": body.action}, actor, dice.rolled,
                                           first_seq, new_state)
            # Before the counters are written: the deadlines' own events take the next seqs.
            await deadline_sync.after_move(s, campaign, new_state["table"])
            await movewrite.write(s, campaign, records, move, snap, sheets)
            await tables.publish(svc, s, campaign, new_state["table"])
            return await idempotency.complete(s, {
                "version": campaign.table_version, "system": campaign.system,
                "events": [v for v in (log.view(r, principal) for r in records) if v is not None],
                "state": await deadline_sync.annotate(s, campaign.id, system.view(new_state, actor)),
            })
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


def _action_field(field: str | None) -> str | None:
    if field is None:
        return "action"
    return field if field.startswith(("action", "dice")) else f"action.{field}"


def _changed_sheets(characters: list[Character], before: dict, after: dict) -> dict[str, dict]:
    """The sheets this move changes, checked before anything is written."""
    known = {c.id for c in characters}
    out = {}
    for cid, sheet in after.items():
        if before.get(cid) == sheet:
            continue
        if cid not in known:
            raise GameError(409, "unknown_character", _("character {cid} is not in this campaign", cid=cid),
                            field="action")
        out[cid] = sheet
    return out


async def act_unattended(svc: Services, s, campaign, raw_action: dict[str, Any], principal) -> list:
    """A move the service makes for an absent player (a turn deadline ran out), through the same rules and the
    same records as a client's move: logged with its dice and events, replayable like any other. Runs inside the
    caller's transaction, under the campaign's lock, on the session's own (attached) campaign. A refusal after
    dice were drawn still logs them."""
    system = SYSTEMS[campaign.system]
    action = movelog.action_adapter(campaign.system).validate_python(raw_action)
    characters = list(await s.scalars(select(Character).where(Character.campaign_id == campaign.id)))
    state = await tables.load(svc, s, campaign, characters=characters)
    dice, dice_session = await dice_for(s, campaign, None)
    actor = principal.actor()
    try:
        new_state, all_events = _decide(system, state, action, actor, dice, dice_session)
        sheets = _changed_sheets(characters, state["characters"], new_state["characters"])
    except Exception as exc:
        if not drawn(dice):
            raise
        error = exc if isinstance(exc, GameError) else BUG
        raise await consume_refused(s, campaign, drawn(dice), dice_session, purpose=action.type, error=error,
                                    principal=principal) from None
    by_id = {c.id: c for c in characters}
    for cid, sheet in sheets.items():
        by_id[cid].sheet = sheet
        by_id[cid].version += 1
    first_seq = campaign.last_seq + 1
    records = log.append(s, campaign, all_events, actor)
    movelog.record(s, campaign, "action", {"action": raw_action}, actor, dice.rolled, first_seq, new_state)
    await s.flush()
    await deadline_sync.after_move(s, campaign, new_state["table"], by_clock=True)
    await tables.publish(svc, s, campaign, new_state["table"])
    return records
