"""Danger Pool (spec rules/danger_pool.md, seed 002): action scenes with a progress track, player d10 pools
against the GM's danger pool, Push / Hold Back / Bail Out, ties, stamina, character points, after-effects.

`SYSTEM` is what the application layer registers; every move goes through `SYSTEM.apply`.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.rules.awaiting import with_offers
from service.rules.danger_pool import awaiting as _open
from service.rules.base import Actor, Event
from service.rules.danger_pool import engine
from service.rules.danger_pool.actions import ACTION_SENDERS, ACTION_TYPES, Action
from service.rules.danger_pool.context import Ctx, initial_table
from service.rules.danger_pool.errors import CODES
from service.rules.danger_pool.events_model import EVENT_PAYLOADS
from service.rules.danger_pool.options import Options
from service.rules.danger_pool.sheet import CharacterInput, new_character
from service.rules.danger_pool.state_model import DangerPoolCharacter, DangerPoolState
from service.rules.danger_pool.view import view


def _model(cls: type[BaseModel], value: BaseModel | dict[str, Any]) -> BaseModel:
    if isinstance(value, cls):
        return value
    return cls.model_validate(value.model_dump() if isinstance(value, BaseModel) else value)


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
        return new_character(_model(CharacterInput, data), _model(Options, options))

    def initial_state(self, options: BaseModel | dict[str, Any]) -> dict[str, Any]:
        state = {"options": _model(Options, options).model_dump(mode="json"), "characters": {},
                 "table": initial_table()}
        ctx = Ctx(state, Actor(role="gm"), None)
        engine.refresh(ctx)
        return ctx.state

    def apply(self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
              ) -> tuple[dict[str, Any], list[Event]]:
        return engine.apply(state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), _open.OPEN_GM, _open.OPEN_PLAYER)


SYSTEM = DangerPoolSystem()

__all__ = ["SYSTEM", "Options", "CharacterInput", "Action", "DangerPoolSystem"]
