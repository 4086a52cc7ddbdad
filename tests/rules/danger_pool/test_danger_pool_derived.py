"""The derived test vectors, spec §6.2 (DP-D1 … DP-D11)."""

from __future__ import annotations

from danger_pool_support import Table, end_round, one, player


def solo(stamina: int = 3, danger: int = 3, ability: int = 3, **options) -> Table:
    t = Table(**options)
    t.pc("ann", {"Wetwork": ability})
    t.scene_for(["ann"])
    t.set_scene(danger_pool_size=danger)
    t.state["characters"]["ann"]["stamina"] = stamina
    return t


def test_dp_d1_tie_stupid_player_one_and_danger_ten():
    t = solo()
    events = t.declare("ann", [8, 5, 1], [8, 4, 10])
    rolled = one(events, "action_rolled")
    assert rolled["tie"] and rolled["danger_max"] == 8 and rolled["ignored"] == [2]
    assert t.roll["state"] == "tie_pending"
    events = t.tie("ann", "do_something_stupid", 0)
    res = one(events, "roll_resolved")
    assert res["danger_dice"] == [1, 4, 10] and res["danger_max"] == 4
    assert (res["outcome"], res["successes"]) == ("win", 2)
    assert t.scene["danger_pool_size"] == 5 and t.sheet("ann")["stamina"] == 2
    assert t.scene["progress_marked"] == 2


def test_dp_d2_two_tied_dice_mixed_options_hold_back():
    t = solo(stamina=2)
    t.declare("ann", [7, 7, 3], [7, 7, 2], kind="hold_back")
    events = t.tie("ann", "take_the_hit", 0)
    assert one(events, "tie_choice")["still_tied"] and t.roll["danger_dice"] == [10, 7, 2]
    events = t.tie("ann", "do_something_stupid", 1)
    res = one(events, "roll_resolved")
    assert res["danger_dice"] == [10, 1, 2] and (res["outcome"], res["successes"]) == ("win", 3)
    assert res["effects"]["danger_added_stupid"] == 1 and res["effects"]["danger_removed_hold_back"] == 3
    assert t.scene["danger_pool_size"] == 1 and t.sheet("ann")["stamina"] == 1


def test_dp_d3_back_down():
    t = solo(ability=2)
    t.declare("ann", [6, 2], [6, 6, 3])
    events = t.tie("ann", "back_down")
    assert one(events, "roll_resolved")["outcome"] == "lose"
    assert t.table["scene"]["danger_pool_size"] == 3 and t.sheet("ann")["stamina"] == 3
    assert t.scene["progress_marked"] == 0 and t.scene["acted_this_round"] == ["ann"]


def test_dp_d4_all_danger_dice_show_ten():
    t = solo(danger=2, ability=2)
    events = t.declare("ann", [3, 1], [10, 10])
    res = one(events, "roll_resolved")
    assert (res["danger_max"], res["outcome"], res["successes"]) == (0, "win", 2)
    assert t.sheet("ann")["stamina"] == 1 and t.scene["danger_pool_size"] == 3
    assert t.scene["progress_marked"] == 2


def test_dp_d5_taken_out():
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.pc("bob", {"Wetwork": 1})
    t.scene_for(["ann", "bob"])
    t.state["characters"]["ann"]["stamina"] = 1
    events = t.declare("ann", [9], [5, 10])
    assert one(events, "progress_marked")["marked"] == 1
    assert t.sheet("ann")["stamina"] == 0 and t.sheet("ann")["pending_aftermath"]
    assert t.scene["participation"]["ann"] == "taken_out" and t.scene["phase"] == "round_open"
    t.declare("bob", [2], [5, 3])
    assert t.scene["phase"] == "round_end_window"


def test_dp_d6_round_boundary_and_alarm():
    t = solo(ability=1, danger=3)
    t.declare("ann", [9], [5, 4, 3])
    assert t.scene["danger_pool_size"] == 3
    t.do({"type": "continue_scene", "character_id": "ann"})
    t.do({"type": "raise_alarm", "amount": 2})
    assert (t.scene["round"], t.scene["danger_pool_size"], t.scene["alarm_used"]) == (2, 7, True)
    t.fails({"type": "raise_alarm", "amount": 1}, "alarm_already_used", status=409)


