"""Magic (seed §6, spec 4.9): tiers, Mana before the roll, no refund on failure, heals, spell attacks."""

from __future__ import annotations

import pytest

from stepdice_support import Table, one, player, types


def _mage(**options):
    t = Table(**options)
    t.pc("m", "mage")  # magic d10
    t.pc("w", "warrior")
    return t


def _cast(**kw):
    return {"type": "cast", "character_id": "m", "tier": "standard", **kw}


@pytest.mark.parametrize(
    "tier, tn, cost", [("trick", 4, 0), ("standard", 6, 1), ("strong", 8, 2), ("great_power", 12, 3)]
)
def test_tier_sets_tn_and_cost(tier, tn, cost):
    t = _mage()
    t.sheet("m")["mana"] = t.sheet("m")["mana_max"] = 3
    rec = one(t.do(_cast(tier=tier), [2]), "test_resolved")
    assert (rec["tn"], rec["mana_cost"]) == (tn, cost)
    assert t.sheet("m")["mana"] == 3 - cost


def test_insufficient_mana_is_rejected_before_the_roll():
    t = _mage()
    t.sheet("m")["mana"] = 1
    t.fails(_cast(tier="strong"), "insufficient_mana", status=409)


def test_trick_at_zero_mana():
    t = _mage()
    t.sheet("m")["mana"] = 0
    assert one(t.do(_cast(tier="trick"), [5]), "test_resolved")["outcome"] == "success"


def test_trick_may_cost_one():
    t = _mage()
    t.do(_cast(tier="trick", mana_cost=1), [5], actor=player("m"))
    assert t.sheet("m")["mana"] == 2


def test_other_costs_are_gm_only():
    t = _mage()
    t.fails(_cast(mana_cost=0), "gm_only", actor=player("m"))
    t.do(_cast(mana_cost=0), [7])
    assert t.sheet("m")["mana"] == 3


def test_tn_override_is_gm_only():
    t = _mage()
    t.fails(_cast(tn=8), "gm_only", actor=player("m"))
    assert one(t.do(_cast(tn=8), [7]), "test_resolved")["tn"] == 8


def test_mana_is_lost_on_failure():
    t = _mage()
    t.do(_cast(tier="strong"), [2])
    t.do({"type": "record_consequence", "text": "the spell backfires"})
    assert t.sheet("m")["mana"] == 1


def test_refused_near_impossible_cast_costs_nothing():
    t = _mage()
    ev = t.do(_cast(tier="great_power", steps=[{"source": "wards", "delta": 1}], on_near_impossible="refuse"))
    assert types(ev) == ["test_refused"] and t.sheet("m")["mana"] == 3


def test_skipped_near_certain_cast_still_pays():
    t = _mage()
    t.do(_cast(tier="trick", mana_cost=1, steps=[{"source": "calm", "delta": -1}], on_near_certain="skip_roll"))
    assert t.sheet("m")["mana"] == 2


def test_exceptional_refund_is_at_most_one():
    t = _mage()
    t.do(_cast(tier="strong"), [10])
    assert t.pending["benefit_options"] == ["bigger_scale", "refund_mana", "extra_benefit"]
    ev = t.do({"type": "choose_benefit", "option": "refund_mana"}, actor=player("m"))
    assert one(ev, "mana_refunded")["amount"] == 1 and t.sheet("m")["mana"] == 2


def test_exceptional_refund_of_a_free_spell_is_zero():
    t = _mage()
    t.do(_cast(tier="trick"), [10])
    assert one(t.do({"type": "choose_benefit", "option": "refund_mana"}), "mana_refunded")["amount"] == 0
    assert t.sheet("m")["mana"] == 3


def test_heal_two_hearts_capped():
    t = _mage()
    t.sheet("w")["hearts"] = 4
    ev = t.do(_cast(tier="strong", heal_target_id="w"), [8], actor=player("m"))
    assert one(ev, "hearts_gained")["amount"] == 1 and t.sheet("w")["hearts"] == 5


def test_heal_stands_a_downed_character_up():
    t = _mage()
    t.sheet("w").update(hearts=0, condition="downed")
    t.do(_cast(tier="strong", heal_target_id="w"), [9])
    assert (t.sheet("w")["hearts"], t.sheet("w")["condition"]) == (2, "active")


