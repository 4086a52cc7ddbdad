"""After-effects (spec §4.15), character points (§4.16) and scars (§4.17)."""

from __future__ import annotations

from danger_pool_support import Table, one, player


def owed(**options) -> Table:
    t = Table(**options)
    t.pc("ann", {"Wetwork": 3, "Charm": 1}, player_id="P1")
    t.pc("bob", {"Driving": 2}, player_id="P2")
    t.state["characters"]["ann"]["pending_aftermath"] = True
    t.planning()
    return t


def choose(t: Table, option: str, cid: str = "ann", pid: str = "P1", **kw) -> list:
    return t.do(
        {"type": "choose_aftermath", "character_id": cid, "option": option, **kw}, actor=player(cid, player_id=pid)
    )


def test_rule_take_the_hit_needs_gm_approval():
    t = owed()
    choose(t, "take_the_hit", ability="Wetwork", description="my aim is gone")
    assert t.sheet("ann")["abilities"]["Wetwork"] == 3 and t.sheet("ann")["pending_aftermath"]
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["review_aftermath"]}]
    t.do({"type": "review_aftermath", "character_id": "ann", "decision": "request_change", "note": "not aim"})
    choose(t, "take_the_hit", ability="Wetwork", description="my hands shake")
    events = t.do({"type": "review_aftermath", "character_id": "ann", "decision": "approve"})
    assert one(events, "aftermath_applied")["rating"] == 2
    assert t.sheet("ann")["character_points"] == 3 and not t.sheet("ann")["pending_aftermath"]
    assert t.table["players"]["P1"]["aftermath_used"] == ["take_the_hit"]


def test_rule_set_someone_else_up_and_victim_points():
    t = owed()
    choose(t, "set_someone_up", target_character_id="bob", ability="Driving")
    assert t.sheet("bob")["abilities"]["Driving"] == 1 and t.sheet("bob")["character_points"] == 3
    u = owed(set_up_victim_gains_cp=False)
    choose(u, "set_someone_up", target_character_id="bob", ability="Driving")
    assert u.sheet("bob")["character_points"] == 2


def test_rule_set_up_target_must_be_another_players_character():
    t = owed()
    t.pc("cid2", {"Driving": 3}, player_id="P1")
    t.fails(
        {
            "type": "choose_aftermath",
            "character_id": "ann",
            "option": "set_someone_up",
            "target_character_id": "cid2",
            "ability": "Driving",
        },
        "invalid_set_up_target",
    )


def test_rule_hide_the_pain_dies_at_the_end_of_the_next_scene():
    t = owed()
    choose(t, "hide_the_pain")
    t.do({"type": "end_scene"})
    assert t.sheet("ann")["status"] == "active" and t.sheet("ann")["doomed_next_scene"]
    t.scene_for(["ann", "bob"])
    assert t.sheet("ann")["doomed_in_scene_id"] == "scene-2"
    t.state["characters"]["ann"]["stamina"] = 1
    t.declare("ann", [5, 5, 5], [10, 3])  # out again: no further after-effect (A37)
    assert not t.sheet("ann")["pending_aftermath"]
    t.do({"type": "end_scene"})
    assert t.sheet("ann")["status"] == "dead" and one(t.log, "character_dead")["scene_id"] == "scene-2"


def test_rule_hide_the_pain_may_depart_instead_of_dying():
    t = owed()
    choose(t, "hide_the_pain", exit="departed")
    t.do({"type": "end_scene"})
    t.planning()
    t.do({"type": "end_scene"})
    assert t.sheet("ann")["status"] == "departed"


def test_rule_betrayer_can_no_longer_act():
    t = owed()
    choose(t, "betray_the_team", plan="tip off the police")
    t.do({"type": "end_scene"})
    t.fails({"type": "create_action_scene", "goal": "g", "leader_id": "ann", "team": ["ann"]}, "character_not_active")


