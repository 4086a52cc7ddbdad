"""One test per rule of the deck, the countdown, holds, interrupts and the turn (spec §4.10–§4.26), toggles on
and off."""

from __future__ import annotations

import pytest

from action_deck_support import SeededDice, Table, one, types
from service.rules.action_deck.cards import FULL_DECK


def crew(*ids: str, **options) -> Table:
    t = Table(**options)
    for cid in ids:
        t.add(cid, side="opposition" if cid.startswith("o") else "party")
    t.session({f"p-{c}": [c] for c in ids if not c.startswith("o")})
    return t


def test_shuffle_is_fisher_yates_over_the_logged_dice():
    t = crew("a")
    t.do({"type": "start_encounter", "participants": ["a"]}, source=SeededDice(3))
    order = one(t.log, "deck_order")
    assert order.visibility == "sealed" and "order" not in order.redacted
    cards = list(FULL_DECK)
    for i, die in zip(range(len(cards) - 1, 0, -1), order.data["dice"]):
        assert die["sides"] == i + 1 and die["purpose"] == "deck_shuffle:1"
        cards[i], cards[die["face"] - 1] = cards[die["face"] - 1], cards[i]
    assert cards == order.data["order"] == t.table["deck"]["draw_pile"]
    assert "order" not in one(t.log, "deck_shuffled").data


def test_table_mode_keeps_the_undealt_cards_as_a_set():
    t = crew("a")
    t.do({"type": "start_encounter", "participants": ["a"]})
    assert t.table["deck"]["ordered"] is False and t.table["deck"]["draw_pile"] == FULL_DECK


def test_group_extras_share_one_card_when_on():
    t = crew("a", "o1", "o2", "o3", group_extras_share_card=True)
    for o in ("o1", "o2", "o3"):
        t.state["characters"][o]["kind"] = "extra"
    t.do({"type": "start_encounter", "participants": ["a", "o1", "o2", "o3"], "groups": {"g": ["o1", "o2", "o3"]}})
    t.do({"type": "deal", "cards": ["2S", "QH"]})
    assert {t.slot(o)["card"] for o in ("o1", "o2", "o3")} == {"QH"} and t.table["deck"]["in_play"] == ["2S", "QH"]
    called = []
    for _ in range(4):
        t.do({"type": "call_next"})
        called.append(t.enc["current_turn"])
        t.do({"type": "end_turn", "character_id": called[-1]})
    assert called == ["o1", "o2", "o3", "a"]
    t.do({"type": "end_round"})
    assert sorted(t.table["deck"]["discard_pile"]) == ["2S", "QH"]


def test_joker_interrupt_needs_test_when_on():
    t = crew("a", "b", joker_interrupt_needs_test=True)
    t.fight({"a": "JK-R", "b": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "b"})
    ev = t.do({"type": "interrupt", "character_id": "a"}, dice=[5, 2])
    assert one(ev, "trait_test_rolled").data["test"]["modifiers"] == [{"source": "joker", "value": 2}]
    assert t.enc["pending_interrupt"]["holder"] == "a"


@pytest.mark.parametrize("persistence,still_holding", [("until_used", True), ("next_round_only", False)])
def test_hold_persistence_toggle(persistence, still_holding):
    t = crew("a", "b", hold_persistence=persistence)
    t.fight({"a": "KS", "b": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "a"})
    t.do({"type": "call_next"})
    t.do({"type": "end_turn", "character_id": "b"})
    t.do({"type": "end_round"})
    assert t.slot("a")["on_hold"]  # carried into round 2, no card there
    t.play_round({"b": "6S"})
    assert t.slot("a")["on_hold"] is still_holding


def test_a_carried_hold_acts_at_any_moment_of_the_next_round():
    t = crew("a", "b")
    t.fight({"a": "KS", "b": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "a"})
    t.do({"type": "call_next"})
    t.do({"type": "end_turn", "character_id": "b"})
    t.do({"type": "end_round"})
    ev = t.do({"type": "deal", "cards": ["9H"]})
    assert one(ev, "cards_dealt").data["cards"] == {"b": "9H"}
    t.do({"type": "declare_turn", "character_id": "a"})  # a claim before any card is called
    assert t.enc["current_turn"] == "a" and not t.slot("a")["on_hold"]


