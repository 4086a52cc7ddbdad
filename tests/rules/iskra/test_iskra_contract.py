"""The RuleSystem contract: options, character creation (spec 4.15), the action union, permissions, purity."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import TypeAdapter, ValidationError

from iskra_support import GM, Table, char_input, player
from service.dice.table import TableDice
from service.dice.types import DiceError
from service.rules.base import RuleViolation
from service.rules.iskra import SYSTEM

SPEC_3_11_DEFAULTS = {
    "reactions_per_round": 1,
    "overflow_damage_kills": True,
    "deaths_door_regen_test_can_kill": True,
    "focus_adjust_counts_for_critical": True,
    "focus_adjust_after_roll": True,
    "reroll_cost_fp": 1,
    "focus_requires_gm_approval": True,
    "focus_refresh": "gm_manual",
    "dodge_timing": "after_hit",
    "predisposition_stacking": "one_each",
    "xp_per_wound_basis": "health_lost",
    "efficiency_rounding": "ceil",
    "offhand_attacks_per_turn": 1,
    "turn_order_repeat": "same_each_round",
    "glory_modifier_enabled": True,
    "carry_predisposition_adjusts_capacity": True,
}


def test_identity():
    assert (SYSTEM.id, SYSTEM.name) == ("iskra", "Iskra")


def test_options_defaults_follow_spec_3_11():
    dumped = SYSTEM.Options().model_dump()
    assert {k: dumped[k] for k in SPEC_3_11_DEFAULTS} == SPEC_3_11_DEFAULTS
    assert SYSTEM.Options(reactions_per_round="unlimited").reactions_per_round == "unlimited"


def test_options_forbid_unknown_keys():
    with pytest.raises(ValidationError):
        SYSTEM.Options(initiative=True)


def test_initial_state_is_json_and_says_the_gm_moves():
    state = SYSTEM.initial_state(SYSTEM.Options())
    assert set(state) == {"options", "characters", "table"} and state["characters"] == {}
    assert json.loads(json.dumps(state)) == state
    table = state["table"]
    assert table["pending"] is None and table["encounter"] is None
    assert table["session"] == {"number": 0, "state": "between_sessions"} and table["day"] == 0
    assert table["awaiting"][0]["who"] == "gm"


def test_action_union_matches_action_types_and_senders():
    schema = TypeAdapter(SYSTEM.Action).json_schema()
    assert set(schema["discriminator"]["mapping"]) == set(SYSTEM.action_types)
    assert len(SYSTEM.action_types) == len(set(SYSTEM.action_types)) == 51
    assert set(SYSTEM.action_senders.values()) == {"gm", "owner"}


def test_every_action_field_is_described_and_extra_forbidden():
    from service.rules.iskra.actions import MODELS

    for model in MODELS:
        assert model.model_config.get("extra") == "forbid", model
        missing = [n for n, f in model.model_fields.items() if n != "type" and not f.description]
        assert not missing, (model.__name__, missing)
    with pytest.raises(ValidationError):
        SYSTEM.parse_action({"type": "roll", "bonus": 1})
    with pytest.raises(ValidationError):
        SYSTEM.parse_action({"type": "focus_adjust", "amount": 0, "description": "nothing"})


def _make(**changes):
    return SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(char_input(**changes)), SYSTEM.Options())


def test_new_character_starting_values():
    sheet = _make()
    assert (
        sheet["name"],
        sheet["health"],
        sheet["health_max"],
        sheet["focus_points"],
        sheet["focus_max"],
        sheet["xp"],
        sheet["glory"],
        sheet["status"],
        sheet["approved"],
    ) == ("Ala", 5, 5, 5, 5, 0, 0, "alive", False)
    json.dumps(sheet)


@pytest.mark.parametrize(
    "species, traits",
    [
        ("human", {"versatility", "ether_sense"}),
        ("elf", {"keen_senses", "ether_resistance"}),
        ("dwarf", {"blind", "ether_sight", "ether_resistance"}),
        ("asrai", {"temperature_sensitivity", "gills", "levitation", "ether_resistance"}),
    ],
)
def test_species_traits_are_granted(species, traits):
    sheet = _make(species=species)
    assert {a["ability_id"] for a in sheet["abilities"] if a["source"] == "species"} == traits


def test_versatility_gives_humans_four_picks():
    assert len([a for a in _make(species="human")["abilities"] if a["source"] == "creation"]) == 4
    with pytest.raises(RuleViolation) as info:
        _make(species="human", abilities=[{"ability_id": "light_step"}, {"ability_id": "efficiency"}])
    assert (info.value.code, info.value.status, info.value.field) == ("wrong_ability_pick_count", 422, "abilities")


def test_creation_pick_may_be_the_second_level_of_the_other():
    opts = SYSTEM.Options(extra_abilities=[{"ability_id": "fencing", "name": "Szermierka", "max_level": 2}])
    data = char_input(abilities=[{"ability_id": "fencing", "level": 2}, {"ability_id": "fencing"}])
    sheet = SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(data), opts)
    assert sorted(a["level"] for a in sheet["abilities"] if a["ability_id"] == "fencing") == [1, 2]


def test_attribute_point_budget_is_optional():
    big = {"strength": 5, "dexterity": 5, "intelligence": 5, "charisma": 5}
    assert _make(attributes=big)["attributes"] == big  # no budget by default (7-B2)
    with pytest.raises(RuleViolation) as info:
        SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(char_input(attributes=big)), SYSTEM.Options(attribute_point_budget=10)
        )
    assert info.value.code == "attribute_budget_exceeded"


def test_unapproved_character_cannot_act_for_a_player_until_the_gm_approves():
    t = Table()
    t.pc("ala", approve=False)
    t.fails({"type": "stand_up", "character_id": "ala"}, "character_not_approved", actor=player("ala"))
    t.do({"type": "approve_character", "character_id": "ala"})
    t.fails({"type": "stand_up", "character_id": "ala"}, "not_prone", actor=player("ala"))


def test_approval_toggle_off_lets_unapproved_characters_act():
    t = Table(character_approval_required=False)
    t.pc("ala", approve=False)
    t.do({"type": "passing_action", "character_id": "ala", "description": "runs"}, actor=player("ala"))


def test_apply_is_pure_and_accepts_dicts_or_models():
    t = Table()
    t.pc("ala")
    before = copy.deepcopy(t.state)
    action = SYSTEM.parse_action({"type": "open_test", "character_id": "ala", "attribute": "strength"})
    new, events = SYSTEM.apply(t.state, action, GM, TableDice([]))
    assert t.state == before and new != before and events[0].type == "test_opened"


def test_missing_dice_propagate_untouched():
    t = Table()
    t.pc("ala")
    t.open("ala")
    with pytest.raises(DiceError) as info:
        SYSTEM.apply(t.state, {"type": "roll"}, GM, TableDice([]))
    assert info.value.code == "dice_required"


def test_replaying_moves_and_dice_rebuilds_the_same_state():
    def play() -> dict:
        t = Table()
        t.pc("ala")
        t.test("ala", "strength", 7)
        return t.state

    assert play() == play()
