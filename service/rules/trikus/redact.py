"""What each viewer may not see (spec 8.2): hidden item traits, dark sides under optional rule 2,
unnoticed booms, and (optionally) other players' dark-token counts."""

from __future__ import annotations

from typing import Any


def dark_sides(sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Optional rule 2 (L258): the GM knows that a dark side exists and who wrote it, not its text,
    until it is acted out."""
    return [
        s if s.get("revealed") else {"hidden": True, "authored_by": s.get("authored_by"), "revealed": False}
        for s in sides
    ]


def dark_counts(tokens: dict[str, Any]) -> dict[str, Any]:
    """A38 option: every count goes, not only `active`, which is received − used − forfeited."""
    return {k: None for k in tokens}


def item(it: dict[str, Any]) -> dict[str, Any]:
    """A pip the owner has not discovered shows as a pip, nothing more (L402)."""
    return {
        **it,
        "traits": [t if t["known_to_owner"] else {"kind": "unknown", "known_to_owner": False} for t in it["traits"]],
    }
