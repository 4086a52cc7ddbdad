"""Magic (seed §6, spec 4.9): tiers set TN and Mana; Mana is paid before the roll and lost on failure."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.stepdice import declare, grid, guards, pending, resolve
from service.rules.stepdice.actions_player import StepDiceCast
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import StepDiceManaChange

# tier: (TN, costs the table allows, default cost). §6.3; a trick costs 0–1, 0 unless the GM says 1.
TIERS: dict[str, tuple[int, tuple[int, ...], int]] = {
    "trick": (4, (0, 1), 0),
    "standard": (6, (1,), 1),
    "strong": (8, (2,), 2),
    "great_power": (12, (3,), 3),
}
HEAL_TIER, HEAL_AMOUNT = "strong", 2  # §6.3 "leczenie +2 Serca"


def cost(ctx: Ctx, tier: str, mana_cost: int | None) -> int:
    _n, allowed, default = TIERS[tier]
    if mana_cost is None:
        return default
    if mana_cost not in allowed:
        guards.gm_only(
            ctx,
            "mana_cost",
            _(
                "a {tier} effect costs {allowed} Mana; only the GM assigns another cost (seed §6.2)",
                tier=tier,
                allowed="–".join(map(str, allowed)),
            ),
        )
    return mana_cost


def require_mana(sheet: dict[str, Any], price: int) -> None:
    if sheet["mana"] < price:  # 7-A33: Mana is paid before the roll, so it must be there
        raise violation(
            "insufficient_mana",
            _("this costs {price} Mana; {mana} left (seed §6.2)", price=price, mana=sheet["mana"]),
            "mana_cost",
        )


def pay(ctx: Ctx, character_id: str, price: int, test_id: str) -> None:
    if price == 0:
        return
    sheet = ctx.characters[character_id]
    sheet["mana"] -= price
    ctx.emit(
        "mana_spent",
        StepDiceManaChange(
            character_id=character_id, amount=price, mana=sheet["mana"], mana_max=sheet["mana_max"], test_id=test_id
        ),
    )


def cast(ctx: Ctx, a: StepDiceCast) -> None:
    cid = a.character_id
    sheet = guards.active(ctx, cid)
    slot = ctx.slot(cid)
    if slot is not None:
        guards.turn(ctx, cid)  # §5.3: magic takes the Action in combat
    talents = declare.roll_fields(ctx, a, sheet)
    helpers = declare.helpers(ctx, cid, a.helper_ids, slot is not None)
    tokens = declare.tokens(ctx, cid, slot, a.use_help_token)
    price = cost(ctx, a.tier, a.mana_cost)
    if a.tn is not None:
        guards.gm_only(ctx, "tn", _("only the GM sets a TN other than the tier's (seed §6.2)"))
    if a.heal_target_id is not None:
        guards.not_dead(ctx, a.heal_target_id, "heal_target_id")
        if a.tier != HEAL_TIER or a.heal_amount != HEAL_AMOUNT:
            guards.gm_only(
                ctx, "heal_amount", _("healing is +2 Hearts at the strong tier; other heals are GM-set (7-A32)")
            )
    elif a.heal_amount != HEAL_AMOUNT:
        raise violation("field_not_applicable", _("heal_amount needs heal_target_id"), "heal_amount")
    move_to = a.move_to.model_dump() if a.move_to else None
    if move_to is not None:
        grid.check_jump(ctx, cid, move_to)
    require_mana(sheet, price)
    d = resolve.Declared(
        kind="cast",
        character_id=cid,
        attribute="magic",
        base_tn=a.tn or TIERS[a.tier][0],
        steps=[s.model_dump() for s in a.steps],
        talents=talents,
        on_near_certain=a.on_near_certain,
        on_near_impossible=a.on_near_impossible,
        helper_ids=helpers,
        tokens=tokens,
        intent=a.intent,
        advance_clocks=a.advance_clocks,
        planned_complication=a.planned_complication,
        context={"tier": a.tier, "mana_cost": price, "heal_target_id": a.heal_target_id, "move_to": move_to},
    )
    plan = resolve.plan(ctx, d)

    def commit(test_id: str) -> None:
        guards.spend_action(ctx, cid, slot)
        declare.consume_tokens(ctx, tokens, test_id)
        pay(ctx, cid, price, test_id)

    test_id, outcome = resolve.roll(ctx, d, plan, commit)
    if outcome is None:
        return
    p = pending.base(ctx, test_id, "cast", cid, outcome, a.planned_complication)
    p["cast"] = {
        "tier": a.tier,
        "mana_paid": price,
        "heal_target_id": a.heal_target_id,
        "heal_amount": a.heal_amount,
        "move_to": move_to,
    }
    pending.after_roll(ctx, p, outcome)
