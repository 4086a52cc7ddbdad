"""Regaining Health and PS (spec 4.9, 5.5; L68): game days, Safe-Place rest, the daily Strength test."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import checks, derived, guards, health
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraFocusRestored,
    IskraRecoveryFailed,
    IskraRegenerationBlocked,
    IskraRest,
    IskraTimeAdvanced,
)


def due(ctx: Ctx, sheet: dict[str, Any]) -> bool:
    """A Strength recovery test is due today (L68: only outside a Safe Place, at most once a day)."""
    rec = sheet["recovery"]
    if not derived.alive(sheet) or not rec["recovering"] or not sheet.get("recovery_enabled", True):
        return False
    if sheet["health"] >= sheet["health_max"] or rec["next_si_test_due_at"] is None:
        return False
    loc = derived.location(ctx.table, sheet)
    if loc is not None and loc["is_safe_place"]:
        return False  # 7-B14: in a Safe Place only rest-days count
    if derived.regen_blocked(ctx.table, sheet):
        return False  # spec 4.9: an Asrai who cannot regain Health owes no test
    day = ctx.table["day"]
    return day >= rec["next_si_test_due_at"] and rec["last_si_test_day"] != day


def due_ids(ctx: Ctx) -> list[str]:
    return [cid for cid, s in sorted(ctx.characters.items()) if due(ctx, s)]


def _rest_tick(ctx: Ctx, cid: str, sheet: dict[str, Any]) -> None:
    rec = sheet["recovery"]
    loc = derived.location(ctx.table, sheet)
    if rec["safe_rest_since"] is None or not derived.alive(sheet):
        return
    if loc is None or not loc["is_safe_place"]:
        rec["safe_rest_since"] = None
        return
    if ctx.table["day"] - rec["safe_rest_since"] >= 1:  # one full uninterrupted day (L68)
        rec["safe_rest_since"] += 1  # the day is used up even when an Asrai gains nothing (spec 4.9)
        if derived.regen_blocked(ctx.table, sheet):
            ctx.emit("regeneration_blocked", IskraRegenerationBlocked(character_id=cid, what="health", cause="rest"))
        elif sheet["health"] < sheet["health_max"]:
            health.gain_health(ctx, cid, 1, "safe_rest")


def advance_time(ctx: Ctx, a: Any) -> None:
    waiting = due_ids(ctx)
    if waiting:
        raise violation(
            "recovery_tests_due",
            _(
                "make today's Strength recovery tests first: {waiting} (L68 'należy wykonać')",
                waiting=", ".join(waiting),
            ),
            "days",
        )
    start = ctx.table["day"]
    for _n in range(a.days):
        ctx.table["day"] += 1
        for cid, sheet in sorted(ctx.characters.items()):
            _rest_tick(ctx, cid, sheet)
        waiting = due_ids(ctx)
        if waiting:
            break  # one test per day: time stops on the day a test falls due
    ctx.emit(
        "time_advanced",
        IskraTimeAdvanced(from_day=start, day=ctx.table["day"], requested_days=a.days, recovery_tests_due=waiting),
    )


def rest_start(ctx: Ctx, a: Any) -> None:
    sheet = guards.alive(ctx, a.character_id)
    loc = derived.location(ctx.table, sheet)
    if loc is None or not loc["is_safe_place"]:
        raise violation(
            "not_in_safe_place",
            _("{character_id} is not in a Safe Place (L68)", character_id=a.character_id),
            "character_id",
        )
    if sheet["health"] >= sheet["health_max"]:
        raise violation(
            "at_maximum", _("{character_id} is at full Health", character_id=a.character_id), "character_id"
        )
    sheet["recovery"]["safe_rest_since"] = ctx.table["day"]
    ctx.emit("rest_started", IskraRest(character_id=a.character_id, day=ctx.table["day"], location_id=loc["id"]))


def rest_interrupted(ctx: Ctx, a: Any) -> None:
    sheet = guards.alive(ctx, a.character_id)
    sheet["recovery"]["safe_rest_since"] = None
    ctx.emit("rest_interrupted", IskraRest(character_id=a.character_id, day=ctx.table["day"]))


def recovery_test(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    if not due(ctx, sheet):
        raise violation(
            "recovery_test_not_due",
            _(
                "no Strength recovery test is due for "
                "{character_id} today (L68: one a day, a day "
                "after the damage, outside a Safe Place)",
                character_id=a.character_id,
            ),
            "character_id",
        )
    sheet["recovery"]["last_si_test_day"] = ctx.table["day"]
    checks.open_test(ctx, checks.build(ctx, a.character_id, "strength", "recovery", intent="daily recovery"))


def after_test(ctx: Ctx, t: dict[str, Any], result: str) -> None:
    sheet = ctx.characters[t["character_id"]]
    if sheet["status"] != "alive":
        return
    sheet["recovery"]["next_si_test_due_at"] = ctx.table["day"] + 1
    if result in ("success", "critical_success"):
        health.gain_health(ctx, t["character_id"], 1, "strength_test")  # 7-B14: +1 per passed test
    else:
        ctx.emit(
            "recovery_failed",
            IskraRecoveryFailed(character_id=t["character_id"], test_id=t["id"], next_due=ctx.table["day"] + 1),
        )


def _regen(ctx: Ctx, cid: str, what: str) -> dict[str, Any]:
    sheet = guards.alive(ctx, cid)
    if derived.regen_blocked(ctx.table, sheet):
        raise violation(
            "regeneration_blocked",
            _("{cid} is an Asrai in extreme temperature and regains no {what} (L259 Wrażliwość)", cid=cid, what=what),
            "character_id",
        )
    return sheet


def restore_focus(ctx: Ctx, a: Any) -> None:
    """7-B7: PS come back only when the GM restores them, up to focus_max."""
    sheet = _regen(ctx, a.character_id, "PS")
    if sheet["focus_points"] >= sheet["focus_max"]:
        raise violation(
            "at_maximum",
            _("{character_id} has all {focus_max} PS", character_id=a.character_id, focus_max=sheet["focus_max"]),
            "character_id",
        )
    before = sheet["focus_points"]
    sheet["focus_points"] = min(sheet["focus_max"], before + a.amount)
    ctx.emit_sheet(
        "focus_restored",
        a.character_id,
        IskraFocusRestored(
            character_id=a.character_id,
            reason=a.reason,
            amount=sheet["focus_points"] - before,
            focus_points=sheet["focus_points"],
        ),
        ("focus_points",),
    )


def restore_health(ctx: Ctx, a: Any) -> None:
    """The 'other ways' of L68 (abilities, items) are missing; the GM applies them by hand (7-B1)."""
    sheet = _regen(ctx, a.character_id, "Health")
    if sheet["health"] >= sheet["health_max"]:
        raise violation(
            "at_maximum", _("{character_id} is at full Health", character_id=a.character_id), "character_id"
        )
    health.gain_health(ctx, a.character_id, a.amount, a.reason)
