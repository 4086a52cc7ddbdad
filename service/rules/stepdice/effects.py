"""What a successful test changes once its benefit is settled (spec 4.8.3, 4.9.2, 4.9.4)."""

from __future__ import annotations

from typing import Any

from service.rules.stepdice import enemies, health
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.events_model import StepDiceManaChange, StepDiceMoved


def success(ctx: Ctx, p: dict[str, Any], option: str | None) -> None:
    test_id = p["test_id"]
    if p.get("attack"):
        # §5.5: an exceptional "+1 Wound" means 2 Wounds in total; every other choice is the plain hit.
        enemies.apply_hit(ctx, p["attack"]["target_enemy_id"], 2 if option == "extra_wound" else 1, test_id)
    cast = p.get("cast")
    if not cast:
        return
    if cast.get("heal_target_id"):
        health.gain_hearts(ctx, cast["heal_target_id"], cast["heal_amount"], "heal", {"test_id": test_id})
    if cast.get("move_to") is not None:
        slot = ctx.slot(p["character_id"])
        if slot is not None:
            frm, slot["position"] = slot["position"], cast["move_to"]
            ctx.emit(
                "moved",
                StepDiceMoved(
                    character_id=p["character_id"],
                    from_=frm,
                    to=slot["position"],
                    via="spell",
                    test_id=test_id,
                    move_remaining=slot["move_remaining"],
                ),
            )
    if option == "refund_mana":
        # §6.4 "MG może zwrócić 1 Manę"; 7-A34: never more than was paid.
        sheet = ctx.characters[p["character_id"]]
        back = min(1, cast["mana_paid"], sheet["mana_max"] - sheet["mana"])
        sheet["mana"] += back
        ctx.emit(
            "mana_refunded",
            StepDiceManaChange(
                character_id=p["character_id"],
                amount=back,
                mana=sheet["mana"],
                mana_max=sheet["mana_max"],
                test_id=test_id,
            ),
        )
