"""apply(): parse, authorize, run one move on a private copy, advance the state machine, say who is next."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.base import Actor, Event, gm_only, not_your_character, not_yours
from service.rules.trikus import awaiting, flow
from service.rules.trikus.actions import ADAPTER
from service.rules.trikus.context import Ctx
from service.rules.trikus.handlers_activity import HANDLERS as ACTIVITY
from service.rules.trikus.handlers_contest import HANDLERS as CONTEST
from service.rules.trikus.handlers_decide import HANDLERS as DECIDE
from service.rules.trikus.handlers_party import HANDLERS as PARTY

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
