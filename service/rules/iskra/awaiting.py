"""Whose move it is: `table["awaiting"]` lists who must act for play to go on and what they may send."""
from __future__ import annotations

from typing import Any

from service.rules.iskra import recovery, resolve, turns
from service.rules.iskra.context import Ctx

IDLE = ["open_test", "deal_damage", "start_combat", "advance_time", "start_session", "end_session",
        "award_adversity", "award_glory"]


def _who(ctx: Ctx, cid: str, *may: str) -> dict[str, Any]:
    return {"who": "character", "character_id": cid, "may": list(may)}


def _gm(*may: str) -> dict[str, Any]:
    return {"who": "gm", "character_id": None, "may": list(may)}


def _test(ctx: Ctx, t: dict[str, Any]) -> list[dict[str, Any]]:
    cid, st = t["character_id"], t["stage"]
    if st == "awaiting_gm_approval":
        return [_gm("approve_focus", "reject_focus")]
    if st == "dodge_declaration":
        return [_who(ctx, t["attack"]["target_id"], "dodge"), _gm("adjust_test")]
    fp = ctx.characters[cid]["focus_points"]
    if st == "pre_roll":
        may = ["roll"] + (["focus_adjust"] if fp else [])
        if t["context"] in ("influence", "intimidate", "persuade") and ctx.options.glory_modifier_enabled:
            may.append("use_glory")
        if resolve.outcome(ctx, t) is not None:
            may.append("accept_test")  # S ≥ 9 or S < 0: the roll may be skipped (7-B49)
        return [_who(ctx, cid, *may), _gm("adjust_test")]
    may = []
    if not t["rerolled"] and fp >= ctx.options.reroll_cost_fp:
        may.append("reroll")
    if ctx.options.focus_adjust_after_roll and fp:
        may.append("focus_adjust")
    return [_who(ctx, cid, *may, "accept_test")]


def _pending(ctx: Ctx, p: dict[str, Any]) -> list[dict[str, Any]]:
    if p["kind"] == "test":
        return _test(ctx, p)
    if p["kind"] == "ready":
        return [_who(ctx, p["character_id"], "use_ready")]
    if p.get("dodge_test") is not None:
        return _test(ctx, p["dodge_test"])
    stage = p["stage"]
    if stage == "wounds_needed":
        return [_gm("set_wounds")]
    if stage == "awaiting_gm_approval":
        return [_gm("approve_focus", "reject_focus")]
    if stage == "dodge_window":
        return [_who(ctx, p["target_id"], "dodge")]
    return [_who(ctx, p["target_id"], "reduce_damage", "accept_damage")]


def compute(ctx: Ctx) -> list[dict[str, Any]]:
    p = ctx.table["pending"]
    if p is not None:
        return _pending(ctx, p)
    due = recovery.due_ids(ctx)
    if due:
        return [_who(ctx, cid, "recovery_test") for cid in due]
    enc = ctx.encounter
    if enc is not None:
        pid = turns.current(enc)
        if pid is None:
            return [_gm("end_combat")]
        may = ["attack", "help", "stand_up", "ready", "convert_major", "minor_action", "passing_action", "end_turn"]
        if enc["participants"][pid]["kind"] == "hazard":
            return [_gm("deal_damage", "end_turn", "end_combat")]
        return [_who(ctx, pid, *may), _gm("open_test", "trigger_ready", "end_combat")]
    return [_gm(*IDLE)]
