"""One test per violation code of scenes, rounds and rolls (errors.CODES is the closed set): the move is
refused, nothing changes, and the status is the code's. Continued in test_danger_pool_violations_more.py."""

from __future__ import annotations

from danger_pool_support import Table, player

from service.rules.danger_pool.errors import CODES


def ready(team=("lead", "ann"), **options) -> Table:
    t = Table(**options)
    for c in team:
        t.pc(c, {"Wetwork": 1}, legends=["L"], equipment=["E"])
    t.scene_for(list(team))
    return t


def act(cid: str = "lead", **kw) -> dict:
    return {"type": "declare_action", "character_id": cid, "kind": "push", "approach": "x", "ability": "Wetwork", **kw}


def refuse(t: Table, action: dict, code: str, **kw) -> None:
    t.fails(action, code, status=CODES[code], **kw)


def test_code_no_scene():
    t = Table()
    t.pc("ann")
    refuse(t, {"type": "start_scene"}, "no_scene")


def test_code_scene_in_progress():
    t = ready()
    refuse(t, {"type": "create_planning_scene"}, "scene_in_progress")


def test_code_not_action_scene():
    t = Table()
    t.pc("ann")
    t.planning()
    refuse(t, act("ann"), "not_action_scene")


def test_code_wrong_phase():
    t = ready()
    refuse(t, {"type": "start_scene"}, "wrong_phase")
    refuse(t, {"type": "next_round"}, "wrong_phase")


def test_code_roll_in_progress():
    t = ready()
    t.scene["elements"].append(
        {"element_id": "e", "text": "x", "source_character_id": None, "rerolls_used": 0, "revealed": False}
    )
    t.declare("lead", [5], [3, 2])
    refuse(t, act("ann"), "roll_in_progress")


def test_code_no_open_roll():
    t = ready()
    refuse(t, {"type": "confirm_roll"}, "no_open_roll")


def test_code_not_your_roll():
    t = ready()
    t.declare("lead", [5], [5, 2])
    refuse(t, {"type": "choose_tie", "character_id": "ann", "option": "back_down"}, "not_your_roll")


def test_code_reroll_window_closed():
    t = ready()
    t.declare("lead", [5], [5, 2])
    refuse(t, {"type": "confirm_roll"}, "reroll_window_closed")


def test_code_not_in_scene():
    t = ready()
    t.pc("cat")
    refuse(t, act("cat"), "not_in_scene")


def test_code_taken_out():
    t = ready()
    t.state["characters"]["lead"]["stamina"] = 1
    t.declare("lead", [5], [10, 2])
    refuse(t, act("lead"), "taken_out")


def test_code_already_acted_this_round():
    t = ready()
    t.declare("lead", [5], [3, 2])
    refuse(t, act("lead"), "already_acted_this_round")


def test_code_leader_acts_first():
    t = ready()
    refuse(t, act("ann"), "leader_acts_first", actor=player("ann"))


def test_code_not_leader():
    t = ready()
    refuse(t, {"type": "waive_first", "character_id": "ann"}, "not_leader")


def test_code_leader_out_of_scene():
    t = ready()
    t.state["characters"]["lead"]["stamina"] = 1
    t.declare("lead", [5], [10, 2])
    t.declare("ann", [5], [3, 2])
    refuse(
        t, {"type": "bail_out", "character_id": "lead", "approach": "x", "ability": "Wetwork"}, "leader_out_of_scene"
    )


def test_code_alarm_already_used():
    t = ready(alarm_timing="any_time")
    t.do({"type": "raise_alarm", "amount": 1})
    refuse(t, {"type": "raise_alarm", "amount": 1}, "alarm_already_used")


def test_code_alarm_not_now():
    t = ready()
    refuse(t, {"type": "raise_alarm", "amount": 1}, "alarm_not_now")


def test_code_no_tie():
    t = ready()
    t.scene["elements"].append(
        {"element_id": "e", "text": "x", "source_character_id": None, "rerolls_used": 0, "revealed": False}
    )
    t.declare("lead", [5], [3, 2])
    refuse(t, {"type": "choose_tie", "character_id": "lead", "option": "back_down"}, "no_tie")


def test_code_invalid_tie_die():
    t = ready()
    t.declare("lead", [5], [5, 2])
    refuse(
        t, {"type": "choose_tie", "character_id": "lead", "option": "take_the_hit", "die_index": 1}, "invalid_tie_die"
    )


def test_code_stupid_changes_nothing():
    t = ready()
    t.declare("lead", [1], [1, 10])
    refuse(t, {"type": "choose_tie", "character_id": "lead", "option": "do_something_stupid"}, "stupid_changes_nothing")
    t.tie("lead", "take_the_hit")
    assert t.last_roll["outcome"] == "win" and t.last_roll["successes"] == 1


def test_code_unknown_ability():
    refuse(ready(), act(ability="Flying"), "unknown_ability")


def test_code_unknown_legend():
    refuse(ready(), act(legends=["legend-9"]), "unknown_legend")


def test_code_duplicate_legend():
    refuse(ready(), act(legends=["legend-1", "legend-1"]), "duplicate_legend")


def test_code_unknown_equipment():
    refuse(ready(), act(equipment="item-9"), "unknown_equipment")


def test_code_unknown_scar():
    refuse(ready(), act(scars=["scar-1"]), "unknown_scar")


def test_code_duplicate_scar():
    t = ready()
    t.do({"type": "record_scar", "character_id": "lead", "text": "x"})
    refuse(t, act(scars=["scar-1", "scar-1"]), "duplicate_scar")


def test_code_too_many_character_point_spends():
    refuse(ready(), act(cp_spends=["risk", "risk"]), "too_many_character_point_spends")


def test_code_not_enough_character_points():
    t = ready(max_cp_spends_per_roll=None)
    refuse(t, act(cp_spends=["risk", "risk", "risk"]), "not_enough_character_points")


def test_code_unknown_element():
    t = ready()
    t.scene["elements"].append(
        {"element_id": "e", "text": "x", "source_character_id": None, "rerolls_used": 0, "revealed": False}
    )
    t.declare("lead", [5], [3, 2])
    refuse(t, {"type": "element_reroll", "element_id": "nope"}, "unknown_element")


def test_code_element_exhausted():
    t = ready()
    for eid, used in (("e1", 1), ("e2", 0)):
        t.scene["elements"].append(
            {"element_id": eid, "text": "x", "source_character_id": None, "rerolls_used": used, "revealed": True}
        )
    t.declare("lead", [5], [3, 2])
    refuse(t, {"type": "element_reroll", "element_id": "e1"}, "element_exhausted")


def test_code_too_many_extracted():
    t = ready()
    t.declare("lead", [5], [3, 2])
    t.declare("ann", [5], [3, 2])
    t.do({"type": "bail_out", "character_id": "lead", "approach": "x", "ability": "Wetwork"}, [9, 3, 2])
    refuse(t, {"type": "extract", "character_id": "lead", "extracted_ids": ["lead", "ann"]}, "too_many_extracted")


def test_code_not_extractable():
    t = ready()
    t.pc("cat")
    t.declare("lead", [5], [3, 2])
    t.declare("ann", [5], [3, 2])
    t.do({"type": "bail_out", "character_id": "lead", "approach": "x", "ability": "Wetwork"}, [9, 3, 2])
    refuse(t, {"type": "extract", "character_id": "lead", "extracted_ids": ["cat"]}, "not_extractable")


def test_code_option_disabled():
    refuse(ready(), {"type": "pass_turn", "character_id": "lead"}, "option_disabled")
