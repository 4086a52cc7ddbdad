"""Spec 8: what players must not learn — not from the state, not from an event, not from a refusal."""

from __future__ import annotations

from stepdice_support import GM, Table, attack, begin, clock_id, player

from service.rules.stepdice import SYSTEM


def _ambush() -> Table:
    """w next to nobody; a boss (TN 12) whose identity and position the GM keeps hidden."""
    t = Table()
    t.pc("w")
    t.fight(
        {"w": {"x": 0, "y": 0}},
        [{"enemy_id": "b", "name": "Shape", "kind": "boss", "position": {"x": 5, "y": 0}, "position_revealed": False}],
    )
    begin(t, "w")
    return t


def test_hidden_clocks_cannot_be_counted_from_the_ids_players_see():
    t = Table(use_time_pressure_clocks=True)
    t.do({"type": "start_scene"})
    t.do({"type": "create_clock", "label": "torches", "consequence": "dark", "visible_to_players": True})
    t.do({"type": "create_clock", "label": "ritual", "consequence": "the lich awakens"})
    t.do({"type": "create_clock", "label": "tide", "consequence": "flood", "visible_to_players": True})
    seen = SYSTEM.view(t.state, player("w"))["table"]
    assert sorted(seen["clocks"]) == sorted([clock_id(1), clock_id(3)])
    assert all(not cid[1:].isdigit() for cid in seen["clocks"])  # no "c1", "c3" with a gap at "c2"


def test_players_see_neither_the_id_counters_nor_the_id_salt():
    t = Table(use_time_pressure_clocks=True)
    t.do({"type": "start_scene"})
    t.do({"type": "create_clock", "label": "ritual", "consequence": "the lich awakens"})
    seen = SYSTEM.view(t.state, player("w"))["table"]
    assert "seq" not in seen and "id_salt" not in seen
    assert SYSTEM.view(t.state, GM)["table"]["seq"]["clock"] == 1


def test_a_player_cannot_probe_an_unrevealed_enemys_tn_with_a_refusable_attack():
    t = _ambush()
    probe = attack("w", "b", "ranged", steps=[{"source": "dark", "delta": 1}], on_near_impossible="refuse")
    refusal = t.fails(probe, "gm_only", actor=player("w"), status=403)
    assert refusal.field == "on_near_impossible"
    assert "12" not in refusal.detail and "boss" not in refusal.detail


def test_a_gm_refusal_on_a_secret_tn_tells_players_neither_the_tn_nor_the_reason():
    t = _ambush()
    ev = t.do(attack("w", "b", "ranged", steps=[{"source": "dark", "delta": 1}], on_near_impossible="refuse"))
    refused = next(e for e in ev if e.type == "test_refused")
    seen = refused.seen_by(player("w"))
    assert not {"base_tn", "tn", "band", "reason"} & seen.keys()
    assert refused.seen_by(GM)["reason"] == "near_impossible"


def test_a_melee_refusal_does_not_tell_a_player_where_an_unrevealed_enemy_stands():
    t = _ambush()
    refusal = t.fails(attack("w", "b", "melee"), "not_adjacent", actor=player("w"))
    assert "squares away" not in refusal.detail
    assert "5 squares" in t.fails(attack("w", "b", "melee"), "not_adjacent").detail  # the GM knows


def test_a_melee_refusal_names_the_distance_of_an_enemy_players_can_see():
    t = Table()
    t.pc("w")
    t.fight({"w": {"x": 0, "y": 0}}, [{"enemy_id": "m", "name": "Rat", "kind": "minion", "position": {"x": 4, "y": 0}}])
    begin(t, "w")
    assert "4 squares" in t.fails(attack("w", "m", "melee"), "not_adjacent", actor=player("w")).detail
