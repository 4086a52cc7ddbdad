"""Rounds and turn order (spec §4.2), the round-end window and the alarm (§4.10, §4.13)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.danger_pool import guards
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.lifecycle import end_scene
from service.rules.danger_pool.events_model import (
    DangerPoolDangerAdded,
    DangerPoolRoundMark,
    DangerPoolRoundStarted,
    DangerPoolTurnPassed,
)


def in_scene_ids(sc: dict[str, Any]) -> list[str]:
    return [c for c in sc["team"] if sc["participation"][c] == "in_scene"]


def eligible(sc: dict[str, Any]) -> list[str]:
    """Who may act now (§4.2): the leader alone while the leader-first window is open (A46)."""
    if sc["phase"] != "round_open":
        return []
    if sc["leader_first_pending"]:
        return [sc["leader_id"]]
    return [c for c in in_scene_ids(sc) if c not in sc["acted_this_round"]]


def start_round(ctx: Ctx, sc: dict[str, Any]) -> None:
    sc["round"] += 1
    if sc["round"] > 1 and ctx.options.danger_per_new_round:  # A31: rounds 2, 3, … only
        sc["danger_pool_size"] += ctx.options.danger_per_new_round
        ctx.emit(
            "danger_added_new_round",
            DangerPoolDangerAdded(
                scene_id=sc["id"],
                round=sc["round"],
                added=ctx.options.danger_per_new_round,
                danger_pool_size=sc["danger_pool_size"],
            ),
        )
    sc["acted_this_round"], sc["passed_this_round"] = [], []
    sc["leader_first_pending"] = sc["participation"][sc["leader_id"]] == "in_scene"
    sc["leader_decision"] = None
    sc["phase"] = "round_open"
    ctx.emit(
        "round_started",
        DangerPoolRoundStarted(
            scene_id=sc["id"],
            round=sc["round"],
            danger_pool_size=sc["danger_pool_size"],
            leader_first_pending=sc["leader_first_pending"],
        ),
    )


def after_action(ctx: Ctx, sc: dict[str, Any], cid: str) -> None:
    """§4.2 after_each_action: completion is immediate, even mid-round (§4.14); A28 when nobody is left."""
    sc["acted_this_round"].append(cid)
    if cid == sc["leader_id"]:
        sc["leader_first_pending"] = False
    if sc["progress_marked"] >= sc["progress_track_length"]:
        end_scene(ctx, sc, "completed")
    elif not in_scene_ids(sc):
        end_scene(ctx, sc, "all_taken_out")
    elif all(c in sc["acted_this_round"] for c in in_scene_ids(sc)):
        sc["phase"], sc["leader_decision"] = "round_end_window", None
        ctx.emit("round_end_window", DangerPoolRoundMark(scene_id=sc["id"], round=sc["round"]))
    else:
        sc["phase"] = "round_open"


def member_may_act(ctx: Ctx, sc: dict[str, Any], cid: str) -> dict[str, Any]:
    sheet = guards.in_scene(ctx, sc, cid)
    if cid in sc["acted_this_round"]:
        raise violation(
            "already_acted_this_round",
            _("{name} already acted in round {round}", name=sheet["name"], round=sc["round"]),
        )
    if sc["leader_first_pending"] and cid != sc["leader_id"]:
        raise violation(
            "leader_acts_first",
            _(
                "the leader {name} may act first; they act or waive (the GM may waive for them)",
                name=ctx.name(sc["leader_id"]),
            ),
        )
    return sheet


def waive_first(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "round_open")
    guards.leader(sc, a.character_id)
    if not sc["leader_first_pending"]:
        raise violation("wrong_phase", _("the leader-first window is not open"))
    sc["leader_first_pending"] = False
    ctx.emit("leader_waived_first", DangerPoolRoundMark(scene_id=sc["id"], round=sc["round"]))


def pass_turn(ctx: Ctx, a: Any) -> None:
    guards.option(ctx, "allow_pass", "type")
    sc = guards.action_scene(ctx, "round_open")
    member_may_act(ctx, sc, a.character_id)
    sc["passed_this_round"].append(a.character_id)
    ctx.emit("turn_passed", DangerPoolTurnPassed(scene_id=sc["id"], round=sc["round"], character_id=a.character_id))
    after_action(ctx, sc, a.character_id)


def _decision_open(ctx: Ctx) -> dict[str, Any]:
    sc = guards.action_scene(ctx, "round_end_window")
    if sc["leader_decision"] is not None:
        raise violation(
            "wrong_phase", _("the leader already chose to {leader_decision}", leader_decision=sc["leader_decision"])
        )
    return sc


def continue_scene(ctx: Ctx, a: Any) -> None:
    """The leader does not bail out. The GM may then raise the alarm before the round's +2 (§4.13); a
    taken-out leader can only continue (A25)."""
    sc = _decision_open(ctx)
    guards.leader(sc, a.character_id)
    sc["leader_decision"] = "continue"
    ctx.emit("leader_continued", DangerPoolRoundMark(scene_id=sc["id"], round=sc["round"]))
    if ctx.options.alarm_timing == "round_boundary" and not sc["alarm_used"]:
        return  # the GM's alarm window: raise_alarm or next_round
    start_round(ctx, sc)


def next_round(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "round_end_window")
    if sc["leader_decision"] != "continue":
        raise violation("wrong_phase", _("the leader has not chosen to continue yet (§4.13)"))
    start_round(ctx, sc)


def raise_alarm(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "round_open", "roll_open", "round_end_window", "bail_out_roll")
    if sc["alarm_used"]:
        raise violation("alarm_already_used", _("the alarm may be raised once per scene (§4.10)"))
    boundary = ctx.options.alarm_timing == "round_boundary"
    if boundary and not (sc["phase"] == "round_end_window" and sc["leader_decision"] == "continue"):
        raise violation(
            "alarm_not_now",
            _(
                "the alarm comes at a round's end, after the leader chose to "
                "continue (A12, alarm_timing = round_boundary)"
            ),
        )
    if sc["phase"] == "bail_out_roll" or sc["leader_decision"] == "bail_out":
        raise violation("alarm_not_now", _("the team is bailing out before any alarm (§4.13)"))
    sc["alarm_used"], sc["alarm_amount"] = True, a.amount
    sc["danger_pool_size"] += a.amount
    ctx.emit(
        "danger_added_alarm",
        DangerPoolDangerAdded(scene_id=sc["id"], added=a.amount, danger_pool_size=sc["danger_pool_size"]),
    )
    if boundary:
        start_round(ctx, sc)
