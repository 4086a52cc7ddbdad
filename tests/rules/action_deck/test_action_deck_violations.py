"""One test per rule-violation code (errors.CODES is the closed set), plus the 403s."""

from __future__ import annotations

import pytest

from action_deck_support import GM, SeededDice, Table, player
from service.rules.action_deck import SYSTEM
from service.rules.action_deck.errors import CODES
from service.rules.base import RuleViolation

ANN, BOB = player("p1", "ann"), player("p2", "bob")


def base(**options) -> Table:
    t = Table(**options)
    t.add(
        "ann",
        skills={"fighting": "d8", "athletics": "d6"},
        weapons=[{"name": "sword", "damage": ["d8"]}],
        gear=[{"name": "rope", "at_hand": False}],
    )
    t.add("bob")
    t.add("orc", side="opposition")
    t.add("mook", kind="extra", side="opposition")
    t.session({"p1": ["ann"], "p2": ["bob"]})
    return t


def fight(**options) -> Table:
    t = base(**options)
    t.fight({"ann": "AS", "bob": "KS", "orc": "2C", "mook": "3C"})
    return t


def acting(n: int = 1, **options) -> Table:
    t = fight(**options)
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "a"}] * n})
    return t


def rolled(t: Table, dice=(5, 2), **kw) -> str:
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting", **kw}, dice=dice)
    return t.last_test()["id"]


def holder_and_target() -> Table:
    t = fight()
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "ann"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "bob", "actions": [{"kind": "a"}]})
    return t


def opposed(t: Table) -> str:
    t.do(
        {
            "type": "opposed_test",
            "character_id": "ann",
            "trait": "fighting",
            "defender_id": "bob",
            "defender_trait": "fighting",
        },
        dice=[6, 2],
    )
    return t.last_test()["opposed_id"]


def _no_benny(t):
    t.table["players"]["p1"]["bennies"] = 0
    t.fails({"type": "reroll", "test_id": rolled(t)}, "no_benny", actor=ANN)


def _locked(t):
    oid = opposed(t)
    tid = t.last_test()["id"]
    t.do({"type": "defend", "opposed_id": oid}, dice=[2, 2], actor=BOB)
    t.fails({"type": "reroll", "test_id": tid}, "opposed_roll_locked", actor=ANN)


def _defend_twice(t):
    oid = opposed(t)
    t.do({"type": "defend", "opposed_id": oid}, dice=[2, 2], actor=BOB)
    t.fails({"type": "defend", "opposed_id": oid}, "not_awaiting_defender", actor=BOB)


def _interrupt_pending(t):
    t.do({"type": "interrupt", "character_id": "ann"}, dice=[5, 2])
    t.fails({"type": "take_action", "character_id": "bob", "action_index": 0}, "interrupt_pending")


def _sheet_error(data, code):
    def run(_t):
        with pytest.raises(RuleViolation) as err:
            SYSTEM.new_character(SYSTEM.CharacterInput.model_validate({"name": "X", **data}), SYSTEM.Options())
        assert err.value.code == code and err.value.status == 422 and err.value.field

    return run


def _draw_twice(t):
    t.do({"type": "draw_extra_card", "character_id": "ann", "card": "QH"})
    t.fails({"type": "draw_extra_card", "character_id": "ann", "card": "JH"}, "extra_draw_limit")


def _server_deal_with_cards(t):
    t.do({"type": "start_encounter", "participants": ["ann"]}, source=SeededDice(1))
    t.fails({"type": "deal", "cards": ["AS"]}, "cards_not_expected", source=SeededDice(2))


