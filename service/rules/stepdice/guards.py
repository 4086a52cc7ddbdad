"""Checks shared by many moves. Each raises a RuleViolation naming the rule; none changes state."""
from __future__ import annotations

from typing import Any

from service.rules import base
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation


def not_dead(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    sheet = ctx.sheet(character_id, field)
    if sheet["condition"] == "dead":
        raise violation("character_dead", f"{character_id} is dead (seed §7.2)", field)
    return sheet


def active(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    """Downed characters take no actions, only crawl and speak (seed §7.2 v1)."""
    sheet = not_dead(ctx, character_id, field)
    if sheet["condition"] == "downed":
        raise violation("character_downed", f"{character_id} is downed and takes no actions (seed §7.2)", field)
    return sheet


def encounter(ctx: Ctx, *phases: str) -> dict[str, Any]:
    enc = ctx.encounter
    if enc is None or enc["phase"] == "ended":
        raise violation("no_encounter", "no combat encounter is open")
    if phases and enc["phase"] not in phases:
        raise violation("wrong_phase", f"the encounter is in {enc['phase']}; this move needs {' or '.join(phases)}")
    return enc


def member(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    enc = encounter(ctx)
    if character_id not in enc["pcs"]:
        raise violation("not_in_encounter", f"{character_id} is not in the encounter", field)
    return enc["pcs"][character_id]


def turn(ctx: Ctx, character_id: str, *, needs_action: bool = True) -> dict[str, Any]:
    """A PC acts only in its own open turn, with one Action per round (seed §5.3)."""
    slot = member(ctx, character_id)
    enc = encounter(ctx, "player_phase")
    if enc["turn_open_for"] != character_id:
        raise violation("not_your_turn", f"it is not {character_id}'s turn; send begin_turn first"
                        if enc["turn_open_for"] is None else f"{enc['turn_open_for']}'s turn is open")
    if needs_action and not slot["action_available"]:
        raise violation("no_action_available", f"{character_id} has already used the Action this round (seed §5.3)")
    return slot


def spend_action(ctx: Ctx, character_id: str, slot: dict[str, Any] | None) -> None:
    if slot is None:
        return
    slot["action_available"] = False
    ctx.emit("action_spent", {"character_id": character_id, "round": ctx.encounter["round"]})


def gm_only(ctx: Ctx, field: str, detail: str) -> None:
    if not ctx.actor.is_gm:
        raise base.gm_only(detail, field=field)


def option(ctx: Ctx, name: str, field: str | None = None) -> None:
    if not getattr(ctx.options, name):
        raise violation("option_disabled", f"this campaign plays without it ({name} is off)", field)
