"""Step Dice on a run-out deadline: an open player turn ends (spec 4.9, the player phase goes on with the
others). A turn not yet begun, and every pending choice (a benefit, armour, a consequence), have no default in
the rules: the GM decides."""
from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind

TURN = {"begin_turn", "end_turn"}


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    if entry["who"] != "character":
        return None
    return "turn" if TURN & set(entry["may"]) else "choice"


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    if "end_turn" in entry["may"]:
        return {"type": "end_turn", "character_id": entry["character_id"]}
    return None
