"""Validating what was declared for a test before anything is consumed (spec 5.1 `declared` → `ready`)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.stepdice import guards
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.fields import RollFields
from service.rules.stepdice.events_model import StepDiceHelpTokenEvent


def roll_fields(ctx: Ctx, a: RollFields, sheet: dict[str, Any]) -> list[str]:
    """GM-only switches and Talents; returns the accepted Talents as written on the sheet."""
    if a.on_near_certain == "skip_roll":
        guards.gm_only(ctx, "on_near_certain", _("only the GM declares a success without a roll (seed §3.5)"))
    if not a.advance_clocks:
        guards.gm_only(ctx, "advance_clocks", _("only the GM excludes a test from the clocks (spec 7-A46)"))
    if a.planned_complication is not None:
        guards.gm_only(ctx, "planned_complication", _("planned complications are the GM's notes"))
    if not a.talents:
        return []
    guards.option(ctx, "use_talents", "talents")
    limit = ctx.options.max_talents_per_test
    if len(a.talents) > limit or len({t.casefold() for t in a.talents}) != len(a.talents):
        raise violation(
            "too_many_talents",
            _n(
                "at most {limit} different Talent counts for one test (seed §2.4)",
                "at most {limit} different Talents count for one test (seed §2.4)",
                limit,
                limit=limit,
            ),
            "talents",
        )
    own = {t.casefold(): t for t in sheet.get("talents", [])}
    for t in a.talents:
        if t.casefold() not in own:
            raise violation(
                "unknown_talent", _("{character_id} has no Talent {t!r}", character_id=a.character_id, t=t), "talents"
            )
    return [own[t.casefold()] for t in a.talents]


def helpers(ctx: Ctx, actor_id: str, helper_ids: list[str], in_combat: bool) -> list[str]:
    """Out-of-combat help (seed §3.6): active allies, not the actor, at most `max_helpers_per_test`."""
    if not helper_ids:
        return []
    if in_combat:
        raise violation(
            "help_in_combat_uses_action",
            _("in combat an ally helps with the `help` action in their own turn (seed §3.6, spec 7-A12)"),
            "helper_ids",
        )
    limit = ctx.options.max_helpers_per_test
    if len(helper_ids) > limit or len(set(helper_ids)) != len(helper_ids):
        raise violation(
            "too_many_helpers",
            _n(
                "at most {limit} helper per test (seed §3.6)",
                "at most {limit} different helpers per test (seed §3.6)",
                limit,
                limit=limit,
            ),
            "helper_ids",
        )
    for h in helper_ids:
        if h == actor_id:
            raise violation("cannot_help_self", _("a character cannot help their own test"), "helper_ids")
        guards.active(ctx, h, "helper_ids")
    return list(helper_ids)


def tokens(ctx: Ctx, actor_id: str, slot: dict[str, Any] | None, use: bool) -> list[dict[str, Any]]:
    if slot is None or not use:
        return []
    return [t for t in ctx.running()["help_tokens"] if t["target_character_id"] == actor_id]


def consume_tokens(ctx: Ctx, used: list[dict[str, Any]], test_id: str) -> None:
    if not used:
        return
    enc = ctx.running()
    enc["help_tokens"] = [t for t in enc["help_tokens"] if t not in used]
    for t in used:
        ctx.emit("help_token_consumed", StepDiceHelpTokenEvent(**t, test_id=test_id))
