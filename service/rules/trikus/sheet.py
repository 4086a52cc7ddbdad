"""Character creation (spec 3.4) and the small sheet helpers every module uses."""

from typing import Any

from pydantic import Field, field_validator

from service.i18n.message import _, _n
from service.rules.trikus.constants import LINE_SHAPE, SIDE_COUNTS, Tier
from service.rules.trikus.errors import violation
from service.rules.trikus.fields import ItemInput, Label, Model, SideInput
from service.rules.trikus.options import Options


class CharacterInput(Model):
    """What a client sends to create a character; lines, tokens and morale are derived (spec 3.4, TK-E1)."""

    name: Label
    tier: Tier = Field(description="beginner (three 1d10 lines), advanced (2d10 + 1d10), master (one 3d10 line).")
    profession: Label | None = Field(None, description="Flavour only (L31–L35 are suggestions).")
    light_sides: list[SideInput] = Field(
        default_factory=list, max_length=3, description="Beginner 3, Advanced 2, Master 1 (L248–L252)."
    )
    dark_sides: list[SideInput] = Field(
        default_factory=list, max_length=3, description="Beginner 1, Advanced 2, Master 3 (L248–L252)."
    )
    equipment: list[ItemInput] = Field(
        default_factory=list, max_length=20, description="Items with 1–3 traits each (L394–L420)."
    )

    @field_validator("tier", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.strip().lower() if isinstance(v, str) else v


def fresh_lines(tier: str) -> list[dict[str, Any]]:
    return [{"index": i, "dice": d, "state": "free"} for i, d in enumerate(LINE_SHAPE[tier])]


def counter() -> dict[str, int]:
    return {"active": 0, "received_total": 0, "used_total": 0, "forfeited_total": 0}


def check_sides(tier: str, light: list[SideInput], dark: list[SideInput], options: Options) -> None:
    """Counts per tier (I5) and, under optional rule 1, who wrote a Master's dark sides (L256)."""
    want = SIDE_COUNTS[tier]
    if len(light) != want["light"]:
        raise violation(
            "wrong_side_count",
            _n(
                "a {tier} has {light} light side (L248–L252)",
                "a {tier} has {light} light sides (L248–L252)",
                want["light"],
                tier=tier,
                light=want["light"],
            ),
            "light_sides",
            422,
        )
    if len(dark) != want["dark"]:
        raise violation(
            "wrong_side_count",
            _n(
                "a {tier} has {dark} dark side (L248–L252)",
                "a {tier} has {dark} dark sides (L248–L252)",
                want["dark"],
                tier=tier,
                dark=want["dark"],
            ),
            "dark_sides",
            422,
        )
    if tier == "master" and options.opt1_master_dark_sides_by_others:
        own = sum(1 for s in dark if s.authored_by == "self")
        if own != 1:
            raise violation(
                "master_dark_side_authorship",
                _(
                    "optional rule 1 (L256): a Master "
                    "writes exactly one dark side; the "
                    "other two are written by other players"
                ),
                "dark_sides",
            )


def check_item(item: ItemInput, field: str) -> None:
    kinds = [t.kind for t in item.traits]
    if len(set(kinds)) != len(kinds):
        raise violation("duplicate_trait", _("each pip of an item is a different trait (L402)"), f"{field}.traits")
    for j, t in enumerate(item.traits):
        where = f"{field}.traits[{j}].modifier"
        if t.kind in ("offensive", "defensive") and t.modifier is None:
            raise violation(
                "modifier_required", _("a {kind} trait needs its GM-set modifier (A43)", kind=t.kind), where
            )
        if t.kind == "offensive" and t.modifier is not None and t.modifier >= 0:
            raise violation("bad_trait_modifier", _("an offensive modifier is negative (L404)"), where)
        if t.kind == "defensive" and t.modifier is not None and t.modifier <= 0:
            raise violation("bad_trait_modifier", _("a defensive modifier is positive (L406)"), where)
        if t.kind not in ("offensive", "defensive") and t.modifier is not None:
            raise violation("bad_trait_modifier", _("only offensive and defensive traits carry a modifier"), where)


def item_record(item: ItemInput, item_id: str) -> dict[str, Any]:
    return {
        "id": item_id,
        "name": item.name,
        "state": "available",
        "notes": item.notes,
        "traits": [t.model_dump(mode="json") for t in item.traits],
    }


def new_character(data: CharacterInput, options: Options) -> dict[str, Any]:
    check_sides(data.tier, data.light_sides, data.dark_sides, options)
    for i, item in enumerate(data.equipment):
        check_item(item, f"equipment[{i}]")
    return {
        "name": data.name,
        "profession": data.profession,
        "tier": data.tier,
        "status": "active",
        "controller": "player",
        "lines": fresh_lines(data.tier),
        "morale_dice": 0,
        "light_tokens": counter(),
        "dark_tokens": counter(),
        "light_sides": [s.model_dump(mode="json") for s in data.light_sides],
        "dark_sides": [{**s.model_dump(mode="json"), "revealed": False} for s in data.dark_sides],
        "sides_pending": False,
        "equipment": [item_record(it, f"i{n}") for n, it in enumerate(data.equipment, start=1)],
    }


# ---- derived values (spec 3.4) ------------------------------------------------------------------------
def free_lines(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    return [ln for ln in sheet["lines"] if ln["state"] == "free"]


def exhausted(sheet: dict[str, Any]) -> bool:
    """Crossed and lost lines both count as unavailable (L66, L332)."""
    return not free_lines(sheet)


def is_active(sheet: dict[str, Any]) -> bool:
    return sheet.get("status") == "active"


def item(sheet: dict[str, Any], item_id: str) -> dict[str, Any] | None:
    return next((it for it in sheet.get("equipment", []) if it["id"] == item_id), None)


def traits(it: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [t for t in it["traits"] if t["kind"] == kind]
