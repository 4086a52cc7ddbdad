"""Concrete moves that are legal right now, derived from `awaiting` (for clients, bots and property tests).

Each entry is {"who": "gm" | character_id, "action": {...}}. Free-text fields get placeholder text;
counts are enumerated as 0/1 so the list stays small.
"""

from __future__ import annotations

from typing import Any

from service.rules.base import Actor
from service.rules.trikus import awaiting, boom, combat, combat_round, contest, opposed
from service.rules.trikus.context import Ctx
from service.rules.trikus.sheet import free_lines


def _items(ctx: Ctx, sheet: dict[str, Any]) -> list[list[str]]:
    """No item, or the first available one (adv_equipment)."""
    ready = [it["id"] for it in sheet.get("equipment", []) if it["state"] == "available"]
    return [[]] + ([ready[:1]] if ctx.options.adv_equipment and ready else [])


def _join(ctx: Ctx, act: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    sheet = ctx.characters[cid]
    lines = [ln["index"] for ln in free_lines(sheet)] or [None]
    if act["kind"] == "combat":
        return [{"line_index": ln, "allies": n} for ln in lines for n in (0, 1)]
    out = []
    morale = {0, min(1, sheet["morale_dice"])}
    light = {0, min(1, sheet["light_tokens"]["active"])}
    for ln in lines:
        base = sheet["lines"][ln]["dice"] if ln is not None else 0
        for m in morale:
            for li in light:
                for b in (False, True):
                    if base + m + li + 2 * b >= 1 and not (
                        ln is None
                        and ctx.options.catastrophe_master_strict
                        and sheet["tier"] == "master"
                        and sheet["lines"][0]["state"] == "lost"
                    ):
                        out += [
                            {"line_index": ln, "morale": m, "light": li, "boost": b, "item_ids": items}
                            for items in _items(ctx, sheet)
                        ]
    return out


def _declare(ctx: Ctx, act: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    sheet, part = ctx.characters[cid], act["participants"][cid]
    boosts = (False,) if part["boost_used"] else (False, True)
    return [
        {"morale": m, "light": li, "boost": b, "item_ids": items}
        for m in {0, min(1, sheet["morale_dice"])}
        for li in {0, min(1, sheet["light_tokens"]["active"])}
        for b in boosts
        for items in _items(ctx, sheet)
    ]


def _options(ctx: Ctx, act: dict[str, Any], who: str, kind: str) -> list[dict[str, Any]]:
    own = {} if who == "gm" else {"character_id": who}
    if kind == "join":
        return [{**own, **j} for j in _join(ctx, act, who)]
    if kind == "bad_feeling":
        return [{**own, "description": "stays back", "intent": "let the GM decide"}]
    if kind == "declare_round":
        return [{**own, **d} for d in _declare(ctx, act, who)]
    if kind == "escape" and act["phase"] == "round_pool":
        return [own] if combat.persistent(act["participants"][who]) >= 1 else []
    if kind == "answer_negotiation":
        return [{**own, "accept": x} for x in (True, False)]
    if kind == "boom_review":
        flips = {"success": "failure", "failure": "success", "draw": "success"}
        res = {c: flips[r] for c, r in act["results"].items() if r in flips}
        return [{}] + ([{"overrides": dict(list(res.items())[:1])}] if res and boom.unclaimed(act) else [])
    if kind == "give_up_success":
        return [{**own, "target_character_id": t} for t in opposed.cancellable(act)]
    if kind == "defend":
        return [{**own, "target_character_id": t} for t in combat_round.failing(act)]
    if kind == "waive_roll":
        return [{"target_character_id": act["queue"][0]["target"]}]
    if kind == "choose_lost_line":
        entry = next(e for e in act["line_choices"] if e["character_id"] == who)
        return [{**own, "line_index": i} for i in entry["candidates"]]
    return [own]


def _interrupts(ctx: Ctx, act: dict[str, Any]) -> list[dict[str, Any]]:
    c = act.get("contest")
    out: list[dict[str, Any]] = []
    if c is None or act["phase"] not in ("contest", "boom_review"):
        return out
    if ctx.options.adv_boom:
        for value in boom.unclaimed(act):
            for cid in ctx.active_ids():
                out.append(
                    {
                        "who": cid,
                        "action": {
                            "type": "claim_boom",
                            "character_id": cid,
                            "value": value,
                            "text": "something unexpected happens",
                        },
                    }
                )
    if act["phase"] == "contest" and c["stage"] == "wave":
        for p in contest.open_pairs(c):
            for cid in (p["a"], p["b"]):
                if cid != "gm" and ctx.characters[cid]["light_tokens"]["active"] > 0:
                    out.append({"who": cid, "action": {"type": "spend_light_die", "character_id": cid}})
    return out


def legal_moves(state: dict[str, Any], actor: Actor | None = None) -> list[dict[str, Any]]:
    ctx = Ctx(state, Actor(role="gm"), None)  # nothing is rolled here
    act = ctx.activity
    moves: list[dict[str, Any]] = []
    if act is not None:
        for entry in awaiting.activity_awaiting(ctx, act):
            for kind in entry["may"]:
                who = awaiting.party(entry)
                for params in _options(ctx, act, who, kind):
                    moves.append({"who": who, "action": {"type": kind, **params}})
        moves += _interrupts(ctx, act)
    for p in ctx.table["dark_side_prompts"]:
        if ctx.characters[p["character_id"]]["dark_sides"]:
            moves.append(
                {
                    "who": p["character_id"],
                    "action": {"type": "acknowledge_dark_side", "character_id": p["character_id"], "side_index": 0},
                }
            )
    unique = []
    for m in moves:
        if m not in unique:
            unique.append(m)
    if actor is None or actor.is_gm:
        return unique
    return [m for m in unique if m["who"] != "gm" and actor.controls(m["who"])]
