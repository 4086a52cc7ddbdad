"""Test resolution (spec 4.2), the modifier catalogue (4.3), Focus Points (4.4) and their toggles."""

from __future__ import annotations

import pytest

from iskra_support import Table, one, player

ALA = player("ala")


def _t(**options) -> Table:
    t = Table(**options)
    t.pc("ala")
    t.pc("bob")
    return t


def test_success_needs_d10_plus_s_at_least_10():
    t = _t()
    assert t.test("ala", "strength", 8)["outcome"] == "success"  # 8 + 2
    assert t.test("ala", "strength", 7)["outcome"] == "failure"  # 7 + 2


def test_no_natural_ten_rule_only_s_makes_criticals():
    t = _t()
    t.set("ala", attributes={"strength": 0, "dexterity": 2, "intelligence": 2, "charisma": 2})
    assert t.test("ala", "strength", 10)["outcome"] == "success"


def test_critical_success_at_s_9_may_skip_the_roll_or_roll_anyway():
    t = _t()
    t.open("ala", "strength", modifiers=[{"source": "easy", "value": 7}])
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "critical_success" and t.last_test["roll"] is None
    t.open("ala", "strength", modifiers=[{"source": "easy", "value": 7}])
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "critical_success"


def test_critical_failure_when_s_is_negative_even_on_a_ten():
    t = _t()
    t.open("ala", "strength", modifiers=[{"source": "storm", "value": -3}])
    t.do({"type": "roll"}, dice=[10])
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "critical_failure"


@pytest.mark.parametrize("health, penalty", [(3, 0), (2, -2), (1, -2), (0, -2)])
def test_low_health_penalty_at_two_or_less(health, penalty):
    t = _t()
    t.set("ala", health=health)
    t.open("ala", "charisma")
    assert t.pending["s0"] == 2 + penalty


def test_predisposition_and_weakness_cancel_out():
    t = _t()
    t.open("ala", "charisma", predispositions=[0], weaknesses=[0])
    assert t.pending["s0"] == 2


def test_modifier_sources_name_a_predisposition_and_a_weakness():
    t = _t()
    t.open("ala", "charisma", predispositions=[0], weaknesses=[0])
    by_source = {m["source"]: m for m in t.pending["modifiers"]}
    assert by_source["predisposition"]["value"] == 2 and by_source["predisposition"]["label"] == "Skradanie się"
    assert by_source["weakness"]["value"] == -2 and by_source["weakness"]["label"] == "Publiczne Przemówienia"


def test_test_rolled_reports_the_stage_after_the_roll():
    t = _t()
    t.set("ala", focus_points=5)  # a reroll stays possible, so the test waits in post_roll
    t.open("ala", "strength")
    rolled = one(t.do({"type": "roll"}, dice=[4], actor=ALA), "test_rolled")
    assert rolled["roll"] == 4 and rolled["test"]["stage"] == "post_roll" == t.pending["stage"]


def _three_each(**options) -> Table:
    t = Table(**options)
    traits = [{"label": f"t{n}"} for n in range(3)]
    t.pc("ala", predispositions=traits, weaknesses=traits)
    return t


def test_predisposition_stacking_one_each_by_default():
    t = _three_each()
    t.open("ala", "charisma", predispositions=[0, 1, 2])
    assert t.pending["s0"] == 4


def test_predisposition_stacking_all_when_toggled():
    t = _three_each(predisposition_stacking="all")
    t.open("ala", "charisma", predispositions=[0, 1, 2], weaknesses=[0])
    assert t.pending["s0"] == 2 + 6 - 2


def test_glory_adds_to_persuasion_when_the_player_opts_in():
    t = _t()
    t.set("ala", glory=3)
    t.open("ala", "charisma", context="persuade")
    t.do({"type": "use_glory"}, actor=ALA)
    assert t.pending["s0"] == 5


def test_glory_toggle_off():
    t = _t(glory_modifier_enabled=False)
    t.open("ala", "charisma", context="persuade")
    t.fails({"type": "use_glory"}, "option_disabled", actor=ALA)


def test_glory_only_for_influence_intimidation_persuasion():
    t = _t()
    t.open("ala", "strength")
    t.fails({"type": "use_glory"}, "glory_not_applicable", actor=ALA)


