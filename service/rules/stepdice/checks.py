"""Attribute tests (seed §3): a PC's own `test`, and the enemy-phase `call_test` (spec 4.8.7)."""

from __future__ import annotations

from typing import Any

from service.rules.stepdice import declare, guards, pending, resolve
from service.rules.stepdice.actions_gm import StepDiceCallTest
from service.rules.stepdice.actions_player import StepDiceTest
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.ladder import FAILED


def _signature(ctx: Ctx, d: resolve.Declared) -> dict[str, Any]:
    scene = ctx.table["scene"]
    return {
        "scene_id": scene["id"] if scene else None,
        "character_id": d.character_id,
        "attribute": d.attribute,
        "base_tn": d.base_tn,
        "steps": sorted([s["source"].casefold(), s["delta"]] for s in d.steps),
    }


def _repeat_warning(ctx: Ctx, d: resolve.Declared, justification: str | None) -> dict[str, Any] | None:
    """§3.7 / 7-A49: the server cannot judge whether the situation changed, so it warns and never refuses."""
    if _signature(ctx, d) not in ctx.table["failed_tests"]:
        return None
    return {
        "code": "repeated_test",
        "justification": justification,
        "detail": "the same test failed earlier in this scene; repeat it only if the situation changed (seed §3.7)",
    }


def test(ctx: Ctx, a: StepDiceTest) -> None:
    cid = a.character_id
    sheet = guards.active(ctx, cid)
    slot = ctx.slot(cid)
    if slot is not None:
        guards.turn(ctx, cid)  # in combat a test is the turn's Action (§5.3)
    talents = declare.roll_fields(ctx, a, sheet)
    helpers = declare.helpers(ctx, cid, a.helper_ids, slot is not None)
    tokens = declare.tokens(ctx, cid, slot, a.use_help_token)
    d = resolve.Declared(
        kind="test",
        character_id=cid,
        attribute=a.attribute,
        base_tn=a.base_tn,
        steps=[s.model_dump() for s in a.steps],
        talents=talents,
        on_near_certain=a.on_near_certain,
        on_near_impossible=a.on_near_impossible,
        helper_ids=helpers,
        tokens=tokens,
        intent=a.intent,
        advance_clocks=a.advance_clocks,
        planned_complication=a.planned_complication,
    )
    plan = resolve.plan(ctx, d)
    d.context["warning"] = _repeat_warning(ctx, d, a.repeat_justification)

    def commit(test_id: str) -> None:
        guards.spend_action(ctx, cid, slot)
        declare.consume_tokens(ctx, tokens, test_id)

    test_id, outcome = resolve.roll(ctx, d, plan, commit)
    if outcome is None:
        return
    if outcome in FAILED:
        sig = _signature(ctx, d)
        if sig not in ctx.table["failed_tests"]:
            ctx.table["failed_tests"].append(sig)
    pending.after_roll(ctx, pending.base(ctx, test_id, "test", cid, outcome, a.planned_complication), outcome)


def call_test(ctx: Ctx, a: StepDiceCallTest) -> None:
    """A test to avoid harm in the enemy phase: no Action, no help token (those belong to the player phase)."""
    sheet = guards.active(ctx, a.character_id)
    guards.member(ctx, a.character_id)
    guards.encounter(ctx, "enemy_phase")
    talents = declare.roll_fields(ctx, a, sheet)
    d = resolve.Declared(
        kind="call_test",
        character_id=a.character_id,
        attribute=a.attribute,
        base_tn=a.base_tn,
        steps=[s.model_dump() for s in a.steps],
        talents=talents,
        on_near_certain=a.on_near_certain,
        on_near_impossible=a.on_near_impossible,
        intent=a.intent,
        advance_clocks=a.advance_clocks,
        planned_complication=a.planned_complication,
        context={"consequence_on_failure": a.consequence_on_failure},
    )
    plan = resolve.plan(ctx, d)
    test_id, outcome = resolve.roll(ctx, d, plan, lambda _id: None)
    if outcome is not None:
        pending.after_roll(
            ctx, pending.base(ctx, test_id, "call_test", a.character_id, outcome, a.planned_complication), outcome
        )
