"""Building pools, character points, ties, elements (spec §4.3–§4.7, §4.11)."""

from __future__ import annotations

from danger_pool_support import Table, element_id, end_round, one, player, types


def solo(ability: int = 2, danger: int = 2, **options) -> Table:
    t = Table(**options)
    t.pc("ann", {"Wetwork": ability, "Charm": 1}, legends=["Old Baghdad", "Marseille"], equipment=["Colt"])
    t.scene_for(["ann"])
    t.set_scene(danger_pool_size=danger)
    return t


def test_rule_pool_is_ability_plus_legends_plus_equipment_minus_scars():
    t = solo()
    t.do({"type": "record_scar", "character_id": "ann", "text": "one eye"})
    events = t.declare(
        "ann", [5, 5, 5, 5], [3, 2], legends=["legend-1", "legend-2"], equipment="item-1", scars=["scar-1"]
    )
    assert one(events, "action_rolled")["pool_size"] == 2 + 2 + 1 - 1


def test_option_scar_penalty_mode_all_counts_every_scar():
    t = solo(ability=3, scar_penalty_mode="all")
    t.do({"type": "record_scar", "character_id": "ann", "text": "one eye"})
    events = t.declare("ann", [5, 5], [3, 2])  # no scars declared, one counts anyway
    assert one(events, "action_rolled")["scars_applied"] == ["scar-1"]


def test_option_zero_pool_policy_roll_one_die():
    t = solo(ability=1, zero_pool_policy="roll_one_die")
    for text in ("a", "b"):
        t.do({"type": "record_scar", "character_id": "ann", "text": text})
    events = t.declare("ann", [9], [3, 2], scars=["scar-1", "scar-2"])
    res = one(events, "roll_resolved")
    assert res["player_dice"] == [9] and res["outcome"] == "win"


def test_rule_risk_lifts_a_zero_pool():
    t = solo(ability=1)
    for text in ("a", "b"):
        t.do({"type": "record_scar", "character_id": "ann", "text": text})
    events = t.declare("ann", [9, 2], [3, 2], scars=["scar-1", "scar-2"], cp_spends=["risk"])
    assert one(events, "action_rolled")["pool_size"] == 2


def test_option_risk_extra_dice():
    t = solo(risk_extra_dice=1)
    events = t.declare("ann", [5, 5, 5], [3, 2], cp_spends=["risk"])
    assert one(events, "action_rolled")["pool_size"] == 3


def test_option_max_cp_spends_per_roll_unlimited():
    t = solo(max_cp_spends_per_roll=None)
    t.state["characters"]["ann"]["stamina"] = 1
    events = t.declare("ann", [5] * 5, [3, 2], cp_spends=["risk", "ignore_pain"])
    assert one(events, "action_rolled")["pool_size"] == 5
    assert t.sheet("ann")["character_points"] == 0 and t.sheet("ann")["stamina"] == 3


def test_rule_ignore_pain_at_full_stamina_is_allowed_with_a_warning():
    t = solo()
    events = t.declare("ann", [5, 5], [3, 2], cp_spends=["ignore_pain"])
    assert one(events, "stamina_restored")["warnings"] == ["ignore_pain_at_full_stamina"]


def test_rule_character_point_start_is_a_setting():
    t = Table(character_points_start=5)
    assert t.pc("ann")["character_points"] == 5


def test_rule_tie_die_index_defaults_to_the_first_tied_die():
    t = solo()
    t.declare("ann", [6, 2], [6, 6])
    events = t.tie("ann", "do_something_stupid")
    assert one(events, "tie_choice")["die_index"] == 0 and t.roll["danger_dice"] == [1, 6]


