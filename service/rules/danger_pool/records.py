"""What the GM records and the server rewards (spec §3.2, §4.16, §4.17) and narration (DP-E4)."""

from __future__ import annotations

from typing import Any

from service.rules.danger_pool import guards
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.sheet import add_scar, counted_scars
from service.rules.danger_pool.events_model import (
    DangerPoolGmNoteWritten,
    DangerPoolMaxScarsReached,
    DangerPoolNarration,
    DangerPoolPlayerAssigned,
    DangerPoolScarGained,
    DangerPoolTaleTold,
)


def assign_player(ctx: Ctx, a: Any) -> None:
    """A player controls one current character (§3.2); the roster makes 'per player' rules work."""
    players = ctx.table["players"]
    entry = players.setdefault(a.player_id, {"character_id": None, "aftermath_used": []})
    if a.character_id is not None:
        sheet = guards.active(ctx, a.character_id)
        for pid, other in players.items():
            if pid != a.player_id and other["character_id"] == a.character_id:
                other["character_id"] = None
        sheet["player_id"] = a.player_id
    entry["character_id"] = a.character_id
    ctx.emit("player_assigned", DangerPoolPlayerAssigned(player_id=a.player_id, character_id=a.character_id))


def record_tale(ctx: Ctx, a: Any) -> None:
    sheet = guards.active(ctx, a.character_id)
    sheet["character_points"] += ctx.options.cp_per_tale  # A10
    ctx.emit(
        "tale_told",
        DangerPoolTaleTold(
            character_id=a.character_id,
            text=a.text,
            character_points_gained=ctx.options.cp_per_tale,
            character_points=sheet["character_points"],
        ),
    )


def record_scar(ctx: Ctx, a: Any) -> None:
    """A7: a normal scar counts toward the maximum and gives points; the maximum is only reported (A6)."""
    sheet = guards.active(ctx, a.character_id)
    scene = ctx.scene["id"] if ctx.scene else None
    scar = add_scar(sheet, a.text, "other", scene)
    sheet["character_points"] += ctx.options.cp_per_accepted_scar
    ctx.emit(
        "scar_gained",
        DangerPoolScarGained(
            character_id=a.character_id, scar=scar, character_points_gained=ctx.options.cp_per_accepted_scar
        ),
    )
    cap = ctx.options.max_scars
    if cap is not None and counted_scars(sheet) >= cap:
        ctx.emit(
            "max_scars_reached",
            DangerPoolMaxScarsReached(character_id=a.character_id, counted_scars=counted_scars(sheet), max_scars=cap),
        )


def gm_note(ctx: Ctx, a: Any) -> None:
    ctx.table["gm_notes"].append(a.text)
    ctx.emit("gm_note", DangerPoolGmNoteWritten(text=a.text), gm_only=True)


def describe(ctx: Ctx, a: Any) -> None:
    """Stored, never computed (DP-E4)."""
    sc = guards.scene(ctx)
    ctx.sheet(a.character_id)
    note = {"character_id": a.character_id, "topic": a.topic, "text": a.text, "round": sc.get("round")}
    sc["notes"].append(note)
    ctx.emit("narration", DangerPoolNarration(scene_id=sc["id"], **note))
