"""view(): what each actor may see (spec 8.2)."""

from __future__ import annotations

import copy

from trikus_support import GM, Table, player

from service.rules.trikus import SYSTEM


def test_view_is_pure_and_complete_for_the_gm():
    t = Table()
    t.party()
    before = copy.deepcopy(t.state)
    v = SYSTEM.view(t.state, GM)
    assert t.state == before
    assert v["characters"] == t.state["characters"]
    assert {k: x for k, x in v["table"].items() if k != "offers"} == t.state["table"] and v["table"]["offers"]
    assert v["party"]["composition_ok"]


def test_view_a_submitted_throw_has_no_value_to_leak():
    """L118: until the wave completes the state shows only who has thrown."""
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.submit("gm")
    c = SYSTEM.view(t.state, player("michal"))["table"]["activity"]["contest"]
    assert c["submitted"] == ["gm"] and c["dice"] == []
    assert SYSTEM.view(t.state, player("michal"))["table"]["awaiting"] == [
        {"who": "character", "character_id": "michal", "may": ["throw"]}
    ]


def test_view_players_see_dark_token_counts_and_other_dark_sides():
    """L290, A38: counts are public; dark sides are visible to players (8.2)."""
    t = Table()
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=1, received_total=1)
    v = SYSTEM.view(t.state, player("pawel"))["characters"]["zuzia"]
    assert v["dark_tokens"]["active"] == 1 and v["dark_sides"][0]["text"] == "Zuzia dark 0"


def test_view_composition_warning_not_rejection():
    """L21: the party should have one of each tier; another composition only warns (spec 3.3)."""
    t = Table()
    t.pc("a", "beginner")
    t.pc("b", "beginner")
    v = SYSTEM.view(t.state, GM)["party"]
    assert not v["composition_ok"] and v["composition"] == {"beginner": 2, "advanced": 0, "master": 0}
    t.do({"type": "open_test", "character_ids": ["a", "b"], "gm_pool": 1})


def test_view_gm_only_events_are_marked():
    """Players never receive an unnoticed boom (A42)."""
    t = Table(adv_boom=True)
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    events = t.wave(gm=2, pawel=2, michal=2)
    hidden = [e for e in events if e.visibility == "gm"]
    assert [e.type for e in hidden] == ["boom_available"]
    assert all("boom" not in str(e.data) for e in events if e.visibility == "all")


def test_view_gm_private_notes_never_reach_players():
    """Spec 8.2: the GM's planned dark-token use and hidden plot."""
    t = Table()
    t.party()
    events = t.do({"type": "gm_note", "character_id": "zuzia", "text": "spend her token at the holodisk"})
    assert events[0].visibility == "gm"
    assert SYSTEM.view(t.state, player("zuzia"))["table"]["gm_notes"] == []
    assert SYSTEM.view(t.state, GM)["table"]["gm_notes"][0]["text"].startswith("spend")
    t.fails({"type": "gm_note", "text": "x"}, "gm_only", actor=player("zuzia"))


def test_view_party_members_are_in_seat_order():
    """Spec 3.3: `members` is the seat order (the order characters joined), not the order of their ids."""
    t = Table()
    t.pc("zed", "master")
    t.pc("amy", "advanced")
    t.pc("bob", "beginner")
    assert SYSTEM.view(t.state, GM)["party"]["members"] == ["zed", "amy", "bob"]
    t.do({"type": "gm_note", "text": "seated"})
    t.state["characters"] = dict(sorted(t.state["characters"].items()))
    assert SYSTEM.view(t.state, player("amy"))["party"]["members"] == ["zed", "amy", "bob"]
