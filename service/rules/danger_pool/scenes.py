"""The GM's scene moves (spec §5.1): create, configure, elements, start, planning scenes, close."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.danger_pool import guards, rounds
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.lifecycle import bind_doom, element, end_scene, make_action_scene
from service.rules.danger_pool.events_model import (
    DangerPoolElementAdded,
    DangerPoolSceneConfigured,
    DangerPoolSceneCreated,
    DangerPoolSceneStarted,
)


def create_action_scene(ctx: Ctx, a: Any) -> None:
    guards.no_scene(ctx)
    guards.team(ctx, a.team, a.leader_id)
    make_action_scene(
        ctx,
        goal=a.goal,
        leader_id=a.leader_id,
        team=a.team,
        base_length=a.progress_track_length,
        danger_start=ctx.options.danger_pool_start,
        danger=a.danger,
        elements=[(e.text, e.source_character_id) for e in a.elements],
    )


def configure_scene(ctx: Ctx, a: Any) -> None:
    """Setup only. A bail-out successor keeps its leader (source, §4.13) unless that character died or
    betrayed the team at the end of the last scene; any other scene's leader is the table's choice (A26)."""
    sc = guards.action_scene(ctx, "setup")
    changed: dict[str, Any] = {}
    leader = sc["leader_id"] if a.leader_id is None else a.leader_id
    if (
        leader != sc["leader_id"]
        and sc["predecessor_scene_id"] is not None
        and ctx.characters.get(sc["leader_id"], {}).get("status") == "active"
    ):
        raise violation(
            "leader_fixed_after_bail_out",
            _("play continues with the same leader after a bail-out (§4.13)"),
            "leader_id",
        )
    if a.team is not None or leader != sc["leader_id"]:
        team = list(a.team) if a.team is not None else sc["team"]
        guards.team(ctx, team, leader)
        sc["team"], sc["participation"], sc["leader_id"] = team, {c: "in_scene" for c in team}, leader
        changed.update(team=team, leader_id=leader)
    if a.goal is not None:
        sc["goal"] = changed["goal"] = a.goal
    if a.progress_track_length is not None:
        sc["progress_track_base"] = a.progress_track_length
        sc["progress_track_length"] = a.progress_track_length + sc["betrayal_boxes"]  # A36: base, then +4
        changed["progress_track_length"] = sc["progress_track_length"]
    ctx.emit("scene_configured", DangerPoolSceneConfigured(scene_id=sc["id"], **changed))


def add_element(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "setup", "round_open", "round_end_window")
    if a.source_character_id is not None:
        ctx.sheet(a.source_character_id, "source_character_id")
    el = element(ctx, a.text, a.source_character_id)
    sc["elements"].append(el)
    ctx.emit("element_added", DangerPoolElementAdded(scene_id=sc["id"], element=el), gm_only=True)


def start_scene(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "setup")
    guards.team(ctx, sc["team"], sc["leader_id"])  # someone may have died since the scene was made
    ctx.emit(
        "scene_started",
        DangerPoolSceneStarted(
            scene_id=sc["id"],
            danger_pool_size=sc["danger_pool_size"],
            progress_track_length=sc["progress_track_length"],
        ),
    )
    bind_doom(ctx, sc)
    rounds.start_round(ctx, sc)  # round 1: no +2 (A31)


def create_planning_scene(ctx: Ctx, a: Any) -> None:
    guards.no_scene(ctx)
    team = a.team if a.team is not None else sorted(c for c, s in ctx.characters.items() if s.get("status") == "active")
    if len(set(team)) != len(team):
        raise violation("duplicate_character", _("a character is listed twice"), "team")
    for i, cid in enumerate(team):
        guards.active(ctx, cid, f"team[{i}]")
    sc = {
        "id": ctx.next_id("scene", "scene-"),
        "kind": "planning",
        "team": list(team),
        "phase": "open",
        "outcome": None,
        "notes": [],
    }
    ctx.table["scene"] = sc
    ctx.emit("scene_created", DangerPoolSceneCreated(sc))
    bind_doom(ctx, sc)


def end_scene_move(ctx: Ctx, a: Any) -> None:
    sc = guards.scene(ctx)
    if sc["kind"] == "planning":
        owed = sorted(c for c, s in ctx.characters.items() if s.get("pending_aftermath"))
        if owed:  # A33: chosen before the planning scene closes
            raise violation(
                "aftermath_pending",
                _(
                    "{items} must choose an after-effect before this planning scene ends (§4.15)",
                    items=", ".join(ctx.name(c) for c in owed),
                ),
            )
        end_scene(ctx, sc, "ended")
        return
    end_scene(ctx, sc, "closed_by_gm")
