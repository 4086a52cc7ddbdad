"""Action Deck: Savage Worlds-style cards for initiative, aces, raises, the Wild Die and bennies.

Spec: shared/rules/action_deck.md; seed 004_85fbbc7e645ad5c4.txt (Polish; the final word).
"""
from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules.action_deck import awaiting as _open
from service.rules.action_deck import apply as _apply
from service.rules.action_deck import awaiting
from service.rules.action_deck.actions import ACTION_SENDERS, ACTION_TYPES, Action
from service.rules.action_deck.context import Ctx, initial_table
from service.rules.action_deck.deck import being_dealt
from service.rules.action_deck.events_model import EVENT_PAYLOADS
from service.rules.action_deck.options import Options
from service.rules.action_deck.sheet import ActionDeckCharacterInput, new_character
from service.rules.action_deck.state_model import ActionDeckCharacter, ActionDeckState
from service.rules.action_deck.view import view
from service.rules.base import Actor, RuleViolation


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

    def new_character(self, data: ActionDeckCharacterInput, options: Options) -> dict[str, Any]:
        return new_character(data, options)

    def initial_state(self, options: Options) -> dict[str, Any]:
        state = {"options": options.model_dump(mode="json"), "characters": {}, "table": initial_table()}
        ctx = Ctx(state, Actor(role="gm"), None)
        awaiting.refresh(ctx)
        return ctx.state

    def apply(self, state, action, actor, dice):
        return _apply.apply(state, action, actor, dice)

    def view(self, state: dict[str, Any], actor) -> dict[str, Any]:
        return with_offers(view(state, actor), _open.OPEN_GM, _open.OPEN_PLAYER,
                           _open.settling(state.get("table") or {}, state.get("characters") or {}))

    def session_close_blocker(self, table: dict[str, Any]) -> RuleViolation | None:
        """A verifiable session's seed recomputes every shuffle die: revealed while a shuffled deck is being
        dealt, it would tell everyone the undealt order (§8: known to nobody)."""
        if not being_dealt(table):
            return None
        # Not a move's refusal (errors.CODES): the application asks this before it closes a dice session.
        return RuleViolation("deck_in_play", _("a shuffled Action Deck is still being dealt, and "
                                               "closing the dice session would reveal its undealt "
                                               "order to everyone: end the encounter "
                                               "(end_encounter) first, then close the session"), status=409)

    def undo_blocker(self, target: dict[str, Any], current: dict[str, Any]) -> RuleViolation | None:
        """Undoing past a draw from a sealed deck would deal the cards everyone has now seen again, in the
        same order: the undealt order would be known (§8). Undo within the deck's draws is fine."""
        if not being_dealt(target):
            return None
        if (target.get("deck") or {}).get("draw_pile") == (current.get("deck") or {}).get("draw_pile"):
            return None
        return RuleViolation("deck_in_play", _("undoing these moves would put dealt cards back on a "
                                               "sealed deck in the same order, so everyone would "
                                               "know what comes next: undo only moves after the "
                                               "last draw, or end the encounter"), status=409)


SYSTEM = ActionDeckSystem()
__all__ = ["SYSTEM"]
