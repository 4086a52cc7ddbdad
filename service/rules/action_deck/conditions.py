"""Wounds, conditions and the benny uses on them (spec §4.27, §4.29, §4.30)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.action_deck import bennies, guards
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckCharacterRef,
    ActionDeckConditionSet,
    ActionDeckHoldEvent,
    ActionDeckPowerRegained,
    ActionDeckSoaked,
    ActionDeckWoundsApplied,
)


def _lose_hold(ctx: Ctx, cid: str) -> None:
    """Seed 1.2: a held character that becomes Shaken or Stunned immediately loses the unused turn.
    A Joker holder keeps its turn (the rule speaks of holds only, §5.7)."""
    slot = ctx.slot(cid)
    if slot is None:
        return
    enc = ctx.running()
    queued = cid in enc["queued"]
    if slot["on_hold"] or queued:
        slot["on_hold"] = False
        slot["acted"] = True
        if queued:
            enc["queued"].remove(cid)
        ctx.emit("hold_lost", ActionDeckHoldEvent(character_id=cid, round=enc["round"]))


def _eliminate(ctx: Ctx, cid: str) -> None:
    sheet = ctx.characters[cid]
    sheet["eliminated"] = True
    slot = ctx.slot(cid)
    if slot is not None:
        slot["on_hold"] = False
    ctx.emit("character_eliminated", ActionDeckCharacterRef(character_id=cid))


def apply_wounds(ctx: Ctx, a) -> None:
    """B35: an Extra is out at its first wound; a Wild Card takes three and is out at the next (seed 1.5)."""
    sheet = guards.alive(ctx, a.character_id)
    cap = ctx.options.wild_card_wound_capacity
    before = sheet["wounds"]
    out = sheet["kind"] == "extra" or before + a.wounds > cap
    if sheet["kind"] == "wild_card":
        sheet["wounds"] = min(cap, before + a.wounds)
    ctx.emit(
        "wounds_applied",
        ActionDeckWoundsApplied(character_id=a.character_id, wounds=a.wounds, total=sheet["wounds"]),
        redacted=ActionDeckWoundsApplied(character_id=a.character_id) if bennies.is_npc(ctx, a.character_id) else None,
    )
    if out:
        _eliminate(ctx, a.character_id)


def set_condition(ctx: Ctx, a) -> None:
    sheet = ctx.sheet(a.character_id)
    changes = {
        k: getattr(a, k)
        for k in ("shaken", "stunned", "fatigue", "wounds", "power_points", "eliminated")
        if getattr(a, k) is not None
    }
    newly = (changes.get("shaken") and not sheet["shaken"]) or (changes.get("stunned") and not sheet["stunned"])
    sheet.update(changes)
    _soak_ruled(ctx, a.character_id)
    public = {k: v for k, v in changes.items() if k in ("shaken", "stunned", "eliminated")}
    ctx.emit(
        "condition_set",
        ActionDeckConditionSet(character_id=a.character_id, **changes, reason=a.reason),
        redacted=ActionDeckConditionSet(character_id=a.character_id, **public)
        if bennies.is_npc(ctx, a.character_id)
        else None,
    )
    if newly:
        _lose_hold(ctx, a.character_id)
    if changes.get("eliminated"):
        _eliminate(ctx, a.character_id)


def _soak_ruled(ctx: Ctx, cid: str) -> None:
    if cid in ctx.table["soaks_pending"]:
        ctx.table["soaks_pending"].remove(cid)


def unshake(ctx: Ctx, a) -> None:
    """Any moment, even during another's action (seed 1.6); a lost hold stays lost; Stunned stays."""
    sheet = guards.owner(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    if not sheet["shaken"]:
        raise violation("not_shaken", _("{name} is not Shaken", name=sheet["name"]))
    bennies.spend(ctx, a.character_id, a.benny_source, "unshake")
    sheet["shaken"] = False
    ctx.emit("unshaken", ActionDeckCharacterRef(character_id=a.character_id))


def soak(ctx: Ctx, a) -> None:
    """B38: the seed has no soak roll; the spend is recorded and the GM enters what it avoided."""
    sheet = guards.owner(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    guards.gm_fields(ctx, a, "wounds_avoided", "shaken_avoided")
    bennies.spend(ctx, a.character_id, a.benny_source, "soak")
    avoided = min(a.wounds_avoided or 0, sheet["wounds"])
    sheet["wounds"] -= avoided
    if a.shaken_avoided:
        sheet["shaken"] = False
    if ctx.actor.is_gm:
        _soak_ruled(ctx, a.character_id)
    elif a.character_id not in ctx.table["soaks_pending"]:
        ctx.table["soaks_pending"].append(a.character_id)
    ctx.emit(
        "soaked",
        ActionDeckSoaked(
            character_id=a.character_id,
            wounds_avoided=avoided,
            shaken_avoided=a.shaken_avoided,
            result_pending=not ctx.actor.is_gm,
        ),
    )


def regain_power(ctx: Ctx, a) -> None:
    sheet = guards.owner(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    bennies.spend(ctx, a.character_id, a.benny_source, "regain_power")
    sheet["power_points"] += ctx.options.benny_power_points  # B39: no maximum stated
    ctx.emit("power_regained", ActionDeckPowerRegained(character_id=a.character_id, power_points=sheet["power_points"]))
