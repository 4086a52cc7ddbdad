"""One scenario per rule-violation code (errors.CODES is the closed set), plus the 403s."""

from __future__ import annotations

import pytest

from iskra_support import Table, char_input, player
from service.rules.base import RuleViolation
from service.rules.iskra import SYSTEM
from service.rules.iskra.errors import CODES

ALA = player("ala")


def base(**options) -> Table:
    t = Table(**options)
    t.pc("ala")
    t.pc("bob")
    return t


def fight(**options) -> Table:
    t = base(**options)
    t.fight(["ala"], ["bob"])
    return t


def in_test(**options) -> Table:
    t = base(**options)
    t.open("ala", "strength")
    return t


def rolled(**options) -> Table:
    t = in_test(**options)
    t.do({"type": "roll"}, dice=[1])
    return t


def hurt(**options) -> Table:
    t = base(**options)
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 2})
    return t


def create(code: str, **changes) -> None:
    with pytest.raises(RuleViolation) as info:
        SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(char_input(**changes)), SYSTEM.Options())
    assert (info.value.code, info.value.status) == (code, 422)
    assert info.value.field


def _dead(t: Table) -> None:
    t.set("ala", status="dead", health=0)
    t.fails({"type": "open_test", "character_id": "ala", "attribute": "strength"}, "character_dead")


def _reroll_twice(t: Table) -> None:
    t.do({"type": "reroll", "description": "again"}, dice=[2])
    t.fails({"type": "reroll", "description": "again"}, "already_rerolled")


def _due(t: Table) -> None:
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 1})
    t.do({"type": "accept_damage"})
    t.do({"type": "advance_time", "days": 1})
    t.fails({"type": "advance_time", "days": 1}, "recovery_tests_due")


def _no_reaction(t: Table) -> None:
    t.do(
        {
            "type": "ready",
            "character_id": "ala",
            "held_action": "interact",
            "description": "lever",
            "trigger_text": "when",
        }
    )
    t.do({"type": "end_turn", "participant_id": "ala"})
    t.do({"type": "attack", "character_id": "bob", "target_id": "ala", "mode": "melee", "wounds": 1})
    t.do({"type": "roll"}, dice=[10])
    t.do({"type": "accept_test"})
    t.do({"type": "dodge", "choice": "dodge_stay_standing"})
    t.do({"type": "roll"}, dice=[10])
    t.do({"type": "accept_test"})
    t.fails({"type": "trigger_ready", "character_id": "ala"}, "no_reaction_left")


def _offhand(t: Table) -> None:
    t.do({"type": "convert_major", "character_id": "ala"})
    t.do({"type": "attack", "character_id": "ala", "target_id": "bob", "mode": "melee", "wounds": 1, "offhand": True})
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    t.fails(
        {"type": "attack", "character_id": "ala", "target_id": "bob", "mode": "melee", "offhand": True},
        "offhand_limit_reached",
    )


def _human_fight() -> Table:
    t = Table()
    t.pc("ala", species="human")
    t.pc("bob")
    t.fight(["ala"], ["bob"])
    return t