def test_heal_on_exceptional_applies_after_the_choice():
    t = _mage()
    t.sheet("w")["hearts"] = 2
    t.do(_cast(tier="strong", heal_target_id="w"), [10])
    assert t.sheet("w")["hearts"] == 2
    t.do({"type": "choose_benefit", "option": "bigger_scale", "text": "heals the whole party"})
    assert t.sheet("w")["hearts"] == 4


def test_heal_cannot_reach_the_dead():
    t = _mage()
    t.sheet("w").update(hearts=0, condition="dead")
    t.fails(_cast(tier="strong", heal_target_id="w"), "character_dead")


def test_other_heals_are_gm_only():
    t = _mage()
    t.fails(_cast(tier="standard", heal_target_id="w"), "gm_only", actor=player("m"))
    t.fails(_cast(tier="strong", heal_target_id="w", heal_amount=3), "gm_only", actor=player("m"))
    t.fails(_cast(heal_amount=3), "field_not_applicable")


def test_failed_cast_needs_a_consequence_and_no_retaliation():
    t = _mage()
    t.do(_cast(), [3])
    assert t.pending["stage"] == "needs_gm_text"
    t.fails(_cast(), "choice_pending")
    ev = t.do({"type": "record_consequence", "text": "you expose yourself"})
    assert types(ev) == ["consequence_recorded"]


def _combat(t):
    t.fight(
        {"m": {"x": 0, "y": 0}, "w": {"x": 0, "y": 1}},
        [{"enemy_id": "e", "name": "Knight", "kind": "elite", "position": {"x": 4, "y": 0}}],
    )
    t.do({"type": "begin_turn", "character_id": "m"})


def test_spell_attack_uses_the_targets_tn_and_the_tiers_cost():
    t = _mage()
    _combat(t)
    ev = t.do({"type": "attack", "character_id": "m", "target_enemy_id": "e", "attack_type": "spell"}, [8])
    rec = one(ev, "test_resolved")
    assert (rec["attribute"], rec["tn"], rec["tier"], rec["mana_cost"]) == ("magic", 8, "standard", 1)
    assert t.sheet("m")["mana"] == 2 and t.enemy("e")["wounds_taken"] == 1


def test_failed_spell_attack_is_retaliation_with_a_consequence():
    t = _mage()
    _combat(t)
    t.do({"type": "attack", "character_id": "m", "target_enemy_id": "e", "attack_type": "spell"}, [3])
    assert t.pending["stage"] == "retaliation_check"
    t.fails({"type": "resolve_retaliation"}, "complication_required")
    t.do({"type": "resolve_retaliation", "complication": "the missile fizzles loudly"})
    assert t.sheet("m")["hearts"] == 4 and t.sheet("m")["mana"] == 2


def test_exceptional_spell_attack_offers_the_union():
    t = _mage()
    _combat(t)
    t.do({"type": "attack", "character_id": "m", "target_enemy_id": "e", "attack_type": "spell"}, [10])
    assert t.pending["benefit_options"] == [
        "extra_wound",
        "narrative_bonus",
        "bigger_scale",
        "refund_mana",
        "extra_benefit",
    ]
    t.do({"type": "choose_benefit", "option": "refund_mana"})
    assert t.sheet("m")["mana"] == 3 and t.enemy("e")["wounds_taken"] == 1


def test_spell_attack_obeys_full_cover():
    t = _mage()
    _combat(t)
    t.fails(
        {"type": "attack", "character_id": "m", "target_enemy_id": "e", "attack_type": "spell", "cover": "full"},
        "full_cover_blocks_ranged",
    )


def test_cast_in_combat_takes_the_action():
    t = _mage()
    _combat(t)
    t.do(_cast(), [7])
    t.fails(_cast(), "no_action_available")


def test_jump_moves_the_caster_up_to_five_squares():
    t = _mage()
    _combat(t)
    t.fails(_cast(move_to={"x": 6, "y": 0}), "out_of_range")
    ev = t.do(_cast(move_to={"x": 5, "y": 3}), [7])
    assert one(ev, "moved")["via"] == "spell" and t.enc["pcs"]["m"]["position"] == {"x": 5, "y": 3}
    assert t.enc["pcs"]["m"]["move_remaining"] == 5


def test_jump_needs_an_encounter():
    _mage().fails(_cast(move_to={"x": 1, "y": 0}), "not_in_encounter")
