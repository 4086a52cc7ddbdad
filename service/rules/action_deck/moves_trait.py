"""The moves that roll: a trait test, a group test, a damage roll (spec §4.2–§4.9)."""

from __future__ import annotations

from service.i18n.message import _, _n
from service.rules.action_deck import checks, guards, turns
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.events_model import ActionDeckDamageRolled
from service.rules.action_deck.errors import violation
from service.rules.action_deck.sheet import weapon as weapon_of
from service.rules.action_deck.traits import roll_damage


def trait_test(ctx: Ctx, a) -> None:
    sheet = guards.owner(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    guards.gm_fields(ctx, a, "tn", "modifiers", "crit_check", "no_unskilled")
    if a.weapon is not None:
        w = weapon_of(sheet, a.weapon)
        if a.dice_count > w["rate_of_fire"]:
            raise violation(
                "rate_of_fire_exceeded",
                _n(
                    "{name} fires {rate_of_fire} die at most",
                    "{name} fires {rate_of_fire} dice at most",
                    w["rate_of_fire"],
                    name=w["name"],
                    rate_of_fire=w["rate_of_fire"],
                ),
                "dice_count",
            )
    elif a.dice_count > 1 and not ctx.actor.is_gm:
        raise violation(
            "rate_of_fire_exceeded",
            _("several trait dice need a weapon with that rate of fire, or the GM's ruling (Frenzy, B40)"),
            "dice_count",
        )
    where = turns.context(ctx, a.character_id, a.action_index, a.free_action)
    checks.build(
        ctx,
        roller_id=a.character_id,
        trait=a.trait,
        where=where,
        tn=a.tn,
        gm_mods=a.modifiers,
        crit_flag=a.crit_check,
        no_unskilled=a.no_unskilled,
        dice_count=a.dice_count,
        weapon=w["name"] if a.weapon is not None else None,
    )


def group_test(ctx: Ctx, a) -> None:
    """Seed 1.4: one trait die + one Wild Die for similar Extras; B33: the double-1 rule, GM-pool bennies."""
    guards.gm(ctx, _("group tests are rolled for the GM's Extras"))
    members = list(dict.fromkeys(a.member_ids))
    if a.leader_id not in members or len(members) < 2:
        raise violation(
            "invalid_group", _("a group test lists two or more Extras, the leader among them"), "member_ids"
        )
    for i, m in enumerate(members):
        if guards.alive(ctx, m, f"member_ids[{i}]")["kind"] != "extra":
            raise violation("invalid_group", _("group tests are for Extras (seed 1.4)"), f"member_ids[{i}]")
    checks.build(
        ctx,
        roller_id=a.leader_id,
        trait=a.trait,
        where={"turn": None, "action_index": None},
        tn=a.tn,
        gm_mods=a.modifiers,
        group=members,
        purpose="group",
    )


def damage_roll(ctx: Ctx, a) -> None:
    cid = a.character_id
    sheet = guards.owner(ctx, cid)
    guards.alive(ctx, cid)
    guards.gm_fields(ctx, a, "dice", "bonus", "raise_bonus")
    if a.weapon is not None:
        w = weapon_of(sheet, a.weapon)
        dice, flat, raise_bonus = list(w["damage"]), w["damage_bonus"], w["raise_bonus"]
    elif a.dice:
        dice, flat, raise_bonus = [int(d[1:]) for d in a.dice], 0, 0
    else:
        raise violation("unknown_weapon", _("name the weapon whose damage is rolled"), "weapon")
    bonuses = []
    if flat:
        bonuses.append({"source": "weapon", "value": flat})
    if a.bonus:
        bonuses.append({"source": "gm", "value": a.bonus})
    if a.attack_test_id is not None:
        attack = checks.get(ctx, a.attack_test_id)
        if attack["kind"] != "trait" or attack["roller_id"] != cid:
            raise violation(
                "unknown_test",
                _("{attack_test_id} is not an attack by {name}", attack_test_id=a.attack_test_id, name=sheet["name"]),
                "attack_test_id",
            )
        results = attack["result"]["results"]
        if a.hit_index >= len(results):
            raise violation(
                "invalid_attempt",
                _n("the attack rolled {count} die", "the attack rolled {count} dice", len(results), count=len(results)),
                "hit_index",
            )
        hit = results[a.hit_index]
        if attack["critical_failure"] or not hit["success"]:
            raise violation("attack_missed", _("the attack missed: there is no damage to roll"), "attack_test_id")
        if hit["raises"] >= 1:
            rb = a.raise_bonus if a.raise_bonus is not None else raise_bonus
            if rb:
                bonuses.append({"source": "raise", "value": rb})  # "Atak zadaje więcej obrażeń" (B36)
    slot = ctx.slot(cid)
    if slot is not None and slot["joker_active"]:
        bonuses.append({"source": "joker", "value": ctx.options.joker_bonus})  # seed 1.2: +2 to damage
    bonus_total = sum(b["value"] for b in bonuses)
    with ctx.roller.hidden(checks.secret(ctx, cid, None)):
        rolled = roll_damage(ctx.roller, dice)
    rolled["total"] = rolled["sum"] + bonus_total
    test_id = ctx.next_id("test", "t")
    test = {
        "id": test_id,
        "kind": "damage",
        "roller_id": cid,
        "group": None,
        "purpose": "damage",
        "weapon": a.weapon,
        "attack_test_id": a.attack_test_id,
        "bonuses": bonuses,
        "bonus_total": bonus_total,
        "attempts": [rolled],
        "kept": 0,
        "state": "rolled",
        "opposed_id": None,
        "role": None,
        "tn": None,
        "critical_failure": False,
        "round": ctx.encounter["round"] if ctx.encounter else None,
    }
    checks.summarize(test)
    ctx.table["tests"][test_id] = test
    checks.announce(ctx, "damage_rolled", ActionDeckDamageRolled, test, ctx.roller.take())
