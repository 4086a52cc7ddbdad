"""The later decisions of one test (spec 5.1): choose_benefit, retaliation_check, armor_choice, needs_gm_text.

At most one choice is pending at a time; it lives in `table["pending"]` between requests and blocks every
other move of the table until it is resolved (the GM checklist, §10, settles a test before the next).
"""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.base import not_your_character
from service.rules.stepdice import effects, health
from service.rules.stepdice.actions_gm import StepDiceRecordConsequence, StepDiceResolveRetaliation
from service.rules.stepdice.actions_player import StepDiceChooseArmor, StepDiceChooseBenefit
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.ladder import EXCEPTIONAL, FAILED, FAILURE_COMPLICATION
from service.rules.move import without
from service.rules.stepdice.events_model import (
    StepDiceArmorTokenSpent,
    StepDiceChoicePending,
    StepDiceBenefitChosen,
    StepDiceConsequenceRecorded,
    StepDiceRetaliationResolved,
)

MAGIC_BENEFITS = ["bigger_scale", "refund_mana", "extra_benefit"]  # §6.4
NEEDS_TEXT = {"narrative_bonus", "bigger_scale", "extra_benefit"}


def base(ctx: Ctx, test_id: str, kind: str, character_id: str, outcome: str, planned: str | None) -> dict[str, Any]:
    return {
        "id": test_id,
        "test_id": test_id,
        "kind": kind,
        "character_id": character_id,
        "outcome": outcome,
        "natural_one": outcome == FAILURE_COMPLICATION,
        "encounter_id": ctx.running()["id"] if ctx.slot(character_id) is not None else None,
        "planned_complication": planned,
        "attack": None,
        "cast": None,
    }


def _open(ctx: Ctx, p: dict[str, Any]) -> None:
    ctx.table["pending"] = p
    event = StepDiceChoicePending(**p)
    ctx.emit(
        "choice_pending",
        event,
        redacted=without(event, "planned_complication") if p.get("planned_complication") else None,
    )


def _take(ctx: Ctx, pending_id: str | None, stage: str) -> dict[str, Any]:
    p = ctx.table["pending"]
    if p is None or (pending_id is not None and pending_id != p["id"]):
        raise violation(
            "no_pending_choice",
            (_("no pending choice {pending_id}", pending_id=pending_id) if pending_id else _("no pending choice")),
            "pending_id",
        )
    if p["stage"] != stage:
        raise violation(
            "wrong_pending_stage",
            _("the pending choice {id} waits for {stage}, not {stage_2}", id=p["id"], stage=p["stage"], stage_2=stage),
        )
    return p


def _owner(ctx: Ctx, p: dict[str, Any]) -> None:
    if not ctx.actor.controls(p["character_id"]):
        raise not_your_character(
            _("only the GM or the player of {character_id} makes this choice", character_id=p["character_id"])
        )


def _benefits(p: dict[str, Any]) -> list[str]:
    if p["attack"]:
        out = ["narrative_bonus"]
        if p["attack"]["target_kind"] in ("elite", "boss"):
            out.insert(0, "extra_wound")  # §5.5; 7-A21: against a minion only the narrative bonus applies
        return out + (MAGIC_BENEFITS if p["cast"] else [])  # 7-A18: one from the union
    return MAGIC_BENEFITS if p["cast"] else ["extra_benefit"]


def after_roll(ctx: Ctx, p: dict[str, Any], outcome: str) -> None:
    if outcome == EXCEPTIONAL:
        _open(ctx, {**p, "stage": "choose_benefit", "benefit_options": _benefits(p)})
    elif outcome in FAILED and p["attack"]:
        _open(ctx, {**p, "stage": "retaliation_check"})
    elif outcome == FAILURE_COMPLICATION or (outcome in FAILED and p["cast"]):
        # §3.4: a 1 brings a complication; §6.2: a failed spell "dochodzi drobna konsekwencja".
        _open(
            ctx,
            {
                **p,
                "stage": "needs_gm_text",
                "text_required": "complication" if outcome == FAILURE_COMPLICATION else "consequence",
            },
        )
    elif outcome not in FAILED:
        effects.success(ctx, p, None)


