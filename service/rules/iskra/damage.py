"""Incoming damage (spec 4.8 incoming_damage, 5.2): wounds → Dodge window → focus window → applied."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import checks, guards, health, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraDamageIncoming,
    IskraDamageResolved,
    IskraFellProne,
    IskraFocusSpent,
    IskraWoundsSet,
)

DODGES = ("dodge", "dodge_stay_standing")


def incoming(ctx: Ctx, target_id: str, wounds: int | None, source: dict[str, Any]) -> None:
    dmg = {
        "id": ctx.next_id("damage", "d"),
        "kind": "damage",
        "target_id": target_id,
        "wounds": wounds,
        "initial_wounds": wounds,
        "source": source,
        "stage": "incoming",
        "dodge": source.get("dodge_choice"),
        "dodge_test": None,
        "focus_spent": 0,
        "focus_request": None,
        "prev_stage": None,
    }
    ctx.table["pending"] = dmg
    ctx.emit(
        "damage_incoming", IskraDamageIncoming(damage_id=dmg["id"], target_id=target_id, wounds=wounds, source=source)
    )
    if wounds is None:
        dmg["stage"] = "wounds_needed"  # 7-B30: the weapon's Wounds come from the GM (§2.4 is missing)
        return
    proceed(ctx, dmg)


def proceed(ctx: Ctx, dmg: dict[str, Any]) -> None:
    if dmg["source"]["kind"] == "attack":
        if dmg["dodge"] in DODGES:  # on_declare: the Dodge was chosen before the attack test (7-B26)
            start_dodge_test(ctx, dmg)
            return
        sheet = ctx.characters[dmg["target_id"]]
        if dmg["dodge"] is None and sheet["status"] == "alive" and turns.can_react(ctx, dmg["target_id"]):
            dmg["stage"] = "dodge_window"  # L181 Unik: "jeśli Postać jest celem ataku"
            return
    to_focus(ctx, dmg)


def start_dodge_test(ctx: Ctx, dmg: dict[str, Any]) -> None:
    extra = (
        [{"source": "dodge_stay_standing", "value": -2, "label": "stay standing", "hidden": False}]
        if dmg["dodge"] == "dodge_stay_standing"
        else []
    )  # L181: −2 to stay on one's feet
    dmg["stage"] = "dodge_test"
    t = checks.build(ctx, dmg["target_id"], "dexterity", "dodge", extra=extra)
    checks.open_test(ctx, t)


def declare_dodge(ctx: Ctx, cid: str, choice: str, field: str = "choice") -> None:
    """Spend the Reaction and fall prone unless staying standing (L181 'niezależnie od wyniku Testu')."""
    turns.spend_reaction(ctx, cid, "dodge", field)
    sheet = ctx.characters[cid]
    if choice == "dodge" and not sheet["prone"]:
        sheet["prone"] = True
        ctx.emit("fell_prone", IskraFellProne(character_id=cid, cause="dodge"))


def after_dodge(ctx: Ctx, dmg: dict[str, Any], outcome: str) -> None:
    dmg["dodge_test"] = None
    if ctx.characters[dmg["target_id"]]["status"] != "alive":
        ctx.table["pending"] = None  # a failed Dodge on Death's Door already killed (L66)
        ctx.emit("damage_resolved", IskraDamageResolved(damage_id=dmg["id"], target_id=dmg["target_id"], moot=True))
        return
    if outcome in ("success", "critical_success"):
        dmg["wounds"] = 0  # L180 "unika wszystkich obrażeń"
    to_focus(ctx, dmg)


def to_focus(ctx: Ctx, dmg: dict[str, Any]) -> None:
    sheet = ctx.characters[dmg["target_id"]]
    if dmg["wounds"] <= 0 or sheet["focus_points"] <= 0 or sheet["status"] != "alive":
        apply(ctx, dmg)  # nothing left to decide
        return
    dmg["stage"] = "focus_window"  # L76: −1 Wound per PS, down to zero


def apply(ctx: Ctx, dmg: dict[str, Any]) -> None:
    ctx.table["pending"] = None
    health.apply_damage(
        ctx,
        dmg["target_id"],
        dmg["wounds"],
        {
            **dmg["source"],
            "damage_id": dmg["id"],
            "initial_wounds": dmg["initial_wounds"],
            "focus_spent": dmg["focus_spent"],
        },
    )


def reduce_now(ctx: Ctx, dmg: dict[str, Any], amount: int, description: str) -> None:
    sheet = ctx.characters[dmg["target_id"]]
    sheet["focus_points"] -= amount
    dmg["wounds"] -= amount
    dmg["focus_spent"] += amount
    ctx.emit_sheet(
        "focus_spent",
        dmg["target_id"],
        IskraFocusSpent(
            character_id=dmg["target_id"],
            use="reduce_damage",
            amount=amount,
            description=description,
            damage_id=dmg["id"],
            wounds=dmg["wounds"],
            focus_points=sheet["focus_points"],
        ),
        ("focus_points",),
    )
    to_focus(ctx, dmg)


def pending_damage(ctx: Ctx, damage_id: str | None, *stages: str) -> dict[str, Any]:
    p = ctx.table["pending"]
    if p is None or p["kind"] != "damage" or (damage_id is not None and damage_id != p["id"]):
        raise violation(
            "no_pending_damage",
            (_("no pending damage {damage_id}", damage_id=damage_id) if damage_id else _("no pending damage")),
            "damage_id",
        )
    if stages and p["stage"] not in stages:
        raise violation(
            "wrong_stage",
            _(
                "damage {id} is in {stage}; this needs {stages} (spec 5.2)",
                id=p["id"],
                stage=p["stage"],
                stages=" or ".join(stages),
            ),
            "type",
        )
    return p


# --- moves ---------------------------------------------------------------------------------------------


def deal_damage(ctx: Ctx, a: Any) -> None:
    """GM: Wounds from a fall, a hazard or an attack without a test (spec 4.8 source.kind)."""
    guards.no_pending(ctx)
    guards.alive(ctx, a.character_id)
    if a.attacker_id is not None:
        ctx.sheet(a.attacker_id, "attacker_id")
    incoming(
        ctx, a.character_id, a.wounds, {"kind": a.source, "description": a.description, "attacker_id": a.attacker_id}
    )


def set_wounds(ctx: Ctx, a: Any) -> None:
    dmg = pending_damage(ctx, a.damage_id, "wounds_needed")
    dmg["wounds"] = dmg["initial_wounds"] = a.wounds + dmg["source"].get("critical_bonus_wounds", 0)
    ctx.emit("wounds_set", IskraWoundsSet(damage_id=dmg["id"], wounds=dmg["wounds"]))
    proceed(ctx, dmg)


def accept_damage(ctx: Ctx, a: Any) -> None:
    dmg = pending_damage(ctx, a.damage_id, "focus_window")
    guards.owner(ctx, dmg["target_id"])
    apply(ctx, dmg)
