"""Creating and ending scenes, taking characters out, binding Hide the Pain (spec §3.5, §4.12, §4.14)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.events_model import (
    DangerPoolCharacterLeft,
    DangerPoolCharacterTakenOut,
    DangerPoolDangerInitialized,
    DangerPoolDoomBound,
    DangerPoolRollRef,
    DangerPoolSceneCreated,
    DangerPoolSceneEnded,
    DangerPoolTrackExtendedByBetrayal,
)


def element(ctx: Ctx, text: str, source: str | None) -> dict[str, Any]:
    return {
        "element_id": ctx.secret_id("element", "element-"),
        "text": text,
        "source_character_id": source,
        "rerolls_used": 0,
        "revealed": False,
    }


def public_scene(sc: dict[str, Any]) -> dict[str, Any]:
    """A scene as players may see it: elements stay GM-only until used (A43)."""
    out = dict(sc)
    if "elements" in out:
        out["elements"] = [e for e in out["elements"] if e["revealed"]]
    return out


def make_action_scene(
    ctx: Ctx,
    *,
    goal: str,
    leader_id: str,
    team: list[str],
    base_length: int | None,
    danger_start: int,
    predecessor: str | None = None,
    danger: str | None = None,
    elements: Sequence[tuple[str, str | None]] = (),
) -> dict[str, Any]:
    boxes = ctx.table["pending_track_boxes"]  # A36: Betray the Team lengthens the next action scene
    ctx.table["pending_track_boxes"] = 0
    base = base_length or ctx.options.progress_track_length_default
    # Betrayers join the GM's element list of every later action scene (§4.15.3).
    els = [element(ctx, f"{ctx.name(c)} (betrayer)", c) for c in ctx.table["traitor_elements"]]
    els += [element(ctx, text, src) for text, src in elements]
    sc = {
        "id": ctx.next_id("scene", "scene-"),
        "kind": "action",
        "goal": goal,
        "danger": danger,
        "leader_id": leader_id,
        "team": list(team),
        "participation": {c: "in_scene" for c in team},
        "predecessor_scene_id": predecessor,
        "progress_track_base": base,
        "betrayal_boxes": boxes,
        "progress_track_length": base + boxes,
        "progress_marked": 0,
        "danger_pool_size": danger_start,
        "round": 0,
        "acted_this_round": [],
        "passed_this_round": [],
        "leader_first_pending": False,
        "leader_decision": None,
        "alarm_used": False,
        "alarm_amount": None,
        "phase": "setup",
        "roll": None,
        "last_roll": None,
        "elements": els,
        "outcome": None,
        "notes": [],
    }
    ctx.table["scene"] = sc
    ctx.emit("scene_created", DangerPoolSceneCreated(sc), redacted=DangerPoolSceneCreated(public_scene(sc)))
    ctx.emit("danger_initialized", DangerPoolDangerInitialized(scene_id=sc["id"], danger_pool_size=danger_start))
    if boxes:
        ctx.emit(
            "track_extended_by_betrayal",
            DangerPoolTrackExtendedByBetrayal(
                scene_id=sc["id"], boxes=boxes, progress_track_length=sc["progress_track_length"]
            ),
        )
    return sc


def bind_doom(ctx: Ctx, sc: dict[str, Any]) -> None:
    """Hide the Pain: the flag binds to the next scene the character takes part in (§4.15.4)."""
    for cid in sc["team"]:
        sheet = ctx.characters[cid]
        if sheet["doomed_next_scene"] and sheet["doomed_in_scene_id"] is None:
            sheet["doomed_in_scene_id"] = sc["id"]
            ctx.emit("doom_bound", DangerPoolDoomBound(character_id=cid, scene_id=sc["id"]))


def take_out(ctx: Ctx, sc: dict[str, Any], cid: str) -> None:
    """§4.12: out for the rest of this scene; an after-effect is owed, unless the character is doomed to
    die at the end of this very scene (A37: death supersedes)."""
    sheet = ctx.characters[cid]
    sc["participation"][cid] = "taken_out"
    owed = sheet["doomed_in_scene_id"] != sc["id"]
    sheet["pending_aftermath"] = sheet["pending_aftermath"] or owed
    ctx.emit(
        "character_taken_out", DangerPoolCharacterTakenOut(character_id=cid, scene_id=sc["id"], pending_aftermath=owed)
    )


def end_scene(ctx: Ctx, sc: dict[str, Any], outcome: str) -> None:
    if sc.get("roll") is not None:
        ctx.emit("roll_discarded", DangerPoolRollRef(scene_id=sc["id"], roll_id=sc["roll"]["roll_id"]))
        sc["roll"] = None
    sc["outcome"], sc["phase"] = outcome, "ended"
    restored = {}
    for cid in sc["team"]:  # §4.14: stamina returns "at the end of every scene"
        sheet = ctx.characters[cid]
        if sheet["stamina"] != sheet["stamina_max"]:
            sheet["stamina"] = sheet["stamina_max"]
            restored[cid] = sheet["stamina"]
    ctx.emit(
        "scene_ended",
        DangerPoolSceneEnded(scene_id=sc["id"], kind=sc["kind"], outcome=outcome, stamina_restored=restored),
    )
    for cid in sc["team"]:
        sheet = ctx.characters[cid]
        if sheet["doomed_in_scene_id"] == sc["id"]:
            sheet["status"] = sheet["doomed_exit"] or "dead"
            sheet["pending_aftermath"] = False  # A37: no further after-effect is owed
            sheet["doomed_next_scene"], sheet["doomed_in_scene_id"] = False, None
            ctx.emit(f"character_{sheet['status']}", DangerPoolCharacterLeft(character_id=cid, scene_id=sc["id"]))
    ctx.table["last_scene"] = sc
    ctx.table["scene"] = None
