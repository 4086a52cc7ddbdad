"""view() and event redaction (spec 8): GM-only information never reaches players."""

from __future__ import annotations

from iskra_support import GM, Table, player
from service.rules.iskra import SYSTEM

ALA = player("ala")


def _table() -> Table:
    t = Table()
    t.pc("ala")
    t.npc("orc", attrs={"strength": 4})
    return t


def test_gm_sees_everything_plus_derived_values():
    t = _table()
    v = SYSTEM.view(t.state, GM)
    assert v["characters"]["orc"]["attributes"]["strength"] == 4 and v["derived"]["orc"]["health_band"] == "healthy"


def test_players_do_not_see_npc_numbers():
    t = _table()
    v = SYSTEM.view(t.state, ALA)
    orc = v["characters"]["orc"]
    assert "attributes" not in orc and "health" not in orc and "focus_points" not in orc
    assert "orc" not in v["derived"] and v["characters"]["ala"]["attributes"]["strength"] == 2


def test_npc_tests_and_hidden_modifiers_are_redacted_for_players():
    t = _table()
    events = t.do({"type": "open_test", "character_id": "orc", "attribute": "strength"})
    assert events[0].redacted is not None and "s0" not in events[0].redacted["test"]
    assert SYSTEM.redact_event(events[0], ALA) == events[0].redacted
    assert SYSTEM.redact_event(events[0], GM)["test"]["s0"] == 4
    assert "s0" not in SYSTEM.view(t.state, ALA)["table"]["pending"]
    t.do({"type": "roll"}, dice=[5])
    t.do({"type": "accept_test"})
    t.open(
        "ala",
        "strength",
        modifiers=[{"source": "secret trap", "value": -2, "hidden": True}, {"source": "rain", "value": -1}],
    )
    p = SYSTEM.view(t.state, ALA)["table"]["pending"]
    assert "s0" not in p and {"source": "rain", "value": -1, "hidden": False} in p["gm_modifiers"]
    assert {"source": "hidden", "value": None, "label": "hidden", "hidden": True} in p["gm_modifiers"]


def test_others_ready_triggers_are_hidden_until_they_fire():
    t = _table()
    t.fight(["orc"], ["ala"])
    events = t.do(
        {
            "type": "ready",
            "character_id": "orc",
            "held_action": "melee_attack",
            "target_id": "ala",
            "description": "smash",
            "trigger_text": "if she moves",
        }
    )
    assert "trigger_text" not in SYSTEM.redact_event(events[-1], ALA)
    assert SYSTEM.view(t.state, ALA)["table"]["encounter"]["ready"]["orc"] == {"readied": True, "created_round": 1}
    assert SYSTEM.view(t.state, GM)["table"]["encounter"]["ready"]["orc"]["trigger_text"] == "if she moves"


def test_location_ether_and_exposure_flags_are_gm_only():
    t = _table()
    events = t.do(
        {"type": "define_location", "location_id": "rift", "name": "Rift", "ether_concentration": "very_high"}
    )
    assert "ether_concentration" not in SYSTEM.redact_event(events[0], ALA)["location"]
    events = t.do({"type": "set_location", "character_ids": ["ala"], "location_id": "rift"})
    assert SYSTEM.redact_event(events[-1], ALA) is None
    v = SYSTEM.view(t.state, ALA)
    assert v["table"]["ether_exposure"] == [] and v["table"]["locations"]["rift"]["ether_concentration"] is None
    assert SYSTEM.view(t.state, GM)["table"]["ether_exposure"][0]["character_id"] == "ala"


def test_private_gm_note():
    t = _table()
    events = t.do({"type": "gm_note", "text": "the orc is a spy", "visible_to_players": False})
    assert SYSTEM.redact_event(events[0], ALA) is None


def test_view_does_not_change_the_state():
    t = _table()
    before = __import__("copy").deepcopy(t.state)
    SYSTEM.view(t.state, ALA)
    assert t.state == before


def test_npc_health_and_focus_in_events_are_redacted():
    t = _table()
    events = t.do({"type": "deal_damage", "character_id": "orc", "wounds": 2})
    events += t.do({"type": "reduce_damage", "amount": 1, "description": "parries"})
    events += t.do({"type": "accept_damage"})
    for e in events:
        seen = SYSTEM.redact_event(e, ALA)
        assert seen is None or not {"health", "focus_points"} & set(seen), e.type
    assert [e for e in events if e.type == "damage_applied"][0].data["health"] == 4


def test_deaths_door_warning_on_the_test():
    t = _table()
    t.set("ala", health=0)
    assert t.open("ala", "strength")["deaths_door_warning"] is True
