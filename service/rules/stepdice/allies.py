"""Helping an ally in combat (seed §3.6, spec 4.5, 7-A12) and raising a downed ally (seed §7.2, 7-A24)."""

from __future__ import annotations

from service.i18n.message import _, _n
from service.rules.stepdice import guards, health
from service.rules.stepdice.actions_player import StepDiceHelp, StepDiceRaise
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.events_model import StepDiceHelpTokenEvent
from service.rules.stepdice.errors import CONFLICT, violation


def help_ally(ctx: Ctx, a: StepDiceHelp) -> None:
    guards.active(ctx, a.character_id)
    slot = guards.turn(ctx, a.character_id)
    target = a.target_character_id
    if target == a.character_id:
        raise violation("cannot_help_self", _("a character cannot help their own test"), "target_character_id")
    guards.active(ctx, target, "target_character_id")
    guards.member(ctx, target, "target_character_id")
    enc = ctx.running()
    if target in enc["pcs_done"]:
        raise violation(
            "target_turn_over",
            _("{target} has had its turn; the help would expire unused (7-A12)", target=target),
            "target_character_id",
        )
    limit = ctx.options.max_helpers_per_test
    if sum(t["target_character_id"] == target for t in enc["help_tokens"]) >= limit:
        raise violation(
            "too_many_helpers",
            _n(
                "{target} already has {limit} helper for its next test (seed §3.6: no help towers)",
                "{target} already has {limit} helpers for its next test (seed §3.6: no help towers)",
                limit,
                target=target,
                limit=limit,
            ),
            "target_character_id",
            status=CONFLICT,
        )
    guards.spend_action(ctx, a.character_id, slot)
    token = {
        "helper_id": a.character_id,
        "target_character_id": target,
        "description": a.description,
        "created_round": enc["round"],
        "mode": "threshold_minus_1" if ctx.options.variant_d6_only else "die_step",
    }  # §9.3
    enc["help_tokens"].append(token)
    ctx.emit("help_given", StepDiceHelpTokenEvent(**token))


def raise_ally(ctx: Ctx, a: StepDiceRaise) -> None:
    """No roll (neither version of §7.2 asks for one); in combat it is the helper's Action."""
    guards.active(ctx, a.character_id)
    target = guards.not_dead(ctx, a.target_character_id, "target_character_id")
    if target["condition"] != "downed":
        raise violation(
            "target_not_downed",
            _("{target_character_id} is not downed", target_character_id=a.target_character_id),
            "target_character_id",
        )
    slot = ctx.slot(a.character_id)
    if slot is not None:
        guards.turn(ctx, a.character_id)
    elif ctx.slot(a.target_character_id) is not None:
        raise violation("not_in_encounter", _("the ally lies in a running encounter; join it to reach them"))
    guards.spend_action(ctx, a.character_id, slot)
    health.gain_hearts(
        ctx, a.target_character_id, 1, "raised", {"description": f"by {a.character_id}"}, event="character_raised"
    )
