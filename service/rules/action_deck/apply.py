"""One move: validate the action, authorize, auto-accept open tests (§5.5), dispatch to its handler."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.action_deck import (
    awaiting, checks, conditions, countdown, draws, encounter, interrupts, opposed, session, surprise, trait_moves,
    turn_moves,
)
from service.rules.action_deck.actions import ADAPTER
from service.rules.action_deck.context import Ctx
from service.rules.base import Actor, Event, gm_only

HANDLERS = {
    "open_session": session.open_session, "close_session": session.close_session,
    "award_benny": session.award_benny, "enter_play": session.enter_play, "leave_play": session.leave_play,
    "apply_wounds": conditions.apply_wounds, "set_condition": conditions.set_condition,
    "unshake": conditions.unshake, "soak": conditions.soak, "regain_power": conditions.regain_power,
    "start_encounter": encounter.start_encounter, "add_participant": encounter.add_participant,
    "deal": encounter.deal, "end_encounter": encounter.end_encounter,
    "draw_extra_card": draws.draw_extra_card, "keep_card": draws.keep_card,
    "call_next": countdown.call_next, "declare_turn": countdown.declare_turn, "hold": countdown.hold,
    "end_turn": countdown.end_turn, "end_round": countdown.end_round,
    "interrupt": interrupts.interrupt,
    "redeclare": turn_moves.redeclare, "take_action": turn_moves.take_action, "move": turn_moves.move,
    "run": turn_moves.run, "jump": turn_moves.jump, "ready_item": turn_moves.ready_item,
    "hazard_test": turn_moves.hazard_test,
    "trait_test": trait_moves.trait_test, "group_test": trait_moves.group_test,
    "damage_roll": trait_moves.damage_roll, "opposed_test": opposed.opposed_test, "defend": opposed.defend,
    "reroll": checks.reroll, "accept_test": checks.accept, "choose_wild_substitution": checks.substitute,
}
# Moves on a test itself never accept it; these GM moves move the table on and settle every open test.
FOLLOW_UPS = {"reroll", "accept_test", "choose_wild_substitution", "defend"}
FLOW = {"deal", "call_next", "end_round", "end_encounter", "close_session"}


def auto_accept(ctx: Ctx, action: BaseModel) -> None:
    """§5.5: a test is accepted when the roller's next move is unrelated (or the table moves on)."""
    if action.type in FOLLOW_UPS:
        return
    if action.type in FLOW:
        checks.finalize_open(ctx)
        return
    subjects = {getattr(action, f, None) for f in ("character_id", "leader_id")} - {None}
    if subjects:
        checks.finalize_open(ctx, subjects)


def apply(state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor,
          dice: DiceSource) -> tuple[dict[str, Any], list[Event]]:
    if not isinstance(action, BaseModel):
        action = ADAPTER.validate_python(action)
    ctx = Ctx(state, actor, dice)
    if action.sender == "gm" and not actor.is_gm:
        raise gm_only(_("{type} is a GM move", type=action.type))
    auto_accept(ctx, action)
    HANDLERS[action.type](ctx, action)
    surprise.reveal_due(ctx)
    awaiting.refresh(ctx)
    return ctx.state, ctx.events
