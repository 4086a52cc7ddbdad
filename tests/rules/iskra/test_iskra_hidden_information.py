"""Spec 8: hidden modifiers, NPC numbers and the true Ether level reach no player — neither through a
refusal nor through the event log; nor do the id counters."""

from __future__ import annotations

from iskra_support import GM, Table, player

from service.rules.iskra import SYSTEM

ALA = player("ala")


def test_a_refusal_does_not_tell_a_player_the_s_of_a_test_with_hidden_modifiers():
    t = Table()
    t.pc("ala")  # strength 2
    t.open("ala", "strength", modifiers=[{"source": "secret ally", "value": 3, "hidden": True}])
    refusal = t.fails({"type": "accept_test"}, "roll_required", actor=ALA)
    assert "= 5" not in refusal.detail and "5" not in refusal.detail
    assert "S = 5" in t.fails({"type": "accept_test"}, "roll_required").detail  # the GM may know


def test_a_refusal_names_s_when_nothing_in_it_is_hidden():
    t = Table()
    t.pc("ala")
    t.open("ala", "strength", modifiers=[{"source": "rain", "value": 3}])
    assert "S = 5" in t.fails({"type": "accept_test"}, "roll_required", actor=ALA).detail


def test_only_the_sensing_character_learns_the_ether_level_it_sensed():
    """L207: the GM reveals the level to the Human who sensed it, not to the whole table's log."""
    t = Table()
    t.pc("hum", species="human")
    t.pc("ala")
    t.do({"type": "define_location", "location_id": "rift", "name": "Rift", "ether_concentration": "very_high"})
    [sensed] = t.do({"type": "reveal_ether", "location_id": "rift", "character_id": "hum"})
    assert "ether_concentration" not in sensed.seen_by(ALA)
    assert sensed.seen_by(GM)["ether_concentration"] == "very_high"
    assert SYSTEM.view(t.state, player("hum"))["table"]["locations"]["rift"]["ether_concentration"] == "very_high"


def test_players_see_neither_the_id_counters_nor_the_id_salt():
    t = Table()
    t.pc("ala")
    t.open("ala", "strength")
    seen = SYSTEM.view(t.state, ALA)["table"]
    assert "seq" not in seen and "id_salt" not in seen
