"""Trikus (spec rules/trikus.md): d10 opposed tests thrown one die at a time, lines by tier,
party-wide exhaustion, team tests and combat, morale, boost, light and dark tokens, promotions.

`SYSTEM` is what the application layer registers; every move goes through `SYSTEM.apply`.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.rules.awaiting import with_offers
from service.rules.trikus import awaiting as _open
from service.rules.base import Actor, Event
from service.rules.trikus import engine, legal
from service.rules.trikus.actions import ACTION_SENDERS, ACTION_TYPES, Action
from service.rules.trikus.context import Ctx, initial_table
from service.rules.trikus.events_model import EVENT_PAYLOADS
from service.rules.trikus.options import Options
from service.rules.trikus.sheet import CharacterInput, new_character
from service.rules.trikus.state_model import TrikusSheet, TrikusState
from service.rules.trikus.view import view


class TrikusSystem:
    id = "trikus"
    name = "Trikus"
    Options = Options
    CharacterInput = CharacterInput
    Action = Action
    action_types: list[str] = ACTION_TYPES
    action_senders: dict[str, str] = ACTION_SENDERS
    # 2: awaiting/requests entries carry `who: gm|character` and `character_id`; older snapshots are replayed.
    state_version = 2
    State = TrikusState
    Sheet = TrikusSheet
    EventPayloads = EVENT_PAYLOADS

    def new_character(self, data: BaseModel | dict[str, Any], options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        data = data if isinstance(data, CharacterInput) else CharacterInput.model_validate(
            data.model_dump() if isinstance(data, BaseModel) else data)
        opts = options if isinstance(options, Options) else Options.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else options)
        return new_character(data, opts)

    def initial_state(self, options: BaseModel) -> dict[str, Any]:
        state = {"options": options.model_dump(mode="json"), "characters": {}, "table": initial_table()}
        ctx = Ctx(state, Actor(role="gm"), None)  # type: ignore[arg-type] - no dice are needed here
        engine.refresh(ctx)
        return ctx.state

    def apply(self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
              ) -> tuple[dict[str, Any], list[Event]]:
        return engine.apply(state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), _open.OPEN_GM, _open.OPEN_PLAYER)

    def hides_from_gm(self, options: dict[str, Any]) -> bool:
        """Optional rule 2: unrevealed dark sides are kept from the GM, so a full export would show them."""
        return bool(options.get("opt2_gm_blind_to_dark_sides"))

    def legal_moves(self, state: dict[str, Any], actor: Actor | None = None) -> list[dict[str, Any]]:
        return legal.legal_moves(state, actor)


SYSTEM = TrikusSystem()

__all__ = ["SYSTEM", "Options", "CharacterInput", "Action", "TrikusSystem"]