def test_dp_d7_bail_out_roll():
    t = Table()
    for c in ("lead", "a", "b", "c"):
        t.pc(c, {"Wetwork": 1, "Driving": 3})
    t.scene_for(["lead", "a", "b", "c"], waive=True)
    t.state["characters"]["c"]["stamina"] = 1
    t.declare("c", [2], [3, 10])  # c is taken out
    for m in ("a", "b", "lead"):
        t.declare(m, [2], [3, 4])
    t.do({"type": "bail_out", "character_id": "lead", "approach": "floor it", "ability": "Driving"}, [9, 6, 3, 8, 5])
    assert t.roll["state"] == "extraction_pending" and t.roll["successes"] == 1
    t.do({"type": "extract", "character_id": "lead", "extracted_ids": ["a"]})
    for m in ("lead", "b"):
        (scar,) = t.sheet(m)["scars"]
        assert (scar["origin"], scar["counts_toward_max"], scar["granted_cp"]) == ("bail_out", False, False)
        assert t.sheet(m)["character_points"] == 2
    assert t.sheet("a")["scars"] == [] and t.sheet("c")["scars"] == []
    assert t.scene["danger_pool_size"] == 3 and t.scene["phase"] == "setup"


def betrayal_table() -> Table:
    t = Table()
    for i, cp in enumerate((2, 0, 5), 1):
        t.pc(f"c{i}", player_id=f"P{i}")
        t.state["characters"][f"c{i}"]["character_points"] = cp
    t.state["characters"]["c1"]["pending_aftermath"] = True
    t.planning()
    return t


def test_dp_d8_betray_the_team():
    t = betrayal_table()
    t.do(
        {"type": "choose_aftermath", "character_id": "c1", "option": "betray_the_team", "plan": "sell them out"},
        actor=player("c1", player_id="P1"),
    )
    assert [t.sheet(c)["character_points"] for c in ("c1", "c2", "c3")] == [2, 1, 6]
    assert t.sheet("c1")["status"] == "traitor_npc" and t.sheet("c1")["player_id"] is None
    assert t.table["players"]["P1"]["aftermath_used"] == ["betray_the_team"]
    t.do({"type": "end_scene"})
    t.do(
        {
            "type": "create_action_scene",
            "goal": "g",
            "leader_id": "c2",
            "team": ["c2", "c3"],
            "progress_track_length": 6,
        }
    )
    assert t.scene["progress_track_length"] == 10
    assert [e["source_character_id"] for e in t.scene["elements"]] == ["c1"]


def test_dp_d9_option_reuse():
    t = betrayal_table()
    t.table["players"]["P1"]["aftermath_used"] = ["take_the_hit"]
    t.fails(
        {"type": "choose_aftermath", "character_id": "c1", "option": "take_the_hit", "ability": "Wetwork"},
        "aftermath_option_used",
        actor=player("c1", player_id="P1"),
        status=409,
    )


def test_dp_d10_risk_and_ignore_pain():
    t = solo(stamina=1, ability=2, danger=1)
    events = t.declare("ann", [2, 2, 2, 2, 2], [9], cp_spends=["risk"], risk_proposal="jump the gap")
    assert one(events, "action_rolled")["pool_size"] == 5 and t.sheet("ann")["character_points"] == 1
    end_round(t, "ann")
    t.set_scene(danger_pool_size=1)
    events = t.declare("ann", [2, 2], [9], cp_spends=["ignore_pain"])
    assert one(events, "stamina_restored")["stamina"] == 3
    assert [e.type for e in events][:3] == ["character_points_spent", "stamina_restored", "action_rolled"]
    assert t.sheet("ann")["stamina"] == 3 and t.sheet("ann")["character_points"] == 0
    end_round(t, "ann")
    t.fails(
        {
            "type": "declare_action",
            "character_id": "ann",
            "kind": "push",
            "approach": "x",
            "ability": "Wetwork",
            "cp_spends": ["risk"],
        },
        "not_enough_character_points",
        status=409,
    )
    u = solo()
    u.fails(
        {
            "type": "declare_action",
            "character_id": "ann",
            "kind": "push",
            "approach": "x",
            "ability": "Wetwork",
            "cp_spends": ["risk", "ignore_pain"],
        },
        "too_many_character_point_spends",
        status=422,
    )


def test_dp_d11_zero_pool_auto_lose():
    t = solo(ability=1, danger=2)
    for text in ("lost eye", "bad knee"):
        t.do({"type": "record_scar", "character_id": "ann", "text": text})
    events = t.declare("ann", [], [10, 4], scars=["scar-1", "scar-2"])
    rolled = one(events, "action_rolled")
    assert rolled["pool_size"] == -1 and rolled["player_dice"] == [] and len(rolled["dice"]) == 2
    assert one(events, "roll_resolved")["outcome"] == "lose"
    assert t.sheet("ann")["stamina"] == 2
