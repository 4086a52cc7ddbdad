"""Checks shared by many moves. Each raises a RuleViolation (or 403) naming the rule; none changes state."""

from typing import Any

from pydantic import BaseModel

from service.i18n.message import _, _n
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.base import gm_only, not_your_character


def gm(ctx: Ctx, detail: str, field: str | None = None) -> None:
    if not ctx.actor.is_gm:
        raise gm_only(detail, field=field)


def gm_fields(ctx: Ctx, action: BaseModel, *names: str) -> None:
    """Fields that carry the GM's judgment (modifiers, TNs, flags): a player may not set them."""
    if ctx.actor.is_gm:
        return
    for name in names:
        if name in action.model_fields_set and getattr(action, name) not in (None, [], False):
            raise gm_only(_("{name} is the GM's call", name=name), field=name)


def owner(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    """A player acts only for characters they control; the GM for anyone."""
    sheet = ctx.sheet(character_id, field)
    if not ctx.actor.controls(character_id):
        raise not_your_character(_("you do not control {name}", name=ctx.name(character_id)), field=field)
    return sheet


def alive(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    sheet = ctx.sheet(character_id, field)
    if sheet.get("eliminated"):
        raise violation("character_eliminated", _("{name} is eliminated (§4.27)", name=sheet["name"]), field)
    return sheet


def encounter(ctx: Ctx, *phases: str) -> dict[str, Any]:
    enc = ctx.encounter
    if enc is None:
        raise violation("no_encounter", _("no combat encounter is running"))
    if phases and enc["phase"] not in phases:
        raise violation(
            "wrong_phase",
            _("the encounter is in {phase}; this move needs {phases}", phase=enc["phase"], phases=" or ".join(phases)),
        )
    return enc


def participant(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    enc = encounter(ctx)
    slot = enc["participants"].get(character_id)
    if slot is None:
        raise violation("not_in_encounter", _("{name} is not in the encounter", name=ctx.name(character_id)), field)
    return slot


def no_interrupt(ctx: Ctx) -> None:
    enc = ctx.encounter
    if enc is not None and enc.get("pending_interrupt"):
        pi = enc["pending_interrupt"]
        raise violation(
            "interrupt_pending",
            _(
                "{name} is interrupting {name_2}: settle the opposed Athletics test first (accept, reroll or defend)",
                name=ctx.name(pi["holder"]),
                name_2=ctx.name(pi["target"]),
            ),
        )


def own_turn(ctx: Ctx, character_id: str, *, declared: bool = True) -> dict[str, Any]:
    """The character's turn is in progress (§5.2 turn_acting); returns its turn record."""
    slot = participant(ctx, character_id)
    enc = ctx.running()
    no_interrupt(ctx)
    if enc["current_turn"] != character_id:
        raise violation(
            "not_your_turn",
            _(
                "it is not {name}'s turn ({acting} is acting)",
                name=ctx.name(character_id),
                acting=ctx.name(enc["current_turn"]),
            )
            if enc["current_turn"]
            else _("it is not {name}'s turn", name=ctx.name(character_id)),
        )
    turn = slot["turn"]
    if declared and turn["status"] != "acting":
        raise violation(
            "turn_not_declared",
            _("declare the turn's actions first (seed 1.3: all actions are declared at the start of the turn)"),
        )
    return turn


def action_slot(ctx: Ctx, turn: dict[str, Any], index: int | None, field: str = "action_index") -> dict[str, Any]:
    """A declared action not yet taken (§4.20 take_action)."""
    declared = turn["declared"]
    if index is None or not 0 <= index < len(declared):
        raise violation(
            "action_not_declared",
            _n(
                "the turn declared {count} action; actions are declared at the start of the turn (seed 1.3)",
                "the turn declared {count} actions; actions are declared at the start of the turn (seed 1.3)",
                len(declared),
                count=len(declared),
            ),
            field,
        )
    if declared[index]["taken"]:
        raise violation("action_already_taken", _("declared action {index} was already taken", index=index), field)
    return declared[index]
