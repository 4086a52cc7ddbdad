"""Checks shared by many moves. Each raises a RuleViolation naming the rule; none changes state."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation


def scene(ctx: Ctx) -> dict[str, Any]:
    sc = ctx.scene
    if sc is None:
        raise violation("no_scene", _("no scene is open"))
    return sc


def action_scene(ctx: Ctx, *phases: str) -> dict[str, Any]:
    sc = scene(ctx)
    if sc["kind"] != "action":
        raise violation("not_action_scene", _("this move belongs to an action scene; a planning scene is open"))
    if phases and sc["phase"] not in phases:
        if sc["phase"] in ("roll_open", "bail_out_roll") and sc["phase"] not in phases:
            raise violation(
                "roll_in_progress", _("finish the open roll {roll_id} first (§3.5)", roll_id=sc["roll"]["roll_id"])
            )
        raise violation(
            "wrong_phase",
            _("the scene is in {phase}; this move needs {phases}", phase=sc["phase"], phases=" or ".join(phases)),
        )
    return sc


def no_scene(ctx: Ctx) -> None:
    if ctx.scene is not None:
        raise violation("scene_in_progress", _("scene {id} is still open; end it first", id=ctx.scene["id"]))


def active(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    """Only active characters take part: betrayers are NPCs, the dead are gone (§3.3, §5.4)."""
    sheet = ctx.sheet(cid, field)
    if sheet["status"] != "active":
        raise violation(
            "character_not_active",
            _("{name} is {status} and cannot do this", name=sheet["name"], status=sheet["status"]),
            field,
        )
    return sheet


def in_scene(ctx: Ctx, sc: dict[str, Any], cid: str, field: str = "character_id") -> dict[str, Any]:
    sheet = active(ctx, cid, field)
    if cid not in sc["team"]:
        raise violation("not_in_scene", _("{name} is not a member of this scene's team", name=sheet["name"]), field)
    if sc["participation"][cid] == "taken_out":
        raise violation("taken_out", _("{name} is out of this scene (§4.12)", name=sheet["name"]), field)
    return sheet


def leader(sc: dict[str, Any], cid: str) -> None:
    if cid != sc["leader_id"]:
        raise violation(
            "not_leader",
            _("only the scene's leader {leader_id} may do this", leader_id=sc["leader_id"]),
            "character_id",
        )


def open_roll(ctx: Ctx) -> dict[str, Any]:
    sc = scene(ctx)
    if sc["kind"] != "action" or sc.get("roll") is None:
        raise violation("no_open_roll", _("no roll is open"))
    return sc["roll"]


def roll_actor(roll: dict[str, Any], cid: str) -> None:
    if roll["actor_id"] != cid:
        raise violation(
            "not_your_roll", _("the open roll belongs to {actor_id}", actor_id=roll["actor_id"]), "character_id"
        )


def option(ctx: Ctx, name: str, field: str | None = None) -> None:
    if not getattr(ctx.options, name):
        raise violation("option_disabled", _("this campaign plays without it ({name} is off)", name=name), field)


def team(ctx: Ctx, ids: list[str], leader_id: str, field: str = "team") -> None:
    if len(set(ids)) != len(ids):
        raise violation("duplicate_character", _("a character is listed twice"), field)
    for i, cid in enumerate(ids):
        active(ctx, cid, f"{field}[{i}]")
    if leader_id not in ids:
        raise violation(
            "leader_not_in_team", _("the leader {leader_id} must be on the team", leader_id=leader_id), "leader_id"
        )