def heart_loss(ctx: Ctx, character_id: str, cause: str, origin: dict[str, Any]) -> None:
    """§11.1 / 7-A26: with an Armor token left the player chooses; otherwise the Heart goes (7-A25: even a
    lethal hit on a downed PC can be absorbed)."""
    sheet = ctx.characters[character_id]
    if (
        ctx.options.use_armor_tokens
        and sheet.get("armor_token_available")
        and sheet["equipment"].get("protection")
        and sheet["condition"] != "dead"
    ):
        _open(ctx, {**origin, "stage": "armor_choice", "character_id": character_id, "cause": cause})
        return
    health.lose_heart(ctx, character_id, cause, origin)


def choose_benefit(ctx: Ctx, a: StepDiceChooseBenefit) -> None:
    p = _take(ctx, a.pending_id, "choose_benefit")
    _owner(ctx, p)
    if a.option not in p["benefit_options"]:
        raise violation(
            "benefit_not_available",
            _(
                "{option} is not available here; choose one of {benefit_options}",
                option=a.option,
                benefit_options=", ".join(p["benefit_options"]),
            ),
            "option",
        )
    if a.option in NEEDS_TEXT and not a.text:
        raise violation(
            "benefit_text_required", _("describe the benefit; it must follow from the situation (seed §3.4)"), "text"
        )
    ctx.table["pending"] = None
    ctx.emit(
        "benefit_chosen",
        StepDiceBenefitChosen(test_id=p["test_id"], character_id=p["character_id"], option=a.option, text=a.text),
    )
    effects.success(ctx, p, a.option)


def resolve_retaliation(ctx: Ctx, a: StepDiceResolveRetaliation) -> None:
    p = _take(ctx, a.pending_id, "retaliation_check")
    could = a.could_reach if a.could_reach is not None else p["attack"]["could_reach_default"]
    if could is None:
        raise violation(
            "could_reach_required",
            _("the attacker is in partial cover: say whether the enemy could realistically reach them (seed §5.6)"),
            "could_reach",
        )
    if a.substitute_complication is not None and not ctx.options.allow_retaliation_substitution:
        raise violation(
            "option_disabled",
            _(
                "retaliation cannot be swapped for a "
                "complication in this campaign "
                "(allow_retaliation_substitution is off)"
            ),
            "substitute_complication",
        )
    needs = (
        _("a natural 1 in combat brings a complication (seed §5.6)")
        if p["natural_one"]
        else _("a failed spell brings a minor consequence (seed §6.2)")
        if p["cast"]
        else _("the GM chose an extra complication for minion pressure (seed §5.8)")
        if p["attack"]["minion_pressure"] == "extra_complication"
        else None
    )
    if needs and not a.complication:
        raise violation("complication_required", needs, "complication")
    substituted = bool(could and a.substitute_complication)
    ctx.table["pending"] = None
    ctx.emit(
        "retaliation_resolved",
        StepDiceRetaliationResolved(
            test_id=p["test_id"],
            character_id=p["character_id"],
            enemy_id=p["attack"]["target_enemy_id"],
            could_reach=could,
            substitute_complication=a.substitute_complication,
            complication=a.complication,
            heart_lost=could and not substituted,
        ),
    )
    if could and not substituted:
        # 7-A20: one failed attack costs at most this one Heart, however many enemies are engaged.
        heart_loss(
            ctx,
            p["character_id"],
            "retaliation",
            {
                "id": p["id"],
                "test_id": p["test_id"],
                "enemy_id": p["attack"]["target_enemy_id"],
                "encounter_id": p["encounter_id"],
            },
        )


def choose_armor(ctx: Ctx, a: StepDiceChooseArmor) -> None:
    p = _take(ctx, a.pending_id, "armor_choice")
    _owner(ctx, p)
    ctx.table["pending"] = None
    cid = p["character_id"]
    if a.use_armor:
        ctx.characters[cid]["armor_token_available"] = False
        ctx.emit(
            "armor_token_spent",
            StepDiceArmorTokenSpent(
                character_id=cid, cause=p["cause"], **{k: p[k] for k in ("test_id", "enemy_id", "hit_id") if p.get(k)}
            ),
        )
    else:
        health.lose_heart(ctx, cid, p["cause"], p)


def record_consequence(ctx: Ctx, a: StepDiceRecordConsequence) -> None:
    p = _take(ctx, a.pending_id, "needs_gm_text")
    ctx.table["pending"] = None
    ctx.emit(
        "consequence_recorded",
        StepDiceConsequenceRecorded(
            test_id=p["test_id"], character_id=p["character_id"], kind=p["text_required"], text=a.text
        ),
    )
