"""Action Deck on a run-out deadline: a called character goes on hold (§4.18: it may still act later in the
round, or interrupt), or, where a hold is not allowed (Shaken, Stunned, a turn already under way), the turn
ends (a called character may pass). Among benny-drawn cards the highest is kept (§4.14: "default if no
choice: the highest"). Other choices have no default: the GM decides."""
from __future__ import annotations

from typing import Any

from service.rules.action_deck.cards import highest
from service.rules.timeouts import Kind

TURN = {"hold", "end_turn", "act"}


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    if entry["who"] != "character":
        return None
    return "turn" if TURN & set(entry["may"]) else "choice"


def _candidates(table: dict[str, Any], cid: str) -> list[str]:
    enc = table.get("encounter") or {}
    slot = (enc.get("participants") or {}).get(cid) or {}
    return list(slot.get("candidates") or [])


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    may, cid = entry["may"], entry["character_id"]
    if "hold" in may:
        return {"type": "hold", "character_id": cid}
    if "end_turn" in may:
        return {"type": "end_turn", "character_id": cid}
    if "keep_card" in may:
        cards = _candidates(table, cid)
        return {"type": "keep_card", "character_id": cid, "card": highest(cards)} if cards else None
    return None
