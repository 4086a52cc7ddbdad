"""Derived vectors AD-D1 … AD-D7 of spec §6.2 (resolutions, not in the source)."""

from __future__ import annotations

import pytest

from action_deck_support import SeededDice, Table, interrupt_table, one
from service.rules.action_deck.cards import FULL_DECK


def _crew(n: int, **options) -> Table:
    """n characters; the first few are player characters, the rest GM-controlled Extras."""
    t = Table(**options)
    ids = [f"c{i}" for i in range(n)]
    for i, cid in enumerate(ids):
        t.add(cid, **({} if i < 4 else {"kind": "extra", "side": "opposition"}))
    t.session({f"p{cid}": [cid] for cid in ids[:4]})
    return t


def test_AD_D1_reshuffle_after_a_joker_round_only():
    t = _crew(2)
    t.do({"type": "start_encounter", "participants": ["c0", "c1"]})
    t.play_round({"c0": "2S", "c1": "3S"})
    deck = t.table["deck"]
    assert deck["discard_pile"] == ["2S", "3S"] and len(deck["draw_pile"]) == 52  # no Joker: the pile goes on
    t.play_round({"c0": "4S", "c1": "5S"})
    t.play_round({"c0": "JK-R", "c1": "6S"})  # round 3 deals a Joker
    assert t.enc["round"] == 4
    assert sorted(deck := t.table["deck"]["draw_pile"]) == sorted(FULL_DECK) and not t.table["deck"]["discard_pile"]
    assert [e.data["reason"] for e in t.log if e.type == "deck_shuffled"] == ["encounter_start", "joker_round"]


def test_AD_D1_no_reshuffle_under_when_exhausted_only():
    t = _crew(2, reshuffle_rule="when_exhausted_only")
    t.do({"type": "start_encounter", "participants": ["c0", "c1"]})
    t.play_round({"c0": "JK-R", "c1": "6S"})
    assert t.table["deck"]["discard_pile"] == ["JK-R", "6S"]


def test_AD_D2_the_discards_refill_an_empty_draw_pile():
    t = _crew(10)
    src = SeededDice(7)
    t.do({"type": "start_encounter", "participants": [f"c{i}" for i in range(10)]}, source=src)
    deck = t.table["deck"]
    deck["discard_pile"], deck["draw_pile"] = deck["draw_pile"][6:], deck["draw_pile"][:6]
    six, old_discards = list(deck["draw_pile"]), set(deck["discard_pile"])
    ev = t.do({"type": "deal"}, source=SeededDice(8))
    dealt = list(one(ev, "cards_dealt").data["cards"].values())
    assert dealt[:6] == six and set(dealt[6:]) <= old_discards
    assert one(ev, "deck_shuffled").data["reason"] == "draw_pile_empty"
    assert sorted(t.table["deck"]["draw_pile"] + t.table["deck"]["in_play"]) == sorted(FULL_DECK)


def test_AD_D2_table_mode_validates_against_the_refilled_pile():
    t = _crew(3)
    t.do({"type": "start_encounter", "participants": ["c0", "c1", "c2"]})
    deck = t.table["deck"]
    deck["draw_pile"], deck["discard_pile"] = ["2S"], [c for c in FULL_DECK if c != "2S"]
    t.fails({"type": "deal", "cards": ["3S", "2S", "4S"]}, "card_not_in_deck")  # 2S must come first
    t.do({"type": "deal", "cards": ["2S", "3S", "4S"]})
    assert t.slot("c2")["card"] == "4S"


def test_AD_D2_more_than_54_cards_in_one_round_is_deck_exhausted():
    t = _crew(55)
    t.do({"type": "start_encounter", "participants": [f"c{i}" for i in range(55)]})
    t.fails({"type": "deal", "cards": list(FULL_DECK) + ["2S"]}, "deck_exhausted")


def _interrupt_setup(**options) -> Table:
    t = interrupt_table(3, **options)
    t.do({"type": "trait_test", "character_id": "t", "trait": "fighting", "action_index": 0}, dice=[7])
    return t


def _settle(t: Table, h_die: int, t_die: int | None) -> list:
    ev = t.do({"type": "interrupt", "character_id": "h"}, dice=[h_die])
    ev += t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    if t_die is not None:
        ev += t.do({"type": "defend", "opposed_id": t.enc["pending_interrupt"]["opposed_id"]}, dice=[t_die])
        ev += t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    return ev


def test_AD_D3_interrupt_tie_goes_to_the_target_then_the_holder_acts():
    t = _interrupt_setup()
    ev = _settle(t, 6, 6)
    assert one(ev, "interrupt_resolved").data["outcome"] == "target_first" and t.enc["current_turn"] == "t"
    t.do({"type": "end_turn", "character_id": "t"})
    assert t.enc["current_turn"] == "h" and not t.slot("h")["on_hold"]


