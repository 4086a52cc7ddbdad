"""Worked examples SD-E1 … SD-E9 of spec section 6, fed through the engine with table dice."""

from __future__ import annotations

import pytest

from service.rules.stepdice import SYSTEM
from stepdice_support import Table, clock_id, one, player, types

ADJ = {"x": 0, "y": 0}


def test_SD_E1_complete_character():
    data = SYSTEM.CharacterInput.model_validate(
        {
            "name": "Szelma",
            "role": "rogue",
            "talents": ["Zwiadowca", "Negocjator"],
            "equipment": {
                "weapon": "ranged combat tool",
                "protection": None,
                "items": ["lockpicks", "rope", "flashlight"],
            },
        }
    )
    sheet = SYSTEM.new_character(data, SYSTEM.Options())
    assert sheet["dice"] == {"strength": "d6", "dexterity": "d10", "magic": "d6"}
    assert (sheet["hearts"], sheet["hearts_max"], sheet["mana"], sheet["mana_max"]) == (5, 5, 3, 3)
    assert sheet["condition"] == "active"
    assert sheet["talents"] == ["Zwiadowca", "Negocjator"]
    assert sheet["equipment"] == {
        "weapon": "ranged combat tool",
        "protection": None,
        "items": ["lockpicks", "rope", "flashlight"],
    }
    assert sheet["pending_advancements"] == 0 and sheet["proficiency"] is None
    assert "id" not in sheet


@pytest.mark.parametrize("die", ["d6", "d8", "d10", "d12", "d20"])
def test_SD_E2_quiet_passage(die):
    t = Table()
    t.pc("r", "rogue")["dice"]["dexterity"] = die  # the source lost the die size (L181): any gives the same
    before = dict(t.sheet("r"))
    ev = t.do(
        {
            "type": "test",
            "character_id": "r",
            "attribute": "dexterity",
            "base_tn": 6,
            "intent": "cross the open area unnoticed",
        },
        [5],
        actor=player("r"),
    )
    rec = one(ev, "test_resolved")
    assert (rec["tn"], rec["roll"], rec["outcome"]) == (6, 5, "failure")
    assert t.pending is None and t.sheet("r") == before
    # 7-A13: the consequence of a plain failure is optional and recorded by the GM.
    ev = t.do(
        {
            "type": "gm_note",
            "test_id": rec["test_id"],
            "text": "someone hears a sound and starts checking the area (time pressure)",
        }
    )
    assert one(ev, "gm_note")["test_id"] == rec["test_id"]


def test_SD_E2_running_clock_advances():
    t = Table(use_time_pressure_clocks=True)
    t.pc("r", "rogue")
    t.do({"type": "start_scene"})
    t.do({"type": "create_clock", "label": "guards search", "consequence": "alarm"})
    ev = t.do({"type": "test", "character_id": "r", "attribute": "dexterity", "base_tn": 6}, [5])
    assert one(ev, "clock_advanced")["value"] == 1
    assert t.table["clocks"][clock_id(1)]["value"] == 1


def test_SD_E3_working_a_mechanism_with_help():
    t = Table()
    t.pc("w", "warrior")
    t.pc("a", "rogue")
    ev = t.do(
        {
            "type": "test",
            "character_id": "w",
            "attribute": "strength",
            "base_tn": 6,
            "helper_ids": ["a"],
            "intent": "start the mechanism quickly",
        },
        [12],
    )
    rec = one(ev, "test_resolved")
    assert (rec["base_die"], rec["die"], rec["roll"], rec["outcome"]) == ("d10", "d12", 12, "exceptional_success")
    assert t.pending["stage"] == "choose_benefit" and t.pending["benefit_options"] == ["extra_benefit"]
    before = {c: dict(s) for c, s in t.state["characters"].items()}
    ev = t.do(
        {"type": "choose_benefit", "option": "extra_benefit", "text": "works immediately and makes no noise"},
        actor=player("w"),
    )
    assert one(ev, "benefit_chosen")["text"] == "works immediately and makes no noise"
    assert t.pending is None and t.state["characters"] == before


