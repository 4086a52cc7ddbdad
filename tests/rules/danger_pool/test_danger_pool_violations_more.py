"""One test per violation code of characters, teams and after-effects, and the check that every code of
errors.CODES has its `test_code_<code>`."""

from __future__ import annotations

import pytest
import test_danger_pool_violations as play
from danger_pool_support import Table, player
from test_danger_pool_violations import refuse

from service.rules.base import RuleViolation
from service.rules.danger_pool import SYSTEM
from service.rules.danger_pool.errors import CODES


def owed() -> Table:
    t = Table()
    t.pc("ann", {"Wetwork": 1, "Charm": 2}, player_id="P1")
    t.pc("bob", {"Driving": 1}, player_id="P2")
    t.state["characters"]["ann"]["pending_aftermath"] = True
    t.planning()
    return t


def aftermath(option: str, **kw) -> dict:
    return {"type": "choose_aftermath", "character_id": "ann", "option": option, **kw}


def test_code_duplicate_character():
    t = Table()
    t.pc("ann")
    refuse(
        t,
        {"type": "create_action_scene", "goal": "g", "leader_id": "ann", "team": ["ann", "ann"]},
        "duplicate_character",
    )


def test_code_unknown_character():
    t = Table()
    refuse(t, {"type": "record_tale", "character_id": "ghost"}, "unknown_character")


def test_code_character_not_active():
    t = Table()
    t.pc("ann")
    t.state["characters"]["ann"]["status"] = "dead"
    refuse(t, {"type": "create_planning_scene", "team": ["ann"]}, "character_not_active")


def test_code_leader_not_in_team():
    t = Table()
    t.pc("ann")
    t.pc("bob")
    refuse(t, {"type": "create_action_scene", "goal": "g", "leader_id": "bob", "team": ["ann"]}, "leader_not_in_team")


def test_code_leader_fixed_after_bail_out():
    t = Table()
    for c in ("lead", "ann"):
        t.pc(c, {"Wetwork": 1})
    t.scene_for(["lead", "ann"])
    t.declare("lead", [5], [6, 2])
    t.declare("ann", [5], [6, 2])
    t.do({"type": "bail_out", "character_id": "lead", "approach": "x", "ability": "Wetwork"}, [2, 6, 3])
    refuse(t, {"type": "configure_scene", "leader_id": "ann"}, "leader_fixed_after_bail_out")


def test_code_not_in_planning_scene():
    t = Table()
    t.pc("ann")
    t.state["characters"]["ann"]["pending_aftermath"] = True
    refuse(t, aftermath("hide_the_pain"), "not_in_planning_scene")


def test_code_no_pending_aftermath():
    t = owed()
    refuse(t, {"type": "choose_aftermath", "character_id": "bob", "option": "hide_the_pain"}, "no_pending_aftermath")


def test_code_aftermath_option_used():
    t = owed()
    t.table["players"]["P1"]["aftermath_used"] = ["hide_the_pain"]
    refuse(t, aftermath("hide_the_pain"), "aftermath_option_used")


def test_code_aftermath_pending():
    refuse(owed(), {"type": "end_scene"}, "aftermath_pending")


def test_code_aftermath_option_available():
    refuse(owed(), {"type": "settle_aftermath", "character_id": "ann", "text": "x"}, "aftermath_option_available")


def test_code_no_aftermath_proposal():
    refuse(owed(), {"type": "review_aftermath", "character_id": "ann", "decision": "approve"}, "no_aftermath_proposal")


def test_code_ability_too_low():
    t = owed()
    refuse(t, aftermath("take_the_hit", ability="Wetwork"), "ability_too_low")
    refuse(t, aftermath("set_someone_up", target_character_id="bob", ability="Driving"), "ability_too_low")


def test_code_invalid_set_up_target():
    refuse(owed(), aftermath("set_someone_up", target_character_id="ann", ability="Charm"), "invalid_set_up_target")


def test_code_field_required():
    refuse(owed(), aftermath("set_someone_up", ability="Driving"), "field_required")


def test_code_field_not_applicable():
    refuse(owed(), aftermath("hide_the_pain", ability="Charm"), "field_not_applicable")


def creation_fails(code: str, abilities: dict) -> None:
    with pytest.raises(RuleViolation) as info:
        SYSTEM.new_character({"name": "Ana", "abilities": abilities}, SYSTEM.Options())
    assert (info.value.code, info.value.status) == (code, 422) and info.value.field.startswith("abilities")


def test_code_abilities_required():
    creation_fails("abilities_required", {})


def test_code_invalid_ability_rating():
    creation_fails("invalid_ability_rating", {"Wetwork": 0})


def test_code_duplicate_ability():
    creation_fails("duplicate_ability", {"Wetwork": 2, "wetwork": 3})


def test_forbidden_gm_moves_and_other_players_characters():
    t = owed()
    for action in ({"type": "end_scene"}, {"type": "record_tale", "character_id": "ann"}):
        refuse_403(t, action, player("ann", player_id="P1"), "gm_only")
    refuse_403(t, aftermath("hide_the_pain"), player("bob", player_id="P2"), "not_your_character")


def refuse_403(t: Table, action: dict, actor, code: str) -> None:
    err = t.fails(action, code, actor=actor)
    assert err.status == 403


def test_every_code_has_its_test():
    names = set(dir(play)) | set(globals())
    missing = [code for code in CODES if f"test_code_{code}" not in names]
    assert not missing, missing
