"""Tests, team tests and PvP tests (spec 4.4, 4.5, 4.6, 4.23; state machines 5.2, 5.3)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import activity, consequences, contest, equipment, lines
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import (
    TrikusCharacterInActivity,
    TrikusJoined,
    TrikusPools,
    TrikusSuccessGivenUp,
    TrikusTestResolved,
)


def open_test(ctx: Ctx, a: Any) -> None:
    activity.open_activity(ctx, "test", a.character_ids, a, gm_pool=a.gm_pool)


def open_pvp(ctx: Ctx, a: Any) -> None:
    if a.challenger_id == a.opponent_id:
        raise violation("same_character", _("a PvP test needs two different characters"), "opponent_id")
    activity.open_activity(ctx, "pvp_test", [a.challenger_id, a.opponent_id], a)


def join(ctx: Ctx, act: dict[str, Any], a: Any) -> None:
    sheet = activity.invited(ctx, act, a.character_id)
    if a.allies:
        raise violation("field_not_applicable", _("ally dice exist only in combat (A24)"), "allies")
    total = activity.pool_size(ctx, sheet, a.line_index, a)
    act["answers"][a.character_id] = {
        "kind": "join",
        "line_index": a.line_index,
        "morale": a.morale,
        "light": a.light,
        "boost": a.boost,
        "item_ids": list(a.item_ids),
        "dice": total,
    }
    ctx.emit(
        "joined",
        TrikusJoined(
            activity_id=act["id"],
            character_id=a.character_id,
            line_index=a.line_index,
            morale=a.morale,
            light=a.light,
            boost=a.boost,
            item_ids=list(a.item_ids),
            pool=total,
        ),
    )


def start(ctx: Ctx, act: dict[str, Any]) -> None:
    """Entry effects, atomically (spec 4.2): cross lines, spend extras, item effects; then wave 1."""
    ids = activity.joined(act)
    for cid in ids:
        ans = act["answers"][cid]
        if ans["line_index"] is not None:
            lines.cross(ctx, cid, ans["line_index"])
        activity.consume(ctx, act, cid, ans["morale"], ans["light"], ans["boost"])
        act["participants"][cid] = {
            "line_index": ans["line_index"],
            "boost": ans["boost"],
            "item_ids": ans["item_ids"],
            "negotiated": False,
            "status": "in",
        }
    equipment.on_start(ctx, {cid: act["answers"][cid]["item_ids"] for cid in ids})
    ins = [cid for cid in ids if act["participants"][cid]["status"] == "in"]
    ctx.emit(
        "test_started",
        TrikusPools(
            activity_id=act["id"],
            participants=ins,
            pools={cid: act["answers"][cid]["dice"] for cid in ins},
            gm_pool=act.get("gm_pool"),
        ),
    )
    if not ins or (act["kind"] == "pvp_test" and len(ins) < 2):
        act["phase"] = "no_test"
        return
    unthrown = {cid: act["answers"][cid]["dice"] for cid in ins}
    if act["kind"] == "pvp_test":
        act["contest"] = contest.new_contest(ins, [(ins[0], ins[1])], unthrown)
    else:
        unthrown["gm"] = act["gm_pool"]
        act["contest"] = contest.new_contest(["gm", *ins], [("gm", cid) for cid in ins], unthrown)
    act["phase"] = "contest"


# ---- team-test cancellation (L152, L170; spec 4.5, A10) ----------------------------------------------
def cancellable(act: dict[str, Any]) -> list[str]:
    return [cid for cid, r in act["results"].items() if r == "failure" and not act["participants"][cid]["negotiated"]]


def cancellation_queue(act: dict[str, Any]) -> list[str]:
    """Successful players decide in descending final value, ties by seat order (A10)."""
    if act["kind"] != "test" or len(act["participants"]) < 2:
        return []
    seat = act["invited"]
    wins = [cid for cid, r in act["results"].items() if r == "success"]
    return sorted(wins, key=lambda c: (-(act["final_values"].get(c) or 0), seat.index(c)))


def check_target(act: dict[str, Any], target: str) -> None:
    if act["results"].get(target) == "failure" and act["participants"][target]["negotiated"]:
        raise violation(
            "cannot_cancel_negotiation_failure",
            _("a failure after a negotiation is automatic and cannot be cancelled (L346, A40)"),
            "target_character_id",
        )
    if target not in cancellable(act):
        raise violation(
            "not_a_cancellable_failure",
            _("{target} has no failure left to cancel", target=target),
            "target_character_id",
        )


def give_up(ctx: Ctx, act: dict[str, Any], cid: str, target: str) -> None:
    """One success cancels one failure; both count as no result (L152)."""
    act["queue"].pop(0)
    act.setdefault("cancelled", {}).update({cid: "success", target: "failure"})
    act["results"][cid] = act["results"][target] = "no_result"
    ctx.emit("success_given_up", TrikusSuccessGivenUp(activity_id=act["id"], character_id=cid, cancels=target))


def keep(ctx: Ctx, act: dict[str, Any], cid: str) -> None:
    act["queue"].pop(0)
    ctx.emit("success_kept", TrikusCharacterInActivity(activity_id=act["id"], character_id=cid))


def apply(ctx: Ctx, act: dict[str, Any]) -> None:
    """Spec 4.6 step 3, per participant in seat order."""
    cancelled = act.get("cancelled", {})
    for cid in act["invited"]:
        if cid in act["participants"]:
            consequences.apply(ctx, act, cid, act["results"].get(cid, "removed"), cancelled=cancelled.get(cid))
    ctx.emit(
        "test_resolved",
        TrikusTestResolved(
            activity_id=act["id"],
            results=dict(act["results"]),
            final_values=dict(act["final_values"]),
            cancelled=dict(cancelled),
        ),
    )


def outcome(act: dict[str, Any]) -> str:
    if act["phase"] == "no_test" or not act["results"]:
        return "no_test"
    values = list(act["results"].values())
    if act["kind"] == "pvp_test":
        return "decided" if "success" in values else values[0]
    if len(values) == 1:
        return values[0]
    if "success" in values:
        return "success"  # the success stake applies (spec 4.5 narrative stakes)
    return "failure" if "failure" in values else "no_result"
