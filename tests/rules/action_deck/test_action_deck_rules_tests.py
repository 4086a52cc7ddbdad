"""One test per rule of trait tests, damage and bennies (spec §4.1–§4.9, §4.28–§4.29), toggles on and off."""

from __future__ import annotations

import pytest

from action_deck_support import Table, one, player
from service.dice.table import TableDice
from service.rules.action_deck.rolls import Roller

ANN = player("p1", "ann")


def solo(**options) -> Table:
    t = Table(**options)
    t.add(
        "ann",
        skills={"fighting": "d8", "shooting": "d6"},
        weapons=[
            {"name": "axe", "damage": ["d8", "d6"], "raise_bonus": 6},
            {"name": "smg", "damage": ["d6"], "rate_of_fire": 3},
        ],
    )
    t.add("orc", side="opposition", skills={"fighting": "d6"})
    t.add("mook", kind="extra", side="opposition", skills={"fighting": "d6"})
    t.add("mook2", kind="extra", side="opposition", skills={"fighting": "d6"})
    t.session({"p1": ["ann"]})
    return t


def test_ace_safety_cap_stops_an_endless_chain():
    r = Roller(TableDice([6, 6, 6]), ace_cap=2).open(6, "t")
    assert r["capped"] and r["total"] == 18


def test_wild_card_takes_the_higher_of_trait_and_wild_die():
    t = solo()
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 6, 3])
    r = t.last_test()["result"]
    assert r["total"] == 9 and r["results"][0]["from_wild_die"]


def test_wild_die_size_and_standard_tn_are_settings():
    t = solo(wild_die=8, standard_tn=5)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 4])  # wild d8 shows 4
    test = t.last_test()
    assert test["spec"]["wild_die"] == 8 and test["tn"] == 5 and not test["result"]["success"]


def test_one_wild_die_per_action_even_with_several_trait_dice():
    t = solo()
    ev = t.do(
        {"type": "trait_test", "character_id": "ann", "trait": "shooting", "weapon": "smg", "dice_count": 3},
        dice=[2, 3, 4, 5],
    )
    dice = one(ev, "trait_test_rolled").data["dice"]
    assert [d["purpose"].endswith("wild_die") for d in dice] == [False, False, False, True]


def test_choose_wild_substitution_or_ignore_it():
    t = solo()
    tid = (
        t.do(
            {"type": "trait_test", "character_id": "ann", "trait": "shooting", "weapon": "smg", "dice_count": 3},
            dice=[2, 3, 4, 5],
        ),
        t.last_test()["id"],
    )[1]
    assert [r["total"] for r in t.test(tid)["result"]["results"]] == [5, 3, 4]  # default: replaces the lowest
    t.do({"type": "choose_wild_substitution", "test_id": tid, "index": 1}, actor=ANN)
    assert [r["total"] for r in t.test(tid)["result"]["results"]] == [2, 5, 4]
    t.do({"type": "choose_wild_substitution", "test_id": tid, "index": None}, actor=ANN)
    assert t.test(tid)["result"]["successes"] == 1


@pytest.mark.parametrize("counts,crit", [(False, False), (True, True)])
def test_multi_die_crit_counts_wild_die_toggle(counts, crit):
    t = solo(multi_die_crit_counts_wild_die=counts)
    t.do(
        {"type": "trait_test", "character_id": "ann", "trait": "shooting", "weapon": "smg", "dice_count": 2},
        dice=[1, 5, 1],
    )
    assert t.last_test()["critical_failure"] is crit


@pytest.mark.parametrize("needs,check,crit", [(False, None, True), (True, 3, False), (True, 1, True)])
def test_multi_die_extra_needs_d6_toggle(needs, check, crit):
    t = solo(multi_die_extra_needs_d6=needs)
    t.do(
        {"type": "trait_test", "character_id": "mook", "trait": "fighting", "dice_count": 2},
        dice=[1, 1] + ([check] if check else []),
    )
    assert t.last_test()["critical_failure"] is crit


@pytest.mark.parametrize(
    "mode,flag,dice,crit",
    [
        ("always", False, [1, 1], True),
        ("never", True, [1], False),
        ("gm_flag", False, [1], False),
        ("gm_flag", True, [1, 2], False),
    ],
)
def test_extra_crit_check_toggle(mode, flag, dice, crit):
    t = solo(extra_crit_check=mode)
    t.do({"type": "trait_test", "character_id": "mook", "trait": "fighting", "crit_check": flag}, dice=dice)
    assert t.last_test()["critical_failure"] is crit


