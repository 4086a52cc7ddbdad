"""Locations and Ether (spec 3.7, 4.14), GM approval and edits of sheets (7-B2, 7-B21, 7-B29), notes."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import derived, guards
from service.rules.iskra.catalogue import ATTR_MAX, ATTR_MIN, MAX_PREDISPOSITIONS
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraCharacterEdited,
    IskraCharacterRef,
    IskraCharactersMoved,
    IskraEtherSensed,
    IskraGmNoteWritten,
    IskraLocationDefined,
)


def define_location(ctx: Ctx, a: Any) -> None:
    loc = {
        "id": a.location_id,
        "name": a.name,
        "is_safe_place": a.is_safe_place,
        "ether_concentration": a.ether_concentration,
        "temperature_extreme": a.temperature_extreme,
        "ether_known_by": ctx.table["locations"].get(a.location_id, {}).get("ether_known_by", []),
    }
    ctx.table["locations"][a.location_id] = loc
    public = {k: v for k, v in loc.items() if k != "ether_concentration"}
    # spec 8: the true Ether concentration is GM-only.
    ctx.emit("location_defined", IskraLocationDefined(location=loc), redacted=IskraLocationDefined(location=public))


def _location(ctx: Ctx, location_id: str, field: str = "location_id") -> dict[str, Any]:
    loc = ctx.table["locations"].get(location_id)
    if loc is None:
        raise violation("unknown_location", _("no location {location_id!r}", location_id=location_id), field)
    return loc


def set_location(ctx: Ctx, a: Any) -> None:
    _location(ctx, a.location_id)
    for i, cid in enumerate(a.character_ids):
        guards.alive(ctx, cid, f"character_ids[{i}]")
    for cid in a.character_ids:
        sheet = ctx.characters[cid]
        if sheet["location_id"] != a.location_id:
            sheet["recovery"]["safe_rest_since"] = None  # leaving ends an uninterrupted rest (L68)
        sheet["location_id"] = a.location_id
    ctx.emit("characters_moved", IskraCharactersMoved(character_ids=list(a.character_ids), location_id=a.location_id))


def reveal_ether(ctx: Ctx, a: Any) -> None:
    """Zmysł Eteru (L207): a Human senses the concentration; the GM reveals it to that character."""
    loc = _location(ctx, a.location_id)
    sheet = guards.alive(ctx, a.character_id)
    if not derived.has_ability(sheet, "ether_sense"):
        raise violation(
            "no_ether_sense",
            _("{character_id} cannot sense Ether (a Human trait, L207)", character_id=a.character_id),
            "character_id",
        )
    if a.character_id not in loc["ether_known_by"]:
        loc["ether_known_by"].append(a.character_id)
    sensed = {"location_id": loc["id"], "character_id": a.character_id}
    # Only the sensing character learns the value (spec 8): it reads it in its view of the location.
    ctx.emit(
        "ether_sensed",
        IskraEtherSensed(**sensed, ether_concentration=loc["ether_concentration"]),
        redacted=IskraEtherSensed(**sensed),
    )


def approve_character(ctx: Ctx, a: Any) -> None:
    sheet = guards.alive(ctx, a.character_id)
    sheet["approved"] = True
    ctx.emit("character_approved", IskraCharacterRef(character_id=a.character_id))


def edit_character(ctx: Ctx, a: Any) -> None:
    """7-B21: Predispositions and Weaknesses change only by GM edit; 7-B29/7-B48: per-NPC overrides."""
    sheet = guards.alive(ctx, a.character_id)
    changed: dict[str, Any] = {}
    if a.attributes is not None:
        for name, value in a.attributes.items():
            if not ATTR_MIN <= value <= ATTR_MAX:
                raise violation(
                    "attribute_out_of_range",
                    _("{name} must be {attr_min}–{attr_max} (L54)", name=name, attr_min=ATTR_MIN, attr_max=ATTR_MAX),
                    f"attributes.{name}",
                )
        sheet["attributes"].update(a.attributes)
        changed["attributes"] = sheet["attributes"]
    for key in ("predispositions", "weaknesses"):
        value = getattr(a, key)
        if value is not None:
            sheet[key] = [t.model_dump() for t in value]
            changed[key] = sheet[key]
    p, w = len(sheet["predispositions"]), len(sheet["weaknesses"])
    if p > MAX_PREDISPOSITIONS:
        raise violation("too_many_predispositions", _("at most 3 Predispositions (L86)"), "predispositions")
    if w < p:
        raise violation(
            "weakness_per_predisposition", _("each extra Predisposition needs a Weakness (L86)"), "weaknesses"
        )
    if a.concept is not None:
        sheet["concept"] = a.concept.model_dump()
        changed["concept"] = sheet["concept"]
    for key in ("health_max", "recovery_enabled"):
        value = getattr(a, key)
        if value is not None:
            if sheet["controller"] != "gm":
                raise violation(
                    "npc_only",
                    _("{key} is a per-NPC override (7-B29, 7-B48); a PC's Health maximum is always 5 (L64)", key=key),
                    key,
                )
            sheet[key] = value
            changed[key] = value
    if sheet["health"] > sheet["health_max"]:
        sheet["health"] = sheet["health_max"]
        changed["health"] = sheet["health"]
    if derived.encumbrance(sheet, ctx.options) == "over_limit":
        raise violation(
            "over_carry_limit", _("the edit would leave the load above twice the capacity (L134)"), "predispositions"
        )
    ctx.emit(
        "character_edited",
        IskraCharacterEdited(character_id=a.character_id, changes=changed),
        gm_only=sheet["controller"] == "gm",
    )  # spec 8: NPC numbers are GM-only


def gm_note(ctx: Ctx, a: Any) -> None:
    ctx.emit("gm_note", IskraGmNoteWritten(text=a.text), gm_only=not a.visible_to_players)
