"""Combat consequences (seed §3.6, §5.5–5.6, §7.2, §11.1): retaliation, Hearts, Armor, raising, help."""

from __future__ import annotations

from stepdice_support import Table, attack, begin, of, one, player, skirmish, types

# --- retaliation -------------------------------------------------------------------------------------


def test_retaliation_defaults_true_for_melee():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    t.do({"type": "resolve_retaliation"})
    assert t.sheet("w")["hearts"] == 4


def test_retaliation_defaults_false_from_full_cover():
    t = skirmish()
    begin(t, "r")
    t.do(attack(cid="r", kind="ranged", attacker_cover="full"), [3])
    ev = t.do({"type": "resolve_retaliation"})
    assert one(ev, "retaliation_resolved")["heart_lost"] is False and t.sheet("r")["hearts"] == 5


def test_retaliation_from_partial_cover_needs_the_gm():
    t = skirmish()
    begin(t, "r")
    t.do(attack(cid="r", kind="ranged", attacker_cover="partial"), [3])
    t.fails({"type": "resolve_retaliation"}, "could_reach_required", status=422)
    t.do({"type": "resolve_retaliation", "could_reach": True})
    assert t.sheet("r")["hearts"] == 4


def test_gm_overrides_could_reach():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    t.do({"type": "resolve_retaliation", "could_reach": False})
    assert t.sheet("w")["hearts"] == 5


def test_natural_one_in_combat_needs_a_complication():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [1])
    t.fails({"type": "resolve_retaliation"}, "complication_required")
    ev = t.do({"type": "resolve_retaliation", "complication": "drops the weapon"})
    assert one(ev, "retaliation_resolved")["complication"] == "drops the weapon"
    assert len(of(ev, "hearts_lost")) == 1  # at most 1 Heart per failed attack (7-A20)


def test_natural_one_out_of_reach_costs_no_heart():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [1])
    t.do({"type": "resolve_retaliation", "could_reach": False, "complication": "slips"})
    assert t.sheet("w")["hearts"] == 5  # 7-A19


def test_retaliation_substitution_allowed_by_default():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    ev = t.do({"type": "resolve_retaliation", "substitute_complication": "knocked prone"})
    assert "hearts_lost" not in types(ev) and t.sheet("w")["hearts"] == 5


def test_retaliation_substitution_toggle_off():
    t = skirmish(allow_retaliation_substitution=False)
    begin(t, "w")
    t.do(attack(), [3])
    t.fails({"type": "resolve_retaliation", "substitute_complication": "prone"}, "option_disabled")


def test_resolve_retaliation_is_gm_only():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    t.fails({"type": "resolve_retaliation"}, "gm_only", actor=player("w"))


def test_minion_pressure_step():
    t = skirmish()
    begin(t, "w")
    rec = one(t.do(attack(minion_pressure="step"), [7]), "test_resolved")
    assert rec["tn"] == 8 and rec["outcome"] == "failure"


def test_minion_pressure_extra_complication_on_failure():
    t = skirmish()
    begin(t, "w")
    t.do(attack(minion_pressure="extra_complication"), [3])
    t.fails({"type": "resolve_retaliation"}, "complication_required")
    t.do({"type": "resolve_retaliation", "complication": "loses position"})


def test_pending_choice_blocks_other_moves():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    t.fails({"type": "end_turn", "character_id": "w"}, "choice_pending")
    t.fails({"type": "end_player_phase"}, "choice_pending")
    t.fails({"type": "choose_armor", "use_armor": True}, "wrong_pending_stage")
    t.fails({"type": "resolve_retaliation", "pending_id": "t99"}, "no_pending_choice")
    t.do({"type": "gm_note", "text": "still allowed"})


def test_no_pending_choice():
    skirmish().fails({"type": "choose_benefit", "option": "extra_benefit", "text": "x"}, "no_pending_choice")


# --- hearts, armor, downed, death, raise -------------------------------------------------------------


def _hit(t, cid="w"):
    return t.do({"type": "enemy_hit", "enemy_id": "m1", "character_id": cid})


def test_zero_hearts_downs_and_closes_the_turn():
    t = skirmish()
    t.sheet("w")["hearts"] = 1
    begin(t, "w")
    t.do(attack(), [3])
    ev = t.do({"type": "resolve_retaliation"})
    assert types(ev)[-3:] == ["hearts_lost", "character_downed", "turn_ended"]
    assert t.sheet("w")["condition"] == "downed" and t.enc["turn_open_for"] is None
    t.fails({"type": "begin_turn", "character_id": "w"}, "character_downed")


def test_damage_while_downed_kills():
    t = skirmish()
    t.sheet("w").update(hearts=0, condition="downed")
    t.do({"type": "end_player_phase"})
    ev = _hit(t)
    assert types(ev)[1] == "character_died" and t.sheet("w")["condition"] == "dead"
    t.fails({"type": "enemy_hit", "enemy_id": "m1", "character_id": "w"}, "character_dead")


def test_damage_while_downed_toggle_off():
    t = skirmish(downed_damage_kills=False)
    t.sheet("w").update(hearts=0, condition="downed")
    t.do({"type": "end_player_phase"})
    assert "downed_damage_ignored" in types(_hit(t)) and t.sheet("w")["condition"] == "downed"


