"""The state as one actor may see it (spec 8.2)."""

from __future__ import annotations

from typing import Any

from service.rules.base import Actor
from service.rules.move import hide_id_secrets
from service.rules.trikus import redact, seats
from service.rules.trikus.constants import TIERS
from service.rules.trikus.options import Options
from service.rules.trikus.sheet import exhausted
from service.rules.jsoncopy import json_copy


def _sheet(sheet: dict[str, Any], cid: str, actor: Actor, options: Options) -> dict[str, Any]:
    out = json_copy(sheet)
    if actor.is_gm:
        if options.opt2_gm_blind_to_dark_sides:
            out["dark_sides"] = redact.dark_sides(out["dark_sides"])  # L258: hidden from the GM
        return out
    out["equipment"] = [redact.item(it) for it in out.get("equipment", [])]  # L402: undiscovered pips
    if options.hide_dark_counts_from_other_players and not actor.controls(cid):
        out["dark_tokens"] = redact.dark_counts(out["dark_tokens"])  # A38 option
    return out


def _activity(act: dict[str, Any] | None, actor: Actor, options: Options) -> dict[str, Any] | None:
    if act is None or act.get("contest") is None:
        return act
    out = json_copy(act)
    if not actor.is_gm and options.boom_visibility == "players_must_notice":
        b = out["contest"]["boom"]
        # Players must notice triples themselves (L356, A42); they see only what has been claimed.
        b["seen"] = b["available"] = [cl["value"] for cl in b["claims"]]
    return out


def party(state: dict[str, Any]) -> dict[str, Any]:
    """L21: one character of each tier is the intended party; other compositions only warn (spec 3.3)."""
    members = [cid for cid in seats.order(state) if state["characters"][cid].get("status") == "active"]
    counts = {t: sum(1 for c in members if state["characters"][c]["tier"] == t) for t in TIERS}
    return {
        "members": members,
        "composition": counts,
        "composition_ok": all(n == 1 for n in counts.values()),
        "exhausted": {c: exhausted(state["characters"][c]) for c in members},
    }


def view(state: dict[str, Any], actor: Actor) -> dict[str, Any]:
    options = Options.model_validate(state.get("options") or {})
    chars = state.get("characters", {})
    table = json_copy(state.get("table") or {})
    table["activity"] = _activity(table.get("activity"), actor, options)
    if not actor.is_gm:
        table["gm_notes"] = []  # spec 8.2: GM's private notes
        hide_id_secrets(table)
    return {
        "options": options.model_dump(mode="json"),
        "characters": {cid: _sheet(s, cid, actor, options) for cid, s in chars.items()},
        "table": table,
        "party": party({"characters": chars, "table": table}),
    }
