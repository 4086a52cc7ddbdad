"""Attacks (seed §5.4 v2 plus v1's spell attack, spec 4.8.2): one test at the target's TN."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.stepdice import declare, enemies, grid, guards, magic, pending, resolve
from service.rules.stepdice.actions_player import StepDiceAttack
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation

ATTRIBUTE = {"melee": "strength", "ranged": "dexterity", "spell": "magic"}  # §5.4


def could_reach_default(attack_type: str, attacker_cover: str) -> bool | None:
    """Spec 4.8.5 table: melee almost always; at range from open ground usually; from full cover usually not;
    anything else is the GM's call (None)."""
    if attack_type == "melee":
        return True
    return {"none": True, "full": False}.get(attacker_cover)


def attack(ctx: Ctx, a: StepDiceAttack) -> None:
    cid = a.character_id
    sheet = guards.active(ctx, cid)
    slot = guards.turn(ctx, cid)
    enemy = enemies.active(ctx, a.target_enemy_id, "target_enemy_id")
    spell = a.attack_type == "spell"
    if not spell:
        for name in ("tier", "mana_cost", "tn"):
            if getattr(a, name) is not None:
                raise violation("field_not_applicable", _("{name} applies to spell attacks only", name=name), name)
    if a.attack_type == "melee" and a.cover != "none":
        raise violation(
            "field_not_applicable",
            _("cover applies to ranged and spell attacks (seed §4.3); add a step for anything else"),
            "cover",
        )
    talents = declare.roll_fields(ctx, a, sheet)
    tokens = declare.tokens(ctx, cid, slot, a.use_help_token)
    steps = [s.model_dump() for s in a.steps]
    if a.minion_pressure == "step":
        steps.append({"source": "minion_pressure", "delta": 1})  # §5.8 option 1
    if a.attack_type == "melee":
        grid.check_melee(ctx, cid, enemy)
    else:
        steps += grid.ranged_steps(ctx, cid, enemy, a.cover)  # 7-A18: spells obey range and cover too
    tier, price, base_tn = None, 0, enemy["tn"]
    if not enemy["revealed"] and a.on_near_impossible == "refuse":
        # Whether the test would be refused depends on the target's TN: a player must not learn it that way.
        guards.gm_only(
            ctx,
            "on_near_impossible",
            _("only the GM refuses an attack on an enemy whose TN players do not know yet (seed §3.5, spec 8)"),
        )
    if spell:
        tier = a.tier or "standard"  # a missile (§6.3)
        price = magic.cost(ctx, tier, a.mana_cost)
        if a.tn is not None:
            guards.gm_only(ctx, "tn", _("only the GM sets a spell attack's TN other than the target's (7-A18)"))
            base_tn = a.tn
        magic.require_mana(sheet, price)
    d = resolve.Declared(
        kind="attack",
        character_id=cid,
        attribute=ATTRIBUTE[a.attack_type],
        base_tn=base_tn,
        steps=steps,
        talents=talents,
        on_near_certain=a.on_near_certain,
        on_near_impossible=a.on_near_impossible,
        tokens=tokens,
        intent=a.intent,
        advance_clocks=a.advance_clocks,
        planned_complication=a.planned_complication,
        context={
            "target_enemy_id": enemy["id"],
            "attack_type": a.attack_type,
            "cover": a.cover,
            "minion_pressure": a.minion_pressure,
            "tier": tier,
            "mana_cost": price,
        },
        secret_tn=not enemy["revealed"] and base_tn == enemy["tn"],
    )
    plan = resolve.plan(ctx, d)

    def commit(test_id: str) -> None:
        guards.spend_action(ctx, cid, slot)
        declare.consume_tokens(ctx, tokens, test_id)
        magic.pay(ctx, cid, price, test_id)

    test_id, outcome = resolve.roll(ctx, d, plan, commit)
    if outcome is None:
        return
    # Spec 8: players may compare the roll with the TN, so the target's identity is known from here on.
    enemies.reveal(ctx, enemy, identity=True, cause={"test_id": test_id})
    p = pending.base(ctx, test_id, "attack", cid, outcome, a.planned_complication)
    p["attack"] = {
        "target_enemy_id": enemy["id"],
        "target_kind": enemy["kind"],
        "attack_type": a.attack_type,
        "minion_pressure": a.minion_pressure,
        "could_reach_default": could_reach_default(a.attack_type, a.attacker_cover),
    }
    if spell:
        p["cast"] = {"tier": tier, "mana_paid": price}
    pending.after_roll(ctx, p, outcome)
