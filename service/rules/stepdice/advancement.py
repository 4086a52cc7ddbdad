"""Advancement (seed §8, §9.5, spec 4.12): the GM grants, the player chooses one option per grant."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.stepdice import guards, health
from service.rules.stepdice.actions_gm import StepDiceDiscardAdvancement, StepDiceGrantAdvancement
from service.rules.stepdice.actions_player import StepDiceAdvance
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.ladder import ATTRIBUTES, step_proficiency, step_up
from service.rules.stepdice.sheet import HEARTS_CAP, MANA_CAP, proficiency
from service.rules.stepdice.events_model import (
    StepDiceAdvancementChosen,
    StepDiceAdvancementCount,
    StepDiceAdvancementGranted,
    StepDiceManaChange,
)


def _next_level(ctx: Ctx, sheet: dict[str, Any], attribute: str) -> str | None:
    if ctx.options.variant_d6_only:
        return step_proficiency(proficiency(sheet, attribute))  # master is the top (7-A45)
    return step_up(sheet["dice"][attribute])  # d20 is the top (§8)


def _open_choices(ctx: Ctx, sheet: dict[str, Any]) -> list[str]:
    out = [f"step_die:{a}" for a in ATTRIBUTES if _next_level(ctx, sheet, a)]
    return (
        out
        + (["heart"] if sheet["hearts_max"] < HEARTS_CAP else [])
        + (["mana"] if sheet["mana_max"] < MANA_CAP else [])
    )


def _pending(sheet: dict[str, Any], character_id: str) -> None:
    if sheet.get("pending_advancements", 0) < 1:
        raise violation(
            "no_pending_advancement",
            _(
                "{character_id} has no advancement to spend; the GM grants "
                "one at the end of an adventure or milestone (seed §8)",
                character_id=character_id,
            ),
        )


def grant_advancement(ctx: Ctx, a: StepDiceGrantAdvancement) -> None:
    for cid in a.character_ids:
        guards.not_dead(ctx, cid, "character_ids")
    for cid in dict.fromkeys(a.character_ids):
        sheet = ctx.characters[cid]
        sheet["pending_advancements"] = sheet.get("pending_advancements", 0) + 1
        ctx.emit(
            "advancement_granted",
            StepDiceAdvancementGranted(
                character_id=cid, reason=a.reason, pending_advancements=sheet["pending_advancements"]
            ),
        )


def advance(ctx: Ctx, a: StepDiceAdvance) -> None:
    cid = a.character_id
    sheet = guards.not_dead(ctx, cid)
    _pending(sheet, cid)
    if a.choice == "step_die" and a.attribute is None:
        raise violation("attribute_required", _("say which attribute steps up"), "attribute")
    if a.choice != "step_die" and a.attribute is not None:
        raise violation("field_not_applicable", _("attribute goes with step_die only"), "attribute")
    change: dict[str, Any] = {"choice": a.choice, "attribute": a.attribute}
    if a.choice == "step_die" and a.attribute is not None:  # step_die without one was refused above
        nxt = _next_level(ctx, sheet, a.attribute)
        if nxt is None:
            raise violation(
                "advancement_capped", _("{attribute} is already at its maximum", attribute=a.attribute), "attribute"
            )
        if ctx.options.variant_d6_only:
            levels = {x: proficiency(sheet, x) for x in ATTRIBUTES}
            change.update({"from": levels[a.attribute], "to": nxt})
            levels[a.attribute] = nxt
            sheet["proficiency"] = levels
        else:
            change.update({"from": sheet["dice"][a.attribute], "to": nxt})
            sheet["dice"][a.attribute] = nxt
    else:
        key, cap = ("hearts", HEARTS_CAP) if a.choice == "heart" else ("mana", MANA_CAP)
        if sheet[f"{key}_max"] >= cap:
            raise violation(
                "advancement_capped", _("{key} maximum is already {cap} (seed §8)", key=key, cap=cap), "choice"
            )
        change.update({"from": sheet[f"{key}_max"], "to": sheet[f"{key}_max"] + 1})
        sheet[f"{key}_max"] += 1
    sheet["pending_advancements"] -= 1
    ctx.emit(
        "advancement_chosen",
        StepDiceAdvancementChosen(character_id=cid, **change, pending_advancements=sheet["pending_advancements"]),
    )
    # 7-A29: the current value rises with the maximum, else the gain stays invisible until a rest.
    if a.choice == "heart":
        health.gain_hearts(ctx, cid, 1, "advancement")
    elif a.choice == "mana":
        sheet["mana"] += 1
        ctx.emit(
            "mana_gained",
            StepDiceManaChange(
                character_id=cid, amount=1, mana=sheet["mana"], mana_max=sheet["mana_max"], cause="advancement"
            ),
        )


def discard_advancement(ctx: Ctx, a: StepDiceDiscardAdvancement) -> None:
    """7-A30: when every option is capped the GM may drop the grant instead of keeping it."""
    sheet = ctx.sheet(a.character_id)
    _pending(sheet, a.character_id)
    still = _open_choices(ctx, sheet)
    if still:
        raise violation(
            "advancement_available",
            _("{character_id} can still choose: {still}", character_id=a.character_id, still=", ".join(still)),
        )
    sheet["pending_advancements"] -= 1
    ctx.emit(
        "advancement_discarded",
        StepDiceAdvancementCount(character_id=a.character_id, pending_advancements=sheet["pending_advancements"]),
    )