def test_multi_die_reroll_keeps_the_attempt_with_more_successes_or_the_chosen_one():
    t = solo()
    t.do(
        {"type": "trait_test", "character_id": "ann", "trait": "shooting", "weapon": "smg", "dice_count": 2},
        dice=[4, 2, 1],
    )
    tid = t.last_test()["id"]
    t.do({"type": "reroll", "test_id": tid}, dice=[5, 5, 2], actor=ANN)
    assert t.test(tid)["kept"] == 1
    t.do({"type": "accept_test", "test_id": tid, "keep_attempt": 0}, actor=ANN)  # B30: the roller may choose
    assert t.test(tid)["result"]["successes"] == 1 and t.test(tid)["state"] == "final"


def test_reroll_by_ability_is_confirmed_by_the_gm_and_costs_no_benny():
    t = solo()
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 2])
    tid = t.last_test()["id"]
    t.fails({"type": "reroll", "test_id": tid, "paid_by": "ability", "ability": "Elan"}, "gm_only", actor=ANN)
    t.do({"type": "reroll", "test_id": tid, "paid_by": "ability", "ability": "Elan"}, dice=[7, 2])
    assert t.test(tid)["result"]["total"] == 7 and t.bennies("p1") == 3


def test_next_unrelated_move_of_the_roller_accepts_the_test():
    t = solo()
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 2])
    tid = t.last_test()["id"]
    t.do({"type": "trait_test", "character_id": "orc", "trait": "fighting"}, dice=[3, 3])  # someone else
    assert t.test(tid)["state"] == "rolled"
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[3, 3])
    assert t.test(tid)["state"] == "final"


def test_opposed_defender_critical_failure_gives_the_active_party_the_win():
    t = solo()
    t.do(
        {
            "type": "opposed_test",
            "character_id": "ann",
            "trait": "fighting",
            "defender_id": "orc",
            "defender_trait": "fighting",
        },
        dice=[7, 2],
    )
    ev = t.do({"type": "defend", "opposed_id": t.last_test()["opposed_id"]}, dice=[1, 1])
    res = one(ev, "opposed_resolved").data
    assert (res["winner_id"], res["raises"], res["defender_total"]) == ("ann", 1, 1)


