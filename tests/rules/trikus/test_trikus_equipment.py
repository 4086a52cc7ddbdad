"""Equipment and its traits (advanced, L394–L420; spec 4.20, A33, A43)."""

from __future__ import annotations

import pytest
from trikus_support import GM, Table, character_input, player

from service.rules.base import RuleViolation
from service.rules.trikus import SYSTEM


def gear(*traits, name="gear"):
    return {"name": name, "traits": [t if isinstance(t, dict) else {"kind": t} for t in traits]}


def test_equipment_offensive_lowers_the_attack_target():
    """L398, L404: an offensive modifier (negative) makes the attacker's CD roll easier."""
    t = Table(adv_equipment=True, adv_combat_difficulty=True)
    t.pc("a", "beginner", equipment=[gear({"kind": "offensive", "modifier": -2})])
    t.pc("m", "master")
    t.do({"type": "open_combat", "character_ids": ["a"], "gm_pool": 2, "combat_difficulty": 5})
    t.do({"type": "join", "character_id": "a", "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "a", "item_ids": ["i1"]})
    t.wave(gm=1, a=8)
    t.throw("gm", 2)
    t.throw("a", 3)
    roll = t.events("combat_difficulty_roll")[0].data
    assert (roll["need"], roll["hit"]) == (3, True) and t.act["gm_pool"] == 1


def test_equipment_defensive_raises_the_gm_target_for_owner_and_whom_the_owner_defends():
    """L406, A43: +modifier on GM rolls against the owner and against anyone the owner defends."""
    t = Table(adv_equipment=True, adv_combat_difficulty=True)
    t.pc("a", "beginner")
    t.pc("d", "beginner", equipment=[gear({"kind": "defensive", "modifier": 3})])
    t.do({"type": "open_combat", "character_ids": ["a", "d"], "gm_pool": 2, "combat_difficulty": 3})
    for c in ("a", "d"):
        t.do({"type": "join", "character_id": c, "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "a"})
    t.do({"type": "declare_round", "character_id": "d", "item_ids": ["i1"]})
    t.wave(gm=5, a=1, d=9)
    t.throw("gm", 1)
    t.do({"type": "defend", "character_id": "d", "target_character_id": "a"})
    t.throw("gm", 7)
    roll = t.events("combat_difficulty_roll")[0].data
    assert (roll["need"], roll["hit"]) == (3 + 2 + 3, False)


def test_equipment_helpful_adds_a_die_for_one_round_in_combat_only():
    """L408, A43: +1 die this round; not persistent; no effect outside combat."""
    t = Table(adv_equipment=True)
    t.pc("a", "beginner", equipment=[gear("helpful")])
    t.pc("m", "master")
    t.do({"type": "open_combat", "character_ids": ["a"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "a", "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "a", "item_ids": ["i1"]})
    assert t.unthrown()["a"] == 2 and t.act["participants"]["a"]["line_dice"] == 1
    t.do({"type": "abort_activity", "reason": "test over"})
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 1, "item_ids": ["i1"]})
    t.do({"type": "start"})
    assert t.unthrown()["a"] == 1


def test_equipment_single_use_is_lost_and_renewable_is_depleted_then_renewed():
    """L410, L418, A43."""
    t = Table(adv_equipment=True)
    t.pc(
        "a",
        "beginner",
        equipment=[
            gear("single_use", name="grenade"),
            gear("single_use", {"kind": "renewable", "renew_condition": "recharge"}),
        ],
    )
    t.pc("m", "master")
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 0, "item_ids": ["i1", "i2"]})
    t.do({"type": "start"})
    t.wave(gm=1, a=5)
    states = [it["state"] for it in t.sheet("a")["equipment"]]
    assert states == ["lost", "depleted"]
    t.fails({"type": "renew_item", "character_id": "a", "item_id": "i1"}, "item_not_renewable")
    t.do({"type": "renew_item", "character_id": "a", "item_id": "i2"})
    assert t.sheet("a")["equipment"][1]["state"] == "available"
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "a", "line_index": 1, "item_ids": ["i1"]}, "item_not_available")


def test_equipment_battle_meditation_gives_every_player_a_morale_die():
    """L412, A43: at the start; usable from the next pool formation."""
    t = Table(adv_equipment=True)
    t.pc("a", "beginner", equipment=[gear("battle_meditation")])
    t.pc("b", "advanced")
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 0, "item_ids": ["i1"]})
    t.do({"type": "start"})
    assert (t.sheet("a")["morale_dice"], t.sheet("b")["morale_dice"]) == (1, 1)
    t.wave(gm=9, a=1)
    assert (t.sheet("a")["morale_dice"], t.sheet("b")["morale_dice"]) == (0, 1)


