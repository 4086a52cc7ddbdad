"""Moves the server only records, or that cost a Heart on the GM's word (seed §3.1, §5.3, spec 3.5, 4.1)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.stepdice import enemies, guards, pending
from service.rules.stepdice.actions_gm import StepDiceAutoSuccess, StepDiceEnemyHit, StepDiceGmNote, StepDiceHarm
from service.rules.stepdice.actions_player import StepDiceUseEquipment
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import (
    StepDiceAutoSuccessRecorded,
    StepDiceEnemyHitEvent,
    StepDiceEquipmentUsed,
    StepDiceGmNoteEvent,
)


def gm_note(ctx: Ctx, a: StepDiceGmNote) -> None:
    ctx.emit("gm_note", StepDiceGmNoteEvent(text=a.text, test_id=a.test_id), gm_only=not a.visible_to_players)


def auto_success(ctx: Ctx, a: StepDiceAutoSuccess) -> None:
    """4.1: no uncertainty or no stakes → success without a roll; the server cannot judge, it records."""
    guards.active(ctx, a.character_id)
    slot = ctx.slot(a.character_id)
    if a.uses_action:
        if slot is None:
            raise violation("field_not_applicable", _("uses_action applies in a running encounter"), "uses_action")
        guards.turn(ctx, a.character_id)
        guards.spend_action(ctx, a.character_id, slot)
    ctx.emit(
        "auto_success_recorded",
        StepDiceAutoSuccessRecorded(character_id=a.character_id, intent=a.intent, outcome="success"),
    )


def use_equipment(ctx: Ctx, a: StepDiceUseEquipment) -> None:
    guards.active(ctx, a.character_id)
    slot = ctx.slot(a.character_id)
    if slot is not None:
        guards.turn(ctx, a.character_id)
        guards.spend_action(ctx, a.character_id, slot)
    ctx.emit(
        "equipment_used", StepDiceEquipmentUsed(character_id=a.character_id, item=a.item, description=a.description)
    )


def harm(ctx: Ctx, a: StepDiceHarm) -> None:
    guards.not_dead(ctx, a.character_id)
    hit_id = ctx.next_id("hit", "h")
    pending.heart_loss(
        ctx, a.character_id, "complication", {"id": hit_id, "hit_id": hit_id, "description": a.description}
    )


def enemy_hit(ctx: Ctx, a: StepDiceEnemyHit) -> None:
    """7-A14: enemies never roll; the GM declares a blow and it costs 1 Heart (§5.5 v1) unless Armor."""
    guards.encounter(ctx, "enemy_phase")
    enemy = enemies.active(ctx, a.enemy_id)
    guards.not_dead(ctx, a.character_id)
    guards.member(ctx, a.character_id)
    hit_id = ctx.next_id("hit", "h")
    ctx.emit(
        "enemy_hit",
        StepDiceEnemyHitEvent(
            hit_id=hit_id, enemy_id=enemy["id"], character_id=a.character_id, description=a.description
        ),
    )
    pending.heart_loss(
        ctx,
        a.character_id,
        "enemy_hit",
        {"id": hit_id, "hit_id": hit_id, "enemy_id": enemy["id"], "description": a.description},
    )
