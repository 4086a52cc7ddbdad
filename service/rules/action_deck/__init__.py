"""Action Deck: Savage Worlds-style cards for initiative, aces, raises, the Wild Die and bennies.

Spec: shared/rules/action_deck.md; seed 004_85fbbc7e645ad5c4.txt (Polish; the final word).
"""
from __future__ import annotations

from typing import Any

from service.rules.action_deck import apply as _apply
from service.rules.action_deck.actions import ACTION_SENDERS, ACTION_TYPES, Action
from service.rules.action_deck.context import initial_table
from service.rules.action_deck.deck import SHUFFLE_PURPOSE
from service.rules.action_deck.options import Options
from service.rules.action_deck.sheet import ActionDeckCharacterInput, new_character
from service.rules.action_deck.view import view


class ActionDeckSystem:
    id = "action_deck"
    name = "Action Deck"
    Options = Options
    CharacterInput = ActionDeckCharacterInput
    Action = Action
    action_types: list[str] = ACTION_TYPES
    action_senders: dict[str, str] = ACTION_SENDERS
    # Shuffle dice fix the undealt order: only the GM may see them before the session is revealed.
    secret_dice_purposes: frozenset[str] = frozenset({SHUFFLE_PURPOSE})

    def new_character(self, data: ActionDeckCharacterInput, options: Options) -> dict[str, Any]:
        return new_character(data, options)

    def initial_state(self, options: Options) -> dict[str, Any]:
        return {"options": options.model_dump(mode="json"), "characters": {}, "table": initial_table()}

    def apply(self, state, action, actor, dice):
        return _apply.apply(state, action, actor, dice)

    def view(self, state: dict[str, Any], actor) -> dict[str, Any]:
        return view(state, actor)


SYSTEM = ActionDeckSystem()
__all__ = ["SYSTEM"]
