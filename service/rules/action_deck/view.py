"""What each role may see (spec §3.4, §8): nobody sees the undealt order; players never see the GM's
bennies, NPC sheets beyond what the table shows, or the dice and trait dice of NPC tests."""

from __future__ import annotations

from typing import Any

from service.rules.action_deck import surprise
from service.rules.base import Actor
from service.rules.move import hide_id_secrets
from service.rules.jsoncopy import json_copy

PUBLIC_SHEET = ("id", "name", "side", "shaken", "stunned", "eliminated")
PUBLIC_TEST = ("id", "kind", "roller_id", "group", "purpose", "state", "tn", "result", "opposed_id", "role")


def view(state: dict[str, Any], actor: Actor) -> dict[str, Any]:
    out = json_copy(state)
    table = out.get("table") or {}
    deck = table.get("deck")
    if deck is not None:
        # "Undealt deck order: known to nobody, including the GM" (§3.4): only how many cards are left.
        deck["draw_pile_count"] = len(deck.pop("draw_pile", []))
        deck.pop("sealed", None)  # the same order, and the dice that fixed it
    if actor.is_gm:
        return out
    table.pop("gm", None)
    hide_id_secrets(table)
    surprise.redact_view(table)
    rostered = {cid for p in table.get("players", {}).values() for cid in p.get("character_ids", [])}
    hidden = {cid for cid in out.get("characters", {}) if cid not in rostered and not actor.controls(cid)}
    for cid in hidden:
        sheet = out["characters"][cid]
        out["characters"][cid] = {k: sheet.get(k) for k in PUBLIC_SHEET if k in sheet}
    for tid, test in list(table.get("tests", {}).items()):
        if test.get("group") is not None or test.get("roller_id") in hidden:
            table["tests"][tid] = {k: test.get(k) for k in PUBLIC_TEST}
    return out
