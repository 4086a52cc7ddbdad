"""Combat flow (seed §5, spec 4.8, 5.2): encounters, turns, phases, enemies, the grid."""

from __future__ import annotations

import pytest

from stepdice_support import P0, P1, Table, attack, begin, one, player, skirmish, types

# --- encounter flow -----------------------------------------------------------------------------------


def test_start_encounter_opens_player_phase_round_one():
    t = skirmish()
    assert (t.enc["phase"], t.enc["round"]) == ("player_phase", 1)
    assert all(s["move_remaining"] == 5 and s["action_available"] for s in t.enc["pcs"].values())


def test_start_encounter_needs_combatants():
    t = Table()
    t.pc("w")
    t.do({"type": "create_encounter"})
    t.fails({"type": "start_encounter"}, "encounter_needs_combatants")


def test_create_encounter_starts_a_combat_scene():
    t = Table()
    ev = t.do({"type": "create_encounter", "label": "ambush"})
    assert one(ev, "scene_started")["kind"] == "combat" and t.enc["scene_id"] == t.table["scene"]["id"]
    t.fails({"type": "create_encounter"}, "encounter_in_progress")


def test_one_turn_open_at_a_time():
    t = skirmish()
    begin(t, "w")
    t.fails({"type": "begin_turn", "character_id": "r"}, "turn_already_open")


def test_turn_already_taken_this_round():
    t = skirmish()
    begin(t, "w")
    t.do({"type": "end_turn", "character_id": "w"})
    t.fails({"type": "begin_turn", "character_id": "w"}, "turn_already_taken")


def test_not_your_turn():
    t = skirmish()
    t.fails(attack(), "not_your_turn")
    begin(t, "r")
    t.fails(attack(), "not_your_turn")
    t.fails({"type": "end_turn", "character_id": "w"}, "not_your_turn")


