"""The Trikus rule system (`SYSTEM`'s class) and its move table for the shared driver: a handler per move, the
activity state machine after it (flow), then who is next; a character turned to the dark side is the GM's (L300)."""

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules import driver
from service.rules.base import Actor, Event, RuleViolation, coerce, not_yours
from service.rules.trikus import awaiting, flow, legal
from service.rules.trikus.actions import ACTION_SENDERS, ACTION_TYPES, ADAPTER, Action
from service.rules.trikus.context import Ctx, initial_table
from service.rules.trikus.events_model import EVENT_PAYLOADS
from service.rules.trikus.moves_activity import HANDLERS as ACTIVITY
from service.rules.trikus.moves_contest import HANDLERS as CONTEST
from service.rules.trikus.moves_decide import HANDLERS as DECIDE
from service.rules.trikus.moves_party import HANDLERS as PARTY
from service.rules.trikus.options import Options
from service.rules.trikus.sheet import CharacterInput, new_character
from service.rules.trikus.state_model import TrikusSheet, TrikusState
from service.rules.trikus.view import view

HANDLERS = {**ACTIVITY, **CONTEST, **DECIDE, **PARTY}


def turned(sheet: dict[str, Any]) -> RuleViolation | None:
    if sheet.get("controller") == "gm":
        return not_yours(sheet["name"], _("has turned to the dark side (L300)"))
    return None


MOVES = driver.MoveTable(
    adapter=ADAPTER, context=Ctx, handlers=HANDLERS, after=(flow.proceed,), awaiting=awaiting.refresh, taken_over=turned
)


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
        return new_character(coerce(CharacterInput, data), coerce(Options, options))

    def initial_state(self, options: BaseModel) -> dict[str, Any]:
        state = {"options": options.model_dump(mode="json"), "characters": {}, "table": initial_table()}
        ctx = Ctx(state, Actor(role="gm"), None)  # no dice are needed here
        awaiting.refresh(ctx)
        return ctx.state

    def apply(
        self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
    ) -> tuple[dict[str, Any], list[Event]]:
        return driver.apply(MOVES, state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), awaiting.OPEN_GM, awaiting.OPEN_PLAYER)

    def hides_from_gm(self, options: dict[str, Any]) -> bool:
        """Optional rule 2: unrevealed dark sides are kept from the GM, so a full export would show them."""
        return bool(options.get("opt2_gm_blind_to_dark_sides"))

    def legal_moves(self, state: dict[str, Any], actor: Actor | None = None) -> list[dict[str, Any]]:
        return legal.legal_moves(state, actor)
