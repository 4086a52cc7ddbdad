"""Acquiring an ability, at creation or with XP (spec 3.4, 4.10): level order, repeats, Glory gates."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra.catalogue import TRAIT_IDS, abilities
from service.rules.iskra.errors import violation
from service.rules.iskra.options import Options


def acquire(
    options: Options,
    owned: list[dict[str, Any]],
    ability_id: str,
    level: int,
    param: str | None,
    glory: int,
    source: str,
    field: str,
) -> dict[str, Any]:
    """The entry to append, or a RuleViolation saying which ability rule forbids it."""
    if ability_id in TRAIT_IDS:
        raise violation(
            "ability_not_available",
            _(
                "{ability_id} is a species trait; it comes with the "
                "species and is never picked or bought (spec 4.10.3)",
                ability_id=ability_id,
            ),
            field,
        )
    catalogue = abilities(options)
    if ability_id not in catalogue:
        raise violation(
            "unknown_ability",
            _(
                "no ability {ability_id!r} in this campaign's catalogue ({catalogue})",
                ability_id=ability_id,
                catalogue=", ".join(sorted(catalogue)),
            ),
            field,
        )
    spec = catalogue[ability_id]
    if not 1 <= level <= spec["max_level"]:
        raise violation(
            "ability_level_order",
            _("{ability_id} has levels 1–{max_level}", ability_id=ability_id, max_level=spec["max_level"]),
            field,
        )
    if level > 1 and not any(a["ability_id"] == ability_id and a["level"] == level - 1 for a in owned):
        raise violation(
            "ability_level_order",
            _(
                "level {level} of {ability_id} needs level {value} first (7-B19, L281)",
                level=level,
                ability_id=ability_id,
                value=level - 1,
            ),
            field,
        )
    if spec["repeatable"]:
        if not param:
            raise violation(
                "ability_param_required",
                _("{ability_id} is taken for something named, e.g. the language (L291)", ability_id=ability_id),
                field,
            )
        if any(a["ability_id"] == ability_id and (a.get("param") or "").casefold() == param.casefold() for a in owned):
            raise violation(
                "duplicate_ability",
                _(
                    "{ability_id} ({param}) is already known; each repeat names a new one (7-B41)",
                    ability_id=ability_id,
                    param=param,
                ),
                field,
            )
    elif any(a["ability_id"] == ability_id and a["level"] == level for a in owned):
        raise violation(
            "duplicate_ability",
            _("{ability_id} level {level} is already owned", ability_id=ability_id, level=level),
            field,
        )
    if glory < spec["glory_required"]:
        raise violation(
            "glory_too_low",
            _(
                "{ability_id} needs Glory {glory_required} (L122)",
                ability_id=ability_id,
                glory_required=spec["glory_required"],
            ),
            field,
        )
    return {"ability_id": ability_id, "level": level, "source": source, "param": param if spec["repeatable"] else None}
