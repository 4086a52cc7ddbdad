"""Combat (spec 4.12, 4.13, 5.4): budgets, conversion, off-hand, reactions, Ready, help tokens, order toggles."""

from __future__ import annotations

from iskra_support import Table, one, player

A, B = player("a"), player("b")


def _duel(**options) -> Table:
    t = Table(**options)
    t.pc("a", species="human")  # humans pick ambidexterity in the support defaults
    t.pc("b")
    t.fight(["a"], ["b"])
    return t


def test_turn_budget_major_minor_passing():
    t = _duel()
    t.do({"type": "minor_action", "character_id": "a", "kind": "draw_item", "description": "draws a dagger"}, actor=A)
    t.do({"type": "passing_action", "character_id": "a", "description": "shouts"}, actor=A)
    t.fails(
        {"type": "minor_action", "character_id": "a", "kind": "interact", "description": "opens a door"},
        "no_minor_action",
        actor=A,
    )
    t.fails({"type": "passing_action", "character_id": "a", "description": "runs"}, "no_passing_action", actor=A)
    t.fails(
        {"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1}, "gm_only", actor=A
    )  # weapon Wounds are the GM's to enter (7-B30)
    t.do({"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1})
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    t.fails({"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee"}, "no_major_action", actor=A)


def test_major_may_become_a_second_minor():
    t = _duel()
    t.do({"type": "convert_major", "character_id": "a"}, actor=A)
    for _ in range(2):
        t.do({"type": "minor_action", "character_id": "a", "kind": "interact", "description": "flips a table"}, actor=A)
    assert t.enc["budget"]["a"]["minor"] == 0 and t.enc["budget"]["a"]["major"] == 0


def test_only_the_current_participant_acts():
    t = _duel()
    t.fails({"type": "passing_action", "character_id": "b", "description": "runs"}, "not_your_turn", actor=B)
    t.fails({"type": "end_turn", "participant_id": "b"}, "not_your_turn", actor=B)


def test_not_your_turn_names_the_characters_not_their_ids():
    t = Table()
    t.pc("a")
    t.pc("b")
    t.set("a", name="Ala")
    t.set("b", name="Bronek")
    t.fight(["a"], ["b"])
    for action in (
        {"type": "passing_action", "character_id": "b", "description": "runs"},
        {"type": "end_turn", "participant_id": "b"},
    ):
        err = t.fails(action, "not_your_turn", actor=B)
        assert "it is Ala's turn, not Bronek's" in err.detail, err.detail


def test_offhand_attack_needs_ambidexterity_and_uses_a_minor():
    t = _duel()
    t.do({"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1, "offhand": True})
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    budget = t.enc["budget"]["a"]
    assert (budget["major"], budget["minor"], budget["offhand_attacks"]) == (1, 0, 1)
    t.do({"type": "end_turn", "participant_id": "a"})
    t.fails(
        {"type": "attack", "character_id": "b", "target_id": "a", "mode": "melee", "offhand": True}, "ability_required"
    )


def test_offhand_attacks_per_turn_limit():
    t = _duel()
    t.do({"type": "convert_major", "character_id": "a"})
    t.do({"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1, "offhand": True})
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    t.fails(
        {"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1, "offhand": True},
        "offhand_limit_reached",
    )


def test_offhand_limit_toggle_allows_two():
    t = _duel(offhand_attacks_per_turn=2)
    t.do({"type": "convert_major", "character_id": "a"})
    for _ in range(2):
        t.do({"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "wounds": 1, "offhand": True})
        t.do({"type": "roll"}, dice=[1])
        t.do({"type": "accept_test"})
    assert t.enc["budget"]["a"]["offhand_attacks"] == 2


def test_melee_needs_reach():
    t = _duel()
    t.fails(
        {"type": "attack", "character_id": "a", "target_id": "b", "mode": "melee", "distance": "near"},
        "melee_needs_reach",
    )


def _hit_b(t: Table) -> None:
    t.do({"type": "attack", "character_id": "a", "target_id": "b", "mode": "ranged", "wounds": 1, "distance": "near"})
    t.do({"type": "roll"}, dice=[10])
    t.do({"type": "accept_test"})


def test_one_reaction_per_round_by_default():
    t = _duel()
    t.do({"type": "convert_major", "character_id": "a"})
    t.do({"type": "minor_action", "character_id": "a", "kind": "draw_item", "description": "bow"})
    t.do(
        {
            "type": "attack",
            "character_id": "a",
            "target_id": "b",
            "mode": "ranged",
            "wounds": 1,
            "distance": "near",
            "offhand": True,
        }
    )
    t.do({"type": "roll"}, dice=[10])
    t.do({"type": "accept_test"})
    t.do({"type": "dodge", "choice": "dodge_stay_standing"}, actor=B)
    t.do({"type": "roll"}, dice=[9], actor=B)
    t.do({"type": "accept_test"}, actor=B)
    assert t.enc["reactions_left"]["b"] == 0


def test_reactions_reset_each_round_and_unlimited_toggle():
    t = _duel(reactions_per_round="unlimited")
    _hit_b(t)
    t.do({"type": "dodge", "choice": "dodge_stay_standing"}, actor=B)
    assert t.enc["reactions_left"]["b"] == "unlimited"
    t2 = _duel(reactions_per_round=2)
    assert t2.enc["reactions_left"] == {"a": 2, "b": 2}


def test_help_token_gives_plus_two_once_and_expires_at_the_helpers_next_turn():
    t = Table()
    for c in ("a", "b", "z"):
        t.pc(c)
    t.fight(["a", "b"], ["z"])  # order a, z, b
    t.do({"type": "help", "character_id": "a", "beneficiary_id": "b", "description": "covers b"}, actor=A)
    assert t.enc["budget"]["a"]["major"] == 0 and len(t.enc["help_tokens"]) == 1
    t.do({"type": "end_turn", "participant_id": "a"})
    t.do({"type": "end_turn", "participant_id": "z"})
    t.open("b", "strength")
    assert t.pending["s0"] == 4 and t.enc["help_tokens"] == []  # used once
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    t.do({"type": "end_turn", "participant_id": "b"})
    t.do({"type": "help", "character_id": "a", "beneficiary_id": "b", "description": "again"})
    t.do({"type": "end_turn", "participant_id": "a"})
    t.do({"type": "end_turn", "participant_id": "z"})
    t.do({"type": "end_turn", "participant_id": "b"})
    assert t.current == "a" and t.enc["help_tokens"] == []  # expired unused


def test_ready_help_gives_a_token_when_triggered():
    t = Table()
    for c in ("a", "b", "z"):
        t.pc(c)
    t.fight(["a", "b"], ["z"])
    t.do(
        {
            "type": "ready",
            "character_id": "a",
            "held_action": "help",
            "target_id": "b",
            "description": "steady b's aim",
            "trigger_text": "when b shoots",
        }
    )
    t.do({"type": "end_turn", "participant_id": "a"})
    t.do({"type": "end_turn", "participant_id": "z"})
    t.do({"type": "trigger_ready", "character_id": "a"})
    t.do({"type": "use_ready", "character_id": "a", "execute": True})
    t.open("b", "dexterity")
    assert t.pending["s0"] == 4


def test_declining_a_triggered_ready_keeps_it():
    t = Table()
    t.pc("a")
    t.pc("b")
    t.fight(["a"], ["b"])
    t.do(
        {
            "type": "ready",
            "character_id": "a",
            "held_action": "interact",
            "description": "pull the lever",
            "trigger_text": "when b steps on the trapdoor",
        }
    )
    t.do({"type": "end_turn", "participant_id": "a"})
    t.do({"type": "trigger_ready", "character_id": "a"})
    t.do({"type": "use_ready", "character_id": "a", "execute": False}, actor=A)
    assert t.enc["ready"]["a"] is not None and t.enc["reactions_left"]["a"] == 1


def test_turn_order_rebuild_each_round_places_joiners_by_side():
    t = Table(turn_order_repeat="rebuild_each_round")
    for c in ("a1", "a2", "b1", "b2"):
        t.pc(c)
    t.fight(["a1"], ["b1"])
    t.do({"type": "join_combat", "participant_id": "a2", "side_id": "A"})
    t.do({"type": "join_combat", "participant_id": "b2", "side_id": "B"})
    assert t.enc["order"] == ["a1", "b1", "a2", "b2"]
    for _ in range(4):
        t.do({"type": "end_turn", "participant_id": t.current})
    assert t.enc["round"] == 2 and t.enc["order"] == ["a1", "b1", "a2", "b2"]


def test_same_order_each_round_keeps_joiners_at_the_end():
    t = Table()
    for c in ("a1", "a2", "b1", "b2"):
        t.pc(c)
    t.fight(["a1", "a2"], ["b1"])
    t.do({"type": "join_combat", "participant_id": "b2", "side_id": "B"})
    for _ in range(4):
        t.do({"type": "end_turn", "participant_id": t.current})
    assert t.enc["order"] == ["a1", "b1", "a2", "b2"]


def test_a_dead_participants_turn_passes_on_and_end_is_suggested():
    t = _duel()
    t.set("a", health=0)
    t.open("a", "strength")
    t.do({"type": "roll"}, dice=[1])
    events = t.do({"type": "accept_test"})
    assert t.sheet("a")["status"] == "dead" and t.current == "b"
    assert one(events, "combat_end_suggested")["sides_without_living"] == ["A"]
    t.do({"type": "end_combat", "outcome_note": "a fell"})
    assert t.enc["state"] == "ended"


def test_stand_up_is_free_out_of_combat():
    t = Table()
    t.pc("a")
    t.set("a", prone=True)
    t.do({"type": "stand_up", "character_id": "a"}, actor=A)
    assert t.sheet("a")["prone"] is False


def test_using_an_item_can_consume_it():
    t = Table()
    t.pc("a", inventory=[{"name": "butelka", "weight": 0}])
    t.do(
        {
            "type": "minor_action",
            "character_id": "a",
            "kind": "use_item",
            "item_id": "i1",
            "consume": True,
            "description": "drinks the bottle",
        },
        actor=A,
    )
    assert t.sheet("a")["inventory"] == []


def test_awaiting_names_whose_turn_it_is():
    t = _duel()
    assert t.table["awaiting"][0] == {
        "who": "character",
        "character_id": "a",
        "may": ["attack", "help", "stand_up", "ready", "convert_major", "minor_action", "passing_action", "end_turn"],
    }
    _hit_b(t)
    assert t.table["awaiting"] == [{"who": "character", "character_id": "b", "may": ["dodge"]}]


def test_hazard_turns_belong_to_the_gm():
    t = Table()
    t.pc("a")
    t.fight(["a"], ["fire"], hazards=[{"participant_id": "fire", "name": "fire"}])
    t.do({"type": "end_turn", "participant_id": "a"})
    assert t.table["awaiting"][0]["who"] == "gm"
    t.fails({"type": "end_turn", "participant_id": "fire"}, "gm_only", actor=A)
    t.do({"type": "end_turn", "participant_id": "fire"})
    assert t.current == "a" and t.enc["round"] == 2


def test_removed_participant_loses_the_turn():
    t = _duel()
    events = t.do({"type": "remove_participant", "participant_id": "a"})
    assert t.current == "b" and events[-1].type in ("turn_started", "combat_end_suggested")


def test_joining_hazard_acts_at_the_end_of_the_round():
    t = _duel()
    t.do({"type": "join_combat", "participant_id": "flood", "side_id": "B", "kind": "hazard", "name": "flood"})
    t.do({"type": "end_turn", "participant_id": "a"})
    t.do({"type": "end_turn", "participant_id": "b"})
    assert t.current == "flood" and t.table["awaiting"][0]["who"] == "gm"
