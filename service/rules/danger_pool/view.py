"""What each role may see (spec §3.4, §8, A43): the danger pool is public; elements stay GM-only until
used; GM notes are GM-only; a betrayer's plan is known to the GM and that player only (§4.15.3)."""

from __future__ import annotations

from typing import Any

from service.rules.base import Actor
from service.rules.move import hide_id_secrets
from service.rules.danger_pool.lifecycle import public_scene
from service.rules.jsoncopy import json_copy


def view(state: dict[str, Any], actor: Actor) -> dict[str, Any]:
    out = json_copy(state)
    if actor.is_gm:
        return out
    table = hide_id_secrets(out.get("table") or {})
    for key in ("scene", "last_scene"):
        if table.get(key) and table[key].get("kind") == "action":
            table[key] = public_scene(table[key])
    table["gm_notes"] = []
    for cid, sheet in (out.get("characters") or {}).items():
        if sheet.get("traitor_plan") is not None and not actor.controls(cid):
            sheet["traitor_plan"] = None
    return out
