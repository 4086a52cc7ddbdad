"""Building a dice pool from a declaration (spec §4.3–§4.4) and spending character points (§4.5).

`plan` only validates and computes; `spend` is the first change of a roll. Both run before any die,
so a refused declaration consumes nothing."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.sheet import ability
from service.rules.danger_pool.events_model import DangerPoolCharacterPointsSpent, DangerPoolStaminaRestored


def _ids(items: list[str], known: set[str], kind: str, field: str) -> list[str]:
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item not in known:
            raise violation(
                f"unknown_{kind}", _("no {kind} {item!r} on this sheet", kind=kind, item=item), f"{field}[{i}]"
            )
        if item in seen:
            raise violation(
                f"duplicate_{kind}",
                _("{kind} {item!r} is listed twice; each counts once", kind=kind, item=item),
                f"{field}[{i}]",
            )
        seen.add(item)
    return list(items)


def plan(ctx: Ctx, sheet: dict[str, Any], a: Any) -> dict[str, Any]:
    rating = ability(sheet, a.ability, "ability")
    legends = _ids(a.legends, {x["legend_id"] for x in sheet["legends"]}, "legend", "legends")
    if a.equipment is not None and a.equipment not in {x["item_id"] for x in sheet["equipment"]}:
        raise violation(
            "unknown_equipment", _("no item {equipment!r} on this sheet", equipment=a.equipment), "equipment"
        )
    if ctx.options.scar_penalty_mode == "all":
        scars = [s["scar_id"] for s in sheet["scars"]]  # A9 toggle: the input is ignored
    else:
        scars = _ids(a.scars, {s["scar_id"] for s in sheet["scars"]}, "scar", "scars")
    spends = list(a.cp_spends)
    limit = ctx.options.max_cp_spends_per_roll
    if limit is not None and len(spends) > limit:  # A16: "a point", singular
        raise violation(
            "too_many_character_point_spends",
            _n(
                "at most {limit} character point per roll (max_cp_spends_per_roll)",
                "at most {limit} character points per roll (max_cp_spends_per_roll)",
                limit,
                limit=limit,
            ),
            "cp_spends",
        )
    if len(spends) > sheet["character_points"]:
        raise violation(
            "not_enough_character_points",
            _n(
                "{name} has {character_points} character point, needs {count}",
                "{name} has {character_points} character points, needs {count}",
                sheet["character_points"],
                name=sheet["name"],
                character_points=sheet["character_points"],
                count=len(spends),
            ),
            "cp_spends",
        )
    risks = spends.count("risk")
    size = rating + len(legends) + (1 if a.equipment else 0) - len(scars) + ctx.options.risk_extra_dice * risks
    zero = size <= 0
    # A15: auto_lose rolls no player dice; roll_one_die rolls one. Risk may lift the pool above 0 first.
    dice = size if not zero else (1 if ctx.options.zero_pool_policy == "roll_one_die" else 0)
    return {
        "ability_key": a.ability,
        "ability_rating": rating,
        "legends_applied": legends,
        "equipment_applied": a.equipment,
        "scars_applied": scars,
        "cp_spends": spends,
        "pool_size": size,
        "zero_pool": zero,
        "dice_count": dice,
    }


def spend(ctx: Ctx, cid: str, sheet: dict[str, Any], spends: list[str]) -> None:
    """§4.5: each point is spent before the roll; Ignore Pain restores all lost stamina at once."""
    if not spends:
        return
    sheet["character_points"] -= len(spends)
    ctx.emit(
        "character_points_spent",
        DangerPoolCharacterPointsSpent(character_id=cid, spends=spends, character_points=sheet["character_points"]),
    )
    if "ignore_pain" in spends:
        before = sheet["stamina"]
        sheet["stamina"] = sheet["stamina_max"]
        # A42: allowed at full stamina, but wasteful, so the event carries a warning.
        warnings = ["ignore_pain_at_full_stamina"] if before == sheet["stamina_max"] else []
        ctx.emit(
            "stamina_restored",
            DangerPoolStaminaRestored(
                character_id=cid, reason="ignore_pain", from_=before, stamina=sheet["stamina"], warnings=warnings
            ),
        )
