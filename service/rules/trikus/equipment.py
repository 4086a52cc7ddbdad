"""Equipment traits in play (advanced, L394–L420; spec 4.20, A43). Used items are declared at pool formation."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import fate
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.sheet import item, traits
from service.rules.trikus.events_model import TrikusBattleMeditation, TrikusItemChanged, TrikusTraitRevealed


def check_items(ctx: Ctx, sheet: dict[str, Any], item_ids: list[str]) -> None:
    if not item_ids:
        return
    if not ctx.options.adv_equipment:
        raise violation(
            "option_disabled", _("equipment traits are an advanced rule (adv_equipment is off)"), "item_ids"
        )
    if len(set(item_ids)) != len(item_ids):
        raise violation("item_not_available", _("each item is used at most once per test or round (A43)"), "item_ids")
    for n, iid in enumerate(item_ids):
        it = item(sheet, iid)
        if it is None:
            raise violation(
                "unknown_item", _("{name} has no item {iid!r}", name=sheet["name"], iid=iid), f"item_ids[{n}]"
            )
        if it["state"] != "available":
            raise violation(
                "item_not_available", _("{name} is {state}", name=it["name"], state=it["state"]), f"item_ids[{n}]"
            )


def _reveal(ctx: Ctx, cid: str, it: dict[str, Any], trait: dict[str, Any]) -> None:
    """A hidden trait becomes known when it takes effect (L402, A43)."""
    if not trait["known_to_owner"]:
        trait["known_to_owner"] = True
        ctx.emit("trait_revealed", TrikusTraitRevealed(character_id=cid, item_id=it["id"], trait=dict(trait)))


def used(ctx: Ctx, cid: str, item_ids: list[str], kind: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    sheet = ctx.characters[cid]
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for iid in item_ids:
        it = item(sheet, iid)
        if it is not None:
            out.extend((it, t) for t in traits(it, kind))
    return out


def helpful_dice(ctx: Ctx, cid: str, item_ids: list[str], in_combat: bool) -> int:
    """Helpful: +1 die to the combat pool for this round only (L408, A43); no effect outside combat."""
    if not in_combat:
        return 0
    found = used(ctx, cid, item_ids, "helpful")
    for it, t in found:
        _reveal(ctx, cid, it, t)
    return len(found)


def on_start(ctx: Ctx, participants: dict[str, list[str]]) -> None:
    """When the test or round starts: Sith artifact gives a dark token (L420); battle meditation gives every
    active player character a morale die, usable from the next pool formation (L412, A43)."""
    for cid, item_ids in participants.items():
        for it, t in used(ctx, cid, item_ids, "battle_meditation"):
            _reveal(ctx, cid, it, t)
            for other in ctx.active_ids():
                ctx.characters[other]["morale_dice"] += 1
            ctx.emit(
                "battle_meditation",
                TrikusBattleMeditation(character_id=cid, item_id=it["id"], beneficiaries=ctx.active_ids()),
            )
        for it, t in used(ctx, cid, item_ids, "sith_artifact"):
            _reveal(ctx, cid, it, t)
            fate.add_dark_token(ctx, cid, "sith_artifact")


def modifier(ctx: Ctx, cid: str, item_ids: list[str], kind: str) -> int:
    """Offensive (negative) and defensive (positive) CD modifiers; they need adv_combat_difficulty (L398)."""
    total = 0
    for it, t in used(ctx, cid, item_ids, kind):
        _reveal(ctx, cid, it, t)
        total += t.get("modifier") or 0
    return total


def _spend(ctx: Ctx, cid: str, it: dict[str, Any], why: str) -> None:
    renewable = traits(it, "renewable")
    it["state"] = "depleted" if renewable else "lost"  # renewable turns "lost" into "depleted" (A43)
    for t in renewable:
        _reveal(ctx, cid, it, t)
    ctx.emit("item_" + it["state"], TrikusItemChanged(character_id=cid, item_id=it["id"], reason=why))


def on_end(ctx: Ctx, cid: str, item_ids: list[str], result: str, penalties: bool) -> None:
    """After the test or round: single use is gone; on a failure unreliable is gone and a black hole kills
    its owner (L410–L416, A33). `penalties` is False for a cancelled failure under A10."""
    sheet = ctx.characters[cid]
    failed = result == "failure" and penalties
    for iid in item_ids:
        it = item(sheet, iid)
        if it is None or it["state"] != "available":
            continue
        for t in traits(it, "single_use"):
            _reveal(ctx, cid, it, t)
            _spend(ctx, cid, it, "single_use")
            break
        else:
            if failed and traits(it, "unreliable"):
                _reveal(ctx, cid, it, traits(it, "unreliable")[0])
                _spend(ctx, cid, it, "unreliable")
    if failed and sheet["status"] == "active":
        holes = used(ctx, cid, item_ids, "black_hole")
        if holes:
            _reveal(ctx, cid, *holes[0])
            fate.kill(ctx, cid, "black_hole")