def test_AD_D3_holder_below_tn_four_loses():
    t = _interrupt_setup()
    ev = _settle(t, 3, None)
    assert one(ev, "opposed_resolved").data["active_failed"] and t.enc["queued"] == ["h"]


def test_AD_D3_holder_wins_and_the_target_redeclares_without_a_lower_penalty():
    t = _interrupt_setup()
    ev = _settle(t, 7, 2)
    assert one(ev, "interrupt_resolved").data["outcome"] == "holder_first" and t.enc["current_turn"] == "h"
    t.do({"type": "declare_turn", "character_id": "h"})
    t.do({"type": "end_turn", "character_id": "h"})
    assert t.enc["current_turn"] == "t"
    t.do({"type": "redeclare", "character_id": "t", "actions": [{"kind": "attack"}]})
    turn = t.slot("t")["turn"]
    assert turn["multi_action_penalty"] == -4 and len(turn["declared"]) == 2


def test_AD_D3_simultaneous_tie_rule_lets_the_current_action_stand_first():
    t = _interrupt_setup(interrupt_tie_rule="simultaneous")
    ev = _settle(t, 3, 3)  # no TN 4 needed; equal totals
    assert one(ev, "interrupt_resolved").data["outcome"] == "simultaneous"
    t.do({"type": "take_action", "character_id": "t", "action_index": 1})
    assert t.enc["current_turn"] == "h" and t.enc["turn_stack"] == ["t"]


def test_AD_D4_joker_holder_must_act_or_hold_at_round_end_and_loses_the_bonus():
    t = _crew(2)
    t.fight({"c0": "JK-R", "c1": "9H"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "c1"})
    t.do({"type": "end_turn", "character_id": "c1"})
    t.fails({"type": "end_round"}, "joker_must_act")
    t.do({"type": "hold", "character_id": "c0"})
    t.do({"type": "end_round"})
    assert t.slot("c0")["on_hold"] and not t.slot("c0")["joker_active"]
    t.do({"type": "deal", "cards": ["2C"]})
    t.do({"type": "declare_turn", "character_id": "c0", "actions": [{"kind": "attack"}]})
    t.do({"type": "trait_test", "character_id": "c0", "trait": "fighting", "action_index": 0}, dice=[3, 2])
    assert t.last_test()["modifiers"] == [] and t.last_test()["result"]["total"] == 3


def test_AD_D5_running_and_multi_action_stack():
    t = _crew(1)
    t.fight({"c0": "AS"})
    t.do({"type": "call_next"})
    ev = t.do({"type": "declare_turn", "character_id": "c0", "actions": [{"kind": "a"}] * 2, "run": True}, dice=[6])
    assert one(ev, "turn_declared").data["turn_pace"] == 12
    t.do({"type": "trait_test", "character_id": "c0", "trait": "fighting", "action_index": 0}, dice=[5, 5])
    test = t.last_test()
    assert sum(m["value"] for m in test["modifiers"]) == -4 and test["result"]["total"] == 1


@pytest.mark.parametrize(
    "mode,segments,cost",
    [
        ("max_doubling", [{"inches": 2, "difficult_terrain": True}, {"inches": 2}], 6),
        ("max_doubling", [{"inches": 2, "mode": "crawl", "difficult_terrain": True}], 4),
        ("max_doubling", [{"inches": 1, "mode": "climb", "difficult_terrain": True}], 2),
        ("stacking", [{"inches": 1, "mode": "climb", "difficult_terrain": True}], 4),
        ("stacking", [{"inches": 2, "mode": "crawl", "difficult_terrain": True}], 4),
    ],
)
def test_AD_D6_difficult_terrain(mode, segments, cost):
    t = _crew(1, movement_cost_mode=mode)
    t.fight({"c0": "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "c0"})
    ev = t.do({"type": "move", "character_id": "c0", "segments": segments})
    assert one(ev, "moved").data["cost"] == cost


def test_AD_D6_more_than_pace_is_rejected():
    t = _crew(1)
    t.fight({"c0": "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "c0"})
    t.fails(
        {"type": "move", "character_id": "c0", "segments": [{"inches": 4, "difficult_terrain": True}]}, "exceeds_pace"
    )


def test_AD_D7_wounds_eliminate_a_wild_card_past_three_and_an_extra_at_one():
    t = Table()
    t.add("hero")
    t.add("mook", kind="extra")
    t.do({"type": "apply_wounds", "character_id": "hero", "wounds": 3})
    assert t.char("hero")["wounds"] == 3 and not t.char("hero")["eliminated"]
    t.do({"type": "apply_wounds", "character_id": "hero", "wounds": 1})
    assert t.char("hero")["eliminated"] and t.char("hero")["wounds"] == 3
    t.do({"type": "apply_wounds", "character_id": "mook", "wounds": 1})
    assert t.char("mook")["eliminated"]