def test_armor_choice_player_may_keep_the_token():
    t = skirmish(use_armor_tokens=True)
    t.sheet("w")["equipment"]["protection"] = "mail"
    t.sheet("w")["armor_token_available"] = True
    t.do({"type": "end_player_phase"})
    _hit(t)
    assert t.pending["stage"] == "armor_choice"
    t.fails({"type": "choose_armor", "use_armor": False}, "not_your_character", actor=player("r"))
    t.do({"type": "choose_armor", "use_armor": False}, actor=player("w"))
    assert t.sheet("w")["hearts"] == 4 and t.sheet("w")["armor_token_available"] is True


def test_no_armor_choice_without_token_or_toggle():
    t = skirmish(use_armor_tokens=True)
    t.sheet("w")["equipment"]["protection"] = "mail"
    t.sheet("w")["armor_token_available"] = False
    t.do({"type": "end_player_phase"})
    assert "hearts_lost" in types(_hit(t))
    off = skirmish()
    off.sheet("w")["equipment"]["protection"] = "mail"
    off.do({"type": "end_player_phase"})
    assert "hearts_lost" in types(_hit(off))


def test_armor_absorbs_the_lethal_hit_on_a_downed_pc():
    t = skirmish(use_armor_tokens=True)
    t.sheet("w")["equipment"]["protection"] = "mail"
    t.sheet("w").update(hearts=0, condition="downed", armor_token_available=True)
    t.do({"type": "end_player_phase"})
    _hit(t)
    t.do({"type": "choose_armor", "use_armor": True})
    assert t.sheet("w")["condition"] == "downed"  # 7-A25


def test_raise_restores_one_heart_and_spends_the_action():
    t = skirmish()
    t.sheet("w").update(hearts=0, condition="downed")
    t.enc["pcs"]["w"]["action_available"] = False
    begin(t, "r")
    t.fails({"type": "raise", "character_id": "r", "target_character_id": "m1"}, "unknown_character")
    ev = t.do({"type": "raise", "character_id": "r", "target_character_id": "w"}, actor=player("r"))
    assert one(ev, "character_raised")["hearts"] == 1
    assert t.sheet("w")["condition"] == "active" and t.enc["pcs"]["r"]["action_available"] is False
    # 7-A24: the raised PC has not had its turn this phase, so it may take it.
    t.do({"type": "end_turn", "character_id": "r"})
    assert t.enc["phase"] == "player_phase" and t.enc["pcs"]["w"]["action_available"] is True
    begin(t, "w")


def test_raise_needs_a_downed_target():
    t = skirmish()
    begin(t, "r")
    t.fails({"type": "raise", "character_id": "r", "target_character_id": "w"}, "target_not_downed")


def test_raise_out_of_combat_needs_no_action():
    t = Table()
    t.pc("w")
    t.pc("r", "rogue")
    t.sheet("w").update(hearts=0, condition="downed")
    t.do({"type": "raise", "character_id": "r", "target_character_id": "w"})
    assert (t.sheet("w")["hearts"], t.sheet("w")["condition"]) == (1, "active")


def test_harm_costs_one_heart():
    t = Table()
    t.pc("w")
    ev = t.do({"type": "harm", "character_id": "w", "description": "falling rocks"})
    assert one(ev, "hearts_lost")["description"] == "falling rocks" and t.sheet("w")["hearts"] == 4


# --- help tokens ---------------------------------------------------------------------------------------


def test_help_token_rules():
    t = skirmish(pcs=("w", "r", "m"))
    begin(t, "r")
    t.fails({"type": "help", "character_id": "r", "target_character_id": "r", "description": "x"}, "cannot_help_self")
    t.do({"type": "help", "character_id": "r", "target_character_id": "w", "description": "distracts"})
    t.do({"type": "end_turn", "character_id": "r"})
    begin(t, "m")
    t.fails(
        {"type": "help", "character_id": "m", "target_character_id": "w", "description": "x"},
        "too_many_helpers",
        status=409,
    )
    t.fails({"type": "help", "character_id": "m", "target_character_id": "r", "description": "x"}, "target_turn_over")
    t.do({"type": "end_turn", "character_id": "m"})
    begin(t, "w")
    t.fails(
        {"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6, "helper_ids": ["r"]},
        "help_in_combat_uses_action",
    )
    rec = one(t.do(attack(), [11]), "test_resolved")
    assert rec["die"] == "d12" and rec["helper_ids"] == ["r"]


def test_help_token_cannot_step_a_d20_but_can_be_kept():
    t = skirmish()
    t.sheet("w")["dice"]["strength"] = "d20"
    begin(t, "r")
    t.do({"type": "help", "character_id": "r", "target_character_id": "w", "description": "x"})
    t.do({"type": "end_turn", "character_id": "r"})
    begin(t, "w")
    t.fails(attack(), "cannot_help_d20")
    rec = one(t.do(attack(use_help_token=False), [15]), "test_resolved")
    assert rec["die"] == "d20" and len(t.enc["help_tokens"]) == 1
