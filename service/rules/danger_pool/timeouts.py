"""Danger Pool on a run-out deadline: an absent leader's first action is waived (A46: so an absent leader
never blocks play), a round's action is passed where the campaign allows passing (A41), and at a round's end
the scene continues (the leader did not bail out, §4.13). A tie, an extraction and an after-effect are
choices the rules leave to the player: without them, the GM decides."""

from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind, waited_as

TURN = {"declare_action", "waive_first", "pass_turn"}


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    return waited_as(entry, TURN)


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    may, cid = entry["may"], entry["character_id"]
    if "waive_first" in may:
        return {"type": "waive_first", "character_id": cid}
    if "pass_turn" in may:
        return {"type": "pass_turn", "character_id": cid}
    if "continue_scene" in may:
        return {"type": "continue_scene", "character_id": cid}
    return None
