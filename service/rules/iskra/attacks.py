"""Attacks and Help (spec 4.7, 4.12.3–4.12.4; L163–L165, L293) and the Ready/trigger cycle (spec 4.13.1)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.iskra import checks, derived, guards, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import IskraHelpAttached, IskraHelpGiven

ATTRIBUTE_FOR = {"melee": "strength", "ranged": "dexterity"}  # L163 Test Si, L164 Test Zr


def _target(ctx: Ctx, target_id: str) -> str:
    p = ctx.participant(target_id)
    if p is not None and p["kind"] == "hazard":
        return "hazard"  # L149: dangerous phenomena can be opponents
    guards.alive(ctx, target_id, "target_id")
    return "character"


def _item(sheet: dict[str, Any], item_id: str | None) -> dict[str, Any] | None:
    if item_id is None:
        return None
    item = next((i for i in sheet["inventory"] if i["item_id"] == item_id), None)
    if item is None:
        raise violation("unknown_item", _("no item {item_id} on this sheet", item_id=item_id), "item_id")
    return item


def open_attack(
    ctx: Ctx,
    cid: str,
    target_id: str,
    mode: str,
    *,
    wounds: int | None,
    item_id: str | None,
    critical_bonus_wounds: int,
    intent: str | None,
    offhand: bool = False,
) -> None:
    sheet = ctx.characters[cid]
    kind = _target(ctx, target_id)
    item = _item(sheet, item_id)
    if wounds is None and item is not None:
        wounds = item["wounds"]  # 7-B30: the GM-entered Wounds of the weapon used
    t = checks.build(ctx, cid, ATTRIBUTE_FOR[mode], "attack", intent=intent)
    t["attack"] = {
        "target_id": target_id,
        "target_kind": kind,
        "mode": mode,
        "wounds": wounds,
        "item_id": item_id,
        "critical_bonus_wounds": critical_bonus_wounds,
        "offhand": offhand,
        "dodge_choice": None,
    }
    if ctx.options.dodge_timing == "on_declare" and kind == "character" and turns.can_react(ctx, target_id):
        t["stage"] = "dodge_declaration"  # 7-B26 toggle: the target decides before the attack test
    checks.open_test(ctx, t)


def attack(ctx: Ctx, a: Any) -> None:
    guards.no_pending(ctx)
    sheet = guards.acting(ctx, a.character_id)
    guards.gm_field(ctx, "wounds", a.wounds is not None)
    guards.gm_field(ctx, "critical_bonus_wounds", a.critical_bonus_wounds != 0)
    if a.mode == "melee" and a.distance != "reach":
        raise violation("melee_needs_reach", _("a melee attack needs the target at reach (7-B38)"), "distance")
    _target(ctx, a.target_id)
    _item(sheet, a.item_id)
    if a.offhand:
        if not derived.has_ability(sheet, "ambidexterity"):
            raise violation("ability_required", _("an off-hand attack needs Oburęczność (L293)"), "offhand")
        enc = ctx.encounter
        if enc is not None and ctx.participant(a.character_id) is not None:
            budget = enc["budget"].get(a.character_id) or {}
            if (
                turns.current(enc) == a.character_id
                and budget.get("offhand_attacks", 0) >= ctx.options.offhand_attacks_per_turn
            ):
                limit = ctx.options.offhand_attacks_per_turn
                raise violation(
                    "offhand_limit_reached",
                    _n(
                        "at most {offhand_attacks_per_turn} off-hand attack per turn (7-B40)",
                        "at most {offhand_attacks_per_turn} off-hand attacks per turn (7-B40)",
                        limit,
                        offhand_attacks_per_turn=limit,
                    ),
                    "offhand",
                )
        if turns.spend(ctx, a.character_id, "minor"):
            guards.encounter(ctx)["budget"][a.character_id]["offhand_attacks"] += 1
    else:
        turns.spend(ctx, a.character_id, "major")
    open_attack(
        ctx,
        a.character_id,
        a.target_id,
        a.mode,
        wounds=a.wounds,
        item_id=a.item_id,
        critical_bonus_wounds=a.critical_bonus_wounds,
        intent=a.intent,
        offhand=a.offhand,
    )


def give_token(ctx: Ctx, helper: str, beneficiary: str, description: str) -> None:
    enc = guards.encounter(ctx)
    token = {
        "id": ctx.next_id("help", "h"),
        "helper_id": helper,
        "beneficiary_id": beneficiary,
        "description": description,
        "round": enc["round"],
    }
    enc["help_tokens"].append(token)  # 7-B25: lasts until the helper's next turn
    ctx.emit("help_given", IskraHelpGiven(encounter_id=enc["id"], **token))


def help_(ctx: Ctx, a: Any) -> None:
    guards.acting(ctx, a.character_id)
    guards.alive(ctx, a.beneficiary_id, "beneficiary_id")
    if a.character_id == a.beneficiary_id:
        raise violation("cannot_help_self", _("Help is given to another character (L165)"), "beneficiary_id")
    if ctx.participant(a.character_id) is not None:
        guards.no_pending(ctx)
        turns.spend(ctx, a.character_id, "major")  # Pomoc is a Major Action (L165)
        give_token(ctx, a.character_id, a.beneficiary_id, a.description)
        return
    t = checks.active(ctx)
    if t["character_id"] != a.beneficiary_id:
        raise violation(
            "no_pending_test",
            _("{beneficiary_id} has no open test to help with", beneficiary_id=a.beneficiary_id),
            "beneficiary_id",
        )
    checks.stage(t, "pre_roll")
    if any(h["character_id"] == a.character_id for h in t["helpers"]):
        raise violation(
            "already_helping", _("{character_id} already helps this test", character_id=a.character_id), "character_id"
        )
    t["helpers"].append({"character_id": a.character_id, "description": a.description})
    checks.recompute(ctx, t)  # +2 once however many helpers (L165, IS-E6 D4)
    checks.emit_test(ctx, "help_attached", IskraHelpAttached, t, helper_id=a.character_id)
