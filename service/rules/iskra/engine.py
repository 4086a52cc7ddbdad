"""The Iskra rule system (`SYSTEM`'s class) and its move table for the shared driver: the pending step gates
every other move, a handler per move, combat and Ether exposure refreshed after it, then whose move it is."""

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules import awaiting as shared_awaiting
from service.rules import driver
from service.rules.base import Actor, Event, coerce
from service.rules.iskra import (
    attacks,
    awaiting,
    combat,
    damage,
    derived,
    focus,
    gm_tests,
    inventory,
    moves_turn,
    progress,
    reactions,
    recovery,
    resolve,
    world,
)
from service.rules.iskra.actions import ACTION_SENDERS, ACTION_TYPES, ADAPTER, Action
from service.rules.iskra.context import Ctx, initial_table
from service.rules.iskra.errors import CODES, violation
from service.rules.iskra.events_model import EVENT_PAYLOADS, IskraEtherExposureChanged
from service.rules.iskra.options import Options
from service.rules.iskra.sheet import IskraCharacterInput, new_character
from service.rules.iskra.state_model import IskraCharacter, IskraState
from service.rules.iskra.view import view

HANDLERS: dict[str, Callable[[Ctx, Any], None]] = {
    "roll": resolve.roll,
    "accept_test": resolve.accept_test,
    "reroll": focus.reroll,
    "focus_adjust": focus.focus_adjust,
    "use_glory": resolve.use_glory,
    "dodge": reactions.dodge,
    "reduce_damage": focus.reduce_damage,
    "accept_damage": damage.accept_damage,
    "attack": attacks.attack,
    "help": attacks.help_,
    "stand_up": moves_turn.stand_up,
    "ready": reactions.ready,
    "use_ready": reactions.use_ready,
    "convert_major": moves_turn.convert_major,
    "minor_action": moves_turn.minor_action,
    "passing_action": moves_turn.passing_action,
    "end_turn": moves_turn.end_turn,
    "recovery_test": recovery.recovery_test,
    "buy": progress.buy,
    "add_item": inventory.add_item,
    "set_carried": inventory.set_carried,
    "drop_item": inventory.drop_item,
    "transfer_item": inventory.transfer_item,
    "use_resources": inventory.use_resources,
    "open_test": gm_tests.open_test,
    "adjust_test": gm_tests.adjust_test,
    "approve_focus": focus.approve_focus,
    "reject_focus": focus.reject_focus,
    "critical_note": resolve.critical_note,
    "set_wounds": damage.set_wounds,
    "deal_damage": damage.deal_damage,
    "start_combat": combat.start_combat,
    "join_combat": combat.join_combat,
    "remove_participant": combat.remove_participant,
    "end_combat": combat.end_combat,
    "trigger_ready": reactions.trigger_ready,
    "start_session": progress.start_session,
    "end_session": progress.end_session,
    "award_adversity": progress.award_adversity,
    "award_glory": progress.award_glory,
    "advance_time": recovery.advance_time,
    "rest_start": recovery.rest_start,
    "rest_interrupted": recovery.rest_interrupted,
    "restore_focus": recovery.restore_focus,
    "restore_health": recovery.restore_health,
    "define_location": world.define_location,
    "set_location": world.set_location,
    "reveal_ether": world.reveal_ether,
    "approve_character": world.approve_character,
    "edit_character": world.edit_character,
    "gm_note": world.gm_note,
}

# Moves that work on the pending step, or cannot interfere with it; everything else waits (409 pending_first).
ON_PENDING = frozenset(
    {
        "roll",
        "accept_test",
        "reroll",
        "focus_adjust",
        "use_glory",
        "dodge",
        "reduce_damage",
        "accept_damage",
        "use_ready",
        "adjust_test",
        "approve_focus",
        "reject_focus",
        "critical_note",
        "set_wounds",
        "help",
        "gm_note",
    }
)


def pending_first(ctx: Ctx, action: Any) -> None:
    held = ctx.table["pending"]
    if held is not None and action.type not in ON_PENDING:
        raise violation(
            "pending_first",
            _("finish the pending {kind} {id} first (spec 5.1, 5.2)", kind=held["kind"], id=held["id"]),
            "type",
        )


def ether_exposure(ctx: Ctx) -> None:
    flags = derived.ether_exposure(ctx.table, ctx.characters, ctx.options)
    if flags != ctx.table["ether_exposure"]:
        ctx.table["ether_exposure"] = flags  # spec 4.14: flagged for the GM, who decides the consequences
        ctx.emit("ether_exposure_changed", IskraEtherExposureChanged(exposed=flags), gm_only=True)


MOVES = driver.MoveTable(
    adapter=ADAPTER,
    context=Ctx,
    handlers=HANDLERS,
    guards=(pending_first,),
    after=(combat.refresh, ether_exposure),
    awaiting=awaiting.refresh,
)


class IskraSystem:
    id = "iskra"
    name = "Iskra"
    Options = Options
    CharacterInput = IskraCharacterInput
    Action = Action
    action_types = ACTION_TYPES
    action_senders = ACTION_SENDERS
    violation_codes = CODES
    # 2: a Weakness modifier's source is `weakness` (was `weaknesse`); snapshots of version 1 are replayed.
    state_version = 2
    State = IskraState
    Sheet = IskraCharacter
    EventPayloads = EVENT_PAYLOADS

    def new_character(self, data: BaseModel | dict[str, Any], options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        return new_character(coerce(IskraCharacterInput, data), coerce(Options, options))

    def initial_state(self, options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        table = initial_table()
        table["awaiting"] = [shared_awaiting.gm(*awaiting.IDLE)]
        return {"options": coerce(Options, options).model_dump(mode="json"), "characters": {}, "table": table}

    def parse_action(self, raw: dict[str, Any]) -> BaseModel:
        return driver.validate(MOVES, raw)

    def apply(
        self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        return driver.apply(MOVES, state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(
            view(state, actor), awaiting.OPEN_GM, awaiting.OPEN_PLAYER, awaiting.open_now(state["table"])
        )

    def redact_event(self, event: Event, actor: Actor) -> dict[str, Any] | None:
        """An event's data as this actor may see it; None when it is GM-only (spec 8)."""
        return event.seen_by(actor)
