"""Sessions, XP and abilities (spec 4.10, 5.6), Glory (4.6), recovery (4.9), carrying (4.11), species (4.14)."""

from __future__ import annotations

import pytest

from iskra_support import GM, Table, of, one, player
from service.rules.iskra import SYSTEM

ALA = player("ala")


def test_session_cycle_and_roleplay_xp_once_per_session():
    t = Table()
    t.pc("ala")
    t.do({"type": "start_session"})
    assert t.table["session"] == {"number": 1, "state": "in_session"}
    events = t.do({"type": "end_session", "roleplay_awards": ["ala", "ala"]})
    assert one(events, "session_ended")["roleplay_awards"] == ["ala"] and t.sheet("ala")["xp"] == 1
    assert t.table["session"]["state"] == "between_sessions"


def test_adversity_gives_three_xp_each_once():
    t = Table()
    t.pc("ala")
    t.pc("bob")
    t.do({"type": "award_adversity", "adversity": "the bridge troll", "character_ids": ["ala", "bob"]})
    assert t.sheet("ala")["xp"] == t.sheet("bob")["xp"] == 3
    t.fails(
        {"type": "award_adversity", "adversity": "The Bridge Troll", "character_ids": ["ala"]},
        "adversity_already_awarded",
    )


def test_glory_award_one_by_default():
    t = Table()
    t.pc("ala")
    t.do({"type": "award_glory", "character_id": "ala", "deed": "slew the wyrm"})
    assert t.sheet("ala")["glory"] == 1


def _buyer(**options) -> Table:
    t = Table(
        extra_abilities=[
            {"ability_id": "fencing", "name": "Szermierka", "max_level": 3},
            {"ability_id": "banner", "name": "Sztandar", "glory_required": 2},
        ],
        **options,
    )
    t.pc("ala")
    t.set("ala", xp=100)
    return t