def test_called_character_may_pass_without_declaring():
    t = crew("a")
    t.fight({"a": "KS"})
    t.do({"type": "call_next"})
    t.do({"type": "end_turn", "character_id": "a"})
    assert t.slot("a")["acted"]


def test_unlimited_extra_draws_and_default_highest_at_window_close():
    t = crew("a", "b")
    t.fight({"a": "3C", "b": "4C"})
    for card in ("5D", "KD", "9S"):
        t.do({"type": "draw_extra_card", "character_id": "a", "card": card})
    assert t.bennies("p-a") == 0
    t.do({"type": "call_next"})
    assert t.slot("a")["card"] == "KD" and t.enc["current_turn"] == "a"
    assert sorted(t.table["deck"]["discard_pile"]) == ["3C", "5D", "9S"]


def test_joker_drawn_with_a_benny_reshuffles_but_jokers_wild_only_if_kept():
    t = crew("a", "b")
    t.fight({"a": "3C", "b": "4C"})
    t.do({"type": "draw_extra_card", "character_id": "a", "card": "JK-B"})
    assert t.bennies("p-b") == 3 and t.table["deck"]["joker_dealt_this_round"]
    t.do({"type": "keep_card", "character_id": "a", "card": "3C"})
    assert t.bennies("p-b") == 3 and not t.slot("a")["joker_active"]
    t2 = crew("a", "b")
    t2.fight({"a": "3C", "b": "4C"})
    t2.do({"type": "draw_extra_card", "character_id": "a", "card": "JK-B"})
    t2.do({"type": "keep_card", "character_id": "a", "card": "JK-B"})
    assert t2.bennies("p-b") == 4 and t2.slot("a")["joker_active"]


def test_jokers_wild_henchmen_only_and_neutral():
    t = Table(jokers_wild_opposition_recipients="henchmen_only")
    t.add("a")
    t.add("boss", side="opposition")
    t.add("henchman", side="opposition", leader_id="boss")
    t.add("rival", side="opposition")
    t.add("bystander", side="neutral")
    t.session({"pa": ["a"]})
    t.fight({"boss": "JK-R", "henchman": "2S", "rival": "3S", "bystander": "JK-B", "a": "4S"})
    assert t.table["gm"]["npc_bennies"] == {"boss": 2, "henchman": 3, "rival": 2, "bystander": 2}
    assert t.bennies("pa") == 3


def test_redeclare_may_raise_the_penalty():
    t = crew("h", "t")
    t.fight({"h": "KS", "t": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "h"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "t", "actions": [{"kind": "a"}]})
    t.state["characters"]["h"]["kind"] = "wild_card"
    t.do({"type": "interrupt", "character_id": "h"}, dice=[6, 2, 2])
    t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    t.do({"type": "defend", "opposed_id": t.enc["pending_interrupt"]["opposed_id"]}, dice=[2, 2])
    t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    t.do({"type": "end_turn", "character_id": "h"})
    t.do({"type": "redeclare", "character_id": "t", "actions": [{"kind": "a"}] * 3})
    assert t.slot("t")["turn"]["multi_action_penalty"] == -4


