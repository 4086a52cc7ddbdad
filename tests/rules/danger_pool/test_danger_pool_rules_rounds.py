"""Rounds, turn order, the danger pool's growth, progress and scene ends (spec §4.2, §4.8–§4.10, §4.14)."""

from __future__ import annotations

from danger_pool_support import Table, end_round, of, one, player, types

from service.rules.danger_pool import SYSTEM


def trio(**options) -> Table:
    t = Table(**options)
    for c in ("lead", "ann", "bob"):
        t.pc(c, {"Wetwork": 1})
    t.scene_for(["lead", "ann", "bob"])
    return t


def test_rule_leader_may_act_first_and_others_wait():
    t = trio()
    assert t.table["awaiting"] == [
        {"who": "character", "character_id": "lead", "may": ["declare_action", "waive_first"]}
    ]
    t.fails(
        {"type": "declare_action", "character_id": "ann", "kind": "push", "approach": "x", "ability": "Wetwork"},
        "leader_acts_first",
        actor=player("ann"),
    )
    t.declare("lead", [5], [3, 2])
    assert {a["character_id"] for a in t.table["awaiting"]} == {"ann", "bob"}


def test_rule_leader_or_gm_waives_first():
    t = trio()
    t.do({"type": "waive_first", "character_id": "lead"}, actor=player("lead"))
    assert not t.scene["leader_first_pending"]
    u = trio()
    u.do({"type": "waive_first", "character_id": "lead"})  # A46: the GM for an absent leader
    u.declare("bob", [5], [3, 2])
    assert u.scene["acted_this_round"] == ["bob"]


def test_rule_order_among_members_is_free_and_each_acts_once():
    t = trio()
    t.do({"type": "waive_first", "character_id": "lead"})
    t.declare("bob", [5], [3, 2])
    t.fails(
        {"type": "declare_action", "character_id": "bob", "kind": "push", "approach": "x", "ability": "Wetwork"},
        "already_acted_this_round",
    )
    t.declare("lead", [5], [3, 2])
    t.declare("ann", [5], [3, 2])
    assert t.scene["phase"] == "round_end_window"
    assert t.table["awaiting"] == [{"who": "character", "character_id": "lead", "may": ["continue_scene", "bail_out"]}]


def test_rule_first_round_has_no_plus_two_later_rounds_do():
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"])
    assert (t.scene["round"], t.scene["danger_pool_size"]) == (1, 2)
    t.declare("ann", [5], [3, 2])
    end_round(t, "ann")
    assert (t.scene["round"], t.scene["danger_pool_size"]) == (2, 4)
    assert one(t.log, "danger_added_new_round")["added"] == 2


def test_option_danger_numbers_are_settings():
    t = Table(danger_pool_start=1, danger_per_new_round=3, danger_per_player_one=2)
    t.pc("ann", {"Wetwork": 2})
    t.scene_for(["ann"])
    t.declare("ann", [1, 9], [3])
    assert t.scene["danger_pool_size"] == 3
    end_round(t, "ann")
    assert t.scene["danger_pool_size"] == 6


def test_rule_player_ones_add_danger_win_or_lose():
    t = Table()
    t.pc("ann", {"Wetwork": 3})
    t.scene_for(["ann"])
    events = t.declare("ann", [1, 1, 2], [5, 4])
    assert one(events, "roll_resolved")["outcome"] == "lose"
    assert one(events, "danger_added_player_ones")["added"] == 2 and t.scene["danger_pool_size"] == 4


def test_rule_danger_tens_cost_the_actor_stamina_and_stay_in_the_pool():
    t = trio()
    t.declare("lead", [9], [10, 10])
    assert t.sheet("lead")["stamina"] == 1 and t.sheet("ann")["stamina"] == 3
    assert t.scene["danger_pool_size"] == 2


def test_rule_hold_back_removes_danger_dice_with_floor_zero():
    t = Table()
    t.pc("ann", {"Wetwork": 4})
    t.scene_for(["ann"])
    events = t.declare("ann", [9, 8, 7, 6], [3, 2], kind="hold_back")
    assert one(events, "danger_removed_hold_back") == {
        "scene_id": t.scene["id"],
        "roll_id": "roll-1",
        "successes": 4,
        "removed": 2,
        "danger_pool_size": 0,
    }


def test_rule_danger_pool_zero_means_no_danger_dice_and_a_win():
    t = Table()
    t.pc("ann", {"Wetwork": 2})
    t.scene_for(["ann"])
    t.set_scene(danger_pool_size=0)
    events = t.declare("ann", [2, 3], [])
    res = one(events, "roll_resolved")
    assert (res["danger_max"], res["outcome"], res["successes"]) == (0, "win", 2)