def test_damage_aces_joker_and_raise_bonus():
    t = solo()
    t.fight({"ann": "JK-R"})
    t.do({"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "attack"}]})
    t.do(
        {"type": "trait_test", "character_id": "ann", "trait": "fighting", "weapon": "axe", "action_index": 0},
        dice=[6, 2],
    )  # 6 + 2 Joker = 8: one raise
    attack = t.last_test()["id"]
    ev = t.do({"type": "damage_roll", "character_id": "ann", "weapon": "axe", "attack_test_id": attack}, dice=[8, 3, 4])
    test = one(ev, "damage_rolled").data["test"]
    assert test["result"]["total"] == 11 + 4 + 6 + 2
    assert {b["source"] for b in test["bonuses"]} == {"raise", "joker"}


def test_benny_reroll_of_damage_keeps_the_better():
    t = solo()
    t.do({"type": "damage_roll", "character_id": "ann", "weapon": "axe"}, dice=[5, 5], actor=ANN)
    tid = t.last_test()["id"]
    ev = t.do({"type": "reroll", "test_id": tid}, dice=[1, 2], actor=ANN)
    assert t.test(tid)["result"]["total"] == 10 and one(ev, "benny_spent").data["use"] == "reroll_damage"
    assert t.bennies("p1") == 2


def test_players_name_a_weapon_for_damage():
    t = solo()
    t.fails({"type": "damage_roll", "character_id": "ann", "dice": ["d12"]}, "gm_only", actor=ANN)


def test_unshake_with_a_benny_at_any_moment_but_not_stunned():
    t = solo()
    t.do({"type": "set_condition", "character_id": "ann", "shaken": True, "stunned": True})
    t.do({"type": "unshake", "character_id": "ann"}, actor=ANN)
    assert not t.char("ann")["shaken"] and t.char("ann")["stunned"] and t.bennies("p1") == 2


def test_soak_records_the_spend_and_the_gms_result():
    t = solo()
    t.do({"type": "apply_wounds", "character_id": "ann", "wounds": 2})
    ev = t.do({"type": "soak", "character_id": "ann"}, actor=ANN)
    assert one(ev, "soaked").data["result_pending"] and t.char("ann")["wounds"] == 2 and t.bennies("p1") == 2
    t.fails({"type": "soak", "character_id": "ann", "wounds_avoided": 2}, "gm_only", actor=ANN)
    t.do({"type": "soak", "character_id": "ann", "wounds_avoided": 1, "shaken_avoided": True})
    assert t.char("ann")["wounds"] == 1 and t.bennies("p1") == 1


def test_regain_power_five_points_per_benny():
    t = solo()
    t.do({"type": "regain_power", "character_id": "ann"}, actor=ANN)
    assert t.char("ann")["power_points"] == 5 and t.bennies("p1") == 2


def test_npc_wild_card_pays_own_bennies_first_then_the_gm_pool():
    t = solo()
    t.do({"type": "enter_play", "character_id": "orc", "edge_bonus": 0})
    t.table["gm"]["npc_bennies"]["orc"] = 1
    pool = t.table["gm"]["benny_pool"]
    for _ in range(2):
        t.do({"type": "set_condition", "character_id": "orc", "shaken": True})
        ev = t.do({"type": "unshake", "character_id": "orc"})
    assert t.table["gm"]["npc_bennies"]["orc"] == 0 and t.table["gm"]["benny_pool"] == pool - 1
    assert "bennies" not in one(ev, "benny_spent").redacted


def test_extras_and_group_tests_pay_from_the_gm_pool():
    t = solo()
    pool = t.table["gm"]["benny_pool"]
    t.do({"type": "group_test", "leader_id": "mook", "member_ids": ["mook", "mook2"], "trait": "fighting"}, dice=[2, 2])
    t.do({"type": "reroll", "test_id": t.last_test()["id"]}, dice=[3, 3])
    assert t.table["gm"]["benny_pool"] == pool - 1


def test_gm_award_and_session_gates():
    t = solo()
    t.do({"type": "award_benny", "player_ids": ["p1"], "count": 2, "reason": "great story"})
    assert t.bennies("p1") == 5
    t.do({"type": "close_session"})
    t.fails({"type": "award_benny", "player_ids": ["p1"]}, "no_open_session")
    t.do({"type": "open_session", "players": [{"player_id": "p1", "character_ids": ["ann"]}]})
    assert t.bennies("p1") == 3 and t.table["gm"]["benny_pool"] == 1  # B37a: party-side characters


def test_players_bennies_are_per_player_not_per_character():
    t = Table()
    t.add("ann")
    t.add("dog", side="party_ally", kind="extra")
    t.session({"p1": ["ann", "dog"]})
    t.do({"type": "set_condition", "character_id": "dog", "shaken": True})
    t.do({"type": "unshake", "character_id": "dog"}, actor=player("p1", "ann", "dog"))
    assert t.bennies("p1") == 2


def test_npc_leaving_play_discards_its_bennies():
    t = solo()
    t.do({"type": "enter_play", "character_id": "orc"})
    ev = t.do({"type": "leave_play", "character_id": "orc"})
    assert "orc" not in t.table["gm"]["npc_bennies"] and one(ev, "npc_left_play").redacted == {"character_id": "orc"}


def test_trait_die_above_d12_adds_its_bonus():
    t = Table()
    t.add("giant", kind="extra", attributes={"strength": "d12+2"})
    t.do({"type": "trait_test", "character_id": "giant", "trait": "strength"}, dice=[5])
    assert t.last_test()["result"]["total"] == 7


def test_unskilled_die_and_penalty_are_settings():
    t = Table(unskilled_die=6, unskilled_penalty=-1)
    t.add("mook", kind="extra", skills={})
    t.do({"type": "trait_test", "character_id": "mook", "trait": "lockpicking"}, dice=[5])
    test = t.last_test()
    assert test["spec"]["sides"] == 6 and test["result"]["total"] == 4


def test_a_critical_failure_is_terminal_from_the_roll_on():
    """§5.5: requested → rolled | critical_failure; a critical failure takes no reroll and no accept."""
    t = solo()
    ev = t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[1, 1], actor=ANN)
    rolled = one(ev, "trait_test_rolled").data["test"]
    assert rolled["state"] == "critical_failure" and one(ev, "test_final").data["reason"] == "critical_failure"
    tid = rolled["id"]
    assert t.test(tid)["state"] == "critical_failure"
    t.fails({"type": "accept_test", "test_id": tid}, "test_not_open", actor=ANN)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 2], actor=ANN)
    tid = t.last_test()["id"]
    ev = t.do({"type": "reroll", "test_id": tid}, dice=[1, 1], actor=ANN)
    assert one(ev, "test_rerolled").data["test"]["state"] == "critical_failure" == t.test(tid)["state"]
