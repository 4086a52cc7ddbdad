"""Whose move it is (spec §5.1–§5.2): `awaiting` lists who must act for the scene to go on and what they
may send, as shared AwaitingEntry dicts (service.rules.awaiting); `requests` lists after-effects owed for the
next planning scene, in the same shape plus `when`."""

from __future__ import annotations

from typing import Any

from service.rules.awaiting import character, gm, merged
from service.rules.danger_pool import rounds
from service.rules.danger_pool.context import Ctx

IDLE = ["create_action_scene", "create_planning_scene"]


def _roll(ctx: Ctx, sc: dict[str, Any]) -> list[dict[str, Any]]:
    roll = sc["roll"]
    if roll["state"] == "extraction_pending":
        return [character(sc["leader_id"], "extract")]
    out = []
    if roll["state"] == "rolled":
        out.append(gm("confirm_roll", "element_reroll"))
    if roll["tie"]:
        out.append(character(roll["actor_id"], "choose_tie"))
    return out


def _action(ctx: Ctx, sc: dict[str, Any]) -> list[dict[str, Any]]:
    phase = sc["phase"]
    if phase == "setup":
        ready = sc["leader_id"] in sc["team"] and all(
            ctx.characters.get(c, {}).get("status") == "active" for c in sc["team"]
        )
        start = ("start_scene",) if ready else ()  # e.g. the successor of a dead leader
        return [gm(*start, "configure_scene", "add_element", "end_scene")]
    if phase == "round_open":
        extra = ("pass_turn",) if ctx.options.allow_pass else ()
        if sc["leader_first_pending"]:
            return [character(sc["leader_id"], "declare_action", "waive_first", *extra)]
        return [character(c, "declare_action", *extra) for c in rounds.eligible(sc)]
    if phase in ("roll_open", "bail_out_roll"):
        return _roll(ctx, sc)
    if phase == "round_end_window":
        if sc["leader_decision"] == "continue":
            return [gm("raise_alarm", "next_round")]
        may = ["continue_scene"]
        if sc["participation"][sc["leader_id"]] == "in_scene":
            may.append("bail_out")
        return [character(sc["leader_id"], *may)]
    return []


def _planning(ctx: Ctx) -> list[dict[str, Any]]:
    out, reviews = [], False
    for cid, sheet in sorted(ctx.characters.items()):
        if not sheet.get("pending_aftermath"):
            continue
        prop = sheet.get("aftermath_proposal")
        if prop and prop["state"] == "proposed":
            reviews = True  # one GM entry however many proposals wait: an entry is a party, not a task
        else:
            out.append(character(cid, "choose_aftermath"))
    if reviews:
        out.insert(0, gm("review_aftermath"))
    return out or [gm("end_scene")]


def compute(ctx: Ctx) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    sc = ctx.scene
    if sc is None:
        awaiting = [gm(*IDLE)]
    elif sc["kind"] == "planning":
        awaiting = _planning(ctx)
    else:
        awaiting = _action(ctx, sc)
    awaiting = merged(awaiting)
    requests = []
    if sc is None or sc["kind"] != "planning":
        requests = [
            {**character(cid, "choose_aftermath"), "when": "next_planning_scene"}
            for cid, s in sorted(ctx.characters.items())
            if s.get("pending_aftermath")
        ]
    return awaiting, requests


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"], ctx.table["requests"] = compute(ctx)


# Moves the engine may accept outside what `awaiting` asks (the GM's management and narration, a player's moves
# out of turn), listed in `table.offers` (service.rules.awaiting.offers); each still passes the engine's checks.
OPEN_GM = (
    "add_element",
    "assign_player",
    "describe",
    "end_scene",
    "gm_note",
    "raise_alarm",
    "record_scar",
    "record_tale",
    "settle_aftermath",
)
OPEN_PLAYER = ("describe",)
