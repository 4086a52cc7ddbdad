"""The RuleSystem contract: identity, options, character creation, the action union, permissions, purity."""

from __future__ import annotations

import copy
import json

import pytest
from danger_pool_support import GM, Table, player
from pydantic import TypeAdapter, ValidationError

from service.dice.table import TableDice
from service.dice.types import DiceError
from service.rules.base import RuleViolation
from service.rules.danger_pool import SYSTEM
from service.rules.danger_pool.actions import MODELS

SPEC_3_1_DEFAULTS = {
    "die_sides": 10,
    "danger_pool_start": 2,
    "danger_pool_start_after_bail_out": 3,
    "danger_per_new_round": 2,
    "danger_per_player_one": 1,
    "risk_extra_dice": 3,
    "character_points_start": 2,
    "betrayal_track_boxes": 4,
    "stamina_max_default": 3,
    "progress_track_length_default": 8,
    "max_scars": None,
    "scar_penalty_mode": "relevant",
    "cp_per_tale": 1,
    "cp_per_accepted_reduction": 1,
    "cp_per_accepted_scar": 1,
    "set_up_victim_gains_cp": True,
    "max_cp_spends_per_roll": 1,
    "zero_pool_policy": "auto_lose",
    "element_rerolls_per_element_per_scene": 1,
    "alarm_timing": "round_boundary",
    "aftermath_scope": "player",
    "bail_out_includes_taken_out": False,
    "allow_pass": False,
}
OWNER_MOVES = {
    "declare_action",
    "pass_turn",
    "waive_first",
    "choose_tie",
    "continue_scene",
    "bail_out",
    "extract",
    "choose_aftermath",
    "describe",
}


def test_identity():
    assert (SYSTEM.id, SYSTEM.name) == ("danger_pool", "Danger Pool")


def test_options_defaults_follow_spec_3_1():
    assert SYSTEM.Options().model_dump() == SPEC_3_1_DEFAULTS


def test_options_forbid_unknown_keys():
    with pytest.raises(ValidationError):
        SYSTEM.Options(danger_cap=3)


def test_initial_state_is_json_and_has_the_shared_shape():
    state = SYSTEM.initial_state(SYSTEM.Options())
    assert set(state) == {"options", "characters", "table"} and state["characters"] == {}
    assert json.loads(json.dumps(state)) == state
    assert state["table"]["scene"] is None
    assert state["table"]["awaiting"] == [
        {"who": "gm", "character_id": None, "may": ["create_action_scene", "create_planning_scene"]}
    ]


def test_action_union_matches_action_types_and_senders():
    schema = TypeAdapter(SYSTEM.Action).json_schema()
    assert set(schema["discriminator"]["mapping"]) == set(SYSTEM.action_types)
    assert {t for t, s in SYSTEM.action_senders.items() if s == "owner"} == OWNER_MOVES
    assert set(SYSTEM.action_senders.values()) == {"gm", "owner"}


def test_every_action_field_is_described_and_extra_is_forbidden():
    for model in MODELS:
        assert model.model_config.get("extra") == "forbid", model
        missing = [n for n, f in model.model_fields.items() if n != "type" and not f.description]
        assert not missing, (model.__name__, missing)
    with pytest.raises(ValidationError):
        TypeAdapter(SYSTEM.Action).validate_python({"type": "end_scene", "bonus": 1})


def test_new_character_sheet():
    sheet = SYSTEM.new_character(
        SYSTEM.CharacterInput(
            name='Lucifer "Cyclops" Jones', abilities={"Wetwork": 3}, legends=["Old Baghdad"], equipment=["Colt 1911"]
        ),
        SYSTEM.Options(),
    )
    assert json.loads(json.dumps(sheet)) == sheet
    assert (sheet["name"], sheet["stamina"], sheet["stamina_max"], sheet["character_points"], sheet["status"]) == (
        'Lucifer "Cyclops" Jones',
        3,
        3,
        2,
        "active",
    )
    assert sheet["legends"] == [{"legend_id": "legend-1", "text": "Old Baghdad"}]
    assert sheet["equipment"] == [{"item_id": "item-1", "text": "Colt 1911"}] and sheet["scars"] == []
    assert SYSTEM.new_character({"name": "B", "abilities": {"X": 1}, "stamina_max": 5}, {})["stamina"] == 5
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput(name="x", abilities={"X": 1}, stamina=4)


