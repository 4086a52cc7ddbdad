"""Turn moves without a test (spec 4.12.1, 4.12.3–4.12.5): stand up, convert, Minor, Passing, end turn."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.base import gm_only
from service.rules.iskra import guards, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraCharacterRef,
    IskraMajorConverted,
    IskraMinorActionTaken,
    IskraPassingActionTaken,
)


def stand_up(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    if not sheet["prone"]:
        raise violation(
            "not_prone", _("{character_id} is standing (L166)", character_id=a.character_id), "character_id"
        )
    turns.spend(ctx, a.character_id, "major")  # Podniesienie się is a Major Action (L166)
    sheet["prone"] = False
    ctx.emit("stood_up", IskraCharacterRef(character_id=a.character_id))


def convert_major(ctx: Ctx, a: Any) -> None:
    """L141: an extra Minor Action instead of the Major."""
    guards.acting(ctx, a.character_id)
    enc = ctx.encounter
    if enc is None:
        raise violation("no_combat", _("action budgets exist only in combat (L145)"))
    if ctx.participant(a.character_id) is None:
        raise violation(
            "not_a_participant", _("{character_id} is not in this combat", character_id=a.character_id), "character_id"
        )
    turns.spend(ctx, a.character_id, "major")
    budget = enc["budget"][a.character_id]
    budget["minor"] += 1
    budget["converted"] = True
    ctx.emit(
        "major_converted",
        IskraMajorConverted(encounter_id=enc["id"], participant_id=a.character_id, minor_left=budget["minor"]),
    )


def minor_action(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    item = None
    if a.item_id is not None:
        item = next((i for i in sheet["inventory"] if i["item_id"] == a.item_id), None)
        if item is None:
            raise violation("unknown_item", _("no item {item_id} on this sheet", item_id=a.item_id), "item_id")
    turns.spend(ctx, a.character_id, "minor")
    if item is not None and a.consume:
        sheet["inventory"].remove(item)
    # L175: throwing someone an item by Interaction is not an attack and deals no Wounds.
    ctx.emit(
        "minor_action",
        IskraMinorActionTaken(
            character_id=a.character_id,
            kind=a.kind,
            item_id=a.item_id,
            description=a.description,
            consumed=bool(item is not None and a.consume),
        ),
    )


def passing_action(ctx: Ctx, a: Any) -> None:
    guards.acting(ctx, a.character_id)
    turns.spend(ctx, a.character_id, "passing")  # L143: running, speaking
    ctx.emit("passing_action", IskraPassingActionTaken(character_id=a.character_id, description=a.description))


def end_turn(ctx: Ctx, a: Any) -> None:
    enc = ctx.encounter
    if enc is None:
        raise violation("no_combat", _("no combat is running"))
    p = ctx.participant(a.participant_id)
    if p is None:
        raise violation(
            "not_a_participant",
            _("{participant_id} is not in this combat", participant_id=a.participant_id),
            "participant_id",
        )
    if p["kind"] == "hazard" and not ctx.actor.is_gm:
        raise gm_only(_("hazards are the GM's"), field="participant_id")
    if p["kind"] == "character":
        guards.owner(ctx, a.participant_id, "participant_id")
    if turns.current(enc) != a.participant_id:
        raise violation(
            "not_your_turn",
            _(
                "it is {name}'s turn, not {name_2}'s (L151)",
                name=turns.name(enc, turns.current(enc)),
                name_2=turns.name(enc, a.participant_id),
            ),
            "participant_id",
        )
    turns.end_turn(ctx, enc)
