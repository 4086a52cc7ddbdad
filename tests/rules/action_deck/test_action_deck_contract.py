"""The system's contract: the SYSTEM object, purity, views per role, redacted events, sheets and options."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from action_deck_support import GM, SeededDice, Table, one, player
from service.dice.table import TableDice
from service.dice.types import DiceError
from service.rules.action_deck import SYSTEM
from service.rules.action_deck import deck as deck_module
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.actions import MODELS
from service.rules.base import RuleViolation

ANN = player("p1", "ann")


def table() -> Table:
    t = Table()
    t.add("ann", skills={"fighting": "d8"})
    t.add("bob")
    t.add("orc", side="opposition", skills={"fighting": "d10"})
    t.session({"p1": ["ann"], "p2": ["bob"]})
    t.do({"type": "start_encounter", "participants": ["ann", "bob", "orc"]}, source=SeededDice(5))
    t.do({"type": "deal"}, source=SeededDice(6))
    return t


def test_system_identity_and_defaults():
    assert (SYSTEM.id, SYSTEM.name) == ("action_deck", "Action Deck")
    opts = SYSTEM.Options()
    state = SYSTEM.initial_state(opts)
    assert set(state) == {"options", "characters", "table"} and state["characters"] == {}
    assert state["options"] == opts.model_dump(mode="json")
    json.dumps(state)
    assert sorted(state["table"]["deck"]["draw_pile"]) == sorted(set(state["table"]["deck"]["draw_pile"]))
    with pytest.raises(ValidationError):
        SYSTEM.Options(no_such_toggle=True)


def test_action_union_is_the_public_contract():
    adapter = TypeAdapter(SYSTEM.Action)
    schema = adapter.json_schema()
    assert set(SYSTEM.action_types) == {m.model_fields["type"].annotation.__args__[0] for m in MODELS}
    assert len(schema["oneOf"]) == len(SYSTEM.action_types) == len(set(SYSTEM.action_types))
    for m in MODELS:
        assert m.model_config.get("extra") == "forbid" and m.__doc__, m.__name__
    with pytest.raises(ValidationError):
        adapter.validate_python({"type": "call_next", "surprise": 1})


def test_character_input_and_sheet():
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate({"kind": "extra"})  # name is required
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate({"name": "A", "attributes": {"agility": "d7"}})
    sheet = SYSTEM.new_character(
        SYSTEM.CharacterInput.model_validate(
            {"name": " Ann ", "attributes": {"Agility": "d12+1"}, "skills": {"notice": "d8"}}
        ),
        SYSTEM.Options(),
    )
    json.dumps(sheet)
    assert sheet["name"] == "Ann" and "id" not in sheet
    assert sheet["attributes"] == {"agility": {"sides": 12, "bonus": 1}} and sheet["pace"] == 6
    assert (sheet["kind"], sheet["side"], sheet["running_die"], sheet["wounds"]) == ("wild_card", "party", 6, 0)


def test_apply_is_pure_for_good_and_bad_moves():
    t = table()
    frozen = copy.deepcopy(t.state)
    new, _ = SYSTEM.apply(t.state, {"type": "call_next"}, GM, TableDice([]))
    assert t.state == frozen and new is not t.state
    new["table"]["deck"]["in_play"].clear()
    assert t.state == frozen
    with pytest.raises(RuleViolation):
        SYSTEM.apply(t.state, {"type": "end_round"}, GM, TableDice([]))
    assert t.state == frozen


def test_apply_accepts_validated_models_and_lets_dice_errors_through():
    t = table()
    action = TypeAdapter(SYSTEM.Action).validate_python(
        {"type": "trait_test", "character_id": "ann", "trait": "fighting"}
    )
    assert isinstance(action, BaseModel)
    with pytest.raises(DiceError) as err:
        SYSTEM.apply(t.state, action, GM, TableDice([3]))  # the Wild Die is missing
    assert err.value.code == "dice_required"


def test_view_hides_the_deck_order_and_the_gm_pool_from_players():
    t = table()
    mine = SYSTEM.view(t.state, ANN)
    assert "draw_pile" not in mine["table"]["deck"] and mine["table"]["deck"]["draw_pile_count"] == 51
    assert "gm" not in mine["table"]
    gm = SYSTEM.view(t.state, GM)
    assert gm["table"]["gm"]["benny_pool"] == 2 and "draw_pile" not in gm["table"]["deck"]  # §3.4: nobody
    assert "draw_pile" in t.state["table"]["deck"]  # the stored state keeps it


def test_view_shows_players_only_the_public_face_of_npcs():
    t = table()
    t.do({"type": "trait_test", "character_id": "orc", "trait": "fighting"}, dice=[4, 2])
    mine = SYSTEM.view(t.state, ANN)
    assert set(mine["characters"]["orc"]) == {"id", "name", "side", "shaken", "stunned", "eliminated"}
    assert "skills" in mine["characters"]["ann"] and "skills" in mine["characters"]["bob"]
    test = mine["table"]["tests"][t.last_test()["id"]]
    assert "attempts" not in test and "spec" not in test and test["result"]["total"] == 4
    ev = [e for e in t.log if e.type == "trait_test_rolled"][-1]
    assert "dice" not in ev.redacted and "spec" not in ev.redacted["test"]


def test_the_undealt_order_is_sealed_from_everyone_the_gm_included():
    t = table()
    order = one(t.log, "deck_order")
    assert order.visibility == "sealed" and len(order.data["order"]) == 54 and len(order.data["dice"]) == 53
    for viewer in (GM, ANN):
        assert set(order.seen_by(viewer)) == {"reason", "cards", "shuffle_count", "seal"}  # §8: nobody knows it
    public = one(t.log, "deck_shuffled")
    assert public.visibility == "all" and set(public.data) == {"reason", "cards", "shuffle_count"}
    assert "sealed" not in SYSTEM.view(t.state, GM)["table"]["deck"]


def test_shuffle_dice_are_drawn_sealed():
    t = table()
    source = SeededDice(9)
    t.do({"type": "end_encounter"})
    t.do({"type": "start_encounter", "participants": ["ann", "orc"]}, source=source)
    assert len(source.rolled) == 53 and {d.visibility for d in source.rolled} == {"sealed"}
    assert {d.purpose for d in source.rolled} == {"deck_shuffle:2"}


def test_ending_the_encounter_unseals_the_order_and_its_dice():
    t = table()
    sealed = one(t.log, "deck_order").data
    shown = one(t.do({"type": "end_encounter"}), "dice_unsealed")
    assert shown.visibility == "all" and shown.redacted is None
    assert shown.data["seal"] == "deck_shuffle:1" and shown.data["why"] == "encounter_end"
    assert shown.data["order"] == sealed["order"] and shown.data["shuffle_dice"] == sealed["dice"]
    order = list(shown.data["starting_order"])  # anyone can redo the Fisher-Yates shuffle from the dice
    for i, die in zip(range(len(order) - 1, 0, -1), shown.data["shuffle_dice"], strict=True):
        j = die["face"] - 1
        order[i], order[j] = order[j], order[i]
    assert order == shown.data["order"]
    assert t.table["deck"]["sealed"] is None and SYSTEM.session_close_blocker(t.table) is None


def test_a_reshuffle_unseals_the_order_it_replaces():
    t = table()
    t.do({"type": "end_encounter"})
    events = t.do({"type": "start_encounter", "participants": ["ann", "orc"]}, source=SeededDice(3))
    assert [e.type for e in events if e.type in ("dice_unsealed", "deck_order")] == ["deck_order"]  # already shown
    t2 = table()
    ctx = Ctx(t2.state, GM, SeededDice(4))  # the Joker-round rebuild, driven directly
    deck_module.rebuild(ctx, "joker_round")
    shown = one(ctx.events, "dice_unsealed")
    assert shown.data["seal"] == "deck_shuffle:1" and shown.data["why"] == "joker_round"
    assert ctx.deck["sealed"]["seal"] == "deck_shuffle:2"


def test_a_dice_session_may_not_close_while_a_shuffled_deck_is_dealt():
    t = table()
    refusal = SYSTEM.session_close_blocker(t.table)
    assert refusal.code == "deck_in_play" and refusal.status == 409 and "end_encounter" in refusal.detail
    t.do({"type": "end_encounter"})
    assert SYSTEM.session_close_blocker(t.table) is None


def test_npc_trait_dice_are_drawn_for_the_gm_only():
    t = table()
    npc, pc = SeededDice(1), SeededDice(2)
    t.do({"type": "trait_test", "character_id": "orc", "trait": "fighting"}, source=npc)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, source=pc)  # the GM calls it
    assert npc.rolled and {d.visibility for d in npc.rolled} == {"gm"}  # §8 "NPC trait dice"
    assert pc.rolled and {d.visibility for d in pc.rolled} == {"all"}


def test_npc_benny_spend_is_redacted_for_players():
    t = table()
    t.do({"type": "set_condition", "character_id": "orc", "shaken": True})
    ev = one(t.do({"type": "unshake", "character_id": "orc"}), "benny_spent")
    assert ev.data["bennies"] == 1 and ev.redacted == {"character_id": "orc", "use": "unshake", "paid_by": "gm"}
