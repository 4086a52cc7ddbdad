"""The RuleSystem contract: SYSTEM's attributes, schemas, purity, JSON-ability, authorization."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import TypeAdapter, ValidationError
from engine_moves import check_typed_models
from trikus_support import GM, Table, character_input, player

from service.dice.table import TableDice
from service.dice.types import DiceError
from service.rules.base import RuleViolation
from service.rules.trikus import SYSTEM
from service.rules.trikus.actions import MODELS


def test_contract_system_attributes():
    assert (SYSTEM.id, SYSTEM.name) == ("trikus", "Trikus")
    assert len(SYSTEM.action_types) == len(set(SYSTEM.action_types)) == len(MODELS)
    assert {"throw", "auto", "join", "escape", "propose_negotiation", "claim_boom"} <= set(SYSTEM.action_types)
    SYSTEM.Options()
    json.dumps(TypeAdapter(SYSTEM.Action).json_schema())
    json.dumps(SYSTEM.CharacterInput.model_json_schema())
    json.dumps(SYSTEM.Options.model_json_schema())


def test_contract_action_models_forbid_extras_and_describe_fields():
    for model in MODELS:
        assert model.model_config.get("extra") == "forbid", model.__name__
        for name, field in model.model_fields.items():
            assert name == "type" or field.description, f"{model.__name__}.{name}"
    with pytest.raises(ValidationError):
        TypeAdapter(SYSTEM.Action).validate_python({"type": "start", "surprise": 1})
    with pytest.raises(ValidationError):
        TypeAdapter(SYSTEM.Action).validate_python({"type": "no_such_move"})


def test_contract_options_forbid_extras():
    with pytest.raises(ValidationError):
        SYSTEM.Options(adv_laser_swords=True)


def test_contract_initial_state_shape():
    state = SYSTEM.initial_state(SYSTEM.Options())
    assert set(state) == {"options", "characters", "table"} and state["characters"] == {}
    assert state["options"] == SYSTEM.Options().model_dump(mode="json")
    assert state["table"]["activity"] is None
    json.dumps(state)


def test_contract_new_character_sheet():
    sheet = SYSTEM.new_character(
        SYSTEM.CharacterInput.model_validate({**character_input("Zuzia", "advanced"), "tier": "Advanced"}),
        SYSTEM.Options(),
    )
    assert sheet["name"] == "Zuzia" and sheet["tier"] == "advanced" and "id" not in sheet
    assert sheet["status"] == "active" and sheet["sides_pending"] is False
    json.dumps(sheet)
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate({**character_input("Z", "advanced"), "level": 3})
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate({**character_input("Z", "advanced"), "tier": "grandmaster"})


def test_contract_apply_accepts_models_and_is_pure():
    t = Table()
    t.party()
    before = copy.deepcopy(t.state)
    action = TypeAdapter(SYSTEM.Action).validate_python({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    new, events = SYSTEM.apply(t.state, action, GM, TableDice([]))
    assert t.state == before and new["table"]["activity"]["id"] == "a1" and events[0].type == "activity_opened"


def test_contract_dice_errors_propagate_untouched():
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    t.submit("gm")
    with pytest.raises(DiceError) as err:
        SYSTEM.apply(t.state, {"type": "throw", "character_id": "pawel"}, player("pawel"), TableDice([]))
    assert err.value.code == "dice_required"


def test_contract_validation_happens_before_any_die():
    """A refused move rolls nothing: the table dice stay unused."""
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    dice = TableDice([5, 5])
    with pytest.raises(RuleViolation):
        SYSTEM.apply(t.state, {"type": "throw", "character_id": "pawel"}, player("zuzia"), dice)
    assert dice.rolled == []


def test_contract_typed_models_forbid_unknown_fields_and_carry_unique_prefixed_titles():
    check_typed_models(SYSTEM, "Trikus")