SCENARIOS = {
    "no_open_session": (
        Table,
        lambda t: (t.add("ann"), t.fails({"type": "start_encounter", "participants": ["ann"]}, "no_open_session")),
    ),
    "session_already_open": (base, lambda t: t.fails({"type": "open_session", "players": []}, "session_already_open")),
    "no_benny": (base, _no_benny),
    "wrong_benny_source": (
        base,
        lambda t: (
            t.do({"type": "set_condition", "character_id": "mook", "shaken": True}),
            t.fails({"type": "unshake", "character_id": "mook", "benny_source": "own"}, "wrong_benny_source"),
        ),
    ),
    "unknown_player": (base, lambda t: t.fails({"type": "award_benny", "player_ids": ["nobody"]}, "unknown_player")),
    "duplicate_character": (
        Table,
        lambda t: (
            t.add("ann"),
            t.fails(
                {
                    "type": "open_session",
                    "players": [
                        {"player_id": "a", "character_ids": ["ann"]},
                        {"player_id": "b", "character_ids": ["ann"]},
                    ],
                },
                "duplicate_character",
            ),
        ),
    ),
    "not_an_npc": (base, lambda t: t.fails({"type": "enter_play", "character_id": "ann"}, "not_an_npc")),
    "not_a_wild_card": (base, lambda t: t.fails({"type": "enter_play", "character_id": "mook"}, "not_a_wild_card")),
    "already_in_play": (
        base,
        lambda t: (
            t.do({"type": "enter_play", "character_id": "orc"}),
            t.fails({"type": "enter_play", "character_id": "orc"}, "already_in_play"),
        ),
    ),
    "not_in_play": (base, lambda t: t.fails({"type": "leave_play", "character_id": "orc"}, "not_in_play")),
    "unknown_character": (
        base,
        lambda t: t.fails({"type": "trait_test", "character_id": "ghost", "trait": "x"}, "unknown_character"),
    ),
    "character_eliminated": (
        base,
        lambda t: (
            t.do({"type": "apply_wounds", "character_id": "mook", "wounds": 1}),
            t.fails({"type": "trait_test", "character_id": "mook", "trait": "x"}, "character_eliminated"),
        ),
    ),
    "invalid_die": (base, _sheet_error({"attributes": {"agility": "d8+1"}}, "invalid_die")),
    "duplicate_trait": (
        base,
        _sheet_error({"attributes": {"notice": "d6"}, "skills": {"notice": "d6"}}, "duplicate_trait"),
    ),
    "unknown_weapon": (
        base,
        lambda t: t.fails(
            {"type": "trait_test", "character_id": "ann", "trait": "shooting", "weapon": "laser"}, "unknown_weapon"
        ),
    ),
    "not_shaken": (base, lambda t: t.fails({"type": "unshake", "character_id": "ann"}, "not_shaken", actor=ANN)),
    "no_encounter": (base, lambda t: t.fails({"type": "call_next"}, "no_encounter")),
    "encounter_in_progress": (
        fight,
        lambda t: t.fails({"type": "start_encounter", "participants": ["ann"]}, "encounter_in_progress"),
    ),
    "not_in_encounter": (
        base,
        lambda t: (
            t.fight({"ann": "AS"}),
            t.fails({"type": "declare_turn", "character_id": "bob"}, "not_in_encounter"),
        ),
    ),
    "already_in_encounter": (
        fight,
        lambda t: t.fails({"type": "add_participant", "character_id": "ann"}, "already_in_encounter"),
    ),
    "duplicate_participant": (
        base,
        lambda t: t.fails({"type": "start_encounter", "participants": ["ann", "ann"]}, "duplicate_participant"),
    ),
    "invalid_surprise": (
        base,
        lambda t: t.fails(
            {
                "type": "start_encounter",
                "participants": ["ann", "orc"],
                "surprise": {"attackers": ["orc"], "victims": ["orc"]},
            },
            "invalid_surprise",
        ),
    ),
    "invalid_group": (
        lambda: base(group_extras_share_card=True),
        lambda t: t.fails(
            {"type": "start_encounter", "participants": ["orc", "mook"], "groups": {"g": ["orc", "mook"]}},
            "invalid_group",
        ),
    ),
    "option_disabled": (
        base,
        lambda t: t.fails(
            {"type": "start_encounter", "participants": ["mook"], "groups": {"g": ["mook"]}}, "option_disabled"
        ),
    ),
    "wrong_phase": (fight, lambda t: t.fails({"type": "deal", "cards": ["5S"] * 4}, "wrong_phase")),
    "deck_exhausted": (
        base,
        lambda t: (
            t.do({"type": "start_encounter", "participants": ["ann", "bob"]}),
            t.table["deck"].update(draw_pile=["2S"]),
            t.fails({"type": "deal", "cards": ["2S", "3S"]}, "deck_exhausted"),
        ),
    ),
    "cards_required": (
        base,
        lambda t: (
            t.do({"type": "start_encounter", "participants": ["ann"]}),
            t.fails({"type": "deal"}, "cards_required"),
        ),
    ),
    "cards_not_expected": (base, _server_deal_with_cards),
    "unknown_card": (
        base,
        lambda t: (
            t.do({"type": "start_encounter", "participants": ["ann"]}),
            t.fails({"type": "deal", "cards": ["1Z"]}, "unknown_card"),
        ),
    ),
    "card_not_in_deck": (
        base,
        lambda t: (
            t.do({"type": "start_encounter", "participants": ["ann", "bob"]}),
            t.fails({"type": "deal", "cards": ["AS", "AS"]}, "card_not_in_deck"),
        ),
    ),
    "wrong_card_count": (
        base,
        lambda t: (
            t.do({"type": "start_encounter", "participants": ["ann", "bob"]}),
            t.fails({"type": "deal", "cards": ["AS"]}, "wrong_card_count"),
        ),
    ),
    "draw_window_closed": (
        acting,
        lambda t: t.fails({"type": "draw_extra_card", "character_id": "bob", "card": "QH"}, "draw_window_closed"),
    ),
    "no_card": (
        base,
        lambda t: (
            t.do(
                {
                    "type": "start_encounter",
                    "participants": ["ann", "bob"],
                    "surprise": {"attackers": ["ann"], "victims": ["bob"]},
                }
            ),
            t.do({"type": "deal", "cards": ["AS"]}),
            t.fails({"type": "draw_extra_card", "character_id": "bob", "card": "QH"}, "no_card"),
        ),
    ),
    "extra_draw_limit": (lambda: fight(extra_card_draws_per_round=1), _draw_twice),
    "card_not_held": (
        fight,
        lambda t: t.fails({"type": "keep_card", "character_id": "ann", "card": "KS"}, "card_not_held"),
    ),
    "not_your_turn": (fight, lambda t: t.fails({"type": "declare_turn", "character_id": "bob"}, "not_your_turn")),
    "turn_in_progress": (acting, lambda t: t.fails({"type": "call_next"}, "turn_in_progress")),
    "already_acted": (
        base,
        lambda t: (
            t.fight({"ann": "JK-R"}),
            t.do({"type": "declare_turn", "character_id": "ann"}),
            t.do({"type": "end_turn", "character_id": "ann"}),
            t.fails({"type": "declare_turn", "character_id": "ann"}, "already_acted"),
        ),
    ),
    "cannot_act_this_round": (
        base,
        lambda t: (
            t.do(
                {
                    "type": "start_encounter",
                    "participants": ["ann", "bob"],
                    "surprise": {"attackers": ["ann"], "victims": ["bob"]},
                }
            ),
            t.do({"type": "deal", "cards": ["JK-B"]}),
            t.fails({"type": "declare_turn", "character_id": "bob"}, "cannot_act_this_round"),
        ),
    ),
    "no_card_to_call": (base, lambda t: (t.fight({"ann": "JK-R"}), t.fails({"type": "call_next"}, "no_card_to_call"))),
    "round_not_finished": (fight, lambda t: t.fails({"type": "end_round"}, "round_not_finished")),
    "joker_must_act": (base, lambda t: (t.fight({"ann": "JK-R"}), t.fails({"type": "end_round"}, "joker_must_act"))),
    "cannot_hold_while_shaken": (
        fight,
        lambda t: (
            t.do({"type": "set_condition", "character_id": "ann", "shaken": True}),
            t.do({"type": "call_next"}),
            t.fails({"type": "hold", "character_id": "ann"}, "cannot_hold_while_shaken"),
        ),
    ),
    "cannot_hold_now": (acting, lambda t: t.fails({"type": "hold", "character_id": "ann"}, "cannot_hold_now")),
    "cannot_interrupt": (acting, lambda t: t.fails({"type": "interrupt", "character_id": "bob"}, "cannot_interrupt")),
    "nothing_to_interrupt": (
        holder_and_target,
        lambda t: (
            t.do({"type": "end_turn", "character_id": "bob"}),
            t.fails({"type": "interrupt", "character_id": "ann"}, "nothing_to_interrupt"),
        ),
    ),
    "interrupt_pending": (holder_and_target, _interrupt_pending),
    "cannot_redeclare": (
        acting,
        lambda t: t.fails({"type": "redeclare", "character_id": "ann", "actions": []}, "cannot_redeclare"),
    ),
    "too_many_actions": (
        fight,
        lambda t: (
            t.do({"type": "call_next"}),
            t.fails(
                {"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "a"}] * 4}, "too_many_actions"
            ),
        ),
    ),
    "action_not_declared": (
        acting,
        lambda t: t.fails({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, "action_not_declared"),
    ),
    "action_already_taken": (
        acting,
        lambda t: (
            t.do({"type": "take_action", "character_id": "ann", "action_index": 0}),
            t.fails({"type": "take_action", "character_id": "ann", "action_index": 0}, "action_already_taken"),
        ),
    ),
    "turn_not_declared": (
        fight,
        lambda t: (
            t.do({"type": "call_next"}),
            t.fails({"type": "move", "character_id": "ann", "segments": [{"inches": 1}]}, "turn_not_declared"),
        ),
    ),
    "action_required": (
        acting,
        lambda t: t.fails({"type": "ready_item", "character_id": "ann", "item": "rope"}, "action_required"),
    ),
    "run_must_be_declared": (
        acting,
        lambda t: (rolled(t, action_index=0), t.fails({"type": "run", "character_id": "ann"}, "run_must_be_declared")),
    ),
    "already_ran": (
        acting,
        lambda t: (
            t.do({"type": "run", "character_id": "ann"}, dice=[3]),
            t.fails({"type": "run", "character_id": "ann"}, "already_ran"),
        ),
    ),
    "no_vigor_die": (
        base,
        lambda t: (
            t.add("wisp", attributes={"agility": "d6"}),
            t.fails({"type": "run", "character_id": "wisp"}, "no_vigor_die"),
        ),
    ),
    "exceeds_pace": (
        acting,
        lambda t: t.fails({"type": "move", "character_id": "ann", "segments": [{"inches": 7}]}, "exceeds_pace"),
    ),
    "jump_too_far": (acting, lambda t: t.fails({"type": "jump", "character_id": "ann", "distance": 3}, "jump_too_far")),
    "unknown_test": (base, lambda t: t.fails({"type": "reroll", "test_id": "t99"}, "unknown_test")),
    "test_not_open": (
        base,
        lambda t: (
            tid := rolled(t),
            t.do({"type": "accept_test", "test_id": tid}),
            t.fails({"type": "reroll", "test_id": tid}, "test_not_open"),
        ),
    ),
    "critical_failure_cannot_be_rerolled": (
        base,
        lambda t: t.fails({"type": "reroll", "test_id": rolled(t, (1, 1))}, "critical_failure_cannot_be_rerolled"),
    ),
    "opposed_roll_locked": (base, _locked),
    "not_awaiting_defender": (base, _defend_twice),
    "unskilled_not_allowed": (
        base,
        lambda t: t.fails(
            {"type": "trait_test", "character_id": "ann", "trait": "piloting", "no_unskilled": True},
            "unskilled_not_allowed",
        ),
    ),
    "rate_of_fire_exceeded": (
        base,
        lambda t: t.fails(
            {"type": "trait_test", "character_id": "ann", "trait": "fighting", "weapon": "sword", "dice_count": 2},
            "rate_of_fire_exceeded",
        ),
    ),
    "invalid_substitution": (
        base,
        lambda t: t.fails(
            {"type": "choose_wild_substitution", "test_id": rolled(t), "index": 3}, "invalid_substitution"
        ),
    ),
    "invalid_attempt": (
        base,
        lambda t: t.fails({"type": "accept_test", "test_id": rolled(t), "keep_attempt": 0}, "invalid_attempt"),
    ),
    "attack_missed": (
        base,
        lambda t: t.fails(
            {"type": "damage_roll", "character_id": "ann", "weapon": "sword", "attack_test_id": rolled(t, (2, 3))},
            "attack_missed",
        ),
    ),
}


def test_every_code_has_a_scenario():
    assert set(SCENARIOS) == set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_violation(code):
    make, run = SCENARIOS[code]
    run(make())


def test_forbidden_player_for_someone_elses_character():
    t = base()
    err = t.fails({"type": "trait_test", "character_id": "bob", "trait": "fighting"}, "not_your_character", actor=ANN)
    assert err.status == 403


def test_forbidden_player_sending_a_gm_move():
    assert base().fails({"type": "award_benny", "player_ids": ["p1"]}, "gm_only", actor=ANN).status == 403


def test_forbidden_player_setting_the_gms_modifiers():
    t = base()
    t.fails(
        {"type": "trait_test", "character_id": "ann", "trait": "fighting", "modifiers": [{"source": "me", "value": 6}]},
        "gm_only",
        actor=ANN,
    )
    t.fails({"type": "trait_test", "character_id": "ann", "trait": "fighting", "tn": 2}, "gm_only", actor=ANN)


def test_forbidden_player_out_of_turn_roll_in_a_running_round():
    t = acting()
    t.fails({"type": "trait_test", "character_id": "bob", "trait": "fighting"}, "not_your_turn", actor=BOB)
    t.do({"type": "trait_test", "character_id": "bob", "trait": "fighting"}, dice=[3, 3], actor=GM)  # GM: a reaction