def test_option_aftermath_scope_character():
    for scope, code in (("player", "aftermath_option_used"), ("character", None)):
        t = owed(aftermath_scope=scope)
        t.pc("ann2", {"Wetwork": 2}, player_id="P1")  # P1's new character
        t.table["players"]["P1"]["aftermath_used"] = ["hide_the_pain"]
        t.state["characters"]["ann2"]["pending_aftermath"] = True
        action = {"type": "choose_aftermath", "character_id": "ann2", "option": "hide_the_pain"}
        if code:
            t.fails(action, code)
        else:
            t.do(action)


def test_rule_planning_scene_cannot_close_with_an_after_effect_owed():
    t = owed()
    assert t.table["awaiting"] == [{"who": "character", "character_id": "ann", "may": ["choose_aftermath"]}]
    t.fails({"type": "end_scene"}, "aftermath_pending")


def test_rule_after_effect_waits_for_a_planning_scene():
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"])
    t.state["characters"]["ann"]["stamina"] = 1
    t.declare("ann", [5], [10, 3])
    assert t.table["requests"] == [
        {"who": "character", "character_id": "ann", "may": ["choose_aftermath"], "when": "next_planning_scene"}
    ]
    t.fails({"type": "choose_aftermath", "character_id": "ann", "option": "hide_the_pain"}, "not_in_planning_scene")


def test_rule_gm_settles_when_no_option_remains():
    t = owed()
    t.fails({"type": "settle_aftermath", "character_id": "ann", "text": "x"}, "aftermath_option_available")
    t.table["players"]["P1"]["aftermath_used"] = ["take_the_hit", "set_someone_up", "betray_the_team", "hide_the_pain"]
    t.do({"type": "settle_aftermath", "character_id": "ann", "text": "retires"})
    t.do({"type": "end_scene"})


def test_rule_tales_and_scars_give_character_points():
    t = Table(cp_per_tale=2, cp_per_accepted_scar=3, max_scars=2)
    t.pc("ann")
    t.do({"type": "record_tale", "character_id": "ann", "text": "Baghdad, 1991"})
    assert t.sheet("ann")["character_points"] == 4
    t.do({"type": "record_scar", "character_id": "ann", "text": "one eye"})
    events = t.do({"type": "record_scar", "character_id": "ann", "text": "limp"})
    assert t.sheet("ann")["character_points"] == 10
    assert one(events, "max_scars_reached") == {"character_id": "ann", "counted_scars": 2, "max_scars": 2}


def test_option_max_scars_off_reports_nothing():
    t = Table()
    t.pc("ann")
    for text in ("a", "b", "c"):
        events = t.do({"type": "record_scar", "character_id": "ann", "text": text})
        assert [e.type for e in events] == ["scar_gained"]


def test_option_cp_per_accepted_reduction():
    t = owed(cp_per_accepted_reduction=0)
    choose(t, "take_the_hit", ability="Wetwork")
    t.do({"type": "review_aftermath", "character_id": "ann", "decision": "approve"})
    assert t.sheet("ann")["character_points"] == 2


def test_option_betrayal_track_boxes_and_stamina_default():
    t = owed(betrayal_track_boxes=2, stamina_max_default=5)
    assert t.sheet("bob")["stamina"] == 5
    choose(t, "betray_the_team")
    t.do({"type": "end_scene"})
    t.scene_for(["bob"], start=False)
    assert t.scene["progress_track_length"] == 8 + 2
    t.do({"type": "configure_scene", "progress_track_length": 3})
    assert t.scene["progress_track_length"] == 3 + 2


def test_awaiting_names_the_gm_once_however_many_proposals_wait():
    t = Table()
    for cid in ("ann", "bob"):
        t.pc(cid, {"Wetwork": 3}, player_id=f"P-{cid}")
        t.state["characters"][cid]["pending_aftermath"] = True
    t.planning()
    for cid in ("ann", "bob"):
        t.do(
            {"type": "choose_aftermath", "character_id": cid, "option": "take_the_hit", "ability": "Wetwork"},
            actor=player(cid, player_id=f"P-{cid}"),
        )
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["review_aftermath"]}]
