"""view() and event visibility (spec §3.4, §8, A43): GM-only information never reaches players."""

from __future__ import annotations

from danger_pool_support import GM, Table, element_id, player

from service.rules.danger_pool import SYSTEM


def scene_with_element() -> Table:
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"], elements=[{"text": "the sniper on the roof"}])
    t.do({"type": "add_element", "text": "reinforcements"})
    t.do({"type": "gm_note", "text": "alarm: 3 when they reach the vault"})
    return t


def test_view_hides_unused_elements_and_gm_notes_from_players():
    t = scene_with_element()
    seen = SYSTEM.view(t.state, player("ann"))
    assert seen["table"]["scene"]["elements"] == [] and seen["table"]["gm_notes"] == []
    assert seen["table"]["scene"]["danger_pool_size"] == 2  # the pool is public
    gm = SYSTEM.view(t.state, GM)
    assert len(gm["table"]["scene"]["elements"]) == 2 and gm["table"]["gm_notes"]


def test_view_shows_an_element_once_used():
    t = scene_with_element()
    t.declare("ann", [5], [6, 2])
    t.do({"type": "element_reroll", "element_id": element_id(1)}, [3, 2])
    seen = SYSTEM.view(t.state, player("ann"))
    assert [e["text"] for e in seen["table"]["scene"]["elements"]] == ["the sniper on the roof"]


def test_events_with_gm_only_information_are_hidden_or_redacted():
    t = scene_with_element()
    by_type = {e.type: e for e in t.log}
    created = by_type["scene_created"]
    assert created.data["elements"] and created.redacted["elements"] == []
    assert by_type["element_added"].visibility == "gm" and by_type["gm_note"].visibility == "gm"


def test_view_hides_the_traitors_plan_from_other_players():
    t = Table()
    t.pc("ann", player_id="P1")
    t.pc("bob", player_id="P2")
    t.state["characters"]["ann"]["pending_aftermath"] = True
    t.planning()
    events = t.do(
        {"type": "choose_aftermath", "character_id": "ann", "option": "betray_the_team", "plan": "sell the vault codes"}
    )
    applied = next(e for e in events if e.type == "aftermath_applied")
    assert applied.data["plan"] == "sell the vault codes" and "plan" not in applied.redacted
    assert SYSTEM.view(t.state, player("bob"))["characters"]["ann"]["traitor_plan"] is None
    assert SYSTEM.view(t.state, player("ann"))["characters"]["ann"]["traitor_plan"] == "sell the vault codes"
    assert SYSTEM.view(t.state, GM)["characters"]["ann"]["traitor_plan"] == "sell the vault codes"


def test_view_does_not_change_the_state():
    t = scene_with_element()
    before = {**t.state}
    SYSTEM.view(t.state, player("ann"))
    assert t.state == before and t.state["table"]["gm_notes"]