def test_SD_E3_in_combat_the_help_token_is_consumed():
    t = Table()
    t.pc("w", "warrior")
    t.pc("a", "rogue")
    t.fight({"w": None, "a": None}, [{"enemy_id": "m", "name": "Goblin", "kind": "minion"}])
    t.do({"type": "begin_turn", "character_id": "a"})
    t.do({"type": "help", "character_id": "a", "target_character_id": "w", "description": "steadies the lever"})
    t.do({"type": "end_turn", "character_id": "a"})
    t.do({"type": "begin_turn", "character_id": "w"})
    ev = t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, [12])
    assert one(ev, "help_token_consumed")["helper_id"] == "a"
    assert one(ev, "test_resolved")["outcome"] == "exceptional_success"
    assert t.enc["help_tokens"] == []


def _e4(**options):
    t = Table(**options)
    t.pc("w", "warrior", protection="shield")
    t.fight(
        {"w": {"x": 0, "y": 0}}, [{"enemy_id": "m", "name": "Goblin", "kind": "minion", "position": {"x": 1, "y": 0}}]
    )
    t.do({"type": "begin_turn", "character_id": "w"})
    ev = t.do({"type": "attack", "character_id": "w", "target_enemy_id": "m", "attack_type": "melee"}, [4])
    rec = one(ev, "test_resolved")
    assert (rec["die"], rec["tn"], rec["outcome"]) == ("d10", 6, "failure")
    assert t.pending["stage"] == "retaliation_check"
    assert t.pending["attack"]["could_reach_default"] is True  # "because it is melee"
    return t


def test_SD_E4_simple_melee_exchange():
    t = _e4()
    ev = t.do({"type": "resolve_retaliation"})
    assert one(ev, "retaliation_resolved")["could_reach"] is True
    assert (t.sheet("w")["hearts"], t.sheet("w")["hearts_max"]) == (4, 5)
    assert t.enc["pcs"]["w"]["action_available"] is False
    assert t.enemy("m")["state"] == "active"


def test_SD_E4_armor_variant():
    t = _e4(use_armor_tokens=True)
    t.do({"type": "resolve_retaliation"})
    assert t.pending["stage"] == "armor_choice" and t.sheet("w")["hearts"] == 5
    ev = t.do({"type": "choose_armor", "use_armor": True}, actor=player("w"))
    assert "armor_token_spent" in types(ev) and "hearts_lost" not in types(ev)
    assert t.sheet("w")["hearts"] == 5 and t.sheet("w")["armor_token_available"] is False


def test_SD_E5_boss_and_exceptional_success():
    t = Table()
    t.pc("r", "rogue")
    t.pc("a", "warrior")
    t.fight({"r": None, "a": None}, [{"enemy_id": "boss", "name": "Boss", "kind": "boss"}])
    assert (t.enemy("boss")["tn"], t.enemy("boss")["wounds_max"]) == (12, 3)
    t.do({"type": "begin_turn", "character_id": "a"}, actor=player("a"))
    t.do(
        {"type": "help", "character_id": "a", "target_character_id": "r", "description": "draws its eye"},
        actor=player("a"),
    )
    t.do({"type": "end_turn", "character_id": "a"}, actor=player("a"))
    t.do({"type": "begin_turn", "character_id": "r"}, actor=player("r"))
    ev = t.do(
        {
            "type": "attack",
            "character_id": "r",
            "target_enemy_id": "boss",
            "attack_type": "ranged",
            "steps": [{"source": "good position", "delta": -1}],
        },
        [12],
        actor=player("r"),
    )
    rec = one(ev, "test_resolved")
    assert (rec["attribute"], rec["die"], rec["base_tn"], rec["tn"], rec["outcome"]) == (
        "dexterity",
        "d12",
        12,
        8,
        "exceptional_success",
    )
    t.do({"type": "choose_benefit", "option": "extra_wound"}, actor=player("r"))
    boss = t.enemy("boss")
    assert (boss["wounds_taken"], boss["wounds_max"], boss["state"]) == (2, 3, "active")
    assert t.enc["pcs"]["a"]["action_available"] is False
    assert t.enc["pcs"]["r"]["action_available"] is False


