"""Time-pressure clocks (seed §11.2, spec 4.14, 5.5): every failure in the scene moves them by 1."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.stepdice import guards
from service.rules.stepdice.actions_gm import StepDiceAdvanceClock, StepDiceCancelClock, StepDiceCreateClock
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.events_model import StepDiceClockEvent
from service.rules.stepdice.errors import violation


def _emit(ctx: Ctx, type_: str, clock: dict[str, Any], **data: Any) -> None:
    # A hidden clock's length and consequence are GM-only (spec 8): so is every event about it.
    ctx.emit(type_, StepDiceClockEvent(clock_id=clock["id"], **data), gm_only=not clock["visible_to_players"])


def _running(ctx: Ctx, clock_id: str) -> dict[str, Any]:
    clock = ctx.table["clocks"].get(clock_id)
    if clock is None:
        raise violation("unknown_clock", _("no clock {clock_id!r}", clock_id=clock_id), "clock_id")
    if clock["status"] != "running":
        raise violation(
            "clock_not_running",
            _("clock {clock_id} is {status}", clock_id=clock_id, status=clock["status"]),
            "clock_id",
        )
    return clock


def in_scope(ctx: Ctx) -> list[str]:
    """7-A46: every PC test failure in the clock's scene counts (the GM may exclude a test)."""
    if not ctx.options.use_time_pressure_clocks or ctx.table["scene"] is None:
        return []
    scene_id = ctx.table["scene"]["id"]
    return [c["id"] for c in ctx.table["clocks"].values() if c["status"] == "running" and c["scene_id"] == scene_id]


def hidden_ids(ctx: Ctx) -> set[str]:
    return {c["id"] for c in ctx.table["clocks"].values() if not c["visible_to_players"]}


def advance(ctx: Ctx, clock_ids: list[str], by: int, cause: dict[str, Any]) -> None:
    for cid in clock_ids:
        clock = ctx.table["clocks"][cid]
        clock["value"] = min(clock["length"], clock["value"] + by)
        _emit(ctx, "clock_advanced", clock, by=by, value=clock["value"], length=clock["length"], **cause)
        if clock["value"] >= clock["length"]:
            clock["status"] = "triggered"
            _emit(ctx, "clock_triggered", clock, label=clock["label"], consequence=clock["consequence"])


def create_clock(ctx: Ctx, a: StepDiceCreateClock) -> None:
    guards.option(ctx, "use_time_pressure_clocks")
    if ctx.table["scene"] is None:
        raise violation("no_scene", _("a clock belongs to a scene; start one first (spec 4.14)"))
    clock = {
        "id": ctx.secret_id("clock", "c"),
        "scene_id": ctx.table["scene"]["id"],
        "label": a.label,
        "length": a.length,
        "value": 0,
        "status": "running",
        "consequence": a.consequence,
        "visible_to_players": a.visible_to_players,
    }
    ctx.table["clocks"][clock["id"]] = clock
    _emit(ctx, "clock_created", clock, **{k: v for k, v in clock.items() if k != "id"})


def advance_clock(ctx: Ctx, a: StepDiceAdvanceClock) -> None:
    guards.option(ctx, "use_time_pressure_clocks")
    _running(ctx, a.clock_id)
    advance(ctx, [a.clock_id], a.by, {"reason": a.reason})


def cancel_clock(ctx: Ctx, a: StepDiceCancelClock) -> None:
    clock = _running(ctx, a.clock_id)
    clock["status"] = "cancelled"
    _emit(ctx, "clock_cancelled", clock)


def discard_scene_clocks(ctx: Ctx, scene_id: str) -> list[str]:
    """A clock lives in one scene: when the scene ends it can no longer move, so it leaves the table."""
    gone = [cid for cid, c in ctx.table["clocks"].items() if c["scene_id"] == scene_id]
    for cid in gone:
        del ctx.table["clocks"][cid]
    return gone
