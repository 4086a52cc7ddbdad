"""Health, Death's Door and death (spec 4.8 apply_damage, 5.3); XP per Wound (L97)."""

from __future__ import annotations

from typing import Any

from service.rules.iskra import derived
from service.rules.iskra.context import Ctx
from service.rules.iskra.events_model import IskraCharacterDied, IskraDamageApplied, IskraHealthRegained

# NPC Health is GM-only (spec 8).
HIDE = ("health", "health_lost", "deaths_door")
HIDE_REGAINED = ("health", "deaths_door_ended")


def kill(ctx: Ctx, cid: str, cause: str, **extra: Any) -> None:
    """L66: death is immediate and terminal (spec 5.3)."""
    sheet = ctx.characters[cid]
    sheet["status"] = "dead"
    sheet["health"] = 0
    sheet["recovery"] = {**sheet["recovery"], "recovering": False, "next_si_test_due_at": None, "safe_rest_since": None}
    ctx.emit("character_died", IskraCharacterDied(character_id=cid, cause=cause, **extra))


def _start_recovery(ctx: Ctx, sheet: dict[str, Any]) -> None:
    rec = sheet["recovery"]
    day = ctx.table["day"]
    if not rec["recovering"]:
        # L68: the first Strength test falls due one day after the damage; later damage does not reset it.
        rec["recovering"] = True
        rec["next_si_test_due_at"] = day + 1
    # Resolution (spec 7 'Ambiguities resolved' in the report): taking Wounds interrupts a Safe-Place rest,
    # which must be "bez przerwy" (uninterrupted, L68).
    rec["safe_rest_since"] = None
    if sheet["health"] == 0:
        # L68 exception: reaching Death's Door while recovering moves the test to a day after it.
        rec["deaths_door_since"] = day
        rec["next_si_test_due_at"] = day + 1


def apply_damage(ctx: Ctx, cid: str, wounds: int, source: dict[str, Any]) -> None:
    sheet = ctx.characters[cid]
    base = {"character_id": cid, "wounds": wounds, "source": source}
    if wounds <= 0 or not derived.alive(sheet):
        # 7-B12: damage fully avoided (PS or Dodge) is no damage received, even on Death's Door.
        ctx.emit_sheet(
            "damage_applied", cid, IskraDamageApplied(**base, health_lost=0, health=sheet["health"], xp_gained=0), HIDE
        )
        return
    if sheet["health"] == 0:
        ctx.emit_sheet("damage_applied", cid, IskraDamageApplied(**base, health_lost=0, health=0, xp_gained=0), HIDE)
        kill(ctx, cid, "damage_on_deaths_door")  # L66
        return
    if ctx.options.overflow_damage_kills and wounds > sheet["health"]:
        lost = sheet["health"]
        ctx.emit_sheet("damage_applied", cid, IskraDamageApplied(**base, health_lost=lost, health=0, xp_gained=0), HIDE)
        kill(ctx, cid, "wounds_beyond_health")  # 7-B10 reading (a)
        return
    lost = min(wounds, sheet["health"])
    sheet["health"] -= lost
    gained = 0
    if sheet["controller"] == "player":  # L97 is about PCs' experience
        gained = lost if ctx.options.xp_per_wound_basis == "health_lost" else wounds  # 7-B15
        sheet["xp"] += gained
        sheet["xp_earned_total"] += gained
    _start_recovery(ctx, sheet)
    ctx.emit_sheet(
        "damage_applied",
        cid,
        IskraDamageApplied(
            **base, health_lost=lost, health=sheet["health"], xp_gained=gained, deaths_door=sheet["health"] == 0
        ),
        HIDE,
    )


def gain_health(ctx: Ctx, cid: str, amount: int, cause: str) -> int:
    """Any gain of at least 1 ends Death's Door (L66); Health never exceeds its maximum (L64, 7-B48)."""
    sheet = ctx.characters[cid]
    before = sheet["health"]
    sheet["health"] = min(sheet["health_max"], before + amount)
    rec = sheet["recovery"]
    if sheet["health"] > 0:
        rec["deaths_door_since"] = None
    if sheet["health"] >= sheet["health_max"]:
        sheet["recovery"] = {
            "recovering": False,
            "next_si_test_due_at": None,
            "safe_rest_since": None,
            "deaths_door_since": None,
            "last_si_test_day": rec["last_si_test_day"],
        }
    ctx.emit_sheet(
        "health_regained",
        cid,
        IskraHealthRegained(
            character_id=cid,
            amount=sheet["health"] - before,
            health=sheet["health"],
            cause=cause,
            deaths_door_ended=before == 0 and sheet["health"] > 0,
        ),
        HIDE_REGAINED,
    )
    return sheet["health"] - before