def test_SD_E6_defensive_magic():
    t = Table()
    t.pc("m", "mage")
    ev = t.do(
        {"type": "cast", "character_id": "m", "tier": "standard", "intent": "a short shield to run 5 squares safely"},
        [9],
        actor=player("m"),
    )
    assert one(ev, "mana_spent")["amount"] == 1
    rec = one(ev, "test_resolved")
    assert (rec["die"], rec["tn"], rec["outcome"]) == ("d10", 6, "success")
    assert (t.sheet("m")["mana"], t.sheet("m")["mana_max"]) == (2, 3)
    assert t.pending is None


def test_SD_E7_magic_failure_and_consequence():
    t = Table()
    t.pc("m", "mage")
    ev = t.do({"type": "cast", "character_id": "m", "tier": "strong", "intent": "immobilize the elite"}, [3])
    assert types(ev).index("mana_spent") < types(ev).index("test_resolved")  # paid before the roll
    assert one(ev, "test_resolved")["outcome"] == "failure"
    assert t.sheet("m")["mana"] == 1
    assert t.pending["stage"] == "needs_gm_text" and t.pending["text_required"] == "consequence"
    assert "retaliation" not in str(types(ev))
    t.do({"type": "record_consequence", "text": "you expose yourself"})
    assert t.pending is None and t.sheet("m")["mana"] == 1 and t.sheet("m")["hearts"] == 5


@pytest.mark.parametrize(
    "base_tn, deltas, band, tn",
    [
        (6, [1], "normal", 8),  # L142 "6 → 8"
        (8, [-1], "normal", 6),  # L144 "8 → 6"
        (12, [-1], "normal", 8),  # L334 "TN 12 → 8"
        (4, [-1], "near_certain", None),  # L151
        (12, [1], "near_impossible", None),  # L152
        (8, [2], "near_impossible", None),  # L147 with L152
    ],
)
def test_SD_E8_tn_stepping(base_tn, deltas, band, tn):
    t = Table()
    t.pc("w", "warrior")
    ev = t.do(
        {
            "type": "test",
            "character_id": "w",
            "attribute": "strength",
            "base_tn": base_tn,
            "steps": [{"source": "conditions", "delta": d} for d in deltas],
        },
        [5],
    )
    rec = one(ev, "test_resolved")
    assert (rec["band"], rec["tn"]) == (band, tn)


E9_ROWS = {
    # row: (raw threshold before the clamp, clamped threshold, {roll: outcome})
    "trained_vs_minion": (4, 4, {1: "failure_complication", 3: "failure", 4: "success", 6: "exceptional_success"}),
    "unskilled_vs_boss": (8, 6, {1: "failure_complication", 5: "failure", 6: "exceptional_success"}),
    "master_easy_helped": (1, 2, {1: "failure_complication", 2: "success", 6: "exceptional_success"}),
}


def _e9(row, roll):
    t = Table(variant_d6_only=True)
    t.pc("w", "warrior")  # 7-A41: strength trained, dexterity and magic unskilled
    t.pc("h", "rogue")
    if row == "master_easy_helped":
        t.sheet("w")["proficiency"]["strength"] = "master"
        return t.do(
            {"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 4, "helper_ids": ["h"]}, [roll]
        )
    kind, attack_type = ("minion", "melee") if row == "trained_vs_minion" else ("boss", "ranged")
    t.fight({"w": None}, [{"enemy_id": "e", "name": "Foe", "kind": kind}])
    t.do({"type": "begin_turn", "character_id": "w"})
    return t.do({"type": "attack", "character_id": "w", "target_enemy_id": "e", "attack_type": attack_type}, [roll])


@pytest.mark.parametrize(
    "row, roll, outcome", [(r, roll, o) for r, (_, _, cells) in E9_ROWS.items() for roll, o in cells.items()]
)
def test_SD_E9_d6_only_variant(row, roll, outcome):
    rec = one(_e9(row, roll), "test_resolved")
    assert rec["die"] == "d6"
    assert (rec["raw_threshold"], rec["threshold"]) == E9_ROWS[row][:2]
    assert rec["outcome"] == outcome
