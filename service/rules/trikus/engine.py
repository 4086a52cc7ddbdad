"""The Trikus rule system (`SYSTEM`'s class) and one move: parse, authorize, run it on a private copy, advance the
state machine, say who is next."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.awaiting import with_offers
from service.rules.base import Actor, Event, gm_only, not_your_character, not_yours
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


def authorize(ctx: Ctx, action: BaseModel) -> None:
    """GM-only moves are 403 for players; a player acts only for characters they control."""
    sender = type(action).sender
    if sender == "gm" and not ctx.actor.is_gm:
        raise gm_only(_("only the GM may send {type}", type=action.type), field="type")
    cid = getattr(action, "character_id", None)
    if sender != "gm" and cid is not None:
        sheet = ctx.sheet(cid)
        if not ctx.actor.controls(cid):
            raise not_your_character(_("you do not control {cid}", cid=cid), field="character_id")
        if not ctx.actor.is_gm and sheet.get("controller") == "gm":
            raise not_yours(sheet["name"], _("has turned to the dark side (L300)"))


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"], ctx.table["requests"] = awaiting.compute(ctx)


def apply(state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
          ) -> tuple[dict[str, Any], list[Event]]:
    if not isinstance(action, BaseModel):
        action = ADAPTER.validate_python(action)
    ctx = Ctx(state, actor, dice)
    authorize(ctx, action)
    HANDLERS[action.type](ctx, action)
    flow.proceed(ctx)
    refresh(ctx)
    return ctx.state, ctx.events


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
        refresh(ctx)
        return ctx.state

    def apply(self, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
              ) -> tuple[dict[str, Any], list[Event]]:
        return apply(state, action, actor, dice)

    def view(self, state: dict[str, Any], actor: Actor) -> dict[str, Any]:
        return with_offers(view(state, actor), awaiting.OPEN_GM, awaiting.OPEN_PLAYER)

    def hides_from_gm(self, options: dict[str, Any]) -> bool:
        """Optional rule 2: unrevealed dark sides are kept from the GM, so a full export would show them."""
        return bool(options.get("opt2_gm_blind_to_dark_sides"))

    def legal_moves(self, state: dict[str, Any], actor: Actor | None = None) -> list[dict[str, Any]]:
        return legal.legal_moves(state, actor)
