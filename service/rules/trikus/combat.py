"""Combat setup and round pools (L174–L186; spec 4.8 steps 1–2, state machine 5.4)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import activity, contest, equipment, lines
from service.rules.trikus.constants import BOOST_DICE, DEFAULT_COMBAT_DIFFICULTY
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import TrikusJoined, TrikusParticipantLeft, TrikusPools, TrikusRoundDeclared


def open_combat(ctx: Ctx, a: Any) -> None:
    cd = a.combat_difficulty
    if cd is not None and not ctx.options.adv_combat_difficulty:
        raise violation(
            "option_disabled",
            _("combat difficulty is an advanced rule (adv_combat_difficulty is off)"),
            "combat_difficulty",
        )
    if ctx.options.adv_combat_difficulty and cd is None:
        cd = DEFAULT_COMBAT_DIFFICULTY  # L368
    activity.open_activity(
        ctx,
        "combat",
        a.character_ids,
        a,
        gm_pool=a.gm_pool,
        combat_difficulty=cd,
        powerful_opponent=a.powerful_opponent,
        round=0,
        master_consequence_applied=False,
    )


def join(ctx: Ctx, act: dict[str, Any], a: Any) -> None:
    """A line (must be crossed if free, A12) and allies; extras come per round, round 1 included."""
    sheet = activity.invited(ctx, act, a.character_id)
    for name in ("morale", "light", "boost", "item_ids"):
        if getattr(a, name):
            raise violation(
                "field_not_applicable",
                _("in combat, extras are declared per round with declare_round (L180, spec 4.8)"),
                name,
            )
    lines.check_line_choice(ctx, sheet, a.line_index)
    dice = sheet["lines"][a.line_index]["dice"] if a.line_index is not None else 0
    act["answers"][a.character_id] = {"kind": "join", "line_index": a.line_index, "allies": a.allies, "line_dice": dice}
    ctx.emit(
        "joined",
        TrikusJoined(
            activity_id=act["id"], character_id=a.character_id, line_index=a.line_index, line_dice=dice, allies=a.allies
        ),
    )


def start(ctx: Ctx, act: dict[str, Any]) -> None:
    """Lines are crossed once for the whole combat (L180, L184)."""
    ids = activity.joined(act)
    for cid in ids:
        ans = act["answers"][cid]
        if ans["line_index"] is not None:
            lines.cross(ctx, cid, ans["line_index"])
        act["participants"][cid] = {
            "line_index": ans["line_index"],
            "line_dice": ans["line_dice"],
            "allies": ans["allies"],
            "status": "active",
            "participated": True,
            "boost_used": False,
            "declared": None,
            "boost": False,
            "item_ids": [],
            "negotiated": False,
        }
    ctx.emit(
        "combat_started",
        TrikusPools(
            activity_id=act["id"],
            participants=ids,
            gm_pool=act["gm_pool"],
            pools={c: persistent(act["participants"][c]) for c in ids},
        ),
    )
    if not ids:
        act["phase"] = "no_test"
        return
    begin_round(ctx, act)


def persistent(part: dict[str, Any]) -> int:
    """Only line and ally dice last between rounds (L180, L186, I12)."""
    return part["line_dice"] + part["allies"]


def active(act: dict[str, Any]) -> list[str]:
    return [c for c in act["invited"] if act["participants"].get(c, {}).get("status") == "active"]


def begin_round(ctx: Ctx, act: dict[str, Any]) -> None:
    act["round"] += 1
    act.update(
        phase="round_pool",
        contest=None,
        results={},
        final_values={},
        catastrophes={},
        queue=[],
        declarations=[],
        rolls=[],
        reviewed=False,
    )
    for cid in active(act):
        act["participants"][cid].update(declared=None, boost=False, item_ids=[], negotiated=False)
    ctx.emit(
        "round_started",
        TrikusPools(
            activity_id=act["id"],
            round=act["round"],
            gm_pool=act["gm_pool"],
            pools={c: persistent(act["participants"][c]) for c in active(act)},
        ),
    )


def declare(ctx: Ctx, act: dict[str, Any], a: Any) -> None:
    """Spec 4.8 step 1; a participant with nothing to throw leaves without penalty (A22)."""
    part = activity.participant(act, a.character_id)
    sheet = activity.active_sheet(ctx, a.character_id)
    if part["status"] != "active":
        raise violation(
            "not_participant", _("{name} is {status} in this combat", name=sheet["name"], status=part["status"])
        )
    if part["declared"] is not None:
        raise violation("already_answered", _("{name} already declared this round", name=sheet["name"]))
    if a.boost and part["boost_used"]:
        raise violation("boost_already_used", _("boost is used once per combat (L230, A21)"), "boost")
    activity.check_extras(ctx, sheet, a.morale, a.light, a.item_ids)
    helpful = sum(
        1
        for iid in a.item_ids
        for it in sheet["equipment"]
        if it["id"] == iid
        for t in it["traits"]
        if t["kind"] == "helpful"
    )
    total = persistent(part) + a.morale + a.light + (BOOST_DICE if a.boost else 0) + helpful
    if total == 0:
        part["status"] = "left"
        ctx.emit(
            "participant_left",
            TrikusParticipantLeft(activity_id=act["id"], character_id=a.character_id, reason="no dice to field (A22)"),
        )
        return
    declared = {"morale": a.morale, "light": a.light, "boost": a.boost, "item_ids": list(a.item_ids)}
    part["declared"] = declared
    ctx.emit(
        "round_declared",
        TrikusRoundDeclared(
            activity_id=act["id"], round=act["round"], character_id=a.character_id, **declared, pool=total
        ),
    )


def start_round(ctx: Ctx, act: dict[str, Any]) -> None:
    """Everyone declared: spend this round's extras, item effects, then wave 1 against the GM's pool."""
    ids = active(act)
    dice: dict[str, int] = {}
    for cid in ids:
        part, dec = act["participants"][cid], act["participants"][cid]["declared"]
        activity.consume(ctx, act, cid, dec["morale"], dec["light"], dec["boost"])
        part.update(boost=dec["boost"], item_ids=dec["item_ids"], boost_used=part["boost_used"] or dec["boost"])
        helpful = equipment.helpful_dice(ctx, cid, dec["item_ids"], in_combat=True)
        dice[cid] = persistent(part) + dec["morale"] + dec["light"] + (BOOST_DICE if dec["boost"] else 0) + helpful
    equipment.on_start(ctx, {cid: act["participants"][cid]["item_ids"] for cid in ids})
    ins = active(act)
    ctx.emit(
        "round_contest_started",
        TrikusPools(activity_id=act["id"], round=act["round"], gm_pool=act["gm_pool"], pools={c: dice[c] for c in ins}),
    )
    if not ins:
        act["phase"] = "close"
        return
    act["contest"] = contest.new_contest(
        ["gm", *ins], [("gm", c) for c in ins], {"gm": act["gm_pool"], **{c: dice[c] for c in ins}}
    )
    act["phase"] = "contest"


def round_pool_complete(act: dict[str, Any]) -> bool:
    return all(act["participants"][c]["declared"] is not None for c in active(act))
