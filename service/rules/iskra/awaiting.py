"""Whose move it is: `table["awaiting"]` lists who must act for play to go on and what they may send."""

from __future__ import annotations

from typing import Any

from service.rules.awaiting import character, gm, merged
from service.rules.iskra import recovery, resolve, turns
from service.rules.iskra.context import Ctx

IDLE = [
    "open_test",
    "deal_damage",
    "start_combat",
    "advance_time",
    "start_session",
    "end_session",
    "award_adversity",
    "award_glory",
]


def _test(ctx: Ctx, t: dict[str, Any]) -> list[dict[str, Any]]:
    cid, st = t["character_id"], t["stage"]
    if st == "awaiting_gm_approval":
        return [gm("approve_focus", "reject_focus")]
    if st == "dodge_declaration":
        return [character(t["attack"]["target_id"], "dodge"), gm("adjust_test")]
    fp = ctx.characters[cid]["focus_points"]
    if st == "pre_roll":
        may = ["roll"] + (["focus_adjust"] if fp else [])
        if t["context"] in ("influence", "intimidate", "persuade") and ctx.options.glory_modifier_enabled:
            may.append("use_glory")
        if resolve.outcome(ctx, t) is not None:
            may.append("accept_test")  # S ≥ 9 or S < 0: the roll may be skipped (7-B49)
        return [character(cid, *may), gm("adjust_test")]
    may = []
    if not t["rerolled"] and fp >= ctx.options.reroll_cost_fp:
        may.append("reroll")
    if ctx.options.focus_adjust_after_roll and fp:
        may.append("focus_adjust")
    return [character(cid, *may, "accept_test")]


def _pending(ctx: Ctx, p: dict[str, Any]) -> list[dict[str, Any]]:
    if p["kind"] == "test":
        return _test(ctx, p)
    if p["kind"] == "ready":
        return [character(p["character_id"], "use_ready")]
    if p.get("dodge_test") is not None:
        return _test(ctx, p["dodge_test"])
    stage = p["stage"]
    if stage == "wounds_needed":
        return [gm("set_wounds")]
    if stage == "awaiting_gm_approval":
        return [gm("approve_focus", "reject_focus")]
    if stage == "dodge_window":
        return [character(p["target_id"], "dodge")]
    return [character(p["target_id"], "reduce_damage", "accept_damage")]


def compute(ctx: Ctx) -> list[dict[str, Any]]:
    return merged(_compute(ctx))


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"] = compute(ctx)


def _compute(ctx: Ctx) -> list[dict[str, Any]]:
    p = ctx.table["pending"]
    if p is not None:
        return _pending(ctx, p)
    due = recovery.due_ids(ctx)
    if due:
        return [character(cid, "recovery_test") for cid in due]
    return _between_tests(ctx.table)


def _between_tests(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Whose move it is with no test pending and no recovery test due: the combat's turn, or the GM's."""
    enc = table["encounter"]
    if enc is not None and enc["state"] == "active":
        pid = turns.current(enc)
        if pid is None:
            return [gm("end_combat")]
        may = ["attack", "help", "stand_up", "ready", "convert_major", "minor_action", "passing_action", "end_turn"]
        if enc["participants"][pid]["kind"] == "hazard":
            return [gm("deal_damage", "end_turn", "end_combat")]
        return [character(pid, *may), gm("open_test", "trigger_ready", "end_combat")]
    return [gm(*IDLE)]


# Moves the engine may accept outside what `awaiting` asks (the GM's management and narration, a player's moves
# out of turn), listed in `table.offers` (service.rules.awaiting.offers); each still passes the engine's checks.
OPEN_GM = (
    "end_session",
    "open_test",  # whether to test is the GM's call (L22), also while recovery is due or a hazard acts
    "award_glory",
    "award_adversity",
    "start_session",
    "advance_time",
    "add_item",
    "approve_character",
    "attack",
    "buy",
    "critical_note",
    "deal_damage",
    "define_location",
    "drop_item",
    "edit_character",
    "focus_adjust",
    "gm_note",
    "help",
    "join_combat",
    "remove_participant",
    "rest_interrupted",
    "rest_start",
    "restore_focus",
    "restore_health",
    "reveal_ether",
    "set_location",
    "use_resources",
)
OPEN_PLAYER = (
    "add_item",
    "attack",
    "buy",
    "drop_item",
    "help",
    "minor_action",
    "passing_action",
    "set_carried",
    "stand_up",
    "transfer_item",
    "use_resources",
)


def open_now(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Moves open in this table's state beyond `awaiting` and the always-open ones. While a recovery test is due the
    table waits for it, yet the engine still takes what it would wait for without one: the combat's turn moves
    and `end_combat`, or, outside a combat, the GM's idle moves (an ambush does not wait for the day's Strength
    test). With a test pending, nothing more."""
    return _between_tests(table) if table["pending"] is None else []
