"""Resolving one test (spec 4.2 resolve_test, 4.15 resolve_test_d6): band, costs, one die, outcome, record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.i18n.message import _
from service.rules.stepdice import clocks
from service.rules.stepdice.context import Ctx
from service.rules.move import replaced, without
from service.rules.stepdice.events_model import StepDiceTestRecord
from service.rules.stepdice.errors import violation
from service.rules.stepdice.ladder import (
    FACES,
    FAILED,
    NEAR_CERTAIN,
    NEAR_IMPOSSIBLE,
    SUCCESS,
    band_for,
    classify,
    classify_d6,
    step_up,
    variant_band,
)
from service.rules.stepdice.sheet import proficiency


@dataclass
class Declared:
    """Everything the GM settled before the roll (spec 4.16 steps 1–4)."""

    kind: str  # test | attack | cast | call_test
    character_id: str
    attribute: str
    base_tn: int
    steps: list[dict[str, Any]]  # declared plus automatic steps (cover, range, pressure)
    talents: list[str]
    on_near_certain: str = "roll"
    on_near_impossible: str = "roll"
    helper_ids: list[str] = field(default_factory=list)
    tokens: list[dict[str, Any]] = field(default_factory=list)
    intent: str | None = None
    advance_clocks: bool = True
    planned_complication: str | None = None
    context: dict[str, Any] = field(default_factory=dict)
    secret_tn: bool = False  # an attack on an enemy whose TN players do not know yet (spec 8)


def plan(ctx: Ctx, d: Declared) -> dict[str, Any]:
    """The die (after help) and the band; raises before anything is consumed."""
    sheet = ctx.characters[d.character_id]
    helps = len(d.helper_ids) + len(d.tokens)
    step_sum = sum(s["delta"] for s in d.steps)
    talents = len(d.talents)
    if ctx.options.variant_d6_only:
        level = proficiency(sheet, d.attribute)
        # §9.3: help lowers the threshold by 1; a Talent is one step easier.
        band, raw, threshold = variant_band(level, d.base_tn, step_sum - helps - talents)
        plain, _n, _n = variant_band(level, d.base_tn, step_sum - helps)
        return {
            "die": "d6",
            "faces": 6,
            "proficiency": level,
            "band": band,
            "raw_threshold": raw,
            "threshold": threshold,
            "net_steps": step_sum - talents,
            "band_without_talent": plain,
        }
    die = sheet["dice"][d.attribute]
    for _n in range(helps):
        bigger = step_up(die)
        if bigger is None:
            field_ = "helper_ids" if d.helper_ids else "use_help_token"
            raise violation(
                "cannot_help_d20",
                _(
                    "{character_id}'s {attribute} die would have to step "
                    "up past d20; no larger die exists (7-A9). In combat "
                    "send use_help_token: false.",
                    character_id=d.character_id,
                    attribute=d.attribute,
                ),
                field_,
            )
        die = bigger
    band, tn = band_for(d.base_tn, step_sum - talents)
    plain, _tn = band_for(d.base_tn, step_sum)
    return {
        "die": die,
        "base_die": sheet["dice"][d.attribute],
        "faces": FACES[die],
        "band": band,
        "tn": tn,
        "net_steps": step_sum - talents,
        "band_without_talent": plain,
    }


def _record(ctx: Ctx, test_id: str, d: Declared, p: dict[str, Any]) -> dict[str, Any]:
    rec = {
        "test_id": test_id,
        "kind": d.kind,
        "character_id": d.character_id,
        "attribute": d.attribute,
        "intent": d.intent,
        "base_tn": d.base_tn,
        "steps": d.steps,
        "talents": d.talents,
        "helper_ids": d.helper_ids + [t["helper_id"] for t in d.tokens],
        **p,
        **d.context,
    }
    enc = ctx.encounter
    if enc is not None and ctx.in_combat and d.character_id in enc["pcs"]:
        rec.update(encounter_id=enc["id"], round=enc["round"], phase=enc["phase"])
    return rec


def roll(ctx: Ctx, d: Declared, p: dict[str, Any], commit: Callable[[str], None]) -> tuple[str, str | None]:
    """Returns (test_id, outcome); outcome None when the GM refused a near-impossible test."""
    test_id = ctx.next_id("test", "t")
    rec = _record(ctx, test_id, d, p)
    if p["band"] == NEAR_IMPOSSIBLE and d.on_near_impossible == "refuse":
        rec["reason"] = "near_impossible"  # nothing consumed (spec 4.2 step 6)
        # With the TN secret, even the reason would tell players where the TN lies (spec 8).
        hidden = {"base_tn", "tn", "band", "band_without_talent", "net_steps", "raw_threshold", "threshold", "reason"}
        refused = StepDiceTestRecord(**rec)
        ctx.emit("test_refused", refused, redacted=without(refused, *hidden) if d.secret_tn else None)
        return test_id, None
    commit(test_id)  # §6.2: Mana, the Action and help are spent before the die is thrown
    skip = p["band"] == NEAR_CERTAIN and d.on_near_certain == "skip_roll"
    if skip and p["band_without_talent"] != NEAR_CERTAIN:
        skip = False  # §2.4: a Talent never gives an automatic success
        rec["skip_roll_denied"] = "talent_never_auto_success"
    if skip:
        outcome, dice, face = SUCCESS, [], None
    else:
        die = ctx.thrown().roll(p["faces"], purpose=f"{d.kind}:{d.attribute}")
        dice, face = [die.to_dict()], die.face
        if ctx.options.variant_d6_only:
            outcome = classify_d6(face, p["threshold"], exceptional_on_6=ctx.options.variant_exceptional_on_6)
        else:
            outcome = classify(
                face, p["faces"], p["band"], p["tn"], exceptional_requires_tn=ctx.options.exceptional_requires_tn
            )
    advanced = clocks.in_scope(ctx) if outcome in FAILED and d.advance_clocks else []
    rec.update(
        roll=face,
        dice=dice,
        skipped_roll=skip,
        outcome=outcome,
        clock_ids_advanced=advanced,
        planned_complication=d.planned_complication,
    )
    hidden = clocks.hidden_ids(ctx) & set(advanced)
    resolved = StepDiceTestRecord(**rec)
    redacted = None
    if d.planned_complication is not None or hidden:
        redacted = replaced(
            without(resolved, "planned_complication"), clock_ids_advanced=[c for c in advanced if c not in hidden]
        )
    ctx.emit("test_resolved", resolved, redacted=redacted)
    clocks.advance(ctx, advanced, 1, {"test_id": test_id})
    return test_id, outcome