SCENARIOS = {
    "unknown_character": (
        base,
        lambda t: t.fails(
            {"type": "open_test", "character_id": "zed", "attribute": "strength"}, "unknown_character", status=422
        ),
    ),
    "character_dead": (base, _dead),
    "character_not_approved": (
        Table,
        lambda t: (
            t.pc("ala", approve=False),
            t.fails(
                {"type": "passing_action", "character_id": "ala", "description": "runs"},
                "character_not_approved",
                actor=ALA,
            ),
        ),
    ),
    "option_disabled": (
        lambda: in_test(glory_modifier_enabled=False),
        lambda t: t.fails({"type": "use_glory"}, "option_disabled"),
    ),
    "attribute_out_of_range": (
        Table,
        lambda t: create(
            "attribute_out_of_range", attributes={"strength": 6, "dexterity": 0, "intelligence": 0, "charisma": 0}
        ),
    ),
    "attribute_budget_exceeded": (Table, lambda t: test_attribute_budget_exceeded_names_the_field()),
    "predisposition_required": (Table, lambda t: create("predisposition_required", predispositions=[])),
    "too_many_predispositions": (
        Table,
        lambda t: create(
            "too_many_predispositions",
            predispositions=[{"label": str(n)} for n in range(4)],
            weaknesses=[{"label": str(n)} for n in range(4)],
        ),
    ),
    "weakness_per_predisposition": (
        Table,
        lambda t: create("weakness_per_predisposition", predispositions=[{"label": "a"}, {"label": "b"}]),
    ),
    "wrong_ability_pick_count": (Table, lambda t: create("wrong_ability_pick_count", abilities=[])),
    "unknown_ability": (
        Table,
        lambda t: create("unknown_ability", abilities=[{"ability_id": "flight"}, {"ability_id": "efficiency"}]),
    ),
    "ability_not_available": (
        Table,
        lambda t: create("ability_not_available", abilities=[{"ability_id": "gills"}, {"ability_id": "efficiency"}]),
    ),
    "ability_level_order": (
        Table,
        lambda t: create(
            "ability_level_order", abilities=[{"ability_id": "light_step", "level": 2}, {"ability_id": "efficiency"}]
        ),
    ),
    "duplicate_ability": (
        Table,
        lambda t: create("duplicate_ability", abilities=[{"ability_id": "efficiency"}, {"ability_id": "efficiency"}]),
    ),
    "ability_param_required": (
        Table,
        lambda t: create(
            "ability_param_required", abilities=[{"ability_id": "language"}, {"ability_id": "efficiency"}]
        ),
    ),
    "glory_too_low": (
        lambda: Table(extra_abilities=[{"ability_id": "hero", "name": "Hero", "glory_required": 1}]),
        lambda t: (
            t.pc("ala"),
            t.set("ala", xp=10),
            t.fails(
                {"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "hero"}, "glory_too_low"
            ),
        ),
    ),
    "pending_first": (in_test, lambda t: t.fails({"type": "start_session"}, "pending_first")),
    "no_pending_test": (base, lambda t: t.fails({"type": "roll"}, "no_pending_test")),
    "wrong_stage": (in_test, lambda t: t.fails({"type": "reroll", "description": "early"}, "wrong_stage")),
    "roll_required": (in_test, lambda t: t.fails({"type": "accept_test"}, "roll_required")),
    "already_rerolled": (rolled, _reroll_twice),
    "adjust_after_roll_disabled": (
        lambda: rolled(focus_adjust_after_roll=False),
        lambda t: t.fails({"type": "focus_adjust", "amount": 1, "description": "x"}, "adjust_after_roll_disabled"),
    ),
    "not_enough_focus": (
        in_test,
        lambda t: t.fails({"type": "focus_adjust", "amount": 6, "description": "x"}, "not_enough_focus"),
    ),
    "no_focus_request": (in_test, lambda t: t.fails({"type": "approve_focus"}, "no_focus_request")),
    "unknown_predisposition": (
        base,
        lambda t: t.fails(
            {"type": "open_test", "character_id": "ala", "attribute": "strength", "predispositions": [2]},
            "unknown_predisposition",
            status=422,
        ),
    ),
    "glory_not_applicable": (in_test, lambda t: t.fails({"type": "use_glory"}, "glory_not_applicable")),
    "glory_already_used": (
        base,
        lambda t: (
            t.open("ala", "charisma", context="influence"),
            t.do({"type": "use_glory"}),
            t.fails({"type": "use_glory"}, "glory_already_used"),
        ),
    ),
    "cannot_help_self": (
        in_test,
        lambda t: t.fails(
            {"type": "help", "character_id": "ala", "beneficiary_id": "ala", "description": "me"}, "cannot_help_self"
        ),
    ),
    "already_helping": (
        in_test,
        lambda t: (
            t.do({"type": "help", "character_id": "bob", "beneficiary_id": "ala", "description": "lamp"}),
            t.fails(
                {"type": "help", "character_id": "bob", "beneficiary_id": "ala", "description": "lamp"},
                "already_helping",
            ),
        ),
    ),
    "no_pending_damage": (base, lambda t: t.fails({"type": "accept_damage"}, "no_pending_damage")),
    "reduce_exceeds_wounds": (
        hurt,
        lambda t: t.fails({"type": "reduce_damage", "amount": 3, "description": "x"}, "reduce_exceeds_wounds"),
    ),
    "no_reaction_left": (fight, _no_reaction),
    "combat_in_progress": (
        fight,
        lambda t: t.fails(
            {
                "type": "start_combat",
                "initiator_id": "ala",
                "sides": [{"side_id": "A", "participant_ids": ["ala"]}, {"side_id": "B", "participant_ids": ["bob"]}],
            },
            "combat_in_progress",
        ),
    ),
    "no_combat": (base, lambda t: t.fails({"type": "end_turn", "participant_id": "ala"}, "no_combat")),
    "not_a_participant": (
        fight,
        lambda t: t.fails({"type": "remove_participant", "participant_id": "zed"}, "not_a_participant"),
    ),
    "bad_sides": (
        base,
        lambda t: t.fails(
            {
                "type": "start_combat",
                "initiator_id": "ala",
                "sides": [{"side_id": "A", "participant_ids": ["ala", "bob"]}],
            },
            "bad_sides",
            status=422,
        ),
    ),
    "not_your_turn": (
        fight,
        lambda t: t.fails({"type": "passing_action", "character_id": "bob", "description": "x"}, "not_your_turn"),
    ),
    "no_major_action": (
        fight,
        lambda t: (
            t.do({"type": "convert_major", "character_id": "ala"}),
            t.fails(
                {"type": "help", "character_id": "ala", "beneficiary_id": "bob", "description": "x"}, "no_major_action"
            ),
        ),
    ),
    "no_minor_action": (
        fight,
        lambda t: (
            t.do({"type": "minor_action", "character_id": "ala", "kind": "interact", "description": "x"}),
            t.fails(
                {"type": "minor_action", "character_id": "ala", "kind": "interact", "description": "x"},
                "no_minor_action",
            ),
        ),
    ),
    "no_passing_action": (
        fight,
        lambda t: (
            t.do({"type": "passing_action", "character_id": "ala", "description": "x"}),
            t.fails({"type": "passing_action", "character_id": "ala", "description": "x"}, "no_passing_action"),
        ),
    ),
    "not_prone": (base, lambda t: t.fails({"type": "stand_up", "character_id": "ala"}, "not_prone")),
    "melee_needs_reach": (
        base,
        lambda t: t.fails(
            {"type": "attack", "character_id": "ala", "target_id": "bob", "mode": "melee", "distance": "far"},
            "melee_needs_reach",
        ),
    ),
    "wounds_required": (
        in_test,
        lambda t: t.fails({"type": "adjust_test", "wounds": 2}, "wounds_required", status=422),
    ),
    "ability_required": (
        fight,
        lambda t: t.fails(
            {"type": "attack", "character_id": "ala", "target_id": "bob", "mode": "melee", "offhand": True},
            "ability_required",
        ),
    ),
    "offhand_limit_reached": (_human_fight, _offhand),
    "no_ready_action": (fight, lambda t: t.fails({"type": "trigger_ready", "character_id": "ala"}, "no_ready_action")),
    "target_required": (
        fight,
        lambda t: t.fails(
            {
                "type": "ready",
                "character_id": "ala",
                "held_action": "melee_attack",
                "description": "x",
                "trigger_text": "y",
            },
            "target_required",
            status=422,
        ),
    ),
    "not_between_sessions": (
        base,
        lambda t: (
            t.do({"type": "start_session"}),
            t.fails({"type": "buy", "character_id": "ala", "purchase": "focus_max"}, "not_between_sessions"),
        ),
    ),
    "session_already_open": (
        base,
        lambda t: (t.do({"type": "start_session"}), t.fails({"type": "start_session"}, "session_already_open")),
    ),
    "no_session_running": (base, lambda t: t.fails({"type": "end_session"}, "no_session_running")),
    "not_enough_xp": (
        base,
        lambda t: t.fails({"type": "buy", "character_id": "ala", "purchase": "focus_max"}, "not_enough_xp"),
    ),
    "attribute_at_max": (
        base,
        lambda t: (
            t.set("ala", xp=20, attributes={"strength": 5, "dexterity": 2, "intelligence": 2, "charisma": 2}),
            t.fails(
                {"type": "buy", "character_id": "ala", "purchase": "attribute", "attribute": "strength"},
                "attribute_at_max",
            ),
        ),
    ),
    "adversity_already_awarded": (
        base,
        lambda t: (
            t.do({"type": "award_adversity", "adversity": "ogre", "character_ids": ["ala"]}),
            t.fails(
                {"type": "award_adversity", "adversity": "ogre", "character_ids": ["bob"]}, "adversity_already_awarded"
            ),
        ),
    ),
    "recovery_test_not_due": (
        base,
        lambda t: t.fails({"type": "recovery_test", "character_id": "ala"}, "recovery_test_not_due"),
    ),
    "recovery_tests_due": (base, _due),
    "not_in_safe_place": (
        base,
        lambda t: (t.set("ala", health=3), t.fails({"type": "rest_start", "character_id": "ala"}, "not_in_safe_place")),
    ),
    "regeneration_blocked": (
        base,
        lambda t: (
            t.pc("asr", species="asrai"),
            t.set("asr", focus_points=1),
            t.do({"type": "define_location", "location_id": "desert", "name": "Desert", "temperature_extreme": True}),
            t.do({"type": "set_location", "character_ids": ["asr"], "location_id": "desert"}),
            t.fails({"type": "restore_focus", "character_id": "asr", "amount": 1}, "regeneration_blocked"),
        ),
    ),
    "at_maximum": (
        base,
        lambda t: t.fails({"type": "restore_health", "character_id": "ala", "amount": 1}, "at_maximum"),
    ),
    "unknown_location": (
        base,
        lambda t: t.fails(
            {"type": "set_location", "character_ids": ["ala"], "location_id": "nowhere"}, "unknown_location", status=422
        ),
    ),
    "no_ether_sense": (
        base,
        lambda t: (
            t.do({"type": "define_location", "location_id": "x", "name": "X"}),
            t.fails({"type": "reveal_ether", "location_id": "x", "character_id": "ala"}, "no_ether_sense"),
        ),
    ),
    "npc_only": (
        base,
        lambda t: t.fails({"type": "edit_character", "character_id": "ala", "recovery_enabled": False}, "npc_only"),
    ),
    "over_carry_limit": (
        base,
        lambda t: t.fails(
            {"type": "add_item", "character_id": "ala", "name": "boulder", "weight": 19}, "over_carry_limit"
        ),
    ),
    "unknown_item": (
        base,
        lambda t: t.fails({"type": "drop_item", "character_id": "ala", "item_id": "i9"}, "unknown_item", status=422),
    ),
    "heavy_item_requires_gm": (
        base,
        lambda t: t.fails(
            {"type": "add_item", "character_id": "ala", "name": "chest", "weight": 3},
            "heavy_item_requires_gm",
            actor=ALA,
        ),
    ),
}


def test_every_code_has_a_scenario():
    assert set(SCENARIOS) == set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_violation(code):
    make, run = SCENARIOS[code]
    run(make())


def test_attribute_budget_exceeded_names_the_field():
    with pytest.raises(RuleViolation) as info:
        SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(char_input()), SYSTEM.Options(attribute_point_budget=4)
        )
    assert (info.value.code, info.value.status, info.value.field) == ("attribute_budget_exceeded", 422, "attributes")


def test_forbidden_player_for_someone_elses_character():
    t = base()
    assert (
        t.fails(
            {"type": "passing_action", "character_id": "bob", "description": "x"}, "not_your_character", actor=ALA
        ).status
        == 403
    )


def test_forbidden_player_sending_a_gm_move():
    assert (
        base().fails({"type": "open_test", "character_id": "ala", "attribute": "strength"}, "gm_only", actor=ALA).status
        == 403
    )


def test_forbidden_player_deciding_anothers_dodge_or_pending_test():
    t = hurt()
    t.fails({"type": "accept_damage"}, "not_your_character", actor=player("bob"))
    t2 = in_test()
    t2.fails({"type": "roll"}, "not_your_character", actor=player("bob"))


def test_forbidden_player_setting_gm_only_fields():
    t = base()
    t.fails(
        {"type": "add_item", "character_id": "ala", "name": "amulet", "weight": 0, "protects_from_temperature": True},
        "gm_only",
        actor=ALA,
    )
    t.fails(
        {"type": "attack", "character_id": "ala", "target_id": "bob", "mode": "melee", "critical_bonus_wounds": 1},
        "gm_only",
        actor=ALA,
    )
