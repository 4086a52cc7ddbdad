"""What each rule system allows when a player's turn or pending choice runs out (service/rules/<sys>/timeouts.py):
pure functions of the table and one awaiting entry; None hands the wait to the GM."""

from __future__ import annotations

import pytest

from service.rules.action_deck import timeouts as action_deck
from service.rules.danger_pool import timeouts as danger_pool
from service.rules.iskra import timeouts as iskra
from service.rules.stepdice import timeouts as stepdice
from service.rules.timeouts import normalized
from service.rules.trikus import timeouts as trikus


def pc(cid: str, *may: str) -> dict:
    return {"who": "character", "character_id": cid, "may": list(may)}


def test_entries_in_the_older_shape_name_the_character_in_who():
    assert normalized({"who": "c1", "may": ["throw"]}) == pc("c1", "throw")
    assert normalized({"who": "gm", "may": ["start"]}) == {"who": "gm", "character_id": None, "may": ["start"]}


@pytest.mark.parametrize("policy", [stepdice, trikus, danger_pool, iskra, action_deck])
def test_the_gms_waits_are_never_timed(policy):
    assert policy.kind({}, {"who": "gm", "character_id": None, "may": ["end_turn", "throw"]}) is None


def test_stepdice_open_turn_ends_and_a_turn_not_begun_goes_to_the_gm():
    moves = ("test", "attack", "move", "end_turn")
    assert stepdice.kind({}, pc("w", *moves)) == "turn"
    assert stepdice.default({}, pc("w", *moves)) == {"type": "end_turn", "character_id": "w"}
    assert stepdice.kind({}, pc("w", "begin_turn")) == "turn" and stepdice.default({}, pc("w", "begin_turn")) is None


def test_stepdice_benefit_and_armour_choices_have_no_default_and_advancement_is_never_a_wait():
    assert stepdice.kind({}, pc("w", "choose_benefit")) == "choice"
    assert stepdice.default({}, pc("w", "choose_benefit")) is None
    assert stepdice.kind({}, pc("w", "choose_armor")) == "choice"
    assert stepdice.kind({}, pc("w", "advance")) is None


def test_trikus_throws_and_round_declarations_are_made_for_the_absent_player():
    assert trikus.kind({}, pc("z", "throw", "escape")) == "turn"
    assert trikus.default({}, pc("z", "throw", "escape")) == {"type": "throw", "character_id": "z"}
    assert trikus.default({}, pc("z", "declare_round")) == {"type": "declare_round", "character_id": "z"}


def test_trikus_last_chance_is_passed_and_a_team_success_kept():
    assert trikus.kind({}, pc("z", "spend_light_die", "pass_last_chance")) == "choice"
    assert trikus.default({}, pc("z", "spend_light_die", "pass_last_chance")) == {
        "type": "pass_last_chance",
        "character_id": "z",
    }
    assert trikus.default({}, pc("z", "keep_success", "give_up_success")) == {
        "type": "keep_success",
        "character_id": "z",
    }


def test_trikus_lost_line_defaults_to_the_one_with_most_dice():
    """A17: candidates come ordered most dice first."""
    table = {"activity": {"line_choices": [{"character_id": "z", "candidates": [2, 0]}]}}
    assert trikus.default(table, pc("z", "choose_lost_line")) == {
        "type": "choose_lost_line",
        "character_id": "z",
        "line_index": 2,
    }


def test_trikus_joining_team_declarations_and_negotiation_go_to_the_gm():
    for may in (("join", "bad_feeling"), ("attack", "defend"), ("answer_negotiation",)):
        assert trikus.default({}, pc("z", *may)) is None


def test_danger_pool_absent_leader_waives_first_and_passing_needs_the_toggle():
    assert danger_pool.default({}, pc("l", "declare_action", "waive_first")) == {
        "type": "waive_first",
        "character_id": "l",
    }
    assert danger_pool.default({}, pc("m", "declare_action", "pass_turn")) == {"type": "pass_turn", "character_id": "m"}
    assert danger_pool.default({}, pc("m", "declare_action")) is None
    assert danger_pool.kind({}, pc("m", "declare_action")) == "turn"


def test_danger_pool_round_end_continues_and_ties_extractions_aftermath_go_to_the_gm():
    assert danger_pool.default({}, pc("l", "continue_scene", "bail_out")) == {
        "type": "continue_scene",
        "character_id": "l",
    }
    for may in ("choose_tie", "extract", "choose_aftermath"):
        assert danger_pool.kind({}, pc("l", may)) == "choice" and danger_pool.default({}, pc("l", may)) is None


def test_iskra_turn_ends_reactions_are_not_taken_and_rolled_tests_stand():
    assert iskra.default({}, pc("a", "attack", "end_turn")) == {"type": "end_turn", "participant_id": "a"}
    assert iskra.default({}, pc("a", "dodge")) == {"type": "dodge", "choice": "none"}
    assert iskra.default({}, pc("a", "use_ready")) == {"type": "use_ready", "character_id": "a", "execute": False}
    assert iskra.default({}, pc("a", "reduce_damage", "accept_damage")) == {"type": "accept_damage"}
    assert iskra.default({}, pc("a", "reroll", "accept_test")) == {"type": "accept_test"}


def test_iskra_unrolled_tests_and_recovery_tests_go_to_the_gm():
    assert iskra.default({}, pc("a", "roll", "focus_adjust")) is None
    assert iskra.default({}, pc("a", "recovery_test")) is None


def test_action_deck_called_character_holds_unless_it_may_not():
    assert action_deck.kind({}, pc("h", "declare_turn", "hold", "end_turn")) == "turn"
    assert action_deck.default({}, pc("h", "declare_turn", "hold", "end_turn")) == {"type": "hold", "character_id": "h"}
    assert action_deck.default({}, pc("h", "declare_turn", "end_turn")) == {"type": "end_turn", "character_id": "h"}


def test_action_deck_rolled_test_is_accepted_and_claims_are_not_waits():
    table = {"tests": {"t1": {"id": "t1", "state": "rolled", "roller_id": "h", "group": None}}}
    assert action_deck.default(table, pc("h", "reroll", "accept_test")) == {"type": "accept_test", "test_id": "t1"}
    assert action_deck.default({}, pc("h", "defend")) is None
    assert action_deck.kind({}, pc("h", "interrupt")) is None
    assert action_deck.kind({}, pc("h", "declare_turn")) is None
    assert action_deck.kind({}, pc("h", "draw_extra_card", "keep_card")) is None
