"""The Danger Pool rule system (`SYSTEM`'s class) and its move table for the shared driver: a handler per move,
then whose move it is next; a betrayer is the GM's character (§4.15.3)."""

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules import driver
from service.rules.base import Actor, Event, RuleViolation, coerce, not_yours
from service.rules.danger_pool import aftermath, awaiting, bailout, records, rolls, rounds, scenes
from service.rules.danger_pool.actions import ACTION_SENDERS, ACTION_TYPES, ADAPTER, Action
from service.rules.danger_pool.context import Ctx, initial_table
from service.rules.danger_pool.errors import CODES
from service.rules.danger_pool.events_model import EVENT_PAYLOADS
from service.rules.danger_pool.options import Options
from service.rules.danger_pool.sheet import CharacterInput, new_character
from service.rules.danger_pool.state_model import DangerPoolCharacter, DangerPoolState
from service.rules.danger_pool.view import view

HANDLERS: dict[str, Callable[[Ctx, Any], None]] = {
    "declare_action": rolls.declare_action,
    "pass_turn": rounds.pass_turn,
    "waive_first": rounds.waive_first,
    "choose_tie": rolls.choose_tie,
    "continue_scene": rounds.continue_scene,
    "bail_out": bailout.bail_out,
    "extract": bailout.extract,
    "choose_aftermath": aftermath.choose_aftermath,
    "describe": records.describe,
    "assign_player": records.assign_player,
    "create_action_scene": scenes.create_action_scene,
    "configure_scene": scenes.configure_scene,
    "add_element": scenes.add_element,
    "start_scene": scenes.start_scene,
    "create_planning_scene": scenes.create_planning_scene,
    "end_scene": scenes.end_scene_move,
    "confirm_roll": rolls.confirm_roll,
    "element_reroll": rolls.element_reroll,
    "raise_alarm": rounds.raise_alarm,
    "next_round": rounds.next_round,
    "review_aftermath": aftermath.review_aftermath,
    "settle_aftermath": aftermath.settle_aftermath,
    "record_tale": records.record_tale,
    "record_scar": records.record_scar,
    "gm_note": records.gm_note,
}


def traitor(sheet: dict[str, Any]) -> RuleViolation | None:
    if sheet.get("status") == "traitor_npc":
        return not_yours(sheet["name"], _("betrayed the team and is a GM character (§4.15.3)"))
    return None


MOVES = driver.MoveTable(adapter=ADAPTER, context=Ctx, handlers=HANDLERS, awaiting=awaiting.refresh, taken_over=traitor)


class DangerPoolSystem:
    id = "danger_pool"
    name = "Danger Pool"
    Options = Options
    CharacterInput = CharacterInput
    Action = Action
    action_types: list[str] = ACTION_TYPES
    action_senders: dict[str, str] = ACTION_SENDERS
    violation_codes = CODES
    State = DangerPoolState
    Sheet = DangerPoolCharacter
    EventPayloads = EVENT_PAYLOADS
    # 2: `awaiting` and `requests` entries became the shared AwaitingEntry shape (who: gm|character,
    # character_id); snapshots of version 1 are replayed instead of read.
    state_version = 2

    def new_character(self, data: BaseModel | dict[str, Any], options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        return new_character(coerce(CharacterInput, data), coerce(Options, options))

    def initial_state(self, options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        state = {
            "options": coerce(Options, options).model_dump(mode="json"),
            "characters": {},
            "table": initial_table(),
        }
        ctx = Ctx(state, Actor(role="gm"), None)
        awaiting.refresh(ctx)
        return ctx.state

    def apply(
        self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        return driver.apply(MOVES, state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), awaiting.OPEN_GM, awaiting.OPEN_PLAYER)
