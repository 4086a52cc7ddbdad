"""What each role may see (spec 8). The GM sees everything plus derived values; players lose GM-only parts:
NPC numbers, hidden modifiers, others' Ready triggers, true Ether levels and exposure flags."""

from __future__ import annotations

from typing import Any

from service.rules.base import Actor
from service.rules.move import hide_id_secrets
from service.rules.iskra import checks, derived
from service.rules.iskra.options import Options
from service.rules.jsoncopy import json_copy

NPC_SECRET = ("attributes", "health", "health_max", "focus_points", "focus_max", "recovery", "xp", "xp_earned_total")


def _derived(out: dict[str, Any], options: Options) -> None:
    table = out.get("table") or {}
    table.setdefault("locations", {})
    out["derived"] = {
        cid: derived.summary(table, s, options) for cid, s in out.get("characters", {}).items() if "attributes" in s
    }


def _test(t: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if t is None else checks.public(t)


def view(state: dict[str, Any], actor: Actor) -> dict[str, Any]:
    out = json_copy(state)
    options = Options.model_validate(out.get("options") or {})
    if actor.is_gm:
        _derived(out, options)
        return out
    for cid, sheet in out.get("characters", {}).items():
        if sheet.get("controller") == "gm" and not actor.controls(cid):
            for key in NPC_SECRET:
                sheet.pop(key, None)
    table = hide_id_secrets(out.get("table") or {})
    pending = table.get("pending")
    if pending is not None:
        if pending.get("kind") == "test":
            table["pending"] = _test(pending)
        elif pending.get("dodge_test") is not None:
            pending["dodge_test"] = _test(pending["dodge_test"])
    table["last_test"] = _test(table.get("last_test"))
    enc = table.get("encounter")
    if enc:
        enc["ready"] = {
            pid: (r if r is None or actor.controls(pid) else {"readied": True, "created_round": r["created_round"]})
            for pid, r in enc.get("ready", {}).items()
        }
    mine = set(actor.character_ids)
    for loc in table.get("locations", {}).values():
        if not mine & set(loc.get("ether_known_by", [])):
            loc["ether_concentration"] = None  # revealed only through a Human's Ether Sense (L207)
    table["ether_exposure"] = []
    _derived(out, options)
    for cid in list(out["derived"]):
        for key in ("regeneration_blocked", "ether_sight", "levitation_possible"):
            out["derived"][cid].pop(key, None)  # they would leak the hidden location data
    return out
