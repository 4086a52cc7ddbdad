"""Hearts, downed, death, raising and rest (seed §7, spec 4.10, 4.11, 5.3)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.stepdice import turns
from service.rules.stepdice.actions_gm import StepDiceRest
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import (
    StepDiceHeartEvent,
    StepDiceHeartsGained,
    StepDiceHeartsLost,
    StepDiceRestTaken,
)


def _ref(origin: dict[str, Any] | None) -> dict[str, Any]:
    origin = origin or {}
    return {k: origin[k] for k in ("test_id", "enemy_id", "hit_id", "description") if origin.get(k) is not None}


def lose_heart(ctx: Ctx, character_id: str, cause: str, origin: dict[str, Any] | None = None) -> None:
    """Every Heart loss in this system is exactly 1 (spec 4.10)."""
    sheet = ctx.characters[character_id]
    info = {"character_id": character_id, "cause": cause, **_ref(origin)}
    if sheet["condition"] == "dead":
        return
    if sheet["condition"] == "downed":
        if ctx.options.downed_damage_kills:  # §7.2 v1 "Giniesz"
            sheet["condition"] = "dead"
            ctx.emit("character_died", StepDiceHeartEvent(**info))
        else:
            ctx.emit("downed_damage_ignored", StepDiceHeartEvent(**info))
        return
    sheet["hearts"] -= 1
    ctx.emit(
        "hearts_lost", StepDiceHeartsLost(**info, amount=1, hearts=sheet["hearts"], hearts_max=sheet["hearts_max"])
    )
    if sheet["hearts"] == 0:
        sheet["condition"] = "downed"
        slot = ctx.slot(character_id)
        if slot is not None:
            slot["action_available"] = False
        ctx.emit("character_downed", StepDiceHeartEvent(**info))
        turns.on_downed(ctx, character_id)


def gain_hearts(
    ctx: Ctx,
    character_id: str,
    amount: int,
    cause: str,
    origin: dict[str, Any] | None = None,
    event: str = "hearts_gained",
) -> None:
    """Capped at hearts_max; any Heart gain ends `downed` (7-A32)."""
    sheet = ctx.characters[character_id]
    if sheet["condition"] == "dead":
        return  # the source has no resurrection
    before = sheet["hearts"]
    sheet["hearts"] = min(sheet["hearts_max"], before + amount)
    stood_up = sheet["condition"] == "downed" and sheet["hearts"] > 0
    if stood_up:
        sheet["condition"] = "active"
    ctx.emit(
        event,
        StepDiceHeartsGained(
            character_id=character_id,
            cause=cause,
            amount=sheet["hearts"] - before,
            hearts=sheet["hearts"],
            hearts_max=sheet["hearts_max"],
            stood_up=stood_up,
            **_ref(origin),
        ),
    )
    if stood_up:
        turns.on_revived(ctx, character_id)


def rest(ctx: Ctx, a: StepDiceRest) -> None:
    """§7.3: full Hearts and Mana after the scene, for every non-dead PC present (7-A28)."""
    enc = ctx.encounter
    if enc is not None and enc["phase"] != "ended":
        raise violation("encounter_in_progress", _("rest follows a combat scene, not the middle of one (seed §7.3)"))
    ids = a.character_ids if a.character_ids is not None else list(ctx.characters)
    for cid in ids:
        ctx.sheet(cid, "character_ids")
    restored, skipped = [], []
    for cid in dict.fromkeys(ids):
        sheet = ctx.characters[cid]
        if sheet["condition"] == "dead":
            skipped.append(cid)
            continue
        sheet.update(hearts=sheet["hearts_max"], mana=sheet["mana_max"], condition="active")
        restored.append({"character_id": cid, "hearts": sheet["hearts"], "mana": sheet["mana"]})
    ctx.emit("rest_taken", StepDiceRestTaken(restored=restored, skipped_dead=skipped))
