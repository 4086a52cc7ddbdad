"""Step Dice on a run-out deadline: an open player turn ends (seed §5.2: the player phase goes on with the
others). A turn not yet begun, and a pending benefit or armour choice, have no default in the rules: the GM
decides. A granted advancement is never a wait (`advance` blocks nothing), so it is not timed."""

from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind, waited_as


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    return waited_as(entry, {"begin_turn", "end_turn"}, {"choose_benefit", "choose_armor"})


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    if "end_turn" in entry["may"]:
        return {"type": "end_turn", "character_id": entry["character_id"]}
    return None