def test_one_action_per_round():
    t = skirmish(
        enemies=[
            {"enemy_id": "m1", "name": "G", "kind": "minion", "position": P1},
            {"enemy_id": "m2", "name": "G", "kind": "minion", "position": {"x": 1, "y": 1}},
        ]
    )
    begin(t, "w")
    t.do(attack(), [8])
    t.fails(attack(target="m2"), "no_action_available")
    t.fails({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, "no_action_available")


def test_player_phase_ends_after_the_last_active_pc():
    t = skirmish()
    for c in ("w", "r"):
        begin(t, c)
        ev = t.do({"type": "end_turn", "character_id": c})
    assert one(ev, "phase_changed")["to"] == "enemy_phase" and t.enc["phase"] == "enemy_phase"


def test_gm_forces_end_of_player_phase_and_help_expires():
    t = skirmish()
    begin(t, "w")
    t.do({"type": "help", "character_id": "w", "target_character_id": "r", "description": "covering fire"})
    ev = t.do({"type": "end_player_phase"})
    assert types(ev)[:3] == ["turn_ended", "help_token_expired", "phase_changed"]
    assert t.enc["help_tokens"] == [] and t.enc["phase"] == "enemy_phase"


def test_end_player_phase_is_gm_only():
    skirmish().fails({"type": "end_player_phase"}, "gm_only", actor=player("w"))


def test_enemy_phase_then_next_round():
    t = skirmish()
    t.do({"type": "end_player_phase"})
    t.do({"type": "enemy_move", "enemy_id": "m1", "to": {"x": 1, "y": 1}})
    t.do({"type": "gm_note", "text": "the goblin snarls"})
    ev = t.do(
        {
            "type": "call_test",
            "character_id": "r",
            "attribute": "dexterity",
            "base_tn": 6,
            "consequence_on_failure": "the goblin hits you",
        },
        [7],
    )
    assert one(ev, "test_resolved")["kind"] == "call_test" and "action_spent" not in types(ev)
    t.do({"type": "enemy_hit", "enemy_id": "m1", "character_id": "w"})
    assert t.sheet("w")["hearts"] == 4
    t.do({"type": "end_enemy_phase"})
    assert (t.enc["phase"], t.enc["round"], t.enc["pcs_done"]) == ("player_phase", 2, [])
    assert t.enc["pcs"]["w"]["action_available"] is True


def test_wrong_phase():
    t = skirmish()
    t.fails({"type": "enemy_hit", "enemy_id": "m1", "character_id": "w"}, "wrong_phase")
    t.fails({"type": "end_enemy_phase"}, "wrong_phase")
    t.do({"type": "end_player_phase"})
    t.fails({"type": "begin_turn", "character_id": "w"}, "wrong_phase")
    t.fails({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, "wrong_phase")


def test_attack_needs_an_encounter():
    t = Table()
    t.pc("w")
    t.fails(attack(), "no_encounter")


def test_attack_needs_membership_and_a_known_active_enemy():
    t = skirmish()
    t.pc("m", "mage")
    t.fails(attack(cid="m"), "not_in_encounter")
    begin(t, "w")
    t.fails(attack(target="ghost"), "unknown_enemy", status=422)
    t.do(attack(), [7])
    t.fails({"type": "end_turn", "character_id": "r"}, "not_your_turn")
    t.do({"type": "end_turn", "character_id": "w"})
    begin(t, "r")
    t.fails(attack(cid="r", kind="ranged"), "enemy_defeated")


def test_refused_attack_keeps_the_action():
    t = skirmish(enemies=[{"enemy_id": "b", "name": "Boss", "kind": "boss", "position": P1}])
    begin(t, "w")
    ev = t.do(attack(target="b", steps=[{"source": "blinded", "delta": 1}], on_near_impossible="refuse"))
    assert types(ev) == ["test_refused"] and t.enc["pcs"]["w"]["action_available"] is True
    assert t.enemy("b")["revealed"] is False
    assert ev[0].data["base_tn"] == 12 and "base_tn" not in ev[0].redacted and "band" not in ev[0].redacted


def test_field_not_applicable():
    t = skirmish()
    begin(t, "w")
    t.fails(attack(tier="standard"), "field_not_applicable", status=422)
    t.fails(attack(cover="partial"), "field_not_applicable")


def test_outcome_suggestion_and_end_encounter():
    t = skirmish()
    begin(t, "w")
    ev = t.do(attack(), [7])
    assert one(ev, "outcome_suggested")["suggested_outcome"] == "victory"
    ev = t.do({"type": "end_encounter", "outcome": "victory"})
    assert one(ev, "encounter_ended")["suggested_outcome"] == "victory" and t.enc["phase"] == "ended"
    t.fails({"type": "begin_turn", "character_id": "r"}, "no_encounter")


def test_defeat_is_suggested_when_no_pc_stands():
    t = skirmish(pcs=("w",))
    t.sheet("w")["hearts"] = 1
    t.do({"type": "end_player_phase"})
    ev = t.do({"type": "enemy_hit", "enemy_id": "m1", "character_id": "w"})
    assert one(ev, "outcome_suggested")["suggested_outcome"] == "defeat"
    t.do({"type": "end_encounter", "outcome": "defeat"})


# --- enemies -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, tn, wounds", [("minion", 6, 1), ("elite", 8, 2), ("boss", 12, 3)])
def test_enemy_defaults_by_kind(kind, tn, wounds):
    t = skirmish(enemies=[{"enemy_id": "e", "name": "Foe", "kind": kind}])
    assert (t.enemy("e")["tn"], t.enemy("e")["wounds_max"], t.enemy("e")["deviations"]) == (tn, wounds, [])


def test_enemy_overrides_are_logged():
    t = skirmish(enemies=[{"enemy_id": "e", "name": "Ogre", "kind": "elite", "tn": 12, "wounds_max": 4}])
    assert [d["field"] for d in t.enemy("e")["deviations"]] == ["tn", "wounds_max"]
    assert (t.enemy("e")["tn"], t.enemy("e")["wounds_max"]) == (12, 4)


def test_use_elites_off():
    t = Table(use_elites=False)
    t.do({"type": "create_encounter"})
    t.fails({"type": "add_enemy", "name": "Knight", "kind": "elite"}, "option_disabled")
    t.do({"type": "add_enemy", "name": "Rat", "kind": "minion"})
    assert list(t.enc["enemies"]) == ["e1"]


def test_duplicate_enemy_id():
    t = skirmish()
    t.fails({"type": "add_enemy", "enemy_id": "m1", "name": "x", "kind": "minion"}, "duplicate_id")
    t.fails({"type": "add_enemy", "enemy_id": "w", "name": "x", "kind": "minion"}, "duplicate_id")


def test_minion_goes_down_on_any_hit():
    t = skirmish()
    begin(t, "w")
    ev = t.do(attack(), [6])
    assert one(ev, "enemy_defeated")["enemy_id"] == "m1" and t.enemy("m1")["state"] == "defeated"


def test_elite_takes_two_wounds():
    t = skirmish(enemies=[{"enemy_id": "e", "name": "Knight", "kind": "elite", "position": P1}])
    for rnd in range(2):
        begin(t, "w")
        t.do(attack(target="e"), [9])
        t.do({"type": "end_turn", "character_id": "w"})
        if rnd == 0:
            assert (t.enemy("e")["wounds_taken"], t.enemy("e")["state"]) == (1, "active")
            begin(t, "r")
            t.do({"type": "end_turn", "character_id": "r"})
            t.do({"type": "end_enemy_phase"})
    assert (t.enemy("e")["wounds_taken"], t.enemy("e")["state"]) == (2, "defeated")


def test_exceptional_against_minion_only_narrative_bonus():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [10])
    assert t.pending["benefit_options"] == ["narrative_bonus"]
    t.fails({"type": "choose_benefit", "option": "extra_wound"}, "benefit_not_available")
    t.fails({"type": "choose_benefit", "option": "narrative_bonus"}, "benefit_text_required")
    ev = t.do({"type": "choose_benefit", "option": "narrative_bonus", "text": "takes the doorway"})
    assert "enemy_defeated" in types(ev)


def test_exceptional_extra_wound_overflow_is_discarded():
    t = skirmish(enemies=[{"enemy_id": "e", "name": "Knight", "kind": "elite", "position": P1}])
    t.enemy("e")["wounds_taken"] = 1  # already hurt
    begin(t, "w")
    t.do(attack(target="e"), [10])
    ev = t.do({"type": "choose_benefit", "option": "extra_wound"})
    assert one(ev, "enemy_wounded")["overflow"] == 1
    assert (t.enemy("e")["wounds_taken"], t.enemy("e")["state"]) == (2, "defeated")


def test_choose_benefit_belongs_to_the_acting_player():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [10])
    t.fails(
        {"type": "choose_benefit", "option": "narrative_bonus", "text": "x"}, "not_your_character", actor=player("r")
    )
    t.do({"type": "choose_benefit", "option": "narrative_bonus", "text": "x"}, actor=player("w"))


