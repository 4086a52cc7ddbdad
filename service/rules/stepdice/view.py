"""What each role may see (spec 8). The GM sees everything; players lose the GM-only parts."""

from __future__ import annotations

from typing import Any

from service.rules.base import Actor
from service.rules.move import hide_id_secrets
from service.rules.stepdice.awaiting import compute
from service.rules.stepdice.options import Options
from service.rules.stepdice.enemies import public
from service.rules.jsoncopy import json_copy


def view(state: dict[str, Any], actor: Actor) -> dict[str, Any]:
    out = json_copy(state)
    if "table" in out and "awaiting" not in out["table"]:
        # A table stored before `awaiting` was kept gets it here, until its next move stores it.
        out["table"]["awaiting"] = compute(out, Options.model_validate(out.get("options") or {}))
    if actor.is_gm:
        return out
    table = hide_id_secrets(out.get("table") or {})
    enc = table.get("encounter")
    if enc:
        enc["enemies"] = {eid: public(e) for eid, e in enc.get("enemies", {}).items()}
    if "clocks" in table:
        table["clocks"] = {cid: c for cid, c in table["clocks"].items() if c.get("visible_to_players")}
    if table.get("pending"):
        table["pending"].pop("planned_complication", None)
    return out