def test_light_step_penalizes_whoever_tries_to_detect():
    t = _t()  # ala has light_step (support default picks)
    t.open("bob", "intelligence", context="detect", detect_target_id="ala")
    assert t.pending["s0"] == 0


def test_help_out_of_combat_attaches_to_the_open_test():
    t = _t()
    t.open("ala", "intelligence")
    t.do(
        {"type": "help", "character_id": "bob", "beneficiary_id": "ala", "description": "holds the lamp"},
        actor=player("bob"),
    )
    assert t.pending["s0"] == 4 and t.pending["helpers"][0]["character_id"] == "bob"


def test_focus_adjust_before_the_roll_and_subtracting_is_allowed():
    t = _t()
    t.open("ala", "strength")
    t.do({"type": "focus_adjust", "amount": 3, "description": "braces"})
    t.do({"type": "focus_adjust", "amount": -1, "description": "holds back on purpose"})
    assert (t.pending["s"], t.sheet("ala")["focus_points"]) == (4, 1)


def test_focus_adjust_after_roll_can_be_switched_off():
    t = _t(focus_adjust_after_roll=False)
    t.open("ala", "strength")
    t.do({"type": "roll"}, dice=[2])
    t.fails({"type": "focus_adjust", "amount": 1, "description": "late"}, "adjust_after_roll_disabled")


def test_adjustments_count_for_critical_by_default():
    t = _t()
    t.open("ala", "strength")
    t.do({"type": "focus_adjust", "amount": 5, "description": "all in"})
    assert t.pending["s"] == 7
    t.set("ala", focus_points=5)
    t.do({"type": "focus_adjust", "amount": 2, "description": "more"})
    t.do({"type": "accept_test"})  # S = 9: no roll needed
    assert t.last_test["outcome"] == "critical_success"


def test_reroll_cost_toggle():
    t = _t(reroll_cost_fp=2)
    t.open("ala", "strength")
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "reroll", "description": "again"}, dice=[9])
    assert t.sheet("ala")["focus_points"] == 3


def test_focus_without_gm_approval_applies_at_once():
    t = _t(focus_requires_gm_approval=False)
    t.open("ala", "strength")
    t.do({"type": "focus_adjust", "amount": 1, "description": "braces"}, actor=ALA)
    assert t.pending["stage"] == "pre_roll" and t.pending["adj"] == 1


def test_focus_spend_waits_for_gm_approval_by_default():
    t = _t()
    t.open("ala", "strength")
    events = t.do({"type": "focus_adjust", "amount": 1, "description": "braces"}, actor=ALA)
    assert one(events, "focus_requested")["description"] == "braces"
    assert t.pending["stage"] == "awaiting_gm_approval" and t.sheet("ala")["focus_points"] == 5
    t.fails({"type": "roll"}, "wrong_stage", dice=[], actor=ALA)
    t.do({"type": "approve_focus"})
    assert t.pending["stage"] == "pre_roll" and t.sheet("ala")["focus_points"] == 4


def test_focus_only_on_your_own_test():
    t = _t()
    t.open("ala", "strength")
    t.fails({"type": "focus_adjust", "amount": 1, "description": "I help"}, "not_your_character", actor=player("bob"))


def test_without_focus_the_test_finalizes_after_the_roll():
    t = _t()
    t.set("ala", focus_points=0)
    t.open("ala", "strength")
    events = t.do({"type": "roll"}, dice=[8])
    assert one(events, "test_resolved")["outcome"] == "success" and t.pending is None


def test_any_failed_test_on_deaths_door_kills_but_success_does_not():
    t = _t()
    t.set("ala", health=0)
    t.test("ala", "strength", 10)
    assert t.sheet("ala")["status"] == "alive"
    t.test("ala", "strength", 1)
    assert t.sheet("ala")["status"] == "dead"


def test_gm_hidden_modifier_and_adjust_before_roll():
    t = _t()
    t.open("ala", "strength")
    t.do(
        {
            "type": "adjust_test",
            "add_modifiers": [{"source": "trap", "value": -1, "hidden": True}],
            "predispositions": [0],
        }
    )
    assert t.pending["s0"] == 3 and t.pending["secret"] is True
