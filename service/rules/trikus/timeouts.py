"""Trikus on a run-out deadline: an absent player's die is thrown for them (spec 5.0: a logged throw for an
absent player), a round's pool is declared as it stands without extras, a last chance is passed (A13), a
team success is kept, and a lost line is the one with most dice (A17). Joining a test, the team's
declarations and a negotiation answer have no default: the GM decides."""

from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind, waited_as

TURN = {"throw", "declare_round", "attack", "defend"}


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    return waited_as(entry, TURN)


def _lost_line(table: dict[str, Any], cid: str) -> int | None:
    act = table.get("activity") or {}
    choice = next((c for c in act.get("line_choices") or [] if c["character_id"] == cid), None)
    # The candidates come ordered most dice first (lines.pick_lost_line).
    return choice["candidates"][0] if choice and choice["candidates"] else None


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    may, cid = entry["may"], entry["character_id"]
    if "throw" in may:
        return {"type": "throw", "character_id": cid}
    if "declare_round" in may:
        return {"type": "declare_round", "character_id": cid}
    if "pass_last_chance" in may:
        return {"type": "pass_last_chance", "character_id": cid}
    if "keep_success" in may:
        return {"type": "keep_success", "character_id": cid}
    if "choose_lost_line" in may:
        line = _lost_line(table, cid)
        return None if line is None else {"type": "choose_lost_line", "character_id": cid, "line_index": line}
    return None
