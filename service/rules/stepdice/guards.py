"""Checks shared by many moves. Each raises a RuleViolation naming the rule; none changes state."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules import base
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import StepDiceCharacterRound


def not_dead(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    sheet = ctx.sheet(character_id, field)
    if sheet["condition"] == "dead":
        raise violation("character_dead", _("{character_id} is dead (seed §7.2)", character_id=character_id), field)
    return sheet


def active(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    """Downed characters take no actions, only crawl and speak (seed §7.2 v1)."""
    sheet = not_dead(ctx, character_id, field)
    if sheet["condition"] == "downed":
        raise violation(
            "character_downed",
            _("{character_id} is downed and takes no actions (seed §7.2)", character_id=character_id),
            field,
        )
    return sheet


def encounter(ctx: Ctx, *phases: str) -> dict[str, Any]:
    enc = ctx.encounter
    if enc is None or enc["phase"] == "ended":
        raise violation("no_encounter", _("no combat encounter is open"))
    if phases and enc["phase"] not in phases:
        raise violation(
            "wrong_phase",
            _("the encounter is in {phase}; this move needs {phases}", phase=enc["phase"], phases=" or ".join(phases)),
        )
    return enc


def member(ctx: Ctx, character_id: str, field: str = "character_id") -> dict[str, Any]:
    enc = encounter(ctx)
    if character_id not in enc["pcs"]:
        raise violation(
            "not_in_encounter", _("{character_id} is not in the encounter", character_id=character_id), field
        )
    return enc["pcs"][character_id]


def turn(ctx: Ctx, character_id: str, *, needs_action: bool = True) -> dict[str, Any]:
    """A PC acts only in its own open turn, with one Action per round (seed §5.3)."""
    slot = member(ctx, character_id)
    enc = encounter(ctx, "player_phase")
    if enc["turn_open_for"] != character_id:
        raise violation(
            "not_your_turn",
            (
                _("it is not {character_id}'s turn; send begin_turn first", character_id=character_id)
                if enc["turn_open_for"] is None
                else _("{turn_open_for}'s turn is open", turn_open_for=enc["turn_open_for"])
            ),
        )
    if needs_action and not slot["action_available"]:
        raise violation(
            "no_action_available",
            _("{character_id} has already used the Action this round (seed §5.3)", character_id=character_id),
        )
    return slot


def spend_action(ctx: Ctx, character_id: str, slot: dict[str, Any] | None) -> None:
    if slot is None:
        return
    slot["action_available"] = False
    ctx.emit("action_spent", StepDiceCharacterRound(character_id=character_id, round=ctx.running()["round"]))


def gm_only(ctx: Ctx, field: str, detail: str) -> None:
    if not ctx.actor.is_gm:
        raise base.gm_only(detail, field=field)


def option(ctx: Ctx, name: str, field: str | None = None) -> None:
    if not getattr(ctx.options, name):
        raise violation("option_disabled", _("this campaign plays without it ({name} is off)", name=name), field)