def test_ability_levels_are_bought_in_order():
    t = _buyer()
    t.fails(
        {"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "fencing", "level": 2},
        "ability_level_order",
        actor=ALA,
    )
    t.do({"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "fencing"}, actor=ALA)
    t.do({"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "fencing", "level": 2}, actor=ALA)
    assert t.sheet("ala")["xp"] == 80


def test_language_repeats_with_a_new_language_each_time():
    t = _buyer()
    t.do(
        {"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "language", "param": "Asrai"},
        actor=ALA,
    )
    t.fails(
        {"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "language", "param": "asrai"},
        "duplicate_ability",
        actor=ALA,
    )
    t.fails(
        {"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "language"},
        "ability_param_required",
        actor=ALA,
    )


def test_glory_gated_ability():
    t = _buyer()
    t.fails({"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "banner"}, "glory_too_low")
    t.set("ala", glory=2)
    t.do({"type": "buy", "character_id": "ala", "purchase": "ability", "ability_id": "banner"})


@pytest.mark.parametrize("rounding, cost", [("ceil", 3), ("floor", 2)])
def test_efficiency_halves_resources_rounded_by_toggle(rounding, cost):
    t = Table(efficiency_rounding=rounding)
    t.pc("ala")  # support default picks include efficiency
    events = t.do({"type": "use_resources", "character_id": "ala", "base_cost": 5, "description": "forging"})
    assert one(events, "resources_used")["cost"] == cost


def _inn(temperature_extreme: bool = False, species: str = "elf") -> Table:
    t = Table()
    t.pc("ala", species=species)
    t.do(
        {
            "type": "define_location",
            "location_id": "inn",
            "name": "Inn",
            "is_safe_place": True,
            "temperature_extreme": temperature_extreme,
        }
    )
    t.do({"type": "set_location", "character_ids": ["ala"], "location_id": "inn"})
    t.set("ala", health=2)
    t.do({"type": "rest_start", "character_id": "ala"})
    return t


def test_safe_place_rest_heals_one_per_full_day():
    t = _inn()
    t.do({"type": "advance_time", "days": 2})
    assert t.sheet("ala")["health"] == 4


def test_interrupted_rest_stops_healing():
    t = _inn()
    t.do({"type": "rest_interrupted", "character_id": "ala"})
    t.do({"type": "advance_time", "days": 2})
    assert t.sheet("ala")["health"] == 2


def test_rest_needs_a_safe_place():
    t = Table()
    t.pc("ala")
    t.set("ala", health=3)
    t.fails({"type": "rest_start", "character_id": "ala"}, "not_in_safe_place")


def test_asrai_regain_nothing_in_extreme_temperature_unless_protected():
    t = _inn(temperature_extreme=True, species="asrai")
    events = t.do({"type": "advance_time", "days": 1})
    assert t.sheet("ala")["health"] == 2 and of(events, "regeneration_blocked")
    t.set("ala", focus_points=1)
    t.fails({"type": "restore_focus", "character_id": "ala", "amount": 2}, "regeneration_blocked")
    t.do(
        {
            "type": "add_item",
            "character_id": "ala",
            "name": "warming amulet",
            "weight": 0,
            "protects_from_temperature": True,
        }
    )
    t.do({"type": "restore_focus", "character_id": "ala", "amount": 2})
    t.do({"type": "advance_time", "days": 1})
    assert (t.sheet("ala")["focus_points"], t.sheet("ala")["health"]) == (3, 3)


def test_time_stops_on_the_day_a_recovery_test_falls_due():
    t = Table()
    t.pc("ala")
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 1})
    t.do({"type": "accept_damage"})
    events = t.do({"type": "advance_time", "days": 5})
    assert one(events, "time_advanced")["day"] == 1 and t.table["awaiting"][0]["may"] == ["recovery_test"]
    t.fails({"type": "advance_time", "days": 1}, "recovery_tests_due")


def _door_recovery(**options) -> Table:
    t = Table(**options)
    t.pc("ala")
    t.set("ala", health=1)
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 1})
    t.do({"type": "accept_damage"})
    t.do({"type": "advance_time", "days": 1})
    t.do({"type": "recovery_test", "character_id": "ala"}, actor=ALA)
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    return t


def test_failed_recovery_test_on_deaths_door_kills_by_default():
    assert _door_recovery().sheet("ala")["status"] == "dead"


def test_failed_recovery_test_on_deaths_door_spared_when_toggled():
    t = _door_recovery(deaths_door_regen_test_can_kill=False)
    assert t.sheet("ala")["status"] == "alive" and t.sheet("ala")["recovery"]["next_si_test_due_at"] == 2


def test_regaining_health_ends_deaths_door_and_full_health_ends_recovery():
    t = Table()
    t.pc("ala")
    t.set("ala", health=0)
    events = t.do({"type": "restore_health", "character_id": "ala", "amount": 9, "reason": "healing herb"})
    assert one(events, "health_regained")["deaths_door_ended"] is True
    assert t.sheet("ala")["health"] == 5 and t.sheet("ala")["recovery"]["recovering"] is False


def test_restore_focus_up_to_max():
    t = Table()
    t.pc("ala")
    t.set("ala", focus_points=3)
    t.do({"type": "restore_focus", "character_id": "ala", "amount": 9})
    assert t.sheet("ala")["focus_points"] == 5
    t.fails({"type": "restore_focus", "character_id": "ala", "amount": 1}, "at_maximum")


def test_carry_predisposition_toggle_off_ignores_it():
    t = Table(carry_predisposition_adjusts_capacity=False)
    t.pc("ala", predispositions=[{"label": "Dźwiganie", "affects_carrying": True}])
    assert SYSTEM.view(t.state, GM)["derived"]["ala"]["carry_capacity"] == 9


def test_transfer_checks_the_receivers_limit():
    t = Table()
    t.pc("ala", inventory=[{"name": "anvil", "weight": 2}])
    t.pc("bob", attrs={"strength": 0}, inventory=[{"name": f"s{n}", "weight": 1} for n in range(9)])
    t.fails(
        {"type": "transfer_item", "character_id": "ala", "item_id": "i1", "to_character_id": "bob"},
        "over_carry_limit",
        actor=ALA,
    )
    t.do({"type": "drop_item", "character_id": "bob", "item_id": "i1"})
    t.do({"type": "transfer_item", "character_id": "ala", "item_id": "i1", "to_character_id": "bob"}, actor=ALA)
    assert t.sheet("ala")["inventory"] == [] and t.sheet("bob")["inventory"][-1]["name"] == "anvil"


def test_set_aside_items_do_not_count():
    t = Table()
    t.pc("ala", attrs={"strength": 0}, inventory=[{"name": "chest", "weight": 2, "carried": False}])
    t.do({"type": "set_carried", "character_id": "ala", "item_id": "i1", "carried": True}, actor=ALA)
    assert SYSTEM.view(t.state, GM)["derived"]["ala"]["load"] == 2


def test_setting_an_item_down_takes_it_off_the_load_and_is_logged():
    t = Table()
    t.pc("ala", inventory=[{"name": "chest", "weight": 2}])
    events = t.do({"type": "set_carried", "character_id": "ala", "item_id": "i1", "carried": False}, actor=ALA)
    assert SYSTEM.view(t.state, GM)["derived"]["ala"]["load"] == 0
    assert one(events, "item_set_down")["item_id"] == "i1"


def test_ether_exposure_beyond_tolerance_is_flagged_for_the_gm():
    t = Table()
    t.pc("elf")
    t.pc("dwarf", species="dwarf")
    t.pc("hum", species="human")
    t.do({"type": "define_location", "location_id": "rift", "name": "Rift", "ether_concentration": "high"})
    events = t.do({"type": "set_location", "character_ids": ["elf", "dwarf", "hum"], "location_id": "rift"})
    flagged = one(events, "ether_exposure_changed")["exposed"]
    assert {f["character_id"] for f in flagged} == {"elf", "hum"}
    assert [e for e in events if e.type == "ether_exposure_changed"][0].visibility == "gm"


def test_human_ether_sense_reveals_the_level():
    t = Table()
    t.pc("hum", species="human")
    t.pc("elf")
    t.do({"type": "define_location", "location_id": "rift", "name": "Rift", "ether_concentration": "medium"})
    t.fails({"type": "reveal_ether", "location_id": "rift", "character_id": "elf"}, "no_ether_sense")
    t.do({"type": "reveal_ether", "location_id": "rift", "character_id": "hum"})
    assert SYSTEM.view(t.state, player("hum"))["table"]["locations"]["rift"]["ether_concentration"] == "medium"
    assert SYSTEM.view(t.state, player("elf"))["table"]["locations"]["rift"]["ether_concentration"] is None


def test_gm_edits_traits_and_npc_health_max_only_for_npcs():
    t = Table()
    t.pc("ala")
    t.npc("ogre")
    t.do({"type": "edit_character", "character_id": "ogre", "health_max": 8})
    assert t.sheet("ogre")["health_max"] == 8
    t.fails({"type": "edit_character", "character_id": "ala", "health_max": 8}, "npc_only")
    t.do({"type": "edit_character", "character_id": "ala", "predispositions": [{"label": "Nawigacja"}]})
    assert t.sheet("ala")["predispositions"][0]["label"] == "Nawigacja"


def test_human_ether_tolerance_setting():
    t = Table(human_ether_tolerance="high")
    t.pc("hum", species="human")
    t.do({"type": "define_location", "location_id": "rift", "name": "Rift", "ether_concentration": "high"})
    t.do({"type": "set_location", "character_ids": ["hum"], "location_id": "rift"})
    assert t.table["ether_exposure"] == []


def test_an_npc_regaining_health_keeps_its_health_and_deaths_door_from_players():
    """Spec 8: NPC Health is the GM's. Players' copy of `health_regained` lacks it, and still matches its model
    (checked_apply validates every player copy)."""
    t = Table()
    t.npc("orc")
    t.set("orc", health=0)
    events = t.do({"type": "restore_health", "character_id": "orc", "amount": 2, "reason": "healing herb"})
    regained = one(events, "health_regained")
    assert regained["deaths_door_ended"] is True
