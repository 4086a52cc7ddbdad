"""Focus Points (spec 4.4, L73–L80): reroll, ±1 per PS, −1 Wound per PS; each use described and, by
default, approved by the GM, who may reject it and let the player propose another (L78–L80)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.iskra import checks, damage, guards, resolve
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import IskraFocusDecision, IskraFocusSpent


def _afford(ctx: Ctx, cid: str, cost: int, field: str) -> dict[str, Any]:
    sheet = ctx.characters[cid]
    if sheet["focus_points"] < cost:
        raise violation(
            "not_enough_focus",
            _("{cid} has {focus_points} PS; this needs {cost}", cid=cid, focus_points=sheet["focus_points"], cost=cost),
            field,
        )
    return sheet


def _request(ctx: Ctx, item: dict[str, Any], cid: str, use: str, amount: int, description: str) -> None:
    if ctx.options.focus_requires_gm_approval and not ctx.actor.is_gm:
        item["focus_request"] = {"use": use, "amount": amount, "description": description, "character_id": cid}
        item["prev_stage"], item["stage"] = item["stage"], "awaiting_gm_approval"
        ctx.emit("focus_requested", IskraFocusDecision(id=item["id"], **item["focus_request"]))
        return
    _perform(ctx, item, cid, use, amount, description)


def _perform(ctx: Ctx, item: dict[str, Any], cid: str, use: str, amount: int, description: str) -> None:
    if use == "reduce_damage":
        damage.reduce_now(ctx, item, amount, description)
        return
    sheet = ctx.characters[cid]
    cost = ctx.options.reroll_cost_fp if use == "reroll" else abs(amount)
    sheet["focus_points"] -= cost
    item["focus_spent"] += cost
    ctx.emit_sheet(
        "focus_spent",
        cid,
        IskraFocusSpent(
            character_id=cid,
            use=use,
            amount=amount if use == "adjust" else cost,
            description=description,
            test_id=item["id"],
            focus_points=sheet["focus_points"],
        ),
        ("focus_points",),
    )
    if use == "reroll":
        item["rerolled"] = True  # L74: once per test; the second result binds
        resolve.throw(ctx, item, "test_rerolled")
        resolve.after_roll(ctx, item)
        return
    item["adj"] += amount
    item["s"] = item["s0"] + item["adj"]
    if item["stage"] == "post_roll" and not resolve.post_roll_open(ctx, item):
        resolve.finalize(ctx, item)


def reroll(ctx: Ctx, a: Any) -> None:
    t = checks.active(ctx, a.test_id)
    guards.owner(ctx, t["character_id"])
    checks.stage(t, "post_roll")
    if t["rerolled"]:
        raise violation(
            "already_rerolled", _("a test may be rerolled only once; the second result binds (L74)"), "test_id"
        )
    _afford(ctx, t["character_id"], ctx.options.reroll_cost_fp, "test_id")
    _request(ctx, t, t["character_id"], "reroll", ctx.options.reroll_cost_fp, a.description)


def focus_adjust(ctx: Ctx, a: Any) -> None:
    t = checks.active(ctx, a.test_id)
    guards.owner(ctx, t["character_id"])
    checks.stage(t, "pre_roll", "post_roll")
    if t["stage"] == "post_roll" and not ctx.options.focus_adjust_after_roll:
        raise violation(
            "adjust_after_roll_disabled", _("this campaign spends PS ±1 only before the roll (7-B4)"), "amount"
        )
    _afford(ctx, t["character_id"], abs(a.amount), "amount")
    _request(ctx, t, t["character_id"], "adjust", a.amount, a.description)


def reduce_damage(ctx: Ctx, a: Any) -> None:
    dmg = damage.pending_damage(ctx, a.damage_id, "focus_window")
    guards.owner(ctx, dmg["target_id"])
    if a.amount > dmg["wounds"]:
        raise violation(
            "reduce_exceeds_wounds",
            _n(
                "only {wounds} Wound is incoming (L76)",
                "only {wounds} Wounds are incoming (L76)",
                dmg["wounds"],
                wounds=dmg["wounds"],
            ),
            "amount",
        )
    _afford(ctx, dmg["target_id"], a.amount, "amount")
    _request(ctx, dmg, dmg["target_id"], "reduce_damage", a.amount, a.description)


def _awaiting(ctx: Ctx) -> dict[str, Any]:
    p = ctx.table["pending"]
    for item in (p, (p or {}).get("dodge_test")):
        if item is not None and item["stage"] == "awaiting_gm_approval":
            return item
    raise violation("no_focus_request", _("no PS spend is waiting for the GM"), "type")


def approve_focus(ctx: Ctx, a: Any) -> None:
    item = _awaiting(ctx)
    req = item["focus_request"]
    item["stage"], item["focus_request"], item["prev_stage"] = item["prev_stage"], None, None
    ctx.emit("focus_approved", IskraFocusDecision(id=item["id"], **req))
    _perform(ctx, item, req["character_id"], req["use"], req["amount"], req["description"])


def reject_focus(ctx: Ctx, a: Any) -> None:
    """L80: the GM may refuse a description but should let the player propose something else."""
    item = _awaiting(ctx)
    req = item["focus_request"]
    item["stage"], item["focus_request"], item["prev_stage"] = item["prev_stage"], None, None
    ctx.emit("focus_rejected", IskraFocusDecision(id=item["id"], **req, reason=a.reason))