def test_free_action_tests_skip_the_multi_action_penalty_but_not_the_running_one():
    t = crew("a", multi_action_step=-3)
    t.fight({"a": "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "a", "actions": [{"kind": "x"}] * 2, "run": True}, dice=[2])
    t.do({"type": "trait_test", "character_id": "a", "trait": "notice", "free_action": True}, dice=[5, 2])
    assert t.last_test()["modifiers"] == [{"source": "running", "value": -2}]
    t.do({"type": "trait_test", "character_id": "a", "trait": "notice", "action_index": 1}, dice=[5, 2])
    assert sum(m["value"] for m in t.last_test()["modifiers"]) == -5


def test_joker_bonus_applies_to_out_of_turn_tests_that_round():
    t = crew("a", "b", joker_bonus=3)
    t.fight({"a": "JK-R", "b": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "trait_test", "character_id": "a", "trait": "vigor"}, dice=[2, 2])  # the GM calls a reaction
    assert t.last_test()["modifiers"] == [{"source": "joker", "value": 3}]


def test_a_shaken_joker_holder_keeps_its_turn():
    t = crew("a", "b")
    t.fight({"a": "JK-R", "b": "5S"})
    ev = t.do({"type": "set_condition", "character_id": "a", "shaken": True})
    assert "hold_lost" not in types(ev)
    t.do({"type": "declare_turn", "character_id": "a"})
    assert t.enc["current_turn"] == "a"


def test_a_latecomer_is_dealt_in_from_the_next_deal():
    t = crew("a", "b")
    t.do({"type": "start_encounter", "participants": ["a"]})
    t.do({"type": "deal", "cards": ["5S"]})
    t.do({"type": "add_participant", "character_id": "b"})
    t.fails({"type": "declare_turn", "character_id": "b"}, "not_your_turn")
    t.do({"type": "call_next"})
    t.do({"type": "end_turn", "character_id": "a"})
    t.do({"type": "end_round"})
    ev = t.do({"type": "deal", "cards": ["6S", "7S"]})
    assert one(ev, "cards_dealt").data["cards"] == {"a": "6S", "b": "7S"}


def test_surprise_bystanders_are_dealt_normally_and_untested_victims_sit_out():
    t = crew("a", "b", "o1")
    t.do(
        {
            "type": "start_encounter",
            "participants": ["o1", "a", "b"],
            "surprise": {"attackers": ["o1"], "victims": ["a"]},
        }
    )
    assert t.enc["phase"] == "dealing"
    ev = t.do({"type": "deal", "cards": ["2S", "3S"]})
    assert one(ev, "cards_dealt").data["cards"] == {"o1": "2S", "b": "3S"} and not t.slot("a")["can_act"]


def test_end_encounter_returns_the_cards_and_the_next_one_rebuilds():
    t = crew("a", "b")
    t.fight({"a": "5S", "b": "6S"})
    t.do({"type": "end_encounter"})
    deck = t.table["deck"]
    assert sorted(deck["discard_pile"]) == ["5S", "6S"] and not deck["in_play"] and t.enc is None
    t.do({"type": "start_encounter", "participants": ["a"]})
    assert len(t.table["deck"]["draw_pile"]) == 54


def test_close_session_waits_for_the_encounter_to_end():
    t = crew("a")
    t.fight({"a": "5S"})
    t.fails({"type": "close_session"}, "encounter_in_progress")


def test_simultaneous_tie_holder_still_acts_if_the_target_takes_no_further_action():
    t = crew("h", "t", interrupt_tie_rule="simultaneous")
    for c in ("h", "t"):
        t.state["characters"][c]["kind"] = "extra"
    t.fight({"h": "KS", "t": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "h"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "t", "actions": [{"kind": "a"}]})
    t.do({"type": "interrupt", "character_id": "h"}, dice=[3])
    t.do({"type": "defend", "opposed_id": t.enc["pending_interrupt"]["opposed_id"]}, dice=[3])
    t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    t.do({"type": "end_turn", "character_id": "t"})
    assert t.enc["current_turn"] == "h"


def test_both_jokers_in_one_round_each_award_jokers_wild():
    t = crew("a", "b")
    t.fight({"a": "JK-R", "b": "JK-B"})
    assert t.bennies("p-a") == t.bennies("p-b") == 5


@pytest.mark.parametrize("condition", ["shaken", "stunned"])
def test_no_hold_while_shaken_or_stunned(condition):
    t = crew("a")
    t.fight({"a": "5S"})
    t.do({"type": "set_condition", "character_id": "a", condition: True})
    t.do({"type": "call_next"})
    t.fails({"type": "hold", "character_id": "a"}, "cannot_hold_while_shaken")
