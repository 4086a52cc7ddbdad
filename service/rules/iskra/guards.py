"""Checks shared by many moves. Each raises a RuleViolation naming the rule; none changes state."""
from __future__ import annotations

from typing import Any

from service.rules.base import gm_only, not_your_character
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation


def alive(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    """Invariant 3 (spec 3.2): a dead character accepts no actions, tests or resource changes."""
    sheet = ctx.sheet(cid, field)
    if sheet["status"] == "dead":
        raise violation("character_dead", f"{cid} is dead; death is final (L66)", field)
    return sheet


def acting(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    """An alive character a player may act for: controlled, and approved when the campaign asks (7-B2)."""
    sheet = alive(ctx, cid, field)
    if not ctx.actor.controls(cid):
        raise not_your_character(f"a player acts only for their own characters, not {cid}", field=field)
    if (not ctx.actor.is_gm and ctx.options.character_approval_required and not sheet.get("approved")):
        raise violation("character_not_approved", f"the GM has not approved {cid}'s sheet yet (7-B2)", field)
    return sheet


def owner(ctx: Ctx, cid: str, field: str | None = None) -> None:
    if not ctx.actor.controls(cid):
        raise not_your_character(f"only the GM or the player of {cid} decides this", field=field)


def gm_field(ctx: Ctx, field: str, used: bool) -> None:
    if used and not ctx.actor.is_gm:
        raise gm_only(f"only the GM may set {field}", field=field)


def option(ctx: Ctx, name: str, field: str | None = None) -> None:
    if not getattr(ctx.options, name):
        raise violation("option_disabled", f"this campaign plays without it ({name} is off)", field)


def no_pending(ctx: Ctx) -> None:
    p = ctx.table["pending"]
    if p is not None:
        raise violation("pending_first", f"finish the pending {p['kind']} {p['id']} first (spec 5.1, 5.2)", "type")


def between_sessions(ctx: Ctx) -> None:
    if ctx.table["session"]["state"] != "between_sessions":
        raise violation("not_between_sessions", "XP is spent only between sessions (L100)")
