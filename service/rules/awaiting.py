"""Whose move it is, in one shape for every rule system.

Every system's table carries `awaiting`: a list of entries, one per party that must act for play to go on
(the GM, or the player of one character), each with the move types that party may send now. A party that
waits for two reasons at once (its turn, and an advancement it may take) is one entry with the moves of
both: `merged` is that rule, and every engine's awaiting goes through it. The engines
compute it after every move (no clock: engines are pure); the application layer adds `until` when the
campaign keeps turn deadlines, so a client learns from one field who must answer, with what and by when.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class AwaitingEntry(BaseModel):
    """One party the table is waiting for."""

    model_config = ConfigDict(extra="forbid", title="AwaitingEntry")

    who: Literal["gm", "character"] = Field(description="`gm`, or `character` (its player; the GM may act too).")
    character_id: str | None = Field(description="The character whose player must act; null when `who` is `gm`.")
    may: list[str] = Field(description="The move types (`type` of an action) this party may send now.")
    until: str | None = Field(None, description="When this wait ends (ISO 8601, UTC) if the campaign keeps turn "
                                                "deadlines; null otherwise.")


def gm(*may: str) -> dict[str, Any]:
    return {"who": "gm", "character_id": None, "may": list(may)}


def character(character_id: str, *may: str) -> dict[str, Any]:
    return {"who": "character", "character_id": character_id, "may": list(may)}


def merged(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per party, in the order parties first appear, with each party's moves in first-seen order."""
    out: dict[tuple[str, str | None], dict[str, Any]] = {}
    for entry in entries:
        key = (entry["who"], entry["character_id"])
        if key not in out:
            out[key] = {**entry, "may": list(entry["may"])}
            continue
        may = out[key]["may"]
        may.extend(m for m in entry["may"] if m not in may)
    return list(out.values())
