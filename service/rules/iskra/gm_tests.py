"""The GM's side of a test (spec 4.1, 5.1 `built`): calling for one and settling its modifiers before the roll."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import checks, guards, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.events_model import IskraTestEvent
from service.rules.iskra.errors import violation


def _helpers(ctx: Ctx, cid: str, helpers: list[Any]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    for i, h in enumerate(helpers):
        guards.alive(ctx, h.character_id, f"helpers[{i}].character_id")
        if h.character_id == cid:
            raise violation(
                "cannot_help_self", _("a character cannot help their own test (L165)"), f"helpers[{i}].character_id"
            )
        if h.character_id in seen:
            raise violation(
                "already_helping",
                _("{character_id} is listed twice", character_id=h.character_id),
                f"helpers[{i}].character_id",
            )
        seen.add(h.character_id)
    return [h.model_dump() for h in helpers]


def open_test(ctx: Ctx, a: Any) -> None:
    """Whether to test is the GM's call (L22, spec 4.1); in combat a test is a Major by default (spec 4.12.3)."""
    guards.no_pending(ctx)
    guards.alive(ctx, a.character_id)
    helpers = _helpers(ctx, a.character_id, a.helpers)
    if helpers and ctx.participant(a.character_id) is not None:
        raise violation(
            "option_disabled",
            _(
                "in combat Help is the helper's Major Action and gives "
                "a help token (7-B25); send help in the helper's turn"
            ),
            "helpers",
        )
    t = checks.build(
        ctx,
        a.character_id,
        a.attribute,
        "general",
        context=a.context,
        detect_target_id=a.detect_target_id,
        gm_modifiers=[m.model_dump() for m in a.modifiers],
        predispositions=a.predispositions,
        weaknesses=a.weaknesses,
        helpers=helpers,
        intent=a.intent,
    )
    if a.action_cost != "none":
        turns.spend(ctx, a.character_id, a.action_cost)
    checks.open_test(ctx, t)


def adjust_test(ctx: Ctx, a: Any) -> None:
    """The GM confirms topics and situational modifiers until the die is thrown (spec 5.1 built → pre_roll)."""
    t = checks.active(ctx, a.test_id)
    checks.stage(t, "pre_roll", "dodge_declaration")
    sheet = ctx.characters[t["character_id"]]
    if a.predispositions is not None:
        checks.check_trait_indices(sheet, "predispositions", a.predispositions)
        t["predispositions"] = sorted(set(a.predispositions))
    if a.weaknesses is not None:
        checks.check_trait_indices(sheet, "weaknesses", a.weaknesses)
        t["weaknesses"] = sorted(set(a.weaknesses))
    t["gm_modifiers"] += [m.model_dump() for m in a.add_modifiers]
    if a.wounds is not None or a.critical_bonus_wounds is not None:
        if t["attack"] is None:
            raise violation("wounds_required", _("Wounds belong to attack tests"), "wounds")
        if a.wounds is not None:
            t["attack"]["wounds"] = a.wounds
        if a.critical_bonus_wounds is not None:
            t["attack"]["critical_bonus_wounds"] = a.critical_bonus_wounds
    checks.recompute(ctx, t)
    checks.emit_test(ctx, "test_adjusted", IskraTestEvent, t)
