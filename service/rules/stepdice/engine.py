"""The Step Dice rule system (`SYSTEM`'s class) and its move table for the shared driver: a pending choice
gates every other move, a handler per move, the encounter's outcome suggested after it, then whose move it is."""

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules import driver
from service.rules.base import Actor, Event, coerce
from service.rules.stepdice import (
    advancement,
    allies,
    attack,
    awaiting,
    checks,
    clocks,
    encounter,
    enemies,
    grid,
    health,
    magic,
    narrative,
    pending,
    scenes,
    turns,
)
from service.rules.stepdice.actions import ACTION_SENDERS, ACTION_TYPES, ADAPTER, Action
from service.rules.stepdice.context import Ctx, initial_table
from service.rules.stepdice.errors import CODES, violation
from service.rules.stepdice.events_model import EVENT_PAYLOADS
from service.rules.stepdice.options import Options
from service.rules.stepdice.sheet import StepDiceCharacterInput, new_character
from service.rules.stepdice.state_model import StepDiceSheet, StepDiceState
from service.rules.stepdice.view import view

HANDLERS: dict[str, Callable[[Ctx, Any], None]] = {
    "test": checks.test,
    "attack": attack.attack,
    "cast": magic.cast,
    "help": allies.help_ally,
    "raise": allies.raise_ally,
    "use_equipment": narrative.use_equipment,
    "move": grid.move,
    "begin_turn": turns.begin_turn,
    "end_turn": turns.end_turn,
    "choose_benefit": pending.choose_benefit,
    "choose_armor": pending.choose_armor,
    "advance": advancement.advance,
    "call_test": checks.call_test,
    "auto_success": narrative.auto_success,
    "resolve_retaliation": pending.resolve_retaliation,
    "record_consequence": pending.record_consequence,
    "gm_note": narrative.gm_note,
    "harm": narrative.harm,
    "start_scene": scenes.start_scene,
    "end_scene": scenes.end_scene,
    "create_encounter": encounter.create_encounter,
    "add_character": encounter.add_character,
    "add_enemy": enemies.add_enemy,
    "reveal_enemy": enemies.reveal_enemy,
    "set_position": encounter.set_position,
    "start_encounter": encounter.start_encounter,
    "end_player_phase": turns.end_player_phase,
    "enemy_move": enemies.enemy_move,
    "enemy_hit": narrative.enemy_hit,
    "end_enemy_phase": turns.end_enemy_phase,
    "end_encounter": encounter.end_encounter,
    "rest": health.rest,
    "create_clock": clocks.create_clock,
    "advance_clock": clocks.advance_clock,
    "cancel_clock": clocks.cancel_clock,
    "grant_advancement": advancement.grant_advancement,
    "discard_advancement": advancement.discard_advancement,
}

# Moves that settle the pending choice, or cannot interfere with it; everything else waits (409 choice_pending).
NOT_BLOCKED = frozenset(
    {
        "choose_benefit",
        "resolve_retaliation",
        "choose_armor",
        "record_consequence",
        "gm_note",
        "reveal_enemy",
        "grant_advancement",
        "advance",
        "discard_advancement",
    }
)


def choice_pending(ctx: Ctx, action: Any) -> None:
    held = ctx.table["pending"]
    if held is not None and action.type not in NOT_BLOCKED:
        raise violation(
            "choice_pending", _("resolve the pending {stage} of {id} first", stage=held["stage"], id=held["id"]), "type"
        )


MOVES = driver.MoveTable(
    adapter=ADAPTER,
    context=Ctx,
    handlers=HANDLERS,
    guards=(choice_pending,),
    after=(encounter.refresh_suggestion,),
    awaiting=awaiting.refresh,
)


class StepDiceSystem:
    id = "stepdice"
    name = "Step Dice"
    Options = Options
    CharacterInput = StepDiceCharacterInput
    Action = Action
    action_types = ACTION_TYPES
    action_senders = ACTION_SENDERS
    violation_codes = CODES
    # 2: the table carries `awaiting`; older snapshots are passed over and the table replayed (see movelog).
    state_version = 2
    State = StepDiceState
    Sheet = StepDiceSheet
    EventPayloads = EVENT_PAYLOADS

    def new_character(self, data: BaseModel | dict[str, Any], options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        return new_character(coerce(StepDiceCharacterInput, data), coerce(Options, options))

    def initial_state(self, options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        opts = coerce(Options, options)
        state = {"options": opts.model_dump(mode="json"), "characters": {}, "table": initial_table()}
        state["table"]["awaiting"] = awaiting.compute(state, opts)
        return state

    def parse_action(self, raw: dict[str, Any]) -> BaseModel:
        return driver.validate(MOVES, raw)

    def apply(
        self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        return driver.apply(MOVES, state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), awaiting.OPEN_GM, awaiting.OPEN_PLAYER)

    def redact_event(self, event: Event, actor: Actor) -> dict[str, Any] | None:
        """An event's data as this actor may see it; None when it is GM-only (spec 8)."""
        return event.seen_by(actor)
