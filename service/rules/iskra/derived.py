"""Derived values (spec 3.2 'computed, never stored'): carrying, penalties, Death's Door, environment."""

from __future__ import annotations

from typing import Any

from service.rules.iskra.catalogue import ether_index, tolerance
from service.rules.iskra.options import Options


def alive(sheet: dict[str, Any]) -> bool:
    return sheet["status"] == "alive"


def deaths_door(sheet: dict[str, Any]) -> bool:
    return alive(sheet) and sheet["health"] == 0  # L66


def low_health(sheet: dict[str, Any]) -> bool:
    return sheet["health"] <= 2  # L64, including 0 (7-B13)


def health_band(sheet: dict[str, Any]) -> str:
    if not alive(sheet):
        return "dead"
    return "deaths_door" if sheet["health"] == 0 else "wounded" if sheet["health"] <= 2 else "healthy"


def has_ability(sheet: dict[str, Any], ability_id: str) -> bool:
    return any(a["ability_id"] == ability_id for a in sheet["abilities"])


def capacity(sheet: dict[str, Any], options: Options) -> int:
    cap = 5 + 2 * sheet["attributes"]["strength"]  # L132
    if options.carry_predisposition_adjusts_capacity:
        cap += 2 if any(p["affects_carrying"] for p in sheet["predispositions"]) else 0
        cap -= 2 if any(w["affects_carrying"] for w in sheet["weaknesses"]) else 0
    return cap


def load(sheet: dict[str, Any]) -> int:
    return sum(i["weight"] for i in sheet["inventory"] if i["carried"])  # L134; weight 0 counts 0 (7-B22)


def encumbrance(sheet: dict[str, Any], options: Options, extra: int = 0) -> str:
    cap, total = capacity(sheet, options), load(sheet) + extra
    return "normal" if total <= cap else "overloaded" if total <= 2 * cap else "over_limit"


def location(table: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any] | None:
    return table["locations"].get(sheet.get("location_id") or "")


def regen_blocked(table: dict[str, Any], sheet: dict[str, Any]) -> bool:
    """Asrai Wrażliwość (L259): no Health or PS regeneration in extreme temperatures unless negated."""
    loc = location(table, sheet)
    if not has_ability(sheet, "temperature_sensitivity") or loc is None or not loc["temperature_extreme"]:
        return False
    return not any(i["carried"] and i.get("protects_from_temperature") for i in sheet["inventory"])


def ether_exposure(table: dict[str, Any], characters: dict[str, Any], options: Options) -> list[dict[str, Any]]:
    """Characters at a location whose Ether concentration exceeds their tolerance (spec 4.14, 7-B34)."""
    out = []
    for cid, sheet in sorted(characters.items()):
        loc = location(table, sheet)
        if loc is None or not alive(sheet):
            continue
        limit = tolerance(sheet["species"], options)
        if ether_index(loc["ether_concentration"]) > ether_index(limit):
            out.append(
                {"character_id": cid, "location_id": loc["id"], "level": loc["ether_concentration"], "tolerance": limit}
            )
    return out


def summary(table: dict[str, Any], sheet: dict[str, Any], options: Options) -> dict[str, Any]:
    enc = encumbrance(sheet, options)
    loc = location(table, sheet)
    ether = loc["ether_concentration"] if loc else None
    return {
        "deaths_door": deaths_door(sheet),
        "health_band": health_band(sheet),
        "low_health_penalty": -2 if low_health(sheet) else 0,
        "carry_capacity": capacity(sheet, options),
        "load": load(sheet),
        "encumbrance": enc,
        "overload_penalty": -2 if enc == "overloaded" else 0,
        "speed_factor": 0.5 if enc == "overloaded" else 1,
        "regeneration_blocked": regen_blocked(table, sheet),
        # spec 4.14: narrative hooks the server can compute once the GM set the location's Ether.
        "ether_sight": has_ability(sheet, "ether_sight") and ether is not None and ether_index(ether) >= 2,
        "levitation_possible": has_ability(sheet, "levitation") and ether is not None and ether_index(ether) >= 3,
    }