# --- grid ------------------------------------------------------------------------------------------


def test_melee_needs_adjacency_diagonals_count():
    t = skirmish(
        enemies=[
            {"enemy_id": "m1", "name": "G", "kind": "minion", "position": {"x": 2, "y": 0}},
            {"enemy_id": "m2", "name": "G", "kind": "minion", "position": {"x": 1, "y": 1}},
        ]
    )
    begin(t, "w")
    t.fails(attack(), "not_adjacent")
    t.do(attack(target="m2"), [7])


def test_grid_off_leaves_reach_to_the_gm():
    t = skirmish(use_grid=False)
    begin(t, "w")
    t.fails({"type": "move", "character_id": "w", "path": [P1]}, "option_disabled")
    t.do(attack(), [7])


def test_full_cover_blocks_ranged():
    t = skirmish()
    begin(t, "r")
    t.fails(attack(cid="r", kind="ranged", cover="full"), "full_cover_blocks_ranged", status=409)


def test_partial_cover_is_one_step():
    t = skirmish()
    begin(t, "r")
    rec = one(t.do(attack(cid="r", kind="ranged", cover="partial"), [7]), "test_resolved")
    assert rec["tn"] == 8 and {"source": "partial_cover", "delta": 1} in rec["steps"]


@pytest.mark.parametrize("limit, tn", [(False, 6), (True, 8)])
def test_ranged_range_limit_toggle(limit, tn):
    t = skirmish(
        ranged_range_limit=limit,
        enemies=[{"enemy_id": "m1", "name": "G", "kind": "minion", "position": {"x": 11, "y": 3}}],
    )
    begin(t, "r")
    assert one(t.do(attack(cid="r", kind="ranged"), [7]), "test_resolved")["tn"] == tn


def test_move_budget_splits_around_the_action():
    t = skirmish(enemies=[{"enemy_id": "m1", "name": "G", "kind": "minion", "position": {"x": 3, "y": 0}}])
    begin(t, "w")
    t.do({"type": "move", "character_id": "w", "path": [P1, {"x": 2, "y": 1}]})
    t.do(attack(), [7])
    ev = t.do({"type": "move", "character_id": "w", "path": [{"x": 3, "y": 2}, {"x": 4, "y": 3}, {"x": 5, "y": 4}]})
    assert one(ev, "moved")["move_remaining"] == 0
    t.fails({"type": "move", "character_id": "w", "path": [{"x": 5, "y": 5}]}, "insufficient_move")


def test_move_path_must_be_adjacent():
    t = skirmish()
    begin(t, "w")
    err = t.fails({"type": "move", "character_id": "w", "path": [{"x": 2, "y": 0}]}, "path_not_adjacent")
    assert err.field == "path[0]"


def test_move_needs_a_position():
    t = Table()
    t.pc("w")
    t.fight({"w": None}, [{"name": "G", "kind": "minion"}])
    begin(t, "w")
    t.fails({"type": "move", "character_id": "w", "path": [P1]}, "position_unknown")
    t.do({"type": "set_position", "combatant_id": "w", "position": P0})
    t.do({"type": "move", "character_id": "w", "path": [P1]})


def test_using_equipment_in_combat_takes_the_turns_action():
    """Seed L80, §5.3: equipment is a permission, never a bonus; in combat using it is the turn's Action."""
    t = skirmish()
    begin(t, "w")
    ev = t.do(
        {"type": "use_equipment", "character_id": "w", "item": "rope", "description": "ties the goblin"},
        actor=player("w"),
    )
    assert one(ev, "equipment_used") == {"character_id": "w", "item": "rope", "description": "ties the goblin"}
    assert t.enc["pcs"]["w"]["action_available"] is False
    t.fails({"type": "use_equipment", "character_id": "w", "item": "torch"}, "no_action_available")