def test_rule_progress_completes_the_scene_at_once_and_overflow_is_lost():
    t = trio()
    t.set_scene(progress_track_length=2)
    events = t.declare("lead", [9], [3, 2])
    assert t.scene["progress_marked"] == 1
    t.state["characters"]["ann"]["abilities"]["Wetwork"] = 3
    events = t.declare("ann", [9, 9, 9], [3, 2])
    assert one(events, "progress_marked")["marked"] == 1
    assert t.scene is None and t.table["last_scene"]["outcome"] == "completed"
    assert t.table["last_scene"]["progress_marked"] == 2  # mid-round: bob never acted


def test_rule_all_taken_out_ends_the_scene():
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"])
    t.state["characters"]["ann"]["stamina"] = 1
    events = t.declare("ann", [5], [10, 3])
    assert types(events)[-2:] == ["character_taken_out", "scene_ended"]
    assert t.table["last_scene"]["outcome"] == "all_taken_out"


def test_rule_stamina_is_restored_at_the_end_of_every_scene():
    t = trio()
    t.declare("lead", [5], [10, 3])
    assert t.sheet("lead")["stamina"] == 2
    events = t.do({"type": "end_scene"})
    assert one(events, "scene_ended") == {
        "scene_id": "scene-1",
        "kind": "action",
        "outcome": "closed_by_gm",
        "stamina_restored": {"lead": 3},
    }
    assert t.sheet("lead")["stamina"] == 3


def test_rule_taken_out_member_no_longer_needed_for_round_end():
    t = trio()
    t.do({"type": "waive_first", "character_id": "lead"})
    t.state["characters"]["bob"]["stamina"] = 1
    t.declare("bob", [5], [10, 3])
    t.fails(
        {"type": "declare_action", "character_id": "bob", "kind": "push", "approach": "x", "ability": "Wetwork"},
        "taken_out",
    )
    t.declare("lead", [5], [3, 2])
    t.declare("ann", [5], [3, 2])
    assert t.scene["phase"] == "round_end_window"


def test_option_alarm_timing_round_boundary():
    t = trio()
    t.fails({"type": "raise_alarm", "amount": 1}, "alarm_not_now")
    for c in ("lead", "ann", "bob"):
        t.declare(c, [5], [3, 2])
    t.fails({"type": "raise_alarm", "amount": 1}, "alarm_not_now")  # before the leader's decision
    t.do({"type": "continue_scene", "character_id": "lead"})
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["raise_alarm", "next_round"]}]
    t.do({"type": "raise_alarm", "amount": 0})  # A12: 0 still uses it
    assert t.scene["alarm_used"] and t.scene["danger_pool_size"] == 4 and t.scene["round"] == 2
    for c in ("lead", "ann", "bob"):
        t.declare(c, [5], [3, 2, 1, 1])
    t.do({"type": "continue_scene", "character_id": "lead"})  # alarm used: straight on
    assert t.scene["round"] == 3


def test_option_alarm_timing_any_time():
    t = trio(alarm_timing="any_time")
    t.do({"type": "raise_alarm", "amount": 3})
    assert t.scene["danger_pool_size"] == 5 and t.scene["round"] == 1 and t.scene["phase"] == "round_open"
    for c in ("lead", "ann", "bob"):
        t.declare(c, [5], [3, 2, 1, 1, 1])
    t.do({"type": "continue_scene", "character_id": "lead"})
    assert t.scene["round"] == 2


def test_option_allow_pass():
    t = trio()
    t.fails({"type": "pass_turn", "character_id": "lead"}, "option_disabled")
    u = trio(allow_pass=True)
    assert u.table["awaiting"][0]["may"] == ["declare_action", "waive_first", "pass_turn"]
    u.do({"type": "pass_turn", "character_id": "lead"}, actor=player("lead"))
    u.do({"type": "pass_turn", "character_id": "ann"})
    u.declare("bob", [5], [3, 2])
    assert u.scene["phase"] == "round_end_window" and u.scene["passed_this_round"] == ["lead", "ann"]
    assert of(u.log, "turn_passed")


def test_a_table_stored_before_state_version_2_moves_on_in_the_shared_awaiting_shape():
    """Snapshots of version 1 hold `{who: gm|<character id>, may}`; replaying any move rewrites the entries."""
    assert SYSTEM.state_version == 2
    t = Table()
    t.pc("lead", player_id="P1")
    t.state["table"]["awaiting"] = [{"who": "gm", "may": ["create_action_scene", "create_planning_scene"]}]
    t.state["table"]["requests"] = [{"who": "lead", "may": ["choose_aftermath"], "when": "next_planning_scene"}]
    t.scene_for(["lead"], start=False)
    assert t.table["awaiting"] == [
        {"who": "gm", "character_id": None, "may": ["start_scene", "configure_scene", "add_element", "end_scene"]}
    ]
    assert t.table["requests"] == []