def test_rule_tie_steps_may_switch_options_until_back_down():
    t = solo(danger=3)
    t.declare("ann", [6, 2], [6, 6, 6])
    t.tie("ann", "take_the_hit")
    t.tie("ann", "do_something_stupid")
    events = t.tie("ann", "back_down")
    res = one(events, "roll_resolved")
    assert res["outcome"] == "lose" and [c["option"] for c in res["tie_choices"]] == [
        "take_the_hit",
        "do_something_stupid",
        "back_down",
    ]
    assert t.sheet("ann")["stamina"] == 2 and t.scene["danger_pool_size"] == 4  # stupid +1 even on a loss


def test_rule_tie_choice_may_not_target_a_ten_or_a_lower_die():
    t = solo(danger=3)
    t.declare("ann", [6, 2], [6, 10, 3])
    for index in (1, 2, 7):
        t.fails(
            {"type": "choose_tie", "character_id": "ann", "option": "take_the_hit", "die_index": index},
            "invalid_tie_die",
            actor=player("ann"),
        )


def test_option_die_sides_moves_the_special_face():
    t = solo(die_sides=6)
    events = t.declare("ann", [5, 1], [6, 4])
    res = one(events, "roll_resolved")
    assert (res["danger_max"], res["ignored"], res["successes"]) == (4, [0], 1)
    assert t.sheet("ann")["stamina"] == 2 and one(events, "action_rolled")["dice"][0]["sides"] == 6


def element_table(**options) -> Table:
    t = Table(**options)
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"], elements=[{"text": "the bouncer"}])
    return t


def test_rule_roll_waits_for_the_gm_while_an_element_could_reroll():
    t = element_table()
    t.declare("ann", [9], [3, 2])
    assert t.roll["state"] == "rolled"
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["confirm_roll", "element_reroll"]}]
    events = t.do({"type": "confirm_roll"})
    assert types(events)[:2] == ["roll_confirmed", "progress_marked"] and t.scene["progress_marked"] == 1


def test_rule_element_reroll_replaces_the_danger_roll_and_only_it_costs_stamina():
    t = element_table()
    t.declare("ann", [7], [10, 10])
    events = t.do({"type": "element_reroll", "element_id": element_id(1)}, [8, 3])
    rr = one(events, "danger_rerolled_with_element")
    assert rr["danger_dice"] == [8, 3] and rr["element_text"] == "the bouncer" and len(rr["dice"]) == 2
    res = one(events, "roll_resolved")  # the only element is spent: resolves at once
    assert res["outcome"] == "lose" and t.sheet("ann")["stamina"] == 3
    assert t.last_roll["danger_dice_rolls"] == [[10, 10], [8, 3]]


def test_option_element_rerolls_unlimited():
    t = element_table(element_rerolls_per_element_per_scene=None)
    t.declare("ann", [7], [8, 2])
    t.do({"type": "element_reroll", "element_id": element_id(1)}, [9, 2])
    t.do({"type": "element_reroll", "element_id": element_id(1)}, [3, 2])
    assert t.roll["state"] == "rolled"
    t.do({"type": "confirm_roll"})
    assert t.last_roll["outcome"] == "win"


def test_rule_element_window_closes_at_the_first_tie_choice():
    t = element_table()
    t.set_scene(danger_pool_size=3)
    t.declare("ann", [7], [7, 7, 2])
    assert {a["character_id"] or a["who"] for a in t.table["awaiting"]} == {"gm", "ann"}
    t.tie("ann", "take_the_hit")
    assert t.table["awaiting"] == [{"who": "character", "character_id": "ann", "may": ["choose_tie"]}]
    t.fails({"type": "element_reroll", "element_id": element_id(1)}, "reroll_window_closed")
    t.tie("ann", "take_the_hit")
    assert t.last_roll["outcome"] == "win" and t.sheet("ann")["stamina"] == 1


def test_rule_element_limit_is_per_scene():
    t = element_table()
    t.declare("ann", [7], [8, 2])
    t.do({"type": "element_reroll", "element_id": element_id(1)}, [9, 2])
    end_round(t, "ann")
    t.declare("ann", [7], [8, 2, 1, 1])
    assert t.scene["roll"] is None  # element spent: nothing to wait for
