"""Bailing out (spec §4.13) and its resolutions A21–A25, A27, A31."""

from __future__ import annotations

from danger_pool_support import Table, one, player


def at_round_end(**options) -> Table:
    t = Table(**options)
    for c in ("lead", "ann", "bob"):
        t.pc(c, {"Wetwork": 1})
    t.scene_for(["lead", "ann", "bob"], waive=True)
    t.state["characters"]["bob"]["stamina"] = 1
    t.declare("bob", [5], [10, 3])  # bob is out
    t.declare("ann", [5], [6, 3])
    t.declare("lead", [5], [6, 3])
    return t


def bail(t: Table, dice, actor=None, **kw) -> list:
    return t.do(
        {"type": "bail_out", "character_id": "lead", "approach": "run", "ability": "Wetwork", **kw},
        dice,
        **({"actor": actor} if actor else {}),
    )


def test_rule_only_the_leader_bails_out_at_round_end():
    t = at_round_end()
    t.fails(
        {"type": "bail_out", "character_id": "ann", "approach": "run", "ability": "Wetwork"},
        "not_leader",
        actor=player("ann"),
    )
    bail(t, [2, 6, 3], actor=player("lead"))
    assert t.table["last_scene"]["outcome"] == "bailed_out"


def test_rule_lost_bail_out_scars_everyone_still_in_the_scene():
    t = at_round_end()
    events = bail(t, [2, 6, 3])
    assert one(events, "bail_out_resolved") == {
        "scene_id": "scene-1",
        "outcome": "lose",
        "extracted": [],
        "scarred": ["lead", "ann"],
    }
    assert t.sheet("bob")["scars"] == []


def test_option_bail_out_includes_taken_out():
    t = at_round_end(bail_out_includes_taken_out=True)
    events = bail(t, [2, 6, 3])
    assert one(events, "bail_out_resolved")["scarred"] == ["lead", "ann", "bob"]


def test_rule_extraction_is_at_most_one_per_success_and_may_be_fewer():
    t = at_round_end()
    bail(t, [9, 6, 3])
    t.fails({"type": "extract", "character_id": "lead", "extracted_ids": ["lead", "ann"]}, "too_many_extracted")
    t.do({"type": "extract", "character_id": "lead", "extracted_ids": []}, actor=player("lead"))
    assert len(t.sheet("lead")["scars"]) == 1 and len(t.sheet("ann")["scars"]) == 1


def test_rule_ties_apply_to_the_bail_out_roll():
    t = at_round_end()
    bail(t, [6, 6, 3])
    assert t.roll["state"] == "tie_pending"
    t.tie("lead", "do_something_stupid")
    assert t.roll["state"] == "extraction_pending" and t.roll["successes"] == 1


def test_rule_bail_out_roll_tens_can_take_the_leader_out():
    t = at_round_end()
    t.state["characters"]["lead"]["stamina"] = 1
    events = bail(t, [9, 10, 3])
    t.do({"type": "extract", "character_id": "lead", "extracted_ids": ["ann"]})
    assert t.sheet("lead")["pending_aftermath"] and t.sheet("lead")["stamina"] == 3
    assert t.table["last_scene"]["participation"]["lead"] == "taken_out"
    assert len(t.sheet("lead")["scars"]) == 1  # A22: the outcome first, then out
    assert one(events, "stamina_lost")["tens"] == 1


def test_rule_taken_out_leader_cannot_bail_out_but_continues():
    t = Table()
    for c in ("lead", "ann"):
        t.pc(c, {"Wetwork": 1})
    t.scene_for(["lead", "ann"])
    t.state["characters"]["lead"]["stamina"] = 1
    t.declare("lead", [5], [10, 3])
    t.declare("ann", [5], [6, 3])
    assert t.table["awaiting"] == [{"who": "character", "character_id": "lead", "may": ["continue_scene"]}]
    t.fails(
        {"type": "bail_out", "character_id": "lead", "approach": "run", "ability": "Wetwork"}, "leader_out_of_scene"
    )
    t.do({"type": "continue_scene", "character_id": "lead"})
    t.do({"type": "next_round"})
    assert not t.scene["leader_first_pending"] and t.scene["round"] == 2


def test_rule_successor_scene_same_goal_leader_fresh_track_three_dice():
    t = at_round_end(progress_track_length_default=5)
    t.set_scene(progress_marked=3)
    bail(t, [2, 6, 3])
    s2 = t.scene
    assert (s2["kind"], s2["phase"], s2["progress_marked"], s2["progress_track_length"]) == ("action", "setup", 0, 5)
    assert s2["team"] == ["lead", "ann", "bob"] and s2["participation"]["bob"] == "in_scene"
    t.do({"type": "configure_scene", "progress_track_length": 6, "team": ["lead", "ann"]})
    t.do({"type": "start_scene"})
    assert (t.scene["danger_pool_size"], t.scene["progress_track_length"]) == (3, 6)


def test_option_danger_pool_start_after_bail_out():
    t = at_round_end(danger_pool_start_after_bail_out=5)
    bail(t, [2, 6, 3])
    assert t.scene["danger_pool_size"] == 5


def test_rule_no_alarm_during_a_bail_out():
    t = at_round_end(alarm_timing="any_time")
    bail(t, [9, 6, 3])
    t.fails({"type": "raise_alarm", "amount": 1}, "alarm_not_now")


def test_rule_successor_of_a_dead_leader_gets_a_new_leader():
    t = at_round_end()
    t.state["characters"]["lead"].update(doomed_next_scene=True, doomed_in_scene_id="scene-1", doomed_exit="dead")
    bail(t, [2, 6, 3])
    assert t.sheet("lead")["status"] == "dead" and t.scene["team"] == ["ann", "bob"]
    t.fails({"type": "start_scene"}, "leader_not_in_team")
    assert t.table["awaiting"] == [
        {"who": "gm", "character_id": None, "may": ["configure_scene", "add_element", "end_scene"]}
    ]
    t.do({"type": "configure_scene", "leader_id": "ann"})
    t.do({"type": "start_scene"})
    assert t.scene["leader_id"] == "ann" and t.scene["leader_first_pending"]
