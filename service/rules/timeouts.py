"""What a rule system allows when a player lets a turn or a pending choice run out (turn deadlines).

Each system has a `timeouts` module with two pure functions over the table and one awaiting entry:
`kind(table, entry)` says whether the wait is a `turn`, a pending `choice`, or not timed at all (None), and
`default(table, entry)` gives the action the rules allow without the player, or None when the rules have no
default and the wait passes to the GM. No clock here: the application layer keeps time.
"""

from __future__ import annotations

from typing import Any, Literal

Kind = Literal["turn", "choice"]


def normalized(entry: dict[str, Any]) -> dict[str, Any]:
    """An awaiting entry in the shared shape, also from engines that still write `who` as a character id."""
    who = entry.get("who")
    if who in ("gm", "character"):
        return {"who": who, "character_id": entry.get("character_id"), "may": list(entry.get("may") or [])}
    return {"who": "character", "character_id": who, "may": list(entry.get("may") or [])}


def first(may: list[str], *choices: str) -> str | None:
    return next((m for m in choices if m in may), None)


def waited_as(entry: dict[str, Any], turn: set[str], choice: set[str] | None = None) -> Kind | None:
    """What a system's `kind` answers for most waits: a character that may send one of `turn` is on its turn;
    otherwise it owes a choice (any wait, or only one that may send one of `choice`). The GM is never timed."""
    if entry["who"] != "character":
        return None
    may = set(entry["may"])
    if may & turn:
        return "turn"
    return "choice" if choice is None or may & choice else None
