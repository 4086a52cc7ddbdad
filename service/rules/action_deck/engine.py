"""The Action Deck rule system (`SYSTEM`'s class) and its move table for the shared driver: a handler per move,
open tests auto-accepted before a move (§5.5), due surprise revealed after it, then whose move it is next."""

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.action_deck import (
    awaiting,
    checks,
    conditions,
    countdown,
    draws,
    encounter,
    interrupts,
    moves_trait,
    moves_turn,
    opposed,
    session,
    surprise,
)
from service.rules.action_deck.actions import ACTION_SENDERS, ACTION_TYPES, ADAPTER, Action
from service.rules.action_deck.context import Ctx, initial_table
from service.rules.action_deck.deck import being_dealt
from service.rules.action_deck.events_model import EVENT_PAYLOADS
from service.rules.action_deck.options import Options
from service.rules.action_deck.sheet import ActionDeckCharacterInput, new_character
from service.rules.action_deck.state_model import ActionDeckCharacter, ActionDeckState
from service.rules.action_deck.view import view
from service.rules.awaiting import with_offers
from service.rules import driver
from service.rules.base import Actor, Event, RuleViolation, coerce

HANDLERS = {
    "open_session": session.open_session,
    "close_session": session.close_session,
    "award_benny": session.award_benny,
    "enter_play": session.enter_play,
    "leave_play": session.leave_play,
    "apply_wounds": conditions.apply_wounds,
    "set_condition": conditions.set_condition,
    "unshake": conditions.unshake,
    "soak": conditions.soak,
    "regain_power": conditions.regain_power,
    "start_encounter": encounter.start_encounter,
    "add_participant": encounter.add_participant,
    "deal": encounter.deal,
    "end_encounter": encounter.end_encounter,
    "draw_extra_card": draws.draw_extra_card,
    "keep_card": draws.keep_card,
    "call_next": countdown.call_next,
    "declare_turn": countdown.declare_turn,
    "hold": countdown.hold,
    "end_turn": countdown.end_turn,
    "end_round": countdown.end_round,
    "interrupt": interrupts.interrupt,
    "redeclare": moves_turn.redeclare,
    "take_action": moves_turn.take_action,
    "move": moves_turn.move,
    "run": moves_turn.run,
    "jump": moves_turn.jump,
    "ready_item": moves_turn.ready_item,
    "hazard_test": moves_turn.hazard_test,
    "trait_test": moves_trait.trait_test,
    "group_test": moves_trait.group_test,
    "damage_roll": moves_trait.damage_roll,
    "opposed_test": opposed.opposed_test,
    "defend": opposed.defend,
    "reroll": checks.reroll,
    "accept_test": checks.accept,
    "choose_wild_substitution": checks.substitute,
}
# Moves on a test itself never accept it; these GM moves move the table on and settle every open test.
FOLLOW_UPS = {"reroll", "accept_test", "choose_wild_substitution", "defend"}
FLOW = {"deal", "call_next", "end_round", "end_encounter", "close_session"}


def auto_accept(ctx: Ctx, action: Any) -> None:
    """§5.5: a test is accepted when the roller's next move is unrelated (or the table moves on)."""
    if action.type in FOLLOW_UPS:
        return
    if action.type in FLOW:
        checks.finalize_open(ctx)
        return
    subjects: set[str] = {s for f in ("character_id", "leader_id") if (s := getattr(action, f, None)) is not None}
    if subjects:
        checks.finalize_open(ctx, subjects)


MOVES = driver.MoveTable(
    adapter=ADAPTER,
    context=Ctx,
    handlers=HANDLERS,
    guards=(auto_accept,),
    after=(surprise.reveal_due,),
    awaiting=awaiting.refresh,
    # An owner move names its owner in different fields (a test's roller, a defender): guards.owner checks it.
    owner_check=False,
)


class ActionDeckSystem:
    id = "action_deck"
    name = "Action Deck"
    Options = Options
    CharacterInput = ActionDeckCharacterInput
    Action = Action
    action_types: list[str] = ACTION_TYPES
    action_senders: dict[str, str] = ACTION_SENDERS
    # 2: the table gained `awaiting` and `soaks_pending`; snapshots of version 1 are replayed instead of read.
    state_version = 2
    State = ActionDeckState
    Sheet = ActionDeckCharacter
    EventPayloads = EVENT_PAYLOADS

    def new_character(self, data: BaseModel | dict[str, Any], options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        return new_character(coerce(ActionDeckCharacterInput, data), coerce(Options, options))

    def initial_state(self, options: BaseModel) -> dict[str, Any]:
        state = {"options": options.model_dump(mode="json"), "characters": {}, "table": initial_table()}
        ctx = Ctx(state, Actor(role="gm"), None)
        awaiting.refresh(ctx)
        return ctx.state

    def apply(
        self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        return driver.apply(MOVES, state, action, actor, dice)

    def view(self, state: dict[str, Any], actor) -> dict[str, Any]:
        return with_offers(
            view(state, actor),
            awaiting.OPEN_GM,
            awaiting.OPEN_PLAYER,
            awaiting.after_accepting(state, actor),
        )

    def session_close_blocker(self, table: dict[str, Any]) -> RuleViolation | None:
        """A verifiable session's seed recomputes every shuffle die: revealed while a shuffled deck is being
        dealt, it would tell everyone the undealt order (§8: known to nobody)."""
        if not being_dealt(table):
            return None
        # Not a move's refusal (errors.CODES): the application asks this before it closes a dice session.
        return RuleViolation(
            "deck_in_play",
            _(
                "a shuffled Action Deck is still being dealt, and "
                "closing the dice session would reveal its undealt "
                "order to everyone: end the encounter "
                "(end_encounter) first, then close the session"
            ),
            status=409,
        )

    def undo_blocker(self, target: dict[str, Any], current: dict[str, Any]) -> RuleViolation | None:
        """Undoing past a draw from a sealed deck would deal the cards everyone has now seen again, in the
        same order: the undealt order would be known (§8). Undo within the deck's draws is fine."""
        if not being_dealt(target):
            return None
        if (target.get("deck") or {}).get("draw_pile") == (current.get("deck") or {}).get("draw_pile"):
            return None
        return RuleViolation(
            "deck_in_play",
            _(
                "undoing these moves would put dealt cards back on a "
                "sealed deck in the same order, so everyone would "
                "know what comes next: undo only moves after the "
                "last draw, or end the encounter"
            ),
            status=409,
        )
