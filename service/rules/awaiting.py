"""Whose move it is, in one shape for every rule system.

Every system's table carries `awaiting`: a list of entries, one per party that must act for play to go on
(the GM, or the player of one character), each with the move types that party may send now. A party that
waits for two reasons at once (its turn, and an advancement it may take) is one entry with the moves of
both: `merged` is that rule, and every engine's awaiting goes through it. The engines
compute it after every move (no clock: engines are pure); the application layer adds `until` when the
campaign keeps turn deadlines, so a client learns from one field who must answer, with what and by when.
"""

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class AwaitingMove(BaseModel):
    """One move of `may` under the name each transport gives it."""

    model_config = ConfigDict(extra="forbid", title="AwaitingMove")

    type: str = Field(description="The REST action's `type` (the discriminator of the system's action schema).")
    graphql_field: str = Field(description="The field of the system's `ActionInput` that makes it in GraphQL.")


def graphql_field(move_type: str) -> str:
    """A move's field in GraphQL's `@oneOf` action input: its `type` in lower camel case (`start_scene`:
    `startScene`)."""
    first, *rest = move_type.split("_")
    return first + "".join(p[:1].upper() + p[1:] for p in rest)


def with_moves(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "moves": [{"type": t, "graphql_field": graphql_field(t)} for t in entry["may"]]}


class AwaitingEntry(BaseModel):
    """One party the table is waiting for."""

    model_config = ConfigDict(extra="forbid", title="AwaitingEntry")

    who: Literal["gm", "character"] = Field(description="`gm`, or `character` (its player; the GM may act too).")
    character_id: str | None = Field(description="The character whose player must act; null when `who` is `gm`.")
    may: list[str] = Field(description="The move types (`type` of an action) this party may send now.")
    until: str | None = Field(
        None, description="When this wait ends (ISO 8601, UTC) if the campaign keeps turn deadlines; null otherwise."
    )
    moves: list[AwaitingMove] | None = Field(
        None,
        description="`may` with each move's REST `type` and GraphQL "
        "`ActionInput` field (added by the service to every "
        "table it sends).",
    )


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


def offers(
    awaiting: list[dict[str, Any]],
    character_ids: list[str],
    open_gm: tuple[str, ...],
    open_player: tuple[str, ...],
    more: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """Every move each party may send now: what `awaiting` asks of it, and the moves its system leaves open
    outside any wait (`open_gm`; `open_player` for every character's player), which the engine still checks
    on their details, and `more`: entries a system offers beyond both (moves that depend on the table but are
    not waited for). A move the engine accepts from a party is always here (the engine tests check it after
    every move); one here may still be refused (a soak without a wound). Unlike `awaiting`, nobody is waited
    for, so no deadline runs on these."""
    parties: dict[tuple[str, str | None], list[str]] = {("gm", None): []}
    for entry in [*awaiting, *more]:
        parties.setdefault((entry["who"], entry.get("character_id")), []).extend(entry["may"])
    parties[("gm", None)].extend(open_gm)
    for cid in character_ids:
        parties.setdefault(("character", cid), []).extend(open_player)
    return [
        {"who": who, "character_id": cid, "may": list(dict.fromkeys(may))} for (who, cid), may in parties.items() if may
    ]


def with_offers(
    view: dict[str, Any], open_gm: tuple[str, ...], open_player: tuple[str, ...], more: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """A system's view with `table.offers` (see `offers`)."""
    table = view.get("table")
    if not isinstance(table, dict):
        return view
    # New dicts: a view may share its own with the state it was made from. (A table stored before `awaiting`
    # existed gets it on its next move; until then only the open moves are offered.)
    return {
        **view,
        "table": {
            **table,
            "offers": offers(
                table.get("awaiting") or [], list(view.get("characters") or {}), open_gm, open_player, more
            ),
        },
    }
