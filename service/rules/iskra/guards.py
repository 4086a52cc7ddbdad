"""Checks shared by many moves. Each raises a RuleViolation naming the rule; none changes state."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.base import gm_only, not_your_character
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation


def encounter(ctx: Ctx) -> dict[str, Any]:
    """The running combat; a move that belongs to one is refused without it."""
    enc = ctx.encounter
    if enc is None:
        raise violation("no_combat", _("no combat is running"))
    return enc


def alive(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    """Invariant 3 (spec 3.2): a dead character accepts no actions, tests or resource changes."""
    sheet = ctx.sheet(cid, field)
    if sheet["status"] == "dead":
        raise violation("character_dead", _("{cid} is dead; death is final (L66)", cid=cid), field)
    return sheet


def acting(ctx: Ctx, cid: str, field: str = "character_id") -> dict[str, Any]:
    """An alive character a player may act for: controlled, and approved when the campaign asks (7-B2)."""
    sheet = alive(ctx, cid, field)
    if not ctx.actor.controls(cid):
        raise not_your_character(_("a player acts only for their own characters, not {cid}", cid=cid), field=field)
    if not ctx.actor.is_gm and ctx.options.character_approval_required and not sheet.get("approved"):
        raise violation("character_not_approved", _("the GM has not approved {cid}'s sheet yet (7-B2)", cid=cid), field)
    return sheet


def owner(ctx: Ctx, cid: str, field: str | None = None) -> None:
    if not ctx.actor.controls(cid):
        raise not_your_character(_("only the GM or the player of {cid} decides this", cid=cid), field=field)


def gm_field(ctx: Ctx, field: str, used: bool) -> None:
    if used and not ctx.actor.is_gm:
        raise gm_only(_("only the GM may set {field}", field=field), field=field)


def option(ctx: Ctx, name: str, field: str | None = None) -> None:
    if not getattr(ctx.options, name):
        raise violation("option_disabled", _("this campaign plays without it ({name} is off)", name=name), field)


def no_pending(ctx: Ctx) -> None:
    p = ctx.table["pending"]
    if p is not None:
        raise violation(
            "pending_first",
            _("finish the pending {kind} {id} first (spec 5.1, 5.2)", kind=p["kind"], id=p["id"]),
            "type",
        )


def between_sessions(ctx: Ctx) -> None:
    if ctx.table["session"]["state"] != "between_sessions":
        raise violation("not_between_sessions", _("XP is spent only between sessions (L100)"))
