"""Iskra on a run-out deadline (spec 4.12-4.13): a turn ends, an unanswered reaction is not taken, a rolled
test stands and incoming Wounds are taken as they are. A test not yet rolled, a recovery test and every
other wait go to the GM, since the rules roll no die a player did not ask for."""

from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind, waited_as

TURN = {"end_turn"}
REACTIONS = {"dodge", "use_ready"}


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    return waited_as(entry, TURN)


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    may, cid = entry["may"], entry["character_id"]
    if "end_turn" in may:
        return {"type": "end_turn", "participant_id": cid}
    if "dodge" in may:
        return {"type": "dodge", "choice": "none"}  # L181: a dodge is declared, never assumed
    if "use_ready" in may:
        return {"type": "use_ready", "character_id": cid, "execute": False}  # L170 "may, need not"
    if "accept_damage" in may:
        return {"type": "accept_damage"}
    if "accept_test" in may:
        return {"type": "accept_test"}
    return None
