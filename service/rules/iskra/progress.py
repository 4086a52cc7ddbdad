"""Sessions (spec 5.6), XP (spec 4.10; L93–L103), Glory (spec 4.6; L106–L122)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import abilities, guards
from service.rules.iskra.catalogue import ATTR_MAX, COST_ABILITY, COST_ATTRIBUTE, COST_FOCUS, XP_ADVERSITY
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraAdversityOvercome,
    IskraGloryAwarded,
    IskraSessionEnded,
    IskraSessionStarted,
    IskraXpSpent,
)


def start_session(ctx: Ctx, a: Any) -> None:
    session = ctx.table["session"]
    if session["state"] == "in_session":
        raise violation("session_already_open", _("session {number} is already running", number=session["number"]))
    session["number"] += 1
    session["state"] = "in_session"
    ctx.emit("session_started", IskraSessionStarted(number=session["number"]))


def _earn(ctx: Ctx, cid: str, amount: int) -> None:
    sheet = ctx.characters[cid]
    sheet["xp"] += amount
    sheet["xp_earned_total"] += amount


def end_session(ctx: Ctx, a: Any) -> None:
    """7-B17: at most +1 role-play XP per character per session, given as the session ends (L98)."""
    guards.no_pending(ctx)
    session = ctx.table["session"]
    if session["state"] != "in_session":
        raise violation("no_session_running", _("no session is running to end (spec 5.6)"), "type")
    awarded = sorted(set(a.roleplay_awards))
    for i, cid in enumerate(awarded):
        guards.alive(ctx, cid, f"roleplay_awards[{i}]")
    for cid in awarded:
        _earn(ctx, cid, 1)
    session["state"] = "between_sessions"
    ctx.emit("session_ended", IskraSessionEnded(number=session["number"], roleplay_awards=awarded))


def award_adversity(ctx: Ctx, a: Any) -> None:
    """L95: every character who took part in overcoming a difficult adversity gets 3 XP, once (7-B16)."""
    key = a.adversity.casefold()
    if key in ctx.table["adversities"]:
        raise violation(
            "adversity_already_awarded",
            _("{adversity!r} was already rewarded (7-B16)", adversity=a.adversity),
            "adversity",
        )
    ids = sorted(set(a.character_ids))
    for i, cid in enumerate(ids):
        guards.alive(ctx, cid, f"character_ids[{i}]")
    for cid in ids:
        _earn(ctx, cid, XP_ADVERSITY)
    ctx.table["adversities"].append(key)
    ctx.emit(
        "adversity_overcome", IskraAdversityOvercome(adversity=a.adversity, character_ids=ids, xp_each=XP_ADVERSITY)
    )


def award_glory(ctx: Ctx, a: Any) -> None:
    sheet = guards.alive(ctx, a.character_id)
    sheet["glory"] += a.amount  # 7-B20: +1 per deed unless the GM says otherwise
    ctx.emit(
        "glory_awarded",
        IskraGloryAwarded(character_id=a.character_id, amount=a.amount, deed=a.deed, glory=sheet["glory"]),
    )


def buy(ctx: Ctx, a: Any) -> None:
    """L100–L103: between sessions, an ability 10 XP, +1 PS maximum 15 XP, +1 attribute 20 XP."""
    sheet = guards.acting(ctx, a.character_id)
    guards.between_sessions(ctx)
    if a.purchase == "ability":
        if a.ability_id is None:
            raise violation("unknown_ability", _("name the ability to buy"), "ability_id")
        entry = abilities.acquire(
            ctx.options, sheet["abilities"], a.ability_id, a.level, a.param, sheet["glory"], "purchase", "ability_id"
        )
        cost = COST_ABILITY
    elif a.purchase == "focus_max":
        entry, cost = None, COST_FOCUS
    else:
        if a.attribute is None:
            raise violation("attribute_out_of_range", _("name the attribute to raise"), "attribute")
        if sheet["attributes"][a.attribute] >= ATTR_MAX:
            raise violation(
                "attribute_at_max",
                _("{attribute} is already {attr_max} (L54)", attribute=a.attribute, attr_max=ATTR_MAX),
                "attribute",
            )
        entry, cost = None, COST_ATTRIBUTE
    if sheet["xp"] < cost:
        raise violation(
            "not_enough_xp",
            _(
                "{purchase} costs {cost} XP; {character_id} has {xp}",
                purchase=a.purchase,
                cost=cost,
                character_id=a.character_id,
                xp=sheet["xp"],
            ),
            "purchase",
        )
    sheet["xp"] -= cost
    if entry is not None:
        sheet["abilities"].append(entry)
    elif a.purchase == "focus_max":
        sheet["focus_max"] += 1
        sheet["focus_points"] += 1  # 7-B9: the new point arrives filled
    else:
        sheet["attributes"][a.attribute] += 1
    ctx.emit(
        "xp_spent",
        IskraXpSpent(
            character_id=a.character_id,
            purchase=a.purchase,
            cost=cost,
            xp=sheet["xp"],
            ability=entry,
            attribute=a.attribute,
            focus_max=sheet["focus_max"],
            attributes=sheet["attributes"],
        ),
    )