def test_player_moves_only_for_own_characters_and_gm_moves_are_403():
    t = Table()
    t.pc("ann")
    t.pc("bob")
    t.scene_for(["ann", "bob"])
    for action, who, code in (
        ({"type": "waive_first", "character_id": "ann"}, player("bob"), "not_your_character"),
        ({"type": "end_scene"}, player("ann"), "gm_only"),
        ({"type": "raise_alarm", "amount": 1}, player("ann"), "gm_only"),
    ):
        err = t.fails(action, code, actor=who)
        assert err.status == 403


def test_apply_is_pure_and_accepts_models_or_dicts():
    t = Table()
    t.pc("ann")
    t.scene_for(["ann"])
    before = copy.deepcopy(t.state)
    action = TypeAdapter(SYSTEM.Action).validate_python(
        {"type": "declare_action", "character_id": "ann", "kind": "push", "approach": "x", "ability": "Wetwork"}
    )
    a, ev_a = SYSTEM.apply(t.state, action, GM, TableDice([5, 5, 5, 3, 2]))
    b, ev_b = SYSTEM.apply(t.state, action.model_dump(), GM, TableDice([5, 5, 5, 3, 2]))
    assert t.state == before and a == b and [e.data for e in ev_a] == [e.data for e in ev_b]


def test_dice_errors_propagate_untouched_and_nothing_is_rolled_before_validation():
    t = Table()
    t.pc("ann")
    t.scene_for(["ann"])
    with pytest.raises(DiceError) as info:
        SYSTEM.apply(
            t.state,
            {"type": "declare_action", "character_id": "ann", "kind": "push", "approach": "x", "ability": "Wetwork"},
            GM,
            TableDice([5]),
        )
    assert info.value.code == "dice_required"
    src = TableDice([5, 5, 5, 3, 2])
    with pytest.raises(RuleViolation):
        SYSTEM.apply(
            t.state,
            {"type": "declare_action", "character_id": "ann", "kind": "push", "approach": "x", "ability": "Nope"},
            GM,
            src,
        )
    assert src.rolled == []


def test_rolling_events_carry_every_die_with_its_source():
    t = Table()
    t.pc("ann")
    t.scene_for(["ann"])
    events = t.declare("ann", [5, 1, 9], [3, 2])
    dice = [d for e in events for d in e.data.get("dice", [])]
    assert [d["purpose"] for d in dice] == ["player"] * 3 + ["danger"] * 2
    assert {d["source"] for d in dice} == {"table"} and {d["sides"] for d in dice} == {10}


def test_roster_assign_player_moves_a_character_between_players():
    t = Table()
    t.pc("ann", player_id="P1")
    t.do({"type": "assign_player", "player_id": "P2", "character_id": "ann"})
    assert t.table["players"] == {
        "P1": {"character_id": None, "aftermath_used": []},
        "P2": {"character_id": "ann", "aftermath_used": []},
    }
    assert t.sheet("ann")["player_id"] == "P2"


def test_roster_assign_player_to_no_character_leaves_the_player_without_one_A36():
    t = Table()
    t.pc("ann", player_id="P1")
    events = t.do({"type": "assign_player", "player_id": "P1", "character_id": None})
    assert [(e.type, e.data) for e in events] == [("player_assigned", {"player_id": "P1", "character_id": None})]
    assert t.table["players"]["P1"] == {"character_id": None, "aftermath_used": []}
