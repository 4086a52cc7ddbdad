"""What every activity (test, PvP test, combat) shares: opening, invitations, pools, closing (spec 5)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.trikus import equipment, fate, lines
from service.rules.trikus.constants import BOOST_DICE
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.sheet import is_active
from service.rules.trikus.events_model import (
    TrikusActivityClosed,
    TrikusActivityOpened,
    TrikusBadFeelingAnswered,
    TrikusExtrasCommitted,
)


def require(ctx: Ctx, *phases: str) -> dict[str, Any]:
    act = ctx.activity
    if act is None:
        raise violation("no_activity", _("no test or combat is open"))
    if phases and act["phase"] not in phases:
        raise violation(
            "wrong_phase",
            _(
                "the {kind} is in phase {phase}; this move needs {phases}",
                kind=act["kind"],
                phase=act["phase"],
                phases=" or ".join(phases),
            ),
        )
    return act


def active_sheet(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    sheet = ctx.sheet(cid, field)
    if not is_active(sheet):
        raise violation(
            "character_not_active", _("{name} is {status}", name=sheet["name"], status=sheet["status"]), field
        )
    return sheet


def open_activity(ctx: Ctx, kind: str, invited: list[str], action: Any, **extra: Any) -> dict[str, Any]:
    """I7, A56: one open test or combat per party."""
    if ctx.activity is not None:
        raise violation(
            "activity_in_progress", _("{id} is still open; finish or abort it first", id=ctx.activity["id"])
        )
    if len(set(invited)) != len(invited):
        raise violation("duplicate_character", _("a character is invited once"), "character_ids")
    for n, cid in enumerate(invited):
        active_sheet(ctx, cid, f"character_ids[{n}]")
    act = {
        "id": ctx.next_id("activity", "a"),
        "kind": kind,
        "phase": "setup" if kind == "combat" else "pool_formation",
        "invited": list(invited),
        "answers": {},
        "participants": {},
        "stakes": {
            "on_success": action.stakes_success,
            "on_failure": action.stakes_failure,
            "description": action.description,
        },
        "contest": None,
        "results": {},
        "final_values": {},
        **extra,
    }
    ctx.table["activity"] = act
    ctx.emit(
        "activity_opened",
        TrikusActivityOpened(activity_id=act["id"], kind=kind, invited=list(invited), stakes=act["stakes"], **extra),
    )
    return act


def invited(ctx: Ctx, act: dict[str, Any], cid: str) -> dict[str, Any]:
    sheet = active_sheet(ctx, cid)
    if cid not in act["invited"]:
        raise violation("not_invited", _("{name} is not invited to {id}", name=sheet["name"], id=act["id"]))
    if cid in act["answers"]:
        raise violation(
            "already_answered",
            _("{name} already answered ({kind})", name=sheet["name"], kind=act["answers"][cid]["kind"]),
        )
    return sheet


def participant(act: dict[str, Any], cid: str) -> dict[str, Any]:
    part = act["participants"].get(cid)
    if part is None:
        raise violation("not_participant", _("{cid} does not take part in {id}", cid=cid, id=act["id"]))
    return part


def check_extras(ctx: Ctx, sheet: dict[str, Any], morale: int, light: int, item_ids: list[str]) -> None:
    if morale > sheet["morale_dice"]:
        raise violation(
            "insufficient_morale",
            _n(
                "{name} holds {morale_dice} morale die",
                "{name} holds {morale_dice} morale dice",
                sheet["morale_dice"],
                name=sheet["name"],
                morale_dice=sheet["morale_dice"],
            ),
            "morale",
        )
    if light > sheet["light_tokens"]["active"]:
        raise violation(
            "insufficient_light_tokens",
            _n(
                "{name} holds {active} light token",
                "{name} holds {active} light tokens",
                sheet["light_tokens"]["active"],
                name=sheet["name"],
                active=sheet["light_tokens"]["active"],
            ),
            "light",
        )
    equipment.check_items(ctx, sheet, item_ids)


def pool_size(ctx: Ctx, sheet: dict[str, Any], line_index: int | None, a: Any) -> int:
    """Spec 4.2: line + morale + light + boost (2, whatever the tier when exhausted, L232)."""
    lines.check_line_choice(ctx, sheet, line_index)
    check_extras(ctx, sheet, a.morale, a.light, a.item_ids)
    base = sheet["lines"][line_index]["dice"] if line_index is not None else 0
    total = base + a.morale + a.light + (BOOST_DICE if a.boost else 0)
    if total < 1:
        raise violation(
            "no_dice",
            _(
                "{name} has no free line and commits no extra die; morale, a light token "
                "or boost allow a test while exhausted (L68–L74), or say 'I have a bad "
                "feeling about this' (L78)",
                name=sheet["name"],
            ),
        )
    return total


def consume(ctx: Ctx, act: dict[str, Any], cid: str, morale: int, light: int, boost: bool) -> None:
    """Committed extras are spent when the test or round starts, thrown or not (L112, A11)."""
    sheet = ctx.characters[cid]
    sheet["morale_dice"] -= morale
    tok = sheet["light_tokens"]
    tok["active"] -= light
    tok["used_total"] += light
    if morale or light or boost:
        ctx.emit(
            "extras_committed",
            TrikusExtrasCommitted(
                activity_id=act["id"],
                character_id=cid,
                morale=morale,
                light=light,
                boost=boost,
                morale_dice_left=sheet["morale_dice"],
                light_tokens_left=tok["active"],
            ),
        )


def bad_feeling(ctx: Ctx, act: dict[str, Any], cid: str, description: str, intent: str) -> None:
    """L76–L86, A53: no line, no dice, no resources change; the GM narrates the outcome."""
    act["answers"][cid] = {"kind": "bad_feeling", "description": description, "intent": intent}
    ctx.emit(
        "bad_feeling",
        TrikusBadFeelingAnswered(activity_id=act["id"], character_id=cid, description=description, intent=intent),
    )


def all_answered(act: dict[str, Any]) -> bool:
    return all(cid in act["answers"] for cid in act["invited"])


def joined(act: dict[str, Any]) -> list[str]:
    return [cid for cid in act["invited"] if act["answers"].get(cid, {}).get("kind") == "join"]


def close(ctx: Ctx, act: dict[str, Any], outcome: str) -> None:
    """The activity is over: the party reset check (A14), then promotions that apply at once (A34)."""
    act["phase"] = "closed"
    ctx.table["activity"] = None
    summary = {
        "activity_id": act["id"],
        "kind": act["kind"],
        "outcome": outcome,
        "results": dict(act.get("results", {})),
    }
    ctx.table["last_activity"] = summary
    ctx.emit("activity_closed", TrikusActivityClosed(**summary))
    lines.party_reset_check(ctx)
    fate.apply_pending(ctx, session_start=False)
