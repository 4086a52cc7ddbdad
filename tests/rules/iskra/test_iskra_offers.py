"""`table.offers` lists every move the Iskra engine takes from a party in the state at hand (found missing by
the property tests, which check each accepted move against the offers it was made under)."""

from __future__ import annotations

from engine_moves import check_offered
from iskra_support import GM, Table, player
from service.rules.iskra import SYSTEM

ALA = player("ala")


def offered(t: Table, action: dict, actor) -> bool:
    return check_offered(SYSTEM, t.state, action, actor)


def test_a_player_may_drop_an_item_of_their_character_at_any_time():
    t = Table()
    t.pc("ala")
    t.do({"type": "add_item", "character_id": "ala", "name": "rock", "weight": 0}, actor=ALA)
    drop = {"type": "drop_item", "character_id": "ala", "item_id": "i1"}
    assert offered(t, drop, ALA)
    t.do(drop, actor=ALA)


def test_a_player_may_use_resources_of_their_character_at_any_time():
    t = Table()
    t.pc("ala")
    use = {"type": "use_resources", "character_id": "ala", "base_cost": 2, "description": "rope"}
    assert offered(t, use, ALA)
    t.do(use, actor=ALA)


def test_the_gm_may_start_a_combat_while_a_recovery_test_is_due():
    t = Table()
    t.pc("ala")
    t.pc("bob")
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 2, "source": "hazard"})
    t.do({"type": "accept_damage"})
    t.do({"type": "advance_time", "days": 1})
    assert [e["may"] for e in t.table["awaiting"]] == [["recovery_test"]]
    fight = {
        "type": "start_combat",
        "initiator_id": "ala",
        "sides": [{"side_id": "A", "participant_ids": ["ala"]}, {"side_id": "B", "participant_ids": ["bob"]}],
    }
    assert offered(t, fight, GM)
    t.do(fight)
    assert t.enc["state"] == "active"


def test_a_combat_goes_on_and_may_end_while_a_recovery_test_is_due():
    t = Table()
    t.pc("ala")
    t.pc("bob")
    t.fight(["ala"], ["bob"])
    t.do({"type": "deal_damage", "character_id": "bob", "wounds": 2, "source": "hazard"})
    t.do({"type": "accept_damage"})
    t.do({"type": "advance_time", "days": 1})
    assert ["recovery_test"] in [e["may"] for e in t.table["awaiting"]]
    turn = {"type": "end_turn", "participant_id": t.current}
    assert offered(t, turn, player(t.current))
    assert offered(t, {"type": "end_combat"}, GM)
    t.do(turn, actor=player(t.current))
    t.do({"type": "end_combat"})
    assert t.enc is None or t.enc["state"] == "ended"