def test_equipment_unreliable_is_lost_on_failure_only():
    """L414."""
    t = Table(adv_equipment=True)
    t.pc("a", "beginner", equipment=[gear("unreliable"), gear("unreliable")])
    t.pc("m", "master")
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 0, "item_ids": ["i1"]})
    t.do({"type": "start"})
    t.wave(gm=1, a=9)
    assert t.sheet("a")["equipment"][0]["state"] == "available"
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 1, "item_ids": ["i2"]})
    t.do({"type": "start"})
    t.wave(gm=9, a=1)
    assert t.sheet("a")["equipment"][1]["state"] == "lost"


def test_equipment_black_hole_kills_on_failure_even_if_unknown():
    """L416, A33: the second exception to 'no death'; hidden flaws surprise (L402); succession follows."""
    t = Table(adv_equipment=True)
    t.pc("a", "beginner")
    t.pc("b", "advanced", equipment=[gear("helpful", {"kind": "black_hole", "known_to_owner": False})])
    t.pc("m", "master")
    view = SYSTEM.view(t.state, player("b"))["characters"]["b"]["equipment"][0]["traits"]
    assert view[1] == {"kind": "unknown", "known_to_owner": False}
    assert SYSTEM.view(t.state, GM)["characters"]["b"]["equipment"][0]["traits"][1]["kind"] == "black_hole"
    t.do({"type": "open_test", "character_ids": ["b"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "b", "line_index": 0, "item_ids": ["i1"]})
    t.do({"type": "start"})
    t.wave(gm=9, b=1)
    t.throw("b", 1)
    assert t.sheet("b")["status"] == "dead"
    assert t.events("character_died")[0].data["reason"] == "black_hole"
    assert t.events("trait_revealed")[0].data["trait"]["kind"] == "black_hole"
    assert {p.get("character_id") for p in t.state["table"]["pending_changes"]} == {"a", None}


def test_equipment_sith_artifact_gives_a_dark_token_on_use():
    """L420."""
    t = Table(adv_equipment=True)
    t.pc("a", "beginner", equipment=[gear("sith_artifact")])
    t.pc("m", "master")
    t.do({"type": "open_test", "character_ids": ["a"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "a", "line_index": 0, "item_ids": ["i1"]})
    t.do({"type": "start"})
    assert t.sheet("a")["dark_tokens"]["active"] == 1
    assert t.events("dark_token_added")[0].data["source"] == "sith_artifact"


def test_equipment_given_in_play_hides_unknown_traits_from_players():
    t = Table()
    t.pc("a", "beginner")
    events = t.do(
        {
            "type": "give_item",
            "character_id": "a",
            "item": gear("helpful", {"kind": "unreliable", "known_to_owner": False}),
        }
    )
    assert events[0].data["item"]["traits"][1]["kind"] == "unreliable"
    assert events[0].redacted["item"]["traits"][1] == {"kind": "unknown", "known_to_owner": False}
    t.do({"type": "reveal_trait", "character_id": "a", "item_id": "i1", "trait_index": 1})
    assert SYSTEM.view(t.state, player("a"))["characters"]["a"]["equipment"][0]["traits"][1]["kind"] == "unreliable"


@pytest.mark.parametrize(
    "item, code",
    [
        (gear("helpful", "helpful"), "duplicate_trait"),
        (gear("offensive"), "modifier_required"),
        (gear({"kind": "offensive", "modifier": 2}), "bad_trait_modifier"),
        (gear({"kind": "defensive", "modifier": -1}), "bad_trait_modifier"),
        (gear({"kind": "helpful", "modifier": 1}), "bad_trait_modifier"),
    ],
)
def test_equipment_creation_checks(item, code):
    with pytest.raises(RuleViolation) as err:
        SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(character_input("A", "beginner", equipment=[item])), SYSTEM.Options()
        )
    assert err.value.code == code and err.value.status == 422 and err.value.field.startswith("equipment[0]")


def test_equipment_one_to_three_pips():
    """L402: one, two or three pips."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate(character_input("A", "beginner", equipment=[gear()]))
    with pytest.raises(ValidationError):
        SYSTEM.CharacterInput.model_validate(
            character_input("A", "beginner", equipment=[gear("helpful", "single_use", "renewable", "unreliable")])
        )
