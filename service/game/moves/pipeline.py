"""One rule move, whoever makes it, through one set of steps. The sources differ only in how they open the
campaign and what they answer:

- a player or the GM (`moves/play.py`): opened with their token by `moves/access.py`, answered with the events
  and the table as the caller sees them;
- the clock, when a turn deadline runs out (`deadlines/worker.py`): opened by the worker under the same lock,
  its events logged as the clock's (`log/events.py`, `acting_as`);
- a replay (`log/moves.py` rebuilding a table, `transfer/replay.py` checking an import): the same `parse` and
  the engine's `apply` with the dice the move recorded, writing nothing.

The steps, in order; each is a function here, so a change to one changes it for every source:

    check    the campaign plays on, the action is one of its rule system's, the version is the one expected
    load     the whole state at the campaign's version (log/tables.py)
    dice     the campaign's dice for this move (moves/dicesource.py)
    decide   the rules' answer: the next state and its events, the dice first; nothing is written
    sheets   the sheets the move changes, every one a character of the campaign
    refuse   refused after its first die: those dice are logged with the refusal, nothing else (`Refused`)
    record   the events, the move (and a snapshot when one is due), the deadlines that follow the table, the
             sheets, in the caller's transaction
    publish  the new table into the process's copy, and into the live store once the transaction has
             committed (the embedded store writes it inside the transaction)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from service.dice.types import DiceError, DiceSource
from service.game.auth import Principal
from service.game.context import Services
from service.game.deadlines import sync as deadline_sync
from service.game.errors import GameError, from_validation
from service.game.log import events as log
from service.game.log import moves as movelog
from service.game.log import tables
from service.game.log import write as movewrite
from service.game.moves.dicesource import BUG, consume_refused, dice_for, drawn, finish
from service.i18n.message import _
from service.rules.base import Actor, RuleSystem, RuleViolation
from service.rules.registry import SYSTEMS
from service.store.records.models import Campaign, CharacterRow, campaign_characters, DiceSession


@dataclass(frozen=True)
class Applied:
    actor: Actor
    # The move's events, the dice first, then the deadlines' that followed the table.
    records: list[log.EventRow]
    state: dict[str, Any]


class Refused(Exception):
    """Refused after the move drew dice: they are logged in the open transaction, which must commit.
    `error` is the refusal with the dice it consumed; `cause` what refused the move (a bug is no GameError)."""

    def __init__(self, error: GameError, cause: BaseException) -> None:
        super().__init__(error.detail)
        self.error, self.cause = error, cause


def require_active(campaign: Campaign) -> None:
    if campaign.status != "active":
        raise GameError(
            409,
            "campaign_finished",
            _(
                "this campaign is {status}: its log and tables stay readable, but it accepts no new move",
                status=campaign.status,
            ),
        )


def parse(system_id: str, raw_action: dict[str, Any]) -> Any:
    """The action as the rule system's own type; a 422 naming the field otherwise."""
    try:
        return movelog.action_adapter(system_id).validate_python(raw_action)
    except ValidationError as exc:
        raise from_validation(exc, "action") from None


def check(
    campaign: Campaign, raw_action: dict[str, Any], *, system: str | None = None, expected: int | None = None
) -> Any:
    """Step `check`: the campaign takes moves, plays `system` (when the caller named one), the action parses,
    and the table is at `expected` (If-Match) when the caller said which version it saw."""
    require_active(campaign)
    if system is not None and system != campaign.system:
        raise GameError(
            409,
            "system_mismatch",
            _("this campaign plays {expected}, not {sent}", expected=campaign.system, sent=system),
            field="system",
        )
    action = parse(campaign.system, raw_action)
    version = campaign.table_version
    if expected is not None and expected != version:
        raise GameError(
            412,
            "version_mismatch",
            _(
                "the table is at version {version}, not {expected}; reload and retry",
                version=version,
                expected=expected,
            ),
            field="If-Match",
            extra={"current_version": version},
        )
    return action


def decide(
    system: RuleSystem,
    state: dict[str, Any],
    action: Any,
    actor: Actor,
    dice: DiceSource,
    dice_session: DiceSession | None,
) -> tuple[dict[str, Any], list]:
    """Step `decide`: the rules' answer, the next state and every event, the dice first. Writes nothing."""
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


def changed_sheets(characters: list[CharacterRow], before: dict, after: dict) -> dict[str, dict]:
    """Step `sheets`: the sheets this move changes, checked before anything is written."""
    known = {c.id for c in characters}
    out = {}
    for cid, sheet in after.items():
        if before.get(cid) == sheet:
            continue
        if cid not in known:
            raise GameError(
                409, "unknown_character", _("character {cid} is not in this campaign", cid=cid), field="action"
            )
        out[cid] = sheet
    return out


async def record(
    svc: Services,
    s,
    campaign: Campaign,
    actor: Actor,
    raw_action: dict[str, Any],
    dice: DiceSource,
    events: list,
    new_state: dict[str, Any],
    sheets: dict[str, dict],
    *,
    by_clock: bool = False,
) -> list[log.EventRow]:
    """Steps `record` and `publish`. The rows go in as Core statements (log/write.py), past the ORM."""
    first_seq = campaign.last_seq + 1
    records = log.append(s, campaign, events, actor, add=False)
    move, snap = movelog.next_move(campaign, "action", {"action": raw_action}, actor, dice.rolled, first_seq, new_state)
    # Before the counters are written: the deadlines' own events take the next seqs.
    await deadline_sync.after_move(s, campaign, new_state["table"], by_clock=by_clock)
    await movewrite.write(s, campaign, records, move, snap, sheets)
    await tables.publish(svc, s, campaign, new_state["table"])
    return records


async def apply(
    svc: Services,
    s,
    campaign: Campaign,
    principal: Principal,
    raw_action: dict[str, Any],
    *,
    characters: list[CharacterRow] | None = None,
    faces: list[int] | None = None,
    system: str | None = None,
    expected: int | None = None,
    by_clock: bool = False,
) -> Applied:
    """Every step, inside the caller's transaction and under the campaign's lock. Refused before its first die,
    the move raises the refusal and has written nothing; refused after, it raises `Refused`. `characters`:
    every character of the campaign, when the caller has them already."""
    action = check(campaign, raw_action, system=system, expected=expected)
    if characters is None:
        characters = await campaign_characters(s, campaign.id)
    state = await tables.load(svc, s, campaign, characters=characters)
    dice, dice_session = await dice_for(s, campaign, faces)
    actor = principal.actor()
    try:
        new_state, events = decide(SYSTEMS[campaign.system], state, action, actor, dice, dice_session)
        sheets = changed_sheets(characters, state["characters"], new_state["characters"])
    except Exception as exc:
        if not drawn(dice):
            raise
        error = exc if isinstance(exc, GameError) else BUG
        consumed = await consume_refused(
            s, campaign, drawn(dice), dice_session, purpose=action.type, error=error, principal=principal
        )
        raise Refused(consumed, exc) from None
    records = await record(svc, s, campaign, actor, raw_action, dice, events, new_state, sheets, by_clock=by_clock)
    return Applied(actor, records, new_state)
