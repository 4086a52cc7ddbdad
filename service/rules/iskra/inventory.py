"""Carrying (spec 4.11; L130–L134, §2.3 Waga) and Efficiency's halved Resources (L290, 7-B39)."""

from __future__ import annotations

import math
from typing import Any

from service.i18n.message import _
from service.rules.iskra import derived, guards
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import IskraItemChanged, IskraItemTransferred, IskraResourcesUsed


def _find(sheet: dict[str, Any], item_id: str) -> dict[str, Any]:
    item = next((i for i in sheet["inventory"] if i["item_id"] == item_id), None)
    if item is None:
        raise violation("unknown_item", _("no item {item_id} on this sheet", item_id=item_id), "item_id")
    return item


def _next_id(sheet: dict[str, Any]) -> str:
    used = [int(i["item_id"][1:]) for i in sheet["inventory"] if i["item_id"][1:].isdigit()]
    return f"i{max(used, default=0) + 1}"


def _fits(ctx: Ctx, cid: str, sheet: dict[str, Any], extra: int, field: str) -> None:
    """Invariant 4: the load never exceeds twice the capacity (L134 'maksymalnie dwukrotnie')."""
    if derived.encumbrance(sheet, ctx.options, extra) == "over_limit":
        cap = derived.capacity(sheet, ctx.options)
        raise violation(
            "over_carry_limit",
            _(
                "{cid} can carry at most {value} (capacity {cap}); the load would be {load} (L134)",
                cid=cid,
                value=2 * cap,
                cap=cap,
                load=derived.load(sheet) + extra,
            ),
            field,
        )


def _report(ctx: Ctx, cid: str, sheet: dict[str, Any]) -> dict[str, Any]:
    return {"character_id": cid, "load": derived.load(sheet), "encumbrance": derived.encumbrance(sheet, ctx.options)}


def add_item(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    guards.gm_field(ctx, "wounds", a.wounds is not None)  # 7-B30: weapon Wounds are the GM's
    guards.gm_field(ctx, "protects_from_temperature", a.protects_from_temperature)
    if a.weight > 2 and not ctx.actor.is_gm:
        # L319: lifting Weight > 2 is impossible or needs a Strength test; the GM rules which (7-B22).
        raise violation("heavy_item_requires_gm", _("items heavier than 2 are lifted only as the GM rules"), "weight")
    if a.carried:
        _fits(ctx, a.character_id, sheet, a.weight, "weight")
    item = {
        "item_id": _next_id(sheet),
        "name": a.name,
        "weight": a.weight,
        "carried": a.carried,
        "wounds": a.wounds,
        "protects_from_temperature": a.protects_from_temperature,
    }
    sheet["inventory"].append(item)
    ctx.emit("item_added", IskraItemChanged(**_report(ctx, a.character_id, sheet), item=item))


def set_carried(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    item = _find(sheet, a.item_id)
    if a.carried and not item["carried"]:
        _fits(ctx, a.character_id, sheet, item["weight"], "item_id")
    item["carried"] = a.carried
    ctx.emit(
        "item_carried" if a.carried else "item_set_down",
        IskraItemChanged(**_report(ctx, a.character_id, sheet), item_id=a.item_id),
    )


def drop_item(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    item = _find(sheet, a.item_id)
    sheet["inventory"].remove(item)
    ctx.emit("item_dropped", IskraItemChanged(**_report(ctx, a.character_id, sheet), item=item))


def transfer_item(ctx: Ctx, a: Any) -> None:
    sheet = guards.acting(ctx, a.character_id)
    item = _find(sheet, a.item_id)
    other = guards.alive(ctx, a.to_character_id, "to_character_id")
    _fits(ctx, a.to_character_id, other, item["weight"], "to_character_id")
    sheet["inventory"].remove(item)
    moved = {**item, "item_id": _next_id(other), "carried": True}
    other["inventory"].append(moved)
    ctx.emit(
        "item_transferred",
        IskraItemTransferred(
            from_=_report(ctx, a.character_id, sheet),
            to=_report(ctx, a.to_character_id, other),
            item=moved,
            old_item_id=a.item_id,
        ),
    )


def use_resources(ctx: Ctx, a: Any) -> None:
    """Resources are undefined (§2.4 missing): the server only computes Efficiency's halved cost."""
    sheet = guards.acting(ctx, a.character_id)
    cost = a.base_cost
    if derived.has_ability(sheet, "efficiency"):
        half = a.base_cost / 2
        cost = math.ceil(half) if ctx.options.efficiency_rounding == "ceil" else math.floor(half)
    ctx.emit(
        "resources_used",
        IskraResourcesUsed(character_id=a.character_id, base_cost=a.base_cost, cost=cost, description=a.description),
    )
