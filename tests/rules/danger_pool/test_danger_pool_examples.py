"""The source's worked examples, spec §6.1 (DP-E1 … DP-E4), fed through TableDice."""

from __future__ import annotations

from danger_pool_support import Table, of, one, player


def cyclops_table() -> Table:
    t = Table()
    t.pc("cyclops", {"Wetwork": 3}, legends=["Lead Nightmare of Old Baghdad"], equipment=["ivory-trimmed Colt 1911"])
    t.scene_for(["cyclops"], progress_track_length=8)
    t.set_scene(danger_pool_size=4)
    return t


def test_dp_e1_cyclops_pushes_through_the_bar():
    t = cyclops_table()
    events = t.declare("cyclops", [10, 10, 6, 6, 5], [9, 8, 7, 2], legends=["legend-1"], equipment="item-1")
    rolled = one(events, "action_rolled")
    assert rolled["pool_size"] == 5 and rolled["player_dice"] == [10, 10, 6, 6, 5]
    res = one(events, "roll_resolved")
    assert (res["player_max"], res["danger_max"], res["outcome"], res["successes"]) == (10, 9, "win", 2)
    sc = t.scene
    assert sc["progress_marked"] == 2 and sc["danger_pool_size"] == 4
    assert t.sheet("cyclops")["stamina"] == 3
    assert sc["acted_this_round"] == ["cyclops"]


def test_dp_e2_both_maxima_are_announced():
    t = cyclops_table()
    events = t.declare("cyclops", [8, 3, 2], [5, 4, 4, 7], kind="hold_back")
    rolled = one(events, "action_rolled")
    assert (rolled["player_max"], rolled["danger_max"]) == (8, 7)
    assert (t.last_roll["player_max"], t.last_roll["danger_max"]) == (8, 7)


def test_dp_e3_bail_out_and_the_follow_up_scene():
    t = Table()
    for c in ("lead", "ann", "bob"):
        t.pc(c, {"Wetwork": 1})
    s1 = t.scene_for(["lead", "ann", "bob"], waive=True)["id"]
    t.declare("ann", [5], [6, 2])  # lose, no 10s
    t.declare("bob", [5], [6, 10])  # lose, one 10: stamina 2
    t.declare("lead", [5], [6, 2])
    assert t.scene["phase"] == "round_end_window" and t.sheet("bob")["stamina"] == 2
    t.do(
        {"type": "bail_out", "character_id": "lead", "approach": "through the vents", "ability": "Wetwork"}, [9, 7, 7]
    )  # win, 1 success (any result will do)
    t.do({"type": "extract", "character_id": "lead", "extracted_ids": ["lead"]})
    old = t.table["last_scene"]
    assert old["id"] == s1 and old["outcome"] == "bailed_out"
    assert old["danger_pool_size"] == 2 and old["round"] == 1 and not old["alarm_used"]  # no +2, no alarm
    assert all(t.sheet(c)["stamina"] == 3 for c in ("lead", "ann", "bob"))
    s2 = t.scene
    assert (s2["goal"], s2["leader_id"], s2["danger_pool_size"], s2["alarm_used"], s2["predecessor_scene_id"]) == (
        "get into the compound",
        "lead",
        3,
        False,
        s1,
    )
    t.do({"type": "configure_scene", "goal": "break in through the ventilation"})
    t.do({"type": "start_scene"})
    assert (t.scene["round"], t.scene["danger_pool_size"], t.scene["goal"]) == (
        1,
        3,
        "break in through the ventilation",
    )


def test_dp_e4_narration_is_stored_without_mechanics():
    t = Table()
    t.pc("ann")
    t.scene_for(["ann"], danger="surrounded by starving wolves")
    before = {k: v for k, v in t.scene.items() if k != "notes"}
    sheet = dict(t.sheet("ann"))
    for topic, text in [
        ("danger", "the lady of the manor is getting closer"),
        ("stamina_loss", "my hip started aching again"),
        ("taken_out", "captured"),
        ("exit", "left the story on a night train"),
    ]:
        events = t.do({"type": "describe", "character_id": "ann", "topic": topic, "text": text}, actor=player("ann"))
        assert one(events, "narration")["text"] == text
    assert [n["topic"] for n in t.scene["notes"]] == ["danger", "stamina_loss", "taken_out", "exit"]
    assert {k: v for k, v in t.scene.items() if k != "notes"} == before and t.sheet("ann") == sheet
    assert t.scene["danger"] == "surrounded by starving wolves"
    assert len(of(t.log, "narration")) == 4
