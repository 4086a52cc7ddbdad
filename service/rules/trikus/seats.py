"""Seat order (spec 3.3: `members`, "seat order = array order", used for tie-breaks): the order characters
joined the table, not the order of their random ids. The application layer adds a new character to the
state's characters at the end, so a character not yet seated takes the next seat in that order; once seated,
a character keeps its seat however the mapping is ordered later."""

from __future__ import annotations

from typing import Any


def order(state: dict[str, Any]) -> list[str]:
    """Every character of the table, seated ones first in their seats, then newcomers as they were added."""
    chars = state.get("characters") or {}
    seated = [cid for cid in (state.get("table") or {}).get("seats", []) if cid in chars]
    return seated + [cid for cid in chars if cid not in seated]
